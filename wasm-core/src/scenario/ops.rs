//! The ops of a task's program, one section per op: its fields (the scenario format), what `{i}`
//! replaces in it for a replicated task, and its semantic checks, side by side.
//!
//! Adding an op: its struct and its `OpRules` here and one line in the `ops!` table below; then
//! the compiler asks for its compilation to instructions (sim/build.rs) and for what
//! `reclaim kernel`'s guest runner does with it (kernel_run/guest.rs), whose matches over `Op`
//! are exhaustive.
use serde::{Deserialize, Serialize};

use super::parse::{Check, Checker, Walk, PAGE_SIZE};
use super::schema::{Hint, Pattern, Record};
use super::units::{Duration, Size};

/// What each op declares next to its fields.
pub(super) trait OpRules {
    /// Replace `{i}` by `i` in what belongs to one replica of a task: the region names the op
    /// gives or uses (a shared anon region's name is also its shmem object's) and memcgs.
    fn subst(&mut self, _i: u32) {}

    /// The semantic checks of the op at `path` (e.g. `tasks[0].program[2]`), once the file has
    /// deserialized; `may_run_forever`: the op is the last one of a task's own program.
    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        may_run_forever: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check;
}

/// The op table: the `Op` enum (`op = "snake_case_name"` in a file) and its dispatch.
macro_rules! ops {
    ($($op:ident,)*) => {
        /// One step of a task's program.
        #[derive(Debug, Clone, Deserialize, Serialize)]
        #[serde(tag = "op", rename_all = "snake_case")]
        pub enum Op {
            $($op($op),)*
        }

        impl Op {
            pub(super) fn rules(&self) -> &dyn OpRules {
                match self {
                    $(Op::$op(o) => o,)*
                }
            }

            pub(super) fn rules_mut(&mut self) -> &mut dyn OpRules {
                match self {
                    $(Op::$op(o) => o,)*
                }
            }
        }
    };
}

// Each op's struct below says what the op does.
ops! {
    Anon,
    Mmap,
    Munmap,
    Free,
    Touch,
    Read,
    Write,
    Sleep,
    ScanInactiveFile,
    DropCaches,
    Truncate,
    Mark,
    MemoryReclaim,
    Replay,
    Loop,
}

impl Op {
    /// `{i}` replaced by `i` (see [`OpRules::subst`]).
    pub(super) fn subst(&self, i: u32) -> Op {
        let mut op = self.clone();
        op.rules_mut().subst(i);
        op
    }

    /// Whether every run of the op is sure to let virtual time pass, each access of a touch,
    /// read or write (CPU time, or a rate that spaces accesses after the rounding of
    /// `progress::access_interval_ns`), each iteration of a loop (see `progress`).
    pub(super) fn takes_time(&self, cx: &Checker<'_>, walk: &Walk<'_, '_>) -> bool {
        match self {
            Op::Sleep(Sleep { duration }) => duration.ns() > 0,
            Op::Touch(Touch { cpu, rate, .. })
            | Op::Read(Read { cpu, rate, .. })
            | Op::Write(Write { cpu, rate, .. }) => cpu.ns() > 0 || cx.paced(*rate),
            Op::Replay(Replay { cpu, .. }) => cpu.ns() > 0,
            Op::Loop(l) => l.takes_time(walk),
            _ => false,
        }
    }
}

impl Loop {
    /// Whether every iteration of the loop is sure to let virtual time pass.
    pub(super) fn takes_time(&self, walk: &Walk<'_, '_>) -> bool {
        walk.loop_times
            .get(&(self as *const Loop))
            .is_some_and(|t| t.min_ns > 0)
    }
}

/// Replace `{i}` by `i`.
pub(super) fn subst(s: &str, i: u32) -> String {
    s.replace("{i}", &i.to_string())
}

fn field(path: &str, name: &str) -> String {
    format!("{path}.{name}")
}

// ---- anon ----

/// Create an anonymous region (private, or shared = shmem) without touching it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Anon {
    pub name: String,
    pub size: Size,
    #[serde(default)]
    pub shared: bool,
}

impl OpRules for Anon {
    fn subst(&mut self, i: u32) {
        self.name = subst(&self.name, i);
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Anon { name, size, .. } = self;
        let at = |f: &str| field(path, f);
        cx.name(&at("name"), name, "region")?;
        cx.size(&at("size"), *size)?;
        cx.ensure(size.bytes() > 0, &at("size"), || {
            "an anon region needs a size > 0".into()
        })?;
        walk.pages.insert(name, size.bytes().div_ceil(PAGE_SIZE));
        walk.regions.insert(name);
        walk.read_only.remove(name.as_str());
        walk.anon.insert(name);
        Ok(())
    }
}

// ---- mmap ----

/// Map part of a file.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Mmap {
    pub name: String,
    pub file: String,
    #[serde(default)]
    pub offset: Size,
    /// Default: the rest of the file.
    #[serde(default)]
    pub size: Option<Size>,
    /// "r", "rw", "rx"
    #[serde(default = "default_prot")]
    pub prot: String,
    /// MAP_SHARED (default) or MAP_PRIVATE. A private mapping must be read-only: its
    /// writes would be copy-on-write, which is not modelled.
    #[serde(default = "yes")]
    pub shared: bool,
    #[serde(default)]
    pub hint: Hint,
    /// Each time this op runs, map the `size` bytes that follow the previous run's
    /// mapping (the first run maps at `offset`; wraps to `offset` at the end of the file):
    /// a task mapping a large file chunk by chunk in a loop.
    #[serde(default)]
    pub advance: bool,
}

impl OpRules for Mmap {
    fn subst(&mut self, i: u32) {
        self.name = subst(&self.name, i);
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Mmap {
            name,
            file,
            offset,
            size,
            prot,
            advance,
            shared,
            ..
        } = self;
        let at = |f: &str| field(path, f);
        cx.ensure(!*advance || size.is_some(), &at("advance"), || {
            "advance = true needs an explicit size (the chunk mapped each time)".into()
        })?;
        cx.name(&at("name"), name, "region")?;
        let f = cx.declared_file(&at("file"), file)?;
        walk.held
            .entry(file)
            .or_insert_with(|| (at("file"), "mmapped"));
        cx.mmap_range(path, f, *offset, *size)?;
        let len = size.map_or(f.size.bytes() - offset.bytes(), Size::bytes);
        walk.pages.insert(name, len.div_ceil(PAGE_SIZE));
        cx.ensure(
            ["r", "rw", "rx", "rwx"].contains(&prot.as_str()),
            &at("prot"),
            || format!("unknown prot {prot:?}; allowed: r, rw, rx, rwx"),
        )?;
        // A write through a private file mapping copies the page into an anonymous one
        // (`do_cow_fault`, `wp_page_copy`), which the engine does not model: refuse it
        // rather than let writes dirty the file.
        cx.ensure(*shared || !prot.contains('w'), &at("shared"), || {
            "a private writable file mapping (copy-on-write) is not modelled; use \
             shared = true, or a read-only prot (r, rx)"
                .into()
        })?;
        walk.regions.insert(name);
        walk.anon.remove(name.as_str());
        if prot.contains('w') {
            walk.read_only.remove(name.as_str());
        } else {
            walk.read_only.insert(name);
        }
        Ok(())
    }
}

// ---- munmap, free ----

/// An op that ends a region by name: `munmap` removes a mapping (file mappings: young PTEs
/// are transferred as the kernel's zap does), `free` frees an anonymous region. Both name a
/// region defined before; what each does is the interpreter's (`Instr::Munmap`, `Instr::Free`).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct EndRegion {
    pub name: String,
}

/// Remove a mapping.
pub type Munmap = EndRegion;
/// Free an anonymous region.
pub type Free = EndRegion;

impl OpRules for EndRegion {
    fn subst(&mut self, i: u32) {
        self.name = subst(&self.name, i);
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        cx.defined_region(&field(path, "name"), &self.name, walk)
    }
}

// ---- touch ----

/// Access pages of one or more mapped regions (interleaved page by page when several).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Touch {
    pub regions: Vec<String>,
    #[serde(default)]
    pub pattern: Pattern,
    /// Number of pages to access; default: every page of the regions once.
    #[serde(default)]
    pub count: Option<u64>,
    #[serde(default)]
    pub write: bool,
    /// CPU time per 4 KiB page accessed (a frame of `frame_scale` pages costs that many
    /// times as much, so the timing does not depend on the scale).
    #[serde(default)]
    pub cpu: Duration,
    /// Zipf exponent for pattern = "zipf".
    #[serde(default = "default_theta")]
    pub theta: f64,
    /// Page accesses per second (0 = unlimited), in 4 KiB pages whatever the frame scale.
    #[serde(default)]
    pub rate: f64,
    /// The share of accesses that write (each access chooses at random), for mixed
    /// read/write workloads (fio rw = randrw). Default 0; `write = true` means all.
    #[serde(default)]
    pub write_fraction: f64,
}

impl OpRules for Touch {
    fn subst(&mut self, i: u32) {
        for r in &mut self.regions {
            *r = subst(r, i);
        }
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Touch {
            regions,
            count,
            theta,
            rate,
            write,
            write_fraction,
            cpu,
            ..
        } = self;
        let at = |f: &str| field(path, f);
        cx.free_accesses(path, *count, cpu.ns() > 0 || cx.paced(*rate), walk.copies)?;
        cx.ensure(!regions.is_empty(), &at("regions"), || {
            "touch needs at least one region".into()
        })?;
        cx.ensure(
            (0.0..=1.0).contains(write_fraction),
            &at("write_fraction"),
            || format!("write_fraction is a share of accesses, 0..=1, got {write_fraction}"),
        )?;
        for (k, region) in regions.iter().enumerate() {
            cx.defined_region(&format!("{path}.regions[{k}]"), region, walk)?;
            // A store through a mapping without PROT_WRITE faults with SIGSEGV.
            cx.ensure(
                !(*write || *write_fraction > 0.0) || !walk.read_only.contains(region.as_str()),
                &format!("{path}.regions[{k}]"),
                || {
                    format!(
                        "touch writes to region {region:?}, which is mapped without write permission; map it with prot = \"rw\" or do not write"
                    )
                },
            )?;
        }
        cx.theta_and_rate(path, *theta, *rate)
    }
}

// ---- read, write ----

/// Buffered read() of a file through the page cache.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Read {
    pub file: String,
    #[serde(default)]
    pub pattern: Pattern,
    #[serde(default)]
    pub offset: Size,
    #[serde(default)]
    pub size: Option<Size>,
    #[serde(default)]
    pub count: Option<u64>,
    /// CPU time per 4 KiB page read or written (see `Touch`).
    #[serde(default)]
    pub cpu: Duration,
    #[serde(default = "default_theta")]
    pub theta: f64,
    #[serde(default)]
    pub rate: f64,
    #[serde(default)]
    pub hint: Hint,
    /// Read through an application buffer pool: the named anon region (one buffer a
    /// frame) caches the file's blocks, as postgres's shared buffers do. A block found
    /// there is a memory access; a miss takes a buffer by clock sweep, writes its old
    /// block back with write() if it was modified, and read()s the new one.
    #[serde(default)]
    pub buffer: Option<String>,
    /// With `buffer`: the block is modified once read (an UPDATE): the buffer is dirty
    /// and is written back when the sweep reuses it.
    #[serde(default)]
    pub write: bool,
}

impl OpRules for Read {
    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Read {
            file,
            pattern,
            offset,
            size,
            count,
            cpu,
            theta,
            rate,
            buffer,
            write,
            ..
        } = self;
        let at = |f: &str| field(path, f);
        cx.free_accesses(path, *count, cpu.ns() > 0 || cx.paced(*rate), walk.copies)?;
        file_range(cx, path, file, *pattern, *offset, *size)?;
        match buffer {
            Some(region) => {
                walk.held
                    .entry(file)
                    .or_insert_with(|| (at("buffer"), "read through a buffer pool"));
                cx.defined_region(&at("buffer"), region, walk)?;
                cx.ensure(walk.anon.contains(region.as_str()), &at("buffer"), || {
                    format!(
                        "buffer {region:?} is a file mapping; a buffer pool is an anon region (op = \"anon\", shared = true for one pool of all clients)"
                    )
                })?;
            }
            None => cx.ensure(!*write, &at("write"), || {
                "write = true on a read needs buffer = \"<anon region>\": the read fills a buffer that is then modified; to write the file use op = \"write\"".into()
            })?,
        }
        cx.theta_and_rate(path, *theta, *rate)
    }
}

/// Buffered write() of a file through the page cache (append when pattern = "seq").
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Write {
    pub file: String,
    #[serde(default)]
    pub pattern: Pattern,
    #[serde(default)]
    pub offset: Size,
    #[serde(default)]
    pub size: Option<Size>,
    #[serde(default)]
    pub count: Option<u64>,
    /// CPU time per 4 KiB page read or written (see `Touch`).
    #[serde(default)]
    pub cpu: Duration,
    #[serde(default = "default_theta")]
    pub theta: f64,
    #[serde(default)]
    pub rate: f64,
    /// O_DSYNC: each write waits until its page is on the device (postgres' WAL commit).
    #[serde(default)]
    pub sync: bool,
    /// Bytes per write (default a page). Sequential writes append this much at the file's
    /// shared cursor, so small writes rewrite the same page until it is full.
    #[serde(default)]
    pub bytes: Option<Size>,
    /// Synchronous sequential writes only: the file is written in segments of this size
    /// (whole frames), and when the appends move into the next segment the finished one is
    /// dropped from the page cache with POSIX_FADV_DONTNEED, as postgres does with each
    /// closed WAL segment when wal_level is minimal (`XLogFileClose`). No effect on a tmpfs
    /// file, as in the kernel.
    #[serde(default)]
    pub drop_behind: Option<Size>,
}

impl OpRules for Write {
    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Write {
            file,
            pattern,
            offset,
            size,
            count,
            cpu,
            theta,
            rate,
            sync,
            bytes,
            drop_behind,
        } = self;
        let at = |f: &str| field(path, f);
        cx.free_accesses(path, *count, cpu.ns() > 0 || cx.paced(*rate), walk.copies)?;
        file_range(cx, path, file, *pattern, *offset, *size)?;
        if let Some(b) = bytes {
            cx.ensure(b.bytes() >= 1 && b.bytes() <= 4096, &at("bytes"), || {
                format!("bytes per write must be 1B..4KiB (at most one page), got {b}")
            })?;
        }
        if let Some(seg) = drop_behind {
            let (size, first) = walk
                .segments
                .entry(file.as_str())
                .or_insert_with(|| (seg.bytes(), at("drop_behind")));
            cx.ensure(*size == seg.bytes(), &at("drop_behind"), || {
                format!(
                    "file {file:?} is written with drop_behind = \"{seg}\" here but \"{}\" \
                     at {first}; all writers of a file close the same segments, so they \
                     need the same size",
                    Size(*size)
                )
            })?;
            cx.ensure(*pattern == Pattern::Seq, &at("drop_behind"), || {
                "drop_behind applies to sequential writes (pattern = \"seq\")".into()
            })?;
            cx.ensure(*sync, &at("drop_behind"), || {
                "drop_behind needs sync = true: a segment is dropped once it is on \
                 disk, as postgres fsyncs each WAL segment before it closes it"
                    .into()
            })?;
            cx.ensure(seg.bytes() > 0, &at("drop_behind"), || {
                "drop_behind needs a segment size > 0".into()
            })?;
        }
        cx.theta_and_rate(path, *theta, *rate)
    }
}

/// The checks a read and a write share: a declared file, a pattern they take, sizes in range.
fn file_range(
    cx: &Checker<'_>,
    path: &str,
    file: &str,
    pattern: Pattern,
    offset: Size,
    size: Option<Size>,
) -> Check {
    let at = |f: &str| field(path, f);
    cx.declared_file(&at("file"), file)?;
    cx.ensure(pattern != Pattern::Sweep, &at("pattern"), || {
        "pattern \"sweep\" applies to touch only; reads and writes take \"seq\", \"random\" or \"zipf\"".into()
    })?;
    cx.size(&at("offset"), offset)?;
    if let Some(size) = size {
        cx.size(&at("size"), size)?;
    }
    Ok(())
}

// ---- sleep, scan_inactive_file, drop_caches ----

/// Do nothing for a while.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sleep {
    pub duration: Duration,
}

impl OpRules for Sleep {
    fn check<'a>(&'a self, _: &Checker<'a>, _: &str, _: bool, _: &mut Walk<'_, 'a>) -> Check {
        Ok(())
    }
}

/// Test instrumentation: run reclaim once over the whole inactive file list
/// (`shrink_inactive_list` at its current length), charging the CPU time to the task.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ScanInactiveFile {}

impl OpRules for ScanInactiveFile {
    fn check<'a>(&'a self, _: &Checker<'a>, _: &str, _: bool, _: &mut Walk<'_, 'a>) -> Check {
        Ok(())
    }
}

/// `echo 1 > /proc/sys/vm/drop_caches`: drop every clean, unmapped page-cache page.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DropCaches {}

impl OpRules for DropCaches {
    fn check<'a>(&'a self, _: &Checker<'a>, _: &str, _: bool, _: &mut Walk<'_, 'a>) -> Check {
        Ok(())
    }
}

// ---- truncate ----

/// Truncate a file to length zero, as deleting a temporary file does (`truncate(2)`, or
/// `unlink` of its last link): its page cache, dirty pages included, and its shadow
/// entries go (a tmpfs file's swap slots too); pages with IO in flight go when it ends,
/// and the task waits for them. Reads past the new end do no IO; writes start again at
/// offset zero. A truncated file may be neither mmapped nor read through a buffer pool.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Truncate {
    pub file: String,
}

impl OpRules for Truncate {
    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let at = field(path, "file");
        cx.declared_file(&at, &self.file)?;
        walk.truncated.entry(&self.file).or_insert(at);
        Ok(())
    }
}

// ---- mark ----

/// Name a point in time; reports give counter deltas since the last mark.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Mark {
    pub name: String,
}

impl OpRules for Mark {
    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        cx.name(&field(path, "name"), &self.name, "mark")?;
        walk.marks.insert(&self.name);
        Ok(())
    }
}

// ---- memory_reclaim ----

/// Write `amount` to a memcg's memory.reclaim (optionally with `swappiness=`); the task
/// runs the reclaim itself (its time is the task's).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryReclaim {
    pub memcg: String,
    pub amount: Size,
    /// 0..=200, or `"max"` (6.16+: anon only), held as `SWAPPINESS_MAX`.
    #[serde(
        default,
        deserialize_with = "reclaim_swappiness::de",
        serialize_with = "reclaim_swappiness::ser"
    )]
    pub swappiness: Option<u32>,
}

/// memory.reclaim's `swappiness=max` (`SWAPPINESS_ANON_ONLY`, MAX_SWAPPINESS + 1).
pub const SWAPPINESS_MAX: u32 = 201;

/// `swappiness = 60` or `swappiness = "max"`, as memory.reclaim reads the key.
mod reclaim_swappiness {
    use super::SWAPPINESS_MAX;
    use serde::{Deserialize, Deserializer, Serializer};

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        N(i64),
        S(String),
    }

    pub fn de<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        match Raw::deserialize(d)? {
            Raw::N(n) if (0..=200).contains(&n) => Ok(Some(n as u32)),
            Raw::N(n) => Err(serde::de::Error::custom(format!(
                "swappiness must be 0..=200 or \"max\", got {n}"
            ))),
            Raw::S(s) if s == "max" => Ok(Some(SWAPPINESS_MAX)),
            Raw::S(s) => Err(serde::de::Error::custom(format!(
                "swappiness must be 0..=200 or \"max\", got {s:?}"
            ))),
        }
    }

    pub fn ser<S: Serializer>(v: &Option<u32>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(SWAPPINESS_MAX) => s.serialize_str("max"),
            Some(n) => s.serialize_u32(*n),
            None => s.serialize_none(),
        }
    }
}

impl OpRules for MemoryReclaim {
    fn subst(&mut self, i: u32) {
        self.memcg = subst(&self.memcg, i);
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let MemoryReclaim {
            memcg,
            amount,
            swappiness,
        } = self;
        let at = |f: &str| field(path, f);
        cx.memcg_ref(&at("memcg"), memcg, walk.replicas)?;
        cx.size(&at("amount"), *amount)?;
        cx.ensure(amount.bytes() >= PAGE_SIZE, &at("amount"), || {
            format!("memory_reclaim needs an amount of at least one page (4KiB), got {amount}")
        })?;
        cx.ensure(
            swappiness.is_none_or(|s| s <= 200 || s == SWAPPINESS_MAX),
            &at("swappiness"),
            || {
                format!(
                    "swappiness must be 0..=200 or \"max\", got {}",
                    swappiness.unwrap_or(0)
                )
            },
        )
    }
}

// ---- replay ----

/// Replay an access trace (`trace.rs`): each request of the trace, in order, is one access to
/// one page of `file`, which the objects are mapped onto one page an object id, in the order
/// they first appear (the trace's sizes and offsets are not used). Through `read()`s of the
/// file (default), or touches of `region`, a mapping of it; a write request (CSV op `w`) is a
/// `write()` or a store. The trace's name is the file the shell supplies: the CLI reads it
/// relative to the scenario file, the page asks for it.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    pub trace: String,
    pub format: super::trace::TraceFormat,
    /// read() the pages of this file...
    #[serde(default)]
    pub file: Option<String>,
    /// ...or touch them through this mapped region (of a file).
    #[serde(default)]
    pub region: Option<String>,
    /// "asap": each request as soon as the one before is done; "recorded": not before its
    /// timestamp (scaled by `speed`) after the first request's.
    #[serde(default)]
    pub pace: Pace,
    /// With pace = "recorded": how much faster than recorded (2 = twice as fast).
    #[serde(default = "one_f64")]
    pub speed: f64,
    /// The unit of the trace's timestamps (libCacheSim's oracleGeneral traces: seconds).
    #[serde(default = "one_second")]
    pub time_unit: Duration,
    /// CPU time per request (> 0, so that every request lets virtual time pass).
    #[serde(default = "one_microsecond")]
    pub cpu: Duration,
    /// The read()s' fadvise (default random: objects numbered in order of appearance have no
    /// sequential layout for readahead to find).
    #[serde(default = "random_hint")]
    pub hint: Hint,
    /// Replay only the first `count` requests.
    #[serde(default)]
    pub count: Option<u64>,
    /// Run plain LRU and Belady's OPT beside the replay, each holding as many objects as the
    /// task's memcg memory.max holds pages (one page an object), fed the same requests: a lesson
    /// compares the kernel's misses with theirs (`replay.lru_misses`, `replay.opt_misses`).
    #[serde(default)]
    pub reference: bool,
}

/// How a replay paces its requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Pace {
    #[default]
    Asap,
    Recorded,
}

impl OpRules for Replay {
    fn subst(&mut self, i: u32) {
        if let Some(r) = &mut self.region {
            *r = subst(r, i);
        }
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        _: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let at = |f: &str| field(path, f);
        cx.name(&at("trace"), &self.trace, "trace")?;
        cx.ensure(self.cpu.ns() > 0, &at("cpu"), || {
            "a replay needs cpu > 0 (each request's CPU time), so that every request lets \
             virtual time pass"
                .into()
        })?;
        cx.ensure(
            self.speed > 0.0 && self.speed.is_finite(),
            &at("speed"),
            || format!("speed must be a finite number > 0, got {}", self.speed),
        )?;
        cx.ensure(self.time_unit.ns() > 0, &at("time_unit"), || {
            "time_unit must be > 0".into()
        })?;
        cx.ensure(cx.frame_scale() == 1, path, || {
            "a replay maps each object onto one 4 KiB page: it needs machine.frame_scale = 1".into()
        })?;
        match (&self.file, &self.region) {
            (Some(file), None) => {
                cx.declared_file(&at("file"), file)?;
                walk.held
                    .entry(file)
                    .or_insert_with(|| (at("file"), "replayed"));
                Ok(())
            }
            (None, Some(region)) => {
                cx.defined_region(&at("region"), region, walk)?;
                cx.ensure(!walk.anon.contains(region.as_str()), &at("region"), || {
                    format!("region {region:?} is anonymous; a replay touches a file mapping")
                })
            }
            _ => Err(cx.error_at(
                path,
                "a replay reads a file (file = \"...\") or touches a file mapping \
                 (region = \"...\"): give exactly one"
                    .into(),
            )),
        }
    }
}

fn one_f64() -> f64 {
    1.0
}
fn one_second() -> Duration {
    Duration(1_000_000_000)
}
fn one_microsecond() -> Duration {
    Duration(1_000)
}
fn random_hint() -> Hint {
    Hint::Random
}

// ---- loop ----

/// Repeat a body `count` times, or until `duration` has passed, or forever.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Loop {
    #[serde(default)]
    pub count: Option<u64>,
    #[serde(default)]
    pub duration: Option<Duration>,
    #[serde(default)]
    pub record: Record,
    pub body: Vec<Op>,
}

impl OpRules for Loop {
    fn subst(&mut self, i: u32) {
        for op in &mut self.body {
            op.rules_mut().subst(i);
        }
    }

    fn check<'a>(
        &'a self,
        cx: &Checker<'a>,
        path: &str,
        may_run_forever: bool,
        walk: &mut Walk<'_, 'a>,
    ) -> Check {
        let Loop {
            count,
            duration,
            body,
            ..
        } = self;
        let at = |f: &str| field(path, f);
        cx.ensure(!body.is_empty(), &at("body"), || {
            "a loop needs at least one op in its body".into()
        })?;
        cx.ensure(count.is_some() || duration.is_some() || may_run_forever, path, || {
            "a loop with neither count nor duration never ends, so it may only be the last op of a \
             task's program; add count = N or duration = \"10s\""
                .into()
        })?;
        // Guaranteed progress: an iteration that may take no virtual time would let a loop
        // bounded by time only repeat without end at one instant; a counted one is bounded by
        // what it does at one instant (below).
        // A loop whose time was not reckoned is refused too: the check fails closed.
        if count.is_none() && !self.takes_time(walk) {
            let why = walk.loop_times.get(&(self as *const Loop)).map_or_else(
                || "its time was not reckoned".to_string(),
                |t| t.why.join("; "),
            );
            return Err(cx.error_at(
                &at("body"),
                format!(
                    "one iteration of this loop may take no virtual time (0 ns at the \
                     least), so it could repeat without end at one instant: {why}. Give a \
                     touch, read or write in its body cpu > 0 (or a rate and a count of \
                     at least 2 accesses), or add a sleep (or give the loop a count)"
                ),
            ));
        }
        cx.program(body, &at("body"), false, walk)?;
        // Every copy of the task (replicas x clients) may run the loop at the same instant.
        let work = cx.loop_instant_work(self, walk).saturating_mul(walk.copies);
        let limit = cx.budget.free_accesses;
        cx.ensure(work <= limit, &at("count"), || {
            format!(
                "the iterations of this loop may take no virtual time, and count x its \
                 body x the task's replicas x clients makes {work} accesses and ops at one \
                 instant; the limit is {limit} \
                 (MAX_FREE_ACCESSES, see docs/scenarios.md, resource budget): lower count, or \
                 give a touch, read or write in its body cpu > 0 or rate > 0"
            )
        })
    }
}

fn yes() -> bool {
    true
}
fn default_prot() -> String {
    "r".to_string()
}
fn default_theta() -> f64 {
    0.99
}

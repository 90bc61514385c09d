//! Guaranteed progress: the least virtual time an op, and one iteration of a loop, can take as
//! the engine runs them, so that a loop bounded only by time (or by nothing) whose iteration
//! may take no virtual time is refused before it runs: it would repeat without end at one
//! instant (issue #49; `sim::MAX_STALLED_EVENTS` is the engine's own guard behind this check).
//!
//! The counts, rates and CPU costs are the ones the build gives the interpreter
//! (`sim/build.rs` calls the functions below), after rounding to whole frames and
//! nanoseconds, and the minimum follows the interpreter's `op_access`: an access costs its
//! `cpu` at the least (a hit; a fault or a wait costs more than nothing), and a rate spaces
//! accesses `interval` apart from the op's start, the first at once, so that `n` accesses take
//! at least `max((n - 1) x interval + cpu, n x cpu)`. An op on a region that was freed or
//! unmapped (before the loop, or earlier in it on the previous iteration) does nothing.
use std::collections::{HashMap, HashSet};

use super::ops::{Anon, Free, Loop, Mmap, Munmap, Op, Read, Sleep, Touch, Write};
use super::schema::FileSpec;
use super::units::{Size, MAX_DURATION_NS};

/// Bytes of a 4 KiB page, the unit of counts, rates and CPU costs in a scenario.
const PAGE_BYTES: u64 = 4096;

/// Frames of `scale` pages that `bytes` take (rounded up).
pub fn frames(bytes: u64, scale: u64) -> u64 {
    bytes.div_ceil(PAGE_BYTES * scale)
}

/// Accesses the engine makes for `count` (in 4 KiB pages): an access touches a whole frame.
pub fn access_count(count: Option<u64>, scale: u64) -> Option<u64> {
    count.map(|c| c.div_ceil(scale))
}

/// Nanoseconds between two accesses at `rate` 4 KiB pages a second (0: no limit): an access
/// touches a frame of `scale` pages, so they are `scale` times further apart. Truncated to
/// whole nanoseconds: a rate above 10^9 x scale a second is no limit at all.
pub fn access_interval_ns(rate: f64, scale: u64) -> u64 {
    if rate > 0.0 {
        (1e9 * scale as f64 / rate) as u64
    } else {
        0
    }
}

/// CPU time of an access of `pages` 4 KiB pages at `ns` a page, capped at the longest duration
/// a scenario may write, so that sums of a clock and a few costs stay within 64 bits.
pub fn per_frame(ns: u64, pages: u64) -> u64 {
    ns.saturating_mul(pages).min(MAX_DURATION_NS)
}

/// The least virtual time of `n` accesses of one op costing `cpu_ns` each at the least, rate
/// limited to one every `interval_ns` from the op's start (`op_access`: the k-th access waits
/// until start + k x interval): `max((n - 1) x interval + cpu, n x cpu)`.
pub fn accesses_min_ns(n: u64, interval_ns: u64, cpu_ns: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let paced = (n - 1).saturating_mul(interval_ns).saturating_add(cpu_ns);
    paced.max(n.saturating_mul(cpu_ns))
}

/// What the check found of one loop: the least virtual time of one iteration (over the first
/// iteration and those after it), and if that is 0, why, op by op.
#[derive(Debug, Clone, Default)]
pub(super) struct LoopTime {
    pub(super) min_ns: u64,
    pub(super) why: Vec<String>,
}

/// The least time of each loop of a task's program, keyed by the loop's address (the walk of
/// the semantic checks looks its loops up as it reaches them).
pub(super) type LoopTimes = HashMap<*const Loop, LoopTime>;

/// Every loop's [`LoopTime`] in `program` on a machine of frames of `scale` pages. Names the
/// check does not know (reported by the walk) count as live regions of one frame and files
/// of one.
pub(super) fn loop_times(program: &[Op], scale: u32, files: &[FileSpec]) -> LoopTimes {
    let mut a = Analysis {
        scale: u64::from(scale.max(1)),
        files: files
            .iter()
            .rev()
            .map(|f| (f.name.as_str(), f.size.bytes()))
            .collect(),
        pages: HashMap::new(),
        dead: HashSet::new(),
        out: HashMap::new(),
    };
    a.seq(program, None);
    a.out
}

struct Analysis<'a> {
    scale: u64,
    /// File sizes in bytes by name.
    files: HashMap<&'a str, u64>,
    /// Each region's frames, as the build sees it where the op stands (the last anon or mmap
    /// of the name before it in the text).
    pages: HashMap<&'a str, u64>,
    /// Regions that may be unmapped or freed where the op runs.
    dead: HashSet<&'a str>,
    out: LoopTimes,
}

impl<'a> Analysis<'a> {
    /// The least time of `ops` run once in order from the current state, which they update;
    /// with `why`, the reason each op that takes no time takes none.
    fn seq(&mut self, ops: &'a [Op], mut why: Option<&mut Vec<String>>) -> u64 {
        let mut total = 0u64;
        for (i, op) in ops.iter().enumerate() {
            let (ns, reason) = self.op(op);
            total = total.saturating_add(ns);
            if let (Some(why), Some(reason)) = (why.as_deref_mut(), reason) {
                if ns == 0 {
                    why.push(format!("body[{i}] {reason}"));
                }
            }
        }
        total
    }

    /// The least time of `op`, and what it is for an op whose time may be 0.
    fn op(&mut self, op: &'a Op) -> (u64, Option<String>) {
        let s = self.scale;
        match op {
            Op::Anon(Anon { name, size, .. }) => {
                self.map(name, frames(size.bytes(), s).max(1));
                (0, None)
            }
            Op::Mmap(Mmap {
                name,
                file,
                offset,
                size,
                ..
            }) => {
                let len = size.map_or_else(
                    || self.file_bytes(file).saturating_sub(offset.bytes()),
                    Size::bytes,
                );
                self.map(name, frames(len, s).max(1));
                (0, None)
            }
            Op::Free(Free { name }) | Op::Munmap(Munmap { name }) => {
                self.dead.insert(name);
                (0, None)
            }
            Op::Touch(Touch {
                regions,
                count,
                cpu,
                rate,
                ..
            }) => {
                let pages = regions
                    .iter()
                    .map(|r| self.pages.get(r.as_str()).copied().unwrap_or(1))
                    .min()
                    .unwrap_or(0);
                let n =
                    access_count(*count, s).unwrap_or(pages.saturating_mul(regions.len() as u64));
                let gone = regions.iter().find(|r| self.dead.contains(r.as_str()));
                self.accesses("touch", n, *count, per_frame(cpu.ns(), s), *rate, gone)
            }
            Op::Read(Read {
                file,
                offset,
                size,
                count,
                cpu,
                rate,
                buffer,
                ..
            }) => {
                let n = self.file_accesses(file, *offset, *size, *count);
                let gone = buffer.as_ref().filter(|b| self.dead.contains(b.as_str()));
                self.accesses("read", n, *count, per_frame(cpu.ns(), s), *rate, gone)
            }
            Op::Write(Write {
                file,
                offset,
                size,
                count,
                cpu,
                rate,
                bytes,
                ..
            }) => {
                let n = self.file_accesses(file, *offset, *size, *count);
                // `cpu` is per 4 KiB page a write covers (sim/build.rs).
                let bytes = bytes.map_or(PAGE_BYTES * s, |b| b.bytes().clamp(1, PAGE_BYTES * s));
                let cpu = per_frame(cpu.ns(), bytes.div_ceil(PAGE_BYTES));
                self.accesses("write", n, *count, cpu, *rate, None)
            }
            Op::Sleep(Sleep { duration }) => {
                (duration.ns(), Some(format!("(sleep) sleeps {duration}")))
            }
            Op::Loop(l) => self.looped(l),
            // At least its CPU time for each request (the parser wants cpu > 0); a trace with
            // no request takes none.
            Op::Replay(r) => (r.cpu.ns(), None),
            other => (
                0,
                Some(format!(
                    "({}) takes no virtual time of its own",
                    op_name(other)
                )),
            ),
        }
    }

    fn map(&mut self, name: &'a str, frames: u64) {
        self.pages.insert(name, frames);
        self.dead.remove(name);
    }

    fn file_bytes(&self, file: &str) -> u64 {
        self.files.get(file).copied().unwrap_or(PAGE_BYTES)
    }

    /// Accesses of a read or write without `count`: every frame of its range (a lower bound
    /// of the build's, which rounds the offset down).
    fn file_accesses(
        &self,
        file: &str,
        offset: Size,
        size: Option<Size>,
        count: Option<u64>,
    ) -> u64 {
        let s = self.scale;
        access_count(count, s).unwrap_or_else(|| {
            let len = size.map_or_else(
                || self.file_bytes(file).saturating_sub(offset.bytes()),
                Size::bytes,
            );
            frames(len, s).max(1)
        })
    }

    fn accesses(
        &self,
        what: &str,
        n: u64,
        count: Option<u64>,
        cpu_ns: u64,
        rate: f64,
        gone: Option<&String>,
    ) -> (u64, Option<String>) {
        if let Some(region) = gone {
            return (
                0,
                Some(format!(
                    "({what}) uses region {region:?}, which is freed or unmapped before it \
                     runs (before the loop, or later in it on the iteration before), so it does \
                     nothing"
                )),
            );
        }
        let interval = access_interval_ns(rate, self.scale);
        let ns = accesses_min_ns(n, interval, cpu_ns);
        let reason = if n == 0 {
            format!("({what}) makes no access (count = {})", count.unwrap_or(0))
        } else {
            let paced = if rate > 0.0 {
                format!(
                    "; a rate of {rate} pages/s spaces them {interval} ns apart at frame_scale \
                     {} (the first access waits for none)",
                    self.scale
                )
            } else {
                String::new()
            };
            format!("({what}) makes {n} access(es) of {cpu_ns} ns of CPU each at the least{paced}")
        };
        (ns, Some(reason))
    }

    /// A loop: at least one iteration runs unless `count = 0`. Its body is judged from the
    /// regions that may be gone on any iteration: those gone where the loop starts and those
    /// its body leaves gone (an iteration ends in the same state whatever it began in, so
    /// the second and later ones begin in that one).
    fn looped(&mut self, l: &'a Loop) -> (u64, Option<String>) {
        if l.count == Some(0) {
            // The body never runs, but the checks walk it and look up its loops' times: judge
            // them from here, then drop what the body would have changed.
            let (pages, dead) = (self.pages.clone(), self.dead.clone());
            self.seq(&l.body, None);
            (self.pages, self.dead) = (pages, dead);
            return (0, Some("(loop) has count = 0".into()));
        }
        let entry = self.dead.clone();
        self.settle(&l.body);
        self.dead.extend(entry);
        let mut why = Vec::new();
        let min_ns = self.seq(&l.body, Some(&mut why));
        self.out.insert(l, LoopTime { min_ns, why });
        (
            min_ns,
            Some("(loop) has an iteration that may take no virtual time".into()),
        )
    }
}

impl<'a> Analysis<'a> {
    /// Which regions `ops` leave gone, as one run of them does (loops run at least once
    /// unless `count = 0`).
    fn settle(&mut self, ops: &'a [Op]) {
        for op in ops {
            match op {
                Op::Anon(Anon { name, .. }) | Op::Mmap(Mmap { name, .. }) => {
                    self.dead.remove(name.as_str());
                }
                Op::Free(Free { name }) | Op::Munmap(Munmap { name }) => {
                    self.dead.insert(name);
                }
                Op::Loop(l) if l.count != Some(0) => self.settle(&l.body),
                _ => {}
            }
        }
    }
}

fn op_name(op: &Op) -> &'static str {
    match op {
        Op::Anon(_) => "anon",
        Op::Mmap(_) => "mmap",
        Op::Munmap(_) => "munmap",
        Op::Free(_) => "free",
        Op::Touch(_) => "touch",
        Op::Read(_) => "read",
        Op::Write(_) => "write",
        Op::Sleep(_) => "sleep",
        Op::ScanInactiveFile(_) => "scan_inactive_file",
        Op::DropCaches(_) => "drop_caches",
        Op::Truncate(_) => "truncate",
        Op::Mark(_) => "mark",
        Op::MemoryReclaim(_) => "memory_reclaim",
        Op::Replay(_) => "replay",
        Op::Loop(_) => "loop",
    }
}

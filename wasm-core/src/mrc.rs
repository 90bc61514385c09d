//! Miss-ratio curves of a replayed trace (issue #47): the reference policies beside the
//! kernel's, and the scenario of one kernel point.
//!
//! The cache holds whole objects, one page each (the replay's mapping), so a cache of N pages
//! holds N objects. At each size:
//! - plain LRU and Belady's MIN (OPT): `crate::reference`'s caches, which a replay's live
//!   `reference` also runs (OPT's next requests: an oracleGeneral file's own; CSV: computed,
//!   8 bytes a request);
//! - a kernel variant: the scenario run with the replaying tasks in a memcg whose memory.max
//!   is N pages (memcg reclaim keeps their page cache at or below N pages, as the kernel's
//!   `try_charge` does), on a machine with RAM enough that global reclaim does not run.
//!
//! Misses include each object's first request. Pure code: the CLI's `reclaim mrc` runs the
//! points in parallel (`sweep::mrc`), the page one at a time.
use crate::reference::{check_next, next_requests, LruCache, OptCache};
use crate::scenario::ops::Replay;
use crate::scenario::trace::{scan, IdMap, TraceFormat, TraceReader, TraceScan};
use crate::scenario::{MemcgSpec, Op, Scenario, Size};

/// Cache sizes of a curve.
pub const POINTS: usize = 16;

/// The memcg the kernel points run the replaying tasks in.
pub const MRC_MEMCG: &str = "mrc";

/// `n` cache sizes in pages from 1% to 100% of `footprint`, evenly spaced on a log scale,
/// each at least 1 and each larger than the one before where the footprint allows.
pub fn sizes(footprint: u64, n: usize) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::with_capacity(n);
    for i in 0..n {
        let share = if n == 1 {
            1.0
        } else {
            libm::pow(100.0, i as f64 / (n - 1) as f64) / 100.0
        };
        let s = libm::round(footprint as f64 * share).max(1.0) as u64;
        let s = s.min(footprint.max(1));
        if out.last() != Some(&s) {
            out.push(s);
        }
    }
    out
}

/// The one replay of a scenario that a curve is drawn for: its task's index and the op.
pub fn the_replay(scn: &Scenario) -> Result<(usize, &Replay), String> {
    fn find<'a>(ops: &'a [Op], out: &mut Vec<&'a Replay>) {
        for op in ops {
            match op {
                Op::Replay(r) => out.push(r),
                Op::Loop(l) => find(&l.body, out),
                _ => {}
            }
        }
    }
    let mut found = Vec::new();
    for (i, t) in scn.tasks.iter().enumerate() {
        let mut ops = Vec::new();
        find(&t.program, &mut ops);
        found.extend(ops.into_iter().map(|r| (i, r)));
    }
    match found.len() {
        1 => Ok(found[0]),
        n => Err(format!(
            "a miss-ratio curve needs a scenario with exactly one replay op; this one has {n}"
        )),
    }
}

/// A reader of the scenario's replayed trace (supplied to `scn.traces`).
pub fn reader(scn: &Scenario, r: &Replay) -> Result<TraceReader, String> {
    let src = scn
        .traces
        .get(&r.trace)
        .cloned()
        .ok_or_else(|| format!("trace {:?} was not supplied", r.trace))?;
    TraceReader::new(&r.trace, src, r.format)
}

/// One pass: the requests and each object's page (memory: the distinct objects).
pub fn footprint(reader: &mut TraceReader) -> Result<TraceScan, String> {
    scan(reader, u32::MAX as u64)
}

/// Misses of plain LRU holding `size` objects (memory: two links an object).
pub fn lru_misses(reader: &mut TraceReader, pages: &IdMap<u32>, size: u64) -> Result<u64, String> {
    let mut lru = LruCache::new(pages.len(), size);
    let mut misses = 0u64;
    reader.rewind();
    while let Some(q) = reader.next_request()? {
        let o = *pages
            .get(&q.id)
            .ok_or("the trace changed since it was scanned")?;
        misses += u64::from(!lru.access(o));
    }
    Ok(misses)
}

/// Misses of Belady's MIN holding `size` objects; `next`: each request's next request index
/// when the trace does not carry it (see [`next_requests`]).
pub fn opt_misses(
    reader: &mut TraceReader,
    pages: &IdMap<u32>,
    size: u64,
    next: Option<&[u64]>,
) -> Result<u64, String> {
    let mut opt = OptCache::new(pages.len(), size);
    let mut misses = 0u64;
    reader.rewind();
    let mut i = 0usize;
    while let Some(q) = reader.next_request()? {
        let o = *pages
            .get(&q.id)
            .ok_or("the trace changed since it was scanned")?;
        let nx = match next {
            Some(n) => n[i],
            None => q.next.unwrap_or(u64::MAX),
        };
        i += 1;
        misses += u64::from(!opt.access(o, nx));
    }
    Ok(misses)
}

/// The scenario of a kernel point: the replaying task(s) in memcg [`MRC_MEMCG`] with
/// memory.max = `pages` pages (a child of the task's memcg, or that memcg itself when it is
/// [`MRC_MEMCG`] already, as in a dropped trace's scenario), and RAM raised where needed so that
/// the whole footprint twice and 64 MiB more fit (global reclaim then stays out of it).
/// Refused, before anything is built, when that RAM is more frames than `budget` allows (by
/// default a footprint past 1,040,384 pages, about 4 GiB): a smaller machine would let global
/// reclaim in, and the LRU and OPT columns, which need no machine, still stand.
pub fn kernel_scenario(
    scn: &Scenario,
    pages: u64,
    footprint: u64,
    budget: &crate::scenario::Budget,
) -> Result<Scenario, String> {
    let mut s = scn.clone();
    let page = crate::devices::PAGE_BYTES;
    let (task, replay) = the_replay(scn).expect("checked by the caller");
    let max = Some(Size(pages * page));
    match s
        .memcgs
        .iter_mut()
        .find(|m| m.name == MRC_MEMCG && s.tasks[task].memcg.as_deref() == Some(MRC_MEMCG))
    {
        Some(m) => m.max = max,
        None => {
            s.memcgs.push(MemcgSpec {
                name: MRC_MEMCG.into(),
                parent: s.tasks[task].memcg.clone(),
                min: None,
                low: None,
                high: None,
                max,
                replicas: None,
            });
            s.tasks[task].memcg = Some(MRC_MEMCG.into());
        }
    }
    let need = (footprint * page)
        .saturating_mul(2)
        .saturating_add(64 << 20);
    let frame = page * u64::from(s.machine.frame_scale.max(1));
    if need / frame > budget.frames {
        let most = (budget.frames.saturating_mul(frame)).saturating_sub(64 << 20) / (2 * page);
        return Err(format!(
            "trace {:?}: a kernel point runs on a machine of twice the footprint and 64 MiB \
             more, so that only its memcg reclaims: {footprint} pages need {} MiB, more than \
             the {} frames the resource budget allows (MAX_FRAMES, docs/scenarios.md); the \
             LRU and OPT points need no machine and stand. Kernel points take a trace of at \
             most {most} distinct objects (cut the trace), or the CLI's --no-budget",
            replay.trace,
            need >> 20,
            budget.frames,
        ));
    }
    if s.machine.ram.bytes() < need {
        s.machine.ram = Size(need);
    }
    Ok(s)
}

/// What a curve is drawn over: the trace's requests, its footprint (distinct objects) and the
/// cache sizes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub trace: String,
    /// The index of the task that replays it.
    #[serde(skip)]
    #[ts(skip)]
    pub task: usize,
    pub task_name: String,
    pub requests: u64,
    pub footprint: u64,
    pub sizes: Vec<u64>,
}

/// The plan of `scn`'s curve at `points` sizes (one pass over the trace).
pub fn plan(scn: &Scenario, points: usize) -> Result<(Plan, TraceScan), String> {
    let (task, r) = the_replay(scn)?;
    let mut rd = reader(scn, r)?;
    let found = footprint(&mut rd)?;
    if r.format == TraceFormat::OracleGeneral {
        check_next(&mut rd, &found.pages).map_err(|e| format!("trace {:?}: {e}", r.trace))?;
    }
    let fp = found.pages.len() as u64;
    Ok((
        Plan {
            trace: r.trace.clone(),
            task,
            task_name: scn.tasks[task].name.clone(),
            requests: found.requests,
            footprint: fp,
            sizes: sizes(fp, points),
        },
        found,
    ))
}

/// A curve's plan and its reference columns (the page's `mrc_reference`): misses at each of
/// the plan's sizes, one entry a size.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
pub struct MrcReference {
    pub plan: Plan,
    pub lru: Vec<u64>,
    pub opt: Vec<u64>,
}

/// The reference columns, one policy at a time (the page's; the CLI runs each size on its own
/// thread): LRU and OPT misses at each of the plan's sizes.
pub fn reference(
    scn: &Scenario,
    plan: &Plan,
    found: &TraceScan,
) -> Result<(Vec<u64>, Vec<u64>), String> {
    let (_, r) = the_replay(scn)?;
    let mut rd = reader(scn, r)?;
    let next = (r.format != TraceFormat::OracleGeneral)
        .then(|| next_requests(&mut rd, &found.pages))
        .transpose()?;
    let mut lru = Vec::new();
    let mut opt = Vec::new();
    for &s in &plan.sizes {
        lru.push(lru_misses(&mut rd, &found.pages, s)?);
        opt.push(opt_misses(&mut rd, &found.pages, s, next.as_deref())?);
    }
    Ok((lru, opt))
}

/// The page cache a dropped trace's scenario gives it, and how (see [`scenario_text`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DroppedSize {
    /// RAM in bytes (a whole number of MiB).
    pub ram: u64,
    /// The pages the page cache is meant to hold: half the footprint, rounded up.
    pub cache: u64,
    /// The replay's memcg memory.max in pages, when the smallest machine holds more than
    /// `cache` (then the memcg holds the cache at `cache` pages).
    pub memcg_max: Option<u64>,
    /// The largest machine the budget allows holds fewer than `cache` pages.
    pub short: bool,
}

/// How a dropped trace of `footprint` distinct objects is held so that reclaim must choose:
/// a page cache of half the footprint (rounded up). RAM is the smallest whole MiB, at least the
/// engine's smallest machine (16 MiB), whose page cache above the high watermark (kswapd
/// reclaims up to it; `Watermarks::compute` with the default min_free_kbytes and
/// watermark_scale_factor) holds that many pages, at most the budget's largest machine
/// (`MAX_FRAMES`, 8 GiB: a larger footprint gets less than half). When the 16 MiB machine holds
/// more, the replay runs in memcg [`MRC_MEMCG`] with memory.max = that many pages, as a point of
/// `reclaim mrc` does (whose points then resize that memcg: [`kernel_scenario`]).
pub fn dropped_size(footprint: u64) -> DroppedSize {
    use crate::mm::page_alloc::{default_min_free_kbytes, Watermarks};
    use crate::scenario::budget::MAX_FRAMES;
    const MIB_PAGES: u64 = (1 << 20) / crate::devices::PAGE_BYTES;
    const MIN_PAGES: u64 = 16 * MIB_PAGES;
    let wsf = crate::scenario::Sysctl::default().watermark_scale_factor;
    let cache_of = |ram: u64| {
        let high = Watermarks::compute(ram, default_min_free_kbytes(ram), Some(wsf), 1).high;
        ram.saturating_sub(high)
    };
    let cache = footprint.max(1).div_ceil(2);
    if cache_of(MIN_PAGES) >= cache {
        return DroppedSize {
            ram: MIN_PAGES * crate::devices::PAGE_BYTES,
            cache,
            memcg_max: Some(cache),
            short: false,
        };
    }
    let max = MAX_FRAMES / MIB_PAGES * MIB_PAGES;
    // The watermarks grow far slower than RAM (about 1% of it): a few dozen MiB more at most.
    let mut ram = cache.div_ceil(MIB_PAGES).saturating_mul(MIB_PAGES).min(max);
    while ram < max && cache_of(ram) < cache {
        ram += MIB_PAGES;
    }
    DroppedSize {
        ram: ram * crate::devices::PAGE_BYTES,
        cache,
        memcg_max: None,
        short: cache_of(ram) < cache,
    }
}

/// A scenario that replays trace `name` (already scanned: `found`) as a storage trace through
/// the page cache, for a trace dropped on the page: a file of one page an object (rounded up to
/// a MiB), on an SSD, read()s as fast as possible, with a page cache of about half the
/// footprint ([`dropped_size`]), so that reclaim has to choose; classic LRU and MGLRU of the
/// newest preset pair.
pub fn scenario_text(name: &str, format: TraceFormat, found: &TraceScan) -> Result<String, String> {
    const MIB: u64 = 1 << 20;
    let page = crate::devices::PAGE_BYTES;
    let objects = found.pages.len() as u64;
    let bytes = objects.max(1) * page;
    let file_mib = bytes.div_ceil(MIB);
    let size = dropped_size(objects);
    let ram_mib = size.ram / MIB;
    let format = match format {
        TraceFormat::OracleGeneral => "oracleGeneral",
        TraceFormat::Csv => "csv",
    };
    // A JSON string is a TOML basic string once DEL, which JSON leaves as it is, is escaped.
    let quoted = |s: &str| {
        serde_json::to_string(s)
            .unwrap_or_default()
            .replace('\u{7f}', "\\u007f")
    };
    let trace = quoted(name);
    let (how, memcg, task_memcg) = match size.memcg_max {
        Some(max) => (
            format!(
                "# The engine's smallest machine ({ram_mib} MiB) would cache more than half the trace, so the replay\n\
                 # runs in memcg \"{MRC_MEMCG}\" with memory.max = {max} pages: its reclaim holds the page cache\n\
                 # at half the footprint, as a kernel point of the curve holds it at its size (each point\n\
                 # resizes this memcg).\n"
            ),
            format!(
                "\n[[memcgs]]\nname = \"{MRC_MEMCG}\"\nmax = \"{}KiB\"\n",
                max * page / 1024
            ),
            format!("memcg = \"{MRC_MEMCG}\"\n"),
        ),
        None if size.short => (
            format!(
                "# {ram_mib} MiB of RAM, the largest machine the resource budget allows (MAX_FRAMES): its\n\
                 # page cache holds less than half the footprint ({} pages).\n",
                size.cache
            ),
            String::new(),
            String::new(),
        ),
        None => (
            format!(
                "# {ram_mib} MiB of RAM: the smallest whole MiB whose page cache, up to the high watermark\n\
                 # kswapd reclaims to, holds half the footprint ({} pages).\n",
                size.cache
            ),
            String::new(),
            String::new(),
        ),
    };
    Ok(format!(
        r#"# Built for trace {trace}: {requests} requests to {objects} objects (one 4 KiB page each).
# The page cache gets about half the footprint, so that classic LRU and MGLRU must choose what
# to evict; the miss-ratio curve sweeps the cache size instead.
{how}title = {title}
description = "The trace read through a page cache of about half its footprint"
seed = 1

[machine]
ram = "{ram_mib}MiB"

[[devices]]
name = "disk"
kind = "ssd"

[[files]]
name = "data"
size = "{file_mib}MiB"
device = "disk"
{memcg}
[[variants]]
name = "classic"
preset = "linux-7.3"

[[variants]]
name = "mglru"
preset = "linux-7.3-mglru"

[[tasks]]
name = "replay"
{task_memcg}program = [
  {{ op = "replay", trace = {trace}, format = "{format}", file = "data", cpu = "2us" }},
]

[run]
duration = "3600s"
sample_interval = "100ms"
"#,
        requests = found.requests,
        title = quoted(&format!("Trace {name}: classic LRU vs MGLRU")),
    ))
}

/// The scenario for trace `name` dropped on the page ([`scenario_text`]), read in `format`
/// from `src`: one pass, which stops at the first object past the pages the budget lets a
/// scenario's files have (memory bounded whatever the trace), and then refuses the trace.
pub fn dropped_scenario(
    name: &str,
    format: TraceFormat,
    src: std::sync::Arc<dyn crate::scenario::trace::TraceSource>,
) -> Result<String, String> {
    dropped_scenario_within(name, format, src, crate::scenario::budget::MAX_SPACE_FRAMES)
}

/// [`dropped_scenario`] with at most `most` distinct objects. A trace past them is refused
/// with what the person who dropped it can do: the file's records are counted on to its end
/// (time, no memory), and the message names the limit, that count and the records before the
/// first object too many, which they can keep.
fn dropped_scenario_within(
    name: &str,
    format: TraceFormat,
    src: std::sync::Arc<dyn crate::scenario::trace::TraceSource>,
    most: u64,
) -> Result<String, String> {
    let mut reader = TraceReader::new(name, src, format)?;
    let found = match crate::scenario::trace::scan_objects(&mut reader, most)? {
        Ok(found) => found,
        Err(past) => {
            while reader.next_request()?.is_some() {}
            let records = reader.records();
            let (unit, keep) = match format {
                TraceFormat::Csv => ("line", "e.g. head -n"),
                TraceFormat::OracleGeneral => ("record", "24 bytes each, e.g. head -c"),
            };
            let kept = past.record - 1;
            return Err(format!(
                "trace {name:?} has more than {most} distinct objects: its first {kept} \
                 {unit}s hold {most}, and {unit} {} of {records} brings one more. The replay \
                 gives each object a page of one file, and a scenario's files may have at most \
                 {most} pages (MAX_SPACE_FRAMES, docs/scenarios.md, resource budget). Keep the \
                 first {kept} {unit}s ({keep}) and drop that file",
                past.record,
            ));
        }
    };
    scenario_text(name, format, &found)
}

/// A kernel point's misses from its run: the replaying task's requests `made` and `misses`,
/// which must cover every request of the trace.
pub fn kernel_misses(made: u64, misses: u64, requests: u64) -> Result<u64, String> {
    if made != requests {
        return Err(format!(
            "the replay made {made} of the trace's {requests} requests before the run ended: \
             raise run.duration"
        ));
    }
    Ok(misses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::trace::TraceFormat;
    use std::sync::Arc;

    fn csv(ids: &[u64]) -> TraceReader {
        let text: String = ids.iter().map(|i| format!("0,{i},1\n")).collect();
        TraceReader::new("t", Arc::new(text.into_bytes()), TraceFormat::Csv).unwrap()
    }

    /// The textbook example (Belady 1966 style): 7 0 1 2 0 3 0 4 2 3 0 3 2 with 3 frames:
    /// LRU 9 misses, OPT 7 (both counting the cold misses), worked by hand.
    #[test]
    fn the_textbook_reference_string() {
        let ids = [7, 0, 1, 2, 0, 3, 0, 4, 2, 3, 0, 3, 2];
        let mut r = csv(&ids);
        let f = footprint(&mut r).unwrap();
        assert_eq!(lru_misses(&mut r, &f.pages, 3).unwrap(), 9);
        let next = next_requests(&mut r, &f.pages).unwrap();
        assert_eq!(opt_misses(&mut r, &f.pages, 3, Some(&next)).unwrap(), 7);
        // A cache as large as the footprint misses once per object.
        assert_eq!(lru_misses(&mut r, &f.pages, 6).unwrap(), 6);
        assert_eq!(opt_misses(&mut r, &f.pages, 6, Some(&next)).unwrap(), 6);
    }

    #[test]
    fn a_dropped_trace_gets_a_scenario_that_runs_it() {
        let ids: Vec<u64> = (0..3000u64).map(|i| i * i % 1777).collect();
        let name = "my \"trace\"\u{7f}.csv";
        let text: String = ids.iter().map(|i| format!("0,{i},4096\n")).collect();
        let bytes = Arc::new(text.into_bytes());
        let toml = dropped_scenario(name, TraceFormat::Csv, bytes.clone()).unwrap();
        let mut scn = crate::scenario::parse(&toml).unwrap_or_else(|e| panic!("{e}\n{toml}"));
        scn.traces
            .insert(name, bytes, &crate::scenario::Budget::DEFAULT)
            .unwrap();
        let mut r = TraceReader::new(
            name,
            scn.traces.get(name).unwrap().clone(),
            TraceFormat::Csv,
        )
        .unwrap();
        let found = footprint(&mut r).unwrap();
        let fp = found.pages.len() as u64;
        // A footprint this small is held in a memcg of half of it (the 16 MiB machine would
        // cache more than half of it).
        assert!(
            toml.contains(&format!("memory.max = {} pages", fp.div_ceil(2))),
            "{toml}"
        );
        for v in ["classic", "mglru"] {
            let mut sim = crate::Simulation::new(&scn, v).unwrap();
            sim.try_run_to_end().unwrap();
            let s = sim.replay_stats()[0].1;
            assert_eq!(s.requests, 3000, "{v}");
            // Reclaim chose: more misses than first requests, though never more than plain
            // LRU's at a quarter of the footprint (a bound far from what either kernel does).
            let lru = lru_misses(&mut r, &found.pages, fp / 4).unwrap();
            assert!(
                s.misses > fp && s.misses <= lru,
                "{v}: {} misses, footprint {fp}, LRU/4 {lru}",
                s.misses
            );
        }
        // A point of the curve resizes that memcg (not one nested under it): at the whole
        // footprint, only first requests miss.
        let point = kernel_scenario(&scn, fp, fp, &crate::scenario::Budget::DEFAULT).unwrap();
        let mut sim = crate::Simulation::new(&point, "classic").unwrap();
        sim.try_run_to_end().unwrap();
        assert_eq!(sim.replay_stats()[0].1.misses, fp);
    }

    #[test]
    fn a_dropped_trace_of_one_or_two_pages_runs() {
        for (ids, fewest) in [(vec![9u64; 10], 1), ([1u64, 2].repeat(10), 3)] {
            let text: String = ids.iter().map(|i| format!("0,{i},4096\n")).collect();
            let bytes = Arc::new(text.into_bytes());
            let toml = dropped_scenario("t", TraceFormat::Csv, bytes.clone()).unwrap();
            assert!(toml.contains("memory.max = 1 pages"), "{toml}");
            let mut scn = crate::scenario::parse(&toml).unwrap_or_else(|e| panic!("{e}\n{toml}"));
            scn.traces
                .insert("t", bytes, &crate::scenario::Budget::DEFAULT)
                .unwrap();
            for v in ["classic", "mglru"] {
                let mut sim = crate::Simulation::new(&scn, v).unwrap();
                sim.try_run_to_end().unwrap();
                let s = sim.replay_stats()[0].1;
                // One page misses once; two alternating in a one-page memcg miss more than
                // their first requests.
                assert_eq!(s.requests, ids.len() as u64, "{v}");
                assert!(s.misses >= fewest, "{v}: {s:?}");
            }
        }
    }

    /// What the page cache of a machine of `ram` bytes holds above its high watermark, by the
    /// engine's own build of that machine.
    fn cache_above_high(ram: u64) -> u64 {
        let text = format!(
            "title = \"m\"\n[machine]\nram = \"{ram}\"\n[[variants]]\nname = \"v\"\n\
             preset = \"linux-7.3\"\n[[tasks]]\nname = \"t\"\n\
             program = [{{ op = \"sleep\", duration = \"1s\" }}]\n[run]\nduration = \"1s\"\n"
        );
        let scn = crate::scenario::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let sim = crate::Simulation::new(&scn, "v").unwrap();
        ram / crate::devices::PAGE_BYTES - sim.mm.wmark.high
    }

    #[test]
    fn a_dropped_trace_gets_half_its_footprint_in_the_smallest_machine_that_holds_it() {
        const MIB: u64 = 1 << 20;
        // Small footprints, one page included: the 16 MiB machine and a memcg of half.
        for fp in [1, 2, 3, 4421, 7000] {
            let d = dropped_size(fp);
            assert_eq!(
                (d.ram, d.memcg_max, d.short),
                (16 * MIB, Some(fp.div_ceil(2)), false),
                "{fp}"
            );
        }
        // Large ones: the smallest whole MiB whose cache above the high watermark holds half.
        for fp in [8000, 48_974, 1 << 20, 3_000_001] {
            let d = dropped_size(fp);
            assert_eq!(
                (d.memcg_max, d.short, d.ram % MIB),
                (None, false, 0),
                "{fp}"
            );
            assert!(cache_above_high(d.ram) >= fp.div_ceil(2), "{fp}: {d:?}");
            assert!(
                cache_above_high(d.ram - MIB) < fp.div_ceil(2),
                "{fp}: {d:?}"
            );
        }
        // Past what the budget's largest machine caches: that machine, short of half.
        let most = crate::scenario::budget::MAX_FRAMES * crate::devices::PAGE_BYTES;
        for fp in [2 * crate::scenario::budget::MAX_FRAMES, u32::MAX as u64 * 4] {
            assert_eq!(dropped_size(fp).ram, most);
            assert!(dropped_size(fp).short);
        }
    }

    #[test]
    fn a_dropped_trace_past_the_files_budget_says_what_to_keep() {
        // Three objects allowed; the fourth first comes on line 6 (after a header) of 8.
        let text = "time,id,size\n0,1,1\n0,2,1\n0,1,1\n0,3,1\n0,4,1\n0,5,1\n0,1,1\n";
        let e = dropped_scenario_within(
            "my.csv",
            TraceFormat::Csv,
            Arc::new(text.as_bytes().to_vec()),
            3,
        )
        .unwrap_err();
        assert!(
            e.contains("trace \"my.csv\" has more than 3 distinct objects: its first 5 lines hold 3, and line 6 of 8 brings one more")
                && e.contains("at most 3 pages (MAX_SPACE_FRAMES")
                && e.contains("Keep the first 5 lines (e.g. head -n)"),
            "{e}"
        );
        let recs: Vec<u8> = (0..5u64)
            .flat_map(|id| {
                let mut b = 0u32.to_le_bytes().to_vec();
                b.extend(id.to_le_bytes());
                b.extend(1u32.to_le_bytes());
                b.extend((-1i64).to_le_bytes());
                b
            })
            .collect();
        let e = dropped_scenario_within("t.bin", TraceFormat::OracleGeneral, Arc::new(recs), 3)
            .unwrap_err();
        assert!(
            e.contains("its first 3 records hold 3, and record 4 of 5")
                && e.contains("Keep the first 3 records (24 bytes each, e.g. head -c)"),
            "{e}"
        );
        // The default limit is the budget's.
        let e = dropped_scenario("x", TraceFormat::Csv, Arc::new(b"0,1,1\n".to_vec()));
        assert!(e.is_ok(), "{e:?}");
    }

    #[test]
    fn sizes_run_from_one_percent_to_the_footprint() {
        let s = sizes(48_974, POINTS);
        assert_eq!(s.len(), 16);
        assert_eq!((s[0], s[15]), (490, 48_974));
        assert!(s.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sizes(3, POINTS), [1, 2, 3]);
    }
}

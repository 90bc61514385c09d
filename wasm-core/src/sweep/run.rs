//! Running a grid: one point on its own, or many on `jobs` threads.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::grid::Point;
use super::table;
use crate::report::RunReport;
use crate::scenario::knobs;
use crate::sim::{CpuLimit, RunError};
use crate::Simulation;

/// A sweep's CPU-time limit per run when none is given: 50 times what the heaviest shipped
/// scenario takes (S003 at its original size, ~6 s a variant), so that a grid of untrusted
/// scenarios cannot hold a machine.
pub const DEFAULT_MAX_CPU: Duration = Duration::from_secs(600);

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`): a run's cost whatever
/// else the machine does, and per run when a sweep runs several on threads.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to; the clock id is a constant of this OS.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A run of `sim` to its end within `max_cpu` of the thread's CPU time (None: no limit): its
/// report, or why it ended early (the progress guard, the limit). `option` names the limit
/// for the message (`--max-cpu`, `max_cpu=`).
pub fn run_limited(
    sim: &mut Simulation,
    max_cpu: Option<Duration>,
    option: &str,
) -> Result<RunReport, String> {
    if let Some(max) = max_cpu {
        sim.set_cpu_limit(CpuLimit {
            max,
            clock: thread_cpu_time,
        });
    }
    sim.try_run_to_end().map_err(|e| match e {
        RunError::CpuLimit(m) => format!("{m} (set by {option})"),
        RunError::Stalled(m) | RunError::Trace(m) => m,
    })
}

/// Run one point of a grid over the scenario `text` with `max_cpu` of CPU time at most: its
/// preset, and its report or what went wrong (a bad combination of knobs, an engine error,
/// the CPU limit, an engine panic).
pub fn run_point(
    text: &str,
    point: &Point,
    max_cpu: Option<Duration>,
) -> (String, Result<RunReport, String>) {
    let scn = match knobs::scenario_with(text, &point.knobs(), &point.variant) {
        Ok(s) => s,
        Err(e) => return (preset_of(text, &point.variant), Err(e)),
    };
    let preset = scn
        .variants
        .iter()
        .find(|v| v.name == point.variant)
        .map(|v| v.preset.clone())
        .unwrap_or_default();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut sim = Simulation::new(&scn, &point.variant)?;
        run_limited(&mut sim, max_cpu, "the sweep's --max-cpu or max_cpu=")
    }))
    .unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown panic".to_string());
        Err(format!("the engine panicked: {what}"))
    });
    (preset, result)
}

/// The row of one point (see `table::row`).
pub fn point_row(text: &str, point: &Point, max_cpu: Option<Duration>) -> Vec<String> {
    let (preset, result) = run_point(text, point, max_cpu);
    table::row(point, &preset, &result)
}

fn preset_of(text: &str, variant: &str) -> String {
    crate::scenario::parse(text)
        .ok()
        .and_then(|s| s.variants.into_iter().find(|v| v.name == variant))
        .map(|v| v.preset)
        .unwrap_or_default()
}

/// The machine's cores (1 when unknown).
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Run `points` on `jobs` threads; `each(index, row, ok)` is called on the calling thread
/// as runs finish (in the order they finish).
pub fn run_all(
    text: &str,
    points: &[Point],
    jobs: usize,
    max_cpu: Option<Duration>,
    mut each: impl FnMut(usize, Vec<String>, bool),
) {
    parallel(
        points,
        jobs,
        |point| {
            let (preset, result) = run_point(text, point, max_cpu);
            (table::row(point, &preset, &result), result.is_ok())
        },
        |i, (row, ok)| each(i, row, ok),
    );
}

/// `job` over `items` on `jobs` threads, each taking the next item when it is free;
/// `each(index, result)` is called on the calling thread as jobs finish (in that order).
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    job: impl Fn(&T) -> R + Sync,
    mut each: impl FnMut(usize, R),
) {
    let jobs = jobs.clamp(1, items.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, job) = (&next, &job);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                if tx.send((i, job(item))).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            each(i, r);
        }
    });
}

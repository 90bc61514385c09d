//! Running a grid: one point on its own, or many on `jobs` threads.
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use super::grid::Point;
use super::table;
use crate::report::RunReport;
use crate::scenario::knobs;
use crate::Simulation;

/// Run one point of a grid over the scenario `text`: its preset, and its report or what
/// went wrong (a bad combination of knobs, an engine error, an engine panic).
pub fn run_point(text: &str, point: &Point) -> (String, Result<RunReport, String>) {
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
        Simulation::new(&scn, &point.variant).map(|mut s| s.run_to_end())
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
pub fn point_row(text: &str, point: &Point) -> Vec<String> {
    let (preset, result) = run_point(text, point);
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
    mut each: impl FnMut(usize, Vec<String>, bool),
) {
    let jobs = jobs.clamp(1, points.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Vec<String>, bool)>();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(point) = points.get(i) else { break };
                let (preset, result) = run_point(text, point);
                let ok = result.is_ok();
                if tx
                    .send((i, table::row(point, &preset, &result), ok))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(tx);
        for (i, row, ok) in rx {
            each(i, row, ok);
        }
    });
}

//! Helpers shared by the integration tests.
#![allow(dead_code)]
use reclaim_core::report::RunReport;
use reclaim_core::scenario::{parse, Scenario};
use reclaim_core::Simulation;

pub fn scenario_path(name: &str) -> String {
    format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"))
}

pub fn load(name: &str) -> Scenario {
    let path = scenario_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

pub fn run(scn: &Scenario, variant: &str) -> RunReport {
    Simulation::new(scn, variant).unwrap().run_to_end()
}

pub fn rounds(r: &RunReport, task: &str) -> Vec<f64> {
    r.tasks
        .iter()
        .find(|t| t.name == task)
        .and_then(|t| t.rounds_s.clone())
        .expect("task with rounds")
}

pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    s[s.len() / 2]
}

pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The op latency percentiles of a task (loops with record = "ops").
pub fn latency(r: &RunReport, task: &str) -> reclaim_core::report::Percentiles {
    r.tasks
        .iter()
        .find(|t| t.name == task)
        .and_then(|t| t.latency_ms)
        .unwrap_or_else(|| panic!("task {task} with op latencies"))
}

/// Scenario text without its `[[lesson]]` steps (they come last in every file): for tests that
/// shorten a run below the lesson's step times.
pub fn without_lesson(text: &str) -> String {
    match text.find("\n[[lesson]]") {
        Some(i) => text[..i + 1].to_string(),
        None => text.to_string(),
    }
}

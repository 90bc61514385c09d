//! Helpers shared by the integration tests.
#![allow(dead_code)]
mod builder;
// Not every test file builds scenarios.
#[allow(unused_imports)]
pub use builder::*;

use reclaim_core::report::RunReport;
use reclaim_core::scenario::{parse, Scenario};
use reclaim_core::Simulation;

pub fn scenario_path(name: &str) -> String {
    format!("{}/{name}", scenarios_dir())
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

/// `text` with every `from` replaced by `to`; panics when `from` is absent, so that a fixture
/// whose source file changed fails loudly instead of testing the unchanged text.
pub fn replace_checked(text: &str, from: &str, to: &str) -> String {
    assert!(
        text.contains(from),
        "the text no longer contains {from:?} (to be replaced by {to:?})"
    );
    text.replace(from, to)
}

/// `text` with each `from` of `pairs` replaced by its `to`, in one pass over the text (a value
/// written by one knob is never read as another knob's text); panics when a `from` is absent.
pub fn replace_each_checked(text: &str, pairs: &[(String, String)]) -> String {
    for (from, to) in pairs {
        assert!(
            text.contains(from.as_str()),
            "the text no longer contains {from:?} (to be replaced by {to:?})"
        );
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        match pairs
            .iter()
            .find(|(from, _)| rest.starts_with(from.as_str()))
        {
            Some((from, to)) => {
                out.push_str(to);
                rest = &rest[from.len()..];
            }
            None => {
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// The small S003 (tests/common/s003-small.json, shared with web/src/lib/s003Small.ts): the
/// file's `small` knobs, with `knobs` (name, value) written over them.
pub fn s003_small_text(knobs: &[(&str, &str)]) -> String {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("s003-small.json")).expect("s003-small.json");
    let mut values = fixture["small"].as_object().expect("small").clone();
    for (name, value) in knobs {
        assert!(
            values.contains_key(*name),
            "s003-small.json has no knob {name:?}"
        );
        values.insert(name.to_string(), serde_json::Value::from(*value));
    }
    let pairs: Vec<(String, String)> = fixture["knobs"]
        .as_object()
        .expect("knobs")
        .iter()
        .map(|(name, knob)| {
            let value = values[name].as_str().expect("knob values are strings");
            let to = knob["to"].as_str().expect("to").replace("{}", value);
            (knob["from"].as_str().expect("from").to_string(), to)
        })
        .collect();
    let path = scenario_path("s003-memcg-lru.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    replace_each_checked(&without_lesson(&text), &pairs)
}

/// [`s003_small_text`], parsed.
pub fn s003_small(knobs: &[(&str, &str)]) -> Scenario {
    parse(&s003_small_text(knobs)).unwrap_or_else(|e| panic!("small S003: {e}"))
}

/// The repository's `scenarios/`, found from this file (the fixtures serve the core's tests and
/// the CLI crate's, whose manifest directories differ).
pub fn scenarios_dir() -> String {
    let here = std::path::Path::new(file!());
    let base = if here.is_absolute() {
        std::path::PathBuf::new()
    } else {
        // file!() is relative to the workspace root (wasm-core/).
        let mut d = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        while !d.join("Cargo.lock").exists() && d.pop() {}
        d
    };
    let mut dir = base.join(here);
    while dir.pop() {
        if dir.join("scenarios").is_dir() && dir.join("package.json").exists() {
            return dir.join("scenarios").to_string_lossy().into_owned();
        }
    }
    panic!("no scenarios/ above {}", here.display())
}

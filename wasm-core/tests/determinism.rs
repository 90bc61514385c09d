//! The same scenario and seed give identical results, run after run.
mod common;
use common::*;
use reclaim_core::scenario::ops::{Loop, Touch};
use reclaim_core::scenario::Op;

#[test]
fn same_seed_same_results() {
    let scn = load("s000-thrash.toml");
    let a = run(&scn, "after");
    let b = run(&scn, "after");
    assert_eq!(a, b);
}

#[test]
fn another_seed_changes_random_workloads() {
    let text = std::fs::read_to_string(scenario_path("s000-thrash.toml")).unwrap();
    let mut scn = reclaim_core::scenario::parse(&text).unwrap();
    // Make the rounds random so the seed matters, then compare two seeds.
    let mut alt = scn.clone();
    for s in [&mut scn, &mut alt] {
        if let Some(Op::Loop(Loop { body, .. })) = s.tasks[0].program.last_mut() {
            if let Op::Touch(Touch { pattern, .. }) = &mut body[0] {
                *pattern = reclaim_core::scenario::Pattern::Random;
            }
        }
    }
    alt.seed += 1;
    assert_ne!(run(&scn, "before").counters, run(&alt, "before").counters);
}

#[test]
fn memcg_scenarios_are_deterministic_too() {
    // A small copy of S003: 4 memcgs of the original size, a few root memory.reclaim writes.
    let scn = common::s003_small(&[
        ("memcgs", "4"),
        ("memcg_size", "1920MiB"),
        ("rate", "32768.0"),
        ("frame_scale", "64"),
        ("reclaim_start", "60s"),
        ("reclaim_amount", "8MiB"),
        ("reclaim_count", "5"),
        ("duration", "100s"),
    ]);
    let a = run(&scn, "before");
    let b = run(&scn, "before");
    assert_eq!(a.memcgs.len(), 5);
    assert!(a.reclaim_reclaimed_pages.unwrap() > 0);
    assert_eq!(a, b);
}

#[test]
fn a_dropped_trace_replays_the_same_run_after_run() {
    // The page's scenario for the shipped SQLite recording (a memcg of half its footprint);
    // web/src/engine/determinism.test.ts checks the wasm build gives the same report.
    let name = "sqlite-queries.csv";
    let bytes =
        std::sync::Arc::new(std::fs::read(scenario_path(&format!("traces/{name}"))).unwrap());
    let fmt = reclaim_core::scenario::trace::TraceFormat::Csv;
    let text = reclaim_core::mrc::dropped_scenario(name, fmt, bytes.clone()).unwrap();
    let mut scn = reclaim_core::scenario::parse(&text).unwrap();
    let budget = reclaim_core::scenario::Budget::DEFAULT;
    scn.traces.insert(name, bytes, &budget).unwrap();
    for v in ["classic", "mglru"] {
        let a = run(&scn, v);
        assert!(
            a.counters.get("pgsteal_file").copied().unwrap_or(0) > 0,
            "{v}"
        );
        assert_eq!(a, run(&scn, v), "{v}");
    }
}

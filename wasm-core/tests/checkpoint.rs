//! A clone of a running simulation (the page's seek checkpoints, web/src/engine/checkpoints.ts)
//! goes on exactly as the original would: the engine is deterministic, and a clone shares no
//! mutable state with the run it was taken from.
mod common;
use common::*;
use reclaim_core::Simulation;

/// Everything a run shows, as text compared byte for byte: the report, every series row, the
/// counters and list sizes, the views, the frames of each list and their owners.
fn observed(s: &Simulation) -> String {
    let mut out = String::new();
    out += &serde_json::to_string(&s.report()).unwrap();
    out += &format!("{:?}", s.series());
    out += &format!("{:?}{:?}", s.counter_values(), s.lru_sizes());
    out += &serde_json::to_string(&s.balance_view()).unwrap();
    out += &serde_json::to_string(&s.refault_view()).unwrap();
    out += &serde_json::to_string(&s.memcg_lru_view()).unwrap();
    out += &serde_json::to_string(&s.lru_gen_view(0)).unwrap();
    for l in 0..5 {
        out += &format!("{:?}", s.list_frames(l));
    }
    out += &format!("{:?}{} {}", s.frame_spaces(), s.now_ns(), s.finished());
    out
}

/// Run `variant` of `scn` to `mid_ns` in steps of `step_ns`, clone it, then step the original,
/// the clone and a run that was never cloned side by side to the end: all three agree at
/// every step, and the clone ran on its own (stepping it never moved the original).
fn clone_runs_on_as_the_original(
    scn: &reclaim_core::scenario::Scenario,
    variant: &str,
    mid_ns: u64,
    step_ns: u64,
) {
    let mut original = Simulation::new(scn, variant).unwrap();
    let mut fresh = Simulation::new(scn, variant).unwrap();
    while original.now_ns() < mid_ns {
        original.step(step_ns);
        fresh.step(step_ns);
    }
    let mut copy = original.clone();
    assert_eq!(
        observed(&copy),
        observed(&original),
        "{variant}: the clone as taken"
    );
    let at = original.now_ns();
    copy.step(step_ns);
    assert!(copy.now_ns() > at, "{variant}: the clone moves on");
    assert_eq!(
        original.now_ns(),
        at,
        "{variant}: stepping the clone left the original where it was"
    );
    original.step(step_ns);
    fresh.step(step_ns);
    let mut steps = 0;
    loop {
        let seen = observed(&fresh);
        assert_eq!(
            observed(&copy),
            seen,
            "{variant}: clone vs never cloned at {} ns",
            fresh.now_ns()
        );
        assert_eq!(
            observed(&original),
            seen,
            "{variant}: original vs never cloned at {} ns",
            fresh.now_ns()
        );
        if fresh.finished() {
            break;
        }
        for s in [&mut original, &mut copy, &mut fresh] {
            s.step(step_ns);
        }
        steps += 1;
    }
    assert!(steps > 3, "{variant}: compared at {steps} steps only");
    assert_eq!(copy.run_to_end(), fresh.run_to_end());
}

/// The thrash program at full scale (swap, the classic LRU and MGLRU), cloned mid-run.
#[test]
fn s000_clone_runs_on_bit_for_bit() {
    let text = std::fs::read_to_string(scenario_path("s000-thrash.toml")).unwrap();
    let scn = reclaim_core::scenario::parse(&replace_checked(
        &without_lesson(&text),
        "duration = \"600s\"",
        "duration = \"6s\"",
    ))
    .unwrap();
    for v in &scn.variants {
        clone_runs_on_as_the_original(&scn, &v.name, 2_000_000_000, 250_000_000);
    }
}

/// memcgs, root memory.reclaim, the memcg LRU: cloned while the writes are under way.
#[test]
fn memcg_clone_runs_on_bit_for_bit() {
    let scn = s003_small(&[
        ("memcgs", "4"),
        ("frame_scale", "64"),
        ("reclaim_start", "10s"),
        ("reclaim_count", "8"),
        ("duration", "40s"),
    ]);
    for v in ["before", "after"] {
        clone_runs_on_as_the_original(&scn, v, 20_000_000_000, 2_000_000_000);
    }
}

/// Dirty pages, the flusher and writeback under reclaim; buffer pools (pgbench).
#[test]
fn writeback_and_buffer_pool_clones_run_on_bit_for_bit() {
    let runs = [
        (
            "s002-kswapd-writeback.toml",
            "duration = \"70s\"",
            "duration = \"30s\"",
            15_000_000_000,
            1_000_000_000,
        ),
        (
            "s004-pgbench.toml",
            "duration = \"6010s\"",
            "duration = \"20s\"",
            8_000_000_000,
            1_000_000_000,
        ),
    ];
    for (file, from, to, at, step) in runs {
        let text = std::fs::read_to_string(scenario_path(file)).unwrap();
        let scn = reclaim_core::scenario::parse(&replace_checked(&without_lesson(&text), from, to))
            .unwrap();
        let v = &scn.variants[0].name;
        clone_runs_on_as_the_original(&scn, v, at, step);
    }
}

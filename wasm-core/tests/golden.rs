//! Golden reports: CHANGE DETECTORS, not correctness checks.
//!
//! For every scenario in `scenarios/` and each of its variants this runs the engine and compares,
//! byte for byte, against `tests/golden/<scenario>.json`: the list sizes at a few fixed virtual
//! times, the sampled time series (its length, a hash of every sample and a few samples in
//! full), and the whole `reclaim run --json` document. A refactoring must leave every file
//! unchanged. A change that is meant to move numbers regenerates them with
//! `UPDATE_GOLDEN=1 cargo test --test golden` (or `npm run golden`) and says in its commit
//! message which numbers moved and why. The numbers here are what the engine gave at that
//! commit; whether they are right is for the repro_* tests and the seed bands.
mod common;
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;
use serde_json::{json, Value};

/// Virtual times (seconds) at which the list sizes are recorded, where the run lasts that long.
const PROBE_S: [f64; 4] = [0.5, 2.0, 10.0, 60.0];
/// Samples written out in full, spread evenly over the series.
const FULL_SAMPLES: usize = 8;

/// FNV-1a over 64-bit words: enough to notice any change in the series, no dependency.
fn fnv(words: impl Iterator<Item = u64>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn sample_words(s: &reclaim_core::sim::Sample) -> Vec<u64> {
    let mut w = vec![s.t_ns];
    w.extend_from_slice(&s.counters);
    w.extend_from_slice(&s.lists);
    w.push(s.anon_cost);
    w.push(s.file_cost);
    w
}

fn golden_for(file: &str) -> Value {
    let text = std::fs::read_to_string(common::scenario_path(file)).unwrap();
    let scn = parse(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut variants = Vec::new();
    for v in &scn.variants {
        let mut sim = Simulation::new(&scn, &v.name).unwrap();
        let mut probes = Vec::new();
        for s in PROBE_S {
            let t = (s * 1e9) as u64;
            if t >= sim.end_ns() || sim.finished() {
                break;
            }
            sim.run_until(t);
            probes.push(json!({ "t_s": s, "lists": sim.lru_sizes() }));
        }
        let report = sim.run_to_end();
        // The progress guard's N must stay far above what a real scenario does at one instant
        // (issue #49): the longest run of events without virtual time advancing.
        let stall = sim.longest_stall();
        println!("{file} {}: longest stall {stall} events", v.name);
        assert!(
            stall < reclaim_core::sim::MAX_STALLED_EVENTS / 64,
            "{file} {}: {stall} events at one instant, near the guard's N",
            v.name
        );
        let series = sim.series();
        let every = (series.len() / FULL_SAMPLES).max(1);
        let shown: Vec<Value> = series
            .iter()
            .step_by(every)
            .map(|s| {
                json!({ "t_ns": s.t_ns, "lists": s.lists, "anon_cost": s.anon_cost,
                             "file_cost": s.file_cost, "counters": s.counters.to_vec() })
            })
            .collect();
        variants.push(json!({
            "variant": v.name,
            "lists_at": probes,
            "series": {
                "len": series.len(),
                "fnv1a": fnv(series.iter().flat_map(sample_words)),
                "every_nth": every,
                "samples": shown,
            },
            "report": serde_json::to_value(&report).unwrap(),
        }));
    }
    json!({
        "_note": "change detector (tests/golden.rs): numbers the engine gave, not expected values",
        "scenario": file,
        "variants": variants,
    })
}

fn check(file: &str) {
    let got = serde_json::to_string_pretty(&golden_for(file)).unwrap() + "\n";
    let path = format!(
        "{}/tests/golden/{}.json",
        env!("CARGO_MANIFEST_DIR"),
        file.trim_end_matches(".toml")
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(std::path::Path::new(&path).parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (run `npm run golden` to create it)"));
    if got != want {
        let line = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "{file}: the engine's output differs from {path} from line {}:\n  now:    {}\n  golden: {}\n\
             If the change is meant, regenerate with `npm run golden` and explain it in the commit.",
            line + 1,
            got.lines().nth(line).unwrap_or("<end>"),
            want.lines().nth(line).unwrap_or("<end>")
        );
    }
}

#[test]
fn every_scenario_has_a_golden_and_no_stale_golden_is_left() {
    let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut scenarios: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".toml"))
        .map(|n| n.trim_end_matches(".toml").to_string())
        .collect();
    scenarios.sort();
    let listed: Vec<String> = {
        let mut v: Vec<String> = GOLDEN_SCENARIOS
            .iter()
            .filter(|s| !s.contains('/'))
            .map(|s| s.trim_end_matches(".toml").to_string())
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        scenarios, listed,
        "tests/golden.rs must list every scenario in scenarios/"
    );
}

macro_rules! goldens {
    ($($name:ident => $file:literal),* $(,)?) => {
        const GOLDEN_SCENARIOS: &[&str] = &[$($file),*];
        $( #[test] fn $name() { check($file); } )*
    };
}

goldens! {
    golden_lesson_refault_distance => "lesson-refault-distance.toml",
    golden_lesson_swappiness => "lesson-swappiness.toml",
    golden_lesson_two_list_lru => "lesson-two-list-lru.toml",
    golden_s000_thrash => "s000-thrash.toml",
    golden_s000_mem_thrash => "s000-mem-thrash.toml",
    golden_s001_used_once => "s001-used-once.toml",
    golden_s001b_worst_case => "s001b-worst-case.toml",
    golden_s002_kswapd_writeback => "s002-kswapd-writeback.toml",
    golden_s003_memcg_lru => "s003-memcg-lru.toml",
    golden_s003b_noreuse => "s003b-noreuse.toml",
    golden_s003b_recency => "s003b-recency.toml",
    golden_s004_pgbench => "s004-pgbench.toml",
    golden_s004b_parallelio => "s004b-parallelio.toml",
    // The 6.18 presets (memory.reclaim swappiness=max, proactive counters): a validation
    // scenario, so its golden lives under golden/validation/.
    golden_validation_swappiness_max => "validation/memcg-reclaim-swappiness-max.toml",
}

//! S001 and S001b (used-once detection of mapped file pages, 2.6.33 -> 2.6.34): the bands of
//! seed-experiments.md, from the scenario files as shipped.
mod common;
use common::*;

/// Bytes hashed per round of the hasher (one 32 MiB chunk).
const CHUNK_MB: f64 = 32.0 * 1048576.0 / 1e6;

#[test]
fn s001_used_once_reproduces() {
    let scn = load("s001-used-once.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    // Mean launch time falls >= 2x for the small programs.
    for p in ["pydoc", "find"] {
        let (b, a) = (mean(&rounds(&before, p)), mean(&rounds(&after, p)));
        assert!(
            b >= 2.0 * a,
            "{p}: mean launch {b:.3} s before, {a:.3} s after"
        );
    }
    // No program gets slower on average.
    for p in ["vim", "mplayer"] {
        let (b, a) = (mean(&rounds(&before, p)), mean(&rounds(&after, p)));
        assert!(
            a <= b * 1.05,
            "{p}: mean launch {b:.3} s before, {a:.3} s after"
        );
    }
    // Hashing throughput rises >= 5%.
    let mbps = |r| {
        let h = rounds(r, "hash");
        CHUNK_MB * h.len() as f64 / h.iter().sum::<f64>()
    };
    let (tb, ta) = (mbps(&before), mbps(&after));
    assert!(
        ta >= 1.05 * tb,
        "hash {tb:.2} MB/s before, {ta:.2} MB/s after"
    );
    // The mechanism: before, hashed pages are activated by the thousand; after, hardly any.
    assert!(before.measured["pgactivate"] > 100 * after.measured["pgactivate"]);
}

#[test]
fn s001b_worst_case_costs_a_little_more_time() {
    let scn = load("s001b-worst-case.toml");
    let b: f64 = rounds(&run(&scn, "before"), "worst").iter().sum();
    let a: f64 = rounds(&run(&scn, "after"), "worst").iter().sum();
    let overhead = a / b - 1.0;
    assert!(
        (0.0..=0.15).contains(&overhead),
        "worst case: {b:.2} s before, {a:.2} s after ({:+.1}%)",
        overhead * 100.0
    );
}

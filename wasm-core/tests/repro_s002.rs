//! S002 (kswapd writeback, 4.10 -> 4.11): the bands of seed-experiments.md, from the scenario
//! file as shipped.
mod common;
use common::*;

#[test]
fn s002_kswapd_writeback_reproduces() {
    let scn = load("s002-kswapd-writeback.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    // p95 write latency falls >= 5x (every writer).
    for w in ["write0", "write1", "write2", "write3"] {
        let (b, a) = (latency(&before, w).p95, latency(&after, w).p95);
        assert!(b >= 5.0 * a, "{w}: p95 write {b} ms before, {a} ms after");
    }
    // Pages written by reclaim fall to <= 1% of before.
    let (vb, va) = (
        before.measured["nr_vmscan_write"],
        after.measured["nr_vmscan_write"],
    );
    assert!(vb > 0 && va * 100 <= vb, "nr_vmscan_write {vb} -> {va}");
    // p95 allocation latency falls >= 20%.
    let (b, a) = (latency(&before, "alloc").p95, latency(&after, "alloc").p95);
    assert!(a <= 0.8 * b, "p95 allocation {b} ms before, {a} ms after");
    // Read latency within +-10%.
    for p in ["p50", "p95", "p99"] {
        let get = |r| {
            let l = latency(r, "read");
            match p {
                "p50" => l.p50,
                "p95" => l.p95,
                _ => l.p99,
            }
        };
        let (b, a) = (get(&before), get(&after));
        assert!(
            (a / b - 1.0).abs() <= 0.10,
            "{p} read {b} ms before, {a} ms after"
        );
    }
    // The mechanism: direct reclaim wastes fewer scans on dirty pages.
    let eff = |r: &reclaim_core::report::RunReport| {
        r.measured["pgsteal_direct"] as f64 / r.measured["pgscan_direct"].max(1) as f64
    };
    assert!(eff(&after) > eff(&before), "direct reclaim efficiency");
}

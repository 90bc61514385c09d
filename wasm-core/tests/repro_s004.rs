//! S004 (seed 004, IO-cost balancing, 5.7 -> 5.8). One band of three is reached: the capped
//! kernel refuses swappiness 115, and the 5.8 balance scans anon more than 5x as much. tps and
//! file refaults do not move (README, scenario table): postgres's shared buffers, modelled as
//! a pool replaced by clock sweep, are shmem and start on the inactive anon list, and the idle
//! heap is deactivated only once reclaim has promoted most of them, so 5.8 starts to swap it
//! out only in the last minutes of the measured hour.
//! S004b: see below.
mod common;
use common::*;

#[test]
fn s004b_parallelio_throughput_band_and_swap_parity() {
    // The band: service throughput within +-5% (holds on every seed), and swap traffic not
    // higher after. The engine gets swap traffic equal within noise (about +-12% from seed to
    // seed, both signs), not the 4-11% reduction the kernel measured; so this checks parity
    // within 15%, and the "not higher" half is reported as not reproduced.
    let base = load("s004b-parallelio.toml");
    for seed in 1..=3 {
        let mut scn = base.clone();
        scn.seed = seed;
        let before = run(&scn, "before");
        let after = run(&scn, "after");
        let ops = |r: &reclaim_core::report::RunReport| {
            r.tasks
                .iter()
                .find_map(|t| t.ops_per_s)
                .expect("service ops")
        };
        let (ob, oa) = (ops(&before), ops(&after));
        assert!(
            (oa / ob - 1.0).abs() <= 0.05,
            "seed {seed}: service throughput before {ob} after {oa}"
        );
        let swap = |r: &reclaim_core::report::RunReport| {
            (r.measured["pswpin"] + r.measured["pswpout"]) as f64
        };
        let (sb, sa) = (swap(&before), swap(&after));
        // The service does not fit in memory: both kernels swap.
        assert!(
            sb > 1000.0 && sa > 1000.0,
            "seed {seed}: swap before {sb} after {sa}"
        );
        assert!(
            (sa / sb - 1.0).abs() <= 0.15,
            "seed {seed}: swap traffic before {sb} after {sa}"
        );
    }
}

#[test]
fn s004_pgbench_swappiness_cap_and_anon_scanning() {
    let scn = load("s004-pgbench.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    assert_eq!((before.swappiness, after.swappiness), (60, 115));
    let m = |r: &reclaim_core::report::RunReport, k: &str| r.measured[k];
    let (ab, aa) = (m(&before, "pgscan_anon"), m(&after, "pgscan_anon"));
    // The band: anon scanned rises >= 5x.
    assert!(aa >= 5 * ab.max(1), "anon scanned before {ab} after {aa}");
    // What stops the rest of the result: nearly all anon pages 5.8 scans in the measured hour
    // are shared buffers that the clock sweep has used since, so they are activated, not
    // swapped; the idle heap reaches the inactive list too late.
    assert!(
        m(&after, "pgsteal_anon") * 20 <= aa,
        "anon reclaimed {} of {aa} scanned",
        m(&after, "pgsteal_anon")
    );
}

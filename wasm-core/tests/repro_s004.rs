//! S004 (seed 004, IO-cost balancing, 5.7 -> 5.8). One band of three is reached: the capped
//! kernel refuses swappiness 115, and the 5.8 balance scans anon more than 5x as much. As in
//! the kernel's table, 5.8 also reclaims a large share of the anon it scans (the idle heap,
//! deactivated when the warm-up run's backends exit) while 5.7 hardly swaps. tps and file
//! refaults move by a few percent only, the wrong way (README, scenario header), not by the
//! bands.
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
fn s004_pgbench_swappiness_cap_anon_scanning_and_swap_out() {
    let scn = load("s004-pgbench.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    assert_eq!((before.swappiness, after.swappiness), (60, 115));
    let m = |r: &reclaim_core::report::RunReport, k: &str| r.measured[k];
    let (ab, aa) = (m(&before, "pgscan_anon"), m(&after, "pgscan_anon"));
    // The band: anon scanned rises >= 5x.
    assert!(aa >= 5 * ab.max(1), "anon scanned before {ab} after {aa}");
    // The mechanism behind it, as in the posting's table: 5.8 finds idle anon on the inactive
    // list and swaps it out (reclaiming a large share of what it scans); 5.7 hardly swaps.
    let (sb, sa) = (m(&before, "pswpout"), m(&after, "pswpout"));
    assert!(sa >= 10 * sb.max(1), "swap-outs before {sb} after {sa}");
    let stolen = m(&after, "pgsteal_anon");
    assert!(stolen * 4 >= aa, "anon reclaimed {stolen} of {aa} scanned");
}

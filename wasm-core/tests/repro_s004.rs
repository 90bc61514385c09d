//! S004 (seed 004, IO-cost balancing). Four variants: the seed's own pair, vanilla 4.7 against
//! the June 2016 posting of "mm: balance LRU lists based on relative thrashing" on it
//! (`rfc-2016-lru-cost`, not mainline), and mainline 5.7 -> 5.8 beside it.
//! - The 2016 pair reaches none of the three bands, from mechanisms: both kernels keep 3.8's
//!   "only evict file pages when we have plenty" shortcut (the series kept it on purpose) and
//!   lack 5.3's refault-driven exception, so while the init step's read-once heap fills the
//!   inactive file list, `get_scan_count` returns SCAN_FILE and the cost model is never
//!   consulted: neither kernel scans anon in the measured hour.
//! - The mainline pair reaches one band (anon scanned >= 5x); the other two are known
//!   deviations (docs/experiments.md, scenario header), asserted below so that a change to them is noticed.
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

fn tps(r: &reclaim_core::report::RunReport) -> f64 {
    r.tasks
        .iter()
        .find(|t| t.name == "pgbench")
        .and_then(|t| t.ops_per_s)
        .expect("pgbench ops")
}

fn m(r: &reclaim_core::report::RunReport, k: &str) -> u64 {
    *r.measured
        .get(k)
        .unwrap_or_else(|| panic!("{}: no counter {k}", r.variant))
}

/// The seed's pair, 4.7 -> the 2016 series. The bands (tps >= +15%, file refaults <= -30%,
/// anon scanned >= 5x) do not hold, and this asserts why rather than the numbers: 4.7 refuses
/// 115 (the variant asks for 100 itself), the series accepts it; and in both kernels the
/// "plenty of inactive file" shortcut keeps anon out of reclaim for the whole measured hour,
/// so no anon page is scanned and the series' cost model (restores and swap-ins at x32,
/// rotations at x1) has nothing to steer. No refault is a restore (refault_active_file is 0,
/// as 5.8's restores are), because the pages reclaimed are the heap the init step read once.
/// What the series does change is the refault distance (active file + anon): it activates
/// most refaults where 4.7 activated fewer than half. If a change to the model lets the
/// inactive list run low within the hour, this test fails and the bands must be looked at
/// again.
#[test]
fn s004_the_2016_pair_plenty_rule_keeps_anon_out_so_no_band_holds() {
    let scn = load("s004-pgbench.toml");
    let v = run(&scn, "vanilla-4.7");
    let p = run(&scn, "lrucost-2016");
    assert_eq!((v.preset.as_str(), v.swappiness), ("linux-4.7", 100));
    assert_eq!(
        (p.preset.as_str(), p.swappiness),
        ("rfc-2016-lru-cost", 115)
    );
    // The mechanism: anon untouched in both; no restore, so no file IO cost.
    assert_eq!((m(&v, "pgscan_anon"), m(&p, "pgscan_anon")), (0, 0));
    assert_eq!((m(&v, "pswpout"), m(&p, "pswpout")), (0, 0));
    assert_eq!(m(&p, "refault_active_file"), 0);
    assert_eq!(m(&p, "workingset_restore_file"), 0);
    // The series' counters exist only in its kernel, and count only refaults within the
    // distance: every activation, none of the refaults beyond it.
    assert!(!v.measured.contains_key("refault_inactive_file"));
    let within = m(&p, "refault_inactive_file") + m(&p, "refault_active_file");
    assert_eq!(within, m(&p, "workingset_activate_file"));
    assert!(within < m(&p, "workingset_refault_file"));
    // The distance against active file + anon activates more than twice as many refaults.
    assert!(m(&p, "workingset_activate_file") > 2 * m(&v, "workingset_activate_file"));
    // So none of the bands holds.
    let (tv, tp) = (tps(&v), tps(&p));
    assert!(tp < 1.15 * tv, "tps {tv} -> {tp}");
    let (rv, rp) = (
        m(&v, "workingset_refault_file"),
        m(&p, "workingset_refault_file"),
    );
    assert!(rp * 10 > rv * 7, "file refaults {rv} -> {rp}");
    // Even the series' own counter, which leaves out refaults beyond the distance, is not
    // 30% below 4.7's workingset_refault.
    assert!(within * 10 > rv * 7, "refault_* {within} against {rv}");
}

/// Mainline 5.7 -> 5.8: the anon band holds (x28 here, the kernel's x31), and 5.8 swaps out
/// the idle heap as the posting's kernel did. Known deviation, kept as data (as ruffle keeps
/// its known failures): the tps band (>= +15%) and the file-refault band (<= -30%) do NOT hold
/// and this asserts that they still do not. Reason (docs/experiments.md, scenario header): no refault in the
/// measured hour is a restore, because the pages 5.8 deactivates join a ~3.2 GiB inactive
/// list that reclaim needs about four hours to work through; 5.8's file cost counts restores
/// only, so it stays at zero while every swap-out adds anon cost, and the one-third range
/// limit (merged with 5.8, not in the 2016 posting) then gives anon 40% of the weight at
/// swappiness 115. 5.8 swaps the tmpfs files out more slowly than 5.7 in the warm-up and holds
/// more anon, hence less cache, through the hour. A change that makes either band hold has to
/// revisit that explanation.
#[test]
fn s004_mainline_pair_anon_band_holds_tps_and_refault_bands_are_known_deviations() {
    let scn = load("s004-pgbench.toml");
    let before = run(&scn, "mainline-5.7");
    let after = run(&scn, "mainline-5.8");
    assert_eq!((before.swappiness, after.swappiness), (60, 115));
    let (ab, aa) = (m(&before, "pgscan_anon"), m(&after, "pgscan_anon"));
    // The band: anon scanned rises >= 5x.
    assert!(aa >= 5 * ab.max(1), "anon scanned before {ab} after {aa}");
    // The mechanism behind it, as in the posting's table: 5.8 finds idle anon on the inactive
    // list and swaps it out (reclaiming a large share of what it scans); 5.7 hardly swaps.
    let (sb, sa) = (m(&before, "pswpout"), m(&after, "pswpout"));
    assert!(sa >= 10 * sb.max(1), "swap-outs before {sb} after {sa}");
    let stolen = m(&after, "pgsteal_anon");
    assert!(stolen * 4 >= aa, "anon reclaimed {stolen} of {aa} scanned");
    // Known deviations: neither of the other two bands holds.
    assert_eq!(m(&after, "workingset_restore_file"), 0);
    let (tb, ta) = (tps(&before), tps(&after));
    assert!(ta < 1.15 * tb, "known deviation changed: tps {tb} -> {ta}");
    let (rb, ra) = (
        m(&before, "workingset_refault_file"),
        m(&after, "workingset_refault_file"),
    );
    assert!(
        ra * 10 > rb * 7,
        "known deviation changed: file refaults {rb} -> {ra}"
    );
}

/// Item 5 of issue 26, the device: with swap moved from the SSD to the HDD the 2016 series'
/// gain over 4.7 must shrink or vanish. Here it cannot shrink, as there is none to begin with,
/// and the device cannot matter: neither kernel swaps a page in the measured hour (the
/// "plenty" shortcut above), so the HDD run of each kernel gives the SSD run's counters
/// exactly and the series' tps change against 4.7 stays what it was. Note that the series'
/// cost model counts events (restores and swap-ins x32, rotations x1), never device time:
/// devices reach it only through the swappiness an administrator picks for them. This test
/// fails, and item 5 must be looked at again, as soon as either kernel swaps here.
#[test]
fn s004_swap_on_the_hdd_changes_nothing_while_the_2016_pair_does_not_swap() {
    let ssd = load("s004-pgbench.toml");
    let mut hdd = ssd.clone();
    hdd.machine.swap.as_mut().expect("S004 has swap").device = "hdd".to_string();
    let gain = |scn: &reclaim_core::scenario::Scenario| {
        let v = run(scn, "vanilla-4.7");
        let p = run(scn, "lrucost-2016");
        for r in [&v, &p] {
            assert_eq!(m(r, "pswpout") + m(r, "pswpin"), 0, "{} swapped", r.variant);
        }
        (tps(&p) / tps(&v), v.measured, p.measured)
    };
    let (g_ssd, v_ssd, p_ssd) = gain(&ssd);
    let (g_hdd, v_hdd, p_hdd) = gain(&hdd);
    assert_eq!(v_ssd, v_hdd);
    assert_eq!(p_ssd, p_hdd);
    assert!(g_hdd <= g_ssd, "gain on HDD {g_hdd} above SSD {g_ssd}");
}

//! S003b (seed 003, access-recency hints, 6.3 `vma_has_recency`): the variants differ only in
//! that flag.
mod common;
use common::*;

fn ops(r: &reclaim_core::report::RunReport) -> f64 {
    r.tasks.iter().filter_map(|t| t.ops_per_s).sum()
}

#[test]
fn noreuse_stream_no_longer_evicts_the_working_set_under_mglru() {
    // Full size. The band: frames/s rise (2-15%) and the streamed input stops pushing the
    // encoder's working set to swap.
    let scn = load("s003b-noreuse.toml");
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    let (fb, fa) = (ops(&before), ops(&after));
    let gain = fa / fb - 1.0;
    assert!((0.02..=0.15).contains(&gain), "frames/s {fb} -> {fa}");
    // Before: the working set swaps; after: it stays resident.
    assert!(before.measured["pswpin"] > 10_000, "{:?}", before.measured);
    assert!(
        after.measured["pswpin"] * 100 < before.measured["pswpin"],
        "swap-ins {} -> {}",
        before.measured["pswpin"],
        after.measured["pswpin"]
    );
}

#[test]
fn random_mmap_hint_cuts_the_reclaim_work_of_the_classic_lru() {
    // Scaled down for test time (stated): 4 of the 8 fio jobs on 4 CPUs, 3 s instead of 20 s;
    // the RAM shrinks with the jobs so the same share of the data fits. With the hint honoured
    // the accessed bits of the MADV_RANDOM mappings no longer keep pages for a second trip, so
    // reclaim scans about one page per page it frees instead of two and activations nearly
    // vanish; kswapd's saved CPU time goes to the jobs, whose IOPS rise (band 2-15%).
    let mut scn = load("s003b-recency.toml");
    scn.tasks.truncate(4);
    scn.files.truncate(4);
    scn.machine.ram = reclaim_core::scenario::Size(2 << 30);
    scn.machine.cpus = Some(4);
    scn.run.duration = reclaim_core::scenario::Duration(3_000_000_000);
    let before = run(&scn, "before");
    let after = run(&scn, "after");
    let eff = |r: &reclaim_core::report::RunReport| {
        r.measured["pgscan_file"] as f64 / r.measured["pgsteal_file"].max(1) as f64
    };
    assert!(eff(&before) > 1.5, "before scan/steal {}", eff(&before));
    assert!(eff(&after) < 1.1, "after scan/steal {}", eff(&after));
    assert!(
        after.measured["pgactivate"] * 4 < before.measured["pgactivate"],
        "pgactivate {} -> {}",
        before.measured["pgactivate"],
        after.measured["pgactivate"]
    );
    let gain = ops(&after) / ops(&before) - 1.0;
    eprintln!(
        "S003b recency, scaled: IOPS {} -> {} ({:+.1}%)",
        ops(&before),
        ops(&after),
        gain * 100.0
    );
    assert!(
        (0.02..=0.15).contains(&gain),
        "IOPS {} -> {}",
        ops(&before),
        ops(&after)
    );
}

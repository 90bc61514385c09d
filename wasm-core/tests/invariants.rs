//! Structural invariants checked after every event, on small scenarios, and by property tests
//! over random scenarios (sizes, swappiness, devices, task mixes, kernel presets).
mod common;
use common::{ScenarioBuilder, Task};
use proptest::prelude::*;
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

fn run_checked(text: &str, variant: &str) -> reclaim_core::report::RunReport {
    let scn = parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut sim = Simulation::new(&scn, variant).unwrap();
    sim.check_invariants = true;
    let r = sim.run_to_end();
    sim.invariants().unwrap();
    r
}

/// A random scenario: `main` keeps an anon heap and a mapped file under pressure, and `mix`
/// (modulo 9) adds other tasks: none, a reader, a writer, a buffer pool, writers, temp files,
/// a sweeper, churn of mappings, or zipf writes to a shared mapping. Swap on `swap_dev` when
/// `swap_mib` > 0.
#[allow(clippy::too_many_arguments)]
fn machine(
    ram_mib: u64,
    swap_mib: u64,
    swap_dev: &str,
    file_dev: &str,
    swappiness: u32,
    preset: &str,
    anon_mib: u64,
    file_mib: u64,
    rounds: u64,
    mix: u8,
) -> ScenarioBuilder {
    let b = ScenarioBuilder::new("random")
        .seed(7)
        .ram(&format!("{ram_mib}MiB"));
    let b = if swap_mib > 0 {
        b.swap("swapdev", &format!("{swap_mib}MiB"))
    } else {
        b
    };
    let b = b
        .sysctl("swappiness", &swappiness.to_string())
        .device("swapdev", swap_dev)
        .device("filedev", file_dev)
        .file("data", &format!("{file_mib}MiB"), "filedev")
        .file("scratch", &format!("{file_mib}MiB"), "filedev")
        .variant("v", preset)
        .task(
            "main",
            &format!(
                r#"[
  {{ op = "anon", name = "heap", size = "{anon_mib}MiB" }},
  {{ op = "touch", regions = ["heap"], write = true }},
  {{ op = "mmap", name = "x", file = "data", prot = "rx" }},
  {{ op = "loop", count = {rounds}, body = [ {{ op = "touch", regions = ["x", "heap"], pattern = "random", count = 500 }} ] }},
]"#
            ),
        );
    let b = match mix % 9 {
        0 => b,
        1 => b.task(
            "reader",
            &format!(
                r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "read", file = "data", pattern = "random", count = 200 }} ] }} ]"#
            ),
        ),
        2 => b.task(
            "writer",
            &format!(
                r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "write", file = "data", pattern = "seq", count = 100 }} ] }} ]"#
            ),
        ),
        3 => b.task_spec(
            Task::new(
                "db",
                &format!(
                    r#"[ {{ op = "anon", name = "pool", size = "2MiB", shared = true }}, {{ op = "loop", count = {rounds}, body = [ {{ op = "read", file = "data", pattern = "random", count = 300, buffer = "pool", write = true }} ] }} ]"#
                ),
            )
            .clients(2),
        ),
        4 => b
            .task_spec(
                Task::new(
                    "writers",
                    &format!(
                        r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "write", file = "data", pattern = "random", count = 300 }}, {{ op = "read", file = "data", pattern = "random", count = 100 }} ] }} ]"#
                    ),
                )
                .clients(3),
            )
            .task(
                "appender",
                &format!(
                    r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "write", file = "data", pattern = "seq", count = 400 }} ] }} ]"#
                ),
            ),
        5 => b.task_spec(
            Task::new(
                "tempfiles",
                &format!(
                    r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "write", file = "scratch", pattern = "seq", count = 300 }}, {{ op = "read", file = "scratch", pattern = "random", count = 100 }}, {{ op = "truncate", file = "scratch" }} ] }} ]"#
                ),
            )
            .clients(2),
        ),
        6 => b.task(
            "sweeper",
            &format!(
                r#"[ {{ op = "anon", name = "h2", size = "{anon_mib}MiB" }}, {{ op = "touch", regions = ["h2"], write = true }}, {{ op = "loop", count = {rounds}, body = [ {{ op = "touch", regions = ["h2"], pattern = "seq", count = 2000 }} ] }} ]"#
            ),
        ),
        7 => b.task_spec(
            Task::new(
                "churn",
                &format!(
                    r#"[ {{ op = "loop", count = {rounds}, body = [ {{ op = "anon", name = "seg", size = "4MiB", shared = true }}, {{ op = "anon", name = "tmp", size = "4MiB" }}, {{ op = "touch", regions = ["seg", "tmp"], write = true }}, {{ op = "mmap", name = "m", file = "data", prot = "r" }}, {{ op = "touch", regions = ["m"], pattern = "random", count = 200 }}, {{ op = "munmap", name = "m" }}, {{ op = "free", name = "tmp" }}, {{ op = "free", name = "seg" }} ] }} ]"#
                ),
            )
            .clients(2),
        ),
        _ => b.task_spec(
            Task::new(
                "zipf",
                &format!(
                    r#"[ {{ op = "mmap", name = "m", file = "data", prot = "rw" }}, {{ op = "loop", count = {rounds}, body = [ {{ op = "touch", regions = ["m"], pattern = "zipf", count = 300, write = true }} ] }} ]"#
                ),
            )
            .clients(2),
        ),
    };
    b.duration("120s")
}

/// [`machine`]'s scenario file.
#[allow(clippy::too_many_arguments)]
fn scenario(
    ram_mib: u64,
    swap_mib: u64,
    swap_dev: &str,
    file_dev: &str,
    swappiness: u32,
    preset: &str,
    anon_mib: u64,
    file_mib: u64,
    rounds: u64,
    mix: u8,
) -> String {
    machine(
        ram_mib, swap_mib, swap_dev, file_dev, swappiness, preset, anon_mib, file_mib, rounds, mix,
    )
    .toml()
}

#[test]
fn invariants_hold_under_anon_and_file_pressure() {
    for preset in [
        "linux-2.6.33",
        "linux-2.6.34",
        "linux-4.10",
        "linux-4.11",
        "linux-5.2",
        "linux-5.3",
        "linux-5.7",
        "linux-5.8",
        "linux-6.1",
        "linux-6.1-mglru",
        "linux-6.3",
        "linux-6.3-mglru",
        "linux-6.14-mglru",
    ] {
        let r = run_checked(
            &scenario(16, 64, "ssd", "hdd", 60, preset, 20, 12, 4, 1),
            "v",
        );
        assert!(
            r.counters["pgscan_kswapd"] + r.counters["pgscan_direct"] > 0,
            "{preset}: no reclaim happened"
        );
        assert!(r.counters["pswpout"] > 0, "{preset}: nothing swapped");
    }
}

#[test]
fn without_swap_anon_overcommit_ends_in_an_oom_kill() {
    for preset in ["linux-6.1", "linux-6.1-mglru", "linux-6.14-mglru"] {
        let r = run_checked(&scenario(16, 0, "ssd", "ssd", 60, preset, 40, 4, 1, 0), "v");
        assert_eq!(r.oom_kills.len(), 1, "{preset}: {:?}", r.oom_kills);
        assert_eq!(r.oom_kills[0].task, "main");
        assert!(r.tasks[0].killed);
        // The only task is killed by its own allocation: the run ends at that moment, not at
        // the last event before it (the task's clock runs ahead of the event clock).
        assert_eq!(r.oom_kills[0].time_s, r.virtual_s, "{preset}");
        assert_eq!(r.counters["pswpout"], 0);
    }
}

#[test]
fn stalled_allocators_wait_for_io_instead_of_spinning() {
    // Swap fills up, anon outgrows RAM, and a second task keeps reading from a disk: two
    // tasks stall in the allocator while IO is in flight. They must sleep until IO completes
    // (not spin at one instant) and the run must end in an OOM kill.
    let r = run_checked(
        &scenario(29, 11, "ssd", "hdd", 27, "linux-5.7", 31, 13, 3, 1),
        "v",
    );
    assert_eq!(r.oom_kills.len(), 1, "{:?}", r.oom_kills);
    assert!(
        r.oom_kills[0].time_s <= r.virtual_s,
        "killed after the run's end"
    );
    assert!(
        r.counters["allocstall"] < 200_000,
        "allocstall {}",
        r.counters["allocstall"]
    );
}

#[test]
fn writer_mix_keeps_the_invariants_in_every_dirty_handling_variant() {
    for preset in [
        "linux-4.10",
        "linux-4.11",
        "linux-6.1",
        "linux-6.1-mglru",
        "linux-6.14-mglru",
    ] {
        for laptop in [false, true] {
            let text = machine(16, 64, "ssd", "ssd", 60, preset, 12, 24, 2, 4)
                .sysctl("laptop_mode", &laptop.to_string())
                .sysctl("dirty_ratio", "20")
                .sysctl("dirty_background_ratio", "5")
                .toml();
            let r = run_checked(&text, "v");
            assert!(r.counters["pgpgout"] > 0, "{preset}: nothing written");
        }
    }
}

#[test]
fn temp_files_truncated_under_pressure_keep_the_invariants_in_every_preset() {
    // Two clients write, read and truncate the same scratch file in a loop while the main task
    // keeps anon and a mapped file under pressure: truncates meet dirty pages, writeback in
    // flight, reads in flight and pages isolated by reclaim.
    for preset in [
        "linux-2.6.33",
        "linux-4.10",
        "linux-4.11",
        "linux-5.8",
        "linux-6.1",
        "linux-6.1-mglru",
        "linux-6.14-mglru",
    ] {
        let r = run_checked(
            &scenario(16, 64, "ssd", "hdd", 60, preset, 12, 24, 6, 5),
            "v",
        );
        assert!(r.counters["pgpgout"] > 0, "{preset}: nothing written");
        assert!(r.counters["pgfree"] > 0);
    }
}

#[test]
fn swap_readahead_keeps_the_invariants_in_every_era_and_device() {
    // A second task sweeps its swapped-out anon in order: swap readahead by slot (<= 4.13,
    // shmem, rotational swap), by address (4.14+) or none (zram, 4.15+).
    for preset in [
        "linux-2.6.33",
        "linux-4.11",
        "linux-5.8",
        "linux-6.1-mglru",
        "linux-6.14-mglru",
    ] {
        for dev in ["hdd", "ssd", "zram"] {
            let r = run_checked(&scenario(16, 64, dev, "ssd", 100, preset, 12, 4, 3, 6), "v");
            assert!(r.counters["pswpin"] > 0, "{preset} {dev}: no swap-in");
            let old = preset == "linux-2.6.33" || preset == "linux-4.11";
            if dev == "ssd" && !old {
                assert!(
                    r.counters["swap_ra_hit"] > 0,
                    "{preset} {dev}: {:?}",
                    r.counters
                );
            }
            if old || dev == "zram" {
                // No swap_ra counters before 4.14; no readahead on zram from 4.15.
                assert_eq!((r.counters["swap_ra"], r.counters["swap_ra_hit"]), (0, 0));
            }
        }
    }
}

#[test]
fn dirty_pages_are_written_before_their_frames_are_reused() {
    let r = run_checked(
        &scenario(16, 64, "nvme", "ssd", 60, "linux-6.1", 8, 24, 3, 2),
        "v",
    );
    // Every page the writer dirtied and reclaim freed was written first: frees of file pages
    // never exceed what was read or written.
    assert!(r.counters["pgpgout"] > 0);
    assert!(r.counters["pgsteal_file"] <= r.counters["pgpgin"] + r.counters["pgpgout"]);
}

#[test]
fn swappiness_above_a_kernels_cap_is_refused() {
    let scn = parse(&scenario(
        16,
        64,
        "ssd",
        "ssd",
        150,
        "linux-5.7",
        8,
        4,
        1,
        0,
    ))
    .unwrap();
    assert_eq!(Simulation::new(&scn, "v").unwrap().swappiness(), 60);
    let scn = parse(&scenario(
        16,
        64,
        "ssd",
        "ssd",
        150,
        "linux-5.8",
        8,
        4,
        1,
        0,
    ))
    .unwrap();
    assert_eq!(Simulation::new(&scn, "v").unwrap().swappiness(), 150);
}

#[test]
fn mapping_churn_keeps_the_invariants_in_every_preset() {
    // Two clients repeatedly attach a shmem segment, allocate private anon, map the file,
    // then unmap and free all of it under memory pressure (`zap_region` on every exit path).
    for preset in [
        "linux-2.6.33",
        "linux-4.10",
        "linux-5.8",
        "linux-6.1",
        "linux-6.1-mglru",
        "linux-6.14-mglru",
    ] {
        let r = run_checked(
            &scenario(16, 32, "ssd", "hdd", 60, preset, 12, 12, 3, 7),
            "v",
        );
        assert!(r.counters["pgfree"] > 0, "{preset}: {:?}", r.counters);
    }
}

#[test]
fn mglru_swap_filling_up_and_freeing_keeps_the_invariants() {
    // Found by the property test: anon stops being evictable while the 9 MiB of swap is
    // full, so `inc_min_seq` wraps its oldest list into the youngest, and min_seq passes
    // generations that promoted folios' counters still name once swap frees up.
    let text = machine(22, 9, "pmem", "hdd", 18, "linux-6.3-mglru", 24, 14, 3, 4)
        .sysctl("page_cluster", "0")
        .toml();
    let r = run_checked(&text, "v");
    assert!(r.counters["pswpout"] > 0, "{:?}", r.counters);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]
    #[test]
    fn random_scenarios_keep_the_invariants(
        ram in 16u64..32,
        swap in prop_oneof![Just(0u64), 8u64..64],
        swap_dev in prop_oneof![Just("hdd"), Just("ssd"), Just("nvme"), Just("zram"), Just("pmem")],
        file_dev in prop_oneof![Just("hdd"), Just("ssd"), Just("nvme"), Just("ramdisk")],
        swappiness in 0u32..=200,
        preset in prop_oneof![Just("linux-2.6.33"), Just("linux-2.6.34"), Just("linux-4.10"), Just("linux-4.11"), Just("linux-5.2"), Just("linux-5.3"), Just("linux-5.7"), Just("linux-5.8"), Just("linux-6.1"), Just("linux-6.1-mglru"), Just("linux-6.3-mglru"), Just("linux-6.14-mglru")],
        anon in 1u64..32,
        file in 1u64..32,
        rounds in 1u64..4,
        mix in 0u8..9,
        page_cluster in 0u32..6,
    ) {
        if std::env::var("INVARIANTS_TRACE").is_ok() {
            eprintln!("case: ram={ram} swap={swap} {swap_dev} {file_dev} s={swappiness} {preset} anon={anon} file={file} rounds={rounds} mix={mix} page_cluster={page_cluster}");
        }
        let text = machine(ram, swap, swap_dev, file_dev, swappiness, preset, anon, file, rounds, mix)
            .sysctl("page_cluster", &page_cluster.to_string())
            .toml();
        let r = run_checked(&text, "v");
        prop_assert!(r.counters["pgsteal_kswapd"] <= r.counters["pgscan_kswapd"]);
        prop_assert!(r.counters["pgsteal_direct"] <= r.counters["pgscan_direct"]);
        if swap == 0 {
            prop_assert_eq!(r.counters["pswpout"], 0);
        }
    }
}

#[test]
fn mglru_min_ttl_kills_instead_of_thrashing_a_young_working_set() {
    // /sys/kernel/mm/lru_gen/min_ttl_ms (`lru_gen_age_node`): when kswapd finds every
    // generation younger than min_ttl, the OOM killer runs instead of evicting the working set.
    // A task cycles over a file mapping twice the size of RAM: without min_ttl it thrashes the
    // page cache and keeps running; with min_ttl = 10 s (no generation lives that long while
    // it thrashes) kswapd calls the OOM killer.
    let base = ScenarioBuilder::new("min_ttl")
        .seed(1)
        .ram("32MiB")
        .device("d", "ssd")
        .file("f", "64MiB", "d")
        .variant("v", "linux-6.14-mglru")
        .task(
            "reader",
            r#"[
  { op = "mmap", name = "m", file = "f", prot = "r" },
  { op = "loop", count = 6, body = [ { op = "touch", regions = ["m"], cpu = "1us" } ] },
]"#,
        )
        .duration("20s");
    let plain = run_checked(&base.toml(), "v");
    assert!(plain.oom_kills.is_empty(), "{:?}", plain.oom_kills);
    assert!(plain.counters["workingset_refault_file"] > 0, "it thrashes");
    let ttl = run_checked(&base.sysctl("lru_gen_min_ttl", "\"10s\"").toml(), "v");
    assert_eq!(ttl.oom_kills.len(), 1, "{:?}", ttl.oom_kills);
    assert_eq!(ttl.oom_kills[0].task, "reader");
}

#[test]
fn kswapd_gives_up_on_an_unreclaimable_node_in_every_preset() {
    // No swap and anon holding memory between the min and low watermarks: kswapd is woken
    // and can reclaim nothing. It must give up (`kswapd_failures`) rather than spin through
    // empty passes, in the 2.6.3x loop (restarts at priority 12) as in the 4.x one.
    for preset in [
        "linux-2.6.33",
        "linux-2.6.34",
        "linux-4.10",
        "linux-5.8",
        "linux-6.1",
    ] {
        let text = ScenarioBuilder::new("stuck kswapd")
            .ram("16MiB")
            .variant("v", preset)
            .task(
                "hog",
                r#"[
  { op = "anon", name = "a", size = "15800KiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "60s" },
]"#,
            )
            .duration("60s")
            .toml();
        let r = run_checked(&text, "v");
        assert!(r.counters["pageoutrun"] >= 1, "{preset}: {:?}", r.counters);
        assert!(r.counters["pageoutrun"] <= 64, "{preset}: {:?}", r.counters);
        assert!(!r.tasks[0].killed, "{preset}");
    }
}

//! Workload vocabulary: behaviours of task programs that scenarios rely on.
mod common;
use common::{ScenarioBuilder, Task};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

/// An HDD `d` with a file `log` of `log_size`, under `preset` (the RAM is the test's).
fn disk_with_log(preset: &str, log_size: &str) -> ScenarioBuilder {
    ScenarioBuilder::new("workload")
        .device("d", "hdd")
        .file("log", log_size, "d")
        .variant("v", preset)
}

/// 64 MiB of RAM and a 1 MiB `log`, linux-6.1.
fn machine() -> ScenarioBuilder {
    disk_with_log("linux-6.1", "1MiB").ram("64MiB")
}

/// `machine` running `program` in `clients` clients of task `w` for 60 s.
fn with_task(machine: ScenarioBuilder, program: &str, clients: u32) -> String {
    machine
        .task_spec(Task::new("w", program).clients(clients))
        .duration("60s")
        .toml()
}

/// `program` in `clients` clients on the 64 MiB machine with a 1 MiB `log`.
fn scenario(program: &str, clients: u32) -> String {
    with_task(machine(), program, clients)
}

/// (resident, swapped) pages of the address space `name` in a `space_usage` listing.
fn usage(spaces: &[(String, u64, u64)], name: &str) -> (u64, u64) {
    let s = spaces
        .iter()
        .find(|s| s.0 == name)
        .unwrap_or_else(|| panic!("no space {name}: {spaces:?}"));
    (s.1, s.2)
}

fn run(text: &str) -> (reclaim_core::report::RunReport, Vec<(String, u64, u64)>) {
    let mut sim = Simulation::new(&parse(text).unwrap(), "v").unwrap();
    let r = sim.run_to_end();
    (r, sim.space_usage())
}

#[test]
fn small_sync_appends_rewrite_one_page_until_it_is_full() {
    // 16 synchronous 512-byte appends: two pages of log, each written to disk 8 times.
    let (r, spaces) = run(&scenario(
        r#"[ { op = "write", file = "log", bytes = "512B", sync = true, count = 16 } ]"#,
        1,
    ));
    assert_eq!(r.counters["pgpgout"], 16);
    assert_eq!(usage(&spaces, "log").0, 2);
}

#[test]
fn appends_from_several_clients_share_the_file_cursor() {
    // 4 clients x 8 page-sized appends: 32 distinct pages, not 8 pages written 4 times.
    let (_, spaces) = run(&scenario(
        r#"[ { op = "write", file = "log", count = 8 } ]"#,
        4,
    ));
    assert_eq!(usage(&spaces, "log").0, 32);
}

#[test]
fn sync_writes_wait_for_the_disk() {
    let (r, _) = run(&scenario(
        r#"[ { op = "loop", count = 10, record = "ops", body = [ { op = "write", file = "log", sync = true } ] } ]"#,
        1,
    ));
    let lat = r.tasks[0].latency_ms.unwrap();
    // A 7200 rpm disk: the first write seeks (~12.7 ms); the following ones are contiguous.
    assert!(lat.p99 >= 10.0, "{lat:?}");
    assert_eq!(lat.count, 10);
}

#[test]
fn access_rates_are_in_pages_whatever_the_frame_scale() {
    // 4096 pages of a 16 MiB region at 1024 pages/s take 4 s of virtual time, whether a frame
    // is one page or eight (an access then touches 8 pages, so accesses are 8x further apart).
    let program = r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "loop", count = 1, record = "rounds", body = [
    { op = "touch", regions = ["a"], pattern = "random", count = 4096, rate = 1024.0 },
  ] },
]"#;
    for scale in [1, 8] {
        let text = with_task(machine().frame_scale(scale), program, 1);
        let (r, _) = run(&text);
        let round = r.tasks[0].rounds_s.as_ref().unwrap()[0];
        assert!(
            (3.9..4.1).contains(&round),
            "frame_scale {scale}: {round} s"
        );
    }
}

#[test]
fn sweeps_share_one_hand_across_clients_and_ops() {
    // Two clients each sweep 32 pages of a 64-page shared region in two ops of 16: one hand
    // shared by both and kept between ops visits every page once. (Random touches would
    // leave about a third of the pages untouched.)
    let program = r#"[
  { op = "anon", name = "pool", size = "256KiB", shared = true },
  { op = "touch", regions = ["pool"], pattern = "sweep", count = 16, write = true },
  { op = "touch", regions = ["pool"], pattern = "sweep", count = 16, write = true },
  { op = "sleep", duration = "100s" },
]"#;
    let (_, spaces) = run(&scenario(program, 2));
    let pool = usage(&spaces, "pool");
    assert_eq!(pool.0, 64, "resident pages of the swept pool: {spaces:?}");
    // Half the sweep covers the first half of the pool only.
    let program = common::replace_checked(program, "count = 16", "count = 8");
    let (_, spaces) = run(&scenario(&program, 2));
    let pool = usage(&spaces, "pool");
    assert_eq!(
        pool.0, 32,
        "resident pages of the half-swept pool: {spaces:?}"
    );
}

/// A 64 MiB machine with swap on an SSD and a 32 MiB tmpfs file `shm`, running `program`
/// under `preset` for 60 s.
fn tmpfs_scenario_on(preset: &str, program: &str) -> String {
    ScenarioBuilder::new("tmpfs")
        .ram("64MiB")
        .swap("ssd", "128MiB")
        .device("ssd", "ssd")
        .tmpfs("shm", "32MiB")
        .variant("v", preset)
        .task("w", program)
        .duration("60s")
        .toml()
}

/// [`tmpfs_scenario_on`] linux-5.8.
fn tmpfs_scenario(program: &str) -> String {
    tmpfs_scenario_on("linux-5.8", program)
}

/// Pages of space `name` on each of the four evictable lists.
fn lists_of(sim: &Simulation, name: &str) -> [usize; 4] {
    let sp = sim.space_names().iter().position(|n| n == name).unwrap() as u32;
    let mut on = [0; 4];
    for (lru, n) in on.iter_mut().enumerate() {
        *n = sim
            .list_frames(lru)
            .iter()
            .filter(|&&f| sim.frame_spaces()[f as usize] == sp)
            .count();
    }
    on
}

#[test]
fn tmpfs_writes_make_swap_backed_pages_on_the_inactive_anon_list() {
    // `shmem_getpage_gfp` + `lru_cache_add`: write() to tmpfs creates anon-LRU pages, inactive.
    // An fsync of tmpfs writes nothing.
    let text = tmpfs_scenario(
        r#"[ { op = "write", file = "shm", pattern = "seq", count = 2048, sync = true } ]"#,
    );
    let mut sim = Simulation::new(&parse(&text).unwrap(), "v").unwrap();
    let r = sim.run_to_end();
    assert_eq!(lists_of(&sim, "shm"), [2048, 0, 0, 0]);
    assert_eq!(r.counters["pgpgout"], 0);
    assert_eq!(r.counters["pgmajfault"], 0);
}

#[test]
fn before_2_6_35_new_tmpfs_and_shmem_pages_start_active() {
    // 2.6.34 `add_to_page_cache_lru`: a page cache page that is not file cache goes to
    // `lru_cache_add_active_anon`; 2.6.35 ("tmpfs: Insert tmpfs cache pages to inactive list
    // at first") puts it on the inactive list. Same for a shared anon segment's faults.
    let program = r#"[
  { op = "write", file = "shm", pattern = "seq", count = 2048 },
  { op = "anon", name = "seg", size = "4MiB", shared = true },
  { op = "touch", regions = ["seg"], write = true },
  { op = "sleep", duration = "100s" },
]"#;
    let lists = |preset: &str| {
        let text = tmpfs_scenario_on(preset, program);
        let mut sim = Simulation::new(&parse(&text).unwrap(), "v").unwrap();
        sim.run_to_end();
        (lists_of(&sim, "shm"), lists_of(&sim, "seg"))
    };
    assert_eq!(lists("linux-2.6.34"), ([0, 2048, 0, 0], [0, 1024, 0, 0]));
    assert_eq!(lists("linux-4.10"), ([2048, 0, 0, 0], [1024, 0, 0, 0]));
}

#[test]
fn tmpfs_pages_go_to_swap_and_come_back_inactive_in_5_8() {
    // 32 MiB of tmpfs, then 48 MiB of anon on a 64 MiB machine: reclaim writes tmpfs pages to
    // swap (never to a disk). Reading them back swaps them in (`shmem_swapin_page`), onto the
    // inactive anon list: unlike a private anon fault, no `activate_page`.
    let text = tmpfs_scenario(
        r#"[
  { op = "write", file = "shm", pattern = "seq", count = 8192 },
  { op = "anon", name = "a", size = "48MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "read", file = "shm", pattern = "seq", count = 8192 },
]"#,
    );
    let mut sim = Simulation::new(&parse(&text).unwrap(), "v").unwrap();
    let r = sim.run_to_end();
    assert!(r.counters["pswpout"] > 0, "{:?}", r.counters);
    assert!(r.counters["pswpin"] > 0, "{:?}", r.counters);
    assert_eq!(r.counters["pgpgout"], 0);
    assert_eq!(r.counters["pgpgin"], 0);
    let on = lists_of(&sim, "shm");
    assert_eq!(on[2] + on[3], 0, "tmpfs pages on the file lists: {on:?}");
    // The anon region was deactivated and swapped only as far as needed; the tmpfs pages
    // read back sit on the inactive list (some may have been reclaimed again).
    assert!(on[0] > 0 && on[1] == 0, "{on:?}");
}

#[test]
fn reading_a_tmpfs_hole_allocates_nothing() {
    let text =
        tmpfs_scenario(r#"[ { op = "read", file = "shm", pattern = "seq", count = 1024 } ]"#);
    let mut sim = Simulation::new(&parse(&text).unwrap(), "v").unwrap();
    let r = sim.run_to_end();
    assert_eq!(lists_of(&sim, "shm"), [0, 0, 0, 0]);
    assert_eq!(r.counters["pgpgin"], 0);
}

#[test]
fn kswapd_takes_cpu_time_from_busy_tasks_only_when_cpus_are_shared() {
    // Two CPU-bound tasks touch a working set larger than RAM on a fast swap device, so kswapd
    // keeps reclaiming. With one CPU for both tasks and kswapd, kswapd's time is taken from
    // them and they finish fewer rounds; with a CPU each, kswapd costs them nothing.
    let program = r#"[
  { op = "anon", name = "a", size = "48MiB" },
  { op = "loop", duration = "5s", record = "ops", body = [
    { op = "touch", regions = ["a"], pattern = "random", count = 1, write = true, cpu = "2us" },
  ] },
]"#;
    // Swap on zram; `cpus` shared by the tasks and kswapd (None: a CPU each).
    let ops = |cpus: Option<u32>| -> f64 {
        let machine = machine().swap("z", "256MiB").device("z", "zram");
        let machine = match cpus {
            Some(n) => machine.cpus(n),
            None => machine,
        };
        let (r, _) = run(&with_task(machine, program, 2));
        assert!(r.counters["pgscan_kswapd"] > 0, "kswapd reclaimed");
        r.tasks.iter().filter_map(|t| t.ops_per_s).sum()
    };
    let own = ops(None);
    let shared = ops(Some(1));
    let plenty = ops(Some(4));
    assert!(shared < own * 0.99, "one shared CPU: {shared} vs {own}");
    assert_eq!(plenty, own, "more CPUs than tasks: kswapd uses an idle one");
}

/// Read all 256 pages of the 1 MiB log through a pool of `pool` (each page modified when
/// `write`), then drop the page cache, read 1000 random pages through the pool again, and
/// wait for the flusher (dirty pages expire after 30 s).
fn pool_program(pool: &str, write: bool) -> String {
    format!(
        r#"[
  {{ op = "anon", name = "pool", size = "{pool}", shared = true }},
  {{ op = "read", file = "log", pattern = "seq", buffer = "pool", write = {write} }},
  {{ op = "drop_caches" }},
  {{ op = "read", file = "log", pattern = "random", count = 1000, buffer = "pool" }},
  {{ op = "sleep", duration = "40s" }},
]"#
    )
}

#[test]
fn a_buffer_pool_holding_the_file_keeps_later_reads_from_the_page_cache() {
    // The pool holds every block after the first pass, so dropping the page cache costs no
    // read; without the pool the random pass reads the file again.
    let (r, spaces) = run(&scenario(&pool_program("1MiB", false), 1));
    assert_eq!(r.counters["pgpgin"], 256, "{:?}", r.counters);
    let pool = usage(&spaces, "pool");
    assert_eq!(pool.0, 256, "every buffer used once: {spaces:?}");
    let plain = common::replace_checked(&pool_program("1MiB", false), r#", buffer = "pool""#, "");
    let (r, _) = run(&scenario(&plain, 1));
    assert!(r.counters["pgpgin"] > 400, "{:?}", r.counters);
}

#[test]
fn a_client_waits_for_another_clients_read_of_the_same_block() {
    // Two clients want the one block of a one-page file at once. The first misses in the
    // pool and read()s it from the disk; the second finds the buffer being loaded and waits
    // for that read (`WaitIO`), without a read() of its own: the page cache sees one access,
    // so the page is referenced but not activated (a second read() would activate it). The
    // clients stay alive: exiting would hand the pool page's young PTEs to mark_page_accessed.
    let program = r#"[
  { op = "anon", name = "pool", size = "64KiB", shared = true },
  { op = "read", file = "log", pattern = "random", count = 1, buffer = "pool" },
  { op = "sleep", duration = "100s" },
]"#;
    let (r, _) = run(&with_task(
        disk_with_log("linux-6.1", "4KiB").ram("64MiB"),
        program,
        2,
    ));
    assert_eq!(r.counters["pgpgin"], 1, "{:?}", r.counters);
    assert_eq!(r.counters["pgactivate"], 0, "{:?}", r.counters);
    // The pool holds the block: later reads by both clients are hits, not read()s.
    let again = common::replace_checked(program, "count = 1,", "count = 5,");
    let (r, _) = run(&with_task(
        disk_with_log("linux-6.1", "4KiB").ram("64MiB"),
        &again,
        2,
    ));
    assert_eq!(r.counters["pgactivate"], 0, "{:?}", r.counters);
}

#[test]
fn a_sequential_reader_keeps_the_next_readahead_window_in_flight() {
    // read() of the 1 MiB log in order: the first read brings the initial 128 KiB window with
    // its marker on the second page; reaching the marker sends the next window at once
    // (`page_cache_async_readahead`), so two pages read cost 64 pages of IO, one page 32.
    let pgpgin = |count: u32| {
        let program =
            format!(r#"[ {{ op = "read", file = "log", pattern = "seq", count = {count} }} ]"#);
        run(&scenario(&program, 1)).0.counters["pgpgin"]
    };
    assert_eq!(pgpgin(1), 32);
    assert_eq!(pgpgin(2), 64);
    // Each new window's first page carries the marker in turn: 33 pages in, the third window.
    assert_eq!(pgpgin(33), 96);
    // The windows stop at the end of the file.
    assert_eq!(pgpgin(256), 256);
}

#[test]
fn a_small_pool_writes_modified_victims_back_through_the_page_cache() {
    // 16 buffers, 256 blocks each modified once: the first pass evicts 240 dirty buffers and
    // the second pass the last 16, each written back with write() and then by the flusher,
    // once; unmodified buffers are dropped without a write.
    let (r, spaces) = run(&scenario(&pool_program("64KiB", true), 1));
    assert_eq!(r.counters["pgpgout"], 256, "{:?}", r.counters);
    let pool = usage(&spaces, "pool");
    assert_eq!(pool.0, 16, "{spaces:?}");
    let (r, _) = run(&scenario(&pool_program("64KiB", false), 1));
    assert_eq!(r.counters["pgpgout"], 0, "{:?}", r.counters);
    // The second pass misses the small pool nearly always, and its reads find the page cache
    // dropped: most blocks are read from the disk again.
    assert!(r.counters["pgpgin"] > 256 + 200, "{:?}", r.counters);
}

#[test]
fn buffers_come_back_from_swap_and_leave_the_swap_cache() {
    // A hog pushes the pool's pages to swap and exits; the second pass uses every buffer
    // again, waiting for each swap-in. The pool is shared anon memory, i.e. shmem: a swap-in
    // puts the page back into the shmem mapping dirty and frees its swap copy
    // (`shmem_swapin_page`), whether the buffer is then modified or not.
    let text = |write: bool| {
        ScenarioBuilder::new("pool and swap")
            .ram("32MiB")
            .swap("s", "64MiB")
            .sysctl("swappiness", "100")
            .device("d", "ssd")
            .device("s", "ssd")
            .file("log", "1MiB", "d")
            .variant("v", "linux-5.8")
            .task(
                "db",
                &format!(
                    r#"[
  {{ op = "anon", name = "pool", size = "1MiB", shared = true }},
  {{ op = "read", file = "log", pattern = "seq", buffer = "pool" }},
  {{ op = "sleep", duration = "10s" }},
  {{ op = "read", file = "log", pattern = "seq", buffer = "pool", write = {write} }},
]"#
                ),
            )
            .task_spec(
                Task::new(
                    "hog",
                    r#"[
  { op = "anon", name = "a", size = "40MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["a"], write = true },
]"#,
                )
                .start("1s"),
            )
            .duration("60s")
            .toml()
    };
    for write in [true, false] {
        let mut sim = Simulation::new(&parse(&text(write)).unwrap(), "v").unwrap();
        let r = sim.run_to_end();
        let spaces = sim.space_usage();
        let pool = usage(&spaces, "pool");
        assert!(
            r.counters["pswpin"] >= 256,
            "the pool came back from swap: {:?}",
            r.counters
        );
        assert_eq!(
            pool,
            (256, 0),
            "write {write}: resident, swapped: {spaces:?}"
        );
    }
}

#[test]
fn random_reads_read_ahead_only_after_what_a_stream_leaves_cached() {
    // Read pages 16..24 in sequence (the window stops at the op's range), then single random
    // reads: page 24 finds 8 pages cached just before it, more than its 1-page request, so
    // 5.8's context readahead reads 8 + 1 pages from it (24..33); page 40 has no history and
    // reads alone; page 0, the file's start, gets the initial window of 4 pages. With
    // POSIX_FADV_RANDOM every random read is the page alone.
    let program = |hint: &str| {
        format!(
            r#"[
  {{ op = "read", file = "log", pattern = "seq", offset = "64KiB", size = "32KiB" }},
  {{ op = "read", file = "log", pattern = "random", offset = "96KiB", size = "4KiB", count = 1{hint} }},
  {{ op = "read", file = "log", pattern = "random", offset = "160KiB", size = "4KiB", count = 1{hint} }},
  {{ op = "read", file = "log", pattern = "random", size = "4KiB", count = 1{hint} }},
]"#
        )
    };
    let (r, spaces) = run(&scenario(&program(""), 1));
    assert_eq!(r.counters["pgpgin"], 8 + 9 + 1 + 4, "{:?}", r.counters);
    assert_eq!(usage(&spaces, "log").0, 22);
    let (r, _) = run(&scenario(&program(r#", hint = "random""#), 1));
    assert_eq!(r.counters["pgpgin"], 8 + 1 + 1 + 1, "{:?}", r.counters);
}

/// A 96 MiB anon region on a 64 MiB machine, touched once (the first part goes to swap on an
/// SSD), then touched again in `pattern` order, with vm.page-cluster = `page_cluster`.
fn swap_back_in(pattern: &str, page_cluster: u32) -> reclaim_core::report::RunReport {
    let text = ScenarioBuilder::new("swap-in")
        .ram("64MiB")
        .swap("ssd", "256MiB")
        .sysctl("page_cluster", &page_cluster.to_string())
        .device("ssd", "ssd")
        .variant("v", "linux-5.8")
        .task(
            "w",
            &format!(
                r#"[
  {{ op = "anon", name = "big", size = "96MiB" }},
  {{ op = "touch", regions = ["big"], write = true }},
  {{ op = "touch", regions = ["big"], pattern = "{pattern}", count = 8192 }},
]"#
            ),
        )
        .duration("600s")
        .toml();
    run(&text).0
}

#[test]
fn swap_readahead_serves_a_sequential_pass_and_stays_off_for_random_faults() {
    // Sequential: once the window has grown, a fault reads 2^page_cluster = 8 pages and the
    // next 7 touches find them in the swap cache.
    let seq = swap_back_in("seq", 3);
    let c = &seq.counters;
    assert!(c["pswpin"] > 4000, "{c:?}");
    assert!(c["swap_ra_hit"] * 10 > c["pswpin"] * 8, "{c:?}");
    assert!(c["pgmajfault"] * 6 < c["pswpin"], "{c:?}");
    // vm.page-cluster = 0: one page a fault.
    let off = swap_back_in("seq", 0);
    let c0 = &off.counters;
    assert_eq!((c0["swap_ra"], c0["swap_ra_hit"]), (0, 0));
    assert!(
        c0["pgmajfault"] >= c0["pswpin"] && c0["pswpin"] > 4000,
        "{c0:?}"
    );
    // Random touches give no hits to grow a window: nearly every fault reads its page alone.
    let rnd = swap_back_in("random", 3);
    let r = &rnd.counters;
    assert!(r["pswpin"] > 1000, "{r:?}");
    assert!(r["swap_ra"] * 20 < r["pswpin"], "{r:?}");
}

#[test]
fn tmpfs_read_back_from_swap_uses_cluster_readahead_through_read() {
    // A 48 MiB tmpfs file pushed to swap by 48 MiB of anon on a 64 MiB machine, then read()
    // back in order: shmem swaps in with cluster readahead, and the read() calls that find
    // the pages read ahead count hits.
    let text = ScenarioBuilder::new("tmpfs swap-in")
        .ram("64MiB")
        .swap("ssd", "256MiB")
        .device("ssd", "ssd")
        .tmpfs_on("t", "48MiB", "ssd")
        .variant("v", "linux-5.8")
        .task(
            "w",
            r#"[
  { op = "write", file = "t", pattern = "seq", count = 12288 },
  { op = "anon", name = "big", size = "48MiB" },
  { op = "touch", regions = ["big"], write = true },
  { op = "read", file = "t", pattern = "seq", count = 4096 },
]"#,
        )
        .duration("600s")
        .toml();
    let (r, _) = run(&text);
    let c = &r.counters;
    assert!(c["pswpin"] > 3000, "{c:?}");
    assert!(c["swap_ra_hit"] * 10 > c["pswpin"] * 7, "{c:?}");
    // read() is no page fault, whatever it reads.
    assert_eq!(c["pgmajfault"], 0, "{c:?}");
}

#[test]
fn before_4_7_a_file_written_twice_is_activated() {
    // 256 pages written twice with write(): each write marks the page accessed until 4.7
    // (`write_no_activation`), so the second write activates all of them; from 4.7 writes
    // alone activate nothing.
    let twice = r#"[
  { op = "write", file = "log", pattern = "seq", count = 256 },
  { op = "write", file = "log", pattern = "seq", count = 256 },
]"#;
    for (preset, activated) in [("linux-2.6.34", 256), ("linux-4.10", 0), ("linux-6.1", 0)] {
        let text = with_task(disk_with_log(preset, "1MiB").ram("64MiB"), twice, 1);
        let (r, _) = run(&text);
        assert_eq!(
            r.counters["pgactivate"], activated,
            "{preset}: {:?}",
            r.counters
        );
    }
}

#[test]
fn watermark_gaps_follow_the_sysctl_only_from_4_6() {
    // 4 GiB: min = 2048 pages; the scaled gap (0.1% = 1048 pages, or 2% at factor 200) exceeds
    // min/4 = 512, which is all a kernel before 4.6 has.
    let at = |preset: &str, factor: u32| {
        let machine = disk_with_log(preset, "1MiB")
            .ram("4GiB")
            .sysctl("watermark_scale_factor", &factor.to_string());
        let text = with_task(machine, r#"[ { op = "sleep", duration = "1s" } ]"#, 1);
        Simulation::new(&parse(&text).unwrap(), "v")
            .unwrap()
            .watermarks()
    };
    assert_eq!(at("linux-6.1", 10), (2048, 3096, 4144));
    assert_eq!(
        at("linux-4.10", 200),
        (2048, 2048 + 20971, 2048 + 2 * 20971)
    );
    assert_eq!(at("linux-2.6.34", 10), (2048, 2560, 3072));
    assert_eq!(at("linux-2.6.34", 200), (2048, 2560, 3072));
}

/// A 16 MiB file read twice (active), then a 48 MiB file streamed three times through what is
/// left of 64 MiB: every pass after the first refaults.
fn refault_scenario(preset: &str) -> String {
    ScenarioBuilder::new("refaults")
        .ram("64MiB")
        .device("d", "ssd")
        .file("hot", "16MiB", "d")
        .file("big", "48MiB", "d")
        .variant("v", preset)
        .task(
            "r",
            r#"[
  { op = "read", file = "hot", pattern = "seq" },
  { op = "read", file = "hot", pattern = "seq" },
  { op = "read", file = "big", pattern = "seq" },
  { op = "read", file = "big", pattern = "seq" },
  { op = "read", file = "big", pattern = "seq" },
]"#,
        )
        .duration("60s")
        .toml()
}

#[test]
fn refaults_are_detected_from_3_15_only() {
    let (new, _) = run(&refault_scenario("linux-4.10"));
    let c = &new.counters;
    assert!(c["workingset_refault_file"] > 0, "{c:?}");
    assert!(c["workingset_activate_file"] > 0, "{c:?}");
    // 2.6.34 leaves no shadow entries: the same re-reads are plain misses, never activated.
    let (old, _) = run(&refault_scenario("linux-2.6.34"));
    let o = &old.counters;
    assert_eq!(o["workingset_refault_file"], 0, "{o:?}");
    assert_eq!(o["workingset_activate_file"], 0, "{o:?}");
    // 4.10 activates the refaulting pages, which then stay cached; 2.6.34 reads them again.
    assert!(o["pgactivate"] < c["pgactivate"], "{o:?} vs {c:?}");
    assert!(o["pgpgin"] > c["pgpgin"], "{o:?} vs {c:?}");
}

#[test]
fn without_swap_kswapd_ages_anon_only_before_2_6_36() {
    // 64 MiB without swap: 24 MiB of anon (new anon starts active before 5.9), then a 256 MiB
    // file streamed once (its pages are never activated) keeps reclaim busy. Before 2.6.36
    // kswapd's `balance_pgdat` aged active anon whenever the inactive anon list was low, swap
    // or not; after, never without swap. Every deactivation here is an anon one.
    let text = |preset: &str| {
        let machine = disk_with_log(preset, "1MiB")
            .ram("64MiB")
            .file("stream", "256MiB", "d");
        with_task(
            machine,
            r#"[
            { op = "anon", name = "heap", size = "24MiB" },
            { op = "touch", regions = ["heap"], write = true },
            { op = "read", file = "stream", pattern = "seq" },
        ]"#,
            1,
        )
    };
    let counters = |preset: &str| {
        let (r, _) = run(&text(preset));
        assert!(r.counters["pgscan_kswapd"] > 0, "{preset}: no kswapd");
        assert_eq!(r.counters["pgactivate"], 0, "{preset}: {:?}", r.counters);
        r.counters
    };
    assert!(counters("linux-2.6.34")["pgdeactivate"] > 0);
    assert_eq!(counters("linux-4.10")["pgdeactivate"], 0);
}

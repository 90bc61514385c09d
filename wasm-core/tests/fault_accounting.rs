//! Fault counters: pgmajfault counts page faults only (not read()/write() misses); pgfault
//! counts `handle_mm_fault` calls, so a fault retried after VM_FAULT_RETRY (2.6.37+, file and
//! private anon) counts twice up to 6.3 and once from 6.4, while a fault that waits inside
//! (shmem, synchronous devices, kernels before 2.6.37) counts once.
mod common;
use common::{ScenarioBuilder, Task};
use reclaim_core::report::RunReport;
use reclaim_core::Simulation;
use std::collections::BTreeMap;

/// 64 MiB of RAM; an SSD, zram, pmem and an HDD; 8 MiB files `mapped` and `readonly` on the
/// SSD and `on-pmem` on pmem, a 48 MiB tmpfs file `tmp` and a 48 MiB `big` on the HDD.
fn machine() -> ScenarioBuilder {
    ScenarioBuilder::new("faults")
        .ram("64MiB")
        .device("ssd", "ssd")
        .device("zram", "zram")
        .device("pmem", "pmem")
        .device("hdd", "hdd")
        .file("mapped", "8MiB", "ssd")
        .file("on-pmem", "8MiB", "pmem")
        .file("readonly", "8MiB", "ssd")
        .tmpfs_on("tmp", "48MiB", "ssd")
        .file("big", "48MiB", "hdd")
}

/// Task `w` (`clients` of `program`) on `machine` for 600 s, with variants `v0, v1, ...` of
/// `(preset, flags)`.
fn scenario(
    machine: ScenarioBuilder,
    program: &str,
    clients: u32,
    variants: &[(&str, &str)],
) -> reclaim_core::scenario::Scenario {
    let mut b = machine
        .task_spec(Task::new("w", program).clients(clients))
        .duration("600s");
    for (i, (preset, flags)) in variants.iter().enumerate() {
        b = b.variant_with(
            &format!("v{i}"),
            preset,
            &[("flags", &format!("{{ {flags} }}"))],
        );
    }
    b.parse()
}

/// Run `scenario(...)` to the end under each of its variants.
fn runs(
    machine: ScenarioBuilder,
    program: &str,
    clients: u32,
    variants: &[(&str, &str)],
) -> Vec<RunReport> {
    let scn = scenario(machine, program, clients, variants);
    (0..variants.len())
        .map(|i| {
            Simulation::new(&scn, &format!("v{i}"))
                .unwrap()
                .run_to_end()
        })
        .collect()
}

/// 5.8 as it is, and 5.8 with 6.4's accounting: the same run, counted two ways.
fn old_and_new(machine: ScenarioBuilder, program: &str, clients: u32) -> (RunReport, RunReport) {
    let mut r = runs(
        machine,
        program,
        clients,
        &[
            ("linux-5.8", ""),
            ("linux-5.8", "pgfault_retry_uncounted = true"),
        ],
    );
    let new = r.pop().unwrap();
    (r.pop().unwrap(), new)
}

/// The counters of two runs that differ, other than pgfault.
fn differences_besides_pgfault(a: &RunReport, b: &RunReport) -> BTreeMap<String, (u64, u64)> {
    a.counters
        .iter()
        .filter(|(k, v)| k.as_str() != "pgfault" && b.counters[k.as_str()] != **v)
        .map(|(k, v)| (k.clone(), (*v, b.counters[k.as_str()])))
        .collect()
}

/// Map `file` with MADV_RANDOM (every touch a major fault reading its page alone) and touch
/// every page.
fn map_and_touch(file: &str) -> String {
    format!(
        r#"[
  {{ op = "mmap", name = "m", file = "{file}", prot = "r", hint = "random" }},
  {{ op = "touch", regions = ["m"] }},
]"#
    )
}

#[test]
fn a_file_fault_counts_major_and_read_misses_do_not() {
    // The read() of the other file reads as much as the faults and counts no fault.
    let program = r#"[
  { op = "mmap", name = "m", file = "mapped", prot = "r", hint = "random" },
  { op = "touch", regions = ["m"] },
  { op = "read", file = "readonly", pattern = "seq" },
]"#;
    let (old, new) = old_and_new(machine(), program, 1);
    let c = &old.counters;
    assert_eq!(c["pgmajfault"], 2048, "{c:?}");
    assert_eq!(c["pgpgin"], 4096, "{c:?}");
    assert_eq!(old.tasks[0].major_faults, 2048);
    // Each fault drops the mmap lock for its read and is retried: two calls up to 6.3.
    assert_eq!(c["pgfault"], 2 * 2048, "{c:?}");
    assert_eq!(new.counters["pgfault"], 2048);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn a_file_fault_on_pmem_retries_from_5_1_only() {
    // Up to 5.0 the synchronous read is done before `lock_page_or_retry` tries the lock;
    // from 5.1 the fault has dropped the mmap lock for the read and retries anyway.
    let r = runs(
        machine(),
        &map_and_touch("on-pmem"),
        1,
        &[("linux-4.11", ""), ("linux-5.8", "")],
    );
    for x in &r {
        assert_eq!(x.counters["pgmajfault"], 2048, "{:?}", x.counters);
    }
    assert_eq!(r[0].counters["pgfault"], 2048);
    assert_eq!(r[1].counters["pgfault"], 2 * 2048);
}

#[test]
fn before_2_6_37_a_fault_waits_for_its_read_inside() {
    let r = runs(
        machine(),
        &map_and_touch("mapped"),
        1,
        &[("linux-2.6.33", ""), ("linux-2.6.33", "fault_retry = true")],
    );
    assert_eq!(r[0].counters["pgmajfault"], 2048);
    assert_eq!(r[0].counters["pgfault"], 2048);
    assert_eq!(r[1].counters["pgfault"], 2 * 2048);
    assert_eq!(differences_besides_pgfault(&r[0], &r[1]), BTreeMap::new());
}

#[test]
fn a_fault_on_a_page_another_task_is_reading_is_retried() {
    // Two clients map the file and touch it in the same order at the same time: where one
    // reads a page, the other finds it locked (`lock_page_maybe_drop_mmap`) and retries.
    let (old, new) = old_and_new(machine(), &map_and_touch("mapped"), 2);
    let majors = old.counters["pgmajfault"];
    assert_eq!(majors, 2048, "{:?}", old.counters);
    // 6.4+: one fault per client and page, whoever read it.
    assert_eq!(new.counters["pgfault"], 2 * 2048);
    // Up to 6.3 every retry counts too: the reader's, and the locked finder's.
    let retries = old.counters["pgfault"] - new.counters["pgfault"];
    assert!(retries > majors + 1000, "{retries} {:?}", old.counters);
    assert!(retries <= 2 * majors, "{retries} {:?}", old.counters);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

/// A 96 MiB anon region (`shared`: shmem) on a 64 MiB machine, touched twice, swap on `dev`,
/// one page a swap-in.
fn swap_twice(dev: &str, shared: bool) -> (RunReport, RunReport) {
    old_and_new(
        machine().swap(dev, "256MiB").sysctl("page_cluster", "0"),
        &format!(
            r#"[
  {{ op = "anon", name = "big", size = "96MiB", shared = {shared} }},
  {{ op = "touch", regions = ["big"], write = true }},
  {{ op = "touch", regions = ["big"], pattern = "random", count = 8192 }},
]"#
        ),
        1,
    )
}

/// pgfault beyond the 24,576 first touches of `swap_twice`, and pgmajfault.
fn second_pass(r: &RunReport) -> (u64, u64) {
    (r.counters["pgfault"] - 24576, r.counters["pgmajfault"])
}

#[test]
fn a_swap_in_on_an_ssd_is_retried_and_counted_twice_until_6_4() {
    let (old, new) = swap_twice("ssd", false);
    let majors = old.counters["pgmajfault"];
    assert!(majors > 2000, "{:?}", old.counters);
    assert_eq!(majors, old.counters["pswpin"]);
    assert_eq!(old.counters["pgfault"] - new.counters["pgfault"], majors);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn a_swap_in_from_zram_is_read_inside_the_fault_and_counted_once() {
    // zram reads synchronously: the page is ready before `do_swap_page` tries its lock.
    let (old, new) = swap_twice("zram", false);
    let (second, majors) = second_pass(&old);
    assert!(majors > 2000, "{:?}", old.counters);
    // A fault per swapped page touched again (and a few maps of pages reclaim had unmapped
    // but not yet freed).
    assert!(
        second >= majors && second < majors + majors / 20,
        "{:?}",
        old.counters
    );
    assert_eq!(old.counters["pgfault"], new.counters["pgfault"]);
}

#[test]
fn a_shmem_swap_in_waits_inside_the_fault_and_counts_once() {
    // `shmem_fault` locks the page it swaps in with `lock_page`: no VM_FAULT_RETRY. (The
    // second pass also maps back many pages that reclaim unmapped and wrote but had not freed
    // yet: minor faults, counted once either way.)
    let (old, new) = swap_twice("ssd", true);
    let (second, majors) = second_pass(&old);
    assert!(majors > 2000 && second >= majors, "{:?}", old.counters);
    assert_eq!(old.counters["pgfault"], new.counters["pgfault"]);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn tmpfs_read_and_write_swap_ins_are_no_page_faults() {
    // A tmpfs file pushed to swap, then rewritten and read back with write() and read():
    // swap-ins, but no fault of either kind.
    let r = runs(
        machine().swap("ssd", "256MiB"),
        r#"[
  { op = "write", file = "tmp", pattern = "seq", count = 12288 },
  { op = "anon", name = "big", size = "48MiB" },
  { op = "touch", regions = ["big"], write = true },
  { op = "write", file = "tmp", pattern = "random", count = 2048 },
  { op = "read", file = "tmp", pattern = "random", count = 2048 },
]"#,
        1,
        &[("linux-5.8", "")],
    );
    let c = &r[0].counters;
    assert!(c["pswpin"] > 1000, "{c:?}");
    assert_eq!(c["pgmajfault"], 0, "{c:?}");
    assert_eq!(r[0].tasks[0].major_faults, 0);
    // The only faults are the first touches of `big` (12,288 pages).
    assert_eq!(c["pgfault"], 12288, "{c:?}");
}

#[test]
fn a_write_through_a_shared_file_mapping_faults_while_the_page_is_clean() {
    // Write-notify: a read fault maps the page read-only; the first write is a write-protect
    // fault; writes to the dirty page do not fault; once the flusher has written the page
    // back (30 s expiry) its PTEs are write-protected again. 4.11 retries no pmem fault.
    let r = runs(
        machine(),
        r#"[
  { op = "mmap", name = "m", file = "on-pmem", size = "2MiB", prot = "rw" },
  { op = "touch", regions = ["m"] },
  { op = "touch", regions = ["m"], write = true },
  { op = "touch", regions = ["m"], write = true },
  { op = "sleep", duration = "40s" },
  { op = "touch", regions = ["m"], write = true },
]"#,
        1,
        &[("linux-4.11", "")],
    );
    let c = &r[0].counters;
    assert!(c["pgmajfault"] > 0, "{c:?}");
    // 512 faults that map the pages, 512 on the first writes, 512 after writeback (2 MiB:
    // below the background threshold, so nothing is written back before the sleep).
    assert_eq!(c["pgfault"], 3 * 512, "{c:?}");
    assert_eq!(c["pgpgout"], 512, "{c:?}");
}

#[test]
fn write_protection_is_per_mapping_and_write_does_not_lift_it() {
    let count = |program: &str| {
        let r = runs(machine(), program, 1, &[("linux-4.11", "")]);
        r[0].counters["pgfault"]
    };
    // Two mappings of the same pages: each PTE is write-protected on its own, so each
    // mapping's first write faults (512 + 512 reads, 512 + 512 writes). A third mapping whose
    // first access is a write maps and dirties each page in one fault (512).
    assert_eq!(
        count(
            r#"[
  { op = "mmap", name = "a", file = "on-pmem", size = "2MiB", prot = "rw" },
  { op = "mmap", name = "b", file = "on-pmem", size = "2MiB", prot = "rw" },
  { op = "mmap", name = "c", file = "on-pmem", size = "2MiB", prot = "rw" },
  { op = "touch", regions = ["a"] },
  { op = "touch", regions = ["b"] },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["b"], write = true },
  { op = "touch", regions = ["c"], write = true },
]"#
        ),
        5 * 512
    );
    // write() dirties the pages but leaves the mapping's PTEs read-only: the mapped writes
    // still fault.
    assert_eq!(
        count(
            r#"[
  { op = "mmap", name = "a", file = "on-pmem", size = "2MiB", prot = "rw" },
  { op = "touch", regions = ["a"] },
  { op = "write", file = "on-pmem", pattern = "seq", count = 512 },
  { op = "touch", regions = ["a"], write = true },
]"#
        ),
        2 * 512
    );
}

#[test]
fn a_writer_through_a_shared_file_mapping_is_held_at_the_dirty_threshold() {
    // `fault_dirty_shared_page` -> `balance_dirty_pages_ratelimited`: 48 MiB read, then
    // written at random through a mapping at memory speed on a 64 MiB machine with a disk
    // that writes random pages slowly. Without the throttle the writer would dirty far more
    // than vm.dirty_ratio allows; a single pause per write instead of waiting until under
    // the threshold lets it creep over.
    let scn = scenario(
        machine(),
        r#"[
  { op = "mmap", name = "m", file = "big", prot = "rw", hint = "sequential" },
  { op = "touch", regions = ["m"] },
  { op = "touch", regions = ["m"], pattern = "random", count = 12288, write = true },
]"#,
        1,
        &[("linux-5.8", "")],
    );
    let mut sim = Simulation::new(&scn, "v0").unwrap();
    let mut worst = 0i64;
    while !sim.finished() {
        sim.step(10_000_000);
        let (dirty, writeback, _, thresh) = sim.dirty_state();
        worst = worst.max((dirty + writeback) as i64 - thresh as i64);
    }
    // A few pages over at most: the throttle runs once the page is dirty, and the threshold
    // moves with free memory. (One pause per write instead: 870 pages over.)
    assert!(
        worst <= 8,
        "dirty + writeback exceeded the threshold by {worst} pages"
    );
    // The writer was held, and what it dirtied went to the disk meanwhile.
    let r = sim.report();
    let held = r.tasks[0]
        .dirty_throttle_ms
        .as_ref()
        .expect("the writer was throttled");
    assert!(held.count > 0 && held.mean >= 10.0, "{held:?}");
    assert!(r.counters["pgpgout"] > 4096, "{:?}", r.counters);
}

/// The 8 MiB `mapped` file (2048 pages) mapped with the default advice and read in order,
/// once. From 3.0 (`mmap_readaround_async`) the read-around window (32 pages from 16 before
/// the fault) marks its page 24, and the fault there sends the next window out, marked on
/// its first page, and so on (`do_async_mmap_readahead`): only the first fault reads; every
/// later page is found in the page cache, a minor fault. Before, each fault past the first
/// window centres a new window whose lower half is cached: a major fault per 16 new pages.
/// Every page is read once either way.
#[test]
fn an_mmap_read_in_order_faults_major_once_from_3_0() {
    let program = r#"[
  { op = "mmap", name = "m", file = "mapped", prot = "r" },
  { op = "touch", regions = ["m"] },
]"#;
    let r = runs(
        machine(),
        program,
        1,
        &[
            ("linux-6.12", ""),
            ("linux-6.12", "mmap_readaround_async = false"),
        ],
    );
    let (pages, window) = (2048, 32);
    assert_eq!(r[0].counters["pgmajfault"], 1, "{:?}", r[0].counters);
    assert_eq!(r[0].tasks[0].major_faults, 1);
    assert_eq!(
        r[1].counters["pgmajfault"],
        1 + (pages - window) / (window / 2),
        "{:?}",
        r[1].counters
    );
    for run in &r {
        assert_eq!(run.counters["pgpgin"], pages, "{:?}", run.counters);
    }
}

/// The async window follows the file's readahead state (`page_cache_async_ra`), and marks its
/// first page only if it adds it. Pages 32-39 of `mapped` are cached first (a MADV_RANDOM
/// mapping, one major fault a page, no marks); then the whole file is read in order. The fault
/// at page 0 reads 0-31 and marks 24; the fault there sends the next window out at 32, which
/// is cached, so the window (40-63 read) carries no mark and the read ends in a major fault at
/// 64, whose read-around (48-79, marked at 72) starts a chain to the end of the file: 8 + 2
/// major faults. Starting the window at the first page not cached (what the model did before,
/// as for a mark hit without valid state) marks 40 and keeps the chain going: 8 + 1.
#[test]
fn an_async_window_that_starts_on_a_cached_page_ends_the_chain() {
    let program = r#"[
  { op = "mmap", name = "few", file = "mapped", offset = "128KiB", size = "32KiB", prot = "r", hint = "random" },
  { op = "touch", regions = ["few"] },
  { op = "mmap", name = "m", file = "mapped", prot = "r" },
  { op = "touch", regions = ["m"] },
]"#;
    let r = runs(machine(), program, 1, &[("linux-6.12", "")]);
    assert_eq!(r[0].counters["pgmajfault"], 8 + 2, "{:?}", r[0].counters);
    assert_eq!(r[0].counters["pgpgin"], 2048, "{:?}", r[0].counters);
}

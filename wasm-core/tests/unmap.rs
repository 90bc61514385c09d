//! Unmapping (`zap_pte_range`): when a process exits or unmaps, a young PTE of a page-cache or
//! shmem page is handed to `mark_page_accessed` (not for MADV_SEQUENTIAL mappings), so a page
//! two exiting processes used is activated; private anon is freed without it. Mapping slots are
//! allocated per space, so up to eight processes mapping one shmem segment keep their own PTEs.
mod common;
use common::{ScenarioBuilder, Task};
use reclaim_core::report::RunReport;
use reclaim_core::Simulation;

/// One task of `clients` running `program` on a 64 MiB machine with an 8 MiB file on an SSD,
/// under `preset`, for 60 s.
fn sim(program: &str, clients: u32, preset: &str) -> Simulation {
    let scn = ScenarioBuilder::new("unmap")
        .ram("64MiB")
        .device("ssd", "ssd")
        .file("data", "8MiB", "ssd")
        .variant("v", preset)
        .task_spec(Task::new("w", program).clients(clients))
        .duration("60s")
        .parse();
    Simulation::new(&scn, "v").unwrap()
}

fn run(program: &str, clients: u32) -> RunReport {
    sim(program, clients, "linux-5.8").run_to_end()
}

/// A 4 MiB shmem segment, every page touched by each client before it exits.
const SHMEM: &str = r#"[
  { op = "anon", name = "seg", size = "4MiB", shared = true },
  { op = "touch", regions = ["seg"] },
]"#;

#[test]
fn shmem_used_by_two_exiting_processes_is_activated() {
    // First exit: PG_referenced. Second: activation of all 1,024 pages.
    let two = run(SHMEM, 2);
    assert_eq!(two.counters["pgactivate"], 1024, "{:?}", two.counters);
    let one = run(SHMEM, 1);
    assert_eq!(one.counters["pgactivate"], 0, "{:?}", one.counters);
}

#[test]
fn private_anon_is_freed_at_exit_without_being_marked() {
    let r = run(
        r#"[
  { op = "anon", name = "heap", size = "4MiB" },
  { op = "touch", regions = ["heap"] },
  { op = "touch", regions = ["heap"] },
]"#,
        2,
    );
    assert_eq!(r.counters["pgactivate"], 0, "{:?}", r.counters);
    assert_eq!(r.counters["pgfree"], 2048, "{:?}", r.counters);
}

/// Map the file (with `hint`), touch every page, unmap; twice.
fn map_touch_unmap_twice(hint: &str) -> RunReport {
    map_touch_unmap_twice_on(hint, "linux-5.8")
}

fn map_touch_unmap_twice_on(hint: &str, preset: &str) -> RunReport {
    let map = format!(
        r#"{{ op = "mmap", name = "m", file = "data", prot = "r", hint = "{hint}" }},
  {{ op = "touch", regions = ["m"] }},
  {{ op = "munmap", name = "m" }},"#
    );
    sim(&format!("[\n  {map}\n  {map}\n]"), 1, preset).run_to_end()
}

#[test]
fn munmap_marks_young_file_pages_unless_the_mapping_is_sequential() {
    let normal = map_touch_unmap_twice("normal");
    assert_eq!(normal.counters["pgactivate"], 2048, "{:?}", normal.counters);
    let seq = map_touch_unmap_twice("sequential");
    assert_eq!(seq.counters["pgactivate"], 0, "{:?}", seq.counters);
}

#[test]
fn eight_processes_sharing_a_segment_each_fault_their_own_ptes() {
    // Each client has a private region mapped before the shared one: a slot counter shared by
    // all spaces would give two of the eight clients the same bit on the segment.
    let r = run(
        r#"[
  { op = "anon", name = "own", size = "64KiB" },
  { op = "anon", name = "seg", size = "4MiB", shared = true },
  { op = "touch", regions = ["own"] },
  { op = "touch", regions = ["seg"] },
]"#,
        8,
    );
    assert_eq!(r.counters["pgfault"], 8 * (16 + 1024), "{:?}", r.counters);
}

#[test]
fn from_6_3_random_and_noreuse_mappings_do_not_mark_at_unmap_either() {
    // `vma_has_recency` (6.3) covers MADV_RANDOM and FADV_NOREUSE; before, only
    // MADV_SEQUENTIAL opted out.
    for hint in ["random", "noreuse"] {
        let old = map_touch_unmap_twice_on(hint, "linux-6.1");
        assert_eq!(
            old.counters["pgactivate"], 2048,
            "{hint}: {:?}",
            old.counters
        );
        let new = map_touch_unmap_twice_on(hint, "linux-6.3");
        assert_eq!(new.counters["pgactivate"], 0, "{hint}: {:?}", new.counters);
    }
}

#[test]
fn munmap_of_private_anon_frees_its_pages_at_once() {
    let mut s = sim(
        r#"[
  { op = "anon", name = "heap", size = "4MiB" },
  { op = "touch", regions = ["heap"], write = true },
  { op = "munmap", name = "heap" },
  { op = "sleep", duration = "100s" },
]"#,
        1,
        "linux-5.8",
    );
    s.step(30_000_000_000);
    let heap = s
        .space_usage()
        .into_iter()
        .find(|(n, _, _)| n.ends_with(":heap"))
        .unwrap();
    assert_eq!((heap.1, heap.2), (0, 0), "{heap:?}");
    assert_eq!(s.counters()["pgfree"], 1024);
}

/// 2.6.33: `user` fills a 16 MiB shmem segment and exits (its PTEs mark the pages
/// referenced), then `hog` needs most of the 64 MiB; with `holder`, another process keeps the
/// segment mapped without touching it. The segment's swapped pages at the end.
fn segment_swapped_on_2_6_33(holder: bool) -> u64 {
    let b = ScenarioBuilder::new("mapping in use")
        .ram("64MiB")
        .swap("ssd", "256MiB")
        .device("ssd", "ssd")
        .variant_with(
            "v",
            "linux-2.6.33",
            &[("flags", "{ shmem_inactive_first = true }")],
        )
        .task(
            "user",
            r#"[
  { op = "anon", name = "seg", size = "16MiB", shared = true },
  { op = "touch", regions = ["seg"], write = true },
]"#,
        );
    let b = if holder {
        b.task(
            "holder",
            r#"[
  { op = "anon", name = "seg", size = "16MiB", shared = true },
  { op = "sleep", duration = "100s" },
]"#,
        )
    } else {
        b
    };
    let text = b
        .task_spec(
            Task::new(
                "hog",
                r#"[
  { op = "anon", name = "big", size = "56MiB" },
  { op = "touch", regions = ["big"], write = true },
  { op = "sleep", duration = "100s" },
]"#,
            )
            .start("1s"),
        )
        .duration("30s")
        .toml();
    let mut s = Simulation::new(&reclaim_core::scenario::parse(&text).unwrap(), "v").unwrap();
    s.run_to_end();
    let seg = s.space_usage().into_iter().find(|u| u.0 == "seg").unwrap();
    seg.2
}

#[test]
fn before_2_6_34_a_referenced_shmem_page_of_a_mapped_segment_is_activated() {
    // `page_mapping_inuse`: an unmapped page whose segment somebody still maps counts as in
    // use, so PG_referenced (from the exit) activates it instead of letting it go to swap.
    // The segment's pages start inactive (2.6.35's `shmem_inactive_first`, set on top of
    // 2.6.33 here) so that the exit's PG_referenced reaches the inactive scan: on 2.6.33 they
    // start active, and `shrink_active_list` would consume it first.
    let held = segment_swapped_on_2_6_33(true);
    let free = segment_swapped_on_2_6_33(false);
    assert!(free >= 2048, "segment swapped without a holder: {free}");
    assert!(held * 4 <= free, "held {held}, without a holder {free}");
}

//! The `truncate` op (`truncate_inode_pages_range`): a file's page cache, dirty pages and
//! shadow entries go; reads past the new end do no IO; writes extend the file again. And
//! `drop_behind` on sequential writes (POSIX_FADV_DONTNEED, `invalidate_mapping_pages`).
mod common;
use common::{ScenarioBuilder, Task};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

/// 64 MiB of RAM, swap on an SSD; files `tmp` (16 MiB) and `big` (128 MiB) on an HDD and a
/// 16 MiB tmpfs file `shm`; linux-6.1.
fn machine() -> ScenarioBuilder {
    ScenarioBuilder::new("truncate")
        .ram("64MiB")
        .swap("ssd", "256MiB")
        .device("d", "hdd")
        .device("ssd", "ssd")
        .file("tmp", "16MiB", "d")
        .file("big", "128MiB", "d")
        .tmpfs("shm", "16MiB")
        .variant("v", "linux-6.1")
}

/// The test machine with one task `t` running `program` for 120 s.
fn scenario(program: &str) -> String {
    machine().task("t", program).duration("120s").toml()
}

/// Run scenario text to the end with the invariants checked after every event.
fn run_text(text: &str) -> (reclaim_core::report::RunReport, Simulation) {
    let mut s = Simulation::new(&parse(text).unwrap(), "v").unwrap();
    s.check_invariants = true;
    let r = s.run_to_end();
    (r, s)
}

/// Run `program` in the test scenario.
fn run(program: &str) -> (reclaim_core::report::RunReport, Simulation) {
    run_text(&scenario(program))
}

/// (resident, swapped) pages of space `name`.
fn usage(sim: &Simulation, name: &str) -> (u64, u64) {
    let u = sim.space_usage();
    let s = u.iter().find(|s| s.0 == name).unwrap();
    (s.1, s.2)
}

#[test]
fn dirty_pages_are_dropped_unwritten() {
    // 1 MiB dirtied, below the background threshold: truncated before the flushers run.
    let (r, s) = run(r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 256 },
        { op = "truncate", file = "tmp" },
    ]"#);
    assert_eq!(r.counters["pgpgout"], 0, "{:?}", r.counters);
    assert_eq!(usage(&s, "tmp"), (0, 0));
    assert_eq!(s.dirty_state().0, 0);
    // Not reclaim: nothing scanned or stolen, and the frames are free again.
    assert_eq!(r.counters["pgscan_kswapd"] + r.counters["pgscan_direct"], 0);
    assert_eq!(r.counters["pgfree"], r.counters["pgalloc"]);
}

/// Run with `run.measure_from = "m"`.
fn run_measured(program: &str) -> (reclaim_core::report::RunReport, Simulation) {
    run_text(
        &machine()
            .task("t", program)
            .measure_from("m")
            .duration("120s")
            .toml(),
    )
}

#[test]
fn truncation_drops_dirty_pages_at_once_and_waits_for_writeback_in_flight() {
    // 16 MiB dirtied is over the background threshold: the flushers are writing when the
    // truncate comes. The dirty pages go at once, unwritten: no write starts after the mark.
    // The pages under writeback are freed only when their writes end (the invariants, checked
    // after every event, refuse a free frame with IO in flight).
    let (r, s) = run_measured(
        r#"[
        { op = "write", file = "tmp", pattern = "seq" },
        { op = "mark", name = "m" },
        { op = "truncate", file = "tmp" },
    ]"#,
    );
    let out = r.counters["pgpgout"];
    assert!(out > 0 && out < 4096, "pgpgout {out}");
    assert_eq!(r.measured["pgpgout"], 0, "{:?}", r.measured);
    assert_eq!(usage(&s, "tmp"), (0, 0));
    assert_eq!((s.dirty_state().0, s.dirty_state().1), (0, 0));
}

#[test]
fn writes_after_a_truncate_start_again_at_offset_zero() {
    // Appends go back to the start of the emptied file, so reading it back hits the cache.
    let (r, s) = run(r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 256 },
        { op = "truncate", file = "tmp" },
        { op = "write", file = "tmp", pattern = "seq", count = 128 },
        { op = "read", file = "tmp", pattern = "seq", count = 128 },
    ]"#);
    assert_eq!(r.counters["pgpgin"], 0, "{:?}", r.counters);
    assert_eq!(usage(&s, "tmp").0, 128);
}

#[test]
fn readahead_stops_at_the_new_end() {
    // After the truncate, one page written at page 100 makes the file 101 pages long. A
    // sequential read from page 90 reads ahead to the end only: pages 90..=99 (100 is cached),
    // not a whole 32-page window.
    let (r, _) = run_measured(
        r#"[
        { op = "read", file = "big", pattern = "seq", count = 256 },
        { op = "truncate", file = "big" },
        { op = "write", file = "big", offset = "400KiB", count = 1 },
        { op = "mark", name = "m" },
        { op = "read", file = "big", offset = "360KiB", pattern = "seq", count = 1 },
    ]"#,
    );
    assert_eq!(r.measured["pgpgin"], 10, "{:?}", r.measured);
}

#[test]
fn reads_past_the_new_end_do_no_io_and_writes_extend_the_file() {
    let (r, s) = run(r#"[
        { op = "read", file = "tmp", pattern = "seq", count = 256 },
        { op = "truncate", file = "tmp" },
        { op = "read", file = "tmp", pattern = "seq", count = 256 },
        { op = "write", file = "tmp", pattern = "seq", count = 128 },
        { op = "read", file = "tmp", pattern = "seq", count = 128 },
    ]"#);
    // Only the first read reached the disk: its 256 pages and the readahead window in flight
    // past them when it stopped (32 pages).
    assert_eq!(r.counters["pgpgin"], 256 + 32, "{:?}", r.counters);
    assert_eq!(usage(&s, "tmp").0, 128);
}

#[test]
fn shadow_entries_go_with_the_pages() {
    // Reading 128 MiB through 64 MiB evicts the first pages, leaving shadow entries. After
    // the truncate, one page written at the old end makes the file long again; reading its
    // first pages (never rewritten) is no refault.
    let program = |truncate: bool| {
        format!(
            r#"[
        {{ op = "read", file = "big", pattern = "seq" }},
        {truncate}
        {{ op = "write", file = "big", offset = "127MiB", count = 1 }},
        {{ op = "mark", name = "m" }},
        {{ op = "read", file = "big", pattern = "seq", count = 256 }},
    ]"#,
            truncate = if truncate {
                r#"{ op = "truncate", file = "big" },"#
            } else {
                ""
            }
        )
    };
    let refaults =
        |truncate: bool| run_measured(&program(truncate)).0.measured["workingset_refault_file"];
    assert!(
        refaults(false) > 0,
        "without the truncate the re-read refaults"
    );
    assert_eq!(refaults(true), 0);
}

#[test]
fn a_tmpfs_file_gives_back_its_swap_slots() {
    // 16 MiB of tmpfs data, then a 56 MiB anon hog that pushes it out to swap.
    let program = |truncate: &str| {
        format!(
            r#"[
        {{ op = "write", file = "shm", pattern = "seq" }},
        {{ op = "anon", name = "hog", size = "56MiB" }},
        {{ op = "touch", regions = ["hog"], write = true }},
        {truncate}
    ]"#
        )
    };
    let (_, s) = run(&program(""));
    assert!(usage(&s, "shm").1 > 0, "{:?}", s.space_usage());
    let (_, s) = run(&program(r#"{ op = "truncate", file = "shm" },"#));
    assert_eq!(usage(&s, "shm"), (0, 0));
}

#[test]
fn bad_truncates_are_refused_with_the_place() {
    let err = parse(&scenario(r#"[ { op = "truncate", file = "nope" } ]"#))
        .unwrap_err()
        .to_string();
    assert!(err.contains("tasks[0].program[0].file"), "{err}");
    assert!(err.contains("unknown file \"nope\""), "{err}");
    let err = parse(&scenario(
        r#"[
        { op = "mmap", name = "m", file = "tmp", prot = "r" },
        { op = "truncate", file = "tmp" },
    ]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("tasks[0].program[1].file"), "{err}");
    assert!(err.contains("mmapped at tasks[0].program[0].file"), "{err}");
    // A buffer pool would keep the file's blocks (and write them back) after the truncate.
    let err = parse(&scenario(
        r#"[
        { op = "anon", name = "pool", size = "1MiB", shared = true },
        { op = "read", file = "tmp", pattern = "random", count = 10, buffer = "pool" },
        { op = "truncate", file = "tmp" },
    ]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("tasks[0].program[2].file"), "{err}");
    assert!(
        err.contains("read through a buffer pool at tasks[0].program[1].buffer"),
        "{err}"
    );
}

#[test]
fn drop_behind_drops_each_finished_segment_and_wraps() {
    // 20 MiB of synchronous appends into the 16 MiB `tmp` in 4 MiB segments: each segment is
    // dropped when the appends move on, the last one when they wrap to the first. What stays
    // is the first segment, rewritten.
    let (r, s) = run_measured(
        r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 5120, sync = true, drop_behind = "4MiB" },
        { op = "mark", name = "m" },
        { op = "read", file = "tmp", offset = "4MiB", size = "4MiB", pattern = "random", count = 64, hint = "random" },
    ]"#,
    );
    // (Plus the pages read back at the end.)
    assert_eq!(
        usage(&s, "tmp").0,
        1024 + r.measured["pgpgin"],
        "{:?}",
        s.space_usage()
    );
    assert_eq!(r.counters["pgpgout"], 5120);
    // Not reclaim: no scan, and no shadow entries, so reading a dropped page is no refault.
    assert_eq!(r.counters["pgscan_kswapd"] + r.counters["pgscan_direct"], 0);
    assert_eq!(r.measured["pgpgin"], 64, "{:?}", r.measured);
    assert_eq!(r.measured["workingset_refault_file"], 0);
}

#[test]
fn drop_behind_closes_segments_whatever_the_write_size_and_the_number_of_writers() {
    // 3000-byte appends do not land on the 1 MiB boundaries; four clients' writes are still
    // in flight when one of them moves on. Every finished segment goes all the same: what
    // stays is the segment being written.
    let (_, s) = run(r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 5000, sync = true, bytes = "3000B", drop_behind = "1MiB" },
    ]"#);
    let (resident, _) = usage(&s, "tmp");
    assert!(resident <= 256, "{resident} pages resident");
    let text = machine()
        .task_spec(
            Task::new(
                "t",
                r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 1024, sync = true, drop_behind = "1MiB" },
    ]"#,
            )
            .clients(4),
        )
        .duration("120s")
        .toml();
    let (r, sim) = run_text(&text);
    assert_eq!(r.counters["pgpgout"], 4096);
    // Segments 0-14 are closed (the last writes of 14 may end after the last close), and
    // segment 15 is the one being written.
    let (resident, _) = usage(&sim, "tmp");
    assert!(resident <= 256 + 3, "{resident} pages resident");
}

#[test]
fn drop_behind_clears_the_shadow_entries_of_the_segment() {
    // 8 MiB appended, then a 128 MiB stream evicts it (shadow entries); one more append
    // closes segment 0, whose shadow entries go too: reading it back is no refault.
    let (r, _) = run_measured(
        r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 2048, sync = true, drop_behind = "8MiB" },
        { op = "read", file = "big", pattern = "seq" },
        { op = "write", file = "tmp", pattern = "seq", count = 1, sync = true, drop_behind = "8MiB" },
        { op = "mark", name = "m" },
        { op = "read", file = "tmp", pattern = "seq", count = 2048 },
    ]"#,
    );
    assert!(r.measured["pgpgin"] > 0);
    assert_eq!(r.measured["workingset_refault_file"], 0, "{:?}", r.measured);
}

#[test]
fn bad_drop_behind_is_refused_with_the_place() {
    let err = parse(&scenario(
        r#"[ { op = "write", file = "tmp", pattern = "random", count = 4, drop_behind = "1MiB" } ]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("tasks[0].program[0].drop_behind"), "{err}");
    assert!(err.contains("sequential writes"), "{err}");
    let err = parse(&scenario(
        r#"[ { op = "write", file = "tmp", pattern = "seq", count = 4, drop_behind = "1MiB" } ]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("tasks[0].program[0].drop_behind"), "{err}");
    assert!(err.contains("needs sync = true"), "{err}");
    for seg in ["3MiB", "6KiB"] {
        let text = scenario(&format!(
            r#"[ {{ op = "write", file = "tmp", pattern = "seq", count = 4, sync = true, drop_behind = "{seg}" }} ]"#
        ));
        let err = Simulation::new(&parse(&text).unwrap(), "v").err().unwrap();
        assert!(err.contains("tasks[0].program[0]"), "{err}");
        assert!(err.contains("divide the 16384KiB written"), "{err}");
    }
    let err = parse(&scenario(
        r#"[
        { op = "write", file = "tmp", pattern = "seq", count = 4, sync = true, drop_behind = "1MiB" },
        { op = "write", file = "tmp", pattern = "seq", count = 4, sync = true, drop_behind = "2MiB" },
    ]"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("tasks[0].program[1].drop_behind"), "{err}");
    assert!(err.contains("tasks[0].program[0].drop_behind"), "{err}");
    assert!(err.contains("the same size"), "{err}");
}

#[test]
fn writes_wait_for_a_truncate_that_waits_for_io() {
    // A writer appends to `tmp` with O_DSYNC without end; 10 ms in, another task truncates
    // it. The truncate holds the inode lock while it waits for the write in flight, so the
    // writer's next writes wait for it and the truncate ends; then the truncating task reads
    // on. Without the lock each pass would find the writer's newest page busy, for ever.
    let text = machine()
        .task(
            "t",
            r#"[
        { op = "sleep", duration = "10ms" },
        { op = "truncate", file = "tmp" },
        { op = "mark", name = "m" },
        { op = "read", file = "big", pattern = "seq", count = 100 },
    ]"#,
        )
        .task(
            "w",
            r#"[ { op = "write", file = "tmp", pattern = "seq", sync = true, count = 100000 } ]"#,
        )
        .measure_from("m")
        .duration("50ms")
        .toml();
    let (r, s) = run_text(&text);
    let read = r.measured.get("pgpgin").copied().unwrap_or(0);
    assert!(
        read > 0,
        "the truncating task never got past the truncate: {:?}",
        r.measured
    );
    // The writer went on after the truncate. Its wait for the lock is a sleep, not IO wait:
    // its only waits are for the lock (each write's own IO is part of the write's cost).
    assert!(r.measured["pgpgout"] > 0, "{:?}", r.measured);
    assert!(usage(&s, "tmp").0 > 0);
    let writer = r.tasks.iter().find(|t| t.name == "w").unwrap();
    assert!(writer.io_wait_ms.is_none(), "{writer:?}");
}

#[test]
fn drop_behind_leaves_a_tmpfs_file_alone() {
    // fadvise does nothing to tmpfs (4.14+ `generic_fadvise` returns early without a backing
    // device; before, shmem's swap entries were left to shmem): closing a segment of a
    // swapped-out tmpfs file keeps its pages' shadow entries, so reading it back refaults
    // as much as without the drop.
    let program = |drop: &str| {
        format!(
            r#"[
        {{ op = "write", file = "shm", pattern = "seq", count = 2048, sync = true{drop} }},
        {{ op = "anon", name = "hog", size = "56MiB" }},
        {{ op = "touch", regions = ["hog"], write = true }},
        {{ op = "write", file = "shm", pattern = "seq", count = 1, sync = true{drop} }},
        {{ op = "mark", name = "m" }},
        {{ op = "read", file = "shm", pattern = "seq", count = 2048 }},
    ]"#
        )
    };
    let refaults = |drop: &str| run_measured(&program(drop)).0.measured["workingset_refault_anon"];
    let kept = refaults("");
    assert!(kept > 0);
    assert_eq!(refaults(r#", drop_behind = "8MiB""#), kept);
}

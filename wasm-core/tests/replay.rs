//! Trace replay (issue #47): requests become page accesses through the page cache, hits and
//! misses as the page cache had them, the trace's errors named by record, determinism.
mod common;

use std::sync::Arc;

use common::{ScenarioBuilder, Task};
use reclaim_core::scenario::{self, Budget, Scenario};
use reclaim_core::Simulation;

fn oracle(ids: &[u64]) -> Vec<u8> {
    let mut b = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        b.extend_from_slice(&(i as u32).to_le_bytes());
        b.extend_from_slice(&id.to_le_bytes());
        b.extend_from_slice(&4096u32.to_le_bytes());
        b.extend_from_slice(&(-1i64).to_le_bytes());
    }
    b
}

/// A machine of `ram` with file "f" of `file` on an SSD, classic and MGLRU of `preset`, 600 s.
fn machine(title: &str, ram: &str, file: &str, preset: &str) -> ScenarioBuilder {
    ScenarioBuilder::new(title)
        .seed(3)
        .ram(ram)
        .device("disk", "ssd")
        .file("f", file, "disk")
        .variant("classic", preset)
        .variant("mglru", &format!("{preset}-mglru"))
        .duration("600s")
}

/// Task "t" running `op` on a machine of `ram` with a 64 MiB file.
fn scenario(ram: &str, op: &str) -> Scenario {
    machine("replay", ram, "64MiB", "linux-6.18")
        .task("t", &format!("[ {op} ]"))
        .parse()
}

fn with_trace(mut s: Scenario, name: &str, bytes: Vec<u8>) -> Scenario {
    s.traces
        .insert(name, Arc::new(bytes), &Budget::DEFAULT)
        .unwrap();
    s
}

const READ: &str = r#"{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f" }"#;

#[test]
fn with_room_for_every_object_only_first_requests_miss() {
    let ids = [5, 9, 5, 7, 9, 9, 5, 1_000_000_007];
    let s = with_trace(scenario("256MiB", READ), "t.bin", oracle(&ids));
    for v in ["classic", "mglru"] {
        let mut sim = Simulation::new(&s, v).unwrap();
        sim.try_run_to_end().unwrap();
        let stats = sim.replay_stats();
        assert_eq!(stats.len(), 1, "{v}");
        assert_eq!(
            (stats[0].1.requests, stats[0].1.misses, stats[0].1.writes),
            (8, 4, 0),
            "{v}"
        );
        assert_eq!(
            sim.counters()["pgpgin"],
            4,
            "{v}: one read per distinct object"
        );
    }
}

#[test]
fn a_cache_smaller_than_the_loop_misses_every_time() {
    // 14,000 distinct pages cycled twice through a machine whose cache holds far fewer: every
    // request of the second pass misses too (each page was evicted before its turn came).
    let ids: Vec<u64> = (0..2).flat_map(|_| 0..14_000u64).collect();
    let s = with_trace(scenario("48MiB", READ), "t.bin", oracle(&ids));
    let mut sim = Simulation::new(&s, "classic").unwrap();
    sim.try_run_to_end().unwrap();
    let st = sim.replay_stats()[0].1;
    assert_eq!(st.requests, 28_000);
    assert_eq!(st.misses, 28_000);
}

#[test]
fn same_scenario_and_trace_give_the_same_run() {
    let ids: Vec<u64> = (0..30_000u64).map(|i| (i * 7919) % 13_000).collect();
    let s = with_trace(scenario("32MiB", READ), "t.bin", oracle(&ids));
    for v in ["classic", "mglru"] {
        let run = || {
            let mut sim = Simulation::new(&s, v).unwrap();
            let r = sim.try_run_to_end().unwrap();
            (serde_json::to_string(&r).unwrap(), sim.replay_stats())
        };
        assert_eq!(run(), run(), "{v}");
    }
}

#[test]
fn a_missing_or_bad_trace_is_named() {
    let s = scenario("64MiB", READ);
    let e = Simulation::new(&s, "classic").err().unwrap();
    assert!(e.contains("trace \"t.bin\" was not supplied"), "{e}");
    let mut b = oracle(&[1, 2, 3]);
    b[24 * 2 + 16..24 * 2 + 24].copy_from_slice(&(-3i64).to_le_bytes());
    let e = Simulation::new(&with_trace(s.clone(), "t.bin", b), "classic")
        .err()
        .unwrap();
    assert!(
        e.contains("tasks[0].program[0]") && e.contains("record 3 (byte 48)"),
        "{e}"
    );
    // More distinct objects than the file has pages (64 MiB: 16,384).
    let ids: Vec<u64> = (0..16_385).collect();
    let e = Simulation::new(&with_trace(s, "t.bin", oracle(&ids)), "classic")
        .err()
        .unwrap();
    assert!(
        e.contains("record 16385 brings object 16385 past the 16384 pages"),
        "{e}"
    );
}

#[test]
fn csv_writes_dirty_the_file_and_mmap_replays_fault() {
    let csv = "time,id,size,op\n0,1,4096,w\n0,2,4096,r\n1,1,4096,r\n1,3,10,w\n";
    let op = r#"{ op = "replay", trace = "t.csv", format = "csv", file = "f" }"#;
    let s = with_trace(scenario("256MiB", op), "t.csv", csv.as_bytes().to_vec());
    let mut sim = Simulation::new(&s, "classic").unwrap();
    sim.try_run_to_end().unwrap();
    let st = sim.replay_stats()[0].1;
    assert_eq!((st.requests, st.misses, st.writes), (4, 3, 2));
    // Both written pages (objects 1 and 3) are dirty in the page cache, not yet written back.
    assert_eq!(sim.dirty_state().0, 2);

    // MADV_RANDOM: without it the first fault's readahead would bring in object 6's page too.
    let op = r#"{ op = "mmap", name = "m", file = "f", prot = "r", hint = "random" }, { op = "replay", trace = "t.bin", format = "oracleGeneral", region = "m" }"#;
    let s = with_trace(scenario("256MiB", op), "t.bin", oracle(&[4, 4, 6]));
    let mut sim = Simulation::new(&s, "classic").unwrap();
    sim.try_run_to_end().unwrap();
    assert_eq!(sim.replay_stats()[0].1.misses, 2);
    assert_eq!(sim.counters()["pgmajfault"], 2);
    // A trace that writes needs a writable mapping.
    let op = r#"{ op = "mmap", name = "m", file = "f", prot = "r" }, { op = "replay", trace = "t.csv", format = "csv", region = "m" }"#;
    let s = with_trace(scenario("256MiB", op), "t.csv", csv.as_bytes().to_vec());
    let e = Simulation::new(&s, "classic").err().unwrap();
    assert!(
        e.contains("has 2 write requests") && e.contains("prot = \"rw\""),
        "{e}"
    );
}

#[test]
fn recorded_pace_spreads_requests_over_their_timestamps() {
    // Timestamps 0..9 s apart in the trace; at speed 2 the replay takes at least 4.5 s.
    let ids = [1u64, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    let op = r#"{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f", pace = "recorded", speed = 2.0 }"#;
    let s = with_trace(scenario("256MiB", op), "t.bin", oracle(&ids));
    let mut sim = Simulation::new(&s, "classic").unwrap();
    let r = sim.try_run_to_end().unwrap();
    assert!(r.virtual_s >= 4.5 && r.virtual_s < 4.6, "{}", r.virtual_s);
    let op = r#"{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f" }"#;
    let s = with_trace(scenario("256MiB", op), "t.bin", oracle(&ids));
    let mut sim = Simulation::new(&s, "classic").unwrap();
    let r = sim.try_run_to_end().unwrap();
    assert!(r.virtual_s < 0.1, "as fast as possible: {}", r.virtual_s);
}

#[test]
fn the_parser_checks_a_replay() {
    let bad = |op: &str| {
        let text = scenario_text(op);
        scenario::parse(&text).unwrap_err().to_string()
    };
    let e = bad(r#"{ op = "replay", trace = "t", format = "csv" }"#);
    assert!(e.contains("give exactly one"), "{e}");
    let e = bad(r#"{ op = "replay", trace = "t", format = "csv", file = "f", cpu = "0s" }"#);
    assert!(e.contains("cpu > 0"), "{e}");
    let e = bad(r#"{ op = "replay", trace = "t", format = "vscsi", file = "f" }"#);
    assert!(e.contains("vscsi"), "{e}");
}

fn scenario_text(op: &str) -> String {
    ScenarioBuilder::new("x")
        .ram("64MiB")
        .device("disk", "ssd")
        .file("f", "1MiB", "disk")
        .variant("a", "linux-6.1")
        .task("t", &format!("[ {op} ]"))
        .duration("1s")
        .toml()
}

/// The scenario a dropped trace gets (`trace_scenario` on the page) makes reclaim choose: the
/// shipped SQLite recording (4,421 pages, more than half of which the engine's smallest
/// machine would cache) replays in a memcg of half its footprint, and both kernels miss more than the first
/// request of each page; at a cache of the whole footprint (a curve's last point) they do not.
#[test]
fn a_dropped_sqlite_trace_is_reclaimed_at_half_its_footprint() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scenarios/traces/sqlite-queries.csv"
    );
    let bytes = Arc::new(std::fs::read(path).unwrap());
    let name = "sqlite-queries.csv";
    let fmt = scenario::trace::TraceFormat::Csv;
    let text = reclaim_core::mrc::dropped_scenario(name, fmt, bytes.clone()).unwrap();
    assert!(text.contains("memory.max = 2211 pages"), "{text}");
    let s = with_trace(scenario::parse(&text).unwrap(), name, bytes.to_vec());
    let mut r = scenario::trace::TraceReader::new(name, bytes, fmt).unwrap();
    let fp = reclaim_core::mrc::footprint(&mut r).unwrap().pages.len() as u64;
    assert_eq!(fp, 4421);
    for v in ["classic", "mglru"] {
        let mut sim = Simulation::new(&s, v).unwrap();
        sim.try_run_to_end().unwrap();
        let st = sim.replay_stats()[0].1;
        assert_eq!(st.requests, 82_009, "{v}");
        assert!(st.misses > fp, "{v}: {} misses", st.misses);
        let point = reclaim_core::mrc::kernel_scenario(&s, fp, fp, &Budget::DEFAULT).unwrap();
        let mut whole = Simulation::new(&point, v).unwrap();
        whole.try_run_to_end().unwrap();
        assert_eq!(whole.replay_stats()[0].1.misses, fp, "{v}");
    }
}

/// Task "t" running `program` (an op list) in memcg "cache" limited to `max` (None: in the
/// root), on 128 MiB with a 128 MiB file and the 7.3 pair.
fn in_memcg(max: Option<&str>, program: &str) -> Scenario {
    let b = machine("reference", "128MiB", "128MiB", "linux-7.3");
    match max {
        None => b.task("t", program),
        Some(m) => b
            .memcg("cache", &[("max", m)])
            .task_spec(Task::new("t", program).memcg("cache")),
    }
    .parse()
}

/// oracleGeneral records of `ids` with their true next-access fields (0-based, -1 for none).
fn oracle_with_next(ids: &[u64]) -> Vec<u8> {
    let mut later = std::collections::HashMap::new();
    let mut next = vec![-1i64; ids.len()];
    for i in (0..ids.len()).rev() {
        if let Some(&j) = later.get(&ids[i]) {
            next[i] = j as i64;
        }
        later.insert(ids[i], i);
    }
    let mut b = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        b.extend_from_slice(&(i as u32).to_le_bytes());
        b.extend_from_slice(&id.to_le_bytes());
        b.extend_from_slice(&4096u32.to_le_bytes());
        b.extend_from_slice(&next[i].to_le_bytes());
    }
    b
}

#[test]
fn the_reference_policies_miss_as_the_curves_columns() {
    use reclaim_core::scenario::trace::{TraceFormat, TraceReader};
    use reclaim_core::{mrc, reference};
    // Two hot sets between blocks read once: LRU holds the small one (its reuse distance is
    // under the cache size) and loses the large one; the kernel and OPT keep other shares.
    let ids: Vec<u64> = (0..40_000u64)
        .map(|i| match i % 3 {
            0 => i % 1_500,
            1 => 5_000 + i % 600,
            _ => 10_000 + i,
        })
        .collect();
    let csv: String = ids.iter().map(|i| format!("0,{i},4096\n")).collect();
    let pages = 1_024u64; // 4 MiB
    for (name, format, bytes) in [
        ("t.bin", "oracleGeneral", oracle_with_next(&ids)),
        ("t.csv", "csv", csv.into_bytes()),
    ] {
        let op = format!(
            r#"[{{ op = "replay", trace = "{name}", format = "{format}", file = "f", reference = true }}]"#
        );
        let s = with_trace(in_memcg(Some("4MiB"), &op), name, bytes.clone());
        let fmt = if format == "csv" {
            TraceFormat::Csv
        } else {
            TraceFormat::OracleGeneral
        };
        let mut rd = TraceReader::new(name, Arc::new(bytes), fmt).unwrap();
        let found = mrc::footprint(&mut rd).unwrap();
        let next = reference::next_requests(&mut rd, &found.pages).unwrap();
        let lru = mrc::lru_misses(&mut rd, &found.pages, pages).unwrap();
        let opt = mrc::opt_misses(&mut rd, &found.pages, pages, Some(&next)).unwrap();
        let n = ids.len() as u64;
        assert!(
            opt < lru && lru < n,
            "{name}: the trace separates the policies ({opt} vs {lru} of {n})"
        );
        for v in ["classic", "mglru"] {
            let mut sim = Simulation::new(&s, v).unwrap();
            // Before the first request there is nothing to compare.
            assert_eq!(sim.live_metric("replay.lru_misses"), None);
            sim.try_run_to_end().unwrap();
            let fig = |m: &str| sim.live_metric(m).unwrap();
            let kernel = sim.replay_stats()[0].1.misses as f64;
            assert_eq!(fig("replay.requests"), ids.len() as f64, "{name} {v}");
            assert_eq!(fig("replay.misses"), kernel, "{name} {v}");
            assert_eq!(fig("replay.lru_misses"), lru as f64, "{name} {v}");
            assert_eq!(fig("replay.opt_misses"), opt as f64, "{name} {v}");
            assert_eq!(
                fig("replay.lru_minus_misses"),
                lru as f64 - kernel,
                "{name} {v}"
            );
            assert_eq!(
                fig("replay.misses_minus_opt"),
                kernel - opt as f64,
                "{name} {v}"
            );
        }
    }
}

#[test]
fn a_reference_needs_a_memcg_limit_and_one_whole_pass() {
    let ids: Vec<u64> = (0..100).collect();
    let op = |extra: &str| {
        format!(
            r#"[{{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f", reference = true{extra} }}]"#
        )
    };
    let err = |s: Scenario| match Simulation::new(
        &with_trace(s, "t.bin", oracle_with_next(&ids)),
        "classic",
    ) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    let e = err(in_memcg(None, &op("")));
    assert!(
        e.contains("tasks[0].program[0].reference") && e.contains("memory.max"),
        "{e}"
    );
    let e = err(in_memcg(Some("1MiB"), &op(", count = 10")));
    assert!(e.contains("not with count"), "{e}");
    let looped = r#"[{ op = "loop", count = 2, body = [
      { op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f", reference = true } ] }]"#;
    let e = err(in_memcg(Some("1MiB"), looped));
    assert!(
        e.contains("program[0].body[0].reference") && e.contains("not in a loop"),
        "{e}"
    );
    // Next-access fields that do not match the ids: OPT would be wrong, so it is refused.
    let s = with_trace(in_memcg(Some("1MiB"), &op("")), "t.bin", oracle(&[1, 2, 1]));
    let e = Simulation::new(&s, "classic").err().expect("an error");
    assert!(e.contains("next-access field"), "{e}");
    // A live figure of another name is a parse error of the fact, naming the known ones.
    let e = reclaim_core::scenario::expect::terms("replay.lru_hits").unwrap_err();
    assert!(e.contains("replay.{requests,misses,lru_misses"), "{e}");
}

/// A replay of "t.bin" onto file `file`, with `reference` or without.
fn replay_of(file: &str, reference: bool) -> String {
    format!(
        r#"[{{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "{file}", reference = {reference} }}]"#
    )
}

#[test]
fn the_differences_count_only_the_replays_that_run_a_reference() {
    // Task "a" replays with a reference in a 4 MiB memcg, task "b" the same trace onto another
    // file without one: LRU minus the kernel and the kernel minus OPT are task a's alone, while
    // replay.misses is both tasks'.
    let ids: Vec<u64> = (0..6_000u64).map(|i| (i * 7919) % 2_500).collect();
    let s = machine("two replays", "128MiB", "64MiB", "linux-7.3")
        .file("g", "64MiB", "disk")
        .memcg("cache", &[("max", "4MiB")])
        .task_spec(Task::new("a", &replay_of("f", true)).memcg("cache"))
        .task("b", &replay_of("g", false))
        .parse();
    let s = with_trace(s, "t.bin", oracle_with_next(&ids));
    for v in ["classic", "mglru"] {
        let mut sim = Simulation::new(&s, v).unwrap();
        sim.try_run_to_end().unwrap();
        let (a, b) = (sim.replay_stats_of("a"), sim.replay_stats_of("b"));
        assert!(a.misses > 0 && b.misses > 0, "{v}: {a:?} {b:?}");
        let fig = |m: &str| sim.live_metric(m).unwrap();
        assert_eq!(fig("replay.misses"), (a.misses + b.misses) as f64, "{v}");
        assert_eq!(
            fig("replay.lru_minus_misses"),
            fig("replay.lru_misses") - a.misses as f64,
            "{v}"
        );
        assert_eq!(
            fig("replay.misses_minus_opt"),
            a.misses as f64 - fig("replay.opt_misses"),
            "{v}"
        );
    }
}

#[test]
fn the_frame_carries_the_replay_figures_exactly_when_the_run_replays() {
    let s = with_trace(scenario("256MiB", READ), "t.bin", oracle(&[1, 2, 1]));
    let mut sim = Simulation::new(&s, "classic").unwrap();
    let first = sim
        .frame_view(64, 0)
        .replay
        .expect("a replay's first frame");
    assert_eq!((first.requests, first.misses), (0, 0));
    sim.try_run_to_end().unwrap();
    let last = sim.frame_view(64, 0).replay.expect("a replay's last frame");
    assert_eq!((last.requests, last.misses, last.lru_misses), (3, 2, None));
    let s = scenario("256MiB", r#"{ op = "sleep", duration = "1s" }"#);
    let mut sim = Simulation::new(&s, "classic").unwrap();
    assert_eq!(sim.frame_view(64, 0).replay, None);
    sim.try_run_to_end().unwrap();
    assert_eq!(sim.frame_view(64, 0).replay, None);
}

#[test]
fn a_reference_is_refused_where_its_limit_is_shared_and_sized_by_the_tightest() {
    let ids: Vec<u64> = (0..3_000u64).map(|i| (i * 7919) % 1_500).collect();
    let err = |b: ScenarioBuilder| -> String {
        let s = with_trace(b.parse(), "t.bin", oracle_with_next(&ids));
        match Simulation::new(&s, "classic") {
            Ok(_) => panic!("expected a refusal"),
            Err(e) => e,
        }
    };
    let base = || machine("shared", "128MiB", "64MiB", "linux-7.3").file("g", "64MiB", "disk");
    // Replicas of the task in one memcg.
    let e = err(base().memcg("cache", &[("max", "4MiB")]).task_spec(
        Task::new("t{i}", &replay_of("f", true))
            .memcg("cache")
            .replicas(2),
    ));
    assert!(
        e.contains("tasks[0].program[0].reference")
            && e.contains("memcg \"cache\"")
            && e.contains("task \"t1\""),
        "{e}"
    );
    // Another task (which replays nothing) in the same memcg.
    let reader = r#"[{ op = "read", file = "g", pattern = "seq" }]"#;
    let e = err(base()
        .memcg("cache", &[("max", "4MiB")])
        .task_spec(Task::new("t", &replay_of("f", true)).memcg("cache"))
        .task_spec(Task::new("hog", reader).memcg("cache")));
    assert!(
        e.contains("memcg \"cache\"") && e.contains("task \"hog\""),
        "{e}"
    );
    // A parent's limit over the task's memcg and a sibling's.
    let e = err(base()
        .memcg("top", &[("max", "4MiB")])
        .memcg_in("mine", "top", &[])
        .memcg_in("theirs", "top", &[])
        .task_spec(Task::new("t", &replay_of("f", true)).memcg("mine"))
        .task_spec(Task::new("u", reader).memcg("theirs")));
    assert!(
        e.contains("memcg \"top\"") && e.contains("task \"u\""),
        "{e}"
    );

    // Replicas each in a memcg of their own are each sized by it; a limit set only above the
    // task's memcg sizes its reference, the tighter of two the tightest.
    let own = base()
        .memcg("cache0", &[("max", "4MiB")])
        .memcg("cache1", &[("max", "4MiB")])
        .task_spec(
            Task::new("t{i}", &replay_of("f", true))
                .memcg("cache{i}")
                .replicas(2),
        );
    let above = base()
        .memcg("top", &[("max", "4MiB")])
        .memcg_in("mine", "top", &[("max", "8MiB")])
        .task_spec(Task::new("t", &replay_of("f", true)).memcg("mine"));
    let mut rd = scenario::trace::TraceReader::new(
        "t.bin",
        Arc::new(oracle_with_next(&ids)),
        scenario::trace::TraceFormat::OracleGeneral,
    )
    .unwrap();
    let found = reclaim_core::mrc::footprint(&mut rd).unwrap();
    let lru = reclaim_core::mrc::lru_misses(&mut rd, &found.pages, 1_024).unwrap();
    for (b, tasks) in [(own, 2.0), (above, 1.0)] {
        let s = with_trace(b.parse(), "t.bin", oracle_with_next(&ids));
        let mut sim = Simulation::new(&s, "classic").unwrap();
        sim.try_run_to_end().unwrap();
        assert_eq!(
            sim.live_metric("replay.lru_misses"),
            Some(tasks * lru as f64)
        );
    }
}

#[test]
fn a_curves_trace_is_read_once_and_no_further_than_the_budget() {
    // load_bytes (the Ray backend's) opens each trace once and reads at most the budget and a
    // byte: a FIFO, whose length says 0, that gives more is refused, not read whole.
    let dir = std::env::temp_dir().join(format!("reclaim-replay-fifo-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let toml = scenario_text(
        r#"{ op = "replay", trace = "t.bin", format = "oracleGeneral", file = "f" }"#,
    );
    std::fs::write(dir.join("s.toml"), toml).unwrap();
    let fifo = dir.join("t.bin");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let budget = Budget {
        trace_bytes: 24 << 10,
        ..Budget::DEFAULT
    };
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            // The reader closes once it has had too much: a broken pipe then is expected.
            let _ = f.write_all(&oracle(&(0..2048).collect::<Vec<u64>>()));
        })
    };
    // Before it was read once, the trace was opened twice, and the second open of a FIFO whose
    // writer had gone waited for ever: wait a bounded time for the answer.
    let (tx, rx) = std::sync::mpsc::channel();
    let file = dir.join("s.toml");
    std::thread::spawn(move || tx.send(reclaim_core::sweep::mrc::load_bytes(&file, &budget)));
    let r = rx
        .recv_timeout(std::time::Duration::from_secs(20))
        .expect("load_bytes answers");
    writer.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let e = r.map(|(_, t)| t[0].1.len()).unwrap_err();
    assert!(
        e.contains("trace \"t.bin\" is more than 24576 bytes"),
        "{e}"
    );
}

#[test]
fn a_kernel_point_past_the_frames_budget_is_refused_at_once() {
    use reclaim_core::scenario::budget::MAX_FRAMES;
    // A point's machine holds the footprint twice and 64 MiB more, so the largest footprint
    // the budget allows is (8 GiB - 64 MiB) / 8 KiB pages.
    let most = (MAX_FRAMES * 4096 - (64 << 20)) / 8192;
    let s = with_trace(
        scenario("256MiB", READ),
        "t.bin",
        oracle_with_next(&[1, 2, 1]),
    );
    let point = reclaim_core::mrc::kernel_scenario(&s, 10, most, &Budget::DEFAULT).unwrap();
    assert!(point.machine.ram.bytes() <= MAX_FRAMES * 4096);
    let e = reclaim_core::mrc::kernel_scenario(&s, 10, most + 1, &Budget::DEFAULT).unwrap_err();
    assert!(
        e.contains(&format!("{} pages need 8192 MiB", most + 1))
            && e.contains(&format!("at most {most} distinct objects"))
            && e.contains("MAX_FRAMES")
            && e.contains("trace \"t.bin\""),
        "{e}"
    );
    // The CLI's --no-budget lifts it.
    assert!(reclaim_core::mrc::kernel_scenario(&s, 10, most + 1, &Budget::UNLIMITED).is_ok());
    // A curve's kernel point holds the refusal in its row at once; LRU and OPT run.
    use reclaim_core::sweep::mrc::{Curve, Job};
    let curve = Curve::new(&s, 2).unwrap().with_budget(&Budget {
        frames: 16_384,
        ..Budget::DEFAULT
    });
    let t = std::time::Instant::now();
    let e = curve
        .run(
            &Job::Kernel {
                variant: "classic".into(),
                pages: 1,
            },
            None,
        )
        .unwrap_err();
    assert!(e.contains("16384 frames"), "{e}");
    assert!(t.elapsed().as_secs() < 5);
    assert_eq!(curve.run(&Job::Lru { pages: 1 }, None), Ok(3));
}

//! Memory cgroups end to end: charging, memory.max (reclaim inside the memcg, then the memcg
//! OOM killer), memory.min protection against root memory.reclaim, memory.reclaim accounting,
//! and the rule that cgroup reclaim is counted per memcg but not in the global
//! pgscan/pgsteal_direct items. Invariants (including memcg usage = charged frames) are
//! checked after every event.
mod common;
use common::{ScenarioBuilder, Task};
use reclaim_core::report::{MemcgReport, RunReport};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

fn run(text: &str) -> RunReport {
    let scn = parse(text).unwrap_or_else(|e| panic!("{e}"));
    let mut sim = Simulation::new(&scn, "v").unwrap();
    sim.check_invariants = true;
    sim.run_to_end()
}

fn memcg<'r>(r: &'r RunReport, name: &str) -> &'r MemcgReport {
    r.memcgs.iter().find(|m| m.name == name).unwrap()
}

/// 256 MiB of RAM, an SSD (with 512 MiB of swap on it when `swap`), variant `v` on `preset`.
fn machine(swap: bool, preset: &str) -> ScenarioBuilder {
    let b = ScenarioBuilder::new("memcg test").seed(5).ram("256MiB");
    let b = if swap { b.swap("ssd", "512MiB") } else { b };
    b.device("ssd", "ssd").variant("v", preset)
}

#[test]
fn memory_max_reclaims_inside_the_memcg_only() {
    let r = run(&machine(true, "linux-6.3")
        .memcg("capped", &[("max", "16MiB")])
        .memcg("other", &[])
        .task_spec(
            Task::new(
                "big",
                r#"[
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["a"], pattern = "random", count = 20000 },
]"#,
            )
            .memcg("capped"),
        )
        .task_spec(
            Task::new(
                "small",
                r#"[
  { op = "anon", name = "a", size = "8MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "5s" },
]"#,
            )
            .memcg("other"),
        )
        .duration("60s")
        .toml());
    let capped = memcg(&r, "capped");
    assert!(capped.current_pages <= 16 * 256, "{}", capped.current_pages);
    assert!(capped.events["max"] > 0);
    assert!(capped.stat["pgsteal_direct"] > 0);
    assert_eq!(capped.events["oom_kill"], 0, "swap was available");
    // Only the capped memcg was reclaimed; no global reclaim happened.
    assert_eq!(memcg(&r, "other").stat["pgscan"], 0);
    assert_eq!(r.counters["pgscan_direct"], 0);
    assert_eq!(r.counters["pgscan_kswapd"], 0);
    assert!(r.counters["pswpout"] > 0);
    // memory.stat is hierarchical: the root's pgsteal includes the capped memcg's.
    assert_eq!(memcg(&r, "/").stat["pgsteal"], capped.stat["pgsteal"]);
    assert!(r.oom_kills.is_empty());
    assert_eq!(
        r.reclaim_requested_pages, None,
        "memory.reclaim was not written"
    );
}

#[test]
fn memcg_oom_kills_inside_the_memcg() {
    let r = run(&machine(false, "linux-6.3")
        .memcg("tiny", &[("max", "4MiB")])
        .memcg("other", &[])
        .task_spec(
            Task::new(
                "hog",
                r#"[
  { op = "anon", name = "a", size = "8MiB" },
  { op = "touch", regions = ["a"], write = true },
]"#,
            )
            .memcg("tiny"),
        )
        .task_spec(
            Task::new(
                "bigger",
                r#"[
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "1s" },
]"#,
            )
            .memcg("other"),
        )
        .duration("10s")
        .toml());
    // The larger task outside the memcg is not the victim.
    let victims: Vec<&str> = r.oom_kills.iter().map(|k| k.task.as_str()).collect();
    assert_eq!(victims, ["hog"]);
    let tiny = memcg(&r, "tiny");
    assert_eq!((tiny.events["oom"], tiny.events["oom_kill"]), (1, 1));
    assert!(tiny.events["max"] > 0);
    assert_eq!(memcg(&r, "other").events["oom_kill"], 0);
    assert!(!r.tasks.iter().find(|t| t.name == "bigger").unwrap().killed);
}

#[test]
fn root_memory_reclaim_skips_memcgs_below_min_and_is_accounted() {
    let r = run(&machine(true, "linux-6.3")
        .memcg("protected", &[("min", "64MiB")])
        .memcg("open", &[])
        .task_spec(
            Task::new(
                "p{i}",
                r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "30s" },
]"#,
            )
            .replicas(1)
            .memcg("protected"),
        )
        .task_spec(
            Task::new(
                "o",
                r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "30s" },
]"#,
            )
            .memcg("open"),
        )
        .task_spec(
            Task::new(
                "reclaimer",
                r#"[
  { op = "loop", count = 4, body = [
    { op = "memory_reclaim", memcg = "/", amount = "2MiB" },
    { op = "sleep", duration = "1s" },
  ] },
]"#,
            )
            .start("1s"),
        )
        .duration("20s")
        .toml());
    assert_eq!(r.reclaim_requested_pages, Some(4 * 512));
    let got = r.reclaim_reclaimed_pages.unwrap();
    assert!(got >= 4 * 512, "each write is retried until met: {got}");
    assert_eq!(
        memcg(&r, "protected").stat["pgscan"],
        0,
        "below memory.min: skipped"
    );
    let open = memcg(&r, "open");
    assert!(open.stat["pgsteal"] > 0);
    // memory.reclaim is cgroup reclaim: per memcg (as direct), not in the global items.
    assert_eq!(r.counters["pgsteal_direct"], 0);
    assert_eq!(open.stat["pgsteal"], open.stat["pgsteal_direct"]);
    assert_eq!(memcg(&r, "/").stat["pgsteal"], got);
}

#[test]
fn memory_high_reclaims_and_throttles_above_the_limit() {
    let r = run(&machine(true, "linux-6.3")
        .memcg("soft", &[("high", "8MiB")])
        .task_spec(
            Task::new(
                "t",
                r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
]"#,
            )
            .memcg("soft"),
        )
        .duration("60s")
        .toml());
    let soft = memcg(&r, "soft");
    assert!(soft.events["high"] > 0);
    assert_eq!(soft.events["max"], 0);
    assert!(soft.stat["pgsteal_direct"] > 0);
    // Reclaimed back towards memory.high (within a charge batch of 64 pages per event).
    assert!(soft.current_pages < 16 * 256, "{}", soft.current_pages);
    let stalls = r.tasks[0]
        .alloc_stall_ms
        .expect("the task was throttled or reclaimed");
    assert!(stalls.count > 0);
}

#[test]
fn below_low_memcgs_are_reclaimed_only_by_the_retry_pass_with_a_low_event() {
    let text = |low: &str| {
        machine(true, "linux-6.3")
            .memcg("guarded", &[("low", low)])
            .task_spec(
                Task::new(
                    "g",
                    r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "10s" },
]"#,
                )
                .memcg("guarded"),
            )
            .task_spec(
                Task::new(
                    "reclaimer",
                    r#"[ { op = "memory_reclaim", memcg = "/", amount = "1MiB" } ]"#,
                )
                .start("1s"),
            )
            .duration("5s")
            .toml()
    };
    // Everything is below memory.low: the first attempt skips it, finds nothing, and the
    // retry with memcg_low_reclaim reclaims it and counts `low` events.
    let r = run(&text("64MiB"));
    let g = memcg(&r, "guarded");
    assert!(g.stat["pgsteal"] > 0);
    assert!(g.events["low"] > 0);
    // Unprotected: reclaimed in the first attempt, no `low` event.
    let r = run(&text("0"));
    let g = memcg(&r, "guarded");
    assert!(g.stat["pgsteal"] > 0);
    assert_eq!(g.events["low"], 0);
}

#[test]
fn memcgs_under_mglru_keep_the_invariants_and_their_limits() {
    // Every folio on a generation list of its own memcg, page counts per generation, the
    // memcg LRU listing each memcg once, usage = charged frames: checked after every event,
    // for limit reclaim (memory.max, a non-root target) and root memory.reclaim.
    const BIG: &str = r#"[
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["a"], pattern = "random", count = 20000 },
]"#;
    const SMALL: &str = r#"[
  { op = "anon", name = "a", size = "24MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "loop", count = 40, body = [
    { op = "touch", regions = ["a"], pattern = "random", count = 500 },
    { op = "sleep", duration = "100ms" },
  ] },
]"#;
    const RECLAIMER: &str = r#"[
  { op = "loop", count = 5, body = [
    { op = "memory_reclaim", memcg = "/", amount = "4MiB" },
    { op = "sleep", duration = "500ms" },
  ] },
]"#;
    for preset in ["linux-6.1-mglru", "linux-6.3-mglru", "linux-6.14-mglru"] {
        let text = machine(true, preset)
            .memcg("capped", &[("max", "16MiB")])
            .memcg("other", &[])
            .task_spec(Task::new("big", BIG).memcg("capped"))
            .task_spec(Task::new("small", SMALL).memcg("other"))
            .task_spec(Task::new("reclaimer", RECLAIMER).start("1s"))
            .duration("10s")
            .toml();
        let r = run(&text);
        let capped = memcg(&r, "capped");
        assert!(
            capped.current_pages <= 16 * 256,
            "{preset}: {}",
            capped.current_pages
        );
        assert!(
            capped.stat["pgsteal"] > 0,
            "{preset}: limit reclaim freed nothing"
        );
        assert!(
            memcg(&r, "other").stat["pgsteal"] > 0,
            "{preset}: root reclaim skipped 'other'"
        );
        assert_eq!(r.reclaim_requested_pages, Some(5 * 1024), "{preset}");
        assert!(
            r.reclaim_reclaimed_pages.unwrap() >= 5 * 1024,
            "{preset}: {:?}",
            r.reclaim_reclaimed_pages
        );
    }
}

#[test]
fn a_pass_that_skipped_deactivation_is_retried_forced_before_memory_low_is_breached() {
    // The root's inactive:active file ratio looks fine (24 MiB inactive in "guarded", 16 MiB
    // active in "hot"), so 5.5+ leaves the active lists alone; "guarded" is below memory.low and
    // skipped, "hot" has nothing inactive: the pass frees nothing. The kernel then retries with
    // forced deactivation (taking "hot"'s active pages) before it would breach memory.low.
    let r = run(&machine(false, "linux-6.3")
        .file("cold", "24MiB", "ssd")
        .file("warm", "16MiB", "ssd")
        .memcg("guarded", &[("low", "64MiB")])
        .memcg("hot", &[])
        .task_spec(
            Task::new(
                "g",
                r#"[
  { op = "read", file = "cold", pattern = "seq" },
  { op = "sleep", duration = "10s" },
]"#,
            )
            .memcg("guarded"),
        )
        .task_spec(
            Task::new(
                "h",
                r#"[
  { op = "read", file = "warm", pattern = "seq" },
  { op = "read", file = "warm", pattern = "seq" },
  { op = "sleep", duration = "10s" },
]"#,
            )
            .memcg("hot"),
        )
        .task_spec(
            Task::new(
                "reclaimer",
                r#"[ { op = "memory_reclaim", memcg = "/", amount = "1MiB" } ]"#,
            )
            .start("2s"),
        )
        .duration("5s")
        .toml());
    let (g, h) = (memcg(&r, "guarded"), memcg(&r, "hot"));
    assert!(h.stat["pgsteal"] > 0, "hot gave nothing");
    assert_eq!(g.stat["pgsteal"], 0, "guarded was reclaimed");
    assert_eq!(g.events["low"], 0, "memory.low was breached");
}

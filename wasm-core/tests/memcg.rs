//! Memory cgroups end to end: charging, memory.max (reclaim inside the memcg, then the memcg
//! OOM killer), memory.min protection against root memory.reclaim, memory.reclaim accounting,
//! and the rule that cgroup reclaim is counted per memcg but not in the global
//! pgscan/pgsteal_direct items. Invariants (including memcg usage = charged frames) are
//! checked after every event.
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

const HEAD: &str = r#"
title = "memcg test"
seed = 5
[machine]
ram = "256MiB"
SWAP
[[devices]]
name = "ssd"
kind = "ssd"
[[variants]]
name = "v"
preset = "linux-6.3"
"#;

fn scenario(swap: bool, rest: &str) -> String {
    let swap = if swap {
        r#"swap = { device = "ssd", size = "512MiB" }"#
    } else {
        ""
    };
    HEAD.replace("SWAP", swap) + rest
}

#[test]
fn memory_max_reclaims_inside_the_memcg_only() {
    let r = run(&scenario(
        true,
        r#"
[[memcgs]]
name = "capped"
max = "16MiB"
[[memcgs]]
name = "other"
[[tasks]]
name = "big"
memcg = "capped"
program = [
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["a"], pattern = "random", count = 20000 },
]
[[tasks]]
name = "small"
memcg = "other"
program = [
  { op = "anon", name = "a", size = "8MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "5s" },
]
[run]
duration = "60s"
"#,
    ));
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
    let r = run(&scenario(
        false,
        r#"
[[memcgs]]
name = "tiny"
max = "4MiB"
[[memcgs]]
name = "other"
[[tasks]]
name = "hog"
memcg = "tiny"
program = [
  { op = "anon", name = "a", size = "8MiB" },
  { op = "touch", regions = ["a"], write = true },
]
[[tasks]]
name = "bigger"
memcg = "other"
program = [
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "1s" },
]
[run]
duration = "10s"
"#,
    ));
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
    let r = run(&scenario(
        true,
        r#"
[[memcgs]]
name = "protected"
min = "64MiB"
[[memcgs]]
name = "open"
[[tasks]]
name = "p{i}"
replicas = 1
memcg = "protected"
program = [
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "30s" },
]
[[tasks]]
name = "o"
memcg = "open"
program = [
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "sleep", duration = "30s" },
]
[[tasks]]
name = "reclaimer"
start = "1s"
program = [
  { op = "loop", count = 4, body = [
    { op = "memory_reclaim", memcg = "/", amount = "2MiB" },
    { op = "sleep", duration = "1s" },
  ] },
]
[run]
duration = "20s"
"#,
    ));
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
    let r = run(&scenario(
        true,
        r#"
[[memcgs]]
name = "soft"
high = "8MiB"
[[tasks]]
name = "t"
memcg = "soft"
program = [
  { op = "anon", name = "a", size = "16MiB" },
  { op = "touch", regions = ["a"], write = true },
]
[run]
duration = "60s"
"#,
    ));
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
        scenario(
            true,
            &format!(
                r#"
[[memcgs]]
name = "guarded"
low = "{low}"
[[tasks]]
name = "g"
memcg = "guarded"
program = [
  {{ op = "anon", name = "a", size = "16MiB" }},
  {{ op = "touch", regions = ["a"], write = true }},
  {{ op = "sleep", duration = "10s" }},
]
[[tasks]]
name = "reclaimer"
start = "1s"
program = [ {{ op = "memory_reclaim", memcg = "/", amount = "1MiB" }} ]
[run]
duration = "5s"
"#
            ),
        )
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
    let rest = r#"
[[memcgs]]
name = "capped"
max = "16MiB"
[[memcgs]]
name = "other"
[[tasks]]
name = "big"
memcg = "capped"
program = [
  { op = "anon", name = "a", size = "32MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "touch", regions = ["a"], pattern = "random", count = 20000 },
]
[[tasks]]
name = "small"
memcg = "other"
program = [
  { op = "anon", name = "a", size = "24MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "loop", count = 40, body = [
    { op = "touch", regions = ["a"], pattern = "random", count = 500 },
    { op = "sleep", duration = "100ms" },
  ] },
]
[[tasks]]
name = "reclaimer"
start = "1s"
program = [
  { op = "loop", count = 5, body = [
    { op = "memory_reclaim", memcg = "/", amount = "4MiB" },
    { op = "sleep", duration = "500ms" },
  ] },
]
[run]
duration = "10s"
"#;
    for preset in ["linux-6.1-mglru", "linux-6.3-mglru", "linux-6.14-mglru"] {
        let text = scenario(true, rest)
            .replace("preset = \"linux-6.3\"", &format!("preset = \"{preset}\""));
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
    let r = run(&scenario(
        false,
        r#"
[[files]]
name = "cold"
size = "24MiB"
device = "ssd"
[[files]]
name = "warm"
size = "16MiB"
device = "ssd"
[[memcgs]]
name = "guarded"
low = "64MiB"
[[memcgs]]
name = "hot"
[[tasks]]
name = "g"
memcg = "guarded"
program = [
  { op = "read", file = "cold", pattern = "seq" },
  { op = "sleep", duration = "10s" },
]
[[tasks]]
name = "h"
memcg = "hot"
program = [
  { op = "read", file = "warm", pattern = "seq" },
  { op = "read", file = "warm", pattern = "seq" },
  { op = "sleep", duration = "10s" },
]
[[tasks]]
name = "reclaimer"
start = "2s"
program = [ { op = "memory_reclaim", memcg = "/", amount = "1MiB" } ]
[run]
duration = "5s"
"#,
    ));
    let (g, h) = (memcg(&r, "guarded"), memcg(&r, "hot"));
    assert!(h.stat["pgsteal"] > 0, "hot gave nothing");
    assert_eq!(g.stat["pgsteal"], 0, "guarded was reclaimed");
    assert_eq!(g.events["low"], 0, "memory.low was breached");
}

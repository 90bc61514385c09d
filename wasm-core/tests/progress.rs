//! Guaranteed progress (issue #49): the scenario check refuses a loop bounded only by time
//! whose iteration may take no virtual time (`scenario::progress`), and the engine's own
//! progress guard (`sim::MAX_STALLED_EVENTS`) ends any run that stalls anyway, naming the task
//! and the op.
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRng, TestRunner};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

/// One op of a generated loop body, as TOML.
fn op() -> impl Strategy<Value = String> {
    let count = prop_oneof![
        Just(String::new()),
        (0u64..4).prop_map(|c| format!(", count = {c}")),
        Just(", count = 64".to_string()),
    ];
    let rate = prop_oneof![
        Just(String::new()),
        prop::sample::select(vec!["1e-9", "1", "1e6", "1e9", "4e9", "1e12", "1e300"])
            .prop_map(|r| format!(", rate = {r}")),
    ];
    let cpu = prop_oneof![
        Just(String::new()),
        prop::sample::select(vec!["0ns", "1ns", "3us"]).prop_map(|c| format!(", cpu = \"{c}\"")),
    ];
    let access = (
        prop::sample::select(vec![
            "op = \"touch\", regions = [\"a\"]",
            "op = \"touch\", regions = [\"b\"]",
            "op = \"touch\", regions = [\"a\", \"b\"]",
            "op = \"read\", file = \"f\"",
            "op = \"read\", file = \"f\", size = \"4KiB\"",
            "op = \"write\", file = \"f\"",
            "op = \"write\", file = \"f\", bytes = \"100B\"",
        ]),
        count,
        rate,
        cpu,
    )
        .prop_map(|(what, count, rate, cpu)| format!("{{ {what}{count}{rate}{cpu} }}"));
    let other = prop::sample::select(vec![
        "{ op = \"sleep\", duration = \"0ns\" }",
        "{ op = \"sleep\", duration = \"1ns\" }",
        "{ op = \"mark\", name = \"m\" }",
        "{ op = \"free\", name = \"b\" }",
        "{ op = \"anon\", name = \"b\", size = \"4KiB\" }",
    ])
    .prop_map(str::to_string);
    let leaf = prop_oneof![3 => access, 2 => other];
    leaf.prop_recursive(2, 6, 3, |inner| {
        (0u64..3, prop::collection::vec(inner, 1..3)).prop_map(|(count, body)| {
            format!(
                "{{ op = \"loop\", count = {count}, body = [ {} ] }}",
                body.join(", ")
            )
        })
    })
}

fn scenario(scale: u32, body: &[String]) -> String {
    format!(
        r#"title = "generated loop"
[machine]
ram = "64MiB"
frame_scale = {scale}

[[variants]]
name = "v"
preset = "linux-6.1"

[[devices]]
name = "d"
kind = "ssd"

[[files]]
name = "f"
size = "1MiB"
device = "d"

[[tasks]]
name = "t"
program = [
  {{ op = "anon", name = "a", size = "1MiB" }},
  {{ op = "anon", name = "b", size = "4KiB" }},
  {{ op = "touch", regions = ["a", "b"], write = true }},
  {{ op = "loop", duration = "20us", record = "rounds", body = [ {} ] }},
]

[run]
duration = "10ms"
"#,
        body.join(", ")
    )
}

/// Every loop the check accepts advances virtual time on every iteration when run; the
/// generated bodies are refused often enough, and accepted often enough, to show both sides.
#[test]
fn every_accepted_loop_advances_virtual_time() {
    let (accepted, refused) = (std::cell::Cell::new(0u32), std::cell::Cell::new(0u32));
    // Accepted loops that finished an iteration within the run (a slow one may not).
    let iterated = std::cell::Cell::new(0u32);
    // A fixed seed: the closing counts of accepted and refused bodies must not depend on luck.
    let config = Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(config.rng_algorithm);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let strategy = (
        prop::sample::select(vec![1u32, 4, 64]),
        prop::collection::vec(op(), 1..4),
    );
    runner
        .run(&strategy, |(scale, body)| {
            let text = scenario(scale, &body);
            let scn = match parse(&text) {
                Ok(scn) => scn,
                Err(e) => {
                    refused.set(refused.get() + 1);
                    prop_assert!(
                        e.message.contains("virtual time") || e.message.contains("count"),
                        "{e}\n{text}"
                    );
                    return Ok(());
                }
            };
            accepted.set(accepted.get() + 1);
            let mut sim = Simulation::new(&scn, "v").map_err(TestCaseError::fail)?;
            // A stalled loop ends at once rather than after 2^26 iterations.
            sim.set_stall_limit(10_000);
            let report = sim.run_to_end();
            prop_assert!(sim.error().is_none(), "{:?}\n{text}", sim.error());
            let rounds = report.tasks[0].rounds_s.clone().unwrap_or_default();
            if !rounds.is_empty() {
                iterated.set(iterated.get() + 1);
            }
            prop_assert!(
                rounds.iter().all(|&r| r > 0.0),
                "an iteration took no virtual time: {rounds:?}\n{text}"
            );
            Ok(())
        })
        .unwrap();
    let (accepted, refused, iterated) = (accepted.get(), refused.get(), iterated.get());
    println!("{accepted} loops accepted and run ({iterated} iterated), {refused} refused");
    assert!(
        iterated >= 40 && refused >= 40,
        "{accepted} accepted ({iterated} iterated), {refused} refused"
    );
}

/// The engine's guard, whatever the check: a valid scenario that stalls at one instant (five
/// tasks with a counted loop that each fit the budget) ends with the guard's error, naming
/// the task and the op.
#[test]
fn the_progress_guard_ends_a_run_stalled_in_loop_iterations() {
    let scn = parse(include_str!("hostile/stall-tasks.toml")).unwrap();
    let mut sim = Simulation::new(&scn, "v").unwrap();
    let e = sim.try_run_to_end().unwrap_err().to_string();
    assert!(
        e.contains("MAX_STALLED_EVENTS")
            && e.contains("67108864 consecutive events")
            && e.contains("task \"t4\", op tasks[4].program[2] (loop)"),
        "{e}"
    );
    assert!(sim.finished());
    // The run stopped there: nothing ran past the instant.
    assert_eq!(sim.now_ns(), 0);
}

/// Events dispatched at one instant count too: a loop of zero-length sleeps parks the task
/// and wakes it at the same instant, over and over.
#[test]
fn the_progress_guard_counts_events_at_one_instant() {
    let text = r#"title = "sleeps of 0 ns"
[machine]
ram = "64MiB"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "sleeper"
program = [
  { op = "sleep", duration = "1ms" },
  { op = "loop", count = 100000, body = [ { op = "sleep", duration = "0ns" } ] },
]
[run]
duration = "1s"
"#;
    let scn = parse(text).unwrap();
    let mut sim = Simulation::new(&scn, "v").unwrap();
    assert!(sim.try_run_to_end().is_ok(), "{:?}", sim.error());
    assert!(sim.longest_stall() >= 100_000, "{}", sim.longest_stall());
    let mut sim = Simulation::new(&scn, "v").unwrap();
    sim.set_stall_limit(1000);
    let e = sim.try_run_to_end().unwrap_err().to_string();
    assert!(
        e.contains("at 0.001 s") && e.contains("task \"sleeper\", op tasks[0].program[1]"),
        "{e}"
    );
}

static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A clock that advances 10 ms each time it is read.
fn ticking_clock() -> std::time::Duration {
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::time::Duration::from_millis(10 * n)
}

/// The CPU limit reads the caller's clock, at bounded intervals, and ends the run with an
/// error naming the limit.
#[test]
fn the_cpu_limit_ends_a_run_once_the_clock_passes_it() {
    let scn = parse(include_str!("../../scenarios/s000-thrash.toml")).unwrap();
    let name = scn.variants[0].name.clone();
    let mut sim = Simulation::new(&scn, &name).unwrap();
    sim.set_cpu_limit(reclaim_core::sim::CpuLimit {
        max: std::time::Duration::from_millis(50),
        clock: ticking_clock,
    });
    let e = sim.try_run_to_end().unwrap_err();
    assert!(
        matches!(&e, reclaim_core::sim::RunError::CpuLimit(m) if m.contains("CPU time limit of 0.05 s")),
        "{e:?}"
    );
    let reads = CALLS.load(std::sync::atomic::Ordering::Relaxed);
    // Read when the limit was set (0 ms), then at 10, 20, ... 60 ms: past 50 ms, stop.
    assert_eq!(reads, 7, "readings of the clock");
    assert!(sim.finished());
}

/// A loop inside a loop that never runs (`count = 0`) is judged like any other: one whose
/// iterations take time is accepted, one that may stall is refused naming why.
#[test]
fn loops_inside_a_loop_of_count_0_are_judged_too() {
    let inner = |op: &str| {
        format!("{{ op = \"loop\", count = 0, body = [ {{ op = \"loop\", duration = \"1ms\", body = [ {op} ] }} ] }}")
    };
    // The outer loop of `scenario` needs time of its own: a sleep beside the loop that never runs.
    let sleep = "{ op = \"sleep\", duration = \"1us\" }".to_string();
    let ok = scenario(
        1,
        &[
            inner("{ op = \"sleep\", duration = \"1us\" }"),
            sleep.clone(),
        ],
    );
    parse(&ok).unwrap_or_else(|e| panic!("{e}\n{ok}"));
    let stalls = scenario(
        1,
        &[
            inner("{ op = \"touch\", regions = [\"a\"], count = 0 }"),
            sleep,
        ],
    );
    let e = parse(&stalls).unwrap_err();
    assert!(e.message.contains("makes no access (count = 0)"), "{e}");
}

//! `[[expect]]` checks: parsed and validated with the scenario, evaluated by the core over the
//! reports, printed by `reclaim compare`; every seed scenario's expectations carry checks.
#[path = "../../tests/common/mod.rs"]
mod common;
use reclaim_core::report::{assess, RunReport, TaskReport};
use reclaim_core::scenario::parse;
use std::collections::BTreeMap;
use std::process::Command;

const BASE: &str = r#"title = "expect test"

[machine]
ram = "32MiB"

[[variants]]
name = "before"
preset = "linux-5.7"

[[variants]]
name = "after"
preset = "linux-5.8"

[[tasks]]
name = "t"
program = [
  { op = "anon", name = "a", size = "8MiB" },
  { op = "loop", count = 3, record = "rounds", body = [
    { op = "touch", regions = ["a"], write = true },
  ] },
]

[run]
duration = "4s"
"#;

fn with(expect: &str) -> String {
    format!("{BASE}\n{expect}")
}

fn report(variant: &str, counters: &[(&str, u64)], ops: Option<f64>) -> RunReport {
    let measured: BTreeMap<String, u64> =
        counters.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    RunReport {
        scenario: "s".into(),
        variant: variant.into(),
        preset: "p".into(),
        swappiness: 60,
        virtual_s: 1.0,
        counters: measured.clone(),
        measured,
        tasks: vec![TaskReport {
            name: "t".into(),
            rounds_s: Some(vec![4.0, 2.0, 1.0, 1.0, 1.0, 1.0]),
            ops_per_s: ops,
            latency_ms: None,
            alloc_stall_ms: None,
            io_wait_ms: None,
            dirty_throttle_ms: None,
            major_faults: 0,
            killed: false,
        }],
        oom_kills: vec![],
        memcgs: vec![],
        reclaim_requested_pages: None,
        reclaim_reclaimed_pages: None,
    }
}

#[test]
fn checks_are_evaluated_as_ratios_and_bounds() {
    let scn = parse(&with(
        r#"[[expect]]
text = "swap-outs at least triple"
checks = [{ metric = "pswpout", variant = "after", over = "before", min = 3.0 }]
[[expect]]
text = "swap traffic not higher"
checks = [{ metric = "pswpin + pswpout", variant = "after", over = "before", max = 1.0 }]
[[expect]]
text = "the end is 4x faster than round 0, and before stays under 10 ops/s"
checks = [
  { metric = "task.t.first_over_last5_median", min = 4.0 },
  { metric = "task.t.ops_per_s", variant = "before", below = 10.0 },
]
[[expect]]
text = "words only"
"#,
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let reports = [
        report("before", &[("pswpout", 100), ("pswpin", 50)], Some(12.0)),
        report("after", &[("pswpout", 299), ("pswpin", 0)], Some(1.0)),
    ];
    let a = assess(&scn, &reports);
    let v = &a.verdicts;
    assert_eq!(v.len(), 4);
    // 299 / 100 = 2.99 < 3: not met, and the figure says why.
    assert_eq!(v[0].met, Some(false));
    assert_eq!(v[0].checks[0].figure, Some(2.99));
    assert_eq!(
        (v[0].checks[0].value, v[0].checks[0].base),
        (Some(299.0), Some(100.0))
    );
    // (0 + 299) / (50 + 100) = 1.99 > 1: a sum of counters, not met.
    assert_eq!(v[1].met, Some(false));
    assert!((v[1].checks[0].figure.unwrap() - 299.0 / 150.0).abs() < 1e-12);
    // round 0 (4 s) over the median of the last five (1 s) = 4 >= 4 (default variant: the last);
    // but before's 12 ops/s is not below 10: the expectation is not met.
    assert_eq!(v[2].checks[0].variant, "after");
    assert!(v[2].checks[0].met);
    assert!(!v[2].checks[1].met);
    assert_eq!(v[2].met, Some(false));
    assert_eq!(v[3].met, None);
    // Without the before report the ratio cannot be computed: not met, no figure.
    let a = assess(&scn, &reports[1..]);
    assert_eq!(
        (a.verdicts[0].met, a.verdicts[0].checks[0].figure),
        (Some(false), None)
    );
}

#[test]
fn a_bad_check_is_reported_at_its_field() {
    for (check, field, words) in [
        (
            r#"{ metric = "pswpouts", min = 1.0 }"#,
            "expect[0].checks[0].metric",
            "unknown metric 'pswpouts'",
        ),
        (
            r#"{ metric = "task.nope.ops_per_s", min = 1.0 }"#,
            "expect[0].checks[0].metric",
            "no task named 'nope'",
        ),
        (
            r#"{ metric = "task.t.speed", min = 1.0 }"#,
            "expect[0].checks[0].metric",
            "unknown task field 'speed'",
        ),
        (
            r#"{ metric = "pswpout", over = "middle", min = 1.0 }"#,
            "expect[0].checks[0].over",
            "no variant named 'middle'",
        ),
        (
            r#"{ metric = "pswpout" }"#,
            "expect[0].checks[0].metric",
            "a check needs a bound",
        ),
    ] {
        let text = with(&format!("[[expect]]\ntext = \"x\"\nchecks = [{check}]\n"));
        let e = parse(&text)
            .err()
            .unwrap_or_else(|| panic!("{check} must be refused"));
        assert_eq!(e.field, field, "{e}");
        assert!(e.to_string().contains(words), "{words:?} missing from: {e}");
        assert_eq!(
            e.line,
            text.lines().position(|l| l.starts_with("checks")).unwrap() + 1,
            "{e}"
        );
    }
}

#[test]
fn every_seed_expectation_has_a_check() {
    for file in [
        "s000-thrash.toml",
        "s001-used-once.toml",
        "s001b-worst-case.toml",
        "s002-kswapd-writeback.toml",
        "s003-memcg-lru.toml",
        "s003b-noreuse.toml",
        "s003b-recency.toml",
        "s004-pgbench.toml",
        "s004b-parallelio.toml",
    ] {
        let scn = common::load(file);
        assert!(!scn.expect.is_empty(), "{file}");
        for e in &scn.expect {
            assert!(!e.checks.is_empty(), "{file}: '{}' has no checks", e.text);
        }
    }
}

#[test]
fn reclaim_compare_prints_the_cores_verdicts() {
    let text = with(
        r#"[[expect]]
text = "virtual time is the run's"
checks = [{ metric = "virtual_s", above = 0.0, max = 4.0 }]
[[expect]]
text = "no swap-out at all before"
checks = [{ metric = "pswpout", variant = "before", above = 1e12 }]
"#,
    );
    let path = std::env::temp_dir().join(format!("reclaim-expect-{}.toml", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_reclaim"))
        .args(["compare", path.to_str().unwrap()])
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The verdicts the core gives for the same reports.
    let scn = parse(&text).unwrap();
    let reports: Vec<RunReport> = scn
        .variants
        .iter()
        .map(|v| common::run(&scn, &v.name))
        .collect();
    let a = assess(&scn, &reports);
    assert_eq!(a.verdicts[0].met, Some(true));
    assert_eq!(a.verdicts[1].met, Some(false));
    assert!(
        stdout.contains("[met]     virtual time is the run's"),
        "{stdout}"
    );
    assert!(
        stdout.contains("[NOT met] no swap-out at all before"),
        "{stdout}"
    );
    assert!(
        stdout.contains("virtual_s (after) > 0 and <= 4"),
        "{stdout}"
    );
}

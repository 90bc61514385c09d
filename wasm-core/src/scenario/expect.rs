//! Machine-checkable expectations: an `[[expect]]` may carry `checks`, each a comparison of one
//! metric of the reports against a bound, for one variant or as a ratio between two.
//!
//! ```toml
//! [[expect]]
//! text = "tps rises >= 15%"
//! checks = [{ metric = "task.pgbench.ops_per_s", variant = "after", over = "before", min = 1.15 }]
//! ```
//!
//! - `metric`: a counter of the measured window (`pswpout`), a task's figure
//!   (`task.NAME.FIELD`, FIELD one of `TASK_FIELDS`), a run-wide figure (`RUN_METRICS`), or a
//!   sum of those joined by ` + ` (`pswpin + pswpout`).
//! - `variant`: whose figure (default: the last variant).
//! - `over`: another variant: the figure is variant / over (a ratio; "after over before").
//! - bounds, at least one: `min`, `max` (inclusive), `above`, `below` (strict).
//!
//! The expectation is met when every check is. The engine evaluates them (`report::assess`)
//! for `reclaim compare` and the page alike.
use serde::{Deserialize, Serialize};

use crate::mm::vmstat::COUNTER_NAMES;

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, ts_rs::TS)]
#[serde(deny_unknown_fields)]
pub struct Check {
    pub metric: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub above: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub below: Option<f64>,
}

/// Per-task figures (`task.NAME.FIELD`). Tasks with `clients` are one task under their name.
pub const TASK_FIELDS: &[(&str, &str)] = &[
    (
        "ops_per_s",
        "operations per second (loops with record = \"ops\")",
    ),
    (
        "rounds_mean_s",
        "mean round time, seconds (loops with record = \"rounds\")",
    ),
    ("rounds_total_s", "sum of the round times, seconds"),
    (
        "rounds_per_s",
        "rounds per second of round time (number of rounds / their sum)",
    ),
    ("rounds_max_over_first", "the slowest round over round 0"),
    (
        "first_over_last5_median",
        "round 0 over the median of the last 5 rounds (how much faster the end is)",
    ),
    ("latency_p50_ms", "op latency p50, ms"),
    ("latency_p95_ms", "op latency p95, ms"),
    ("latency_p99_ms", "op latency p99, ms"),
    (
        "alloc_stall_p95_ms",
        "direct reclaim stall per stalled allocation, p95, ms",
    ),
    ("io_wait_p95_ms", "IO wait per waiting access, p95, ms"),
    ("major_faults", "major faults"),
];

/// Run-wide figures, computed once in the core (`report::run_metric`).
pub const RUN_METRICS: &[(&str, &str)] = &[
    (
        "total_ops_per_s",
        "sum of every task's operations per second (total IOPS, total tps)",
    ),
    (
        "memcg_pgsteal_spread_pct",
        "stddev/mean of pgsteal over the leaf memcgs, %",
    ),
    (
        "reclaim_accuracy_pct",
        "sum of the leaf memcgs' pgsteal over the pages asked of memory.reclaim, %",
    ),
    (
        "direct_reclaim_efficiency_pct",
        "pgsteal_direct / pgscan_direct, %",
    ),
    ("virtual_s", "virtual seconds simulated"),
];

/// Figures of the run at a lesson step's time, for the facts a caption claims (`[[lesson]]
/// facts`; not in `[[expect]]`, which is over whole runs): list sizes (`list.NAME`, pages), how
/// often get_scan_count chose a balance (`balance.SCAN_FRACT`), whether its last call, the one
/// the balance view shows, chose a balance (`balance.last.SCAN_FILE`, 1 or 0) and had a reason
/// (`balance.reason.CODE`, 1 or 0; codes as the balance view reports them), and a trace
/// replay's figures (`replay.misses`, [`LIVE_REPLAY`]).
pub const LIVE_LISTS: &[&str] = &[
    "inactive_anon",
    "active_anon",
    "inactive_file",
    "active_file",
    "free",
];
/// A trace replay's figures so far (`replay.NAME`, summed over the replaying tasks): its
/// requests and the kernel's misses among them, and, for the replays with `reference`, what
/// plain LRU and OPT of the same size missed of the same requests, and the differences against
/// the kernel's misses of those requests alone (LRU's misses minus the kernel's: what the
/// kernel saved over LRU, negative where it lost; the kernel's minus OPT's: what it lost to
/// the optimum). Differences, so that a fact since an earlier time
/// (`facts_since`) is the window's.
pub const LIVE_REPLAY: &[&str] = &[
    "requests",
    "misses",
    "lru_misses",
    "opt_misses",
    "lru_minus_misses",
    "misses_minus_opt",
];
pub const LIVE_BALANCES: &[&str] = &["SCAN_EQUAL", "SCAN_FRACT", "SCAN_FILE", "SCAN_ANON"];
pub const LIVE_REASONS: &[&str] = &[
    "may_not_swap",
    "no_swap",
    "priority_zero",
    "file_is_tiny",
    "file_below_high",
    "cache_trim",
    "plenty_inactive_file",
    "swappiness_zero",
    "swappiness_max",
    "fraction",
];

/// One term of a metric.
#[derive(Debug, Clone, PartialEq)]
pub enum Term<'m> {
    Counter(&'m str),
    Task(&'m str, &'m str),
    Run(&'m str),
    /// `list.*` and `balance.*`: the run at a lesson step's time.
    Live(&'m str),
}

/// The terms of a metric, or what is wrong with it.
pub fn terms(metric: &str) -> Result<Vec<Term<'_>>, String> {
    metric.split(" + ").map(|t| term(t.trim())).collect()
}

fn term(t: &str) -> Result<Term<'_>, String> {
    let live = t
        .strip_prefix("list.")
        .is_some_and(|l| LIVE_LISTS.contains(&l))
        || t.strip_prefix("balance.")
            .is_some_and(|b| LIVE_BALANCES.contains(&b))
        || t.strip_prefix("balance.last.")
            .is_some_and(|b| LIVE_BALANCES.contains(&b))
        || t.strip_prefix("balance.reason.")
            .is_some_and(|r| LIVE_REASONS.contains(&r))
        || t.strip_prefix("replay.")
            .is_some_and(|r| LIVE_REPLAY.contains(&r));
    if live {
        return Ok(Term::Live(t));
    }
    if t.starts_with("list.") || t.starts_with("balance.") || t.starts_with("replay.") {
        return Err(format!(
            "unknown live figure '{t}': list.{{{}}}, balance.{{{}}}, balance.last.{{{}}}, balance.reason.{{{}}} or replay.{{{}}}",
            LIVE_LISTS.join(","),
            LIVE_BALANCES.join(","),
            LIVE_BALANCES.join(","),
            LIVE_REASONS.join(","),
            LIVE_REPLAY.join(",")
        ));
    }
    if let Some(rest) = t.strip_prefix("task.") {
        let Some((task, field)) = rest.rsplit_once('.') else {
            return Err(format!("'{t}' must be task.NAME.FIELD"));
        };
        if !TASK_FIELDS.iter().any(|(f, _)| *f == field) {
            let all: Vec<&str> = TASK_FIELDS.iter().map(|(f, _)| *f).collect();
            return Err(format!(
                "unknown task field '{field}' in '{t}', expected one of {}",
                all.join(", ")
            ));
        }
        return Ok(Term::Task(task, field));
    }
    if RUN_METRICS.iter().any(|(m, _)| *m == t) {
        return Ok(Term::Run(t));
    }
    if COUNTER_NAMES.contains(&t) {
        return Ok(Term::Counter(t));
    }
    let run: Vec<&str> = RUN_METRICS.iter().map(|(m, _)| *m).collect();
    Err(format!(
        "unknown metric '{t}': a counter name (e.g. pswpout), task.NAME.FIELD, or one of {}",
        run.join(", ")
    ))
}

/// Check the expectations and the lesson facts against the scenario's variants and tasks:
/// (path, message).
pub fn check(
    expect: &[super::Expectation],
    lesson: &[super::LessonStep],
    variants: &[&str],
    tasks: &[&str],
) -> Result<(), (String, String)> {
    let groups = expect
        .iter()
        .enumerate()
        .map(|(i, e)| (format!("expect[{i}].checks"), &e.checks, false))
        .chain(
            lesson
                .iter()
                .enumerate()
                .map(|(i, s)| (format!("lesson[{i}].facts"), &s.facts, true)),
        );
    for (at, checks, live_ok) in groups {
        for (j, c) in checks.iter().enumerate() {
            let path = |f: &str| format!("{at}[{j}].{f}");
            let ts = terms(&c.metric).map_err(|m| (path("metric"), m))?;
            for t in ts {
                if let (Term::Live(l), false) = (&t, live_ok) {
                    return Err((path("metric"), format!("'{l}' is a figure at a lesson step's time: use it in [[lesson]] facts, not in [[expect]]")));
                }
                if let Term::Task(name, _) = t {
                    // Replicated specs ("fio{i}") name their tasks at build time.
                    if !tasks.contains(&name) && !tasks.iter().any(|t| t.contains("{i}")) {
                        return Err((
                            path("metric"),
                            format!("no task named '{name}' (tasks: {})", tasks.join(", ")),
                        ));
                    }
                }
            }
            for (field, v) in [("variant", &c.variant), ("over", &c.over)] {
                if let Some(v) = v {
                    if !variants.contains(&v.as_str()) {
                        return Err((
                            path(field),
                            format!("no variant named '{v}' (variants: {})", variants.join(", ")),
                        ));
                    }
                }
            }
            let bounds = [c.min, c.max, c.above, c.below];
            if bounds.iter().all(Option::is_none) {
                return Err((
                    path("metric"),
                    "a check needs a bound: min, max, above or below".into(),
                ));
            }
            if bounds.iter().flatten().any(|b| !b.is_finite()) {
                return Err((path("metric"), "bounds must be finite numbers".into()));
            }
        }
    }
    Ok(())
}

impl Check {
    /// The condition in words: `after / before of task.pgbench.ops_per_s >= 1.15`.
    pub fn describe(&self, default_variant: &str) -> String {
        let v = self.variant.as_deref().unwrap_or(default_variant);
        let subject = match &self.over {
            Some(o) => format!("{} ({v} / {o})", self.metric),
            None => format!("{} ({v})", self.metric),
        };
        let mut b = Vec::new();
        if let Some(x) = self.min {
            b.push(format!(">= {x}"));
        }
        if let Some(x) = self.above {
            b.push(format!("> {x}"));
        }
        if let Some(x) = self.max {
            b.push(format!("<= {x}"));
        }
        if let Some(x) = self.below {
            b.push(format!("< {x}"));
        }
        format!("{subject} {}", b.join(" and "))
    }

    /// Whether `figure` lies within the bounds.
    pub fn holds(&self, figure: f64) -> bool {
        self.min.is_none_or(|b| figure >= b)
            && self.max.is_none_or(|b| figure <= b)
            && self.above.is_none_or(|b| figure > b)
            && self.below.is_none_or(|b| figure < b)
    }
}

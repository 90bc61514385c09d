//! What a run reports: the stable JSON contract of `reclaim run --json` (documented in docs/cli.md).
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub mod table;
pub use table::{results_table, ResultRow, RESULT_COUNTERS};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct RunReport {
    /// Scenario title.
    pub scenario: String,
    /// Variant name (e.g. "before").
    pub variant: String,
    /// Kernel preset of the variant.
    pub preset: String,
    /// The swappiness the kernel really ran with (a capped kernel refuses larger values).
    pub swappiness: u32,
    /// Virtual seconds simulated.
    pub virtual_s: f64,
    /// /proc/vmstat names to page counts, over the whole run.
    pub counters: BTreeMap<String, u64>,
    /// The same counters measured from `run.measure_from` (equal to `counters` without it).
    pub measured: BTreeMap<String, u64>,
    pub tasks: Vec<TaskReport>,
    /// OOM kills: task and virtual time.
    pub oom_kills: Vec<OomKill>,
    /// Scenarios with `[[memcgs]]`: every memcg, the root ("/") first, in creation order.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    #[ts(type = "Array<MemcgReport>", optional)]
    pub memcgs: Vec<MemcgReport>,
    /// Pages asked of memory.reclaim (all writes, all memcgs), where it was written.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[ts(optional)]
    pub reclaim_requested_pages: Option<u64>,
    /// Pages those writes reclaimed (as the kernel's loop counted them).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    #[ts(optional)]
    pub reclaim_reclaimed_pages: Option<u64>,
}

/// One memcg: memory.stat counters (hierarchical, pages; `pgscan` and `pgsteal` are the
/// kswapd + direct sums as in memory.stat) flattened into the object, usage and memory.events.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
#[ts(rename = "MemcgReportFields")]
pub struct MemcgReport {
    pub name: String,
    /// The parent's name; None for the root.
    pub parent: Option<String>,
    /// memory.current at the end, pages.
    pub current_pages: u64,
    /// memory.events (hierarchical): low, high, max, oom, oom_kill.
    pub events: BTreeMap<String, u64>,
    /// memory.stat counters as further keys of the object. The generated TypeScript type
    /// `MemcgReport` adds them as an index signature (`views::typescript`).
    #[serde(flatten)]
    #[ts(skip)]
    pub stat: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct TaskReport {
    pub name: String,
    /// Per-round wall times in virtual seconds (loops with record = "rounds").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rounds_s: Option<Vec<f64>>,
    /// Operations per virtual second (loops with record = "ops").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ops_per_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub latency_ms: Option<Percentiles>,
    /// Time stalled in direct reclaim, per allocation that stalled.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub alloc_stall_ms: Option<Percentiles>,
    /// Time waiting for IO (major faults, read misses, pages locked for IO), per page access
    /// that waited.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub io_wait_ms: Option<Percentiles>,
    /// Time a write was paused by dirty throttling (`balance_dirty_pages`), per page write
    /// that was paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub dirty_throttle_ms: Option<Percentiles>,
    pub major_faults: u64,
    pub killed: bool,
}

// Deserialize: `reclaim kernel`'s guest sends these to the host.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct Percentiles {
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub mean: f64,
    pub count: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct OomKill {
    pub task: String,
    pub time_s: f64,
    pub freed_pages: u64,
}

/// `reclaim compare --json`: the reports, and the headline rows and `[[expect]]` verdicts the
/// text form prints under its table (`assess`).
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    pub variants: Vec<RunReport>,
    #[serde(flatten)]
    pub assessment: Assessment,
}

impl CompareReport {
    pub fn new(scenario: &crate::scenario::Scenario, variants: Vec<RunReport>) -> CompareReport {
        let assessment = assess(scenario, &variants);
        CompareReport {
            variants,
            assessment,
        }
    }
}

// ---- derived figures and expectation verdicts (computed once here, for the CLI and the page)

/// The leaf memcgs (no children; not the root) of a report.
fn leaf_memcgs(report: &RunReport) -> Vec<&MemcgReport> {
    report
        .memcgs
        .iter()
        .filter(|m| m.parent.is_some())
        .filter(|m| {
            !report
                .memcgs
                .iter()
                .any(|c| c.parent.as_ref() == Some(&m.name))
        })
        .collect()
}

/// Seed 003's fairness: population stddev(pgsteal) / mean(pgsteal) over the leaf memcgs, in
/// percent (None without memcgs or when nothing was stolen).
pub fn memcg_pgsteal_spread(report: &RunReport) -> Option<f64> {
    let v: Vec<u64> = leaf_memcgs(report)
        .iter()
        .map(|m| *m.stat.get("pgsteal").unwrap_or(&0))
        .collect();
    spread_pct(&v)
}

/// Population stddev / mean of `v`, in percent: S003's fairness of pgsteal over the leaf
/// memcgs (for the report and the live memcg view). None with fewer than two values or a zero
/// mean.
pub fn spread_pct(v: &[u64]) -> Option<f64> {
    if v.len() < 2 {
        return None;
    }
    let v: Vec<f64> = v.iter().map(|&x| x as f64).collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    if mean <= 0.0 {
        return None;
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
    Some(var.sqrt() * 100.0 / mean)
}

/// Seed 003's accuracy: sum of the leaf memcgs' pgsteal over the pages asked of
/// memory.reclaim, in percent (None where memory.reclaim was not written).
pub fn reclaim_accuracy(report: &RunReport) -> Option<f64> {
    let stolen: u64 = leaf_memcgs(report)
        .iter()
        .map(|m| *m.stat.get("pgsteal").unwrap_or(&0))
        .sum();
    accuracy_pct(stolen, report.reclaim_requested_pages?)
}

/// Pages stolen over pages asked of memory.reclaim, in percent: S003's accuracy (for the
/// report and the live memcg view). None before any page was asked.
pub fn accuracy_pct(stolen: u64, requested: u64) -> Option<f64> {
    (requested > 0).then(|| stolen as f64 * 100.0 / requested as f64)
}

/// A run-wide figure (`scenario::expect::RUN_METRICS`).
pub fn run_metric(report: &RunReport, name: &str) -> Option<f64> {
    match name {
        "total_ops_per_s" => {
            let ops: Vec<f64> = report.tasks.iter().filter_map(|t| t.ops_per_s).collect();
            (!ops.is_empty()).then(|| ops.iter().sum())
        }
        "memcg_pgsteal_spread_pct" => memcg_pgsteal_spread(report),
        "reclaim_accuracy_pct" => reclaim_accuracy(report),
        "direct_reclaim_efficiency_pct" => {
            let scan = *report.measured.get("pgscan_direct")?;
            let steal = *report.measured.get("pgsteal_direct")?;
            (scan > 0).then(|| steal as f64 * 100.0 / scan as f64)
        }
        "virtual_s" => Some(report.virtual_s),
        _ => None,
    }
}

/// A task's figure (`scenario::expect::TASK_FIELDS`).
pub fn task_metric(report: &RunReport, task: &str, field: &str) -> Option<f64> {
    let t = report.tasks.iter().find(|t| t.name == task)?;
    let rounds = t.rounds_s.as_deref().filter(|r| !r.is_empty());
    let sum = |r: &[f64]| r.iter().sum::<f64>();
    match field {
        "ops_per_s" => t.ops_per_s,
        "rounds_mean_s" => rounds.map(|r| sum(r) / r.len() as f64),
        "rounds_total_s" => rounds.map(sum),
        "rounds_per_s" => rounds
            .filter(|r| sum(r) > 0.0)
            .map(|r| r.len() as f64 / sum(r)),
        "rounds_max_over_first" => rounds
            .filter(|r| r[0] > 0.0)
            .map(|r| r.iter().cloned().fold(0.0, f64::max) / r[0]),
        "first_over_last5_median" => rounds.filter(|r| r.len() >= 5).and_then(|r| {
            let mut last: Vec<f64> = r[r.len() - 5..].to_vec();
            last.sort_by(|a, b| a.total_cmp(b));
            (last[2] > 0.0).then(|| r[0] / last[2])
        }),
        "latency_p50_ms" => t.latency_ms.map(|p| p.p50),
        "latency_p95_ms" => t.latency_ms.map(|p| p.p95),
        "latency_p99_ms" => t.latency_ms.map(|p| p.p99),
        "alloc_stall_p95_ms" => t.alloc_stall_ms.map(|p| p.p95),
        "io_wait_p95_ms" => t.io_wait_ms.map(|p| p.p95),
        "major_faults" => Some(t.major_faults as f64),
        _ => None,
    }
}

/// A metric of one report: the sum of its terms (None if any term is missing).
pub fn metric(report: &RunReport, metric: &str) -> Option<f64> {
    use crate::scenario::expect::{terms, Term};
    let mut total = 0.0;
    for t in terms(metric).ok()? {
        total += match t {
            Term::Counter(c) => *report.measured.get(c).unwrap_or(&0) as f64,
            Term::Task(task, field) => task_metric(report, task, field)?,
            Term::Run(name) => run_metric(report, name)?,
            Term::Live(_) => return None, // a lesson step's figure, not a whole run's
        };
    }
    Some(total)
}

/// A headline row: a run-wide figure of every variant, shown first.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct HeadlineRow {
    pub metric: String,
    pub label: String,
    pub values: Vec<Option<f64>>,
}

/// The run-wide figures any of the reports has, in a fixed order.
pub fn headline_rows(reports: &[RunReport]) -> Vec<HeadlineRow> {
    const ROWS: &[(&str, &str)] = &[
        (
            "direct_reclaim_efficiency_pct",
            "direct reclaim efficiency (%)",
        ),
        (
            "memcg_pgsteal_spread_pct",
            "stddev/mean pgsteal, leaf memcgs (%)",
        ),
        ("reclaim_accuracy_pct", "sum(pgsteal)/sum(requested) (%)"),
        ("total_ops_per_s", "total ops/s, every task"),
    ];
    let ops_tasks = |r: &RunReport| r.tasks.iter().filter(|t| t.ops_per_s.is_some()).count();
    ROWS.iter()
        // A total of ops/s only where several tasks report ops (S003b's fio jobs, S004b).
        .filter(|(m, _)| *m != "total_ops_per_s" || reports.iter().any(|r| ops_tasks(r) > 1))
        .map(|(m, label)| HeadlineRow {
            metric: m.to_string(),
            label: label.to_string(),
            values: reports.iter().map(|r| run_metric(r, m)).collect(),
        })
        .filter(|r| r.values.iter().any(Option::is_some))
        .collect()
}

/// One check evaluated: the figure (a value, or a ratio of two variants) and whether it holds.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct CheckVerdict {
    /// The condition in words.
    pub condition: String,
    pub variant: String,
    pub value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub over: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub base: Option<f64>,
    /// The compared figure: `value`, or `value / base`; None when it could not be computed.
    pub figure: Option<f64>,
    pub met: bool,
}

/// One `[[expect]]` with its verdict: None without checks, else whether every check holds.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct Verdict {
    pub text: String,
    pub met: Option<bool>,
    pub checks: Vec<CheckVerdict>,
}

/// What the reports say about the scenario's question: headline rows and verdicts.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct Assessment {
    pub headline: Vec<HeadlineRow>,
    pub verdicts: Vec<Verdict>,
}

/// Evaluate the scenario's expectations over its variants' reports (`reports[i]` ran
/// `variants[i]`; a variant without a report makes its checks unmet).
pub fn assess(scenario: &crate::scenario::Scenario, reports: &[RunReport]) -> Assessment {
    let last = scenario
        .variants
        .last()
        .map(|v| v.name.as_str())
        .unwrap_or("");
    let of = |v: &str| reports.iter().find(|r| r.variant == v);
    let verdicts = scenario
        .expect
        .iter()
        .map(|e| {
            let checks: Vec<CheckVerdict> = e
                .checks
                .iter()
                .map(|c| {
                    let variant = c.variant.clone().unwrap_or_else(|| last.to_string());
                    let value = of(&variant).and_then(|r| metric(r, &c.metric));
                    let base = c
                        .over
                        .as_deref()
                        .and_then(|o| of(o))
                        .and_then(|r| metric(r, &c.metric));
                    let figure = match &c.over {
                        None => value,
                        Some(_) => match (value, base) {
                            (Some(v), Some(b)) if b != 0.0 => Some(v / b),
                            _ => None,
                        },
                    };
                    CheckVerdict {
                        condition: c.describe(last),
                        variant,
                        value,
                        over: c.over.clone(),
                        base,
                        figure,
                        met: figure.is_some_and(|f| c.holds(f)),
                    }
                })
                .collect();
            Verdict {
                text: e.text.clone(),
                met: (!checks.is_empty()).then(|| checks.iter().all(|c| c.met)),
                checks,
            }
        })
        .collect();
    Assessment {
        headline: headline_rows(reports),
        verdicts,
    }
}

/// The verdicts as text, for `reclaim compare`.
pub fn verdicts_text(a: &Assessment) -> String {
    let num = |v: Option<f64>| match v {
        Some(x) if x.abs() >= 100.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.3}"),
        None => "n/a".to_string(),
    };
    let mut out = String::from("\nExpectations (scenario [[expect]], checked by the engine):\n");
    for v in &a.verdicts {
        let tag = match v.met {
            Some(true) => "[met]    ",
            Some(false) => "[NOT met]",
            None => "[no check]",
        };
        out.push_str(&format!("  {tag} {}\n", v.text));
        for c in &v.checks {
            let figure = match (&c.over, c.base) {
                (Some(o), _) => format!(
                    "{} / {} = {} / {} = {}",
                    c.variant,
                    o,
                    num(c.value),
                    num(c.base),
                    num(c.figure)
                ),
                (None, _) => format!("{} = {}", c.variant, num(c.value)),
            };
            out.push_str(&format!(
                "      {}: {} -> {}\n",
                c.condition,
                figure,
                if c.met { "met" } else { "not met" }
            ));
        }
    }
    out
}

//! The results table: one row per counter or figure, one column per run, as the kernel patch
//! postings compare a "before" and an "after". Built once here for the CLI's `compare` and the
//! page's results panel (which formats the values and their changes itself).
use super::{headline_rows, Percentiles, RunReport, TaskReport};
use serde::Serialize;

/// The counters of the measured window the page's results panel shows, in this order (the
/// CLI's `compare` shows every counter any report has).
pub const RESULT_COUNTERS: &[&str] = &[
    "pgscan_anon",
    "pgscan_file",
    "pgsteal_anon",
    "pgsteal_file",
    "workingset_refault_anon",
    "workingset_refault_file",
    "pswpin",
    "pswpout",
    "pgmajfault",
    "allocstall",
    "oom_kill",
];

/// Per-task rows are shown for at most this many tasks (S003's 129 have only the run-wide rows).
pub const MAX_TASK_ROWS: usize = 16;
/// Tasks with more rounds than this show only their count, mean, median and maximum.
pub const MAX_ROUND_ROWS: usize = 12;

/// One row: a label and each run's value (None: the run has none, or is not in yet).
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct ResultRow {
    pub label: String,
    /// The task a per-task row belongs to (None for run-wide rows).
    pub task: Option<String>,
    /// Decimals worth showing for this row's values.
    pub digits: u8,
    pub values: Vec<Option<f64>>,
}

/// The table over `reports` (None: a column not in yet): the run-wide figures, the `counters`
/// of the measured window, then per task its rounds, throughput, latency, stalls and major
/// faults. Rows no report has a value for are left out.
pub fn results_table(reports: &[Option<&RunReport>], counters: &[&str]) -> Vec<ResultRow> {
    let present: Vec<RunReport> = reports.iter().flatten().map(|r| (*r).clone()).collect();
    let mut rows: Vec<ResultRow> = Vec::new();
    // Headline rows are per report (`run_metric`); spread them back over the columns.
    for h in headline_rows(&present) {
        let mut it = h.values.into_iter();
        let values = reports
            .iter()
            .map(|r| r.and_then(|_| it.next().flatten()))
            .collect();
        rows.push(ResultRow {
            label: h.label,
            task: None,
            digits: 2,
            values,
        });
    }
    for k in counters {
        rows.push(ResultRow {
            label: k.to_string(),
            task: None,
            digits: 0,
            values: reports
                .iter()
                .map(|r| r.and_then(|r| r.measured.get(*k)).map(|v| *v as f64))
                .collect(),
        });
    }
    let tasks = task_names(reports);
    if tasks.len() <= MAX_TASK_ROWS {
        for task in tasks {
            rows.extend(task_rows(&task, reports));
        }
    }
    rows.retain(|r| r.values.iter().any(Option::is_some));
    rows
}

/// Task names in the order the reports list them.
fn task_names(reports: &[Option<&RunReport>]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for t in reports.iter().flatten().flat_map(|r| &r.tasks) {
        if !names.contains(&t.name) {
            names.push(t.name.clone());
        }
    }
    names
}

fn median(xs: &[f64]) -> Option<f64> {
    let mut s = xs.to_vec();
    s.sort_by(f64::total_cmp);
    let m = s.len() / 2;
    match s.len() {
        0 => None,
        n if n % 2 == 1 => Some(s[m]),
        _ => Some((s[m - 1] + s[m]) / 2.0),
    }
}

/// Rounds, throughput, latency, stalls and major faults of one task in every report.
fn task_rows(task: &str, reports: &[Option<&RunReport>]) -> Vec<ResultRow> {
    let tasks: Vec<Option<&TaskReport>> = reports
        .iter()
        .map(|r| r.and_then(|r| r.tasks.iter().find(|t| t.name == task)))
        .collect();
    let row = |label: &str, digits: u8, get: &dyn Fn(&TaskReport) -> Option<f64>| ResultRow {
        label: format!("{task} {label}"),
        task: Some(task.to_string()),
        digits,
        values: tasks.iter().map(|t| t.and_then(get)).collect(),
    };
    let rounds = tasks
        .iter()
        .flatten()
        .filter_map(|t| t.rounds_s.as_ref().map(Vec::len))
        .max()
        .unwrap_or(0);
    let mut rows: Vec<ResultRow> = Vec::new();
    if rounds <= MAX_ROUND_ROWS {
        for i in 0..rounds {
            rows.push(row(&format!("round {i} (s)"), 4, &|t| {
                t.rounds_s.as_ref()?.get(i).copied()
            }));
        }
    } else {
        // Many rounds (launches, chunks): their count, mean and maximum.
        rows.push(row("rounds", 0, &|t| {
            t.rounds_s.as_ref().map(|r| r.len() as f64)
        }));
        rows.push(row("round mean (s)", 4, &|t| {
            let r = t.rounds_s.as_ref()?;
            (!r.is_empty()).then(|| r.iter().sum::<f64>() / r.len() as f64)
        }));
        rows.push(row("round max (s)", 4, &|t| {
            t.rounds_s.as_ref()?.iter().copied().reduce(f64::max)
        }));
    }
    if rounds > 1 {
        rows.push(row("median round (s)", 4, &|t| {
            median(t.rounds_s.as_ref()?)
        }));
    }
    rows.push(row("ops/s", 2, &|t| t.ops_per_s));
    type Of = fn(&TaskReport) -> &Option<Percentiles>;
    let percentiles: [(&str, u8, Of, fn(&Percentiles) -> f64); 7] = [
        ("latency p50 (ms)", 3, |t| &t.latency_ms, |p| p.p50),
        ("latency p95 (ms)", 3, |t| &t.latency_ms, |p| p.p95),
        ("latency p99 (ms)", 3, |t| &t.latency_ms, |p| p.p99),
        ("alloc stall p95 (ms)", 2, |t| &t.alloc_stall_ms, |p| p.p95),
        ("alloc stall p99 (ms)", 2, |t| &t.alloc_stall_ms, |p| p.p99),
        ("io wait p95 (ms)", 2, |t| &t.io_wait_ms, |p| p.p95),
        ("dirty throttle p95 (ms)", 2, |t| &t.dirty_throttle_ms, |p| p.p95),
    ];
    for (label, digits, of, at) in percentiles {
        rows.push(row(label, digits, &|t| of(t).as_ref().map(at)));
    }
    rows.push(row("major faults", 0, &|t| Some(t.major_faults as f64)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn report(variant: &str, pswpout: u64, rounds: Vec<f64>) -> RunReport {
        let counters: BTreeMap<String, u64> = [("pswpout".to_string(), pswpout)].into();
        RunReport {
            scenario: "t".into(),
            variant: variant.into(),
            preset: "linux-6.1".into(),
            swappiness: 60,
            virtual_s: 1.0,
            measured: counters.clone(),
            counters,
            tasks: vec![TaskReport {
                name: "reader".into(),
                rounds_s: Some(rounds),
                ops_per_s: None,
                latency_ms: None,
                alloc_stall_ms: None,
                io_wait_ms: None,
                dirty_throttle_ms: None,
                major_faults: 7,
                killed: false,
            }],
            oom_kills: Vec::new(),
            memcgs: Vec::new(),
            reclaim_requested_pages: Some(100),
            reclaim_reclaimed_pages: Some(50),
        }
    }

    fn find<'a>(rows: &'a [ResultRow], label: &str) -> &'a ResultRow {
        rows.iter()
            .find(|r| r.label == label)
            .unwrap_or_else(|| panic!("no row {label:?} in {rows:#?}"))
    }

    #[test]
    fn a_column_not_in_yet_has_no_values_and_the_others_keep_their_place() {
        let b = report("after", 40, vec![1.0, 3.0, 2.0, 10.0]);
        let rows = results_table(&[None, Some(&b)], &["pswpout", "pswpin"]);
        assert_eq!(find(&rows, "pswpout").values, [None, Some(40.0)]);
        // No report has pswpin: no row.
        assert!(rows.iter().all(|r| r.label != "pswpin"));
        // The run-wide figure of the second column stays in the second column.
        assert_eq!(
            find(&rows, "sum(pgsteal)/sum(requested) (%)").values[0],
            None
        );
        assert_eq!(find(&rows, "reader round 3 (s)").values, [None, Some(10.0)]);
        assert_eq!(
            find(&rows, "reader median round (s)").values,
            [None, Some(2.5)]
        );
        assert_eq!(find(&rows, "reader major faults").values, [None, Some(7.0)]);
        assert_eq!(
            find(&rows, "reader major faults").task.as_deref(),
            Some("reader")
        );
        // Headline rows come first, then the counters.
        assert!(rows[0].task.is_none() && rows[0].digits == 2, "{rows:#?}");
    }

    #[test]
    fn many_rounds_are_summed_up() {
        let a = report("before", 1, (0..20).map(f64::from).collect());
        let rows = results_table(&[Some(&a)], &[]);
        assert!(rows.iter().all(|r| !r.label.contains("round 0")));
        assert_eq!(find(&rows, "reader rounds").values, [Some(20.0)]);
        assert_eq!(find(&rows, "reader round max (s)").values, [Some(19.0)]);
        assert_eq!(find(&rows, "reader median round (s)").values, [Some(9.5)]);
    }

    #[test]
    fn each_percentile_row_takes_its_own_distribution_and_point() {
        let p = |base: f64| Percentiles {
            p50: base + 0.5,
            p95: base + 0.95,
            p99: base + 0.99,
            mean: base,
            count: 3,
        };
        let mut a = report("before", 1, vec![1.0]);
        let t = &mut a.tasks[0];
        (t.latency_ms, t.alloc_stall_ms) = (Some(p(10.0)), Some(p(20.0)));
        (t.io_wait_ms, t.dirty_throttle_ms) = (Some(p(30.0)), None);
        let rows = results_table(&[Some(&a)], &[]);
        let v = |label: &str| find(&rows, &format!("reader {label}")).values[0];
        assert_eq!(v("latency p50 (ms)"), Some(10.5));
        assert_eq!(v("latency p99 (ms)"), Some(10.99));
        assert_eq!(v("alloc stall p95 (ms)"), Some(20.95));
        assert_eq!(v("alloc stall p99 (ms)"), Some(20.99));
        assert_eq!(v("io wait p95 (ms)"), Some(30.95));
        // No report has one: no row.
        assert!(rows.iter().all(|r| !r.label.contains("dirty throttle")));
        assert_eq!(find(&rows, "reader latency p50 (ms)").digits, 3);
    }
}

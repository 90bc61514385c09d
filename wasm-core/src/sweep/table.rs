//! The sweep's table: one row per run, cells as text (the CSV is the table; Parquet and
//! pandas read types from it). Columns: variant, seed, the axes, then `preset`, `error`,
//! the headline metrics and every /proc/vmstat counter.
use crate::mm::vmstat::COUNTER_NAMES;
use crate::report::{memcg_pgsteal_spread, reclaim_accuracy};
use crate::report::{Percentiles, RunReport, TaskReport};

use super::grid::Point;

/// Headline metrics: name and how a report gives it (None: not reported by this run).
type Metric = (&'static str, fn(&RunReport) -> Option<f64>);

/// Over all tasks: the largest of a percentile a task reports.
fn max_over_tasks(r: &RunReport, f: fn(&TaskReport) -> Option<f64>) -> Option<f64> {
    r.tasks.iter().filter_map(f).reduce(f64::max)
}

fn p99(p: &Option<Percentiles>) -> Option<f64> {
    p.as_ref().map(|p| p.p99)
}

const METRICS: &[Metric] = &[
    // The swappiness the kernel ran with (a capped kernel refuses larger values).
    ("run_swappiness", |r| Some(r.swappiness as f64)),
    ("virtual_s", |r| Some(r.virtual_s)),
    ("oom_kills", |r| Some(r.oom_kills.len() as f64)),
    ("major_faults", |r| {
        Some(r.tasks.iter().map(|t| t.major_faults).sum::<u64>() as f64)
    }),
    // Rounds (loops with record = "rounds"), all tasks together.
    ("rounds", |r| {
        let n: usize = r
            .tasks
            .iter()
            .filter_map(|t| t.rounds_s.as_ref())
            .map(Vec::len)
            .sum();
        (n > 0).then_some(n as f64)
    }),
    ("rounds_total_s", |r| {
        let all: Vec<f64> = r
            .tasks
            .iter()
            .filter_map(|t| t.rounds_s.as_ref())
            .flatten()
            .copied()
            .collect();
        (!all.is_empty()).then(|| all.iter().sum())
    }),
    ("last_round_s", |r| {
        max_over_tasks(r, |t| t.rounds_s.as_ref()?.last().copied())
    }),
    // Operations (loops with record = "ops"): the sum over tasks; latencies: the worst task.
    ("ops_per_s", |r| {
        r.tasks
            .iter()
            .filter_map(|t| t.ops_per_s)
            .reduce(|a, b| a + b)
    }),
    ("latency_p99_ms", |r| {
        max_over_tasks(r, |t| p99(&t.latency_ms))
    }),
    ("alloc_stall_p99_ms", |r| {
        max_over_tasks(r, |t| p99(&t.alloc_stall_ms))
    }),
    ("io_wait_p99_ms", |r| {
        max_over_tasks(r, |t| p99(&t.io_wait_ms))
    }),
    ("dirty_throttle_p99_ms", |r| {
        max_over_tasks(r, |t| p99(&t.dirty_throttle_ms))
    }),
    // The seed tables' rows (as `reclaim compare` prints them).
    ("direct_reclaim_efficiency_pct", |r| {
        let scan = *r.measured.get("pgscan_direct")?;
        let steal = *r.measured.get("pgsteal_direct")?;
        (scan > 0).then(|| steal as f64 * 100.0 / scan as f64)
    }),
    ("memcg_pgsteal_spread_pct", memcg_pgsteal_spread),
    ("reclaim_accuracy_pct", reclaim_accuracy),
];

/// Names of the headline metric columns, in order.
pub fn metric_names() -> Vec<&'static str> {
    METRICS.iter().map(|m| m.0).collect()
}

/// The table's columns for a grid with these axes.
pub fn columns(axes: &[&str]) -> Vec<String> {
    let mut c: Vec<String> = ["variant", "seed"].iter().map(|s| s.to_string()).collect();
    c.extend(axes.iter().map(|s| s.to_string()));
    c.push("preset".to_string());
    c.push("error".to_string());
    c.extend(METRICS.iter().map(|m| m.0.to_string()));
    c.extend(COUNTER_NAMES.iter().map(|s| s.to_string()));
    c
}

/// How many leading columns identify a run (variant, seed and the axes).
pub fn key_len(columns: &[String]) -> usize {
    columns
        .iter()
        .position(|c| c == "preset")
        .unwrap_or(columns.len())
}

/// A number as the table writes it: integers without a fraction, others in the shortest
/// text that reads back to the same f64; NaN and infinities as an empty cell.
fn number(v: f64) -> String {
    if !v.is_finite() {
        String::new()
    } else if v.fract() == 0.0 && v.abs() < 9.0e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// The row of one run: its key, then the report's metrics and counters (measured from
/// `run.measure_from`, as the headline tables), or the error and empty cells.
pub fn row(point: &Point, preset: &str, result: &Result<RunReport, String>) -> Vec<String> {
    let mut cells = point.key();
    cells.push(preset.to_string());
    match result {
        Ok(r) => {
            cells.push(String::new());
            cells.extend(
                METRICS
                    .iter()
                    .map(|m| m.1(r).map(number).unwrap_or_default()),
            );
            cells.extend(COUNTER_NAMES.iter().map(|c| {
                r.measured
                    .get(*c)
                    .map(|v| v.to_string())
                    .unwrap_or_default()
            }));
        }
        Err(e) => {
            cells.push(e.replace(['\n', '\r'], " "));
            cells.extend(std::iter::repeat_n(
                String::new(),
                METRICS.len() + COUNTER_NAMES.len(),
            ));
        }
    }
    cells
}

/// One CSV record (RFC 4180: fields with a comma, quote or line break are quoted).
pub fn csv_line(cells: &[String]) -> String {
    let mut out = String::new();
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if c.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&c.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(c);
        }
    }
    out.push('\n');
    out
}

/// The whole table as CSV text.
pub fn csv_text(columns: &[String], rows: &[Vec<String>]) -> String {
    let mut out = csv_line(columns);
    for r in rows {
        out += &csv_line(r);
    }
    out
}

/// Parse CSV text into records. A last record without its line end (a sweep stopped while
/// writing it) is dropped, so that its run is done again.
pub fn parse_csv(text: &str) -> Result<Vec<Vec<String>>, String> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut line = 1;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c)
            }
            (false, '"') if field.is_empty() => quoted = true,
            (false, '"') => return Err(format!("line {line}: a quote inside an unquoted field")),
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                line += 1;
            }
            (false, c) => field.push(c),
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trips_awkward_cells_and_drops_a_cut_record() {
        let rows = vec![
            vec!["a,b".to_string(), "say \"hi\"".to_string(), "".to_string()],
            vec![
                "line\nbreak".to_string(),
                "x".to_string(),
                "1.5".to_string(),
            ],
        ];
        let cols: Vec<String> = ["c1", "c2", "c3"].iter().map(|s| s.to_string()).collect();
        let text = csv_text(&cols, &rows);
        let back = parse_csv(&text).unwrap();
        assert_eq!(back[0], cols);
        assert_eq!(&back[1..], &rows[..]);
        let cut = &text[..text.len() - 3];
        assert_eq!(parse_csv(cut).unwrap().len(), 2);
        assert!(parse_csv("a,b\"c\n").unwrap_err().contains("line 1"));
    }

    #[test]
    fn numbers_read_back_exactly() {
        for v in [0.0, 3.0, 0.1, 1.0 / 3.0, 2.5e-9, 123456.789] {
            assert_eq!(number(v).parse::<f64>().unwrap(), v);
        }
        assert_eq!(number(42.0), "42");
        assert_eq!(number(f64::NAN), "");
    }

    #[test]
    fn a_failed_run_is_a_row_with_its_error() {
        let p = Point {
            variant: "v".into(),
            seed: 3,
            settings: vec![("ram".into(), "1GiB".into())],
        };
        let cols = columns(&["ram"]);
        let r = row(&p, "linux-5.2", &Err("engine: boom\nsecond line".into()));
        assert_eq!(r.len(), cols.len());
        assert_eq!(
            &r[..5],
            ["v", "3", "1GiB", "linux-5.2", "engine: boom second line"]
        );
        assert!(r[5..].iter().all(String::is_empty));
        assert_eq!(key_len(&cols), 3);
    }
}

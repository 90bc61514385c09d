//! The `reclaim` command line as pure functions: arguments in, text out. The binary
//! (`src/main.rs`) does the reading, the running and the printing.
use reclaim_core::report::{memcg_pgsteal_spread, reclaim_accuracy};
use reclaim_core::report::{Percentiles, RunReport, TaskReport};
use reclaim_core::sweep::parse_max_cpu;
use reclaim_core::variant::{FLAG_NAMES, PRESETS};
use std::time::Duration;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Run one variant (the first when `variant` is None).
    Run {
        file: String,
        variant: Option<String>,
        json: bool,
        /// CPU time the run may use (None: no limit).
        max_cpu: Option<Duration>,
    },
    /// Run every variant and compare them.
    Compare {
        file: String,
        json: bool,
        /// CPU time each variant's run may use (None: no limit).
        max_cpu: Option<Duration>,
    },
    /// Run a grid of knobs, variants and seeds (arguments parsed by `sweep::parse_args`).
    Sweep {
        args: Vec<String>,
    },
    /// The miss-ratio curve of a replayed trace (arguments parsed by `sweep::mrc::parse_args`).
    Mrc {
        args: Vec<String>,
    },
    Presets,
    Help,
    Version,
}

pub fn usage() -> &'static str {
    "reclaim: Linux page reclaim, simulated page by page

usage:
  reclaim run FILE [--variant NAME] [--json]  run one variant (default: the first) of a scenario
  reclaim compare FILE [--json]               run every variant and print a before/after table
  reclaim sweep FILE [--set KNOB=V1,V2]...     run a grid of knobs, variants and seeds into a table
  reclaim mrc FILE [--points 16] [--out F.csv] the miss-ratio curve of a replayed trace: LRU, OPT
                                              and each kernel variant, into a table
  reclaim kernel FILE --kernel debian-6.1|debian-6.12|debian-6.18|debian-7.3 [--variant NAME] [--json]
                                              run a variant's tasks on a real kernel in QEMU
  reclaim validate FILE [--kernel K] [--variant NAME] [--json]
                                              model and real kernel side by side
  reclaim presets                             list the kernel presets and their flags
  reclaim help                                show this text
  reclaim version                             show the version

--no-budget (run, compare): lift the resource budget's soft limits for a big native run (docs/scenarios.md)
--max-cpu 60s (run, compare, sweep): stop a run that uses more CPU time, exit 1 (sweep: default
  600s, the run's row holds the error; none: no limit)

exit status: 0 on success, 1 on an engine error, 2 on bad arguments or a bad scenario file
"
}

/// Parse the arguments that follow the program name.
pub fn parse_args(args: &[String]) -> Result<Command, String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Command::Help);
    }
    let Some((command, rest)) = args.split_first() else {
        return Err("no command given".to_string());
    };
    match command.as_str() {
        "run" => {
            let o = options(rest, "run", true)?;
            Ok(Command::Run { file: o.file, variant: o.variant, json: o.json, max_cpu: o.max_cpu })
        }
        "compare" => {
            let o = options(rest, "compare", false)?;
            Ok(Command::Compare { file: o.file, json: o.json, max_cpu: o.max_cpu })
        }
        "sweep" => Ok(Command::Sweep { args: rest.to_vec() }),
        "mrc" => Ok(Command::Mrc { args: rest.to_vec() }),
        "presets" => no_arguments(rest, "presets").map(|_| Command::Presets),
        "help" => Ok(Command::Help),
        "version" | "--version" | "-V" => no_arguments(rest, "version").map(|_| Command::Version),
        other if other.starts_with('-') => {
            Err(format!("unknown option `{other}`; a command comes first: run, compare, sweep, mrc, presets, help or version"))
        }
        other => Err(format!("unknown command `{other}`; commands: run, compare, sweep, mrc, presets, help, version")),
    }
}

struct Options {
    file: String,
    variant: Option<String>,
    json: bool,
    max_cpu: Option<Duration>,
}

/// `FILE [--variant NAME] [--json] [--max-cpu 60s]`, in any order.
fn options(args: &[String], command: &str, takes_variant: bool) -> Result<Options, String> {
    let (mut file, mut variant, mut json) = (None::<String>, None::<String>, false);
    let mut max_cpu = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let name = match arg.as_str() {
            "--json" => {
                json = true;
                continue;
            }
            "--max-cpu" => {
                let v = args.next().map_or("", String::as_str);
                max_cpu = parse_max_cpu(v)?;
                continue;
            }
            a if a.starts_with("--max-cpu=") => {
                max_cpu = parse_max_cpu(&a["--max-cpu=".len()..])?;
                continue;
            }
            "--variant" if takes_variant => args.next().cloned().unwrap_or_default(),
            a if takes_variant && a.starts_with("--variant=") => {
                a["--variant=".len()..].to_string()
            }
            a if a.starts_with('-') => return Err(format!("unknown option `{a}` for `{command}`")),
            a => {
                if let Some(first) = &file {
                    return Err(format!(
                        "`{command}` takes one scenario file, got `{first}` and `{a}`"
                    ));
                }
                file = Some(a.to_string());
                continue;
            }
        };
        if name.is_empty() {
            return Err("`--variant` needs a variant name".to_string());
        }
        if variant.replace(name).is_some() {
            return Err("`--variant` is given twice".to_string());
        }
    }
    let file =
        file.ok_or_else(|| format!("`{command}` needs a scenario file: reclaim {command} FILE"))?;
    Ok(Options {
        file,
        variant,
        json,
        max_cpu,
    })
}

fn no_arguments(args: &[String], command: &str) -> Result<(), String> {
    match args.first() {
        Some(a) => Err(format!("`{command}` takes no arguments, got `{a}`")),
        None => Ok(()),
    }
}

/// `reclaim presets`: each preset, what it models, and the flags it turns on.
pub fn presets_text() -> String {
    let width = PRESETS.iter().map(|p| p.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for p in PRESETS {
        let on: Vec<&str> = FLAG_NAMES
            .iter()
            .copied()
            .filter(|f| p.flags.get(f) == Some(true))
            .collect();
        let on = if on.is_empty() {
            "(none)".to_string()
        } else {
            on.join(", ")
        };
        out += &format!(
            "{:width$}  {}\n{:width$}  flags on: {on}\n",
            p.name, p.description, ""
        );
    }
    out += &format!("\nflags: {}\n", FLAG_NAMES.join(", "));
    out += "a variant sets flags on top of its preset: flags = { io_cost_balance = true }\n";
    out
}

/// The counters `compare` shows by default: those the seed tables report, in their order,
/// then every other counter any report has, by name.
pub fn compare_keys(reports: &[RunReport]) -> Vec<String> {
    const SEED_COUNTERS: &[&str] = &[
        "pgscan_kswapd",
        "pgscan_direct",
        "pgsteal_kswapd",
        "pgsteal_direct",
        "pgactivate",
        "pgdeactivate",
        "pgrotated",
        "workingset_refault_anon",
        "workingset_refault_file",
        "workingset_activate_anon",
        "workingset_activate_file",
        "workingset_restore_anon",
        "workingset_restore_file",
        "refault_inactive_file",
        "refault_active_file",
        "refault_nodereclaim",
        "pswpin",
        "pswpout",
        "pgpgin",
        "pgpgout",
        "pgmajfault",
        "allocstall",
        "nr_vmscan_write",
        "nr_vmscan_immediate_reclaim",
    ];
    let present = |k: &str| reports.iter().any(|r| r.measured.contains_key(k));
    let mut keys: Vec<String> = SEED_COUNTERS
        .iter()
        .filter(|k| present(k))
        .map(|k| k.to_string())
        .collect();
    let mut others: Vec<&String> = reports.iter().flat_map(|r| r.measured.keys()).collect();
    others.sort();
    others.dedup();
    keys.extend(
        others
            .into_iter()
            .filter(|k| !SEED_COUNTERS.contains(&k.as_str()))
            .cloned(),
    );
    keys
}

/// A seed-style table: a row per counter or metric, a column per variant with the value and its
/// change versus the first variant, as in the kernel patch postings:
/// `pswpout   3149.00 ( +0.00%)   86932.00 (+2659.78%)`. The rows are the core's results
/// table (`report::results_table`, the page's too) over the counters `keys`.
pub fn compare_table(scenario_title: &str, reports: &[RunReport], keys: &[&str]) -> String {
    let columns: Vec<Option<&RunReport>> = reports.iter().map(Some).collect();
    let rows = reclaim_core::report::results_table(&columns, keys);
    // Cells as (value, change) text, so that both parts can be aligned per column.
    let cells: Vec<Vec<(String, String)>> = rows
        .iter()
        .map(|r| {
            r.values
                .iter()
                .map(|v| (number(*v), percent_change(r.values[0], *v)))
                .collect()
        })
        .collect();
    let part_widths: Vec<(usize, usize)> = (0..reports.len())
        .map(|c| {
            let value = cells.iter().map(|row| row[c].0.len()).max().unwrap_or(0);
            let change = cells.iter().map(|row| row[c].1.len()).max().unwrap_or(0);
            (value, change)
        })
        .collect();
    let cell_texts: Vec<Vec<String>> = cells
        .iter()
        .map(|row| {
            row.iter()
                .zip(&part_widths)
                .map(|(cell, widths)| cell_text(cell, *widths))
                .collect()
        })
        .collect();
    let headers: [Vec<String>; 3] = [
        reports.iter().map(|r| r.variant.clone()).collect(),
        reports.iter().map(|r| r.preset.clone()).collect(),
        reports
            .iter()
            .map(|r| format!("swappiness {}", r.swappiness))
            .collect(),
    ];
    let column_widths: Vec<usize> = (0..reports.len())
        .map(|c| {
            let cells = cell_texts.iter().map(|row| row[c].chars().count());
            cells
                .chain(headers.iter().map(|h| h[c].chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();

    let label_width = rows
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let line = |label: &str, texts: &[String]| {
        let mut line = format!("{label:label_width$}");
        for (text, width) in texts.iter().zip(&column_widths) {
            line += &format!("  {text:>width$}");
        }
        line.trim_end().to_string() + "\n"
    };
    let mut out = format!("{scenario_title}\n");
    for header in &headers {
        out += &line("", header);
    }
    for (row, texts) in rows.iter().zip(&cell_texts) {
        out += &line(&row.label, texts);
    }
    out
}

/// `value (change)` with both parts right-aligned to the column's widths.
fn cell_text(
    (value, change): &(String, String),
    (value_width, change_width): (usize, usize),
) -> String {
    if change.is_empty() {
        format!("{value:>value_width$}{:w$}", "", w = change_width + 3)
    } else {
        format!("{value:>value_width$} ({change:>change_width$})")
    }
}

/// A value with two decimals, or three significant digits below 1 (a 0.00075 s round must not
/// print as 0.00); "-" when not reported, "n/a" when not a finite number.
fn number(v: Option<f64>) -> String {
    match v {
        None => "-".to_string(),
        Some(v) if !v.is_finite() => "n/a".to_string(),
        Some(v) if v == 0.0 || v.abs() >= 1.0 => format!("{v:.2}"),
        Some(v) => {
            let decimals = ((-v.abs().log10()).ceil() as usize + 2).min(9);
            format!("{v:.decimals$}")
        }
    }
}

/// The change from `base` to `value` in percent ("+12.50%"); "n/a" when there is no finite
/// change (a zero or missing baseline); empty when there is no value.
fn percent_change(base: Option<f64>, value: Option<f64>) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match base {
        Some(base) if base == value => "+0.00%".to_string(),
        Some(base) if base != 0.0 => {
            let change = (value - base) / base * 100.0;
            if change.is_finite() {
                format!("{change:+.2}%")
            } else {
                "n/a".to_string()
            }
        }
        _ => "n/a".to_string(),
    }
}

/// The human-readable output of `reclaim run`.
pub fn run_text(report: &RunReport) -> String {
    let mut out = format!(
        "{}: variant {} ({}), swappiness {}, {:.3} s simulated\n",
        report.scenario, report.variant, report.preset, report.swappiness, report.virtual_s
    );
    for task in &report.tasks {
        out += &task_text(task);
    }
    if !report.oom_kills.is_empty() {
        out += "\nOOM kills:\n";
        for k in &report.oom_kills {
            out += &format!(
                "  {} at {:.3} s, {} pages freed\n",
                k.task, k.time_s, k.freed_pages
            );
        }
    }
    if let (Some(req), Some(got)) = (
        report.reclaim_requested_pages,
        report.reclaim_reclaimed_pages,
    ) {
        out += &format!("\nmemory.reclaim: {req} pages requested, {got} reclaimed\n");
    }
    if !report.memcgs.is_empty() {
        let fmt = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}%"));
        out += &format!(
            "memcgs: {} (stddev/mean pgsteal over leaves {}, sum(pgsteal)/sum(requested) {})\n",
            report.memcgs.len(),
            fmt(memcg_pgsteal_spread(report)),
            fmt(reclaim_accuracy(report))
        );
    }
    if report.measured == report.counters {
        out += "\ncounters:\n";
        out += &counters_text(report.counters.iter());
    } else {
        out += "\ncounters from run.measure_from:\n";
        out += &counters_text(report.measured.iter());
        out += "\ncounters over the whole run:\n";
        out += &counters_text(report.counters.iter());
    }
    out
}

fn task_text(task: &TaskReport) -> String {
    let killed = if task.killed {
        ", killed by the OOM killer"
    } else {
        ""
    };
    let mut out = format!(
        "\ntask {}: {} major faults{killed}\n",
        task.name, task.major_faults
    );
    if let Some(rounds) = &task.rounds_s {
        let w = rounds.len().saturating_sub(1).to_string().len();
        for (i, s) in rounds.iter().enumerate() {
            out += &format!("  round {i:>w$}  {s:>12.6} s\n");
        }
    }
    if let Some(ops) = task.ops_per_s {
        out += &format!("  ops/s           {ops:.2}\n");
    }
    if let Some(p) = &task.latency_ms {
        out += &format!("  latency ms      {}\n", percentiles(p));
    }
    if let Some(p) = &task.alloc_stall_ms {
        out += &format!("  alloc stall ms  {}\n", percentiles(p));
    }
    if let Some(p) = &task.io_wait_ms {
        out += &format!("  io wait ms      {}\n", percentiles(p));
    }
    if let Some(p) = &task.dirty_throttle_ms {
        out += &format!("  throttle ms     {}\n", percentiles(p));
    }
    out
}

fn percentiles(p: &Percentiles) -> String {
    format!(
        "p50 {:.3}  p95 {:.3}  p99 {:.3}  mean {:.3}  ({} samples)",
        p.p50, p.p95, p.p99, p.mean, p.count
    )
}

/// Counters aligned in two columns, the non-zero ones first, each group by name.
fn counters_text<'a>(counters: impl Iterator<Item = (&'a String, &'a u64)>) -> String {
    let mut counters: Vec<(&String, &u64)> = counters.collect();
    counters.sort_by_key(|(name, value)| (**value == 0, *name));
    let name_width = counters.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let value_width = counters
        .iter()
        .map(|(_, v)| v.to_string().len())
        .max()
        .unwrap_or(0);
    counters
        .iter()
        .map(|(n, v)| format!("  {n:name_width$}  {v:>value_width$}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn report(variant: &str, counters: &[(&str, u64)], tasks: Vec<TaskReport>) -> RunReport {
        let counters: BTreeMap<String, u64> =
            counters.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        RunReport {
            scenario: "seed 004".to_string(),
            variant: variant.to_string(),
            preset: "linux-5.7".to_string(),
            swappiness: 100,
            virtual_s: 10.0,
            measured: counters.clone(),
            counters,
            tasks,
            oom_kills: Vec::new(),
            memcgs: Vec::new(),
            reclaim_requested_pages: None,
            reclaim_reclaimed_pages: None,
        }
    }

    fn task(name: &str, rounds: Option<Vec<f64>>, ops: Option<f64>) -> TaskReport {
        TaskReport {
            name: name.to_string(),
            rounds_s: rounds,
            ops_per_s: ops,
            latency_ms: None,
            alloc_stall_ms: None,
            io_wait_ms: None,
            dirty_throttle_ms: None,
            major_faults: 0,
            killed: false,
        }
    }

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// The table line whose label is `label`.
    fn line<'t>(table: &'t str, label: &str) -> &'t str {
        table
            .lines()
            .find(|l| l.starts_with(&format!("{label} ")))
            .unwrap_or_else(|| panic!("no {label} in\n{table}"))
    }

    #[test]
    fn percent_changes() {
        assert_eq!(percent_change(Some(3149.0), Some(86932.0)), "+2660.62%");
        assert_eq!(percent_change(Some(200.0), Some(150.0)), "-25.00%");
        assert_eq!(percent_change(Some(7.0), Some(7.0)), "+0.00%");
        assert_eq!(percent_change(Some(0.0), Some(0.0)), "+0.00%");
        assert_eq!(percent_change(Some(0.0), Some(5.0)), "n/a");
        assert_eq!(percent_change(None, Some(5.0)), "n/a");
        assert_eq!(percent_change(Some(1e-300), Some(1e300)), "n/a");
        assert_eq!(percent_change(Some(5.0), None), "");
        assert_eq!(number(Some(f64::NAN)), "n/a");
        assert_eq!(number(Some(1234.5)), "1234.50");
        assert_eq!(number(Some(0.00075)), "0.000750");
        assert_eq!(number(Some(0.5)), "0.500");
        assert_eq!(number(Some(-0.03)), "-0.0300");
        assert_eq!(number(Some(1e-300)), "0.000000000");
        assert_eq!(number(None), "-");
    }

    #[test]
    fn compare_table_has_values_changes_and_aligned_columns() {
        let before = report("before", &[("pswpout", 3149), ("pgmajfault", 0)], vec![]);
        let after = report("after", &[("pswpout", 86932), ("pgmajfault", 12)], vec![]);
        let table = compare_table("seed 004", &[before, after], &["pswpout", "pgmajfault"]);
        assert!(table.starts_with("seed 004\n"), "{table}");
        let swap = line(&table, "pswpout");
        assert!(
            swap.contains("3149.00 (+0.00%)") && swap.contains("86932.00 (+2660.62%)"),
            "{table}"
        );
        let faults = line(&table, "pgmajfault");
        assert!(
            faults.contains("0.00 (+0.00%)") && faults.contains("12.00 (      n/a)"),
            "{table}"
        );
        assert!(!table.contains("inf") && !table.contains("NaN"), "{table}");
        // Columns are right-aligned: every line ends at the same place, and so do the values.
        let lengths: Vec<usize> = table.lines().skip(1).map(str::len).collect();
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "ragged right edge:\n{table}"
        );
        let end_of = |line: &str, value: &str| line.find(value).unwrap() + value.len();
        assert_eq!(end_of(swap, " 3149.00"), end_of(faults, " 0.00"), "{table}");
        assert_eq!(
            end_of(swap, "86932.00"),
            end_of(faults, " 12.00"),
            "{table}"
        );
    }

    #[test]
    fn compare_table_columns_fit_long_variant_names() {
        let a = report("a-rather-long-variant-name", &[("pswpout", 1)], vec![]);
        let b = report("b", &[("pswpout", 2)], vec![]);
        let table = compare_table("t", &[a, b], &["pswpout"]);
        let lengths: Vec<usize> = table.lines().skip(1).map(str::len).collect();
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "ragged right edge:\n{table}"
        );
        let name_end = table.lines().nth(1).unwrap().find("name").unwrap() + 4;
        assert_eq!(
            name_end,
            line(&table, "pswpout").find("1.00 (+0.00%)").unwrap() + 13,
            "{table}"
        );
    }

    #[test]
    fn compare_table_shows_rounds_and_task_metrics() {
        let mut b = task("thrash", Some(vec![2.5, 2.4]), None);
        b.latency_ms = Some(Percentiles {
            p50: 1.0,
            p95: 2.0,
            p99: 4.0,
            mean: 1.5,
            count: 10,
        });
        let a = task("thrash", Some(vec![2.0, 0.03, 0.00075]), None);
        let table = compare_table(
            "t",
            &[
                report("before", &[], vec![b]),
                report("after", &[], vec![a]),
            ],
            &[],
        );
        assert!(
            line(&table, "thrash round 1 (s)").contains("0.0300 (-98.75%)"),
            "{table}"
        );
        // Round 2 exists only after: the first column says it is missing.
        let r2 = line(&table, "thrash round 2 (s)");
        assert!(
            r2.contains(" - ") && r2.contains("0.000750 (    n/a)"),
            "{table}"
        );
        assert!(
            line(&table, "thrash latency p99 (ms)").contains("4.00 (+0.00%)"),
            "{table}"
        );
        assert!(
            !table.contains("ops/s") && !table.contains("alloc stall"),
            "rows without values:\n{table}"
        );
    }

    #[test]
    fn run_text_lists_rounds_and_counters_non_zero_first() {
        let r = report(
            "after",
            &[("pswpout", 5), ("allocstall", 0), ("pgfault", 1234567)],
            vec![task("t", Some(vec![1.5]), Some(250.0))],
        );
        let text = run_text(&r);
        assert!(
            text.starts_with(
                "seed 004: variant after (linux-5.7), swappiness 100, 10.000 s simulated"
            ),
            "{text}"
        );
        assert!(
            text.contains("round 0      1.500000 s") && text.contains("ops/s           250.00"),
            "{text}"
        );
        let counters: Vec<&str> = text
            .lines()
            .skip_while(|l| *l != "counters:")
            .skip(1)
            .collect();
        assert_eq!(
            counters,
            [
                "  pgfault     1234567",
                "  pswpout           5",
                "  allocstall        0"
            ],
            "{text}"
        );
    }

    #[test]
    fn run_text_shows_measured_and_whole_run_counters_when_they_differ() {
        let mut r = report("v", &[("pswpout", 50)], vec![]);
        r.measured.insert("pswpout".to_string(), 20);
        let text = run_text(&r);
        assert!(
            text.contains("counters from run.measure_from:\n  pswpout  20\n"),
            "{text}"
        );
        assert!(
            text.contains("counters over the whole run:\n  pswpout  50\n"),
            "{text}"
        );
    }

    #[test]
    fn compare_keys_put_seed_counters_first() {
        let r = report(
            "v",
            &[
                ("zeta", 1),
                ("pswpout", 2),
                ("pgscan_kswapd", 3),
                ("alpha", 4),
            ],
            vec![],
        );
        assert_eq!(
            compare_keys(&[r]),
            ["pgscan_kswapd", "pswpout", "alpha", "zeta"]
        );
    }

    fn memcg(name: &str, parent: Option<&str>, pgsteal: u64) -> reclaim_core::report::MemcgReport {
        reclaim_core::report::MemcgReport {
            name: name.into(),
            parent: parent.map(String::from),
            current_pages: 0,
            events: BTreeMap::new(),
            stat: [("pgsteal".to_string(), pgsteal)].into_iter().collect(),
        }
    }

    #[test]
    fn compare_leaves_out_per_task_rows_for_many_tasks() {
        let tasks = |n: usize| {
            (0..n)
                .map(|i| task(&format!("fio{i}"), None, Some(1.0)))
                .collect()
        };
        let few = report("a", &[("pswpout", 1)], tasks(16));
        assert!(compare_table("t", &[few], &["pswpout"]).contains("fio15"));
        let many = report("a", &[("pswpout", 1)], tasks(17));
        let table = compare_table("t", &[many], &["pswpout"]);
        assert!(!table.contains("fio"), "{table}");
        assert!(table.contains("pswpout"));
    }

    #[test]
    fn memcg_fairness_and_accuracy_use_the_leaf_memcgs() {
        let mut r = report("before", &[], Vec::new());
        assert_eq!(memcg_pgsteal_spread(&r), None);
        assert_eq!(reclaim_accuracy(&r), None);
        // "/" -> a -> {a0, a1}; "/" -> b. Leaves: a0 (100), a1 (300), b (200).
        r.memcgs = vec![
            memcg("/", None, 600),
            memcg("a", Some("/"), 400),
            memcg("a0", Some("a"), 100),
            memcg("a1", Some("a"), 300),
            memcg("b", Some("/"), 200),
        ];
        r.reclaim_requested_pages = Some(150);
        r.reclaim_reclaimed_pages = Some(600);
        // mean 200, population stddev sqrt((100^2 + 100^2 + 0) / 3) = 81.65
        let spread = memcg_pgsteal_spread(&r).unwrap();
        assert!((spread - 40.82).abs() < 0.01, "{spread}");
        assert_eq!(reclaim_accuracy(&r), Some(400.0));
        let table = compare_table("s003", &[r.clone(), r], &[]);
        assert!(line(&table, "sum(pgsteal)/sum(requested) (%)").contains("400.00"));
        assert!(line(&table, "stddev/mean pgsteal, leaf memcgs (%)").contains("40.82"));
    }

    #[test]
    fn args_parse() {
        let run = |variant: Option<&str>, json| Command::Run {
            file: "s.toml".into(),
            variant: variant.map(String::from),
            json,
            max_cpu: None,
        };
        assert_eq!(parse_args(&args("run s.toml")), Ok(run(None, false)));
        assert_eq!(
            parse_args(&args("run --json s.toml --variant after")),
            Ok(run(Some("after"), true))
        );
        assert_eq!(
            parse_args(&args("run s.toml --variant=after")),
            Ok(run(Some("after"), false))
        );
        assert_eq!(
            parse_args(&args("compare s.toml --json")),
            Ok(Command::Compare {
                file: "s.toml".into(),
                json: true,
                max_cpu: None,
            })
        );
        assert_eq!(
            parse_args(&args("compare s.toml --max-cpu 1.5")),
            Ok(Command::Compare {
                file: "s.toml".into(),
                json: false,
                max_cpu: Some(Duration::from_millis(1500)),
            })
        );
        assert_eq!(
            parse_args(&args("run s.toml --max-cpu=60s")),
            Ok(Command::Run {
                file: "s.toml".into(),
                variant: None,
                json: false,
                max_cpu: Some(Duration::from_secs(60)),
            })
        );
        assert_eq!(parse_args(&args("presets")), Ok(Command::Presets));
        assert_eq!(parse_args(&args("--version")), Ok(Command::Version));
        assert_eq!(parse_args(&args("run s.toml --help")), Ok(Command::Help));
        assert_eq!(parse_args(&args("help")), Ok(Command::Help));
    }

    #[test]
    fn arg_errors_say_what_is_wrong() {
        let err = |s: &str| parse_args(&args(s)).unwrap_err();
        assert!(err("").contains("no command"));
        assert!(err("frobnicate x").contains("unknown command `frobnicate`"));
        assert!(err("--verbose").contains("unknown option `--verbose`"));
        assert!(err("run").contains("needs a scenario file"));
        assert!(err("run --json").contains("needs a scenario file"));
        assert!(err("run s.toml --jsn").contains("unknown option `--jsn` for `run`"));
        assert!(
            err("compare s.toml --variant a").contains("unknown option `--variant` for `compare`")
        );
        assert!(err("run s.toml --variant").contains("needs a variant name"));
        assert!(err("run s.toml --variant a --variant b").contains("twice"));
        assert!(err("run a.toml b.toml").contains("one scenario file"));
        assert!(err("presets extra").contains("takes no arguments"));
        assert!(err("run s.toml --max-cpu").contains("--max-cpu"));
        assert!(err("run s.toml --max-cpu 5fortnights").contains("unknown time unit"));
        assert!(err("run s.toml --max-cpu 0s").contains("must be > 0"));
    }

    #[test]
    fn usage_and_presets_text() {
        for command in ["run FILE", "compare FILE", "presets", "--variant", "--json"] {
            assert!(usage().contains(command), "{command}");
        }
        let text = presets_text();
        assert!(
            text.lines().any(|l| l.starts_with("linux-5.2 ")
                && l.ends_with(
                    "  4.12-5.2 rules: refaults deactivate file but do not unlock anon"
                )),
            "{text}"
        );
        assert!(
            text.contains("flags on: (none)")
                && text.contains(
                    "flags on: refault_scan_anon, scan_decisions_per_node, io_cost_balance, used_once_mapped, activate_shared_exec, kswapd_writeback_4_11, pgdat_flags_per_node, file_writeback_kswapd_only, swap_ra_adaptive, swap_vma_readahead, swapin_activate, fault_retry, mmap_readaround_async, filemap_fault_drop_mmap, write_no_activation, watermark_scale_factor, workingset_detection, inactive_ratio_by_list_size, plenty_file_rule, scan_fraction_exact, swappiness_zero_strict, tiny_file_anon_checks, refault_deactivate_file, shmem_inactive_first, kswapd_reclaim_3_11, anon_aging_needs_swap\n"
                ),
            "{text}"
        );
    }
}

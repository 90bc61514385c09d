//! `reclaim sweep`: a grid of knobs, variants and seeds run in parallel into one tidy table
//! (CSV, and Parquet with the `parquet` feature). Native only: threads and files have no
//! place in the wasm build, which never compiles this module.
pub mod grid;
pub mod mrc;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod run;
pub mod table;
pub mod traces;

use std::collections::HashSet;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use grid::{Plan, Spec};

pub const USAGE: &str = "usage: reclaim sweep FILE [options]
  FILE                      a scenario, or a sweep file (a [sweep] table naming the scenario,
                            its axes, variants and seeds; see docs/sweeps.md)
  --set KNOB=V1,V2,...      an axis: swappiness, ram, swap_device, file_device, frame_scale,
                            seed, a sysctl (dirty_ratio or sysctl.dirty_ratio, ...) or a
                            flag (flag.refault_scan_anon=false,true); repeatable
  --variant all|A,B         the variants to run (default: all)
  --seeds 1..5              seeds (also 1,2,7); default: the scenario's seed
  --jobs N                  runs in parallel (default: every core)
  --max-cpu 60s             CPU time a run may use before it is stopped with an error in its
                            row (default: 600s; none: no limit)
  --out PATH.csv            the table (default: sweeps/SCENARIO.csv); Parquet next to it
  --no-parquet              write the CSV only
  --quiet                   no progress on stderr
";

/// `reclaim sweep`'s arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub common: Common,
    pub spec: Spec,
}

/// What `sweep` and `mrc` both take: one file, and how many runs at once, their CPU limit and
/// where the table goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Common {
    pub file: String,
    pub jobs: Option<usize>,
    /// CPU time per run (None: no limit); default [`run::DEFAULT_MAX_CPU`].
    pub max_cpu: Option<Duration>,
    pub out: Option<String>,
    pub parquet: bool,
    pub quiet: bool,
}

/// Parse `cmd`'s arguments (`--flag value` or `--flag=value`, and one file): the options of
/// [`Common`] here, the command's own by `own`, given the flag and a getter of its value; it
/// answers whether it knew the flag.
pub fn parse_common(
    args: &[String],
    cmd: &str,
    mut own: impl FnMut(&str, &mut dyn FnMut() -> Result<String, String>) -> Result<bool, String>,
) -> Result<Common, String> {
    let mut a = Common {
        file: String::new(),
        jobs: None,
        max_cpu: Some(run::DEFAULT_MAX_CPU),
        out: None,
        parquet: true,
        quiet: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("`{flag}` needs a value"))
        };
        match flag {
            "--jobs" | "-j" => a.jobs = Some(count(&value()?, "--jobs")?),
            "--max-cpu" => a.max_cpu = parse_max_cpu(&value()?)?,
            "--out" | "-o" => a.out = Some(value()?),
            "--no-parquet" => a.parquet = false,
            "--quiet" | "-q" => a.quiet = true,
            f if f.starts_with('-') => {
                if !own(f, &mut value)? {
                    return Err(format!("unknown option `{f}` for `{cmd}`"));
                }
            }
            f if a.file.is_empty() => a.file = f.to_string(),
            f => return Err(format!("`{cmd}` takes one file, got `{}` and `{f}`", a.file)),
        }
    }
    if a.file.is_empty() {
        return Err(format!("`{cmd}` needs a scenario file: reclaim {cmd} FILE"));
    }
    Ok(a)
}

/// A count option's value: a whole number 1..1000.
pub fn count(v: &str, what: &str) -> Result<usize, String> {
    v.parse::<usize>()
        .ok()
        .filter(|&n| (1..=1000).contains(&n))
        .ok_or_else(|| format!("{what} {v}: expected a whole number 1..1000"))
}

/// Parse the arguments after `sweep`.
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut spec = Spec::default();
    let common = parse_common(args, "sweep", |flag, value| {
        match flag {
            "--set" => spec.add_axis(grid::parse_set(&value()?)?)?,
            "--variant" | "--variants" => spec.variants = grid::parse_variants(&value()?),
            "--seeds" => spec.add_axis(grid::Axis {
                name: "seed".into(),
                values: vec![value()?],
            })?,
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    Ok(Args { common, spec })
}

/// A CPU-time limit: a duration ("60s", "1.5", "250ms"), or "none" for no limit.
pub fn parse_max_cpu(v: &str) -> Result<Option<Duration>, String> {
    if v == "none" {
        return Ok(None);
    }
    match crate::scenario::Duration::parse(v) {
        Ok(d) if d.ns() > 0 => Ok(Some(Duration::from_nanos(d.ns()))),
        Ok(_) => Err(format!(
            "--max-cpu {v}: the limit must be > 0 (none: no limit)"
        )),
        Err(e) => Err(format!(
            "--max-cpu {v}: {e}; expected a CPU time such as 60s, 5min or 1.5, or none"
        )),
    }
}

/// What a sweep did.
#[derive(Debug, Clone)]
pub struct Summary {
    pub total: usize,
    /// Runs already in the table before this sweep started.
    pub skipped: usize,
    pub ok: usize,
    pub failed: usize,
    pub jobs: usize,
    pub wall: Duration,
    pub csv: PathBuf,
    pub parquet: Option<PathBuf>,
}

impl Summary {
    pub fn text(&self) -> String {
        let rate = if self.wall.as_secs_f64() > 0.0 {
            (self.ok + self.failed) as f64 / self.wall.as_secs_f64()
        } else {
            0.0
        };
        let mut s = format!(
            "sweep: {} runs: {} ok, {} failed, {} already in the table; {:.1} s on {} job(s) ({rate:.2} runs/s)\n",
            self.total,
            self.ok,
            self.failed,
            self.skipped,
            self.wall.as_secs_f64(),
            self.jobs,
        );
        s += &format!("table: {}", self.csv.display());
        if let Some(p) = &self.parquet {
            s += &format!(" and {}", p.display());
        }
        s.push('\n');
        s
    }
}

/// Where the scenario and the output are, resolved from the arguments (reading a sweep file
/// if `args.file` is one). Returns the scenario path, its text, the spec and the CSV path.
pub fn resolve(args: &Args) -> Result<(PathBuf, String, Spec, PathBuf), String> {
    let read = |p: &Path| {
        std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))
    };
    let file = PathBuf::from(&args.common.file);
    let text = read(&file)?;
    let (scenario, text, spec, file_out) = if grid::is_sweep_file(&text) {
        let f = grid::parse_sweep_file(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        let dir = file.parent().unwrap_or(Path::new(""));
        let scenario = dir.join(&f.scenario);
        let scenario_text =
            read(&scenario).map_err(|e| format!("{}: sweep.scenario: {e}", file.display()))?;
        let spec = args.spec.clone().over(f.spec)?;
        (scenario, scenario_text, spec, f.out.map(|o| dir.join(o)))
    } else {
        (file, text, args.spec.clone(), None)
    };
    let out = match (&args.common.out, file_out) {
        (Some(o), _) => PathBuf::from(o),
        (None, Some(o)) => o,
        (None, None) => {
            let stem = scenario
                .file_stem()
                .map_or("sweep".into(), |s| s.to_string_lossy().into_owned());
            PathBuf::from("sweeps").join(format!("{stem}.csv"))
        }
    };
    Ok((scenario, text, spec, out))
}

/// The rows already in `csv` (empty when it does not exist). Its columns must be `columns`:
/// a table of another grid is never mixed into this one.
pub fn existing_rows(csv: &Path, columns: &[String]) -> Result<Vec<Vec<String>>, String> {
    let text = match std::fs::read_to_string(csv) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", csv.display())),
    };
    let mut records = table::parse_csv(&text).map_err(|e| format!("{}: {e}", csv.display()))?;
    if records.is_empty() {
        return Ok(Vec::new());
    }
    let header = records.remove(0);
    if header != columns {
        return Err(format!(
            "{} holds a table with other columns ({}); this sweep's are {}. Choose another --out or remove the file",
            csv.display(),
            header.join(","),
            columns.join(",")
        ));
    }
    if let Some((i, r)) = records
        .iter()
        .enumerate()
        .find(|(_, r)| r.len() != columns.len())
    {
        return Err(format!(
            "{}: row {} has {} cells, the header {}",
            csv.display(),
            i + 2,
            r.len(),
            columns.len()
        ));
    }
    Ok(records)
}

/// Run the grid `plan` over the scenario `text` into `csv` (and its Parquet twin). Rows
/// already in `csv` are kept and their runs skipped; each new row is appended as soon as its
/// run ends, so a stopped sweep resumes where it was. At the end the table is rewritten in
/// grid order (rows of other grids kept in the file come last).
pub fn execute(
    text: &str,
    plan: &Plan,
    csv: &Path,
    jobs: usize,
    max_cpu: Option<Duration>,
    parquet: bool,
    progress: bool,
) -> Result<Summary, String> {
    let start = Instant::now();
    let columns = &plan.columns;
    let key_len = table::key_len(columns);
    let mut rows = existing_rows(csv, columns)?;
    let done: HashSet<Vec<String>> = rows.iter().map(|r| r[..key_len].to_vec()).collect();
    let todo: Vec<grid::Point> = plan
        .points
        .iter()
        .filter(|p| !done.contains(&p.key()))
        .cloned()
        .collect();
    let skipped = plan.points.len() - todo.len();
    if let Some(dir) = csv.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    // Start from a clean copy of what is there (drops a record cut by a stopped sweep).
    write_atomic(csv, &table::csv_text(columns, &rows))?;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(csv)
        .map_err(|e| format!("cannot write {}: {e}", csv.display()))?;
    let jobs = jobs.clamp(1, todo.len().max(1));
    let mut meter = Meter::new(todo.len(), progress);
    let (mut ok, mut failed) = (0, 0);
    let mut write_error = None;
    run::run_all(text, &todo, jobs, max_cpu, |_, row, good| {
        if good {
            ok += 1;
        } else {
            failed += 1;
        }
        if write_error.is_none() {
            if let Err(e) = file
                .write_all(table::csv_line(&row).as_bytes())
                .and_then(|_| file.flush())
            {
                write_error = Some(format!("cannot write {}: {e}", csv.display()));
            }
        }
        rows.push(row);
        meter.tick(ok + failed);
    });
    meter.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    // Grid order, then rows of other grids in the order they were.
    let position: std::collections::HashMap<Vec<String>, usize> = plan
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| (p.key(), i))
        .collect();
    rows.sort_by_key(|r| position.get(&r[..key_len]).copied().unwrap_or(usize::MAX));
    write_atomic(csv, &table::csv_text(columns, &rows))?;
    let parquet_path = if parquet {
        write_parquet(csv, columns, &rows)?
    } else {
        None
    };
    Ok(Summary {
        total: plan.points.len(),
        skipped,
        ok,
        failed,
        jobs,
        wall: start.elapsed(),
        csv: csv.to_path_buf(),
        parquet: parquet_path,
    })
}

#[cfg(feature = "parquet")]
fn write_parquet(
    csv: &Path,
    columns: &[String],
    rows: &[Vec<String>],
) -> Result<Option<PathBuf>, String> {
    let path = csv.with_extension("parquet");
    parquet::write(&path, columns, rows)?;
    Ok(Some(path))
}

#[cfg(not(feature = "parquet"))]
fn write_parquet(_: &Path, _: &[String], _: &[Vec<String>]) -> Result<Option<PathBuf>, String> {
    Err("this build has no Parquet support (the `parquet` feature); use --no-parquet".to_string())
}

fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("csv.tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Progress on stderr: done/total, rate and ETA; one updating line on a terminal, otherwise
/// a line every few seconds.
struct Meter {
    total: usize,
    start: Instant,
    last: Instant,
    enabled: bool,
    tty: bool,
}

impl Meter {
    fn new(total: usize, enabled: bool) -> Meter {
        let now = Instant::now();
        Meter {
            total,
            start: now,
            last: now,
            enabled: enabled && total > 0,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn line(&self, done: usize) -> String {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
        let eta = if rate > 0.0 {
            format!("{:.0} s", (self.total - done) as f64 / rate)
        } else {
            "?".into()
        };
        format!(
            "sweep: {done}/{} runs, {rate:.2} runs/s, ETA {eta}",
            self.total
        )
    }

    fn tick(&mut self, done: usize) {
        if !self.enabled {
            return;
        }
        let every = if self.tty {
            Duration::from_millis(200)
        } else {
            Duration::from_secs(5)
        };
        if self.last.elapsed() >= every || done == self.total {
            self.last = Instant::now();
            if self.tty {
                eprint!("\r{}\x1b[K", self.line(done));
            } else {
                eprintln!("{}", self.line(done));
            }
        }
    }

    fn finish(&self) {
        if self.enabled && self.tty {
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Args, String> {
        parse_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn arguments_parse_and_bad_ones_are_named() {
        let a = args(&[
            "f.toml",
            "--set",
            "swappiness=0,60",
            "--set=ram=1GiB",
            "--seeds",
            "1..3",
            "-j",
            "2",
            "--variant",
            "after",
        ])
        .unwrap();
        assert_eq!(a.common.file, "f.toml");
        assert_eq!(a.spec.axes.len(), 2);
        assert_eq!(a.spec.seeds, vec![1, 2, 3]);
        assert_eq!(a.spec.variants, vec!["after"]);
        assert_eq!(a.common.jobs, Some(2));
        assert_eq!(a.common.max_cpu, Some(run::DEFAULT_MAX_CPU));
        let limited = |v: &str| args(&["f", "--max-cpu", v]).map(|a| a.common.max_cpu);
        assert_eq!(limited("90s"), Ok(Some(Duration::from_secs(90))));
        assert_eq!(limited("1.5"), Ok(Some(Duration::from_millis(1500))));
        assert_eq!(limited("none"), Ok(None));
        assert!(limited("0").unwrap_err().contains("must be > 0"));
        assert!(limited("soon").unwrap_err().contains("--max-cpu soon"));
        assert!(args(&[]).unwrap_err().contains("needs a scenario"));
        assert!(args(&["f", "--jobs=1001"]).unwrap_err().contains("--jobs 1001"));
        assert!(args(&["f", "--jobs", "0"])
            .unwrap_err()
            .contains("--jobs 0"));
        assert!(args(&["f", "--set"]).unwrap_err().contains("needs a value"));
        assert!(args(&["f", "--sets", "x"])
            .unwrap_err()
            .contains("`--sets`"));
        assert!(args(&["f", "g"]).unwrap_err().contains("one file"));
        assert!(args(&["f", "--seeds", "1", "--set", "seed=2"])
            .unwrap_err()
            .contains("twice"));
    }
}

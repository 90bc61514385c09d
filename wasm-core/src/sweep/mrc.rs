//! `reclaim mrc`: the miss-ratio curve of a replayed trace (`crate::mrc`) with every point,
//! reference policy or kernel run, a job of the sweep runner (`run::parallel`), into one tidy
//! table (CSV, and Parquet with the `parquet` feature).
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::run;
use crate::mrc;
use crate::scenario::trace::TraceFormat;
use crate::scenario::{Budget, Scenario};
use crate::Simulation;

pub const USAGE: &str = "usage: reclaim mrc FILE [options]
  FILE                 a scenario with one replay op; its trace is read next to it
  --points N           cache sizes, log-spaced from 1% to 100% of the footprint (default 16)
  --jobs N             points in parallel (default: every core)
  --max-cpu 60s        CPU time a kernel run may use (default: 600s; none: no limit)
  --out PATH.csv       the table (default: sweeps/SCENARIO-mrc.csv); Parquet next to it
  --no-parquet         write the CSV only
  --quiet              no progress on stderr
";

/// The table's columns: one row a policy (and kernel variant) and size.
pub const COLUMNS: [&str; 10] = [
    "policy",
    "variant",
    "preset",
    "cache_pages",
    "cache_share",
    "requests",
    "footprint",
    "misses",
    "miss_ratio",
    "error",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Args {
    pub common: super::Common,
    pub points: usize,
}

/// Parse the arguments after `mrc`.
pub fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut points = mrc::POINTS;
    let common = super::parse_common(args, "mrc", |flag, value| match flag {
        "--points" => {
            points = super::count(&value()?, "--points")?;
            Ok(true)
        }
        _ => Ok(false),
    })?;
    Ok(Args { common, points })
}

/// Read scenario `file` and attach its trace (relative to the file).
pub fn load(file: &Path, budget: &Budget) -> Result<Scenario, String> {
    let (_, mut scn) = read_scenario(file, budget)?;
    let dir = file.parent().unwrap_or(Path::new("."));
    super::traces::attach(&mut scn, dir, budget)?;
    Ok(scn)
}

/// Scenario `file`'s text, read once, and the scenario it parses to (no trace attached).
fn read_scenario(file: &Path, budget: &Budget) -> Result<(String, Scenario), String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let scn = crate::scenario::parse_with_budget(&text, budget)
        .map_err(|e| format!("{}:{}:{}: {}", file.display(), e.line, e.column, e.what()))?;
    Ok((text, scn))
}

/// Traces as (name, bytes).
pub type TraceBytes = Vec<(String, Vec<u8>)>;

/// A scenario file's text and the bytes of each trace it names (relative to the file), for
/// a shell that ships a curve's points to other machines (Python's Ray backend): the file and
/// each trace read once, each trace refused when longer than the budget allows (by its length
/// before it is read, and by what it gave).
pub fn load_bytes(file: &Path, budget: &Budget) -> Result<(String, TraceBytes), String> {
    let (text, scn) = read_scenario(file, budget)?;
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut traces = Vec::new();
    for name in scn.trace_names() {
        let bytes = super::traces::read_bytes(&dir.join(&name), &name, budget)?;
        traces.push((name, bytes));
    }
    Ok((text, traces))
}

/// The scenario of [`load_bytes`]'s text with its traces attached, on the machine of a point.
pub fn from_bytes(text: &str, traces: TraceBytes, budget: &Budget) -> Result<Scenario, String> {
    let mut scn = crate::scenario::parse_with_budget(text, budget)
        .map_err(|e| format!("{}:{}: {}", e.line, e.column, e.what()))?;
    for (name, bytes) in traces {
        scn.traces
            .insert(&name, std::sync::Arc::new(bytes), budget)?;
    }
    Ok(scn)
}

/// One point of a curve: a reference policy at a size, or a kernel variant at a size (JSON
/// between the shells and the machines that run points).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "policy", rename_all = "lowercase")]
pub enum Job {
    Lru { pages: u64 },
    Opt { pages: u64 },
    Kernel { variant: String, pages: u64 },
}

/// A scenario's curve: its plan (one pass over the trace), the points to run and how to run
/// each, and the table of their results. Each point depends only on the scenario and the
/// point, so any machine given the two computes the same misses.
pub struct Curve<'a> {
    scn: &'a Scenario,
    plan: mrc::Plan,
    found: crate::scenario::trace::TraceScan,
    /// OPT's next requests of a CSV trace, made once on the first OPT point (oracleGeneral
    /// traces carry them).
    next: std::sync::OnceLock<Result<Option<Vec<u64>>, String>>,
    /// What a kernel point's machine may have (`mrc::kernel_scenario`).
    budget: Budget,
}

impl<'a> Curve<'a> {
    pub fn new(scn: &'a Scenario, points: usize) -> Result<Curve<'a>, String> {
        let (plan, found) = mrc::plan(scn, points)?;
        Ok(Curve {
            scn,
            plan,
            found,
            next: std::sync::OnceLock::new(),
            budget: Budget::DEFAULT,
        })
    }

    /// The curve with kernel points held to `budget` instead of the default one.
    pub fn with_budget(mut self, budget: &Budget) -> Curve<'a> {
        self.budget = *budget;
        self
    }

    /// The points, in the table's order: LRU and OPT at each size, then each variant's sizes.
    pub fn jobs(&self) -> Vec<Job> {
        let mut todo = Vec::new();
        for &pages in &self.plan.sizes {
            todo.push(Job::Lru { pages });
            todo.push(Job::Opt { pages });
        }
        for v in &self.scn.variants {
            for &pages in &self.plan.sizes {
                todo.push(Job::Kernel {
                    variant: v.name.clone(),
                    pages,
                });
            }
        }
        todo
    }

    /// One point's misses, or what stopped it (a kernel run past `max_cpu`, a panic).
    pub fn run(&self, job: &Job, max_cpu: Option<Duration>) -> Result<u64, String> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.run_unguarded(job, max_cpu)
        }))
        .unwrap_or_else(|_| Err("the engine panicked".into()))
    }

    fn run_unguarded(&self, job: &Job, max_cpu: Option<Duration>) -> Result<u64, String> {
        let (scn, found) = (self.scn, &self.found);
        let (_, replay) = mrc::the_replay(scn)?;
        match job {
            Job::Lru { pages } => {
                let mut rd = mrc::reader(scn, replay)?;
                mrc::lru_misses(&mut rd, &found.pages, *pages)
            }
            Job::Opt { pages } => {
                let next = self
                    .next
                    .get_or_init(|| match replay.format {
                        TraceFormat::OracleGeneral => Ok(None),
                        TraceFormat::Csv => {
                            let mut rd = mrc::reader(scn, replay)?;
                            crate::reference::next_requests(&mut rd, &found.pages).map(Some)
                        }
                    })
                    .clone()?;
                let mut rd = mrc::reader(scn, replay)?;
                mrc::opt_misses(&mut rd, &found.pages, *pages, next.as_deref())
            }
            Job::Kernel { variant, pages } => {
                let point = mrc::kernel_scenario(scn, *pages, self.plan.footprint, &self.budget)?;
                let mut sim = Simulation::new(&point, variant)?;
                run::run_limited(&mut sim, max_cpu, "--max-cpu")?;
                let s = sim.replay_stats_of(&self.plan.task_name);
                mrc::kernel_misses(s.requests, s.misses, self.plan.requests)
            }
        }
    }

    /// The table's rows (in the order of [`COLUMNS`]) of `jobs` and their results, and how
    /// many points failed.
    pub fn rows(
        &self,
        jobs: &[Job],
        results: Vec<Result<u64, String>>,
    ) -> (Vec<Vec<String>>, usize) {
        let plan = &self.plan;
        let mut rows = Vec::new();
        let mut failed = 0;
        for (job, r) in jobs.iter().zip(results) {
            let (policy, variant, preset, size) = match job {
                Job::Lru { pages } => ("lru", "", "", *pages),
                Job::Opt { pages } => ("opt", "", "", *pages),
                Job::Kernel { variant, pages } => {
                    let preset = self
                        .scn
                        .variants
                        .iter()
                        .find(|x| &x.name == variant)
                        .map_or("", |x| x.preset.as_str());
                    ("kernel", variant.as_str(), preset, *pages)
                }
            };
            failed += usize::from(r.is_err());
            let (misses, ratio, error) = match r {
                Ok(m) => (
                    m.to_string(),
                    (m as f64 / plan.requests.max(1) as f64).to_string(),
                    String::new(),
                ),
                Err(e) => (String::new(), String::new(), e),
            };
            rows.push(vec![
                policy.to_string(),
                variant.to_string(),
                preset.to_string(),
                size.to_string(),
                (size as f64 / plan.footprint.max(1) as f64).to_string(),
                plan.requests.to_string(),
                plan.footprint.to_string(),
                misses,
                ratio,
                error,
            ]);
        }
        (rows, failed)
    }
}

/// The curve's table: its rows in the order of [`COLUMNS`] (policy lru, opt, then each
/// variant; sizes ascending), and how many points failed; kernel points held to `budget`.
/// `progress(done, total)` is called on the calling thread as points finish.
pub fn table(
    scn: &Scenario,
    points: usize,
    jobs: usize,
    max_cpu: Option<Duration>,
    budget: &Budget,
    mut progress: impl FnMut(usize, usize),
) -> Result<(Vec<Vec<String>>, usize), String> {
    let curve = Curve::new(scn, points)?.with_budget(budget);
    let todo = curve.jobs();
    let mut results: Vec<Option<Result<u64, String>>> = vec![None; todo.len()];
    let total = todo.len();
    let mut done = 0;
    run::parallel(
        &todo,
        jobs,
        |j| curve.run(j, max_cpu),
        |i, r| {
            results[i] = Some(r);
            done += 1;
            progress(done, total);
        },
    );
    let results = results
        .into_iter()
        .map(|r| r.unwrap_or_else(|| Err("not run".into())))
        .collect();
    Ok(curve.rows(&todo, results))
}

/// `reclaim mrc`: the table written to `out` (default `sweeps/NAME-mrc.csv`), and Parquet
/// beside it. Returns the paths written and the failed points.
pub fn execute(a: &Args, budget: &Budget) -> Result<(Vec<PathBuf>, usize, usize), String> {
    let (points, a) = (a.points, &a.common);
    let file = Path::new(&a.file);
    let scn = load(file, budget)?;
    let out = a.out.clone().map(PathBuf::from).unwrap_or_else(|| {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("scenario");
        PathBuf::from("sweeps").join(format!("{stem}-mrc.csv"))
    });
    let jobs = a.jobs.unwrap_or_else(run::default_jobs);
    // On a terminal one line rewritten; elsewhere a line at every eighth of the points.
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let quiet = a.quiet;
    let (rows, failed) = table(&scn, points, jobs, a.max_cpu, budget, |done, total| {
        if quiet {
            return;
        }
        if tty {
            eprint!("\r[mrc] {done}/{total} points");
            if done == total {
                eprintln!();
            }
        } else if done == total || done % total.div_ceil(8) == 0 {
            eprintln!("[mrc] {done}/{total} points");
        }
    })?;
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let columns: Vec<String> = COLUMNS.iter().map(|c| c.to_string()).collect();
    std::fs::write(&out, super::table::csv_text(&columns, &rows))
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    let mut written = vec![out.clone()];
    #[cfg(feature = "parquet")]
    if a.parquet {
        let p = out.with_extension("parquet");
        super::parquet::write(&p, &columns, &rows)?;
        written.push(p);
    }
    Ok((written, rows.len(), failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Result<Args, String> {
        parse_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn its_own_option_and_the_common_ones_parse() {
        let a = args(&["t.toml", "--points=8", "-j", "2", "--no-parquet"]).unwrap();
        assert_eq!(
            (a.points, a.common.jobs, a.common.parquet),
            (8, Some(2), false)
        );
        assert_eq!(a.common.file, "t.toml");
        assert!(args(&["t.toml", "--points", "0"])
            .unwrap_err()
            .contains("--points 0"));
        assert!(args(&["t.toml", "--set", "x=1"])
            .unwrap_err()
            .contains("`--set` for `mrc`"));
        assert!(args(&[]).unwrap_err().contains("reclaim mrc FILE"));
    }
}

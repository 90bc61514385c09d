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
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut scn = crate::scenario::parse_with_budget(&text, budget)
        .map_err(|e| format!("{}:{}:{}: {}", file.display(), e.line, e.column, e.what()))?;
    let dir = file.parent().unwrap_or(Path::new("."));
    super::traces::attach(&mut scn, dir, budget)?;
    Ok(scn)
}

/// One job: a reference policy at a size, or a kernel variant at a size.
#[derive(Debug, Clone)]
enum Job {
    Lru(u64),
    Opt(u64),
    Kernel(String, u64),
}

/// The curve's table: its rows in the order of [`COLUMNS`] (policy lru, opt, then each
/// variant; sizes ascending), and how many points failed. `progress(done, total)` is called
/// on the calling thread as points finish.
pub fn table(
    scn: &Scenario,
    points: usize,
    jobs: usize,
    max_cpu: Option<Duration>,
    mut progress: impl FnMut(usize, usize),
) -> Result<(Vec<Vec<String>>, usize), String> {
    let (plan, found) = mrc::plan(scn, points)?;
    let (_, replay) = mrc::the_replay(scn)?;
    // CSV traces carry no next request: OPT's are made once for every size.
    let next = match replay.format {
        TraceFormat::OracleGeneral => None,
        TraceFormat::Csv => {
            let mut rd = mrc::reader(scn, replay)?;
            Some(mrc::next_requests(&mut rd, &found.pages)?)
        }
    };
    let mut todo = Vec::new();
    for &s in &plan.sizes {
        todo.push(Job::Lru(s));
        todo.push(Job::Opt(s));
    }
    for v in &scn.variants {
        for &s in &plan.sizes {
            todo.push(Job::Kernel(v.name.clone(), s));
        }
    }
    let run_job = |job: &Job| -> Result<u64, String> {
        match job {
            Job::Lru(s) => {
                let mut rd = mrc::reader(scn, replay)?;
                mrc::lru_misses(&mut rd, &found.pages, *s)
            }
            Job::Opt(s) => {
                let mut rd = mrc::reader(scn, replay)?;
                mrc::opt_misses(&mut rd, &found.pages, *s, next.as_deref())
            }
            Job::Kernel(v, s) => {
                let point = mrc::kernel_scenario(scn, *s, plan.footprint);
                let mut sim = Simulation::new(&point, v)?;
                run::run_limited(&mut sim, max_cpu, "--max-cpu")?;
                mrc::kernel_misses(&sim.replay_stats(), &plan.task_name, plan.requests)
            }
        }
    };
    let mut results: Vec<Option<Result<u64, String>>> = vec![None; todo.len()];
    let total = todo.len();
    let mut done = 0;
    run::parallel(
        &todo,
        jobs,
        |j| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_job(j)))
                .unwrap_or_else(|_| Err("the engine panicked".into()))
        },
        |i, r| {
            results[i] = Some(r);
            done += 1;
            progress(done, total);
        },
    );
    let mut rows = Vec::new();
    let mut failed = 0;
    for (job, r) in todo.iter().zip(results) {
        let (policy, variant, preset, size) = match job {
            Job::Lru(s) => ("lru", "", "", *s),
            Job::Opt(s) => ("opt", "", "", *s),
            Job::Kernel(v, s) => {
                let preset = scn
                    .variants
                    .iter()
                    .find(|x| &x.name == v)
                    .map_or("", |x| x.preset.as_str());
                ("kernel", v.as_str(), preset, *s)
            }
        };
        let r = r.unwrap_or_else(|| Err("not run".into()));
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
    Ok((rows, failed))
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
    let (rows, failed) = table(&scn, points, jobs, a.max_cpu, |done, total| {
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
        assert_eq!((a.points, a.common.jobs, a.common.parquet), (8, Some(2), false));
        assert_eq!(a.common.file, "t.toml");
        assert!(args(&["t.toml", "--points", "0"]).unwrap_err().contains("--points 0"));
        assert!(args(&["t.toml", "--set", "x=1"]).unwrap_err().contains("`--set` for `mrc`"));
        assert!(args(&[]).unwrap_err().contains("reclaim mrc FILE"));
    }
}

//! `reclaimlab._core`: the engine and the sweep runner for Python. The Python package
//! (`reclaimlab/__init__.py`) turns paths into text and results into dicts and DataFrames;
//! everything here takes and returns plain strings and lists. Bad input raises ValueError; an
//! engine error (a run that cannot be built or ends early) RuntimeError.
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use reclaim_core::report::CompareReport;
use reclaim_core::scenario::knobs;
use reclaim_core::sweep::{grid, run, table};
use reclaim_core::Simulation;

fn bad(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Knob names and values (as text) with the names made canonical.
fn canonical_knobs(knobs: Vec<(String, String)>) -> PyResult<Vec<(String, String)>> {
    knobs
        .into_iter()
        .map(|(n, v)| {
            let n = knobs::canonical(&n).map_err(bad)?;
            knobs::check_value(&n, &v).map_err(bad)?;
            Ok((n, v))
        })
        .collect()
}

/// `max_cpu=` as the CLI's `--max-cpu` takes it (seconds or a duration; "none": no limit).
fn max_cpu(v: Option<&str>) -> PyResult<Option<std::time::Duration>> {
    v.map_or(Ok(None), |v| {
        reclaim_core::sweep::parse_max_cpu(v)
            .map_err(|e| bad(e.replacen("--max-cpu", "max_cpu=", 1)))
    })
}

/// An engine error: the run could not be built, or ended early (the progress guard, the CPU
/// limit).
fn engine_error(variant: &str, e: String) -> PyErr {
    PyRuntimeError::new_err(format!("variant {variant}: {e}"))
}

fn run_report(
    text: &str,
    variant: Option<&str>,
    knobs: &[(String, String)],
    limit: Option<std::time::Duration>,
) -> Result<reclaim_core::report::RunReport, PyErr> {
    let base = reclaim_core::scenario::parse(text).map_err(|e| {
        bad(format!(
            "line {}, column {}: {}",
            e.line,
            e.column,
            e.what()
        ))
    })?;
    let name = reclaim_core::scenario::pick_variant(&base, variant).map_err(bad)?;
    let scn = knobs::scenario_with(text, knobs, &name).map_err(bad)?;
    let mut sim = Simulation::new(&scn, &name).map_err(|e| engine_error(&name, e))?;
    run::run_limited(&mut sim, limit, "max_cpu=").map_err(|e| engine_error(&name, e))
}

fn to_json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The knobs a run or a sweep takes.
#[pyfunction]
fn knob_names() -> Vec<&'static str> {
    knobs::knob_names()
}

/// `reclaim run --json` of one variant (None: the first) with knobs applied, within `max_cpu`
/// of CPU time (None: no limit).
#[pyfunction]
#[pyo3(signature = (text, variant, knobs, max_cpu=None))]
fn run_json(
    py: Python<'_>,
    text: &str,
    variant: Option<&str>,
    knobs: Vec<(String, String)>,
    max_cpu: Option<&str>,
) -> PyResult<String> {
    let knobs = canonical_knobs(knobs)?;
    let limit = self::max_cpu(max_cpu)?;
    let report = py.detach(|| run_report(text, variant, &knobs, limit))?;
    to_json(&report)
}

/// `reclaim compare --json` with knobs applied to every variant, each within `max_cpu`.
#[pyfunction]
#[pyo3(signature = (text, knobs, max_cpu=None))]
fn compare_json(
    py: Python<'_>,
    text: &str,
    knobs: Vec<(String, String)>,
    max_cpu: Option<&str>,
) -> PyResult<String> {
    let knobs = canonical_knobs(knobs)?;
    let limit = self::max_cpu(max_cpu)?;
    let base = reclaim_core::scenario::parse(text).map_err(|e| {
        bad(format!(
            "line {}, column {}: {}",
            e.line,
            e.column,
            e.what()
        ))
    })?;
    let names: Vec<String> = base.variants.iter().map(|v| v.name.clone()).collect();
    let variants = py.detach(|| {
        names
            .iter()
            .map(|n| run_report(text, Some(n), &knobs, limit))
            .collect::<Result<Vec<_>, _>>()
    })?;
    to_json(&CompareReport::new(&base, variants))
}

/// The grid of a sweep: axes as (name, values) in order, variants (empty: all), seeds
/// (empty: the scenario's). Returns the table's columns and each run's point as JSON.
#[pyfunction]
fn plan(
    text: &str,
    axes: Vec<(String, Vec<String>)>,
    variants: Vec<String>,
    seeds: Vec<u64>,
) -> PyResult<(Vec<String>, Vec<String>)> {
    let mut spec = grid::Spec {
        axes: Vec::new(),
        variants,
        seeds,
    };
    for (name, values) in axes {
        let name = knobs::canonical(&name).map_err(bad)?;
        if name == "seed" {
            return Err(bad("give seeds with seeds=, not as an axis"));
        }
        for v in &values {
            knobs::check_value(&name, v).map_err(bad)?;
        }
        spec.add_axis(grid::Axis { name, values }).map_err(bad)?;
    }
    let p = grid::plan(text, &spec).map_err(bad)?;
    let points = p.points.iter().map(to_json).collect::<PyResult<Vec<_>>>()?;
    Ok((p.columns, points))
}

/// One run of a grid (a point from `plan`) within `max_cpu`: its row, as text cells. Never
/// raises for a run that fails: the row holds the error.
#[pyfunction]
#[pyo3(signature = (text, point, max_cpu=None))]
fn run_point(
    py: Python<'_>,
    text: &str,
    point: &str,
    max_cpu: Option<&str>,
) -> PyResult<Vec<String>> {
    let point: grid::Point = serde_json::from_str(point).map_err(bad)?;
    let limit = self::max_cpu(max_cpu)?;
    Ok(py.detach(|| run::point_row(text, &point, limit)))
}

/// Every point of a grid on `jobs` threads, each within `max_cpu`; the rows in grid order.
#[pyfunction]
#[pyo3(signature = (text, points, jobs, max_cpu=None))]
fn run_points(
    py: Python<'_>,
    text: &str,
    points: Vec<String>,
    jobs: usize,
    max_cpu: Option<&str>,
) -> PyResult<Vec<Vec<String>>> {
    let limit = self::max_cpu(max_cpu)?;
    let points: Vec<grid::Point> = points
        .iter()
        .map(|p| serde_json::from_str(p).map_err(bad))
        .collect::<PyResult<_>>()?;
    let mut rows: Vec<Option<Vec<String>>> = vec![None; points.len()];
    py.detach(|| run::run_all(text, &points, jobs, limit, |i, row, _| rows[i] = Some(row)));
    Ok(rows.into_iter().map(|r| r.unwrap_or_default()).collect())
}

/// The miss-ratio curve of the scenario file at `path` (one replay op; its trace read next to
/// the file): `reclaim mrc`'s columns and rows, its points on `jobs` threads.
#[pyfunction]
#[pyo3(signature = (path, points, jobs, max_cpu=None))]
fn mrc_rows(
    py: Python<'_>,
    path: &str,
    points: usize,
    jobs: usize,
    max_cpu: Option<&str>,
) -> PyResult<(Vec<String>, Vec<Vec<String>>)> {
    use reclaim_core::sweep::mrc;
    let limit = self::max_cpu(max_cpu)?;
    let budget = reclaim_core::scenario::Budget::DEFAULT;
    let scn = mrc::load(std::path::Path::new(path), &budget).map_err(bad)?;
    let (rows, _) = py
        .detach(|| mrc::table(&scn, points.max(1), jobs, limit, &budget, |_, _| {}))
        .map_err(bad)?;
    Ok((mrc::COLUMNS.iter().map(|c| c.to_string()).collect(), rows))
}

/// A curve's scenario from the text and traces (name, bytes) of `mrc_load`, the bytes copied
/// out of Python.
fn shipped(
    text: &str,
    traces: Vec<(String, Bound<'_, PyBytes>)>,
) -> PyResult<reclaim_core::scenario::Scenario> {
    let traces = traces
        .into_iter()
        .map(|(n, b)| (n, b.as_bytes().to_vec()))
        .collect();
    let budget = reclaim_core::scenario::Budget::DEFAULT;
    reclaim_core::sweep::mrc::from_bytes(text, traces, &budget).map_err(bad)
}

/// A curve's scenario file, for shipping its points to other machines (the Ray backend): its
/// text and each trace's bytes, as (name, bytes).
#[pyfunction]
fn mrc_load(py: Python<'_>, path: &str) -> PyResult<(String, Vec<(String, Py<PyBytes>)>)> {
    use reclaim_core::sweep::mrc;
    let budget = reclaim_core::scenario::Budget::DEFAULT;
    let (text, traces) = mrc::load_bytes(std::path::Path::new(path), &budget).map_err(bad)?;
    let traces = traces
        .into_iter()
        .map(|(n, b)| (n, PyBytes::new(py, &b).unbind()))
        .collect();
    Ok((text, traces))
}

/// The points of the curve of `text` with `traces` at `points` sizes, as JSON, in the table's
/// order.
#[pyfunction]
fn mrc_jobs(
    text: &str,
    traces: Vec<(String, Bound<'_, PyBytes>)>,
    points: usize,
) -> PyResult<Vec<String>> {
    use reclaim_core::sweep::mrc;
    let scn = shipped(text, traces)?;
    let curve = mrc::Curve::new(&scn, points.max(1)).map_err(bad)?;
    curve.jobs().iter().map(to_json).collect()
}

/// One point (a job of `mrc_jobs`) within `max_cpu`: its misses, or None and the error.
/// Raises only for a scenario or trace that cannot make a curve at all.
#[pyfunction]
#[pyo3(signature = (text, traces, points, job, max_cpu=None))]
fn mrc_job(
    py: Python<'_>,
    text: &str,
    traces: Vec<(String, Bound<'_, PyBytes>)>,
    points: usize,
    job: &str,
    max_cpu: Option<&str>,
) -> PyResult<(Option<u64>, String)> {
    use reclaim_core::sweep::mrc;
    let limit = self::max_cpu(max_cpu)?;
    let job: mrc::Job = serde_json::from_str(job).map_err(bad)?;
    let scn = shipped(text, traces)?;
    py.detach(|| {
        let curve = mrc::Curve::new(&scn, points.max(1))?;
        Ok(match curve.run(&job, limit) {
            Ok(m) => (Some(m), String::new()),
            Err(e) => (None, e),
        })
    })
    .map_err(|e: String| bad(e))
}

/// The curve's columns and rows from its jobs' results, (misses or None, error) each.
#[pyfunction]
fn mrc_table(
    text: &str,
    traces: Vec<(String, Bound<'_, PyBytes>)>,
    points: usize,
    jobs: Vec<String>,
    results: Vec<(Option<u64>, String)>,
) -> PyResult<(Vec<String>, Vec<Vec<String>>)> {
    use reclaim_core::sweep::mrc;
    let scn = shipped(text, traces)?;
    let curve = mrc::Curve::new(&scn, points.max(1)).map_err(bad)?;
    let jobs: Vec<mrc::Job> = jobs
        .iter()
        .map(|j| serde_json::from_str(j).map_err(bad))
        .collect::<PyResult<_>>()?;
    let results = results.into_iter().map(|(m, e)| m.ok_or(e)).collect();
    let (rows, _) = curve.rows(&jobs, results);
    Ok((mrc::COLUMNS.iter().map(|c| c.to_string()).collect(), rows))
}

/// The table as CSV text (the same text `reclaim sweep` writes).
#[pyfunction]
fn csv_text(columns: Vec<String>, rows: Vec<Vec<String>>) -> String {
    table::csv_text(&columns, &rows)
}

/// The machine's cores.
#[pyfunction]
fn default_jobs() -> usize {
    run::default_jobs()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VERSION", reclaim_core::VERSION)?;
    m.add(
        "DEFAULT_SWEEP_MAX_CPU_S",
        run::DEFAULT_MAX_CPU.as_secs_f64(),
    )?;
    m.add_function(wrap_pyfunction!(knob_names, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(run_point, m)?)?;
    m.add_function(wrap_pyfunction!(run_points, m)?)?;
    m.add_function(wrap_pyfunction!(csv_text, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_rows, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_load, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_jobs, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_job, m)?)?;
    m.add_function(wrap_pyfunction!(mrc_table, m)?)?;
    m.add_function(wrap_pyfunction!(default_jobs, m)?)?;
    Ok(())
}

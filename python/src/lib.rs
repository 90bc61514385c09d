//! `reclaimlab._core`: the engine and the sweep runner for Python. The Python package
//! (`reclaimlab/__init__.py`) turns paths into text and results into dicts and DataFrames;
//! everything here takes and returns plain strings and lists. Bad input raises ValueError.
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

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

fn run_report(
    text: &str,
    variant: Option<&str>,
    knobs: &[(String, String)],
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
    let mut sim = Simulation::new(&scn, &name)
        .map_err(|e| PyRuntimeError::new_err(format!("variant {name}: {e}")))?;
    Ok(sim.run_to_end())
}

fn to_json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The knobs a run or a sweep takes.
#[pyfunction]
fn knob_names() -> Vec<&'static str> {
    knobs::knob_names()
}

/// `reclaim run --json` of one variant (None: the first) with knobs applied.
#[pyfunction]
#[pyo3(signature = (text, variant, knobs))]
fn run_json(
    py: Python<'_>,
    text: &str,
    variant: Option<&str>,
    knobs: Vec<(String, String)>,
) -> PyResult<String> {
    let knobs = canonical_knobs(knobs)?;
    let report = py.detach(|| run_report(text, variant, &knobs))?;
    to_json(&report)
}

/// `reclaim compare --json` with knobs applied to every variant.
#[pyfunction]
fn compare_json(py: Python<'_>, text: &str, knobs: Vec<(String, String)>) -> PyResult<String> {
    let knobs = canonical_knobs(knobs)?;
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
            .map(|n| run_report(text, Some(n), &knobs))
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

/// One run of a grid (a point from `plan`): its row, as text cells. Never raises for a run
/// that fails: the row holds the error.
#[pyfunction]
fn run_point(py: Python<'_>, text: &str, point: &str) -> PyResult<Vec<String>> {
    let point: grid::Point = serde_json::from_str(point).map_err(bad)?;
    Ok(py.detach(|| run::point_row(text, &point)))
}

/// Every point of a grid on `jobs` threads; the rows in grid order.
#[pyfunction]
fn run_points(
    py: Python<'_>,
    text: &str,
    points: Vec<String>,
    jobs: usize,
) -> PyResult<Vec<Vec<String>>> {
    let points: Vec<grid::Point> = points
        .iter()
        .map(|p| serde_json::from_str(p).map_err(bad))
        .collect::<PyResult<_>>()?;
    let mut rows: Vec<Option<Vec<String>>> = vec![None; points.len()];
    py.detach(|| run::run_all(text, &points, jobs, |i, row, _| rows[i] = Some(row)));
    Ok(rows.into_iter().map(|r| r.unwrap_or_default()).collect())
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
    m.add_function(wrap_pyfunction!(knob_names, m)?)?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(compare_json, m)?)?;
    m.add_function(wrap_pyfunction!(plan, m)?)?;
    m.add_function(wrap_pyfunction!(run_point, m)?)?;
    m.add_function(wrap_pyfunction!(run_points, m)?)?;
    m.add_function(wrap_pyfunction!(csv_text, m)?)?;
    m.add_function(wrap_pyfunction!(default_jobs, m)?)?;
    Ok(())
}

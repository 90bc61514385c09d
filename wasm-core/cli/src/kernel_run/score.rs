//! The agreement score of docs/validation.md: per kernel, the share of (scenario, variant,
//! counter) cells whose kernel median is within 1.25x and within 2x of the model, and the share
//! of directions that agree: classic vs MGLRU within a scenario, and a knob's base scenario
//! against the scenarios that change that knob alone (validation/knobs.json), per variant.
use std::collections::BTreeMap;

use serde::Deserialize;

use super::cli::{markdown, sign, Row, Validation};

/// Counters that moved by fewer pages than this in both columns are left out of the score:
/// run-to-run noise of a real kernel, as `cli::NOISE_PAGES` for directions.
pub const MIN_PAGES: f64 = 100.0;

/// A row the score counts: a page counter (not a time, a rate or a percentage) that reached
/// MIN_PAGES in the kernel's median or the model, with at least one boot.
pub fn scored(r: &Row) -> bool {
    let counter =
        !(r.metric.ends_with(" s") || r.metric.ends_with("ops/s") || r.metric.contains('%'));
    counter && !r.kernel_boots.is_empty() && r.kernel.max(r.model) >= MIN_PAGES
}

/// Whether kernel / model lies within [1/x, x] (a zero model is within nothing).
pub fn within(r: &Row, x: f64) -> bool {
    r.model > 0.0 && {
        let q = r.kernel / r.model;
        q >= 1.0 / x && q <= x
    }
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct Score {
    pub scenarios: usize,
    pub cells: usize,
    pub within_1_25: usize,
    pub within_2: usize,
    pub directions: usize,
    pub agree: usize,
    pub incomplete: usize,
    /// The fewest and the most boots behind a scored cell.
    pub boots: Option<(usize, usize)>,
}

pub fn score(vs: &[&Validation]) -> Score {
    let mut s = Score::default();
    for v in vs {
        s.scenarios += 1;
        s.incomplete += (v.boots_missing > 0) as usize;
        for r in v.rows.iter().filter(|r| scored(r)) {
            s.cells += 1;
            s.within_1_25 += within(r, 1.25) as usize;
            s.within_2 += within(r, 2.0) as usize;
            let n = r.kernel_boots.len();
            s.boots = Some(s.boots.map_or((n, n), |(lo, hi)| (lo.min(n), hi.max(n))));
        }
        let counted: Vec<_> = v.directions.iter().filter(|d| counted(v, d)).collect();
        s.directions += counted.len();
        s.agree += counted.iter().filter(|d| d.agree).count();
    }
    s
}

/// Whether a counter reached MIN_PAGES in any of the four values a direction compares (the
/// model's and the kernel's, before and after): a counter under it on every side is 'same' on
/// both by the noise floor, an agreement that says nothing, and is not scored (as cells).
/// Times and percentages always count: their floors are their own.
fn reached(metric: &str, values: [f64; 4]) -> bool {
    let counter = !(metric.ends_with(" s") || metric.ends_with("ops/s") || metric.contains('%'));
    !counter || values.iter().any(|x| x.abs() >= MIN_PAGES)
}

/// Whether a classic-vs-MGLRU direction of `v` is scored (`reached`).
fn counted(v: &Validation, d: &super::cli::Direction) -> bool {
    let row = |variant: &str| {
        v.rows
            .iter()
            .find(|r| r.variant == variant && r.metric == d.metric)
    };
    match (row(&d.from), row(&d.to)) {
        (Some(a), Some(b)) => reached(&d.metric, [a.model, a.kernel, b.model, b.kernel]),
        _ => true,
    }
}

fn pct(n: usize, d: usize) -> String {
    if d == 0 {
        "-".into()
    } else {
        format!("{:.0}% ({n}/{d})", n as f64 * 100.0 / d as f64)
    }
}

/// The score table and every section, from the `validate --json` files in `dir`, grouped by
/// kernel in the order debian-6.1, 6.12, 6.18, 7.3 (others after, by name).
pub fn report_dir(
    dir: &str,
    causes: Option<&String>,
    knobs: Option<&String>,
) -> Result<String, String> {
    let mut vs = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{dir}: {e}"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    for p in names {
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        let v: Validation =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))?;
        vs.push(v);
    }
    fn load<T: serde::de::DeserializeOwned>(p: Option<&String>) -> Result<Vec<T>, String> {
        match p {
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| format!("{p}: {e}"))?;
                serde_json::from_str(&text).map_err(|e| format!("{p}: {e}"))
            }
            None => Ok(Vec::new()),
        }
    }
    let (causes, knobs): (Vec<Cause>, Vec<Knob>) = (load(causes)?, load(knobs)?);
    let stems: Vec<String> = vs.iter().map(stem).collect();
    for k in &knobs {
        for s in std::iter::once(&k.base).chain(&k.others) {
            if !stems.contains(s) {
                return Err(format!(
                    "knob '{}': no report of a scenario '{s}' in {dir} (a knob names scenario \
                     file stems, e.g. thrash-small)",
                    k.knob
                ));
            }
        }
    }
    Ok(report_full(&vs, &causes, &knobs))
}

/// What a cell outside 1.25x, or a direction that disagrees, is believed to come from, and the
/// experiment that would settle it (validation/miss-causes.json, hand-written). A cause covers a
/// cell when the cell's counter is one of `counters` (`*`: any) and every filter given matches:
/// `variant` (a substring of the variant's name), `kernels` and `scenarios` (file stems). The
/// first cause that covers a cell takes it. A direction goes with the farther of its two cells
/// from agreement, unless both lie within 1.25x on three boots or more each with the kernel's
/// boots overlapping: then to the cause whose `directions` is `kernel-spread`, which takes no
/// cell.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cause {
    pub id: String,
    pub counters: Vec<String>,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub kernels: Vec<String>,
    #[serde(default)]
    pub scenarios: Vec<String>,
    #[serde(default)]
    pub directions: Option<DirectionKind>,
    pub mechanism: String,
    pub experiment: String,
}

/// Why a direction disagrees apart from its cells' mechanisms.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DirectionKind {
    /// Both cells lie within 1.25x and rest on three boots or more each, and the kernel's
    /// boots of the two overlap: its own direction is within run-to-run spread.
    KernelSpread,
}

impl Cause {
    fn covers(&self, kernel: &str, scenario: &str, r: &Row) -> bool {
        self.counters.iter().any(|c| c == "*" || *c == r.metric)
            && self
                .variant
                .as_ref()
                .is_none_or(|v| r.variant.contains(v.as_str()))
            && (self.kernels.is_empty() || self.kernels.iter().any(|k| k == kernel))
            && (self.scenarios.is_empty() || self.scenarios.iter().any(|s| s == scenario))
    }
}

/// The scenario file's stem (`scenarios/validation/thrash-small.toml` -> `thrash-small`), or
/// the title when no file is recorded.
fn stem(v: &Validation) -> String {
    std::path::Path::new(&v.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| v.scenario.clone())
}

/// Every scored cell outside 1.25x, under the first cause that covers it; the cells no cause
/// covers last. A cell reads `scenario variant xR` (kernel / model; `x-` for a zero model),
/// in bold when it lies outside 2x too.
fn misses_by_cause(
    by_kernel: &BTreeMap<(usize, String), Vec<&Validation>>,
    causes: &[Cause],
) -> String {
    let mut taken: Vec<BTreeMap<&str, Vec<String>>> = vec![BTreeMap::new(); causes.len() + 1];
    let mut total = 0;
    for ((_, k), vs) in by_kernel {
        for v in vs {
            let sc = stem(v);
            for r in v.rows.iter().filter(|r| scored(r) && !within(r, 1.25)) {
                total += 1;
                let i = causes
                    .iter()
                    .position(|c| c.directions.is_none() && c.covers(k, &sc, r))
                    .unwrap_or(causes.len());
                let ratio = if r.model > 0.0 {
                    format!("x{:.2}", r.kernel / r.model)
                } else {
                    "x-".into()
                };
                let cell = format!("{sc} {} {} {ratio}", r.variant, r.metric);
                let cell = if within(r, 2.0) {
                    cell
                } else {
                    format!("**{cell}**")
                };
                taken[i].entry(k.as_str()).or_default().push(cell);
            }
        }
    }
    if total == 0 {
        return String::new();
    }
    let mut out = format!(
        "## Cells outside 1.25x, by mechanism\n\n\
         Each of the {total} scored cells outside 1.25x (in bold: outside 2x too), under the \
         mechanism believed responsible and the experiment that would settle it \
         (validation/miss-causes.json). A cell reads scenario, variant, counter and kernel / \
         model.\n\n"
    );
    out.push_str(&by_cause(causes, &taken));
    out
}

/// A knob's scenario family (validation/knobs.json): `others` are `base` with `knob` alone
/// changed (file stems), so each counter's change from base to another, per variant, is a
/// direction the model should share with the kernel.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Knob {
    pub knob: String,
    pub base: String,
    pub others: Vec<String>,
}

/// A knob direction on one kernel: the change of `metric` in `variant` from scenario `from` to
/// `to`, in the model and in the kernel's medians (1 up, -1 down, 0 same, as `cli::sign`).
#[derive(Debug, Clone, PartialEq)]
pub struct KnobDirection {
    pub knob: String,
    pub from: String,
    pub to: String,
    pub variant: String,
    pub metric: String,
    pub model: i8,
    pub kernel: i8,
}

/// The knob directions of one kernel's scenarios: every metric both scenarios of a pair report
/// for a variant, both with boots.
fn knob_directions(vs: &[&Validation], knobs: &[Knob]) -> Vec<KnobDirection> {
    let by_stem: BTreeMap<String, &Validation> = vs.iter().map(|v| (stem(v), *v)).collect();
    let mut out = Vec::new();
    for k in knobs {
        let Some(base) = by_stem.get(&k.base) else {
            continue;
        };
        for o in &k.others {
            let Some(other) = by_stem.get(o) else {
                continue;
            };
            for r in other.rows.iter().filter(|r| !r.kernel_boots.is_empty()) {
                let Some(b) = base.rows.iter().find(|b| {
                    b.variant == r.variant && b.metric == r.metric && !b.kernel_boots.is_empty()
                }) else {
                    continue;
                };
                if !reached(&r.metric, [b.model, b.kernel, r.model, r.kernel]) {
                    continue;
                }
                out.push(KnobDirection {
                    knob: k.knob.clone(),
                    from: k.base.clone(),
                    to: o.clone(),
                    variant: r.variant.clone(),
                    metric: r.metric.clone(),
                    model: sign(&r.metric, r.model, b.model),
                    kernel: sign(&r.metric, r.kernel, b.kernel),
                });
            }
        }
    }
    out
}

fn arrow(d: i8) -> &'static str {
    match d {
        1 => "up",
        -1 => "down",
        _ => "same",
    }
}

/// How far a cell lies from agreement: |ln(kernel / model)|, with a page added to both sides
/// so that zeros compare.
fn distance(r: &Row) -> f64 {
    ((r.kernel.abs() + 1.0) / (r.model.abs() + 1.0)).ln().abs()
}

/// The cause a disagreeing direction goes under (an index into `causes`, `causes.len()` for
/// none): the `kernel-spread` cause when both cells lie within 1.25x on three boots or more
/// each and the kernel's boots of the two overlap; else that of the farther cell of the two.
fn direction_cause(kernel: &str, cells: [(&str, &Row); 2], causes: &[Cause]) -> usize {
    let (sc, far) = if distance(cells[0].1) >= distance(cells[1].1) {
        cells[0]
    } else {
        cells[1]
    };
    let spread = cells
        .iter()
        .all(|(_, r)| within(r, 1.25) && r.kernel_boots.len() >= 3)
        && match (cells[0].1.boots_range(), cells[1].1.boots_range()) {
            (Some((a0, a1)), Some((b0, b1))) => a0 <= b1 && b0 <= a1,
            _ => false,
        };
    let kind = spread.then_some(DirectionKind::KernelSpread);
    causes
        .iter()
        .position(|c| c.directions == kind && c.covers(kernel, sc, far))
        .unwrap_or(causes.len())
}

/// Every direction that disagrees, classic vs MGLRU and knob, under its cause (as
/// `direction_cause`); those no cause takes last.
fn directions_by_cause(
    by_kernel: &BTreeMap<(usize, String), Vec<&Validation>>,
    knob_dirs: &BTreeMap<String, Vec<KnobDirection>>,
    causes: &[Cause],
) -> String {
    let mut taken: Vec<BTreeMap<&str, Vec<String>>> = vec![BTreeMap::new(); causes.len() + 1];
    let mut total = 0;
    for ((_, k), vs) in by_kernel {
        let row = |v: &Validation, variant: &str, metric: &str| -> Option<Row> {
            v.rows
                .iter()
                .find(|r| r.variant == variant && r.metric == metric)
                .cloned()
        };
        for v in vs {
            let sc = stem(v);
            for d in v.directions.iter().filter(|d| !d.agree) {
                let (Some(a), Some(b)) = (row(v, &d.from, &d.metric), row(v, &d.to, &d.metric))
                else {
                    continue;
                };
                total += 1;
                let i = direction_cause(k, [(&sc, &a), (&sc, &b)], causes);
                taken[i].entry(k.as_str()).or_default().push(format!(
                    "{sc} {} {}→{}: model {}, kernel {}",
                    d.metric,
                    d.from,
                    d.to,
                    arrow(d.model),
                    arrow(d.kernel)
                ));
            }
        }
        let by_stem: BTreeMap<String, &Validation> = vs.iter().map(|v| (stem(v), *v)).collect();
        for d in knob_dirs
            .get(k)
            .into_iter()
            .flatten()
            .filter(|d| d.model != d.kernel)
        {
            let (Some(a), Some(b)) = (
                by_stem
                    .get(&d.from)
                    .and_then(|v| row(v, &d.variant, &d.metric)),
                by_stem
                    .get(&d.to)
                    .and_then(|v| row(v, &d.variant, &d.metric)),
            ) else {
                continue;
            };
            total += 1;
            let i = direction_cause(k, [(&d.from, &a), (&d.to, &b)], causes);
            taken[i].entry(k.as_str()).or_default().push(format!(
                "{}→{} {} {}: model {}, kernel {}",
                d.from,
                d.to,
                d.variant,
                d.metric,
                arrow(d.model),
                arrow(d.kernel)
            ));
        }
    }
    if total == 0 {
        return String::new();
    }
    let mut out = format!(
        "## Directions that disagree, by mechanism\n\n\
         Each of the {total} directions that disagree, classic vs MGLRU within a scenario and \
         a knob's base scenario against another per variant (validation/knobs.json), under the \
         mechanism of the farther of its two cells from agreement (the first cause in \
         validation/miss-causes.json that covers that cell), or under the kernel's spread when \
         both cells lie within 1.25x on three boots or more each and the kernel's boots of the \
         two overlap. A direction reads scenario, counter, the change, and which way the model \
         and the kernel move.\n\n"
    );
    out.push_str(&by_cause(causes, &taken));
    out
}

/// The per-cause list of a `taken` table: each cause with what it took, per kernel, then what
/// none took.
fn by_cause(causes: &[Cause], taken: &[BTreeMap<&str, Vec<String>>]) -> String {
    let list = |cells: &BTreeMap<&str, Vec<String>>| -> String {
        cells
            .iter()
            .map(|(k, c)| format!("  - {k} ({}): {}\n", c.len(), c.join("; ")))
            .collect()
    };
    let mut out = String::new();
    for (c, cells) in causes.iter().zip(taken) {
        if cells.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "- **{}** ({}). {} *Experiment:* {}\n{}",
            c.id,
            c.counters.join(", "),
            c.mechanism,
            c.experiment,
            list(cells)
        ));
    }
    if let Some(rest) = taken.last().filter(|t| !t.is_empty()) {
        out.push_str(&format!(
            "- **No mechanism named yet** (add a cause to validation/miss-causes.json).\n{}",
            list(rest)
        ));
    }
    out.push('\n');
    out
}

/// Per kernel and knob pair: how many of its directions agree.
fn knob_table(knob_dirs: &BTreeMap<String, Vec<KnobDirection>>, kernels: &[&str]) -> String {
    if knob_dirs.values().all(|d| d.is_empty()) {
        return String::new();
    }
    let mut out = String::from(
        "Knob directions that agree, per pair (validation/knobs.json):\n\n\
         | kernel | knob | from → to | agree |\n|---|---|---|---:|\n",
    );
    for k in kernels {
        let mut pairs: Vec<(&str, &str, &str, usize, usize)> = Vec::new();
        for d in knob_dirs.get(*k).into_iter().flatten() {
            match pairs
                .iter_mut()
                .find(|p| p.1 == d.from.as_str() && p.2 == d.to.as_str())
            {
                Some(p) => {
                    p.3 += (d.model == d.kernel) as usize;
                    p.4 += 1;
                }
                None => pairs.push((&d.knob, &d.from, &d.to, (d.model == d.kernel) as usize, 1)),
            }
        }
        for (knob, from, to, a, n) in pairs {
            out.push_str(&format!(
                "| {k} | {knob} | {from} → {to} | {} |\n",
                pct(a, n)
            ));
        }
    }
    out.push('\n');
    out
}

/// Per counter, on each kernel: how many of its scored cells lie outside 2x, of how many (the
/// counters in the order the sections list them), so that a miss can be read against the
/// mechanism docs/validation-notes.md names for that counter.
fn misses(by_kernel: &BTreeMap<(usize, String), Vec<&Validation>>) -> String {
    let mut counters: Vec<&str> = Vec::new();
    let mut cell: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    for ((_, k), v) in by_kernel {
        for r in v.iter().flat_map(|x| &x.rows).filter(|r| scored(r)) {
            if !counters.contains(&r.metric.as_str()) {
                counters.push(&r.metric);
            }
            let c = cell.entry((&r.metric, k)).or_default();
            c.0 += !within(r, 2.0) as usize;
            c.1 += 1;
        }
    }
    if counters.is_empty() {
        return String::new();
    }
    let kernels: Vec<&str> = by_kernel.keys().map(|(_, k)| k.as_str()).collect();
    let mut out = format!(
        "Cells outside 2x, by counter (outside / cells):\n\n| counter | {} |\n|---|{}\n",
        kernels.join(" | "),
        "---:|".repeat(kernels.len())
    );
    for c in counters {
        let row: Vec<String> = kernels
            .iter()
            .map(|k| match cell.get(&(c, *k)) {
                Some((o, n)) => format!("{o} / {n}"),
                None => "-".into(),
            })
            .collect();
        out.push_str(&format!("| {c} | {} |\n", row.join(" | ")));
    }
    out.push('\n');
    out
}

pub fn report(vs: &[Validation]) -> String {
    report_with(vs, &[])
}

/// `report`, with the cells outside 1.25x listed under `causes`.
pub fn report_with(vs: &[Validation], causes: &[Cause]) -> String {
    report_full(vs, causes, &[])
}

/// `report_with`, with the knob directions of `knobs` scored and their disagreements listed.
pub fn report_full(vs: &[Validation], causes: &[Cause], knobs: &[Knob]) -> String {
    let order = |k: &str| {
        super::plan::KERNELS
            .iter()
            .position(|x| *x == k)
            .unwrap_or(usize::MAX)
    };
    let mut by_kernel: BTreeMap<(usize, String), Vec<&Validation>> = BTreeMap::new();
    for v in vs {
        by_kernel
            .entry((order(&v.kernel_name), v.kernel_name.clone()))
            .or_default()
            .push(v);
    }
    let mut out = String::from(
        "## Agreement score\n\n\
         Per kernel: of the (scenario, variant, counter) cells where the kernel's median or the \
         model reached 100 pages, the share whose kernel/model ratio lies within 1.25x and within \
         2x; and the share of directions that agree: classic vs MGLRU (the first variant to the \
         others) in each scenario, and per variant from a knob's base scenario to each scenario \
         that changes that knob alone (validation/knobs.json). Times, rates and percentages are \
         not scored as cells; their directions are. A cell's kernel value is the median of its \
         boots (the committed runs, validation/kernel-runs/); boots per cell is how many the \
         cells rest on. A scenario marked incomplete lacks some boots.\n\n\
         | kernel | scenarios (incomplete) | cells | boots per cell | within 1.25x | within 2x | classic vs MGLRU directions agree | knob directions agree |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let knob_dirs: BTreeMap<String, Vec<KnobDirection>> = by_kernel
        .iter()
        .map(|((_, k), v)| (k.clone(), knob_directions(v, knobs)))
        .collect();
    for ((_, k), v) in &by_kernel {
        let s = score(v);
        let kd = &knob_dirs[k];
        let knob_agree = kd.iter().filter(|d| d.model == d.kernel).count();
        let boots = match s.boots {
            None => "-".to_string(),
            Some((lo, hi)) if lo == hi => lo.to_string(),
            Some((lo, hi)) => format!("{lo}–{hi}"),
        };
        out.push_str(&format!(
            "| {k} | {} ({}) | {} | {boots} | {} | {} | {} | {} |\n",
            s.scenarios,
            s.incomplete,
            s.cells,
            pct(s.within_1_25, s.cells),
            pct(s.within_2, s.cells),
            pct(s.agree, s.directions),
            pct(knob_agree, kd.len())
        ));
    }
    out.push('\n');
    let kernels: Vec<&str> = by_kernel.keys().map(|(_, k)| k.as_str()).collect();
    out.push_str(&knob_table(&knob_dirs, &kernels));
    out.push_str(&misses(&by_kernel));
    out.push_str(&misses_by_cause(&by_kernel, causes));
    out.push_str(&directions_by_cause(&by_kernel, &knob_dirs, causes));
    for ((_, k), v) in &by_kernel {
        out.push_str(&format!("## {k}\n\n"));
        for x in v {
            out.push_str(&markdown(x));
            if !x.file.is_empty() {
                out.push_str(&format!("Scenario file: `{}`.\n\n", x.file));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(metric: &str, model: f64, boots: &[f64]) -> Row {
        let kernel = super::super::cli::median(boots);
        Row {
            variant: "classic".into(),
            metric: metric.into(),
            model,
            kernel,
            kernel_boots: boots.to_vec(),
            ratio: (model != 0.0).then_some(kernel / model),
        }
    }

    #[test]
    fn cells_are_counters_of_at_least_100_pages_with_a_boot() {
        assert!(scored(&row("pswpout", 1000.0, &[900.0])));
        assert!(!scored(&row("pswpout", 50.0, &[60.0])), "under 100 pages");
        assert!(
            scored(&row("pswpout", 50.0, &[600.0])),
            "the kernel reached 100"
        );
        assert!(!scored(&row("pswpout", 1000.0, &[])), "no boot yet");
        assert!(!scored(&row("thrash rounds total s", 1000.0, &[900.0])));
        assert!(!scored(&row(
            "reclaim accuracy % (pgsteal / requested)",
            300.0,
            &[200.0]
        )));
        assert!(!scored(&row("fio0 ops/s", 3000.0, &[2000.0])));
    }

    #[test]
    fn within_bounds_both_ways() {
        assert!(within(&row("x", 1000.0, &[1250.0]), 1.25));
        assert!(within(&row("x", 1000.0, &[800.0]), 1.25));
        assert!(!within(&row("x", 1000.0, &[790.0]), 1.25));
        assert!(within(&row("x", 1000.0, &[500.0]), 2.0));
        assert!(!within(&row("x", 1000.0, &[2100.0]), 2.0));
        assert!(
            !within(&row("x", 0.0, &[500.0]), 2.0),
            "a zero model is within nothing"
        );
    }

    fn validation(kernel: &str, rows: Vec<Row>, agree: &[bool], missing: u32) -> Validation {
        use super::super::cli::Direction;
        Validation {
            scenario: "made up".into(),
            file: String::new(),
            kernel_name: kernel.into(),
            kernel: kernel.into(),
            accelerator: "tcg".into(),
            boots_wanted: 3,
            boots_missing: missing,
            rows,
            directions: agree
                .iter()
                .map(|&a| Direction {
                    metric: "pswpout".into(),
                    from: "classic".into(),
                    to: "mglru".into(),
                    model: 1,
                    kernel: if a { 1 } else { -1 },
                    agree: a,
                })
                .collect(),
            wall_s: 0.0,
            runs: vec![],
        }
    }

    /// A made-up set of two scenarios on one kernel and one on another: the score counts each
    /// kernel's cells and directions apart, leaves out what is not a cell, and the report's
    /// table says so per kernel in the kernels' order.
    #[test]
    fn the_score_of_a_made_up_set() {
        let a = validation(
            "debian-6.12",
            vec![
                row("pswpout", 1000.0, &[1100.0, 1300.0, 900.0]), // 1.1x: both
                row("pswpin", 1000.0, &[1600.0, 1700.0, 1500.0]), // 1.6x: 2x only
                row("pgscan_file", 1000.0, &[3000.0]),            // 3x: neither
                row("pgsteal_file", 10.0, &[40.0, 60.0]),         // under 100 pages: no cell
                row("t rounds total s", 1000.0, &[9000.0]),       // a time: no cell
            ],
            &[true, true, false],
            0,
        );
        let b = validation(
            "debian-6.12",
            vec![row("pgmajfault", 200.0, &[100.0])], // 0.5x: 2x only, the edge
            &[true],
            2,
        );
        let c = validation("debian-6.1", vec![row("pswpout", 0.0, &[500.0])], &[], 0);
        let s = score(&[&a, &b]);
        assert_eq!(
            s,
            Score {
                scenarios: 2,
                cells: 4,
                within_1_25: 1,
                within_2: 3,
                directions: 4,
                agree: 3,
                incomplete: 1,
                boots: Some((1, 3)),
            }
        );
        let md = report(&[a, b, c]);
        let lines: Vec<&str> = md.lines().filter(|l| l.starts_with("| debian")).collect();
        assert_eq!(
            lines,
            [
                "| debian-6.1 | 1 (0) | 1 | 1 | 0% (0/1) | 0% (0/1) | - | - |",
                "| debian-6.12 | 2 (1) | 4 | 1–3 | 25% (1/4) | 75% (3/4) | 75% (3/4) | - |",
            ]
        );
        assert!(
            md.contains("| classic | pswpout | 1000 | 1100 | 1.10 | 900–1300 (3) |"),
            "{md}"
        );
        let misses: Vec<&str> = md
            .lines()
            .skip_while(|l| !l.starts_with("Cells outside 2x"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .collect();
        assert_eq!(
            misses,
            [
                "| counter | debian-6.1 | debian-6.12 |",
                "|---|---:|---:|",
                "| pswpout | 1 / 1 | 0 / 1 |",
                "| pswpin | - | 0 / 1 |",
                "| pgscan_file | - | 1 / 1 |",
                "| pgmajfault | - | 0 / 1 |",
            ]
        );
    }

    /// Every cell outside 1.25x is listed once: under the first cause that covers it (counter,
    /// variant, kernel and scenario filters), or under "No mechanism named yet".
    #[test]
    fn cells_outside_1_25x_go_under_their_cause() {
        let mut a = validation(
            "debian-6.12",
            vec![
                row("pswpout", 1000.0, &[1100.0]),     // within 1.25x: not listed
                row("pswpin", 1000.0, &[1600.0]),      // 1.6x: no cause
                row("pgscan_file", 1000.0, &[3000.0]), // 3x: cause "scan"
                row("pgmajfault", 0.0, &[500.0]),      // zero model: cause "faults"
            ],
            &[],
            0,
        );
        a.file = "scenarios/validation/thrash-small.toml".into();
        let cause = |id: &str, counters: &[&str], kernels: &[&str]| Cause {
            id: id.into(),
            counters: counters.iter().map(|c| c.to_string()).collect(),
            variant: Some("classic".into()),
            kernels: kernels.iter().map(|c| c.to_string()).collect(),
            scenarios: vec!["thrash-small".into()],
            directions: None,
            mechanism: format!("{id} mechanism."),
            experiment: format!("{id} experiment."),
        };
        let causes = [
            cause("elsewhere", &["pgscan_file"], &["debian-7.3"]),
            cause("scan", &["pgscan_file"], &[]),
            cause("faults", &["pgmajfault", "pgscan_file"], &["debian-6.12"]),
        ];
        let md = report_with(&[a], &causes);
        let section: Vec<&str> = md
            .lines()
            .skip_while(|l| !l.starts_with("## Cells outside 1.25x"))
            .skip(4)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(
            section,
            [
                "- **scan** (pgscan_file). scan mechanism. *Experiment:* scan experiment.",
                "  - debian-6.12 (1): **thrash-small classic pgscan_file x3.00**",
                "- **faults** (pgmajfault, pgscan_file). faults mechanism. *Experiment:* faults experiment.",
                "  - debian-6.12 (1): **thrash-small classic pgmajfault x-**",
                "- **No mechanism named yet** (add a cause to validation/miss-causes.json).",
                "  - debian-6.12 (1): thrash-small classic pswpin x1.60",
            ],
            "{md}"
        );
    }

    fn vrow(variant: &str, metric: &str, model: f64, boots: &[f64]) -> Row {
        Row {
            variant: variant.into(),
            ..row(metric, model, boots)
        }
    }

    fn cause(id: &str, counters: &[&str], directions: Option<DirectionKind>) -> Cause {
        Cause {
            id: id.into(),
            counters: counters.iter().map(|c| c.to_string()).collect(),
            variant: None,
            kernels: vec![],
            scenarios: vec![],
            directions,
            mechanism: format!("{id} mechanism."),
            experiment: format!("{id} experiment."),
        }
    }

    /// The lines of a section's list: from its heading, past the paragraph, to the blank line.
    fn section<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
        md.lines()
            .skip_while(|l| !l.starts_with(heading))
            .skip(4)
            .take_while(|l| !l.is_empty())
            .collect()
    }

    /// A knob's directions: per variant and counter, base scenario to the other, in the model
    /// and in the kernel's medians; rows without boots give none. They are scored in their own
    /// column and listed per pair.
    #[test]
    fn knob_directions_compare_base_and_other_per_variant() {
        let mut base = validation(
            "debian-7.3",
            vec![
                vrow("classic", "pswpout", 1000.0, &[1000.0]),
                vrow("mglru", "pswpout", 1000.0, &[1000.0]),
                vrow("classic", "pgmajfault", 500.0, &[]),
                vrow("classic", "pswpin", 20.0, &[30.0]),
            ],
            &[],
            0,
        );
        base.file = "scenarios/validation/thrash-small.toml".into();
        let mut other = validation(
            "debian-7.3",
            vec![
                vrow("classic", "pswpout", 3000.0, &[3000.0]), // up, up
                vrow("mglru", "pswpout", 3000.0, &[1020.0]),   // up, same (under 5%)
                vrow("classic", "pgmajfault", 100.0, &[50.0]), // base has no boot: none
                vrow("classic", "pswpin", 90.0, &[10.0]), // under 100 pages on every side: none
            ],
            &[],
            0,
        );
        other.file = "scenarios/validation/thrash-swappiness-200.toml".into();
        let knobs = [Knob {
            knob: "swappiness".into(),
            base: "thrash-small".into(),
            others: vec!["thrash-swappiness-200".into(), "absent".into()],
        }];
        let d = knob_directions(&[&base, &other], &knobs);
        assert_eq!(
            d.iter()
                .map(|d| (d.variant.as_str(), d.metric.as_str(), d.model, d.kernel))
                .collect::<Vec<_>>(),
            [("classic", "pswpout", 1, 1), ("mglru", "pswpout", 1, 0)]
        );
        let md = report_full(&[base, other], &[cause("swap", &["pswpout"], None)], &knobs);
        assert!(
            md.contains("| debian-7.3 | 2 (0) | 5 | 1 | 60% (3/5) | 80% (4/5) | - | 50% (1/2) |"),
            "{md}"
        );
        assert!(md.contains(
            "| debian-7.3 | swappiness | thrash-small → thrash-swappiness-200 | 50% (1/2) |"
        ));
        assert_eq!(
            section(&md, "## Directions that disagree"),
            [
                "- **swap** (pswpout). swap mechanism. *Experiment:* swap experiment.",
                "  - debian-7.3 (1): thrash-small→thrash-swappiness-200 mglru pswpout: model up, kernel same",
            ],
            "{md}"
        );
    }

    /// A direction that disagrees goes under the cause of the farther of its cells from
    /// agreement, unless both lie within 1.25x on three boots or more each with the kernel's
    /// boots overlapping: then under the kernel's spread, a cause that takes no cell.
    #[test]
    fn directions_that_disagree_go_under_their_cause() {
        let dir = |metric: &str, model: i8, kernel: i8| super::super::cli::Direction {
            metric: metric.into(),
            from: "classic".into(),
            to: "mglru".into(),
            model,
            kernel,
            agree: model == kernel,
        };
        let mut a = validation(
            "debian-6.12",
            vec![
                // pswpout: mglru 3x off (outside), classic within: goes under "swap".
                vrow("classic", "pswpout", 1000.0, &[1000.0, 1000.0, 1000.0]),
                vrow("mglru", "pswpout", 500.0, &[1500.0, 1500.0, 1500.0]),
                // pgscan_file: both within, boots overlap: the kernel's spread.
                vrow("classic", "pgscan_file", 1000.0, &[900.0, 1000.0, 1150.0]),
                vrow("mglru", "pgscan_file", 1200.0, &[1100.0, 1100.0, 1100.0]),
                // pgsteal_file: both within, boots apart: the kernel moved; its counter's cause.
                vrow("classic", "pgsteal_file", 1100.0, &[1000.0, 1000.0, 1000.0]),
                vrow("mglru", "pgsteal_file", 1000.0, &[1150.0, 1150.0, 1150.0]),
                // pgscan_anon: both within, boots overlap but one boot each: no spread known.
                vrow("classic", "pgscan_anon", 1000.0, &[1000.0]),
                vrow("mglru", "pgscan_anon", 1100.0, &[1000.0]),
                // pgactivate: outside, no cause: no mechanism named.
                vrow("classic", "pgactivate", 100.0, &[1000.0]),
                vrow("mglru", "pgactivate", 100.0, &[100.0]),
            ],
            &[],
            0,
        );
        a.directions = vec![
            dir("pswpout", 1, 0),
            dir("pgscan_file", 1, 0),
            dir("pgsteal_file", -1, 1),
            dir("pgscan_anon", 1, 0),
            dir("pgactivate", 0, -1),
            dir("pgdeactivate", 1, 1),
        ];
        a.file = "scenarios/validation/memcg-reclaim.toml".into();
        let causes = [
            cause("spread", &["*"], Some(DirectionKind::KernelSpread)),
            cause("steal", &["pgsteal_file"], None),
            cause("swap", &["pswpout"], None),
        ];
        let md = report_with(&[a], &causes);
        assert_eq!(
            section(&md, "## Directions that disagree"),
            [
                "- **spread** (*). spread mechanism. *Experiment:* spread experiment.",
                "  - debian-6.12 (1): memcg-reclaim pgscan_file classic→mglru: model up, kernel same",
                "- **steal** (pgsteal_file). steal mechanism. *Experiment:* steal experiment.",
                "  - debian-6.12 (1): memcg-reclaim pgsteal_file classic→mglru: model down, kernel up",
                "- **swap** (pswpout). swap mechanism. *Experiment:* swap experiment.",
                "  - debian-6.12 (1): memcg-reclaim pswpout classic→mglru: model up, kernel same",
                "- **No mechanism named yet** (add a cause to validation/miss-causes.json).",
                "  - debian-6.12 (2): memcg-reclaim pgscan_anon classic→mglru: model up, kernel same; memcg-reclaim pgactivate classic→mglru: model same, kernel down",
            ],
            "{md}"
        );
        let cells = section(&md, "## Cells outside 1.25x");
        assert!(
            !cells
                .iter()
                .any(|l| l.contains("spread")),
            "a cause for directions takes no cell: {cells:?}"
        );
    }

    #[test]
    fn the_median_is_a_boots_value_and_the_spread_is_its_range() {
        let r = row("pswpout", 1000.0, &[900.0, 1200.0, 1000.0]);
        assert_eq!(r.kernel, 1000.0);
        assert_eq!(r.spread_pct(), Some(30.0));
        assert_eq!(r.boots_range(), Some((900.0, 1200.0)));
        assert_eq!(super::super::cli::median(&[4.0, 1.0]), 1.0);
        assert_eq!(row("x", 1.0, &[5.0]).spread_pct(), None);
    }
}

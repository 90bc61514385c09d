//! A sweep's grid: axes (knobs and their values), variants and seeds, from the command line
//! or a sweep file, expanded into one point per run in a fixed order.
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::scenario::knobs;

/// One axis: a knob (canonical name) and the values it takes, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    pub name: String,
    pub values: Vec<String>,
}

/// What to sweep. Empty `variants`: every variant of the scenario; empty `seeds`: the
/// scenario's own seed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spec {
    #[serde(default)]
    pub axes: Vec<Axis>,
    #[serde(default)]
    pub variants: Vec<String>,
    #[serde(default)]
    pub seeds: Vec<u64>,
}

/// One run: a variant, a seed and one value of every axis (in the axes' order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Point {
    pub variant: String,
    pub seed: u64,
    pub settings: Vec<(String, String)>,
}

impl Point {
    /// The knobs of this run, the seed included.
    pub fn knobs(&self) -> Vec<(String, String)> {
        let mut k = self.settings.clone();
        k.push(("seed".to_string(), self.seed.to_string()));
        k
    }

    /// The cells that identify the run in the table: variant, seed, then the axes' values.
    pub fn key(&self) -> Vec<String> {
        let mut k = vec![self.variant.clone(), self.seed.to_string()];
        k.extend(self.settings.iter().map(|(_, v)| v.clone()));
        k
    }
}

impl Spec {
    /// Add an axis; `seed` goes to the seeds, and an axis given twice is an error.
    pub fn add_axis(&mut self, axis: Axis) -> Result<(), String> {
        if axis.name == "seed" {
            if !self.seeds.is_empty() {
                return Err("the seeds are given twice (--seeds and seed=)".to_string());
            }
            self.seeds = axis
                .values
                .iter()
                .map(|v| parse_seeds(v))
                .collect::<Result<Vec<_>, _>>()?
                .concat();
            return Ok(());
        }
        if self.axes.iter().any(|a| a.name == axis.name) {
            return Err(format!("the axis {} is given twice", axis.name));
        }
        self.axes.push(axis);
        Ok(())
    }

    /// `base` with this spec's axes, variants and seeds on top (command line over file).
    pub fn over(self, base: Spec) -> Result<Spec, String> {
        let mut out = Spec {
            axes: Vec::new(),
            variants: if self.variants.is_empty() {
                base.variants
            } else {
                self.variants
            },
            seeds: if self.seeds.is_empty() {
                base.seeds
            } else {
                self.seeds
            },
        };
        for a in base.axes {
            if !self.axes.iter().any(|b| b.name == a.name) {
                out.axes.push(a);
            }
        }
        out.axes.extend(self.axes);
        Ok(out)
    }
}

/// `swappiness=0,60,100` (or `sysctl.dirty_ratio=10,20`): the knob's canonical name and values.
pub fn parse_set(arg: &str) -> Result<Axis, String> {
    let (name, values) = arg
        .split_once('=')
        .ok_or_else(|| format!("--set {arg}: expected NAME=VALUE[,VALUE...]"))?;
    let name = knobs::canonical(name).map_err(|e| format!("--set {arg}: {e}"))?;
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    for v in &values {
        if name != "seed" {
            knobs::check_value(&name, v).map_err(|e| format!("--set {arg}: {e}"))?;
        }
    }
    let mut seen = values.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != values.len() {
        return Err(format!("--set {arg}: a value is given twice"));
    }
    Ok(Axis { name, values })
}

/// `1..5` (both ends included), `1,2,7` or `3`.
pub fn parse_seeds(arg: &str) -> Result<Vec<u64>, String> {
    let whole = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("seeds {arg:?}: {s:?} is not a whole number"))
    };
    let mut out = Vec::new();
    for part in arg.split(',') {
        match part.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (whole(a)?, whole(b.strip_prefix('=').unwrap_or(b))?);
                if a > b {
                    return Err(format!("seeds {arg:?}: {a}..{b} is empty"));
                }
                if b - a >= 100_000 {
                    return Err(format!("seeds {arg:?}: more than 100000 seeds"));
                }
                out.extend(a..=b);
            }
            None => out.push(whole(part)?),
        }
    }
    let mut seen = out.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != out.len() {
        return Err(format!("seeds {arg:?}: a seed is given twice"));
    }
    Ok(out)
}

/// `all` (every variant) or `before,after`.
pub fn parse_variants(arg: &str) -> Vec<String> {
    if arg.trim() == "all" {
        return Vec::new();
    }
    arg.split(',').map(|v| v.trim().to_string()).collect()
}

/// A sweep file:
///
/// ```toml
/// [sweep]
/// scenario = "../scenarios/s000-thrash.toml"   # relative to this file
/// variants = "all"                             # or ["before", "after"]
/// seeds = "1..3"                               # or [1, 2, 3]
/// out = "s000.csv"                             # optional, relative to this file
/// [sweep.axes]
/// swappiness = [0, 60, 100, 200]
/// ram = ["1GiB", "2GiB"]
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepFile {
    pub scenario: String,
    pub out: Option<String>,
    pub spec: Spec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    sweep: FileSweep,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSweep {
    scenario: String,
    #[serde(default)]
    variants: Option<toml::Value>,
    #[serde(default)]
    seeds: Option<toml::Value>,
    #[serde(default)]
    out: Option<String>,
    /// In the order of their names (the TOML table does not keep the file's order).
    #[serde(default)]
    axes: BTreeMap<String, toml::Value>,
}

/// Is this TOML text a sweep file (a `[sweep]` table) rather than a scenario?
pub fn is_sweep_file(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim();
        l == "[sweep]" || l.starts_with("[sweep]") && l[7..].trim_start().starts_with('#')
    })
}

/// Parse a sweep file; every error names the key it is about.
pub fn parse_sweep_file(text: &str) -> Result<SweepFile, String> {
    let doc: FileDoc = toml::from_str(text).map_err(|e| e.to_string().trim().to_string())?;
    let s = doc.sweep;
    let mut spec = Spec::default();
    let scalar = |key: &str, v: &toml::Value| -> Result<String, String> {
        match v {
            toml::Value::String(s) => Ok(s.clone()),
            toml::Value::Integer(i) => Ok(i.to_string()),
            toml::Value::Boolean(b) => Ok(b.to_string()),
            toml::Value::Float(f) => Ok(f.to_string()),
            other => Err(format!(
                "sweep.{key}: a {} is not a string, number or boolean",
                other.type_str()
            )),
        }
    };
    let list = |key: &str, v: &toml::Value| -> Result<Vec<String>, String> {
        match v {
            toml::Value::Array(a) => a.iter().map(|x| scalar(key, x)).collect(),
            one => Ok(vec![scalar(key, one)?]),
        }
    };
    if let Some(v) = &s.variants {
        let names = list("variants", v)?;
        if names != ["all"] {
            spec.variants = names;
        }
    }
    if let Some(v) = &s.seeds {
        for part in list("seeds", v)? {
            spec.seeds
                .extend(parse_seeds(&part).map_err(|e| format!("sweep.seeds: {e}"))?);
        }
    }
    for (name, v) in &s.axes {
        let values = list(&format!("axes.{name}"), v)?;
        let axis = parse_set(&format!("{name}={}", values.join(","))).map_err(|e| {
            format!(
                "sweep.axes.{name}: {}",
                e.split_once(": ").map_or(&*e, |x| x.1)
            )
        })?;
        spec.add_axis(axis)
            .map_err(|e| format!("sweep.axes: {e}"))?;
    }
    Ok(SweepFile {
        scenario: s.scenario,
        out: s.out,
        spec,
    })
}

/// The grid, resolved against a scenario.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The table's columns (see `table::columns`).
    pub columns: Vec<String>,
    /// Every run, in the table's order: the first axis outermost, then the variant, then
    /// the seed.
    pub points: Vec<Point>,
}

/// Expand `spec` over the scenario `text`. Every axis value is tried on its own first, so a
/// bad value (a device the scenario does not have) stops the sweep before it starts, with a
/// message naming it.
pub fn plan(text: &str, spec: &Spec) -> Result<Plan, String> {
    let scn = crate::scenario::parse(text)
        .map_err(|e| format!("line {}, column {}: {}", e.line, e.column, e.what()))?;
    let all: Vec<String> = scn.variants.iter().map(|v| v.name.clone()).collect();
    let variants = if spec.variants.is_empty() {
        all.clone()
    } else {
        for v in &spec.variants {
            if !all.contains(v) {
                return Err(format!(
                    "the scenario has no variant {v:?}; its variants: {}",
                    all.join(", ")
                ));
            }
        }
        spec.variants.clone()
    };
    let first = variants
        .first()
        .ok_or_else(|| "the scenario has no variants".to_string())?;
    let seeds = if spec.seeds.is_empty() {
        vec![scn.seed]
    } else {
        spec.seeds.clone()
    };
    let mut distinct = seeds.clone();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != seeds.len() {
        return Err("a seed is given twice".to_string());
    }
    for a in &spec.axes {
        if a.values.is_empty() {
            return Err(format!("the axis {} has no values", a.name));
        }
        for v in &a.values {
            knobs::scenario_with(text, &[(a.name.clone(), v.clone())], first).map_err(|e| {
                format!(
                    "{}={v}: {}",
                    a.name,
                    e.strip_prefix(&format!("with {}={v}: ", a.name))
                        .unwrap_or(&e)
                )
            })?;
        }
    }
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for a in &spec.axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                a.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((a.name.clone(), v.clone()));
                    c
                })
            })
            .collect();
    }
    let mut points = Vec::new();
    for c in &combos {
        for v in &variants {
            for &seed in &seeds {
                points.push(Point {
                    variant: v.clone(),
                    seed,
                    settings: c.clone(),
                });
            }
        }
    }
    let axis_names: Vec<&str> = spec.axes.iter().map(|a| a.name.as_str()).collect();
    Ok(Plan {
        columns: super::table::columns(&axis_names),
        points,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const S000: &str = include_str!("../../../scenarios/s000-thrash.toml");

    #[test]
    fn seeds_and_sets_parse_and_bad_ones_are_named() {
        assert_eq!(parse_seeds("1..5").unwrap(), vec![1, 2, 3, 4, 5]);
        assert_eq!(parse_seeds("1..=2,7").unwrap(), vec![1, 2, 7]);
        assert!(parse_seeds("5..1").unwrap_err().contains("empty"));
        assert!(parse_seeds("1,x").unwrap_err().contains("\"x\""));
        assert!(parse_seeds("1,1").unwrap_err().contains("twice"));
        let a = parse_set("sysctl.swappiness=0, 60").unwrap();
        assert_eq!(
            a,
            Axis {
                name: "swappiness".into(),
                values: vec!["0".into(), "60".into()]
            }
        );
        assert!(parse_set("swappiness").unwrap_err().contains("NAME=VALUE"));
        assert!(parse_set("swappiness=a")
            .unwrap_err()
            .contains("whole number"));
        assert!(parse_set("swap=1").unwrap_err().contains("unknown knob"));
        assert!(parse_set("ram=1GiB,1GiB").unwrap_err().contains("twice"));
        assert_eq!(parse_variants("all"), Vec::<String>::new());
        assert_eq!(parse_variants("a, b"), vec!["a", "b"]);
    }

    #[test]
    fn the_grid_is_the_product_in_a_fixed_order() {
        let mut spec = Spec::default();
        spec.add_axis(parse_set("swappiness=0,200").unwrap())
            .unwrap();
        spec.add_axis(parse_set("ram=1GiB,2GiB,3GiB").unwrap())
            .unwrap();
        spec.add_axis(parse_set("seed=1..2").unwrap()).unwrap();
        let p = plan(S000, &spec).unwrap();
        assert_eq!(p.points.len(), 2 * 3 * 2 * 2);
        let keys: Vec<String> = p.points.iter().map(|x| x.key().join(" ")).collect();
        assert_eq!(keys[0], "before 1 0 1GiB");
        assert_eq!(keys[1], "before 2 0 1GiB");
        assert_eq!(keys[2], "after 1 0 1GiB");
        assert_eq!(keys[4], "before 1 0 2GiB");
        assert_eq!(keys[23], "after 2 200 3GiB");
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len());
        assert_eq!(&p.columns[..4], ["variant", "seed", "swappiness", "ram"]);
        // Without seeds: the scenario's own.
        let p = plan(
            S000,
            &Spec {
                variants: vec!["after".into()],
                ..Spec::default()
            },
        )
        .unwrap();
        assert_eq!(
            p.points,
            vec![Point {
                variant: "after".into(),
                seed: 1,
                settings: vec![]
            }]
        );
    }

    #[test]
    fn bad_grids_stop_before_running() {
        let spec = Spec {
            variants: vec!["nope".into()],
            ..Spec::default()
        };
        assert!(plan(S000, &spec)
            .unwrap_err()
            .contains("no variant \"nope\""));
        let mut spec = Spec::default();
        spec.add_axis(parse_set("swap_device=disk,nvme0").unwrap())
            .unwrap();
        let e = plan(S000, &spec).unwrap_err();
        assert!(
            e.starts_with("swap_device=nvme0: ") && e.contains("nvme0"),
            "{e}"
        );
        assert!(spec
            .add_axis(parse_set("swap_device=disk").unwrap())
            .unwrap_err()
            .contains("twice"));
    }

    #[test]
    fn sweep_files_parse_and_the_command_line_wins() {
        let text = r#"
[sweep]
scenario = "../scenarios/s000-thrash.toml"
variants = ["after"]
seeds = "1..3"
[sweep.axes]
swappiness = [0, 60]
ram = "1GiB"
"#;
        assert!(is_sweep_file(text) && !is_sweep_file(S000));
        let f = parse_sweep_file(text).unwrap();
        assert_eq!(f.scenario, "../scenarios/s000-thrash.toml");
        assert_eq!(f.spec.seeds, vec![1, 2, 3]);
        assert_eq!(f.spec.variants, vec!["after"]);
        assert_eq!(
            f.spec.axes[0],
            Axis {
                name: "ram".into(),
                values: vec!["1GiB".into()]
            }
        );
        let mut cli = Spec::default();
        cli.add_axis(parse_set("swappiness=100").unwrap()).unwrap();
        let s = cli.over(f.spec).unwrap();
        assert_eq!(s.axes.len(), 2);
        assert_eq!(s.axes[1].values, vec!["100"]);
        assert_eq!(s.seeds, vec![1, 2, 3]);
        let e = parse_sweep_file("[sweep]\nscenario = \"x\"\n[sweep.axes]\nswapiness = [1]\n")
            .unwrap_err();
        assert!(
            e.contains("sweep.axes.swapiness") && e.contains("unknown knob"),
            "{e}"
        );
        assert!(parse_sweep_file("[sweep]\nscenari = \"x\"\n")
            .unwrap_err()
            .contains("scenari"));
    }
}

//! `reclaim kernel FILE --kernel K [--variant NAME] [--json]` and
//! `reclaim validate FILE [--kernel K] [--variant NAME] [--json]`.
use serde::Serialize;

use super::host::{self, KernelReport};
use super::plan;
use reclaim_core::report::RunReport;
use reclaim_core::scenario::{self, Scenario};
use reclaim_core::Simulation;

pub const USAGE: &str = "\
  reclaim kernel FILE --kernel debian-6.1|debian-6.12|debian-6.18|debian-7.3 [--variant NAME] [--json]
                                              run a variant's tasks on a real kernel in QEMU
  reclaim validate FILE [--kernel K] [--variant NAME] [--json]
                                              model and kernel side by side (default kernel debian-6.1,
                                              every variant); needs scripts/setup-kernel
";

#[derive(Debug, PartialEq)]
pub struct Args {
    pub validate: bool,
    pub file: String,
    pub kernel: Option<String>,
    pub variant: Option<String>,
    pub json: bool,
}

/// Handles `kernel` and `validate`; None for every other command.
pub fn dispatch(args: &[String]) -> Option<u8> {
    let cmd = args.first()?.as_str();
    if cmd != "kernel" && cmd != "validate" {
        return None;
    }
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("reclaim: {e}\n\nusage:\n{USAGE}");
            return Some(2);
        }
    };
    Some(match run(&a) {
        Ok(()) => 0,
        Err((code, e)) => {
            eprintln!("{e}");
            code
        }
    })
}

pub fn parse(args: &[String]) -> Result<Args, String> {
    let validate = args[0] == "validate";
    let mut a = Args {
        validate,
        file: String::new(),
        kernel: None,
        variant: None,
        json: false,
    };
    let mut it = args[1..].iter();
    while let Some(x) = it.next() {
        match x.as_str() {
            "--json" => a.json = true,
            "--kernel" => {
                a.kernel = Some(it.next().ok_or("--kernel needs a name")?.clone());
            }
            "--variant" => {
                a.variant = Some(it.next().ok_or("--variant needs a name")?.clone());
            }
            f if f.starts_with('-') => return Err(format!("unknown option {f}")),
            f if a.file.is_empty() => a.file = f.to_string(),
            f => return Err(format!("unexpected argument {f}")),
        }
    }
    if a.file.is_empty() {
        return Err(format!("{} needs a scenario file", args[0]));
    }
    if a.kernel.is_none() && !validate {
        return Err(format!(
            "kernel needs --kernel ({})",
            plan::KERNELS.join(" or ")
        ));
    }
    if let Some(k) = &a.kernel {
        if !plan::KERNELS.contains(&k.as_str()) {
            return Err(format!(
                "unknown kernel {k:?}; known: {}",
                plan::KERNELS.join(", ")
            ));
        }
    }
    Ok(a)
}

fn load(file: &str) -> Result<(Scenario, String), (u8, String)> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| (2, format!("reclaim: cannot read {file}: {e}")))?;
    let s = scenario::parse(&text)
        .map_err(|e| (2, format!("{file}:{}:{}: {}", e.line, e.column, e.what())))?;
    Ok((s, text))
}

fn run(a: &Args) -> Result<(), (u8, String)> {
    let (s, text) = load(&a.file)?;
    let kernel = a.kernel.clone().unwrap_or_else(|| "debian-6.1".into());
    let variants: Vec<String> = match &a.variant {
        Some(v) => vec![reclaim_core::scenario::pick_variant(&s, Some(v))
            .map_err(|e| (2, format!("{}: {e}", a.file)))?],
        None if a.validate => s.variants.iter().map(|v| v.name.clone()).collect(),
        None => vec![s.variants[0].name.clone()],
    };
    // Every variant's ops are checked before the first boot.
    for v in &variants {
        plan::plan(&s, &text, v).map_err(|e| (2, format!("{}: {e}", a.file)))?;
    }
    let boot = |v: &str| {
        host::run_kernel(&s, &text, v, &kernel)
            .map_err(|e| (1, format!("reclaim kernel: variant {v}: {e}")))
    };
    if !a.validate {
        let r = boot(&variants[0])?;
        if a.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&r).map_err(|e| (1, e.to_string()))?
            );
        } else {
            print!("{}", crate::cli::run_text(&r.run));
            println!(
                "source: kernel {} ({}), {}, guest {} MiB ({} kB reserved by the kernel), boot {:.1} s, wall {:.1} s",
                r.kernel.name, r.kernel.release, r.accelerator, r.guest.ram_mib,
                r.guest.kernel_reserved_kb, r.guest.boot_s, r.wall_s
            );
        }
        return Ok(());
    }
    // The model runs the presets of the kernel that boots (plan::model_preset).
    let sm = plan::at_kernel(&s, &kernel).map_err(|e| (2, format!("{}: {e}", a.file)))?;
    let mut pairs = Vec::new();
    for v in &variants {
        let model = Simulation::new(&sm, v)
            .map_err(|e| (1, format!("reclaim: variant {v}: {e}")))?
            .run_to_end();
        let kernel = boot(v)?;
        pairs.push(Pair { model, kernel });
    }
    let v = validation(&s.title, &pairs);
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| (1, e.to_string()))?
        );
    } else {
        print!("{}", markdown(&v));
    }
    Ok(())
}

#[derive(Debug, Clone, Serialize)]
pub struct Pair {
    pub model: RunReport,
    pub kernel: KernelReport,
}

/// `reclaim validate --json`.
#[derive(Debug, Clone, Serialize)]
pub struct Validation {
    pub scenario: String,
    pub kernel: String,
    pub accelerator: String,
    pub rows: Vec<Row>,
    /// Per metric, from the first variant to each other one: does the change go the same way?
    pub directions: Vec<Direction>,
    pub wall_s: f64,
    pub runs: Vec<Pair>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub variant: String,
    pub metric: String,
    pub model: f64,
    pub kernel: f64,
    /// kernel / model (None when the model's value is 0).
    pub ratio: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Direction {
    pub metric: String,
    pub from: String,
    pub to: String,
    pub model: i8,
    pub kernel: i8,
    pub agree: bool,
}

/// The headline metrics: the seed counters over the measured window, then each task's rounds
/// (total and last) and throughput.
pub fn metrics(r: &RunReport) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for k in [
        "pswpout",
        "pswpin",
        "pgmajfault",
        "workingset_refault_file",
        "workingset_refault_anon",
        "workingset_activate_file",
        "workingset_restore_file",
        "pgscan_anon",
        "pgscan_file",
        "pgsteal_anon",
        "pgsteal_file",
        "pgactivate",
        "pgdeactivate",
        "allocstall",
        "oom_kill",
    ] {
        out.push((
            k.to_string(),
            r.measured.get(k).copied().unwrap_or(0) as f64,
        ));
    }
    for t in &r.tasks {
        if let Some(rs) = &t.rounds_s {
            out.push((format!("{} rounds total s", t.name), rs.iter().sum()));
            out.push((
                format!("{} last round s", t.name),
                *rs.last().unwrap_or(&0.0),
            ));
        }
        if let Some(o) = t.ops_per_s {
            out.push((format!("{} ops/s", t.name), o));
        }
    }
    // memory.reclaim scenarios: pages the memcgs gave up per page asked, and how evenly.
    if let Some(a) = reclaim_core::report::reclaim_accuracy(r) {
        out.push(("reclaim accuracy % (pgsteal / requested)".into(), a));
    }
    if let Some(x) = reclaim_core::report::memcg_pgsteal_spread(r) {
        out.push(("memcg pgsteal spread % (stddev / mean)".into(), x));
    }
    out
}

/// Counters that move by fewer pages than this (400 KiB) between variants, and times that
/// move by less than 10 ms, count as unchanged: run-to-run noise of a real kernel. Percentages
/// (ratios of counters) have no floor beyond the 5%.
const NOISE_PAGES: f64 = 100.0;
const NOISE_S: f64 = 0.01;

/// The direction of a change from `base` to `x`: 0 when under 5% of the larger value or
/// under the metric's noise floor.
fn sign(metric: &str, x: f64, base: f64) -> i8 {
    let floor = if metric.ends_with(" s") {
        NOISE_S
    } else if metric.ends_with("ops/s") || metric.contains('%') {
        0.0
    } else {
        NOISE_PAGES
    };
    let tol = (0.05 * x.abs().max(base.abs())).max(floor);
    if (x - base).abs() <= tol {
        0
    } else if x > base {
        1
    } else {
        -1
    }
}

pub fn validation(title: &str, pairs: &[Pair]) -> Validation {
    let mut rows = Vec::new();
    for p in pairs {
        let km: std::collections::BTreeMap<_, _> = metrics(&p.kernel.run).into_iter().collect();
        for (m, mv) in metrics(&p.model) {
            let kv = km.get(&m).copied().unwrap_or(0.0);
            rows.push(Row {
                variant: p.model.variant.clone(),
                metric: m,
                model: mv,
                kernel: kv,
                ratio: (mv != 0.0).then_some(kv / mv),
            });
        }
    }
    let mut directions = Vec::new();
    if let Some((first, rest)) = pairs.split_first() {
        let (m0, k0): (
            std::collections::BTreeMap<_, _>,
            std::collections::BTreeMap<_, _>,
        ) = (
            metrics(&first.model).into_iter().collect(),
            metrics(&first.kernel.run).into_iter().collect(),
        );
        for p in rest {
            let km: std::collections::BTreeMap<_, _> = metrics(&p.kernel.run).into_iter().collect();
            for (m, mv) in metrics(&p.model) {
                let (Some(mb), Some(kb), Some(kv)) = (m0.get(&m), k0.get(&m), km.get(&m)) else {
                    continue;
                };
                let (ds, dk) = (sign(&m, mv, *mb), sign(&m, *kv, *kb));
                directions.push(Direction {
                    metric: m,
                    from: first.model.variant.clone(),
                    to: p.model.variant.clone(),
                    model: ds,
                    kernel: dk,
                    agree: ds == dk,
                });
            }
        }
    }
    Validation {
        scenario: title.to_string(),
        kernel: pairs
            .first()
            .map(|p| format!("{} ({})", p.kernel.kernel.name, p.kernel.kernel.release))
            .unwrap_or_default(),
        accelerator: pairs
            .first()
            .map(|p| p.kernel.accelerator.clone())
            .unwrap_or_default(),
        rows,
        directions,
        wall_s: pairs.iter().map(|p| p.kernel.wall_s).sum(),
        runs: pairs.to_vec(),
    }
}

fn num(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() < 0.001 {
        format!("{x:.1e}")
    } else if x.abs() >= 100.0 || x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.3}")
    }
}

/// The side-by-side tables as Markdown (docs/validation.md is made of these).
pub fn markdown(v: &Validation) -> String {
    let mut s = format!(
        "### {}\n\nKernel {}, accelerator {}, kernel wall time {:.0} s.\n\n",
        v.scenario, v.kernel, v.accelerator, v.wall_s
    );
    for p in &v.runs {
        let g = &p.kernel.guest;
        s.push_str(&format!(
            "- {}: model preset {}; guest {} MiB, {} kB reserved by the kernel, free memory trimmed {} -> {} kB ({} huge pages), lru_gen {}, swappiness {}, boot {:.1} s, run {:.1} s\n",
            p.model.variant, p.model.preset, g.ram_mib, g.kernel_reserved_kb, g.mem_free_before_trim_kb,
            g.mem_free_kb, g.hugetlb_trim_pages, g.lru_gen_enabled, p.kernel.run.swappiness,
            g.boot_s, p.kernel.run_s
        ));
    }
    s.push_str(
        "\n| variant | metric | model | kernel | kernel/model |\n|---|---|---:|---:|---:|\n",
    );
    for r in &v.rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.variant,
            r.metric,
            num(r.model),
            num(r.kernel),
            r.ratio
                .map(|x| format!("{x:.2}"))
                .unwrap_or_else(|| "-".into())
        ));
    }
    if !v.directions.is_empty() {
        let arrow = |d: i8| match d {
            1 => "up",
            -1 => "down",
            _ => "same",
        };
        let agree = v.directions.iter().filter(|d| d.agree).count();
        s.push_str(&format!(
            "\nDirections ({} of {} agree):\n\n| change | metric | model | kernel | agree |\n|---|---|---|---|---|\n",
            agree,
            v.directions.len()
        ));
        for d in &v.directions {
            s.push_str(&format!(
                "| {} -> {} | {} | {} | {} | {} |\n",
                d.from,
                d.to,
                d.metric,
                arrow(d.model),
                arrow(d.kernel),
                if d.agree { "yes" } else { "**no**" }
            ));
        }
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn args_parse_and_errors_name_the_problem() {
        let a = parse(&args("kernel s.toml --kernel debian-6.1 --json")).unwrap();
        assert_eq!(
            a,
            Args {
                validate: false,
                file: "s.toml".into(),
                kernel: Some("debian-6.1".into()),
                variant: None,
                json: true
            }
        );
        assert!(parse(&args("kernel s.toml"))
            .unwrap_err()
            .contains("--kernel"));
        assert!(parse(&args("kernel s.toml --kernel debian-5"))
            .unwrap_err()
            .contains("debian-6.12"));
        assert!(parse(&args("validate"))
            .unwrap_err()
            .contains("scenario file"));
        assert!(parse(&args("validate s.toml")).unwrap().kernel.is_none());
        assert_eq!(dispatch(&args("run s.toml")), None);
    }

    #[test]
    fn signs_ignore_small_changes() {
        assert_eq!(sign("pswpout", 1000.0, 980.0), 0);
        assert_eq!(sign("pswpout", 1500.0, 1000.0), 1);
        assert_eq!(sign("pswpout", 24.0, 16.0), 0, "under the noise floor");
        assert_eq!(sign("t rounds total s", 0.0, 1.0), -1);
        assert_eq!(sign("t last round s", 0.005, 0.0), 0);
        assert_eq!(
            sign("memcg pgsteal spread % (stddev / mean)", 27.0, 1.3),
            1,
            "ratios have no page floor"
        );
    }
}

//! `reclaim kernel FILE --kernel K [--variant NAME] [--json]` and
//! `reclaim validate FILE [--kernel K] [--variant NAME] [--json]`.
use serde::{Deserialize, Serialize};

use std::path::{Path, PathBuf};

use super::host::{self, KernelReport};
use super::plan;
use reclaim_core::report::RunReport;
use reclaim_core::scenario::{self, Scenario};
use reclaim_core::Simulation;

pub const USAGE: &str = "\
  reclaim kernel FILE --kernel debian-6.1|debian-6.12|debian-6.18|debian-7.3 [--variant NAME] [--json]
                                              run a variant's tasks on a real kernel in QEMU
  reclaim validate FILE [--kernel K] [--variant NAME] [--boots N] [--deadline UNIX_S]
                  [--max-cpu 60s] [--json]    model and kernel side by side (default kernel debian-6.1,
                                              every variant, N boots each, their median compared;
                                              a model run over --max-cpu of CPU time stops, exit 1);
                                              each boot is kept in validation/kernel-runs/ (committed),
                                              so a rerun boots only what is missing or changed; no boot
                                              starts after --deadline; needs scripts/setup-kernel
  reclaim validate-report DIR [CAUSES [KNOBS]] docs/validation.md's body from the `validate --json`
                                              files in DIR: the agreement score, every cell outside
                                              1.25x and every direction that disagrees under the
                                              mechanism CAUSES (a JSON file, e.g.
                                              validation/miss-causes.json) names for it, the knob
                                              directions of the scenario families KNOBS lists
                                              (validation/knobs.json), then every section
";

#[derive(Debug, PartialEq)]
pub struct Args {
    pub validate: bool,
    pub file: String,
    pub kernel: Option<String>,
    pub variant: Option<String>,
    pub json: bool,
    /// Boots per variant (validate).
    pub boots: u32,
    /// Unix seconds after which no boot starts (validate); kept runs are still used.
    pub deadline: Option<u64>,
    /// CPU time each model run may use (validate), as `reclaim run --max-cpu`.
    pub max_cpu: Option<std::time::Duration>,
}

/// Handles `kernel` and `validate`; None for every other command.
pub fn dispatch(args: &[String]) -> Option<u8> {
    let cmd = args.first()?.as_str();
    if cmd == "validate-report" {
        return Some(match args.get(1) {
            Some(dir) if args.len() <= 4 => {
                match super::score::report_dir(dir, args.get(2), args.get(3)) {
                    Ok(md) => {
                        print!("{md}");
                        0
                    }
                    Err(e) => {
                        eprintln!("reclaim validate-report: {e}");
                        1
                    }
                }
            }
            _ => {
                eprintln!(
                    "reclaim: validate-report needs a directory (then a causes file and a knobs file)\n\nusage:\n{USAGE}"
                );
                2
            }
        });
    }
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
        boots: 1,
        deadline: None,
        max_cpu: None,
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
            "--boots" if validate => {
                let n = it.next().ok_or("--boots needs a number")?;
                a.boots = n
                    .parse()
                    .ok()
                    .filter(|b| (1..=9).contains(b))
                    .ok_or_else(|| format!("--boots takes 1 to 9, got {n:?}"))?;
            }
            "--deadline" if validate => {
                let n = it.next().ok_or("--deadline needs unix seconds")?;
                a.deadline = Some(
                    n.parse()
                        .map_err(|_| format!("--deadline takes unix seconds, got {n:?}"))?,
                );
            }
            "--max-cpu" if validate => {
                let v = it.next().ok_or("--max-cpu needs a time, e.g. 60s")?;
                a.max_cpu = reclaim_core::sweep::parse_max_cpu(v)?;
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
    // Every variant's model is built before the first boot: a preset that refuses the
    // scenario (an op its kernel does not have) stops here, nothing booted.
    let mut models = Vec::new();
    for v in &variants {
        models.push(
            Simulation::new(&sm, v).map_err(|e| (2, format!("{}: variant {v}: {e}", a.file)))?,
        );
    }
    let runner = runner_version().map_err(|e| (1, format!("reclaim validate: {e}")))?;
    let stem = Path::new(&a.file)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (dir, setup) = (runs_dir(), setup_version(&kernel));
    // The kernel side first (committed runs, then boots while the deadline allows), then the
    // models.
    let mut boots_of = Vec::new();
    let mut missing = 0;
    for v in &variants {
        let mut kernels = Vec::new();
        for boot_no in 1..=a.boots {
            let path = run_path(&dir, &kernel, &stem, &text, v, boot_no);
            if let Some(r) = load_run(&path, &text, v, boot_no, &runner, setup.as_deref()) {
                kernels.push(r);
                continue;
            }
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0);
            if a.deadline.is_some_and(|d| now >= d) {
                missing += 1;
                continue;
            }
            eprintln!("reclaim validate: booting {kernel} for variant {v}, run {boot_no}");
            let r = boot(v)?;
            eprintln!(
                "reclaim validate: {kernel}, {stem}, {v}, run {boot_no}: wall {:.0} s",
                r.wall_s
            );
            let stored = StoredRun {
                scenario: stem.clone(),
                scenario_hash: scenario_hash(&text),
                variant: v.clone(),
                boot: boot_no,
                runner: runner.clone(),
                report: r,
            };
            if let Err(e) = store_run(&path, &stored) {
                eprintln!("reclaim validate: could not keep the run: {e}");
            }
            kernels.push(stored.report);
        }
        boots_of.push(kernels);
    }
    // 4: nothing to compare yet (no boot kept, none allowed); the models are not run.
    if boots_of.iter().all(|k| k.is_empty()) {
        return Err((
            4,
            format!(
                "reclaim validate: {}: no kernel run on {kernel} yet (validation/kernel-runs/)",
                a.file
            ),
        ));
    }
    let mut pairs = Vec::new();
    for ((mut model, kernels), v) in models.into_iter().zip(boots_of).zip(&variants) {
        let model = reclaim_core::sweep::run::run_limited(&mut model, a.max_cpu, "--max-cpu")
            .map_err(|e| (1, format!("reclaim validate: {}: variant {v}: {e}", a.file)))?;
        pairs.push(Pair { model, kernels });
    }
    let mut v = validation(&s.title, &pairs);
    v.file = a.file.clone();
    v.kernel_name = kernel.clone();
    v.boots_wanted = a.boots;
    v.boots_missing = missing;
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| (1, e.to_string()))?
        );
    } else {
        print!("{}", markdown(&v));
    }
    // 3: incomplete (the deadline stopped some boots); the ones there are compared.
    if missing > 0 {
        return Err((
            3,
            format!("reclaim validate: {missing} boot(s) not run before the deadline"),
        ));
    }
    Ok(())
}

/// What identifies the guest side of a run besides the scenario and the kernel: this crate's
/// version and the code of the runner (the guest program, the plan it follows and the host
/// side that boots it and reads its result). Code only: comments, blank lines, indentation
/// and the test modules are left out, so that the committed kernel runs
/// (validation/kernel-runs/) stay valid across edits that cannot change what a guest measures;
/// any change of code makes them stale, and a rerun boots them again.
pub fn runner_version() -> Result<String, String> {
    Ok(runner_version_of(&[
        include_str!("guest.rs"),
        include_str!("plan.rs"),
        include_str!("host.rs"),
    ]))
}

/// `runner_version` of the given sources.
pub fn runner_version_of(sources: &[&str]) -> String {
    let code = sources
        .iter()
        .flat_map(|s| code_words(s))
        .collect::<Vec<_>>();
    format!(
        "{}-{:016x}",
        env!("CARGO_PKG_VERSION"),
        fnv(code.join(" ").bytes())
    )
}

/// A source's code as whitespace-separated words: up to its test module, without lines that
/// are only a comment.
fn code_words(src: &str) -> Vec<&str> {
    src.lines()
        .map(str::trim)
        .take_while(|l| *l != "#[cfg(test)]")
        .filter(|l| !l.starts_with("//"))
        .flat_map(str::split_whitespace)
        .collect()
}

/// FNV-1a over bytes: a cache key, not a security boundary.
fn fnv(bytes: impl Iterator<Item = u8>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The committed data set of measured kernel runs: one small JSON file per boot, so that a
/// validation spread over several sessions and machines accumulates (docs/real-kernels.md).
/// $RECLAIM_KERNEL_RUNS, or validation/kernel-runs/ in the repository.
pub fn runs_dir() -> PathBuf {
    std::env::var_os("RECLAIM_KERNEL_RUNS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../validation/kernel-runs")
        })
}

/// One boot of one variant, as committed: what it ran (the scenario file's stem and the hash
/// of its text, the variant, which boot, the runner) and what the kernel reported.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredRun {
    pub scenario: String,
    pub scenario_hash: String,
    pub variant: String,
    /// 1 for the first boot of this variant.
    pub boot: u32,
    pub runner: String,
    pub report: KernelReport,
}

/// The scenario's hash as a file name carries it: FNV-1a of the file's text.
pub fn scenario_hash(text: &str) -> String {
    format!("{:016x}", fnv(text.bytes()))
}

/// A name part of a file name: letters, digits, '.', '_' and '-' kept, anything else '_'.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `<dir>/<kernel>/<stem>-<scenario hash>-<variant>-<boot>.json` (boot from 1).
pub fn run_path(
    dir: &Path,
    kernel: &str,
    stem: &str,
    text: &str,
    variant: &str,
    boot: u32,
) -> PathBuf {
    dir.join(file_part(kernel)).join(format!(
        "{}-{}-{}-{boot}.json",
        file_part(stem),
        scenario_hash(text),
        file_part(variant)
    ))
}

/// A committed run that still stands for this scenario, variant, boot, runner and kernel: the
/// Debian package version it booted must be the one set up now (`setup`, from the kernel's
/// set-up directory; None when the kernel is not set up here, as on a machine that only reads
/// the runs).
pub fn load_run(
    path: &Path,
    text: &str,
    variant: &str,
    boot: u32,
    runner: &str,
    setup: Option<&str>,
) -> Option<KernelReport> {
    let r: StoredRun = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let fresh = r.scenario_hash == scenario_hash(text)
        && r.variant == variant
        && r.boot == boot
        && r.runner == runner
        && setup.is_none_or(|v| v == r.report.kernel.package_version);
    fresh.then_some(r.report)
}

/// The set-up kernel's Debian package version (scripts/setup-kernel), if it is set up.
fn setup_version(kernel: &str) -> Option<String> {
    std::fs::read_to_string(host::cache_dir().join(kernel).join("version"))
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// Written whole to a temporary name, then renamed (an interrupted run leaves no half file);
/// the runs of the same scenario file, variant and boot under another scenario hash (an older
/// text of the file) are removed, as they can no longer be used.
pub fn store_run(path: &Path, run: &StoredRun) -> Result<(), String> {
    let dir = path.parent().ok_or("no directory")?;
    let tmp = path.with_extension("tmp");
    let json = serde_json::to_string(run).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir)
        .and_then(|_| std::fs::write(&tmp, json + "\n"))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let (stem, tail) = (
        format!("{}-", file_part(&run.scenario)),
        format!("-{}-{}.json", file_part(&run.variant), run.boot),
    );
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let middle = name
            .strip_prefix(&stem)
            .and_then(|m| m.strip_suffix(&tail))
            .unwrap_or("");
        if middle.len() == 16 && middle.bytes().all(|b| b.is_ascii_hexdigit()) && e.path() != path {
            let _ = std::fs::remove_file(e.path());
        }
    }
    Ok(())
}

/// One variant: the model's run and the kernel's boots of it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pair {
    pub model: RunReport,
    pub kernels: Vec<KernelReport>,
}

/// `reclaim validate --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Validation {
    pub scenario: String,
    /// The scenario file and the `--kernel` name (for `validate-report`).
    #[serde(default)]
    pub file: String,
    #[serde(default)]
    pub kernel_name: String,
    pub kernel: String,
    pub accelerator: String,
    /// Boots asked per variant, and how many of all were not run (deadline).
    #[serde(default)]
    pub boots_wanted: u32,
    #[serde(default)]
    pub boots_missing: u32,
    pub rows: Vec<Row>,
    /// Per metric, from the first variant to each other one: does the change go the same way?
    pub directions: Vec<Direction>,
    pub wall_s: f64,
    pub runs: Vec<Pair>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Row {
    pub variant: String,
    pub metric: String,
    pub model: f64,
    /// The median of the boots (the lower middle of an even count); 0 without a boot.
    pub kernel: f64,
    /// Every boot's value, in boot order.
    #[serde(default)]
    pub kernel_boots: Vec<f64>,
    /// kernel / model (None when the model's value is 0).
    pub ratio: Option<f64>,
}

impl Row {
    /// The lowest and the highest boot; None with fewer than two boots.
    pub fn boots_range(&self) -> Option<(f64, f64)> {
        if self.kernel_boots.len() < 2 {
            return None;
        }
        let b = self.kernel_boots.iter().cloned();
        Some((
            b.clone().fold(f64::INFINITY, f64::min),
            b.fold(f64::NEG_INFINITY, f64::max),
        ))
    }

    /// (max - min) / median of the boots, in percent; None with fewer than two boots or a
    /// zero median.
    pub fn spread_pct(&self) -> Option<f64> {
        let (lo, hi) = self.boots_range()?;
        (self.kernel != 0.0).then(|| (hi - lo) * 100.0 / self.kernel.abs())
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
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
pub(crate) fn sign(metric: &str, x: f64, base: f64) -> i8 {
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

/// The lower median (the middle value; of an even count, the lower of the two middle ones,
/// so that it is always a value some boot gave).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    v[(v.len() - 1) / 2]
}

/// Per metric, every boot's value of a variant.
fn kernel_boots(p: &Pair) -> std::collections::BTreeMap<String, Vec<f64>> {
    let mut out: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for k in &p.kernels {
        for (m, v) in metrics(&k.run) {
            out.entry(m).or_default().push(v);
        }
    }
    out
}

pub fn validation(title: &str, pairs: &[Pair]) -> Validation {
    let mut rows = Vec::new();
    for p in pairs {
        let kb = kernel_boots(p);
        for (m, mv) in metrics(&p.model) {
            let boots = kb.get(&m).cloned().unwrap_or_default();
            let kv = median(&boots);
            rows.push(Row {
                variant: p.model.variant.clone(),
                metric: m,
                model: mv,
                kernel: kv,
                kernel_boots: boots,
                ratio: (mv != 0.0).then_some(kv / mv),
            });
        }
    }
    let mut directions = Vec::new();
    if let Some((first, rest)) = pairs.split_first() {
        let medians = |p: &Pair| -> std::collections::BTreeMap<String, f64> {
            kernel_boots(p)
                .into_iter()
                .map(|(m, b)| (m, median(&b)))
                .collect()
        };
        let m0: std::collections::BTreeMap<_, _> = metrics(&first.model).into_iter().collect();
        let k0 = medians(first);
        for p in rest {
            if p.kernels.is_empty() || first.kernels.is_empty() {
                continue;
            }
            let km = medians(p);
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
    let first_boot = pairs.iter().find_map(|p| p.kernels.first());
    Validation {
        scenario: title.to_string(),
        file: String::new(),
        kernel_name: first_boot
            .map(|k| k.kernel.name.clone())
            .unwrap_or_default(),
        kernel: first_boot
            .map(|k| format!("{} ({})", k.kernel.name, k.kernel.release))
            .unwrap_or_default(),
        accelerator: first_boot
            .map(|k| k.accelerator.clone())
            .unwrap_or_default(),
        boots_wanted: pairs
            .iter()
            .map(|p| p.kernels.len() as u32)
            .max()
            .unwrap_or(0),
        boots_missing: 0,
        rows,
        directions,
        wall_s: pairs
            .iter()
            .flat_map(|p| p.kernels.iter().map(|k| k.wall_s))
            .sum(),
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
        "### {}\n\nKernel {}, accelerator {}, kernel wall time {:.0} s (all boots, kept ones included).\n\n",
        v.scenario, v.kernel, v.accelerator, v.wall_s
    );
    if v.boots_missing > 0 {
        s.push_str(&format!(
            "**Incomplete**: {} boot(s) of {} per variant not run yet (the run's deadline); a rerun boots only those.\n\n",
            v.boots_missing, v.boots_wanted
        ));
    }
    for p in &v.runs {
        let Some(k) = p.kernels.first() else {
            s.push_str(&format!(
                "- {}: model preset {}; no kernel run yet\n",
                p.model.variant, p.model.preset
            ));
            continue;
        };
        let g = &k.guest;
        s.push_str(&format!(
            "- {}: model preset {}; {} boot(s); guest {} MiB, {} kB reserved by the kernel, free memory trimmed {} -> {} kB ({} huge pages), lru_gen {}, swappiness {}, first boot {:.1} s, run {:.1} s\n",
            p.model.variant, p.model.preset, p.kernels.len(), g.ram_mib, g.kernel_reserved_kb,
            g.mem_free_before_trim_kb, g.mem_free_kb, g.hugetlb_trim_pages, g.lru_gen_enabled,
            k.run.swappiness, g.boot_s, k.run_s
        ));
    }
    s.push_str(
        "\n| variant | metric | model | kernel (median) | kernel/model | boots: min–max (n) |\n|---|---|---:|---:|---:|---:|\n",
    );
    for r in &v.rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            r.variant,
            r.metric,
            num(r.model),
            num(r.kernel),
            r.ratio
                .map(|x| format!("{x:.2}"))
                .unwrap_or_else(|| "-".into()),
            r.boots_range()
                .map(|(lo, hi)| format!("{}–{} ({})", num(lo), num(hi), r.kernel_boots.len()))
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
                json: true,
                boots: 1,
                deadline: None,
                max_cpu: None,
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
        assert_eq!(
            parse(&args("validate s.toml --max-cpu 90s"))
                .unwrap()
                .max_cpu,
            Some(std::time::Duration::from_secs(90))
        );
        assert!(parse(&args("validate s.toml --max-cpu 0s"))
            .unwrap_err()
            .contains("must be > 0"));
        assert!(
            parse(&args("kernel s.toml --kernel debian-6.1 --max-cpu 9s"))
                .unwrap_err()
                .contains("unknown option --max-cpu")
        );
        assert_eq!(dispatch(&args("run s.toml")), None);
    }

    #[test]
    fn the_runner_version_follows_code_not_comments_or_tests() {
        let code = "//! A runner.\nfn boot() {\n    qemu(1);\n}\n#[cfg(test)]\nmod tests {}\n";
        let v = runner_version_of(&[code]);
        let commented = "//! A runner, said differently.\n\nfn boot() {\n  // why\n  qemu(1);\n}\n#[cfg(test)]\nmod tests { fn more() {} }\n";
        assert_eq!(
            runner_version_of(&[commented]),
            v,
            "comments, layout and tests"
        );
        let changed = code.replace("qemu(1)", "qemu(2)");
        assert_ne!(runner_version_of(&[&changed]), v, "code");
        assert!(v.starts_with(env!("CARGO_PKG_VERSION")));
    }

    /// A stored run in a private directory, removed however the test ends.
    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn report(package_version: &str) -> KernelReport {
        KernelReport {
            run: RunReport {
                scenario: "t".into(),
                variant: "classic".into(),
                preset: "linux-6.1".into(),
                swappiness: 60,
                virtual_s: 1.0,
                counters: [("pswpout".to_string(), 7u64)].into_iter().collect(),
                measured: Default::default(),
                tasks: vec![],
                oom_kills: vec![],
                memcgs: vec![],
                reclaim_requested_pages: None,
                reclaim_reclaimed_pages: None,
            },
            source: "kernel".into(),
            kernel: host::KernelInfo {
                name: "debian-6.1".into(),
                release: "6.1.0".into(),
                package_version: package_version.into(),
            },
            accelerator: "tcg".into(),
            guest: host::GuestInfo {
                ram_mib: 0,
                cpus: 2,
                mem_total_kb: 0,
                kernel_reserved_kb: 0,
                mem_free_before_trim_kb: 0,
                mem_free_kb: 0,
                hugetlb_trim_pages: 0,
                boot_s: 0.0,
                lru_gen_enabled: String::new(),
            },
            wall_s: 300.0,
            run_s: 60.0,
            notes: vec![],
        }
    }

    #[test]
    fn a_stored_run_stands_until_its_scenario_runner_or_kernel_changes() {
        let d = Dir(std::env::temp_dir().join(format!("reclaim-runs-{}", std::process::id())));
        let text = "title = \"t\"\n";
        let path = run_path(&d.0, "debian-6.1", "thrash", text, "mglru v2", 1);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            name,
            format!("thrash-{}-mglru_v2-1.json", scenario_hash(text))
        );
        assert!(path.starts_with(d.0.join("debian-6.1")));
        let run = StoredRun {
            scenario: "thrash".into(),
            scenario_hash: scenario_hash(text),
            variant: "mglru v2".into(),
            boot: 1,
            runner: "r1".into(),
            report: report("6.1.192-2"),
        };
        store_run(&path, &run).unwrap();
        let load = |text: &str, boot: u32, runner: &str, setup: Option<&str>| {
            load_run(&path, text, "mglru v2", boot, runner, setup)
        };
        let r = load(text, 1, "r1", Some("6.1.192-2")).expect("stands");
        assert_eq!(r.run.counters["pswpout"], 7);
        assert!(
            load(text, 1, "r1", None).is_some(),
            "no kernel set up: read as is"
        );
        assert!(load(text, 1, "r2", None).is_none(), "another runner");
        assert!(
            load(text, 1, "r1", Some("6.1.193-1")).is_none(),
            "another kernel package"
        );
        assert!(
            load("title = \"u\"\n", 1, "r1", None).is_none(),
            "another scenario text"
        );
        assert!(load(text, 2, "r1", None).is_none(), "another boot's file");
        // A run of a changed text replaces the old text's run of the same variant and boot.
        let text2 = "title = \"t2\"\n";
        let path2 = run_path(&d.0, "debian-6.1", "thrash", text2, "mglru v2", 1);
        let other_boot = run_path(&d.0, "debian-6.1", "thrash", text, "mglru v2", 2);
        store_run(
            &other_boot,
            &StoredRun {
                boot: 2,
                ..run.clone()
            },
        )
        .unwrap();
        store_run(
            &path2,
            &StoredRun {
                scenario_hash: scenario_hash(text2),
                ..run.clone()
            },
        )
        .unwrap();
        assert!(!path.exists(), "the old text's boot 1 is gone");
        assert!(
            path2.exists() && other_boot.exists(),
            "boot 2 of the old text is not replaced yet"
        );
        let left: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(left.len(), 2, "no temporary file left");
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

//! `reclaim`: run scenario files from the command line. Argument parsing and output formatting
//! live in `reclaim_cli::cli`; this file only does the I/O and picks the exit code.
use std::process::ExitCode;
use std::sync::Mutex;

use reclaim_cli::cli::{self, Command};
use reclaim_core::report::{CompareReport, RunReport};
use reclaim_core::scenario::{self, Scenario};
use reclaim_core::Simulation;

/// Why the command failed, and the exit code: 2 for bad input, 1 for an engine error.
struct Failure {
    code: u8,
    message: String,
}

fn bad_input(message: String) -> Failure {
    Failure { code: 2, message }
}

/// The message and place of a panic, kept by the hook for `main` to report.
static PANIC: Mutex<Option<String>> = Mutex::new(None);

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `reclaim kernel` / `reclaim validate`: real kernels in QEMU (kernel_run/cli.rs).
    #[cfg(target_os = "linux")]
    if let Some(code) = reclaim_cli::kernel_run::cli::dispatch(&args) {
        return ExitCode::from(code);
    }
    // `--no-budget`, anywhere: lift the resource budget's soft limits for a big native run.
    let before = args.len();
    args.retain(|a| a != "--no-budget");
    let budget = if args.len() < before {
        scenario::Budget::UNLIMITED
    } else {
        scenario::Budget::DEFAULT
    };
    // A panic is a bug in the engine: report it as an engine error (exit 1) with its message,
    // never as Rust's exit status 101.
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut p) = PANIC.lock() {
            *p = Some(reclaim_core::panic_message(info));
        }
    }));
    let result = std::panic::catch_unwind(|| run(&args, &budget)).unwrap_or_else(|_| {
        let what = PANIC.lock().ok().and_then(|mut p| p.take());
        Err(Failure {
            code: 1,
            message: format!(
                "reclaim: engine error (a bug in the engine; please report it with the scenario): {}",
                what.unwrap_or_else(|| "panic".to_string())
            ),
        })
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}

fn run(args: &[String], budget: &scenario::Budget) -> Result<(), Failure> {
    let command = cli::parse_args(args)
        .map_err(|e| bad_input(format!("reclaim: {e}\n\n{}", cli::usage().trim_end())))?;
    match command {
        Command::Help => print!("{}", cli::usage()),
        Command::Version => println!("reclaim {}", reclaim_core::VERSION),
        Command::Sweep { args } => return sweep(&args),
        Command::Mrc { args } => return mrc(&args, budget),
        Command::Presets => print!("{}", cli::presets_text()),
        Command::Run {
            file,
            variant,
            json,
            max_cpu,
        } => {
            let scenario = load(&file, budget)?;
            let name = reclaim_core::scenario::pick_variant(&scenario, variant.as_deref())
                .map_err(|e| bad_input(format!("{file}: {e}")))?;
            let report = simulate(&scenario, &name, max_cpu)?;
            if json {
                println!("{}", to_json(&report)?);
            } else {
                print!("{}", cli::run_text(&report));
            }
        }
        Command::Compare {
            file,
            json,
            max_cpu,
        } => {
            let scenario = load(&file, budget)?;
            let reports = scenario
                .variants
                .iter()
                .map(|v| simulate(&scenario, &v.name, max_cpu))
                .collect::<Result<Vec<_>, _>>()?;
            if json {
                println!("{}", to_json(&CompareReport::new(&scenario, reports))?);
            } else {
                let keys = cli::compare_keys(&reports);
                let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
                print!("{}", cli::compare_table(&scenario.title, &reports, &keys));
                print!(
                    "{}",
                    reclaim_core::report::verdicts_text(&reclaim_core::report::assess(
                        &scenario, &reports
                    ))
                );
            }
        }
    }
    Ok(())
}

/// `reclaim sweep`: exit 2 on bad input, 1 when a run failed (its row holds the error).
fn sweep(args: &[String]) -> Result<(), Failure> {
    use reclaim_core::sweep;
    let usage = |e: String| bad_input(format!("reclaim sweep: {e}\n\n{}", sweep::USAGE.trim_end()));
    let args = sweep::parse_args(args).map_err(usage)?;
    let (scenario, text, spec, csv) =
        sweep::resolve(&args).map_err(|e| bad_input(format!("reclaim sweep: {e}")))?;
    let plan = sweep::grid::plan(&text, &spec)
        .map_err(|e| bad_input(format!("reclaim sweep: {}: {e}", scenario.display())))?;
    let c = &args.common;
    let jobs = c.jobs.unwrap_or_else(sweep::run::default_jobs);
    let summary = sweep::execute(
        &text,
        &plan,
        &csv,
        jobs,
        c.max_cpu,
        c.parquet,
        !c.quiet,
    )
    .map_err(|e| Failure {
        code: 1,
        message: format!("reclaim sweep: {e}"),
    })?;
    print!("{}", summary.text());
    if summary.failed > 0 {
        return Err(Failure {
            code: 1,
            message: format!(
                "reclaim sweep: {} run(s) failed; their rows hold the error",
                summary.failed
            ),
        });
    }
    Ok(())
}

/// `reclaim mrc`: exit 2 on bad input, 1 when a point failed (its row holds the error).
fn mrc(args: &[String], budget: &scenario::Budget) -> Result<(), Failure> {
    use reclaim_core::sweep::mrc;
    let usage = |e: String| bad_input(format!("reclaim mrc: {e}\n\n{}", mrc::USAGE.trim_end()));
    let a = mrc::parse_args(args).map_err(usage)?;
    let (written, rows, failed) =
        mrc::execute(&a, budget).map_err(|e| bad_input(format!("reclaim mrc: {e}")))?;
    let paths: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    println!("{rows} points ({failed} failed) -> {}", paths.join(", "));
    if failed > 0 {
        return Err(Failure {
            code: 1,
            message: format!("reclaim mrc: {failed} point(s) failed; their rows hold the error"),
        });
    }
    Ok(())
}

fn load(file: &str, budget: &scenario::Budget) -> Result<Scenario, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| bad_input(format!("reclaim: cannot read {file}: {e}")))?;
    let mut scn = scenario::parse_with_budget(&text, budget)
        .map_err(|e| bad_input(format!("{file}:{}:{}: {}", e.line, e.column, e.what())))?;
    // The traces its replay ops name, next to the scenario file.
    let dir = std::path::Path::new(file)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    reclaim_core::sweep::traces::attach(&mut scn, dir, budget)
        .map_err(|e| bad_input(format!("{file}: {e}")))?;
    Ok(scn)
}

/// Run a variant to its end: an engine error (exit 1) when it cannot be built or ends early
/// (the progress guard, the CPU limit).
fn simulate(
    scenario: &Scenario,
    variant: &str,
    max_cpu: Option<std::time::Duration>,
) -> Result<RunReport, Failure> {
    let engine_error = |e: String| Failure {
        code: 1,
        message: format!("reclaim: variant {variant}: {e}"),
    };
    let mut sim = Simulation::new(scenario, variant).map_err(engine_error)?;
    reclaim_core::sweep::run::run_limited(&mut sim, max_cpu, "--max-cpu").map_err(engine_error)
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, Failure> {
    serde_json::to_string_pretty(value).map_err(|e| Failure {
        code: 1,
        message: format!("reclaim: {e}"),
    })
}

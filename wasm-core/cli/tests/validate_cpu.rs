//! `reclaim validate --max-cpu`, apart from the other tests: its `reclaim validate` reads a
//! private kernel set-up (RECLAIM_KERNEL_CACHE, empty) and private kernel runs
//! (RECLAIM_KERNEL_RUNS).
#![cfg(target_os = "linux")]
use reclaim_cli::kernel_run::plan::at_kernel;
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

/// The private directory, removed however the test ends.
struct Cache(std::path::PathBuf);

impl Drop for Cache {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
/// `reclaim validate --max-cpu` stops a model run over the limit with exit 1 and a message
/// naming the option and the variant; the same comparison without it succeeds. The kernel
/// side is a stored run in a private runs directory (RECLAIM_KERNEL_RUNS), so nothing boots.
#[test]
fn validate_stops_a_model_over_max_cpu() {
    use reclaim_cli::kernel_run::cli::{run_path, runner_version, scenario_hash, StoredRun};
    use reclaim_cli::kernel_run::host::{GuestInfo, KernelInfo, KernelReport};
    let name = first_validation_scenario();
    let stem = name.trim_end_matches(".toml").to_string();
    let file = format!(
        "{}/../../scenarios/validation/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let s = parse(&text).unwrap();
    let kernel = "debian-6.1";
    let sm = at_kernel(&s, kernel).unwrap();
    let variant = sm.variants[0].name.clone();
    let cache =
        Cache(std::env::temp_dir().join(format!("reclaim-validate-cpu-{}", std::process::id())));
    let cache = &cache.0;
    let (setup, runs) = (cache.join("setup"), cache.join("runs"));
    std::fs::create_dir_all(&setup).unwrap();
    let path = run_path(&runs, kernel, &stem, &text, &variant, 1);
    let cached = KernelReport {
        run: Simulation::new(&sm, &variant).unwrap().run_to_end(),
        source: "kernel".into(),
        kernel: KernelInfo {
            name: kernel.into(),
            release: "test".into(),
            package_version: "test".into(),
        },
        accelerator: "tcg".into(),
        guest: GuestInfo {
            ram_mib: 0,
            cpus: 1,
            mem_total_kb: 0,
            kernel_reserved_kb: 0,
            mem_free_before_trim_kb: 0,
            mem_free_kb: 0,
            hugetlb_trim_pages: 0,
            boot_s: 0.0,
            lru_gen_enabled: String::new(),
        },
        wall_s: 0.0,
        run_s: 0.0,
        notes: vec![],
    };
    let stored = StoredRun {
        scenario: stem.clone(),
        scenario_hash: scenario_hash(&text),
        variant: variant.clone(),
        boot: 1,
        runner: runner_version().unwrap(),
        report: cached,
    };
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string(&stored).unwrap()).unwrap();
    let validate = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_reclaim"))
            .args(["validate", &file, "--kernel", kernel, "--variant", &variant])
            .args(extra)
            .env("RECLAIM_KERNEL_CACHE", &setup)
            .env("RECLAIM_KERNEL_RUNS", &runs)
            .output()
            .unwrap()
    };
    let limited = validate(&["--max-cpu", "1us"]);
    let err = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(1), "{err}");
    assert!(
        err.contains("--max-cpu") && err.contains(&format!("variant {variant}")),
        "{err}"
    );
    let free = validate(&[]);
    assert_eq!(
        free.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&free.stderr)
    );
}

fn first_validation_scenario() -> String {
    let dir = format!("{}/../../scenarios/validation", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    names.remove(0)
}

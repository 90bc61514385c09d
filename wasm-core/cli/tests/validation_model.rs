//! The model side of every validation scenario (scenarios/validation/), at the presets of
//! every kernel `reclaim validate` boots, without a boot: each scenario builds and runs to its
//! end at each kernel's presets, or is refused with the reason a kernel refuses it. What
//! `npm run validate` would compare is thereby known to run, so a validation run cannot fail on
//! the model's side after an hour of boots.
#![cfg(target_os = "linux")]
use reclaim_cli::kernel_run::plan::{at_kernel, KERNELS};
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

#[test]
fn every_validation_scenario_runs_at_every_kernels_presets() {
    let dir = format!("{}/../../scenarios/validation", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 14, "the validation scenarios are there");
    let mut refused = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let s = parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for k in KERNELS {
            let sm = at_kernel(&s, k).unwrap_or_else(|e| panic!("{name} on {k}: {e}"));
            for v in &sm.variants {
                match Simulation::new(&sm, &v.name) {
                    Ok(mut sim) => {
                        let r = sim.run_to_end();
                        assert_eq!(r.variant, v.name, "{name} on {k}");
                        assert!(
                            r.virtual_s > 0.0 && r.counters.values().any(|&c| c > 0),
                            "{name} on {k}, {}: the model ran nothing",
                            v.name
                        );
                    }
                    Err(e) => refused.push(format!("{name} on {k}, {}: {e}", v.name)),
                }
            }
        }
    }
    // Only memory.reclaim's swappiness=max is refused, and only by the kernels before 6.16.
    for r in &refused {
        assert!(
            r.starts_with("memcg-reclaim-swappiness-max.toml on debian-6.1")
                && r.contains("swappiness_anon_only"),
            "refused: {r}"
        );
    }
    assert_eq!(
        refused.len(),
        4,
        "6.1 and 6.12, two variants each: {refused:#?}"
    );
}

/// `reclaim validate --max-cpu` stops a model run over the limit with exit 1 and a message
/// naming the option and the variant; the same comparison without it succeeds. The kernel
/// side is a cached run in a private cache (RECLAIM_KERNEL_CACHE), so nothing boots.
#[test]
fn validate_stops_a_model_over_max_cpu() {
    use reclaim_cli::kernel_run::cli::{cached_run_path, runner_version};
    use reclaim_cli::kernel_run::host::{GuestInfo, KernelInfo, KernelReport};
    let file = format!(
        "{}/../../scenarios/validation/{}",
        env!("CARGO_MANIFEST_DIR"),
        first_validation_scenario()
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let s = parse(&text).unwrap();
    let kernel = "debian-6.1";
    let sm = at_kernel(&s, kernel).unwrap();
    let variant = sm.variants[0].name.clone();
    let cache = std::env::temp_dir().join(format!("reclaim-validate-cpu-{}", std::process::id()));
    std::fs::create_dir_all(&cache).unwrap();
    // cached_run_path reads the cache from the environment: this test binary's only use of it.
    std::env::set_var("RECLAIM_KERNEL_CACHE", &cache);
    let path = cached_run_path(&text, &variant, kernel, &runner_version().unwrap(), 0);
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
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string(&cached).unwrap()).unwrap();
    let validate = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_reclaim"))
            .args(["validate", &file, "--kernel", kernel, "--variant", &variant])
            .args(extra)
            .env("RECLAIM_KERNEL_CACHE", &cache)
            .output()
            .unwrap()
    };
    let limited = validate(&["--max-cpu", "1us"]);
    let err = String::from_utf8_lossy(&limited.stderr);
    assert_eq!(limited.status.code(), Some(1), "{err}");
    assert!(err.contains("--max-cpu") && err.contains(&format!("variant {variant}")), "{err}");
    let free = validate(&[]);
    assert_eq!(
        free.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&free.stderr)
    );
    let _ = std::fs::remove_dir_all(&cache);
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

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

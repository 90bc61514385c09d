//! The engine API the wasm facade and the web page rely on, checked natively:
//! `Simulation::demo()`, `step(ns)`, `now_ns()`, `counter_names()`,
//! `counter_values()`, and `VERSION`. Only the contract is assumed, not the
//! placeholder demo's particulars, so these keep holding for the real engine.
use reclaim_core::{Simulation, VERSION};

#[test]
fn version_is_the_crate_version_from_cargo_toml() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let in_package = manifest
        .split("\n[")
        .find(|section| section.starts_with("[package]") || section.starts_with("package]"))
        .expect("Cargo.toml has a [package] section");
    let declared = in_package
        .lines()
        .find_map(|l| l.trim().strip_prefix("version = "))
        .map(|v| v.trim_matches('"'))
        .expect("[package] declares a version");
    assert_eq!(VERSION, declared);
    let parts: Vec<&str> = VERSION.split('.').collect();
    assert_eq!(parts.len(), 3, "semver x.y.z, got {VERSION}");
    assert!(
        parts.iter().all(|p| p.parse::<u32>().is_ok()),
        "numeric semver, got {VERSION}"
    );
}

#[test]
fn demo_starts_at_time_zero_with_named_counters() {
    let sim = Simulation::demo();
    assert_eq!(sim.now_ns(), 0);
    let names = sim.counter_names();
    let values = sim.counter_values();
    assert!(!names.is_empty());
    assert_eq!(names.len(), values.len(), "one value per counter name");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        names.len(),
        "counter names are unique: {names:?}"
    );
    assert!(
        names
            .iter()
            .all(|n| !n.is_empty() && !n.contains(char::is_whitespace)),
        "counter names are identifiers: {names:?}"
    );
    assert!(
        values.iter().all(|v| v.is_finite() && *v >= 0.0),
        "counters are finite and non-negative: {values:?}"
    );
}

#[test]
fn stepping_advances_time_and_changes_counters() {
    let mut sim = Simulation::demo();
    let start = sim.counter_values();
    let mut prev_now = sim.now_ns();
    for _ in 0..20 {
        sim.step(1_000_000); // 1 ms of virtual time
        let now = sim.now_ns();
        assert!(
            now >= prev_now + 1_000_000,
            "time advances by at least the step: {prev_now} -> {now}"
        );
        prev_now = now;
        let values = sim.counter_values();
        assert_eq!(values.len(), start.len());
        assert!(
            values.iter().all(|v| v.is_finite() && *v >= 0.0),
            "{values:?}"
        );
    }
    assert_ne!(
        sim.counter_values(),
        start,
        "20 ms of the demo changes some counter"
    );
}

#[test]
fn demo_is_deterministic() {
    let mut a = Simulation::demo();
    let mut b = Simulation::demo();
    for ns in [1_000u64, 250_000, 7_000_000, 3] {
        a.step(ns);
        b.step(ns);
    }
    assert_eq!(a.now_ns(), b.now_ns());
    assert_eq!(a.counter_values(), b.counter_values());
}

#[test]
fn step_of_zero_changes_nothing() {
    let mut sim = Simulation::demo();
    sim.step(2_000_000);
    let (now, values) = (sim.now_ns(), sim.counter_values());
    sim.step(0);
    assert_eq!(sim.now_ns(), now);
    assert_eq!(sim.counter_values(), values);
}

//! Lessons that stay true: every step of the shipped lessons states its caption's facts
//! (`facts`, scenario/expect.rs), and the engine, run to the step's time, bears them out.
mod common;
use reclaim_core::scenario::LessonStep;
use reclaim_core::views::live_metric;
use reclaim_core::Simulation;

const LESSONS: &[&str] = &[
    "lesson-two-list-lru.toml",
    "lesson-swappiness.toml",
    "lesson-refault-distance.toml",
    "s000-thrash.toml",
    "s001b-worst-case.toml",
];

/// The facts of one step that do not hold, as messages.
fn failures(
    file: &str,
    sim: &Simulation,
    variant: &str,
    i: usize,
    step: &LessonStep,
) -> Vec<String> {
    let mut out = Vec::new();
    for c in &step.facts {
        if c.variant.as_deref().is_some_and(|v| v != variant) {
            continue;
        }
        let got = live_metric(sim, &c.metric);
        if !got.is_some_and(|g| c.holds(g)) {
            out.push(format!(
                "{file} lesson step {} (at {} s), variant {variant}: {} is {got:?}; caption: {:?}",
                i + 1,
                step.at.secs_f64(),
                c.describe(variant),
                step.caption.trim()
            ));
        }
    }
    out
}

#[test]
fn every_caption_of_the_shipped_lessons_is_true_at_its_time() {
    let mut bad = Vec::new();
    for file in LESSONS {
        let scn = common::load(file);
        assert!(!scn.lesson.is_empty(), "{file}");
        for (i, step) in scn.lesson.iter().enumerate() {
            assert!(
                !step.facts.is_empty(),
                "{file}: lesson step {} states no facts",
                i + 1
            );
        }
        for v in &scn.variants {
            let mut sim = Simulation::new(&scn, &v.name).unwrap();
            for (i, step) in scn.lesson.iter().enumerate() {
                sim.run_until(step.at.ns());
                bad.extend(failures(file, &sim, &v.name, i, step));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "captions not true at their time:\n{}",
        bad.join("\n")
    );
}

#[test]
fn a_false_fact_is_caught() {
    // The two-list lesson's third step as first written: kswapd evicting the stream at 1.15 s.
    let text = std::fs::read_to_string(common::scenario_path("lesson-two-list-lru.toml")).unwrap();
    let scn = reclaim_core::scenario::parse(&text).unwrap();
    let mut step = scn.lesson[0].clone();
    step.at = reclaim_core::scenario::Duration::from_ns(1_150_000_000);
    step.facts =
        vec![
            serde_json::from_value(serde_json::json!({"metric": "pgsteal_kswapd", "min": 1.0}))
                .unwrap(),
        ];
    let mut sim = Simulation::new(&scn, &scn.variants[0].name).unwrap();
    sim.run_until(step.at.ns());
    assert_eq!(
        failures("two-list", &sim, &scn.variants[0].name, 2, &step).len(),
        1
    );
}

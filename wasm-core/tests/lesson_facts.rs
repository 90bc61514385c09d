//! Lessons that stay true: every step of every shipped lesson states its caption's facts
//! (`facts`, scenario/expect.rs), and the engine, run to the step's time, bears them out.
//!
//! A fact without `variant` and `over` must hold for every variant; `variant` names one; `over`
//! compares two at the same time (the figure is `variant` / `over`, `variant` defaulting to the
//! last variant as in `[[expect]]`), so "2.6.34 scans twice as many pages" is checkable.
mod common;
use reclaim_core::scenario::expect::Check;
use reclaim_core::scenario::{LessonStep, Scenario};

use reclaim_core::Simulation;

/// Every scenario file that carries a lesson (the basics, the seed experiments, and the lessons
/// in scenarios/traces/, with the traces they replay attached from beside them).
fn lessons() -> Vec<(String, Scenario)> {
    let root = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = Vec::new();
    for sub in ["", "traces/"] {
        let mut found: Vec<String> = std::fs::read_dir(format!("{root}/{sub}"))
            .unwrap()
            .map(|e| format!("{sub}{}", e.unwrap().file_name().to_string_lossy()))
            .filter(|n| n.ends_with(".toml"))
            .collect();
        found.sort();
        files.extend(found);
    }
    files
        .into_iter()
        .map(|f| {
            let mut scn = common::load(&f);
            let dir = std::path::Path::new(&common::scenario_path(&f))
                .parent()
                .unwrap()
                .to_path_buf();
            reclaim_core::sweep::traces::attach(
                &mut scn,
                &dir,
                &reclaim_core::scenario::Budget::DEFAULT,
            )
            .unwrap_or_else(|e| panic!("{f}: {e}"));
            (f, scn)
        })
        .filter(|(_, scn)| !scn.lesson.is_empty())
        .collect()
}

/// A figure of the run at a step: (variant, metric) -> value, None where it has none.
type Figures = std::collections::HashMap<(String, String), Option<f64>>;

/// The figures of one step: of its `facts` at its time, and of its `facts_since` as their
/// change from `since` to its time.
#[derive(Default, Clone)]
struct StepFigures {
    now: Figures,
    since: Figures,
}

/// Run each variant in turn (one at a time: the full-scale scenarios are large) through every
/// step's time and `since`, and record the figures its facts name.
fn figures_at_steps(scn: &Scenario, steps: &[LessonStep]) -> Vec<StepFigures> {
    // (time, step, whether it is the step's `since`), in time order: a `since` may lie before
    // earlier steps' times.
    let mut stops: Vec<(u64, usize, bool)> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| (s.at.ns(), i, false))
        .collect();
    stops.extend(
        steps
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.since.map(|t| (t.ns(), i, true))),
    );
    stops.sort();
    let mut figures = vec![StepFigures::default(); steps.len()];
    for v in &scn.variants {
        let mut sim = Simulation::new(scn, &v.name).unwrap();
        let mut at_since: Figures = Figures::new();
        for &(t, i, is_since) in &stops {
            sim.run_until(t);
            let step = &steps[i];
            let key = |m: &str| (v.name.clone(), m.to_string());
            if is_since {
                for c in &step.facts_since {
                    at_since.insert(
                        (format!("{i}"), c.metric.clone()),
                        sim.live_metric(&c.metric),
                    );
                }
                continue;
            }
            for c in &step.facts {
                figures[i]
                    .now
                    .insert(key(&c.metric), sim.live_metric(&c.metric));
            }
            for c in &step.facts_since {
                let then = at_since
                    .get(&(format!("{i}"), c.metric.clone()))
                    .copied()
                    .flatten();
                let change = sim
                    .live_metric(&c.metric)
                    .zip(then)
                    .map(|(now, then)| now - then);
                figures[i].since.insert(key(&c.metric), change);
            }
        }
    }
    figures
}

/// The facts of one step that do not hold, as messages; `variants` in the scenario's order,
/// `figures` those of `facts` (the step's `facts` or, as changes, its `facts_since`).
fn failures(
    file: &str,
    variants: &[String],
    figures: &Figures,
    i: usize,
    step: &LessonStep,
    facts: &[Check],
) -> Vec<String> {
    let mut out = Vec::new();
    let figure = |variant: &str, metric: &str| {
        *figures
            .get(&(variant.to_string(), metric.to_string()))
            .unwrap_or(&None)
    };
    let last = variants.last().unwrap();
    let since = std::ptr::eq(facts, step.facts_since.as_slice());
    let when = match step.since {
        Some(t) if since => format!("since {} s", t.secs_f64()),
        _ => "now".to_string(),
    };
    for c in facts {
        // (variant described, its figure) for each variant the fact speaks of.
        let cases: Vec<(String, Option<f64>)> = match (&c.over, &c.variant) {
            (Some(over), v) => {
                let v = v.as_deref().unwrap_or(last);
                let (a, b) = (figure(v, &c.metric), figure(over, &c.metric));
                let ratio = a.zip(b).filter(|(_, b)| *b != 0.0).map(|(a, b)| a / b);
                vec![(v.to_string(), ratio)]
            }
            (None, Some(v)) => vec![(v.clone(), figure(v, &c.metric))],
            (None, None) => variants
                .iter()
                .map(|n| (n.clone(), figure(n, &c.metric)))
                .collect(),
        };
        for (variant, got) in cases {
            if !got.is_some_and(|g| c.holds(g)) {
                out.push(format!(
                    "{file} lesson step {} (at {} s): {}, {when}, is {got:?}; caption: {:?}",
                    i + 1,
                    step.at.secs_f64(),
                    c.describe(&variant),
                    step.caption.trim()
                ));
            }
        }
    }
    out
}

fn names(scn: &Scenario) -> Vec<String> {
    scn.variants.iter().map(|v| v.name.clone()).collect()
}

#[test]
fn every_caption_of_the_shipped_lessons_is_true_at_its_time() {
    let lessons = lessons();
    // The basics, the seed experiments and the trace lesson: a scenario that loses its lesson
    // must be noticed.
    assert!(lessons.len() >= 12, "{} lessons found", lessons.len());
    assert!(
        lessons
            .iter()
            .any(|(f, _)| f == "traces/lesson-not-lru.toml"),
        "the trace lesson is checked"
    );
    let mut bad = Vec::new();
    for (file, scn) in &lessons {
        for (i, step) in scn.lesson.iter().enumerate() {
            assert!(
                !step.facts.is_empty(),
                "{file}: lesson step {} states no facts",
                i + 1
            );
        }
        let figures = figures_at_steps(scn, &scn.lesson);
        for (i, step) in scn.lesson.iter().enumerate() {
            let f = &figures[i];
            bad.extend(failures(file, &names(scn), &f.now, i, step, &step.facts));
            bad.extend(failures(
                file,
                &names(scn),
                &f.since,
                i,
                step,
                &step.facts_since,
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "captions not true at their time:\n{}",
        bad.join("\n")
    );
}

fn fact(json: serde_json::Value) -> Check {
    serde_json::from_value(json).unwrap()
}

/// One step of `file` at `at_ns` stating `facts`, its variants' figures, and their names.
fn one_step(file: &str, at_ns: u64, facts: Vec<Check>) -> (LessonStep, Figures, Vec<String>) {
    let scn = common::load(file);
    let mut step = scn.lesson[0].clone();
    step.at = reclaim_core::scenario::Duration::from_ns(at_ns);
    step.facts = facts;
    let figures = figures_at_steps(&scn, std::slice::from_ref(&step))
        .remove(0)
        .now;
    (step, figures, names(&scn))
}

#[test]
fn a_false_fact_is_caught() {
    // The two-list lesson's third step as first written: kswapd evicting the stream at 1.15 s.
    let (step, figures, variants) = one_step(
        "lesson-two-list-lru.toml",
        1_150_000_000,
        vec![fact(
            serde_json::json!({"metric": "pgsteal_kswapd", "min": 1.0}),
        )],
    );
    assert_eq!(
        failures("two-list", &variants, &figures, 2, &step, &step.facts).len(),
        variants.len(),
        "one failure per variant"
    );
}

#[test]
fn a_ratio_between_variants_is_checked() {
    let ratio_of = |metric: &str| {
        one_step(
            "s001b-worst-case.toml",
            2_200_000_000,
            vec![fact(
                serde_json::json!({"metric": metric, "variant": "after", "over": "before", "min": 0.0}),
            )],
        )
    };
    let (mut step, figures, variants) = ratio_of("pgscan_file");
    let scans = |v: &str| figures[&(v.to_string(), "pgscan_file".to_string())].unwrap();
    let ratio = scans("after") / scans("before");
    // A bound just past the ratio fails, one at it holds: the ratio is after / before.
    step.facts[0].min = Some(ratio * 1.01);
    assert_eq!(
        failures("s001b", &variants, &figures, 1, &step, &step.facts).len(),
        1
    );
    step.facts[0].min = Some(ratio);
    assert!(failures("s001b", &variants, &figures, 1, &step, &step.facts).is_empty());
    // Without `variant`, the ratio is the last variant's over `over`.
    step.facts[0].variant = None;
    assert!(failures("s001b", &variants, &figures, 1, &step, &step.facts).is_empty());
    // A ratio over zero is no figure: the fact fails rather than holding by accident.
    let (step, figures, _) = ratio_of("pswpout");
    assert_eq!(
        failures("s001b", &variants, &figures, 1, &step, &step.facts).len(),
        1
    );
}

#[test]
fn a_fact_since_an_earlier_time_is_the_change_since_then() {
    // The two-list lesson: pgpgin (its files are read) grows between 0.5 s and 1.25 s, by less
    // than its total.
    let scn = common::load("lesson-two-list-lru.toml");
    let mut step = scn.lesson[0].clone();
    step.at = reclaim_core::scenario::Duration::from_ns(1_250_000_000);
    step.since = Some(reclaim_core::scenario::Duration::from_ns(500_000_000));
    step.facts = vec![fact(serde_json::json!({"metric": "pgpgin", "min": 0.0}))];
    step.facts_since = step.facts.clone();
    // A `since` before the previous step's time: the runs go back to it in time order.
    let mut early = scn.lesson[0].clone();
    early.at = reclaim_core::scenario::Duration::from_ns(1_000_000_000);
    let figures = figures_at_steps(&scn, &[early, step.clone()]).remove(1);
    let v = names(&scn)[0].clone();
    let total = figures.now[&(v.clone(), "pgpgin".to_string())].unwrap();
    let change = figures.since[&(v, "pgpgin".to_string())].unwrap();
    assert!(
        change > 0.0 && change < total,
        "change {change}, total {total}"
    );
    // A bound on the change, not on the total: at the total it fails, at the change it holds.
    step.facts_since[0].min = Some(total);
    let fails = failures(
        "two-list",
        &names(&scn),
        &figures.since,
        1,
        &step,
        &step.facts_since,
    );
    assert_eq!(fails.len(), names(&scn).len(), "{fails:?}");
    assert!(fails[0].contains("since 0.5 s"), "{fails:?}");
    step.facts_since[0].min = Some(change);
    assert!(failures(
        "two-list",
        &names(&scn),
        &figures.since,
        1,
        &step,
        &step.facts_since
    )
    .is_empty());
}

/// The engine's counters a caption names (a word that is a /proc/vmstat name the engine
/// reports), as the page finds them (web/src/lib/lesson.ts `countersNamed`).
fn counters_named(caption: &str) -> Vec<&'static str> {
    use reclaim_core::mm::vmstat::COUNTER_NAMES;
    let words: Vec<&str> = caption
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    COUNTER_NAMES
        .iter()
        .copied()
        .filter(|n| words.contains(n))
        .collect()
}

/// get_scan_count's branches a caption names.
fn branches_named(caption: &str) -> Vec<&'static str> {
    reclaim_core::scenario::expect::LIVE_BALANCES
        .iter()
        .copied()
        .filter(|b| caption.contains(b))
        .collect()
}

/// What is wrong with one step's claims about the view it shows: a counter or a balance branch
/// it names with no fact about it (the page shows every counter a caption names on the stage,
/// so each must be checked), a step on the balance view with no fact on the branch that view
/// shows (`balance.last.*`), a word that looks like a counter the engine does not report
/// (nobody could see it), or a step that points at a view and does not pause (its caption must
/// be read).
fn unchecked_claims(file: &str, i: usize, step: &LessonStep) -> Vec<String> {
    let stated: Vec<&str> = step
        .facts
        .iter()
        .chain(&step.facts_since)
        .map(|c| c.metric.as_str())
        .collect();
    let states = |term: &str| {
        stated
            .iter()
            .any(|m| m.split(" + ").any(|t| t.trim() == term))
    };
    let at = format!("{file} lesson step {} (at {} s)", i + 1, step.at.secs_f64());
    let mut out = Vec::new();
    for c in counters_named(&step.caption) {
        if !states(c) {
            out.push(format!("{at} names {c} and states no fact about it"));
        }
    }
    for b in branches_named(&step.caption) {
        if !states(&format!("balance.last.{b}")) && !states(&format!("balance.{b}")) {
            out.push(format!("{at} names {b} and states no fact about it"));
        }
    }
    let shows_balance = step.highlight == Some(reclaim_core::scenario::lesson::View::Balance);
    if shows_balance && !stated.iter().any(|m| m.contains("balance.last.")) {
        out.push(format!(
            "{at} points at the balance view and states no fact on the branch it shows (balance.last.*)"
        ));
    }
    let known = reclaim_core::mm::vmstat::COUNTER_NAMES;
    // Words, each with whether a '(' follows it (a kernel function, not a counter).
    let text = &step.caption;
    let words = text
        .match_indices(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .scan(0, |start, (i, sep)| {
            let w = (&text[*start..i], sep == "(");
            *start = i + sep.len();
            Some(w)
        });
    for (w, call) in words {
        if call {
            continue;
        }
        let counter_like = ["pg", "pswp", "workingset_", "allocstall", "oom_", "thp_"]
            .iter()
            .any(|p| w.starts_with(p))
            && w.contains('_');
        if counter_like && !known.contains(&w) {
            out.push(format!("{at} names {w}, which the engine does not report"));
        }
    }
    if step.highlight.is_some() && !step.pause {
        out.push(format!("{at} points at a view and does not pause"));
    }
    out
}

#[test]
fn every_caption_states_what_it_names_and_pauses_to_be_read() {
    let mut bad = Vec::new();
    for (file, scn) in lessons() {
        for (i, step) in scn.lesson.iter().enumerate() {
            bad.extend(unchecked_claims(&file, i, step));
        }
    }
    assert!(
        bad.is_empty(),
        "captions with unchecked claims:\n{}",
        bad.join("\n")
    );
}

#[test]
fn an_unchecked_claim_is_caught() {
    let scn = common::load("s000-thrash.toml");
    let mut step = scn.lesson[4].clone();
    step.caption =
        "get_scan_count picks SCAN_FRACT; watch workingset_activate_file and pgfoo_bar climb."
            .into();
    step.facts = vec![fact(
        serde_json::json!({"metric": "balance.SCAN_FRACT", "above": 0.0}),
    )];
    step.pause = false;
    step.caption += " SCAN_ANON is not stated.";
    let bad = unchecked_claims("s000", 4, &step);
    assert_eq!(bad.len(), 5, "{bad:#?}");
    assert!(bad[0].contains("workingset_activate_file"), "{bad:?}");
    assert!(bad[1].contains("SCAN_ANON"), "{bad:?}");
    assert!(bad[2].contains("balance.last.*"), "{bad:?}");
    assert!(bad[3].contains("pgfoo_bar"), "{bad:?}");
    assert!(bad[4].contains("does not pause"), "{bad:?}");
}

#[test]
fn the_branch_the_balance_view_shows_is_a_fact() {
    // S000 at 10.5 s, as the caption was first written: "5.3 falls through to SCAN_FRACT" while
    // the balance view showed SCAN_FILE. The claim on the shown branch must fail for one of them.
    let (step, figures, variants) = one_step(
        "s000-thrash.toml",
        10_500_000_000,
        vec![
            fact(serde_json::json!({"metric": "balance.last.SCAN_FRACT", "min": 1.0})),
            fact(
                serde_json::json!({"metric": "balance.last.SCAN_FRACT + balance.last.SCAN_FILE + balance.last.SCAN_ANON + balance.last.SCAN_EQUAL", "min": 1.0, "max": 1.0}),
            ),
        ],
    );
    let bad = failures("s000", &variants, &figures, 4, &step, &step.facts);
    // Exactly one branch is shown, in each variant; it is not SCAN_FRACT in at least one.
    assert!(
        !bad.is_empty() && bad.iter().all(|b| b.contains("balance.last.SCAN_FRACT")),
        "{bad:#?}"
    );
}

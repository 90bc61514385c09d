//! Lesson steps: captions a scenario shows at given virtual times, for teaching.
//!
//! ```toml
//! [[lesson]]
//! at = "2s"                 # virtual time the caption appears
//! caption = "Watch the inactive file list shrink."
//! pause = true              # optional: the page pauses here
//! highlight = "lru"         # optional: the view to point at
//! facts = [{ metric = "list.inactive_file", above = 0.0 }]   # what the caption claims
//! since = "1s"              # optional, with facts_since: changes from `since` to `at`
//! facts_since = [{ metric = "pgscan_file", above = 0.0 }]
//! ```
//!
//! The engine never reads lessons; they travel with the scenario to the page, which shows each
//! caption (as plain text, in which it marks the glossary's kernel terms: web/src/lib/glossary.ts)
//! from its time until the next step's. Checks here keep a lesson
//! usable: steps in time order, inside the run, with a caption short enough to read.
use serde::{Deserialize, Serialize};

use super::units::Duration;

/// Longest caption, in characters: about four sentences, what fits under a view.
pub const MAX_CAPTION_CHARS: usize = 500;
/// Most steps in one lesson.
pub const MAX_STEPS: usize = 100;

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LessonStep {
    /// Virtual time at which the caption appears.
    pub at: Duration,
    /// Plain text (never markup), shown until the next step.
    pub caption: String,
    /// Pause the run when it reaches `at`.
    #[serde(default)]
    pub pause: bool,
    /// The view the caption talks about.
    #[serde(default)]
    pub highlight: Option<View>,
    /// The step compares the variants: the page asks to tick Compare only when it is not.
    #[serde(default)]
    pub compare: bool,
    /// What the caption claims, checkable at the step's time (scenario/expect.rs; every variant
    /// unless `variant` names one): tests/lesson_facts.rs runs the engine to `at` and checks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<super::expect::Check>,
    /// An earlier time of the run for `facts_since`: a caption about what happened since then
    /// ("since the measured run began, 5.7 hardly scans anon") is checked on each figure's change
    /// from `since` to `at`, the rise of the chart's cumulative curve over that stretch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<Duration>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts_since: Vec<super::expect::Check>,
}

/// The views of the page (web/src/components) a step can point at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[ts(rename = "LessonView")]
pub enum View {
    /// The four LRU lists (LruView).
    Lru,
    /// The anon/file scan balance of get_scan_count (BalanceView).
    Balance,
    /// Counters and free memory over time (Charts).
    Charts,
    /// The side-by-side table of compare mode (DiffTable).
    Diff,
    /// The before/after results of full runs (ResultsPanel).
    Results,
}

impl View {
    pub const ALL: [View; 5] = [
        View::Lru,
        View::Balance,
        View::Charts,
        View::Diff,
        View::Results,
    ];
    pub fn name(self) -> &'static str {
        match self {
            View::Lru => "lru",
            View::Balance => "balance",
            View::Charts => "charts",
            View::Diff => "diff",
            View::Results => "results",
        }
    }
}

/// What is wrong with a lesson: the dotted path of the field (`lesson[2].at`) and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonProblem {
    pub path: String,
    pub message: String,
}

/// Checks the steps against each other and against the run's length.
pub fn check(steps: &[LessonStep], run_duration: Duration) -> Result<(), LessonProblem> {
    let problem = |path: String, message: String| Err(LessonProblem { path, message });
    if steps.len() > MAX_STEPS {
        return problem(
            format!("lesson[{MAX_STEPS}]"),
            format!(
                "a lesson has at most {MAX_STEPS} steps, this one has {}",
                steps.len()
            ),
        );
    }
    for (i, step) in steps.iter().enumerate() {
        let caption = step.caption.trim();
        if caption.is_empty() {
            return problem(
                format!("lesson[{i}].caption"),
                "the caption must not be empty".into(),
            );
        }
        let chars = caption.chars().count();
        if chars > MAX_CAPTION_CHARS {
            return problem(
                format!("lesson[{i}].caption"),
                format!("the caption is {chars} characters long; at most {MAX_CAPTION_CHARS} fit on screen, split it into two steps"),
            );
        }
        if step.at >= run_duration {
            return problem(
                format!("lesson[{i}].at"),
                format!(
                    "at = {} is not inside the run, which lasts {}; a step must come before run.duration",
                    secs(step.at),
                    secs(run_duration)
                ),
            );
        }
        match (step.since, step.facts_since.is_empty()) {
            (Some(since), false) if since >= step.at => {
                return problem(
                    format!("lesson[{i}].since"),
                    format!(
                        "since = {} must come before the step's at = {}",
                        secs(since),
                        secs(step.at)
                    ),
                )
            }
            (Some(_), true) => {
                return problem(
                    format!("lesson[{i}].since"),
                    "since is the start of facts_since, and this step has none".into(),
                )
            }
            (None, false) => {
                return problem(
                    format!("lesson[{i}].facts_since"),
                    "facts_since are changes since an earlier time: give it as since = \"...\""
                        .into(),
                )
            }
            _ => {}
        }
        for (j, c) in step.facts_since.iter().enumerate() {
            let path = format!("lesson[{i}].facts_since[{j}].metric");
            if let Err(m) = super::expect::terms(&c.metric) {
                return problem(path, m);
            }
            if [c.min, c.max, c.above, c.below].iter().all(Option::is_none) {
                return problem(
                    path,
                    "a fact needs a bound: min, max, above or below".into(),
                );
            }
        }
        if let Some(prev) = i.checked_sub(1).map(|p| &steps[p]) {
            if step.at <= prev.at {
                return problem(
                    format!("lesson[{i}].at"),
                    format!(
                        "steps must be in time order: step {} is at {}, not after step {} at {}",
                        i + 1,
                        secs(step.at),
                        i,
                        secs(prev.at)
                    ),
                );
            }
        }
    }
    Ok(())
}

/// A duration as people write it in the file: "2.5s".
fn secs(d: Duration) -> String {
    format!("{}s", d.secs_f64())
}

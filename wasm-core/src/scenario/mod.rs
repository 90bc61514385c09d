//! Scenario files: schema, units, parsing and validation.
pub mod budget;
pub mod expect;
pub mod knobs;
pub mod lesson;
pub mod ops;
pub mod overrides;
pub mod parse;
pub mod progress;
pub mod schema;
pub mod trace;
pub mod units;

pub use budget::Budget;
pub use lesson::{LessonStep, View};
pub use parse::{parse, parse_with_budget, ScenarioError};
pub use schema::*;
pub use units::{Duration, Size};

/// The variant to run: the one named, or the scenario's first.
pub fn pick_variant(scenario: &Scenario, name: Option<&str>) -> Result<String, String> {
    let names: Vec<&str> = scenario.variants.iter().map(|v| v.name.as_str()).collect();
    match name {
        None => names
            .first()
            .map(|n| n.to_string())
            .ok_or_else(|| "the scenario has no variants".to_string()),
        Some(n) if names.contains(&n) => Ok(n.to_string()),
        Some(n) => Err(format!(
            "the scenario has no variant {n:?}; its variants: {}",
            names.join(", ")
        )),
    }
}

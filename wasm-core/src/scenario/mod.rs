//! Scenario files: schema, units, parsing and validation.
pub mod budget;
pub mod expect;
pub mod knobs;
pub mod lesson;
pub mod ops;
pub mod overrides;
pub mod parse;
pub mod schema;
pub mod units;

pub use budget::Budget;
pub use lesson::{LessonStep, View};
pub use parse::{parse, parse_with_budget, ScenarioError};
pub use schema::*;
pub use units::{Duration, Size};

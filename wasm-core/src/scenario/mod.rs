//! Scenario files: schema, units, parsing and validation.
pub mod schema;
pub mod units;

pub use schema::*;
pub use units::{Duration, Size};

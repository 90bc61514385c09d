//! Structure-aware mutations of the seed scenarios (`fuzzing::SEEDS`), then a bounded run with
//! the invariants checked (see src/fuzzing.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| reclaim_core::fuzzing::mutate_and_run(
    reclaim_core::fuzzing::SEEDS,
    data
));

//! Any bytes as scenario text through the parser and validator (see src/fuzzing.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| reclaim_core::fuzzing::parse_and_validate(data));

//! Any bytes as an access trace, oracleGeneral and CSV, through the reader and the curves'
//! reference policies (see src/fuzzing.rs).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| reclaim_core::fuzzing::read_trace(data));

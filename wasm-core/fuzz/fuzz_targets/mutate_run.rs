//! Structure-aware mutations of the seed scenarios, then a bounded run with the invariants
//! checked (see src/fuzzing.rs). Seeds: the small shipped scenarios and the hostile ones that run.
#![no_main]
use libfuzzer_sys::fuzz_target;

const SEEDS: &[&str] = &[
    include_str!("../../../scenarios/lesson-two-list-lru.toml"),
    include_str!("../../../scenarios/lesson-refault-distance.toml"),
    include_str!("../../../scenarios/lesson-swappiness.toml"),
    include_str!("../../../scenarios/s001b-worst-case.toml"),
    include_str!("../../tests/hostile/cpu-max.toml"),
    include_str!("../../tests/hostile/latency-max.toml"),
    include_str!("../../tests/hostile/rate-loop-max.toml"),
    include_str!("../../tests/hostile/young-fault-max.toml"),
];

fuzz_target!(|data: &[u8]| reclaim_core::fuzzing::mutate_and_run(SEEDS, data));

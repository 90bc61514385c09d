//! Fuzz targets, shared by the cargo-fuzz harness (`fuzz/`, nightly) and the stable smoke test
//! (`tests/fuzz_smoke.rs`), so that both exercise the same code.
//!
//! - [`parse_and_validate`]: any bytes as scenario text. The parser must never panic, and an
//!   accepted scenario must fit the resource budget (checked again here, independently).
//! - [`mutate_and_run`]: structure-aware: the bytes choose a seed scenario and a few mutations
//!   of its TOML lines (extreme values in place of a value, a duplicated table, replicas, a
//!   deleted line); what still validates is built and run for a bounded number of events with
//!   the engine's invariants checked along the way (after every event on a small machine, see
//!   [`CHECK_WORK`]) and at the end. Nothing may panic.
//! - [`read_trace`]: any bytes as an access trace in each format (`scenario/trace.rs`): the
//!   reader never panics, a refusal names its record or line, and the curves' reference
//!   policies over what it accepts stay within their bounds.
use crate::scenario::{budget, parse, Scenario};
use crate::Simulation;

/// The seeds [`mutate_and_run`] mutates, for the cargo-fuzz target and the stable smoke test
/// alike (a corpus input's first byte picks one, so both must see the same list): the small
/// shipped scenarios and the hostile reproducers that run. Native only.
#[cfg(not(target_arch = "wasm32"))]
pub const SEEDS: &[&str] = &[
    include_str!("../../scenarios/lesson-two-list-lru.toml"),
    include_str!("../../scenarios/lesson-refault-distance.toml"),
    include_str!("../../scenarios/lesson-swappiness.toml"),
    include_str!("../../scenarios/s001b-worst-case.toml"),
    include_str!("../tests/hostile/cpu-max.toml"),
    include_str!("../tests/hostile/latency-max.toml"),
    include_str!("../tests/hostile/rate-loop-max.toml"),
    include_str!("../tests/hostile/young-fault-max.toml"),
];

/// Events a mutated scenario runs for at most.
pub const RUN_EVENTS: u64 = 20_000;

/// Invariant checking one mutated run may do, in frames, address-space pages and memcgs walked.
/// One check walks all of them (`Mm::check_invariants` is linear in the machine's size), and in
/// the cargo-fuzz build every comparison it makes calls libFuzzer's trace hook: checked after
/// every one of [`RUN_EVENTS`] events, the unmutated two-list lesson (16k frames, 32k pages)
/// took 20 s, libFuzzer's timeout, 85% of it in the checker. So the checks are spaced to stay
/// within this work: a machine of a few hundred units (2 x `CHECK_WORK / RUN_EVENTS`) is checked after
/// every event, the 64 MiB seeds every 100 to 250 events, 1 GiB of RAM every 1,300, and every
/// run at its end. Corruption that lasts (a frame on two lists, a count off) is found at the
/// next check; the engine's own tests check after every event.
pub const CHECK_WORK: u64 = 1 << 22;

/// How many events apart the invariants of `sim` are checked (see [`CHECK_WORK`]).
pub fn check_stride(sim: &Simulation) -> u64 {
    let mm = &sim.mm;
    let pages: u64 = mm.spaces.iter().map(|s| s.len()).sum();
    let size = mm.frames.len() as u64 + pages + mm.memcgs.len() as u64;
    (RUN_EVENTS.saturating_mul(size) / CHECK_WORK).max(1)
}

/// Values that have broken engines before: zero, one, the ends of u32 and u64, huge and tiny
/// durations and sizes, negative and non-finite numbers, names with `{i}`.
pub const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "65536",
    "4294967295",
    "18446744073709551615",
    "1e308",
    "nan",
    "\"0B\"",
    "\"1ns\"",
    "\"5000000h\"",
    "\"300000h\"",
    "\"64TiB\"",
    "\"4TiB\"",
    "\"1GiB\"",
    "\"\"",
    "\"{i}\"",
    "\"/\"",
    "true",
    "[]",
    "{}",
];

/// Any bytes as scenario text: no panic; an accepted scenario fits the budget.
pub fn parse_and_validate(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(scn) = parse(text) {
        assert_fits_budget(&scn);
    }
}

/// Any bytes as an oracleGeneral and as a CSV trace: no panic; a refusal names the record (the
/// CSV line); an accepted trace reads the same twice (rewind), and at half its footprint
/// OPT <= LRU <= requests and OPT >= the objects (each misses once at least).
pub fn read_trace(data: &[u8]) {
    use crate::mrc;
    use crate::scenario::trace::{TraceFormat, TraceReader};
    let bytes = std::sync::Arc::new(data.to_vec());
    for format in [TraceFormat::OracleGeneral, TraceFormat::Csv] {
        let named = |e: &str| assert!(e.contains("record ") || e.contains("line "), "{e}");
        let mut r = match TraceReader::new("fuzz", bytes.clone(), format) {
            Ok(r) => r,
            Err(e) => {
                named(&e);
                continue;
            }
        };
        let found = match mrc::footprint(&mut r) {
            Ok(f) => f,
            Err(e) => {
                named(&e);
                continue;
            }
        };
        let again = mrc::footprint(&mut r).expect("read once, read again");
        assert_eq!((again.requests, again.pages.len()), (found.requests, found.pages.len()));
        let objects = found.pages.len() as u64;
        let size = (objects / 2).max(1);
        let lru = mrc::lru_misses(&mut r, &found.pages, size).unwrap();
        let next = crate::reference::next_requests(&mut r, &found.pages).unwrap();
        let opt = mrc::opt_misses(&mut r, &found.pages, size, Some(&next)).unwrap();
        assert!(objects <= opt && opt <= lru && lru <= found.requests, "{objects} {opt} {lru} {}", found.requests);
    }
}

/// Mutate one of `seeds` as the bytes say, then validate, build and run it, bounded.
pub fn mutate_and_run(seeds: &[&str], data: &[u8]) {
    if seeds.is_empty() || data.is_empty() {
        return;
    }
    let text = mutate(seeds[data[0] as usize % seeds.len()], &data[1..]);
    let Ok(scn) = parse(&text) else {
        return;
    };
    assert_fits_budget(&scn);
    for v in &scn.variants {
        let Ok(mut sim) = Simulation::new(&scn, &v.name) else {
            continue;
        };
        // RUN_EVENTS events in slices of `stride` (each ends between two instants, so the run
        // is the same as in one go), the invariants checked after each slice.
        let stride = check_stride(&sim);
        for slice in 0..RUN_EVENTS.div_ceil(stride) {
            if sim.finished() {
                break;
            }
            sim.run_events(u64::MAX, stride);
            if let Err(e) = sim.invariants() {
                panic!(
                    "invariants violated in {} in slice {slice} of {stride} events (set \
                     Simulation::check_invariants to stop at the event): {e}\n{text}",
                    v.name
                );
            }
        }
        if let Err(e) = sim.invariants() {
            panic!(
                "invariants violated at the end of a bounded run of {}: {e}\n{text}",
                v.name
            );
        }
        let report = sim.report();
        serde_json::to_string(&report).expect("a report serializes");
    }
}

/// The seed text with mutations chosen by `data`, two bytes each.
pub fn mutate(seed: &str, data: &[u8]) -> String {
    let mut lines: Vec<String> = seed.lines().map(str::to_string).collect();
    for pair in data.chunks(2).take(8) {
        if lines.is_empty() {
            break;
        }
        let (what, at) = (pair[0], *pair.get(1).unwrap_or(&0) as usize);
        let i = (at * 7 + what as usize) % lines.len();
        match what % 5 {
            // A value replaced by an extreme: `key = value` lines and inline `key = value` pairs.
            0 | 1 => {
                let value = EXTREMES[(what as usize / 5) % EXTREMES.len()];
                lines[i] = replace_value(&lines[i], at, value);
            }
            // A table header's block duplicated (a second task, memcg, device...).
            2 => {
                if let Some(start) = lines[..=i].iter().rposition(|l| l.starts_with("[[")) {
                    let end = lines[start + 1..]
                        .iter()
                        .position(|l| l.starts_with('['))
                        .map_or(lines.len(), |k| start + 1 + k);
                    let block: Vec<String> = lines[start..end].to_vec();
                    lines.splice(end..end, block);
                }
            }
            // replicas on a table (the engine substitutes `{i}`).
            3 => {
                if let Some(start) = lines[..=i].iter().rposition(|l| l.starts_with("[[")) {
                    let n = [2u64, 16, 4097, 65536, u32::MAX as u64][at % 5];
                    lines.insert(start + 1, format!("replicas = {n}"));
                }
            }
            _ => {
                lines.remove(i);
            }
        }
    }
    lines.join("\n")
}

/// `key = value` -> `key = extreme` for the `which`-th ` = ` of the line.
fn replace_value(line: &str, which: usize, value: &str) -> String {
    let eqs: Vec<usize> = line.match_indices(" = ").map(|(k, _)| k).collect();
    let Some(&eq) = eqs.get(which % eqs.len().max(1)) else {
        return line.to_string();
    };
    let start = eq + 3;
    let rest = &line[start..];
    // The value ends at the next top-level ',' or '}' of an inline table, or the line's end.
    let mut depth = 0i32;
    let mut in_str = false;
    let mut end = rest.len();
    for (k, c) in rest.char_indices() {
        match c {
            '"' => in_str = !in_str,
            '[' | '{' if !in_str => depth += 1,
            ']' | '}' if !in_str && depth > 0 => depth -= 1,
            ',' | '}' if !in_str && depth == 0 => {
                end = k;
                break;
            }
            '#' if !in_str => {
                end = k;
                break;
            }
            _ => {}
        }
    }
    format!("{}{}{}", &line[..start], value, &rest[end..])
}

/// The budget, counted again from the parsed scenario (not from the checker's own sums).
fn assert_fits_budget(scn: &Scenario) {
    let b = budget::Budget::DEFAULT;
    let frame = 4096 * u64::from(scn.machine.frame_scale.max(1));
    assert!(
        scn.machine.ram.bytes() / frame <= b.frames,
        "frames over budget"
    );
    let memcgs: u64 = scn
        .memcgs
        .iter()
        .map(|m| u64::from(m.replicas.unwrap_or(1)))
        .sum();
    assert!(memcgs <= b.memcgs, "memcgs over budget: {memcgs}");
    let tasks: u64 = scn
        .tasks
        .iter()
        .map(|t| u64::from(t.replicas.unwrap_or(1)) * u64::from(t.clients))
        .sum();
    assert!(tasks <= b.tasks, "tasks over budget: {tasks}");
    let samples = scn.run.duration.ns() / scn.run.sample_interval.ns().max(1);
    assert!(samples <= b.samples, "samples over budget: {samples}");
}

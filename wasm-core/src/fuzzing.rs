//! Fuzz targets, shared by the cargo-fuzz harness (`fuzz/`, nightly) and the stable smoke test
//! (`tests/fuzz_smoke.rs`), so that both exercise the same code.
//!
//! - [`parse_and_validate`]: any bytes as scenario text. The parser must never panic, and an
//!   accepted scenario must fit the resource budget (checked again here, independently).
//! - [`mutate_and_run`]: structure-aware: the bytes choose a seed scenario and a few mutations
//!   of its TOML lines (extreme values in place of a value, a duplicated table, replicas, a
//!   deleted line); what still validates is built and run for a bounded number of events with
//!   the engine's invariants checked after every event. Nothing may panic.
use crate::scenario::{budget, parse, Scenario};
use crate::Simulation;

/// Events a mutated scenario runs for at most (invariants are checked after each).
pub const RUN_EVENTS: u64 = 20_000;

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
        sim.check_invariants = true;
        sim.run_events(u64::MAX, RUN_EVENTS);
        if let Err(e) = sim.invariants() {
            panic!(
                "invariants violated after a bounded run of {}: {e}\n{text}",
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

//! The fuzz targets (`src/fuzzing.rs`) on stable Rust, briefly: the committed corpus, every
//! shipped scenario and the hostile reproducers through the parser, then deterministic random
//! bytes through the parser and through structure-aware mutation + a bounded run with the
//! invariants checked. The long campaign is `npm run fuzz` (cargo-fuzz, nightly).
use reclaim_core::fuzzing::{
    check_stride, mutate_and_run, parse_and_validate, read_trace, CHECK_WORK, RUN_EVENTS, SEEDS,
};
use reclaim_core::rng::Rng;
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

fn texts(dir: &str) -> Vec<String> {
    let dir = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect()
}

/// Seeds small enough to run many times a second: the lessons, the small seed scenarios and
/// the hostile reproducers that run.
fn seeds() -> Vec<String> {
    let mut out: Vec<String> = texts("../scenarios")
        .into_iter()
        .filter(|t| t.contains("ram = \"64MiB\""))
        .collect();
    out.extend(
        texts("tests/hostile")
            .into_iter()
            .filter(|t| t.contains("# expect: run")),
    );
    out
}

fn bytes(rng: &mut Rng, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

#[test]
fn corpus_and_scenarios_through_the_parser() {
    let mut n = 0;
    for dir in ["fuzz/corpus/parse", "tests/hostile", "../scenarios"] {
        for t in texts(dir) {
            parse_and_validate(t.as_bytes());
            n += 1;
        }
    }
    assert!(n > 30, "{n}");
}

#[test]
fn random_mutations_parse_and_run_bounded() {
    let seeds = seeds();
    assert!(seeds.len() >= 4, "{}", seeds.len());
    let seeds: Vec<&str> = seeds.iter().map(String::as_str).collect();
    let mut rng = Rng::new(25);
    let started = std::time::Instant::now();
    let (mut parsed, mut ran) = (0u64, 0u64);
    // Byte flips of seed texts through the parser alone: cheap, many.
    while parsed < 3000 && started.elapsed().as_secs() < 10 {
        let seed = seeds[(rng.next_u64() % seeds.len() as u64) as usize].as_bytes();
        let mut t = seed.to_vec();
        for _ in 0..1 + rng.next_u64() % 4 {
            let i = (rng.next_u64() % t.len() as u64) as usize;
            t[i] = rng.next_u64() as u8;
        }
        parse_and_validate(&t);
        parsed += 1;
    }
    // Structure-aware mutations with a bounded run.
    // (2,000 take a few seconds since the invariant checks are spaced: see CHECK_WORK.)
    while ran < 2000 && started.elapsed().as_secs() < 30 {
        let len = 1 + (rng.next_u64() % 12) as usize;
        let data = bytes(&mut rng, len);
        mutate_and_run(&seeds, &data);
        ran += 1;
    }
    println!("fuzz smoke: {parsed} parser inputs, {ran} mutated runs");
    assert!(parsed > 100 && ran >= 200, "{parsed} {ran}");
}

/// The committed corpus of the cargo-fuzz `mutate_run` target (its findings once fixed among
/// them) through the same code and seeds as the target.
#[test]
fn mutate_run_corpus_runs() {
    let dir = format!("{}/fuzz/corpus/mutate_run", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        mutate_and_run(SEEDS, &std::fs::read(e.unwrap().path()).unwrap());
        n += 1;
    }
    assert!(n >= 5, "{n} inputs in {dir}");
}

/// What one mutated run spends on invariant checks is bounded by CHECK_WORK whatever the size
/// of the machine (a check after every event cost 20 s per input in the fuzz build), while the
/// 64 MiB seeds are still checked at least 64 times a run.
#[test]
fn invariant_checks_are_bounded_per_run() {
    let mut checked = 0;
    for seed in SEEDS {
        // The seed, and the seed with its RAM grown to 1 GiB (a mutation can do that).
        for (text, big) in [
            (seed.to_string(), false),
            (seed.replacen("ram = \"64MiB\"", "ram = \"1GiB\"", 1), true),
        ] {
            let Ok(scn) = parse(&text) else { continue };
            for v in &scn.variants {
                let sim = Simulation::new(&scn, &v.name).unwrap();
                let stride = check_stride(&sim);
                // Each check walks at least every frame.
                let frames = sim.frame_spaces().len() as u64;
                assert!(
                    RUN_EVENTS.div_ceil(stride) * frames <= CHECK_WORK + frames,
                    "{}: stride {stride} for {frames} frames",
                    v.name
                );
                if !big && frames <= 16_384 {
                    let checks = RUN_EVENTS / stride;
                    assert!(checks >= 64, "{}: {checks} checks a run", v.name);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 2 * SEEDS.len(), "{checked}");
}

#[test]
fn traces_of_random_and_cut_bytes_read_or_name_their_record() {
    let mut rng = Rng::new(47);
    let mut n = 0;
    // Random bytes (mostly refused), whole oracleGeneral records with random fields, and CSV
    // lines of random small ids with a damaged line among them.
    for len in [0usize, 1, 23, 24, 25, 48, 240, 2400] {
        for _ in 0..8 {
            read_trace(&bytes(&mut rng, len));
            n += 1;
        }
    }
    for k in 1..40u64 {
        let mut rec = Vec::new();
        for i in 0..k {
            rec.extend_from_slice(&(i as u32).to_le_bytes());
            rec.extend_from_slice(&(rng.next_u64() % 7).to_le_bytes());
            rec.extend_from_slice(&((rng.next_u64() % 3) as u32).to_le_bytes());
            rec.extend_from_slice(&[-1i64, 0, 5, -2][(rng.next_u64() % 4) as usize].to_le_bytes());
        }
        read_trace(&rec);
        let mut csv: String = (0..k).map(|i| format!("{i},{},4096\n", rng.next_u64() % 9)).collect();
        read_trace(csv.as_bytes());
        csv.insert_str(csv.len() / 2, "x,,\n");
        read_trace(csv.as_bytes());
        n += 3;
    }
    assert!(n > 100, "{n}");
}

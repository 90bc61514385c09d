//! The fuzz targets (`src/fuzzing.rs`) on stable Rust, briefly: the committed corpus, every
//! shipped scenario and the hostile reproducers through the parser, then deterministic random
//! bytes through the parser and through structure-aware mutation + a bounded run with the
//! invariants checked. The long campaign is `npm run fuzz` (cargo-fuzz, nightly).
use reclaim_core::fuzzing::{mutate_and_run, parse_and_validate};
use reclaim_core::rng::Rng;

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
    while ran < 400 && started.elapsed().as_secs() < 30 {
        let len = 1 + (rng.next_u64() % 12) as usize;
        let data = bytes(&mut rng, len);
        mutate_and_run(&seeds, &data);
        ran += 1;
    }
    println!("fuzz smoke: {parsed} parser inputs, {ran} mutated runs");
    assert!(parsed > 100 && ran > 20, "{parsed} {ran}");
}

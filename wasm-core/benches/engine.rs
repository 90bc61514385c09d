//! Engine benchmarks (`cargo bench`, or `npm run bench` for the table in BENCHMARKS.md):
//! page accesses per second on the hit path, pages scanned per second under reclaim, and the
//! full-scale S000 (both variants), the dirty-heavy S002 (both variants), S003 scaled down to
//! 16 memcgs (both variants) and the original-size S003 (128 memcgs; one run, it takes tens of
//! seconds). Prints one JSON object per line; medians of several runs: `wall_s` the wall
//! clock (and `per_s` per wall second), `cpu_s` the thread's CPU time, which `bench-compare`
//! compares: on a loaded machine a run's wall clock is mostly waiting for a core.
use std::time::Instant;

use reclaim_core::sweep::run::thread_cpu_time;

use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

const RUNS: usize = 5;

fn load(path: &str) -> reclaim_core::scenario::Scenario {
    let p = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    parse(&std::fs::read_to_string(&p).unwrap()).unwrap()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median wall and CPU seconds of one pass over all variants, and the counters of the last
/// pass summed over variants.
struct Timed {
    wall: f64,
    cpu: f64,
    c: std::collections::BTreeMap<String, u64>,
}

/// Run every variant of a scenario `RUNS` times.
fn bench(path: &str) -> Timed {
    bench_runs(path, RUNS, &[])
}

/// `bench` with the kernel presets renamed (e.g. every variant on the multi-gen LRU) and a
/// number of runs.
fn bench_runs(path: &str, runs: usize, presets: &[(&str, &str)]) -> Timed {
    run_variants(load(path), runs, presets)
}

fn run_variants(
    mut scn: reclaim_core::scenario::Scenario,
    runs: usize,
    presets: &[(&str, &str)],
) -> Timed {
    for v in scn.variants.iter_mut() {
        if let Some((_, to)) = presets.iter().find(|(from, _)| *from == v.preset) {
            v.preset = to.to_string();
        }
    }
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    let mut sum = std::collections::BTreeMap::new();
    for _ in 0..runs {
        sum.clear();
        let (t0, c0) = (Instant::now(), thread_cpu_time());
        for v in &scn.variants {
            let r = Simulation::new(&scn, &v.name).unwrap().run_to_end();
            for (k, c) in r.counters {
                *sum.entry(k).or_insert(0) += c;
            }
        }
        walls.push(t0.elapsed().as_secs_f64());
        cpus.push((thread_cpu_time() - c0).as_secs_f64());
    }
    Timed {
        wall: median(walls),
        cpu: median(cpus),
        c: sum,
    }
}

fn main() {
    // `cargo bench` passes --bench; other arguments are ignored. RECLAIM_BENCH_ONLY=a,b runs
    // only the rows named (bench:web's native side runs s000_both_variants alone).
    let only = std::env::var("RECLAIM_BENCH_ONLY").ok();
    const ROWS: [&str; 10] = [
        "hit_seq",
        "hit_random",
        "reclaim_scan",
        "s000_both_variants",
        "mglru_hit_random",
        "mglru_reclaim_scan",
        "mglru_s000_both_variants",
        "s002_both_variants",
        "s003_16_memcgs",
        "s003_original",
    ];
    for name in only.iter().flat_map(|o| o.split(',')) {
        if !ROWS.contains(&name) {
            eprintln!("RECLAIM_BENCH_ONLY: no bench row is named '{name}' (rows: {ROWS:?})");
            std::process::exit(2);
        }
    }
    let want = |name: &str| {
        only.as_deref()
            .map_or(true, |o| o.split(',').any(|x| x == name))
    };
    for (name, path) in [
        ("hit_seq", "benches/scenarios/hit-seq.toml"),
        ("hit_random", "benches/scenarios/hit-random.toml"),
    ] {
        if !want(name) {
            continue;
        }
        let Timed { wall, cpu, c } = bench(path);
        let accesses = 40_000_000u64 + c["pgfault"];
        println!(
            r#"{{"bench":"{name}","wall_s":{wall},"cpu_s":{cpu},"accesses":{accesses},"per_s":{}}}"#,
            accesses as f64 / wall
        );
    }
    if want("reclaim_scan") {
        let Timed { wall, cpu, c } = bench("benches/scenarios/reclaim-anon.toml");
        let scanned = c["pgscan_kswapd"] + c["pgscan_direct"] + c["pgrefill"];
        println!(
            r#"{{"bench":"reclaim_scan","wall_s":{wall},"cpu_s":{cpu},"scanned":{scanned},"per_s":{}}}"#,
            scanned as f64 / wall
        );
    }
    if want("s000_both_variants") {
        let Timed { wall, cpu, .. } = bench("../scenarios/s000-thrash.toml");
        println!(r#"{{"bench":"s000_both_variants","wall_s":{wall},"cpu_s":{cpu}}}"#);
    }
    // The same workloads on the multi-gen LRU (6.14 rules).
    let mglru = [("linux-6.1", "linux-6.14-mglru")];
    if want("mglru_hit_random") {
        let Timed { wall, cpu, c } = bench_runs("benches/scenarios/hit-random.toml", RUNS, &mglru);
        let accesses = 40_000_000u64 + c["pgfault"];
        println!(
            r#"{{"bench":"mglru_hit_random","wall_s":{wall},"cpu_s":{cpu},"accesses":{accesses},"per_s":{}}}"#,
            accesses as f64 / wall
        );
    }
    if want("mglru_reclaim_scan") {
        let Timed { wall, cpu, c } =
            bench_runs("benches/scenarios/reclaim-anon.toml", RUNS, &mglru);
        let scanned = c["pgscan_kswapd"] + c["pgscan_direct"] + c["pgrefill"];
        println!(
            r#"{{"bench":"mglru_reclaim_scan","wall_s":{wall},"cpu_s":{cpu},"scanned":{scanned},"per_s":{}}}"#,
            scanned as f64 / wall
        );
    }
    if want("mglru_s000_both_variants") {
        let Timed { wall, cpu, .. } = bench_runs(
            "../scenarios/s000-thrash.toml",
            RUNS,
            &[
                ("linux-5.2", "linux-6.1-mglru"),
                ("linux-5.3", "linux-6.14-mglru"),
            ],
        );
        println!(r#"{{"bench":"mglru_s000_both_variants","wall_s":{wall},"cpu_s":{cpu}}}"#);
    }
    // Dirty-heavy: S002 (streaming writers, flushers, kswapd writeback), both variants.
    if want("s002_both_variants") {
        let Timed { wall, cpu, c } = bench("../scenarios/s002-kswapd-writeback.toml");
        let written = c["pgpgout"];
        println!(
            r#"{{"bench":"s002_both_variants","wall_s":{wall},"cpu_s":{cpu},"written":{written},"per_s":{}}}"#,
            written as f64 / wall
        );
    }
    // S003 with 16 memcgs (one fio task each) instead of 128, the rest as written: the
    // smallest of `npm run bench`'s scaling rows, both variants.
    if want("s003_16_memcgs") {
        let p = format!(
            "{}/../scenarios/s003-memcg-lru.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(
            text.matches("replicas = 128").count(),
            2,
            "memcgs and tasks"
        );
        let scn = parse(&text.replace("replicas = 128", "replicas = 16")).unwrap();
        let Timed { wall, cpu, c } = run_variants(scn, RUNS, &[]);
        println!(
            r#"{{"bench":"s003_16_memcgs","wall_s":{wall},"cpu_s":{cpu},"accesses":{}}}"#,
            c["pgfault"]
        );
    }
    // Original-size S003: 128 memcgs x 1920 MB, 7200 s virtual, frame_scale 512; one run.
    if want("s003_original") {
        let Timed { wall, cpu, c } = bench_runs("../scenarios/s003-memcg-lru.toml", 1, &[]);
        println!(
            r#"{{"bench":"s003_original","wall_s":{wall},"cpu_s":{cpu},"accesses":{}}}"#,
            c["pgfault"]
        );
    }
}

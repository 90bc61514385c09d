//! The engine against two anchors on one access stream (issue #28): 10 M Zipf(0.9) touches of
//! a 4 GiB file mmapped MADV_RANDOM (`benches/scenarios/zipf-*.toml`), with 1 GiB of RAM
//! (reclaim-heavy) and 5 GiB (hit-heavy), on the classic LRU (linux-6.1) and MGLRU
//! (linux-6.1-mglru).
//!
//! - `lru_loop`: a plain Rust LRU (a doubly linked list indexed by page in two `Vec`s), no
//!   kernel model, replaying exactly the engine task's accesses: the same `Zipf` sampler and
//!   the same per-client random stream (`task_rng`), with as many pages as the engine held in
//!   its file LRU lists at the end of its run. Sampler cost is paid on both sides.
//! - libCacheSim's LRU (its Python wheel, `scripts/bench-requirements.txt`), when the
//!   environment names a Python that has it (`RECLAIM_BENCH_PYTHON`; scripts/bench creates the
//!   venv): the stream is written once as an oracleGeneral trace and
//!   `scripts/bench-libcachesim.py` times `LRU.process_trace` on it.
//!
//! Rounds are paired (engine, loop, libCacheSim, in turn); medians over the rounds. Prints one
//! JSON object per case, like `benches/engine.rs`.
use std::io::Write;
use std::process::Command;
use std::time::Instant;

use reclaim_core::rng::Zipf;
use reclaim_core::scenario::{parse, Scenario};
use reclaim_core::sim::task_rng;
use reclaim_core::Simulation;

const PAGES: u64 = 1 << 20;
const ACCESSES: u64 = 10_000_000;
const THETA: f64 = 0.9;

fn rounds() -> usize {
    std::env::var("RECLAIM_BENCH_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// The lowest and highest speed ratio engine/anchor over the paired rounds (the anchor's time
/// over the engine's in the same round), as a JSON pair: how far one round's ratio strays.
fn ratio_range(engine: &[f64], anchor: &[f64]) -> String {
    let r: Vec<f64> = engine.iter().zip(anchor).map(|(e, a)| a / e).collect();
    let lo = r.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = r.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("[{lo},{hi}]")
}

/// A fixed-capacity LRU over page numbers 0..n: `prev`/`next` links in two vectors, NIL-ended.
struct Lru {
    prev: Vec<u32>,
    next: Vec<u32>,
    resident: Vec<bool>,
    head: u32,
    tail: u32,
    len: u64,
    cap: u64,
}

const NIL: u32 = u32::MAX;

impl Lru {
    fn new(n: u64, cap: u64) -> Lru {
        Lru {
            prev: vec![NIL; n as usize],
            next: vec![NIL; n as usize],
            resident: vec![false; n as usize],
            head: NIL,
            tail: NIL,
            len: 0,
            cap: cap.max(1),
        }
    }
    fn unlink(&mut self, p: u32) {
        let (a, b) = (self.prev[p as usize], self.next[p as usize]);
        if a == NIL {
            self.head = b
        } else {
            self.next[a as usize] = b
        }
        if b == NIL {
            self.tail = a
        } else {
            self.prev[b as usize] = a
        }
    }
    fn push_front(&mut self, p: u32) {
        self.prev[p as usize] = NIL;
        self.next[p as usize] = self.head;
        if self.head == NIL {
            self.tail = p
        } else {
            self.prev[self.head as usize] = p
        }
        self.head = p;
    }
    /// Touch page `p`; true on a hit.
    #[inline]
    fn access(&mut self, p: u32) -> bool {
        if self.resident[p as usize] {
            if self.head != p {
                self.unlink(p);
                self.push_front(p);
            }
            return true;
        }
        if self.len == self.cap {
            let victim = self.tail;
            self.unlink(victim);
            self.resident[victim as usize] = false;
        } else {
            self.len += 1;
        }
        self.resident[p as usize] = true;
        self.push_front(p);
        false
    }
}

/// The engine task's stream: task 0, client 0 of the scenario's seed, as the engine draws it.
fn stream(seed: u64) -> (Zipf, reclaim_core::rng::Rng) {
    (Zipf::new(PAGES, THETA), task_rng(seed, 0, 0))
}

/// One pass of the plain LRU loop: (wall seconds, misses).
fn lru_loop(seed: u64, cap: u64) -> (f64, u64) {
    let t0 = Instant::now();
    let (z, mut rng) = stream(seed);
    let mut lru = Lru::new(PAGES, cap);
    let mut misses = 0;
    for _ in 0..ACCESSES {
        misses += !lru.access(z.sample(&mut rng) as u32) as u64;
    }
    (t0.elapsed().as_secs_f64(), std::hint::black_box(misses))
}

/// The stream as an oracleGeneral trace (libCacheSim's binary format: per request u32 time,
/// u64 object id, u32 size, i64 next access (unused by LRU), little-endian).
fn write_trace(seed: u64, path: &std::path::Path) {
    let (z, mut rng) = stream(seed);
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..ACCESSES {
        let mut rec = [0u8; 24];
        rec[0..4].copy_from_slice(&((i / 1000) as u32).to_le_bytes());
        rec[4..12].copy_from_slice(&z.sample(&mut rng).to_le_bytes());
        rec[12..16].copy_from_slice(&4096u32.to_le_bytes());
        rec[16..24].copy_from_slice(&(-1i64).to_le_bytes());
        out.write_all(&rec).unwrap();
    }
    out.flush().unwrap();
}

/// One timed libCacheSim LRU pass over the trace: (wall seconds of process_trace, miss ratio).
fn libcachesim(python: &str, trace: &std::path::Path, cap: u64) -> Result<(f64, f64), String> {
    let script = format!(
        "{}/../scripts/bench-libcachesim.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = Command::new(python)
        .arg(script)
        .arg(trace)
        .arg((cap * 4096).to_string())
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let s = String::from_utf8_lossy(&out.stdout);
    let mut it = s.split_whitespace().map(|x| x.parse::<f64>());
    match (it.next(), it.next()) {
        (Some(Ok(w)), Some(Ok(m))) => Ok((w, m)),
        _ => Err(format!("unexpected output {s:?}")),
    }
}

fn load(path: &str, preset: &str) -> Scenario {
    let p = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let mut scn = parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
    scn.variants[0].preset = preset.to_string();
    scn
}

fn main() {
    let python = std::env::var("RECLAIM_BENCH_PYTHON").ok();
    let trace = std::env::temp_dir().join(format!(
        "reclaim-anchor-{}.oracleGeneral",
        std::process::id()
    ));
    let mut trace_seed = None;
    for (case, path) in [
        ("reclaim", "benches/scenarios/zipf-reclaim.toml"),
        ("hit", "benches/scenarios/zipf-hit.toml"),
    ] {
        for (lru, preset) in [("classic", "linux-6.1"), ("mglru", "linux-6.1-mglru")] {
            let scn = load(path, preset);
            if trace_seed != Some(scn.seed) && python.is_some() {
                write_trace(scn.seed, &trace);
                trace_seed = Some(scn.seed);
            }
            let (mut eng, mut lp, mut lcs) = (Vec::new(), Vec::new(), Vec::new());
            let (mut cap, mut majflt, mut loop_misses, mut lcs_miss) = (0, 0, 0, 0.0);
            let mut lcs_error = None;
            for _ in 0..rounds() {
                let t0 = Instant::now();
                let mut sim = Simulation::new(&scn, "v").unwrap();
                let r = sim.run_to_end();
                eng.push(t0.elapsed().as_secs_f64());
                let l = sim.lru_sizes();
                // The page cache the engine held at the end (inactive + active file).
                cap = l[2] + l[3];
                majflt = r.counters["pgmajfault"];
                let (w, m) = lru_loop(scn.seed, cap);
                lp.push(w);
                loop_misses = m;
                if let (Some(py), None) = (&python, &lcs_error) {
                    match libcachesim(py, &trace, cap) {
                        Ok((w, m)) => {
                            lcs.push(w);
                            lcs_miss = m;
                        }
                        Err(e) => lcs_error = Some(e),
                    }
                }
            }
            let loop_range = ratio_range(&eng, &lp);
            let lcs_range = ratio_range(&eng, &lcs);
            let (e, l) = (median(eng), median(lp));
            let lcs_json = match (&python, &lcs_error) {
                (None, _) => {
                    r#""libcachesim":{"error":"RECLAIM_BENCH_PYTHON not set"}"#.to_string()
                }
                (_, Some(err)) => format!(
                    r#""libcachesim":{{"error":{}}}"#,
                    serde_json::Value::from(err.as_str())
                ),
                _ => {
                    let w = median(lcs);
                    format!(
                        r#""libcachesim":{{"wall_s":{w},"per_s":{},"miss_ratio":{lcs_miss},"ratio_range":{lcs_range}}}"#,
                        ACCESSES as f64 / w
                    )
                }
            };
            println!(
                r#"{{"bench":"anchor_{case}_{lru}","accesses":{ACCESSES},"cache_pages":{cap},"engine":{{"wall_s":{e},"per_s":{},"pgmajfault":{majflt}}},"lru_loop":{{"wall_s":{l},"per_s":{},"misses":{loop_misses},"ratio_range":{loop_range}}},{lcs_json}}}"#,
                ACCESSES as f64 / e,
                ACCESSES as f64 / l,
            );
        }
    }
    let _ = std::fs::remove_file(&trace);
}

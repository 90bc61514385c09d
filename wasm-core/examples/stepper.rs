// Developer aid: step a scenario variant in slices of virtual time, printing progress.
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let scn = reclaim_core::scenario::parse(&text).unwrap();
    let mut sim = reclaim_core::Simulation::new(&scn, &a[2]).unwrap();
    sim.check_invariants = std::env::var("CHECK").is_ok();
    let slice: u64 = a.get(3).map(|s| s.parse().unwrap()).unwrap_or(100_000_000);
    let t0 = std::time::Instant::now();
    while !sim.finished() && t0.elapsed().as_secs() < 10 {
        let w = std::time::Instant::now();
        sim.step(slice);
        let c = sim.counters();
        println!("t={:.3}s wall={:?} free/lists={:?} scan={} steal={} allocstall={} oom={} pgpgout={} majf={}", sim.now_ns() as f64 / 1e9, w.elapsed(), sim.lru_sizes(), c["pgscan_kswapd"] + c["pgscan_direct"], c["pgsteal_kswapd"] + c["pgsteal_direct"], c["allocstall"], c["oom_kill"], c["pgpgout"], c["pgmajfault"]);
    }
}

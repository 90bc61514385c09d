// Developer aid: step a scenario variant and print dirty/writeback state once a second.
fn main() {
    let path = std::env::args().nth(1).expect("scenario path");
    let variant = std::env::args().nth(2).unwrap_or_else(|| "before".into());
    let text = std::fs::read_to_string(&path).unwrap();
    let scn = reclaim_core::scenario::parse(&text).unwrap();
    let mut sim = reclaim_core::Simulation::new(&scn, &variant).unwrap();
    while !sim.finished() {
        sim.step(1_000_000_000);
        let (d, w, bg, th) = sim.dirty_state();
        let l = sim.lru_sizes();
        let c = sim.counters();
        println!(
            "t={:.0}s dirty={d} wb={w} bg={bg} thresh={th} lists={l:?} pgpgout={} vmscan_write={} immediate={} scan_d={} steal_d={} scan_k={} steal_k={}",
            sim.now_ns() as f64 / 1e9,
            c["pgpgout"], c["nr_vmscan_write"], c["nr_vmscan_immediate_reclaim"],
            c["pgscan_direct"], c["pgsteal_direct"], c["pgscan_kswapd"], c["pgsteal_kswapd"]
        );
    }
}

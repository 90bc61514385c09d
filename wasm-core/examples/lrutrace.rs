// Developer aid: trace one variant of a scenario over time: every STEP seconds (default 600)
// the LRU sizes, anon/file costs, counter deltas and what each LRU list holds, by owner.
// cargo run --release --example lrutrace -- FILE VARIANT [STEP]
fn main() {
    let path = std::env::args().nth(1).expect("scenario path");
    let variant = std::env::args().nth(2).expect("variant");
    let step: u64 = std::env::args()
        .nth(3)
        .map(|s| s.parse().unwrap())
        .unwrap_or(600);
    let text = std::fs::read_to_string(&path).unwrap();
    let scn = reclaim_core::scenario::parse(&text).unwrap();
    let mut sim = reclaim_core::Simulation::new(&scn, &variant).unwrap();

    let mut prev = sim.counters();
    while !sim.finished() {
        sim.step(step * 1_000_000_000);
        let c = sim.counters();
        let names = sim.space_names();
        let d = |k: &str| c[k] - prev[k];
        println!(
            "t={:5}s lists {:?} costs {:?} d: alloc {} refault_f {} scan_a {} steal_a {} scan_f {} swpout {} swpin {} act_f {}",
            sim.now_ns() / 1_000_000_000,
            sim.lru_sizes(),
            sim.costs(),
            d("pgalloc"), d("workingset_refault_file"), d("pgscan_anon"), d("pgsteal_anon"),
            d("pgscan_file"), d("pswpout"), d("pswpin"), d("workingset_activate_file")
        );
        for lru in 0..4 {
            let mut by: std::collections::BTreeMap<String, u64> = Default::default();
            for f in sim.list_frames(lru) {
                let sp = sim.frame_spaces()[f as usize] as usize;
                // "task/3:region" -> "task:region" (the clients of one task spec together).
                let n = match names[sp].split_once(':') {
                    Some((task, region)) => format!("{}:{region}", task.split('/').next().unwrap()),
                    None => names[sp].clone(),
                };
                *by.entry(n).or_default() += 1;
            }
            println!("   lru{lru}: {:?}", by);
        }
        prev = c;
    }
}

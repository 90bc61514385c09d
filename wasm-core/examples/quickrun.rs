// Developer aid: run every variant of a scenario and print rounds and key counters.
fn main() {
    let path = std::env::args().nth(1).expect("scenario path");
    let text = std::fs::read_to_string(&path).unwrap();
    let scn: reclaim_core::scenario::Scenario = toml::from_str(&text).unwrap();
    for v in &scn.variants {
        let t0 = std::time::Instant::now();
        let mut sim = reclaim_core::Simulation::new(&scn, &v.name).unwrap();
        let r = sim.run_to_end();
        println!(
            "== {} ({}) wall {:?} virtual {:.2}s swappiness {}",
            v.name,
            v.preset,
            t0.elapsed(),
            r.virtual_s,
            r.swappiness
        );
        for t in &r.tasks {
            if let Some(rs) = &t.rounds_s {
                println!(
                    "  {} rounds: {:?}",
                    t.name,
                    rs.iter().map(|x| format!("{x:.4}")).collect::<Vec<_>>()
                );
            }
            if let Some(o) = t.ops_per_s {
                println!("  {} ops/s {:.2} lat {:?}", t.name, o, t.latency_ms);
            }
            println!(
                "  {} majfaults {} killed {}",
                t.name, t.major_faults, t.killed
            );
        }
        let keys = [
            "pgpgin",
            "pgpgout",
            "pgalloc",
            "pswpout",
            "pswpin",
            "pgscan_anon",
            "pgscan_file",
            "pgsteal_anon",
            "pgsteal_file",
            "workingset_refault_file",
            "workingset_activate_file",
            "workingset_restore_file",
            "pgactivate",
            "pgdeactivate",
            "allocstall",
            "pgmajfault",
            "oom_kill",
            "nr_vmscan_write",
            "nr_vmscan_immediate_reclaim",
            "pgrotated",
        ];
        let m: Vec<String> = keys
            .iter()
            .map(|k| format!("{k}={}", r.measured[*k]))
            .collect();
        println!("  measured: {}", m.join(" "));
        println!("  spaces {:?}", sim.space_usage());
        for (name, st) in sim.device_stats() {
            println!(
                "  device {name}: reads {} ({} pages) writes {} ({} pages) busy {:.1}s",
                st.reads,
                st.pages_read,
                st.writes,
                st.pages_written,
                st.busy_ns as f64 / 1e9
            );
        }
        println!(
            "  oom: {:?} balance(eq,fract,file,anon) {:?} costs {:?} lists {:?}",
            r.oom_kills,
            sim.balance_histogram(),
            sim.costs(),
            sim.lru_sizes()
        );
    }
}

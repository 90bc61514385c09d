//! Workload vocabulary: behaviours of task programs that scenarios rely on.
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

fn scenario(program: &str, clients: u32) -> String {
    format!(
        r#"
title = "workload"
[machine]
ram = "64MiB"
[[devices]]
name = "d"
kind = "hdd"
[[files]]
name = "log"
size = "1MiB"
device = "d"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "w"
clients = {clients}
program = {program}
[run]
duration = "60s"
"#
    )
}

fn run(text: &str) -> (reclaim_core::report::RunReport, Vec<(String, u64, u64)>) {
    let mut sim = Simulation::new(&parse(text).unwrap(), "v").unwrap();
    let r = sim.run_to_end();
    (r, sim.space_usage())
}

#[test]
fn small_sync_appends_rewrite_one_page_until_it_is_full() {
    // 16 synchronous 512-byte appends: two pages of log, each written to disk 8 times.
    let (r, spaces) = run(&scenario(
        r#"[ { op = "write", file = "log", bytes = "512B", sync = true, count = 16 } ]"#,
        1,
    ));
    assert_eq!(r.counters["pgpgout"], 16);
    assert_eq!(spaces.iter().find(|s| s.0 == "log").unwrap().1, 2);
}

#[test]
fn appends_from_several_clients_share_the_file_cursor() {
    // 4 clients x 8 page-sized appends: 32 distinct pages, not 8 pages written 4 times.
    let (_, spaces) = run(&scenario(
        r#"[ { op = "write", file = "log", count = 8 } ]"#,
        4,
    ));
    assert_eq!(spaces.iter().find(|s| s.0 == "log").unwrap().1, 32);
}

#[test]
fn sync_writes_wait_for_the_disk() {
    let (r, _) = run(&scenario(
        r#"[ { op = "loop", count = 10, record = "ops", body = [ { op = "write", file = "log", sync = true } ] } ]"#,
        1,
    ));
    let lat = r.tasks[0].latency_ms.unwrap();
    // A 7200 rpm disk: the first write seeks (~12.7 ms); the following ones are contiguous.
    assert!(lat.p99 >= 10.0, "{lat:?}");
    assert_eq!(lat.count, 10);
}

#[test]
fn access_rates_are_in_pages_whatever_the_frame_scale() {
    // 4096 pages of a 16 MiB region at 1024 pages/s take 4 s of virtual time, whether a frame
    // is one page or eight (an access then touches 8 pages, so accesses are 8x further apart).
    let program = r#"[
  { op = "anon", name = "a", size = "16MiB" },
  { op = "loop", count = 1, record = "rounds", body = [
    { op = "touch", regions = ["a"], pattern = "random", count = 4096, rate = 1024.0 },
  ] },
]"#;
    for scale in [1, 8] {
        let text = scenario(program, 1).replace(
            "ram = \"64MiB\"",
            &format!("ram = \"64MiB\"\nframe_scale = {scale}"),
        );
        let (r, _) = run(&text);
        let round = r.tasks[0].rounds_s.as_ref().unwrap()[0];
        assert!(
            (3.9..4.1).contains(&round),
            "frame_scale {scale}: {round} s"
        );
    }
}

#[test]
fn sweeps_share_one_hand_across_clients_and_ops() {
    // Two clients each sweep 32 pages of a 64-page shared region in two ops of 16: one hand
    // shared by both and kept between ops visits every page once. (Random touches would
    // leave about a third of the pages untouched.)
    let program = r#"[
  { op = "anon", name = "pool", size = "256KiB", shared = true },
  { op = "touch", regions = ["pool"], pattern = "sweep", count = 16, write = true },
  { op = "touch", regions = ["pool"], pattern = "sweep", count = 16, write = true },
  { op = "sleep", duration = "100s" },
]"#;
    let (_, spaces) = run(&scenario(program, 2));
    let pool = spaces.iter().find(|s| s.0 == "pool").expect("pool space");
    assert_eq!(pool.1, 64, "resident pages of the swept pool: {spaces:?}");
    // Half the sweep covers the first half of the pool only.
    let program = program.replace("count = 16", "count = 8");
    let (_, spaces) = run(&scenario(&program, 2));
    let pool = spaces.iter().find(|s| s.0 == "pool").expect("pool space");
    assert_eq!(
        pool.1, 32,
        "resident pages of the half-swept pool: {spaces:?}"
    );
}

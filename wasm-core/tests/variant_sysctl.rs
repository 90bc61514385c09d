//! A variant may set sysctls over `[sysctl]` (swappiness), so one kernel can be compared at two
//! knob settings; the kernel's cap still applies and a bad value names its field.
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;

const BASE: &str = r#"title = "variant sysctl"
seed = 3

[machine]
ram = "32MiB"
swap = { device = "ssd", size = "64MiB" }

[sysctl]
swappiness = 60

[[devices]]
name = "ssd"
kind = "ssd"

[[files]]
name = "data"
size = "24MiB"
device = "ssd"

[[variants]]
name = "scenario"
preset = "linux-6.1"

[[variants]]
name = "s0"
preset = "linux-6.1"
sysctl = { swappiness = 0 }

[[variants]]
name = "s200"
preset = "linux-6.1"
sysctl = { swappiness = 200 }

[[variants]]
name = "old-s200"
preset = "linux-5.7"
sysctl = { swappiness = 200 }

[[tasks]]
name = "cold"
program = [
  { op = "anon", name = "heap", size = "16MiB" },
  { op = "touch", regions = ["heap"], write = true },
  { op = "sleep", duration = "10s" },
]

[[tasks]]
name = "reader"
start = "100ms"
program = [
  { op = "loop", count = 4, body = [ { op = "read", file = "data", rate = 25000.0 } ] },
]

[run]
duration = "3s"
"#;

#[test]
fn each_variant_runs_with_its_own_swappiness() {
    let scn = parse(BASE).expect("parses");
    let run = |v: &str| Simulation::new(&scn, v).expect("builds");
    assert_eq!(run("scenario").swappiness(), 60);
    assert_eq!(run("s0").swappiness(), 0);
    assert_eq!(run("s200").swappiness(), 200);
    // Before 5.8 vm.swappiness accepts at most 100: the write is refused, the default stays.
    assert_eq!(run("old-s200").swappiness(), 60);
    assert_eq!(scn.swappiness_for("s0"), 0);
    assert_eq!(scn.swappiness_for("scenario"), 60);
}

#[test]
fn the_variant_swappiness_changes_what_reclaim_takes() {
    let scn = parse(BASE).expect("parses");
    let anon_scanned = |v: &str| {
        let mut sim = Simulation::new(&scn, v).expect("builds");
        sim.run_to_end();
        sim.counters()["pgscan_anon"]
    };
    let (s0, s200) = (anon_scanned("s0"), anon_scanned("s200"));
    assert!(
        s200 > s0,
        "swappiness 200 scans more anon than 0: {s200} vs {s0}"
    );
}

#[test]
fn a_variant_swappiness_out_of_range_names_its_field() {
    let text = BASE.replace(
        "sysctl = { swappiness = 200 }\n\n[[variants]]\nname = \"old-s200\"",
        "sysctl = { swappiness = 201 }\n\n[[variants]]\nname = \"old-s200\"",
    );
    let e = parse(&text).expect_err("201 is refused").to_string();
    assert!(
        e.contains("variants[2].sysctl.swappiness") && e.contains("201"),
        "{e}"
    );
    let unknown = BASE.replace(
        "sysctl = { swappiness = 0 }",
        "sysctl = { dirty_ratio = 5 }",
    );
    let e = parse(&unknown).expect_err("only swappiness").to_string();
    assert!(e.contains("dirty_ratio"), "{e}");
}

/// The swappiness lesson compares one kernel at 0 and 200 through variants that set it: the
/// choice shows its cost. At 0 the looping mapped file is read back from the disk on every pass
/// (long rounds, many major faults) and nothing is swapped; at 200 the cold anon goes to swap,
/// the file stays cached, and the cold task reads its heap back from the SSD when it returns.
#[test]
fn the_swappiness_lesson_shows_the_cost_of_each_choice() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../scenarios/lesson-swappiness.toml"
    );
    let text = std::fs::read_to_string(path).expect("the lesson");
    let text = text.replace(
        "[[variants]]\nname = \"linux-6.1\"\npreset = \"linux-6.1\"\n",
        "[[variants]]\nname = \"s0\"\npreset = \"linux-6.1\"\nsysctl = { swappiness = 0 }\n\n[[variants]]\nname = \"s200\"\npreset = \"linux-6.1\"\nsysctl = { swappiness = 200 }\n",
    );
    let scn = parse(&text).expect("parses");
    let run = |v: &str| Simulation::new(&scn, v).expect("builds").run_to_end();
    let (r0, r200) = (run("s0"), run("s200"));
    let task = |r: &reclaim_core::report::RunReport, name: &str| {
        r.tasks
            .iter()
            .find(|t| t.name == name)
            .cloned()
            .expect("task")
    };
    let median = |t: &reclaim_core::report::TaskReport| {
        let mut v = t.rounds_s.clone().expect("rounds");
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (reader0, reader200) = (task(&r0, "reader"), task(&r200, "reader"));
    assert!(
        median(&reader0) > 5.0 * median(&reader200),
        "reader rounds {:?} vs {:?}",
        reader0.rounds_s,
        reader200.rounds_s
    );
    assert!(
        reader0.major_faults > 2 * reader200.major_faults,
        "reader major faults {} vs {}",
        reader0.major_faults,
        reader200.major_faults
    );
    assert_eq!(r0.counters["pswpout"], 0);
    assert_eq!(
        task(&r0, "cold").major_faults,
        0,
        "at 0 the heap stays in RAM"
    );
    assert!(
        r200.counters["pswpin"] > 0 && task(&r200, "cold").major_faults > 0,
        "at 200 the heap is read back from swap"
    );
    assert!(r0.counters["workingset_refault_file"] > 10 * r200.counters["workingset_refault_file"]);
}

/// Dirty random writes to an HDD file beyond RAM with the flushers held back, so that reclaim
/// meets dirty pages: vm.laptop_mode (`LAPTOP`) decides whether reclaim may write them.
const LAPTOP: &str = r#"title = "laptop_mode on 6.18 and 7.3"
seed = 5

[machine]
ram = "32MiB"

[sysctl]
laptop_mode = LAPTOP
dirty_ratio = 90
dirty_background_ratio = 80

[[devices]]
name = "disk"
kind = "hdd"

[[devices]]
name = "ssd"
kind = "ssd"

[[files]]
name = "data"
size = "64MiB"
device = "ssd"

[[files]]
name = "out"
size = "64MiB"
device = "disk"

[[variants]]
name = "6.18"
preset = "linux-6.18"

[[variants]]
name = "7.3"
preset = "linux-7.3"

[[tasks]]
name = "read"
program = [
  { op = "loop", duration = "10s", body = [ { op = "read", file = "data", pattern = "random", count = 16, cpu = "1us" } ] },
]

[[tasks]]
name = "write"
program = [
  { op = "loop", duration = "10s", body = [ { op = "write", file = "out", pattern = "random", count = 64, cpu = "1us" } ] },
]

[run]
duration = "10s"
"#;

/// 7.3 accepts vm.laptop_mode and ignores it (`laptop_mode_ignored`): the run is the run without
/// it, counter for counter; on 6.18 the same scenario's reclaim differs with it.
#[test]
fn laptop_mode_changes_reclaim_on_6_18_and_nothing_on_7_3() {
    let run = |laptop: bool, variant: &str| {
        let s = parse(&LAPTOP.replace("LAPTOP", &laptop.to_string())).unwrap();
        Simulation::new(&s, variant).unwrap().run_to_end().counters
    };
    assert!(
        run(false, "6.18")["nr_vmscan_immediate_reclaim"] > 0,
        "reclaim meets dirty pages"
    );
    assert_ne!(
        run(true, "6.18"),
        run(false, "6.18"),
        "6.18 honours laptop_mode"
    );
    assert_eq!(run(true, "7.3"), run(false, "7.3"), "7.3 ignores it");
}

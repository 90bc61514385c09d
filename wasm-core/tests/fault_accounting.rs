//! Fault counters: pgmajfault counts page faults only (not read()/write() misses), and pgfault
//! counts a fault retried after waiting for its page's read twice up to 6.4, once from 6.5
//! (`Flags::pgfault_retry_uncounted`).
use reclaim_core::report::RunReport;
use reclaim_core::scenario::parse;
use reclaim_core::Simulation;
use std::collections::BTreeMap;

/// Run task `w` (`program`, and `clients` of it) under 5.8 ("old") and 5.8 with the 6.5
/// accounting ("new").
fn both(machine: &str, program: &str) -> (RunReport, RunReport) {
    clients_both(machine, program, 1)
}

fn clients_both(machine: &str, program: &str, clients: u32) -> (RunReport, RunReport) {
    let text = format!(
        r#"
title = "faults"
{machine}
[[devices]]
name = "ssd"
kind = "ssd"
[[devices]]
name = "zram"
kind = "zram"
[[files]]
name = "mapped"
size = "8MiB"
device = "ssd"
[[files]]
name = "readonly"
size = "8MiB"
device = "ssd"
[[variants]]
name = "old"
preset = "linux-5.8"
[[variants]]
name = "new"
preset = "linux-5.8"
flags = {{ pgfault_retry_uncounted = true }}
[[tasks]]
name = "w"
clients = {clients}
program = {program}
[run]
duration = "600s"
"#
    );
    let scn = parse(&text).unwrap();
    let run = |v: &str| Simulation::new(&scn, v).unwrap().run_to_end();
    (run("old"), run("new"))
}

/// The counters of two runs that differ, other than pgfault.
fn differences_besides_pgfault(a: &RunReport, b: &RunReport) -> BTreeMap<String, (u64, u64)> {
    a.counters
        .iter()
        .filter(|(k, v)| k.as_str() != "pgfault" && b.counters[k.as_str()] != **v)
        .map(|(k, v)| (k.clone(), (*v, b.counters[k.as_str()])))
        .collect()
}

#[test]
fn a_file_fault_counts_major_and_read_misses_do_not() {
    // MADV_RANDOM: every touch of the mapping reads its page alone, a major fault each; the
    // read() of the other file reads as much and counts no fault.
    let (old, new) = both(
        r#"[machine]
ram = "64MiB""#,
        r#"[
  { op = "mmap", name = "m", file = "mapped", prot = "r", hint = "random" },
  { op = "touch", regions = ["m"] },
  { op = "read", file = "readonly", pattern = "seq" },
]"#,
    );
    let c = &old.counters;
    assert_eq!(c["pgmajfault"], 2048, "{c:?}");
    assert_eq!(c["pgpgin"], 4096, "{c:?}");
    assert_eq!(old.tasks[0].major_faults, 2048);
    // Each fault finds its page locked for the read and is retried: two calls up to 6.4.
    assert_eq!(c["pgfault"], 2 * 2048, "{c:?}");
    assert_eq!(new.counters["pgfault"], 2048);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn a_fault_on_a_page_another_task_is_reading_is_retried() {
    // Two clients map the file and touch it in the same order at the same time: where one
    // reads a page, the other finds it locked (`lock_page_maybe_drop_mmap`) and retries.
    let (old, new) = clients_both(
        r#"[machine]
ram = "64MiB""#,
        r#"[
  { op = "mmap", name = "m", file = "mapped", prot = "r", hint = "random" },
  { op = "touch", regions = ["m"] },
]"#,
        2,
    );
    let majors = old.counters["pgmajfault"];
    assert_eq!(majors, 2048, "{:?}", old.counters);
    // 6.5+: one fault per client and page, whoever read it.
    assert_eq!(new.counters["pgfault"], 2 * 2048);
    // Up to 6.4 every retry counts too: the reader's, and the locked finder's.
    let retries = old.counters["pgfault"] - new.counters["pgfault"];
    assert!(retries > majors + 1000, "{retries} {:?}", old.counters);
    assert!(retries <= 2 * majors, "{retries} {:?}", old.counters);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

/// A 96 MiB anon region on a 64 MiB machine, touched twice, swap on `dev`, one page a swap-in.
fn swap_twice(dev: &str) -> (RunReport, RunReport) {
    both(
        &format!(
            r#"[machine]
ram = "64MiB"
swap = {{ device = "{dev}", size = "256MiB" }}
[sysctl]
page_cluster = 0"#
        ),
        r#"[
  { op = "anon", name = "big", size = "96MiB" },
  { op = "touch", regions = ["big"], write = true },
  { op = "touch", regions = ["big"], pattern = "random", count = 8192 },
]"#,
    )
}

#[test]
fn a_swap_in_on_an_ssd_is_retried_and_counted_twice_until_6_5() {
    let (old, new) = swap_twice("ssd");
    let majors = old.counters["pgmajfault"];
    assert!(majors > 2000, "{:?}", old.counters);
    assert_eq!(majors, old.counters["pswpin"]);
    assert_eq!(old.counters["pgfault"] - new.counters["pgfault"], majors);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn a_swap_in_from_zram_is_read_inside_the_fault_and_counted_once() {
    // zram reads synchronously: the page is ready before `do_swap_page` tries its lock.
    let (old, new) = swap_twice("zram");
    let c = &old.counters;
    let majors = c["pgmajfault"];
    assert!(majors > 2000, "{c:?}");
    // 24,576 first touches, one fault each, then a fault per swapped page touched again
    // (and a few maps of pages reclaim had unmapped but not yet freed).
    let second = c["pgfault"] - 24576;
    assert!(second >= majors && second < majors + majors / 20, "{c:?}");
    assert_eq!(c["pgfault"], new.counters["pgfault"]);
    assert_eq!(differences_besides_pgfault(&old, &new), BTreeMap::new());
}

#[test]
fn tmpfs_read_and_write_swap_ins_are_no_page_faults() {
    // A tmpfs file pushed to swap, then rewritten and read back with write() and read():
    // swap-ins, but no fault of either kind.
    let text = r#"
title = "tmpfs"
[machine]
ram = "64MiB"
swap = { device = "ssd", size = "256MiB" }
[[devices]]
name = "ssd"
kind = "ssd"
[[files]]
name = "t"
size = "48MiB"
device = "ssd"
tmpfs = true
[[variants]]
name = "v"
preset = "linux-5.8"
[[tasks]]
name = "w"
program = [
  { op = "write", file = "t", pattern = "seq", count = 12288 },
  { op = "anon", name = "big", size = "48MiB" },
  { op = "touch", regions = ["big"], write = true },
  { op = "write", file = "t", pattern = "random", count = 2048 },
  { op = "read", file = "t", pattern = "random", count = 2048 },
]
[run]
duration = "600s"
"#;
    let r = Simulation::new(&parse(text).unwrap(), "v")
        .unwrap()
        .run_to_end();
    let c = &r.counters;
    assert!(c["pswpin"] > 1000, "{c:?}");
    assert_eq!(c["pgmajfault"], 0, "{c:?}");
    assert_eq!(r.tasks[0].major_faults, 0);
    // The only faults are the first touches of `big` (12,288 pages).
    assert_eq!(c["pgfault"], 12288, "{c:?}");
}

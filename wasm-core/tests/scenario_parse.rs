//! Scenario parsing: a valid file parses; each kind of mistake is reported at its line with a
//! message that names the field or what is allowed; no input makes the parser panic.
use proptest::prelude::*;
use reclaim_core::scenario::{ops, parse, Op, ScenarioError};

const VALID: &str = r#"# A small scenario for the parser tests.
title = "parser test"
description = "two variants, a file on a disk, swap on an SSD"
seed = 7

[machine]
ram = "64MiB"
frame_scale = 1
swap = { device = "ssd", size = "64MiB" }

[sysctl]
swappiness = 100
dirty_ratio = 20
dirty_background_ratio = 10

[[variants]]
name = "before"
preset = "linux-5.7"

[[variants]]
name = "after"
preset = "linux-5.7"
flags = { io_cost_balance = true }

[[devices]]
name = "disk"
kind = "hdd"
read_latency = "8ms"
bandwidth = "150MB"

[[devices]]
name = "ssd"
kind = "ssd"

[[files]]
name = "db"
size = "32MiB"
device = "disk"

[[files]]
name = "shm"
size = "4MiB"
device = "tmpfs"
tmpfs = true

[[tasks]]
name = "loader"
program = [
  { op = "anon", name = "heap", size = "16MiB" },
  { op = "touch", regions = ["heap"], write = true },
  { op = "mark", name = "warm" },
  { op = "loop", count = 3, record = "rounds", body = [
    { op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rx" },
    { op = "touch", regions = ["head"], pattern = "zipf", theta = 1.2 },
  ] },
  { op = "munmap", name = "head" },
  { op = "free", name = "heap" },
]

[[tasks]]
name = "client"
start = "1s"
clients = 2

[[tasks.program]]
op = "loop"
record = "ops"
body = [
  { op = "read", file = "db", pattern = "random", count = 1, rate = 100.0 },
  { op = "write", file = "shm", count = 1 },
  { op = "sleep", duration = "1ms" },
]

[run]
duration = "10s"
sample_interval = "100ms"
measure_from = "warm"

[[expect]]
text = "after swaps more"
"#;

/// VALID with `from` (which must occur exactly once) replaced by `to`.
fn with(from: &str, to: &str) -> String {
    assert_eq!(
        VALID.matches(from).count(),
        1,
        "{from:?} must occur once in VALID"
    );
    VALID.replacen(from, to, 1)
}

/// 1-based line of the only occurrence of `snippet` in `text`.
fn line_of(text: &str, snippet: &str) -> usize {
    assert_eq!(
        text.matches(snippet).count(),
        1,
        "{snippet:?} must occur once"
    );
    text[..text.find(snippet).unwrap()].matches('\n').count() + 1
}

fn error(text: &str) -> ScenarioError {
    match parse(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

/// The error is at the line of `at` and its Display contains every one of `words`.
fn assert_error(text: &str, at: &str, words: &[&str]) {
    let e = error(text);
    let shown = e.to_string();
    assert_eq!(e.line, line_of(text, at), "wrong line in: {shown}");
    assert!(e.column >= 1, "{shown}");
    for word in words {
        assert!(shown.contains(word), "{word:?} missing from: {shown}");
    }
}

#[test]
fn the_valid_scenario_parses() {
    let s = parse(VALID).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.title, "parser test");
    assert_eq!(s.machine.ram.bytes(), 64 << 20);
    assert_eq!(s.variants.len(), 2);
    assert_eq!(s.variants[1].flags.get("io_cost_balance"), Some(&true));
    assert_eq!(s.files.len(), 2);
    assert_eq!(s.tasks[1].clients, 2);
    assert!(
        matches!(&s.tasks[0].program[3], Op::Loop(ops::Loop { count: Some(3), body, .. }) if body.len() == 2)
    );
    assert_eq!(s.run.measure_from.as_deref(), Some("warm"));
}

#[test]
fn display_is_line_column_field_message() {
    let e = error(&with(
        r#"{ op = "anon", name = "heap", size"#,
        r#"{ op = "anon", name = "heap", sizee"#,
    ));
    assert_eq!(e.field, "tasks[0].program[0]");
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!(
            "line {}, column {}: tasks[0].program[0]: unknown field `sizee`",
            e.line, e.column
        )),
        "{shown}"
    );
    assert!(shown.contains("expected one of `name`, `size`"), "{shown}");
}

#[test]
fn empty_files_are_errors() {
    for text in ["", "  \n\t\n", "# only a comment\n"] {
        let e = error(text);
        assert_eq!((e.line, e.column), (1, 1), "{e}");
        assert!(e.message.contains("empty"), "{e}");
    }
}

#[test]
fn syntax_errors_have_a_line() {
    assert_error(&with("seed = 7", "seed = "), "seed = ", &["line 4"]);
    assert_error(
        &with(r#"title = "parser test""#, r#"title = "parser test"#),
        r#"title = "parser test"#,
        &[],
    );
    assert_error(&with("[sysctl]", "[sysctl"), "[sysctl", &["`]`"]);
    assert_error(
        &with("swappiness = 100", "swappiness = 100\nswappiness = 90"),
        "swappiness = 90",
        &["duplicate key"],
    );
}

#[test]
fn type_errors_name_the_field() {
    assert_error(
        &with("seed = 7", r#"seed = "seven""#),
        "seed =",
        &["seed", "invalid type"],
    );
    assert_error(
        &with("clients = 2", "clients = -2"),
        "clients",
        &["tasks[1].clients", "u32"],
    );
    assert_error(
        &with("write = true", r#"write = "yes""#),
        "write =",
        &["tasks[0].program[1].write", "bool"],
    );
    assert_error(
        &with("count = 3", r#"count = "three""#),
        "three",
        &["tasks[0].program[3].count", "u64"],
    );
    assert_error(
        &with(r#"count = 1, rate"#, r#"count = -1, rate"#),
        "count = -1",
        &["tasks[1].program[0].body[0].count"],
    );
}

#[test]
fn unknown_fields_and_names_list_what_is_allowed() {
    assert_error(
        &with("frame_scale = 1", "frame_scal = 1"),
        "frame_scal",
        &["machine", "unknown field `frame_scal`", "frame_scale"],
    );
    assert_error(
        &with("seed = 7", "sed = 7"),
        "sed =",
        &["unknown field `sed`", "seed"],
    );
    assert_error(
        &with(r#"record = "ops""#, r#"recrd = "ops""#),
        "recrd",
        &["tasks[1].program[0]", "record"],
    );
    assert_error(
        &with("op = \"loop\"\nrecord", "op = \"lop\"\nrecord"),
        r#""lop""#,
        &["tasks[1].program[0].op", "`loop`", "`touch`"],
    );
    assert_error(
        &with(r#"kind = "hdd""#, r#"kind = "tape""#),
        "tape",
        &["devices[0].kind", "hdd", "ssd"],
    );
    assert_error(
        &with(r#"pattern = "zipf""#, r#"pattern = "zipff""#),
        "zipff",
        &["pattern", "seq", "random", "zipf"],
    );
    assert_error(
        &with("[[tasks.program]]", "[[tasks.programs]]"),
        "programs",
        &["tasks[1]", "program"],
    );
    assert_error(
        &with(
            r#"{ op = "sleep", duration = "1ms" }"#,
            r#"{ op = "sleep" }"#,
        ),
        r#"{ op = "sleep" }"#,
        &["tasks[1].program[0].body[2]", "missing field `duration`"],
    );
}

#[test]
fn bad_units_name_the_field_and_the_units() {
    assert_error(
        &with(r#"ram = "64MiB""#, r#"ram = "64 MiBs""#),
        "64 MiBs",
        &["machine.ram", "MiB", "GiB"],
    );
    assert_error(
        &with(r#"size = "16MiB" }"#, r#"size = "16Mb" }"#),
        "16Mb",
        &["tasks[0].program[0].size", "MiB"],
    );
    assert_error(
        &with(r#"duration = "1ms""#, r#"duration = "1 fortnight""#),
        "fortnight",
        &["tasks[1].program[0].body[2].duration", "ms"],
    );
    assert_error(
        &with(r#"start = "1s""#, "start = -1"),
        "start",
        &["tasks[1].start", "negative"],
    );
}

#[test]
fn variants_are_checked() {
    assert_error(
        &with(r#"name = "after""#, r#"name = "before"  # again"#),
        "# again",
        &["variants[1].name", "duplicate", "\"before\""],
    );
    assert_error(
        &with(r#"name = "after""#, r#"name = """#),
        r#"name = """#,
        &["variants[1].name", "empty"],
    );
    assert_error(
        &with(
            r#"preset = "linux-5.7"
flags"#,
            r#"preset = "linux-9.9"
flags"#,
        ),
        "linux-9.9",
        &["variants[1].preset", "linux-5.2", "linux-5.8"],
    );
    assert_error(
        &with("io_cost_balance = true", "io_cost = true"),
        "io_cost =",
        &["variants[1].flags.io_cost", "refault_scan_anon"],
    );
}

#[test]
fn at_least_one_variant() {
    let text = VALID
        .replace("[[variants]]\nname = \"before\"\npreset = \"linux-5.7\"\n", "")
        .replace("[[variants]]\nname = \"after\"\npreset = \"linux-5.7\"\nflags = { io_cost_balance = true }\n", "")
        .replace("seed = 7", "seed = 7\nvariants = []");
    assert_error(&text, "variants = []", &["variants", "at least one"]);
}

#[test]
fn devices_and_files_are_checked() {
    let dup = with("name = \"ssd\"\nkind", "name = \"disk\"\nkind")
        .replace(r#"device = "ssd""#, r#"device = "disk""#);
    assert_error(
        &dup,
        "name = \"disk\"\nkind = \"ssd\"",
        &["devices[1].name", "duplicate", "\"disk\""],
    );
    assert_error(
        &with(r#"device = "ssd""#, r#"device = "nvme""#),
        "nvme",
        &["machine.swap.device", "disk, ssd"],
    );
    assert_error(
        &with(r#"device = "disk""#, r#"device = "tape""#),
        "tape",
        &["files[0].device", "disk, ssd"],
    );
    assert_error(
        &with("tmpfs = true\n", "\n"),
        r#"device = "tmpfs""#,
        &["files[1].device", "tmpfs = true"],
    );
    assert_error(
        &with(r#"name = "shm""#, r#"name = "db""#),
        "name = \"db\"\nsize = \"4MiB\"",
        &["files[1].name", "duplicate"],
    );
    assert_error(
        &with(r#"size = "32MiB""#, r#"size = "65TiB""#),
        "65TiB",
        &["files[0].size", "64TiB"],
    );
    assert_error(
        &with(r#"bandwidth = "150MB""#, "bandwidth = 0"),
        "bandwidth",
        &["devices[0].bandwidth", "> 0"],
    );
    let ssd = "kind = \"ssd\"\n";
    assert_error(
        &with(ssd, "kind = \"ssd\"\nparallelism = 0\n"),
        "parallelism",
        &["devices[1].parallelism", ">= 1"],
    );
    assert_error(
        &with(ssd, "kind = \"zram\"\ncompression_ratio = 0.0\n"),
        "compression_ratio",
        &["devices[1].compression_ratio", "> 0"],
    );
    assert_error(
        &with(ssd, "kind = \"ssd\"\ncapacity = \"1TB\"\n"),
        "capacity",
        &["devices[1].capacity", "hdd"],
    );
    assert_error(
        &with(
            r#"bandwidth = "150MB""#,
            "bandwidth = \"150MB\"\ncapacity = \"1KiB\"",
        ),
        "capacity",
        &["devices[0].capacity", "at least one page"],
    );
    assert!(parse(&with(
        r#"bandwidth = "150MB""#,
        "bandwidth = \"150MB\"\ncapacity = \"1TB\""
    ))
    .is_ok());
    assert_error(
        &with(ssd, "kind = \"zram\"\nwrite_queue = \"64MiB\"\n"),
        "write_queue",
        &["devices[1].write_queue", "synchronously"],
    );
    assert_error(
        &with(ssd, "kind = \"ssd\"\nwrite_queue = \"lots\"\n"),
        "write_queue",
        &["devices[1].write_queue"],
    );
    assert!(parse(&with(ssd, "kind = \"ssd\"\nwrite_queue = \"126MiB\"\n")).is_ok());
}

#[test]
fn tasks_and_op_sizes_are_checked() {
    let start = VALID.find("[[tasks]]").unwrap();
    let end = VALID.find("[run]").unwrap();
    let no_tasks = format!("tasks = []\n{}{}", &VALID[..start], &VALID[end..]);
    assert_error(
        &no_tasks,
        "tasks = []",
        &["tasks", "at least one [[tasks]]"],
    );
    assert_error(
        &with(r#"size = "16MiB" }"#, "size = 0 }"),
        "size = 0",
        &["program[0].size", "> 0"],
    );
    assert_error(
        &with(r#"regions = ["heap"]"#, "regions = []"),
        "regions = []",
        &["program[1].regions", "at least one"],
    );
    assert_error(
        &with(
            r#"file = "db", pattern"#,
            r#"file = "db", size = "65TiB", pattern"#,
        ),
        "65TiB",
        &["body[0].size", "64TiB"],
    );
}

#[test]
fn a_tmpfs_file_may_name_any_device() {
    parse(&with(r#"device = "tmpfs""#, r#"device = "anything""#)).unwrap();
}

#[test]
fn ops_name_declared_files_and_defined_regions() {
    assert_error(
        &with(r#"file = "db", size"#, r#"file = "dbx", size"#),
        "dbx",
        &["tasks[0].program[3].body[0].file", "db, shm"],
    );
    assert_error(
        &with(r#"file = "db", pattern"#, r#"file = "log", pattern"#),
        "log",
        &["body[0].file", "unknown file"],
    );
    assert_error(
        &with(r#"file = "shm""#, r#"file = "scratch""#),
        "scratch",
        &["body[1].file", "db, shm"],
    );
    assert_error(
        &with(r#"regions = ["head"]"#, r#"regions = ["tail"]"#),
        "tail",
        &[
            "tasks[0].program[3].body[1].regions[0]",
            "\"tail\"",
            "head, heap",
        ],
    );
    assert_error(
        &with(
            r#"{ op = "free", name = "heap" }"#,
            r#"{ op = "free", name = "hep" }"#,
        ),
        "hep",
        &["tasks[0].program[5].name"],
    );
    assert_error(
        &with(
            r#"{ op = "munmap", name = "head" }"#,
            r#"{ op = "munmap", name = "tail" }"#,
        ),
        "tail",
        &["tasks[0].program[4].name"],
    );
    // Used before it is defined.
    let early = with(
        r#"{ op = "touch", regions = ["heap"], write = true }"#,
        r#"{ op = "touch", regions = ["head"], write = true }"#,
    );
    assert_error(
        &early,
        r#"regions = ["head"], write"#,
        &["tasks[0].program[1].regions[0]", "earlier"],
    );
    // Regions belong to their task.
    let other_task = with(
        r#"{ op = "write", file = "shm", count = 1 }"#,
        r#"{ op = "touch", regions = ["heap"] }"#,
    );
    assert_error(
        &other_task,
        r#"regions = ["heap"] }"#,
        &["tasks[1].program[0].body[1].regions[0]", "(none)"],
    );
}

#[test]
fn mmap_ranges_and_prot_are_checked() {
    assert_error(
        &with(r#"size = "16MiB", prot"#, r#"size = "48MiB", prot"#),
        "48MiB",
        &["body[0].size", "within", "\"db\""],
    );
    assert_error(
        &with(
            r#"size = "16MiB", prot"#,
            r#"offset = "20MiB", size = "16MiB", prot"#,
        ),
        "20MiB",
        &["body[0].size", "within"],
    );
    assert_error(
        &with(r#"size = "16MiB", prot"#, r#"offset = "40MiB", prot"#),
        "40MiB",
        &["body[0].offset", "past the end"],
    );
    assert_error(
        &with(
            r#"size = "16MiB", prot"#,
            r#"offset = 100, size = "4KiB", prot"#,
        ),
        "offset = 100",
        &["body[0].offset", "page size"],
    );
    assert_error(
        &with(r#"prot = "rx""#, r#"prot = "wx""#),
        "wx",
        &["body[0].prot", "r, rw, rx, rwx"],
    );
    parse(&with(
        r#"size = "16MiB", prot"#,
        r#"offset = "16MiB", size = "16MiB", prot"#,
    ))
    .unwrap();
}

#[test]
fn machine_and_sysctl_are_checked() {
    assert_error(
        &with(r#"ram = "64MiB""#, r#"ram = "8MiB""#),
        "8MiB",
        &["machine.ram", "at least 16MiB"],
    );
    assert_error(
        &with(r#"ram = "64MiB""#, "ram = 67110912"),
        "67110912",
        &["machine.ram", "multiple of the page size"],
    );
    assert_error(
        &with(r#"ram = "64MiB""#, r#"ram = "65MiB""#)
            .replace("frame_scale = 1", "frame_scale = 512"),
        "65MiB",
        &["frame_scale", "2097152 bytes"],
    );
    assert_error(
        &with("frame_scale = 1", "frame_scale = 3"),
        "frame_scale",
        &["machine.frame_scale", "power of two"],
    );
    assert_error(
        &with("frame_scale = 1", "frame_scale = 0"),
        "frame_scale",
        &["power of two"],
    );
    assert_error(
        &with(r#"ram = "64MiB""#, r#"ram = "65TiB""#),
        "65TiB",
        &["machine.ram", "64TiB"],
    );
    assert_error(
        &with("swappiness = 100", "swappiness = 201"),
        "swappiness",
        &["sysctl.swappiness", "0..=200"],
    );
    assert_error(
        &with("dirty_ratio = 20", "page_cluster = 32\ndirty_ratio = 20"),
        "page_cluster",
        &["sysctl.page_cluster", "0..=31"],
    );
    assert_error(
        &with("dirty_ratio = 20", "dirty_ratio = 101"),
        "dirty_ratio =",
        &["sysctl.dirty_ratio", "0..=100"],
    );
    assert_error(
        &with(
            "dirty_background_ratio = 10",
            "dirty_background_ratio = 101",
        ),
        "background",
        &["0..=100"],
    );
    assert_error(
        &with("dirty_background_ratio = 10", "dirty_background_ratio = 20"),
        "background",
        &["less than dirty_ratio"],
    );
    // With the background ratio left at its default (10), the written ratio is the mistake.
    let low =
        with("dirty_background_ratio = 10\n", "").replace("dirty_ratio = 20", "dirty_ratio = 5");
    assert_error(
        &low,
        "dirty_ratio = 5",
        &["sysctl.dirty_ratio", "less than dirty_ratio (5)"],
    );
}

#[test]
fn run_is_checked() {
    assert_error(
        &with(r#"duration = "10s""#, "duration = 0"),
        "duration = 0",
        &["run.duration", "> 0"],
    );
    assert_error(
        &with(r#"sample_interval = "100ms""#, r#"sample_interval = "0ms""#),
        "0ms",
        &["run.sample_interval", "> 0"],
    );
    assert_error(
        &with(r#"measure_from = "warm""#, r#"measure_from = "cold""#),
        "cold",
        &["run.measure_from", "\"cold\"", "warm"],
    );
}

#[test]
fn rates_theta_loops_clients_and_names_are_checked() {
    assert_error(
        &with("theta = 1.2", "theta = 10.0"),
        "theta",
        &["body[1].theta", "(0, 10)"],
    );
    assert_error(&with("theta = 1.2", "theta = 0.0"), "theta", &["(0, 10)"]);
    assert_error(
        &with(
            r#"pattern = "random", count = 1"#,
            r#"pattern = "sweep", count = 1"#,
        ),
        "sweep",
        &["tasks[1].program[0].body[0].pattern", "touch only"],
    );
    assert!(parse(&with(
        r#"pattern = "zipf", theta"#,
        r#"pattern = "sweep", theta"#
    ))
    .is_ok());
    assert_error(&with("theta = 1.2", "theta = nan"), "theta", &["(0, 10)"]);
    assert_error(
        &with("rate = 100.0", "rate = -1.0"),
        "rate",
        &["tasks[1].program[0].body[0].rate", ">= 0"],
    );
    assert_error(
        &with("clients = 2", "clients = 0"),
        "clients",
        &["tasks[1].clients", ">= 1"],
    );
    assert_error(
        &with(r#"name = "client""#, r#"name = " ""#),
        r#"name = " ""#,
        &["tasks[1].name", "empty"],
    );
    assert_error(
        &with(r#"name = "client""#, r#"name = "loader""#),
        r#"name = "loader"
start"#,
        &["tasks[1].name", "duplicate"],
    );
    assert_error(
        &with(r#"name = "warm""#, r#"name = """#),
        r#"op = "mark""#,
        &["tasks[0].program[2].name", "empty"],
    );
    assert_error(
        &with(r#"name = "heap", size"#, r#"name = "", size"#),
        r#"name = "", size"#,
        &["program[0].name", "empty"],
    );
    // A never-ending loop must come last in its task's program.
    let not_last = with(
        "[run]",
        "[[tasks.program]]\nop = \"sleep\"\nduration = \"1s\"\n\n[run]",
    );
    assert_error(
        &not_last,
        "[[tasks.program]]\nop = \"loop\"",
        &["tasks[1].program[0]", "count", "duration", "last op"],
    );
    let nested = with("count = 3, record", "record");
    assert_error(
        &nested,
        r#"{ op = "loop", record"#,
        &["tasks[0].program[3]", "last op"],
    );
    let empty_loop = VALID.replace(
        "body = [\n  { op = \"read\", file = \"db\", pattern = \"random\", count = 1, rate = 100.0 },\n  { op = \"write\", file = \"shm\", count = 1 },\n  { op = \"sleep\", duration = \"1ms\" },\n]",
        "body = []",
    );
    assert_error(
        &empty_loop,
        "body = []",
        &["tasks[1].program[0].body", "at least one op"],
    );
}

#[test]
fn errors_at_the_end_of_the_file_point_at_a_line_of_it() {
    let e = error("title = \"x\"\n[machine]\nram = \n");
    assert_eq!((e.line, e.column), (3, 7), "{e}");
    // An unterminated string runs to the end; the text has 3 lines, the end is on a 4th.
    let e = error("title = \"\"\"x\n\n\n");
    assert_eq!((e.line, e.column), (3, 1), "{e}");
}

/// Every error points into the text.
fn check_never_panics(text: &str) -> Result<(), TestCaseError> {
    if let Err(e) = parse(text) {
        let lines = text.lines().count().max(1);
        prop_assert!(
            e.line >= 1 && e.line <= lines,
            "line {} of {lines}: {e}",
            e.line
        );
        prop_assert!(e.column >= 1, "{e}");
        prop_assert!(!e.message.is_empty());
    }
    Ok(())
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Replace(usize, char),
}

fn mutate(text: &str, mutation: &Mutation) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    match *mutation {
        Mutation::Delete(i) => {
            lines.remove(i % lines.len());
            lines.join("\n")
        }
        Mutation::Duplicate(i) => {
            let i = i % lines.len();
            lines.insert(i, lines[i]);
            lines.join("\n")
        }
        Mutation::Replace(i, c) => {
            let mut chars: Vec<char> = text.chars().collect();
            let i = i % chars.len();
            chars[i] = c;
            chars.into_iter().collect()
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let toml_char = prop::sample::select(vec![
        '"', '[', ']', '{', '}', '=', ',', '.', '#', '\n', ' ', '0', '-', 'x', 'é',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), toml_char).prop_map(|(i, c)| Mutation::Replace(i, c)),
        (any::<usize>(), any::<char>()).prop_map(|(i, c)| Mutation::Replace(i, c)),
    ]
}

proptest! {
    #[test]
    fn random_strings_never_panic(text in "\\PC{0,200}") {
        check_never_panics(&text)?;
    }

    #[test]
    fn toml_like_strings_never_panic(text in "[a-z_ =\"\\[\\]{}.,#0-9\n-]{0,300}") {
        check_never_panics(&text)?;
    }

    #[test]
    fn mutated_scenarios_never_panic(mutations in prop::collection::vec(mutation(), 1..4)) {
        let mut text = VALID.to_string();
        for m in &mutations {
            text = mutate(&text, m);
        }
        check_never_panics(&text)?;
    }
}

#[test]
fn advancing_mmaps_need_a_size_and_new_ops_parse() {
    let ok = with(
        r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rx" },"#,
        r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rx", advance = true },
    { op = "scan_inactive_file" },
    { op = "drop_caches" },"#,
    );
    parse(&ok).unwrap_or_else(|e| panic!("{e}"));
    let bad = with(
        r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rx" },"#,
        r#"{ op = "mmap", name = "head", file = "db", prot = "rx", advance = true },"#,
    );
    assert_error(
        &bad,
        "advance = true",
        &["advance", "needs an explicit size"],
    );
    let young = with(
        "frame_scale = 1\n",
        "frame_scale = 1\nyoung_fault = \"15us\"\n",
    );
    assert_eq!(parse(&young).unwrap().machine.young_fault.ns(), 15_000);
}

#[test]
fn a_private_writable_file_mapping_is_refused_and_a_private_read_only_one_parses() {
    let from = r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rx" },"#;
    let ro = with(
        from,
        r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "r", shared = false },"#,
    );
    parse(&ro).unwrap_or_else(|e| panic!("{e}"));
    let rw = with(
        from,
        r#"{ op = "mmap", name = "head", file = "db", size = "16MiB", prot = "rw", shared = false },"#,
    );
    assert_error(
        &rw,
        "shared = false",
        &["shared", "copy-on-write", "not modelled"],
    );
}

/// VALID with memcgs: "a" (memory.max 32 MiB) and "b0", "b1" under it (replicas); the loader
/// runs in "b1"; the client writes to a's memory.reclaim instead of sleeping.
fn memcg_text() -> String {
    with(
        "[[tasks]]\nname = \"loader\"",
        "[[memcgs]]\nname = \"a\"\nmax = \"32MiB\"\n\n[[memcgs]]\nname = \"b{i}\"\nparent = \"a\"\nreplicas = 2\n\n[[tasks]]\nname = \"loader\"\nmemcg = \"b1\"",
    )
    .replace(
        r#"{ op = "sleep", duration = "1ms" }"#,
        // The sleep stays: a loop of a free read and memory.reclaim alone could take no
        // virtual time, which the parser refuses (issue #49).
        r#"{ op = "memory_reclaim", memcg = "a", amount = "1MiB", swappiness = 100 }, { op = "sleep", duration = "1ms" }"#,
    )
}

#[test]
fn memcgs_replicas_and_memory_reclaim_parse() {
    let scn = parse(&memcg_text()).unwrap();
    let names: Vec<String> = scn
        .expanded_memcgs()
        .into_iter()
        .map(|(_, m)| m.name)
        .collect();
    assert_eq!(names, ["a", "b0", "b1"]);
    assert_eq!(scn.tasks[0].memcg.as_deref(), Some("b1"));
    let with_replicas =
        memcg_text().replace("clients = 2", "clients = 2\nreplicas = 3\nname_unused = 0");
    // Unknown fields of tasks stay errors (replicas is known, name_unused is not).
    assert_error(
        &with_replicas,
        "name_unused",
        &["unknown field `name_unused`"],
    );
}

#[test]
fn memcg_mistakes_name_the_field_and_line() {
    let t = memcg_text();
    let sub = |from: &str, to: &str| {
        assert_eq!(t.matches(from).count(), 1, "{from:?}");
        t.replacen(from, to, 1)
    };
    assert_error(
        &sub(r#"parent = "a""#, r#"parent = "c""#),
        r#"parent = "c""#,
        &["memcgs[1].parent", "unknown parent memcg \"c\""],
    );
    assert_error(
        &sub(r#"memcg = "b1""#, r#"memcg = "b2""#),
        r#"memcg = "b2""#,
        &["tasks[0].memcg", "unknown memcg \"b2\"", "b0"],
    );
    assert_error(
        &sub(r#"name = "b{i}""#, r#"name = "b""#),
        r#"name = "b""#,
        &["memcgs[1].name", "duplicate memcg name \"b\"", "{i}"],
    );
    assert_error(
        &sub(r#"name = "a""#, r#"name = "/""#),
        r#"name = "/""#,
        &["memcgs[0].name", "root memcg"],
    );
    assert_error(
        &sub("replicas = 2", "replicas = 0"),
        "replicas = 0",
        &["memcgs[1].replicas", ">= 1"],
    );
    assert_error(
        &sub(r#"max = "32MiB""#, r#"maxx = "32MiB""#),
        "maxx",
        &["memcgs[0]", "unknown field `maxx`"],
    );
    assert_error(
        &sub(r#"memcg = "a", amount"#, r#"memcg = "z", amount"#),
        r#"memcg = "z""#,
        &["tasks[1].program[0].body[2].memcg", "unknown memcg \"z\""],
    );
    assert_error(
        &sub("swappiness = 100 }", "swappiness = 300 }"),
        "swappiness = 300",
        &["body[2]: swappiness", "0..=200"],
    );
    assert_error(
        &sub(r#"amount = "1MiB""#, r#"amount = "1KiB""#),
        r#"amount = "1KiB""#,
        &["body[2].amount", "at least one page"],
    );
    assert_error(
        &sub(
            r#"{ op = "touch", regions = ["heap"], write = true }"#,
            r#"{ op = "touch", regions = ["heap"], write_fraction = 1.5 }"#,
        ),
        "write_fraction",
        &["tasks[0].program[1].write_fraction", "0..=1"],
    );
}

#[test]
fn writes_through_a_read_only_mapping_are_errors() {
    let bad = VALID.replace(
        r#"{ op = "touch", regions = ["head"], pattern = "zipf", theta = 1.2 },"#,
        r#"{ op = "touch", regions = ["head"], pattern = "zipf", theta = 1.2, write = true },"#,
    );
    assert_error(
        &bad,
        "theta = 1.2, write = true",
        &["\"head\"", "without write permission", "prot = \"rw\""],
    );
    let some_writes = VALID.replace(
        r#"{ op = "touch", regions = ["head"], pattern = "zipf", theta = 1.2 },"#,
        r#"{ op = "touch", regions = ["head"], pattern = "zipf", theta = 1.2, write_fraction = 0.5 },"#,
    );
    assert_error(
        &some_writes,
        "write_fraction = 0.5",
        &["without write permission"],
    );
    // The same write through a writable mapping is fine.
    let ok = bad.replace(r#"prot = "rx""#, r#"prot = "rwx""#);
    parse(&ok).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn zero_cpus_is_an_error() {
    let bad = VALID.replace("frame_scale = 1\n", "frame_scale = 1\ncpus = 0\n");
    assert_error(&bad, "cpus = 0", &["machine.cpus", "between 1 and 4096"]);
}

#[test]
fn reads_through_a_buffer_pool_are_checked() {
    let munmap = r#"{ op = "munmap", name = "head" },"#;
    let read = |fields: &str| {
        with(
            munmap,
            &format!(r#"{{ op = "read", file = "db", count = 1, {fields} }},"#),
        )
    };
    assert!(parse(&read(r#"buffer = "heap", write = true"#)).is_ok());
    assert_error(
        &read(r#"buffer = "head""#),
        "buffer",
        &["tasks[0].program[4].buffer", "file mapping", "anon region"],
    );
    assert_error(
        &read(r#"buffer = "pool""#),
        "buffer",
        &[
            "tasks[0].program[4].buffer",
            "\"pool\"",
            "not defined",
            "heap",
        ],
    );
    assert_error(
        &read("write = true"),
        r#"count = 1, write = true"#,
        &["tasks[0].program[4].write", "buffer"],
    );
}

//! `reclaim sweep`: the table it writes, failed runs as rows, resuming, and bad grids.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn reclaim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reclaim"))
        .args(args)
        .output()
        .expect("the reclaim binary runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A directory of this test's own, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("reclaim-sweep-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Memory pressure in a fraction of a second: a fill of anon, then reads of a file.
const SCENARIO: &str = r#"title = "sweep test"
seed = 1
[machine]
ram = "64MiB"
swap = { device = "disk", size = "128MiB" }
[[devices]]
name = "disk"
kind = "ssd"
[[files]]
name = "f"
size = "24MiB"
device = "disk"
[[variants]]
name = "before"
preset = "linux-5.2"
[[variants]]
name = "after"
preset = "linux-5.3"
[[tasks]]
name = "t"
program = [
  { op = "anon", name = "a", size = "48MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "loop", count = 2, record = "rounds", body = [{ op = "read", file = "f", pattern = "random", count = 3000 }] },
]
[run]
duration = "30s"
"#;

fn csv_rows(path: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

fn grid(dir: &TempDir, out: &str, jobs: &str) -> Output {
    let scn = dir.file("s.toml");
    reclaim(&[
        "sweep",
        &scn,
        "--set",
        "ram=16MiB,64MiB",
        "--set",
        "frame_scale=1,128",
        "--variant",
        "after",
        "--seeds",
        "1..2",
        "--jobs",
        jobs,
        "--out",
        out,
        "--quiet",
    ])
}

#[test]
fn a_grid_is_one_row_per_run_and_a_failed_run_is_a_row_with_its_error() {
    let dir = TempDir::new("grid");
    std::fs::write(dir.file("s.toml"), SCENARIO).unwrap();
    let out_csv = dir.file("t.csv");
    let out = grid(&dir, &out_csv, "2");
    // 16 MiB in frames of 128 pages is too few frames: the engine refuses those two runs.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    assert!(
        summary.contains("8 runs: 6 ok, 2 failed, 0 already in the table"),
        "{summary}"
    );
    assert!(summary.contains("on 2 job(s)"), "{summary}");
    assert!(text(&out.stderr).contains("2 run(s) failed"));
    let rows = csv_rows(&out_csv);
    assert_eq!(rows.len(), 1 + 8);
    assert_eq!(
        &rows[0][..6],
        ["variant", "seed", "ram", "frame_scale", "preset", "error"]
    );
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    assert!(rows[0].contains(&"pswpout".to_string()) && rows[0].contains(&"virtual_s".to_string()));
    // Grid order: ram outermost, then frame_scale, then the seed.
    let keys: Vec<String> = rows[1..].iter().map(|r| r[..4].join(" ")).collect();
    assert_eq!(keys[0], "after 1 16MiB 1");
    assert_eq!(keys[1], "after 2 16MiB 1");
    assert_eq!(keys[2], "after 1 16MiB 128");
    assert_eq!(keys[7], "after 2 64MiB 128");
    for r in &rows[1..] {
        let failed = r[2] == "16MiB" && r[3] == "128";
        assert_eq!(
            r[col("error")].contains("machine.ram is too small"),
            failed,
            "{r:?}"
        );
        assert_eq!(r[col("virtual_s")].is_empty(), failed, "{r:?}");
        assert_eq!(r[col("preset")], "linux-5.3");
    }
    // The measured counters are those of `reclaim run --json` for the same knobs.
    let one = dir.file("one.toml");
    std::fs::write(
        &one,
        SCENARIO
            .replace("seed = 1", "seed = 2")
            .replace("ram = \"64MiB\"", "ram = \"64MiB\"\nframe_scale = 128"),
    )
    .unwrap();
    let json = text(&reclaim(&["run", &one, "--variant", "after", "--json"]).stdout);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let last = &rows[8];
    assert_eq!(
        last[col("pgfault")],
        report["measured"]["pgfault"].to_string()
    );
    assert_eq!(
        last[col("pswpout")],
        report["measured"]["pswpout"].to_string()
    );
    // Parquet next to the CSV.
    let pq = std::fs::read(Path::new(&out_csv).with_extension("parquet")).unwrap();
    assert!(pq.starts_with(b"PAR1") && pq.ends_with(b"PAR1"));

    // One job writes the same table, byte for byte.
    let one_job = dir.file("one-job.csv");
    grid(&dir, &one_job, "1");
    assert_eq!(
        std::fs::read(&one_job).unwrap(),
        std::fs::read(&out_csv).unwrap()
    );
}

#[test]
fn a_sweep_resumes_where_it_stopped() {
    let dir = TempDir::new("resume");
    std::fs::write(dir.file("s.toml"), SCENARIO).unwrap();
    let full = dir.file("full.csv");
    grid(&dir, &full, "2");
    let full_text = std::fs::read_to_string(&full).unwrap();

    // Run again: nothing to do, the table is unchanged.
    let out = grid(&dir, &full, "2");
    assert!(
        text(&out.stdout).contains("8 runs: 0 ok, 0 failed, 8 already in the table"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&full).unwrap(), full_text);

    // A table cut after 3 rows and in the middle of the 4th (a stopped sweep).
    let part = dir.file("part.csv");
    let lines: Vec<&str> = full_text.lines().collect();
    let cut = format!("{}\n{}", lines[..4].join("\n"), &lines[4][..10]);
    std::fs::write(&part, cut).unwrap();
    let out = grid(&dir, &part, "2");
    assert!(
        text(&out.stdout).contains("8 runs: 4 ok, 1 failed, 3 already in the table"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(std::fs::read_to_string(&part).unwrap(), full_text);

    // A table of another grid is not mixed in.
    let other = reclaim(&[
        "sweep",
        &dir.file("s.toml"),
        "--set",
        "swappiness=0",
        "--out",
        &full,
        "--quiet",
    ]);
    assert_eq!(other.status.code(), Some(1));
    assert!(
        text(&other.stderr).contains("holds a table with other columns"),
        "{}",
        text(&other.stderr)
    );
}

#[test]
fn bad_grids_exit_2_naming_the_axis() {
    let dir = TempDir::new("bad");
    std::fs::write(dir.file("s.toml"), SCENARIO).unwrap();
    let scn = dir.file("s.toml");
    let out = reclaim(&[
        "sweep",
        &scn,
        "--set",
        "swap_device=disk,nvme9",
        "--out",
        &dir.file("x.csv"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("swap_device=nvme9") && err.contains("nvme9"),
        "{err}"
    );
    let out = reclaim(&["sweep", &scn, "--set", "swapiness=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown knob \"swapiness\""));
    let out = reclaim(&["sweep", &scn, "--variant", "nope"]);
    assert!(text(&out.stderr).contains("no variant \"nope\""));
    assert!(!Path::new(&dir.file("x.csv")).exists());
}

#[test]
fn a_sweep_file_names_the_scenario_axes_and_output() {
    let dir = TempDir::new("file");
    std::fs::write(dir.file("s.toml"), SCENARIO).unwrap();
    std::fs::write(
        dir.file("grid.toml"),
        "[sweep]\nscenario = \"s.toml\"\nvariants = [\"before\"]\nseeds = [3]\nout = \"g.csv\"\n[sweep.axes]\nswappiness = [0, 100]\n",
    )
    .unwrap();
    let out = reclaim(&[
        "sweep",
        &dir.file("grid.toml"),
        "--set",
        "dirty_ratio=20,40",
        "--no-parquet",
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows = csv_rows(&dir.file("g.csv"));
    assert_eq!(
        &rows[0][..4],
        ["variant", "seed", "swappiness", "dirty_ratio"]
    );
    assert_eq!(rows.len(), 1 + 4);
    assert!(rows[1..].iter().all(|r| r[0] == "before" && r[1] == "3"));
    let col = rows[0].iter().position(|c| c == "run_swappiness").unwrap();
    assert_eq!(rows[4][col], "100");
    assert!(!Path::new(&dir.file("g.parquet")).exists());
}

/// A run the engine's progress guard stops, and a run past `--max-cpu`, are rows with the
/// engine's message in the error column (exit 1); the rest of the grid runs.
#[test]
fn a_stalled_run_and_a_run_past_its_cpu_limit_are_rows_with_their_error() {
    let dir = TempDir::new("limits");
    // A sweep of `scenario` (with `extra` options) that exits 1: its first row.
    let failed_row = |scenario: &str, name: &str, extra: &[&str]| {
        let path = format!("{}/../{scenario}", env!("CARGO_MANIFEST_DIR"));
        let out_csv = dir.file(name);
        let mut args = vec![
            "sweep",
            path.as_str(),
            "--out",
            &out_csv,
            "--no-parquet",
            "--quiet",
        ];
        args.extend_from_slice(extra);
        let out = reclaim(&args);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let table = std::fs::read_to_string(&out_csv).unwrap();
        table.lines().nth(1).unwrap().to_string()
    };
    let row = failed_row("tests/hostile/stall-tasks.toml", "stall.csv", &[]);
    assert!(
        row.contains("MAX_STALLED_EVENTS") && row.contains("op tasks[4].program[2] (loop)"),
        "{row}"
    );
    let row = failed_row(
        "../scenarios/s000-thrash.toml",
        "cpu.csv",
        &["--max-cpu", "1ms"],
    );
    assert!(
        row.contains("CPU time limit of 0.001 s") && row.contains("--max-cpu"),
        "{row}"
    );
    let s000 = format!(
        "{}/../../scenarios/s000-thrash.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    let bad = reclaim(&["sweep", &s000, "--max-cpu", "soon"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--max-cpu soon"));
}

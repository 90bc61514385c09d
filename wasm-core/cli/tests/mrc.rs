//! `reclaim mrc` on the shipped traces (the CloudPhysics sample, the SQLite trace recorded on a
//! real kernel): their LRU and OPT columns equal libCacheSim's own on the same trace and sizes,
//! exactly (libCacheSim 0.3.5 in .venv-bench, which scripts/bootstrap installs); the CloudPhysics
//! trace as CSV gives the same table.
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reclaim(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_reclaim"))
        .args(args)
        .output()
        .expect("the reclaim binary runs");
    assert!(
        out.status.success(),
        "reclaim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("reclaim-mrc-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// The table's rows as (policy, variant, cache_pages, misses, miss_ratio).
fn rows(csv: &Path) -> Vec<(String, String, u64, u64, f64)> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "policy,variant,preset,cache_pages,cache_share,requests,footprint,misses,miss_ratio,error"
    );
    lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            assert_eq!(c[9], "", "a point failed: {l}");
            (
                c[0].to_string(),
                c[1].to_string(),
                c[3].parse().unwrap(),
                c[7].parse().unwrap(),
                c[8].parse().unwrap(),
            )
        })
        .collect()
}

/// `reclaim mrc` on `scenario` (in scenarios/traces/): 16 sizes of LRU, OPT and each of its
/// two variants, the LRU and OPT columns equal to libCacheSim's on `trace` (its reader, its
/// policies), and no policy under OPT.
fn equals_libcachesim(scenario: &str, trace: &str, requests: u64, footprint: u64) {
    let dir = temp(scenario);
    let csv = dir.join("mrc.csv");
    let scenario = root().join("scenarios/traces").join(scenario);
    reclaim(&[
        "mrc",
        scenario.to_str().unwrap(),
        "--out",
        csv.to_str().unwrap(),
        "--quiet",
    ]);
    let rows = rows(&csv);
    let column = |p: &str| -> Vec<(u64, f64)> {
        rows.iter()
            .filter(|r| r.0 == p)
            .map(|r| (r.2, r.4))
            .collect()
    };
    let (lru, opt) = (column("lru"), column("opt"));
    assert!(rows.iter().all(|r| r.2 <= footprint));
    assert_eq!(lru.len(), 16);
    assert_eq!(opt.len(), 16);
    assert_eq!(
        lru.last().unwrap().0,
        footprint,
        "the last size holds the footprint"
    );
    for v in ["classic", "mglru"] {
        assert_eq!(
            rows.iter().filter(|r| r.0 == "kernel" && r.1 == v).count(),
            16,
            "{v}"
        );
    }
    let python = root().join(".venv-bench/bin/python");
    assert!(
        python.exists(),
        "{} is missing: scripts/bootstrap installs libCacheSim there (npm test runs it)",
        python.display()
    );
    let mut args = vec![
        root()
            .join("scripts/mrc-libcachesim.py")
            .display()
            .to_string(),
        root()
            .join("scenarios/traces")
            .join(trace)
            .display()
            .to_string(),
    ];
    args.extend(lru.iter().map(|(s, _)| s.to_string()));
    let out = Command::new(&python).args(&args).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Each ratio comes as Python's repr: parse::<f64> reads it back to the same double (a JSON
    // number through serde_json may come back a bit off in the last place).
    let theirs = |p: &str| -> Vec<f64> {
        theirs[p]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().parse().unwrap())
            .collect()
    };
    // process_trace returns 1 - hits / requests: the same count of misses gives the same
    // float by that formula, bit for bit.
    let counts = |p: &str| -> Vec<u64> { rows.iter().filter(|r| r.0 == p).map(|r| r.3).collect() };
    let as_lcs = |misses: &[u64]| -> Vec<f64> {
        misses
            .iter()
            .map(|&m| 1.0 - (requests - m) as f64 / requests as f64)
            .collect()
    };
    assert_eq!(as_lcs(&counts("lru")), theirs("lru"), "LRU");
    assert_eq!(as_lcs(&counts("opt")), theirs("opt"), "OPT");
    assert!(rows.iter().all(|r| r.4 == r.3 as f64 / requests as f64));
    // OPT is the optimum: no policy misses less at any size.
    for r in &rows {
        let best = opt.iter().find(|o| o.0 == r.2).unwrap().1;
        assert!(r.4 >= best, "{r:?} below OPT {best}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lru_and_opt_equal_libcachesim_on_the_shipped_trace() {
    equals_libcachesim(
        "cloudphysics.toml",
        "cloudPhysicsIO.oracleGeneral.bin",
        113_872,
        48_974,
    );
}

/// The page-cache trace recorded on a real kernel (scripts/record-trace.py), in CSV: its
/// requests and distinct pages counted here from the file's lines, not copied from a run.
#[test]
fn lru_and_opt_equal_libcachesim_on_the_recorded_sqlite_trace() {
    let text = std::fs::read_to_string(root().join("scenarios/traces/sqlite-queries.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("time,id,size"));
    let ids: Vec<&str> = lines.map(|l| l.split(',').nth(1).unwrap()).collect();
    let pages = ids.iter().collect::<std::collections::HashSet<_>>().len() as u64;
    equals_libcachesim("sqlite.toml", "sqlite-queries.csv", ids.len() as u64, pages);
}

#[test]
fn the_trace_as_csv_gives_the_same_curves() {
    // OPT over CSV uses next requests computed from the ids; over oracleGeneral, the file's.
    let dir = temp("csv");
    let bin =
        std::fs::read(root().join("scenarios/traces/cloudPhysicsIO.oracleGeneral.bin")).unwrap();
    let mut text = String::from("time,id,size\n");
    for r in bin.chunks(24) {
        let t = u32::from_le_bytes(r[0..4].try_into().unwrap());
        let id = u64::from_le_bytes(r[4..12].try_into().unwrap());
        let size = u32::from_le_bytes(r[12..16].try_into().unwrap());
        text += &format!("{t},{id},{size}\n");
    }
    std::fs::write(dir.join("cp.csv"), text).unwrap();
    let scenario = std::fs::read_to_string(root().join("scenarios/traces/cloudphysics.toml"))
        .unwrap()
        .replace(
            r#"trace = "cloudPhysicsIO.oracleGeneral.bin", format = "oracleGeneral""#,
            r#"trace = "cp.csv", format = "csv""#,
        );
    assert!(scenario.contains("cp.csv"));
    std::fs::write(dir.join("cp.toml"), scenario).unwrap();
    for (name, file) in [
        ("bin", root().join("scenarios/traces/cloudphysics.toml")),
        ("csv", dir.join("cp.toml")),
    ] {
        let out = dir.join(format!("{name}.csv"));
        reclaim(&[
            "mrc",
            file.to_str().unwrap(),
            "--points",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--no-parquet",
            "--quiet",
        ]);
    }
    assert_eq!(rows(&dir.join("bin.csv")), rows(&dir.join("csv.csv")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_trace_over_the_budget_is_refused_before_it_is_read() {
    // A sparse file one byte over MAX_TRACE_BYTES: refused by its length, at once.
    let dir = temp("budget");
    let scenario = std::fs::read_to_string(root().join("scenarios/traces/cloudphysics.toml"))
        .unwrap()
        .replace("cloudPhysicsIO.oracleGeneral.bin", "big.bin");
    std::fs::write(dir.join("big.toml"), scenario).unwrap();
    let f = std::fs::File::create(dir.join("big.bin")).unwrap();
    f.set_len(reclaim_core::scenario::budget::MAX_TRACE_BYTES + 1)
        .unwrap();
    let t = std::time::Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_reclaim"))
        .args(["run", dir.join("big.toml").to_str().unwrap()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("trace \"big.bin\" is 268435457 bytes") && err.contains("MAX_TRACE_BYTES"),
        "{err}"
    );
    assert!(t.elapsed().as_secs() < 5, "{:?}", t.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

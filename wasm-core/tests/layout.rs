//! The engine's layout rules (issue #22): the kernel model (`src/mm/`) never names the
//! simulation, and each of its files opens by naming what of Linux it mirrors.
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn mm_files() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/mm"),
        &mut files,
    );
    assert!(files.len() > 20, "src/mm has {} files", files.len());
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// Code of a file without its comments and its test module (tests may build a whole simulation).
fn code(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]\nmod tests").next().unwrap();
    text.lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_kernel_model_never_names_the_simulation() {
    let mut offenders = Vec::new();
    for (p, text) in mm_files() {
        let code = code(&text);
        for word in ["crate::sim", "sim::", "Simulation", "reclaim_core::sim"] {
            if code.contains(word) {
                offenders.push(format!("{} names {word}", p.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn dependencies_run_one_way() {
    // The model takes flags and devices, not the scenario file or what the page draws; the
    // flag table and the device models sit below the model and know neither it, the
    // simulation nor the scenario format (which builds devices from its specs).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut lower = Vec::new();
    rust_files(&root.join("variant"), &mut lower);
    rust_files(&root.join("devices"), &mut lower);
    lower.push(root.join("variant.rs"));
    lower.push(root.join("math.rs"));
    let mut offenders = Vec::new();
    for p in lower {
        let code = code(&std::fs::read_to_string(&p).unwrap());
        for word in ["crate::mm", "crate::sim", "Simulation", "crate::scenario"] {
            if code.contains(word) {
                offenders.push(format!("{} names {word}", p.display()));
            }
        }
    }
    for (p, text) in mm_files() {
        let code = code(&text);
        for word in ["crate::scenario", "crate::views", "crate::report"] {
            if code.contains(word) {
                offenders.push(format!("{} names {word}", p.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_views_read_the_model_not_the_simulation() {
    // views.rs and views/ build what the page draws from `&Mm` (issue #46 §3): the simulation
    // uses them, never the other way round.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![root.join("views.rs")];
    rust_files(&root.join("views"), &mut files);
    assert!(files.len() >= 4, "views.rs and views/: {files:?}");
    let mut offenders = Vec::new();
    for p in files {
        let code = code(&std::fs::read_to_string(&p).unwrap());
        for word in ["crate::sim", "Simulation"] {
            if code.contains(word) {
                offenders.push(format!("{} names {word}", p.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn the_check_sees_a_file_that_names_the_simulation() {
    // The check above must be able to fail: the same scan over a line that uses the simulation.
    assert!(code("use crate::sim::events::Event;\n").contains("crate::sim"));
    assert!(!code("// crate::sim in a comment\n").contains("crate::sim"));
}

#[test]
fn every_mm_file_names_the_linux_file_it_mirrors() {
    for (p, text) in mm_files() {
        let head: String = text.lines().take_while(|l| l.starts_with("//!")).collect();
        assert!(
            head.contains(".c") || head.contains(".h") || head.contains("mm/"),
            "{}: its opening comment names no Linux file",
            p.display()
        );
    }
}

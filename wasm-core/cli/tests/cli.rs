//! The `reclaim` binary: exit codes and messages for bad input, and the `presets` listing.
use std::path::PathBuf;
use std::process::{Command, Output};

fn reclaim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reclaim"))
        .args(args)
        .output()
        .expect("the reclaim binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scenario file in the temp dir, unique to this process and test, removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path =
            std::env::temp_dir().join(format!("reclaim-cli-{}-{name}.toml", std::process::id()));
        std::fs::write(&path, text).expect("temp file written");
        TempFile(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

const SCENARIO: &str = r#"title = "cli test"
[machine]
ram = "64MiB"
[[variants]]
name = "before"
preset = "linux-5.2"
[[tasks]]
name = "t"
program = [{ op = "anon", name = "a", size = "1MiB" }]
[run]
duration = "1s"
"#;

#[test]
fn a_bad_scenario_exits_2_naming_file_line_and_field() {
    let file = TempFile::new(
        "bad",
        &SCENARIO.replace(r#"ram = "64MiB""#, r#"ram = "64 parsecs""#),
    );
    let out = reclaim(&["run", file.path()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "{}:3:7: machine.ram: unknown size unit",
            file.path()
        )),
        "{err}"
    );
    assert!(stdout(&out).is_empty());
}

#[test]
fn a_semantic_error_exits_2_with_its_line() {
    let file = TempFile::new(
        "semantic",
        &SCENARIO.replace(r#"preset = "linux-5.2""#, r#"preset = "linux-0.1""#),
    );
    let out = reclaim(&["compare", file.path()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("{}:6:10: variants[0].preset:", file.path())),
        "{err}"
    );
    assert!(err.contains("linux-5.8"), "{err}");
}

#[test]
fn an_unknown_variant_exits_2_listing_the_variants() {
    let file = TempFile::new("variant", SCENARIO);
    let out = reclaim(&["run", file.path(), "--variant", "after"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no variant \"after\"; its variants: before"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unreadable_file_exits_2() {
    let missing =
        std::env::temp_dir().join(format!("reclaim-cli-{}-missing.toml", std::process::id()));
    let missing = missing.to_str().unwrap();
    let out = reclaim(&["run", missing]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!("reclaim: cannot read {missing}: ")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_unknown_command_prints_usage_and_exits_2() {
    let out = reclaim(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("unknown command `frobnicate`") && err.contains("usage:"),
        "{err}"
    );
    let out = reclaim(&[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("usage:"));
}

#[test]
fn presets_lists_the_kernels() {
    let out = reclaim(&["presets"]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    assert!(
        text.contains("linux-5.2") && text.contains("linux-5.8"),
        "{text}"
    );
    assert!(text.contains("io_cost_balance"), "{text}");
}

#[test]
fn help_and_version_exit_0() {
    let out = reclaim(&["help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("reclaim run FILE"));
    let out = reclaim(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out).trim(),
        format!("reclaim {}", reclaim_core::VERSION)
    );
}

#[test]
fn compare_json_carries_the_expectations_verdicts() {
    let text = SCENARIO.replace(
        "[[tasks]]",
        r#"[[variants]]
name = "after"
preset = "linux-5.8"
[[expect]]
text = "the run has run"
checks = [{ metric = "virtual_s", min = 0.0 }]
[[expect]]
text = "after swaps twice as much (nothing swaps: no figure)"
checks = [{ metric = "pswpout", variant = "after", over = "before", min = 2.0 }]
[[expect]]
text = "words only"
[[tasks]]"#,
    );
    let file = TempFile::new("verdicts", &text);
    let out = reclaim(&["compare", file.path(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON on stdout");
    let variants = doc["variants"].as_array().expect("variants");
    assert_eq!(variants.len(), 2);
    let verdicts = doc["verdicts"].as_array().expect("verdicts");
    assert_eq!(verdicts.len(), 3, "{doc}");
    assert_eq!(verdicts[0]["text"], "the run has run");
    assert_eq!(verdicts[0]["met"], true, "{doc}");
    let check = &verdicts[0]["checks"][0];
    // The default variant is the last; its figure is the one in its report.
    assert_eq!(check["variant"], "after");
    assert_eq!(check["figure"], variants[1]["virtual_s"], "{doc}");
    assert_eq!(verdicts[1]["met"], false);
    assert!(
        verdicts[1]["checks"][0]["figure"].is_null(),
        "0 / 0 has no figure"
    );
    assert!(
        verdicts[2]["met"].is_null(),
        "an expectation without checks has no verdict"
    );
    assert!(doc["headline"].is_array(), "{doc}");
    // The text form prints the same verdicts.
    let out = reclaim(&["compare", file.path()]);
    let text = stdout(&out);
    assert!(
        text.contains("[met]") && text.contains("[NOT met]"),
        "{text}"
    );
}

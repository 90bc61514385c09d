//! Lesson steps (`[[lesson]]`): a good lesson parses into its steps; each kind of mistake is
//! reported at its line, naming the field; the lessons shipped in scenarios/ are valid.
mod common;
use common::{replace_checked, ScenarioBuilder};
use reclaim_core::scenario::{parse, ScenarioError, View};

/// A 4 s run of one task on 32 MiB, without lesson steps.
fn base() -> String {
    with_steps("")
}

const STEPS: &str = r#"
[[lesson]]
at = "0s"
caption = "  First the task faults its memory in.  "

[[lesson]]
at = "1.5s"
caption = "Now watch the lists."
pause = true
highlight = "lru"

[[lesson]]
at = "3s"
caption = "The balance view."
highlight = "balance"
"#;

fn with_steps(steps: &str) -> String {
    ScenarioBuilder::new("lesson test")
        .ram("32MiB")
        .variant("only", "linux-5.8")
        .task(
            "t",
            r#"[
  { op = "anon", name = "a", size = "8MiB" },
  { op = "touch", regions = ["a"], write = true },
]"#,
        )
        .duration("4s")
        .tail(steps)
        .toml()
}

fn error(text: &str) -> ScenarioError {
    match parse(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
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

/// The error is at the line of `at`, names `field`, and says each of `words`.
fn assert_error(steps: &str, at: &str, field: &str, words: &[&str]) {
    let text = with_steps(steps);
    let e = error(&text);
    let shown = e.to_string();
    assert_eq!(e.line, line_of(&text, at), "wrong line in: {shown}");
    assert_eq!(e.field, field, "wrong field in: {shown}");
    for word in words {
        assert!(shown.contains(word), "{word:?} missing from: {shown}");
    }
}

#[test]
fn a_lesson_parses_into_its_steps() {
    let s = parse(&with_steps(STEPS)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.lesson.len(), 3);
    assert_eq!(s.lesson[0].at.ns(), 0);
    assert!(s.lesson[0].caption.starts_with("  First"));
    assert!(!s.lesson[0].pause);
    assert_eq!(s.lesson[0].highlight, None);
    assert_eq!(s.lesson[1].at.ns(), 1_500_000_000);
    assert!(s.lesson[1].pause);
    assert_eq!(s.lesson[1].highlight, Some(View::Lru));
    assert_eq!(s.lesson[2].highlight.map(View::name), Some("balance"));
}

#[test]
fn a_scenario_without_lesson_has_no_steps() {
    let s = parse(&base()).unwrap_or_else(|e| panic!("{e}"));
    assert!(s.lesson.is_empty());
}

#[test]
fn every_view_name_is_accepted() {
    for name in ["lru", "balance", "charts", "diff", "results"] {
        let steps = format!("[[lesson]]\nat = \"1s\"\ncaption = \"x\"\nhighlight = \"{name}\"\n");
        let s = parse(&with_steps(&steps)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.lesson[0].highlight.map(View::name), Some(name));
    }
}

#[test]
fn steps_out_of_time_order_are_errors() {
    let steps = replace_checked(STEPS, r#"at = "3s""#, r#"at = "1s""#);
    assert_error(
        &steps,
        r#"at = "1s""#,
        "lesson[2].at",
        &["time order", "step 3 is at 1s", "step 2 at 1.5s"],
    );
    // Two steps at the same time: the second caption would hide the first at once.
    let steps = replace_checked(STEPS, r#"at = "3s""#, r#"at = "1500ms""#);
    assert_error(&steps, r#"at = "1500ms""#, "lesson[2].at", &["time order"]);
}

#[test]
fn steps_outside_the_run_are_errors() {
    let steps = replace_checked(STEPS, r#"at = "3s""#, r#"at = "4s""#);
    assert_error(
        &steps,
        r#"at = "4s""#,
        "lesson[2].at",
        &["not inside the run", "4s"],
    );
    let steps = replace_checked(STEPS, r#"at = "0s""#, r#"at = "-1s""#);
    assert_error(
        &steps,
        r#"at = "-1s""#,
        "lesson[0].at",
        &["expected a number with a unit", "-1s"],
    );
}

#[test]
fn unknown_highlights_list_the_views() {
    let steps = replace_checked(
        STEPS,
        r#"highlight = "balance""#,
        r#"highlight = "lruview""#,
    );
    assert_error(
        &steps,
        r#"highlight = "lruview""#,
        "lesson[2].highlight",
        &[
            "unknown variant `lruview`",
            "lru",
            "balance",
            "charts",
            "diff",
            "results",
        ],
    );
}

#[test]
fn empty_captions_are_errors() {
    for empty in [r#""""#, r#""   ""#] {
        let steps = replace_checked(STEPS, r#""The balance view.""#, empty);
        let at = format!("caption = {empty}");
        assert_error(&steps, &at, "lesson[2].caption", &["must not be empty"]);
    }
    // A step without a caption at all.
    let steps = replace_checked(STEPS, "caption = \"The balance view.\"\n", "");
    let e = error(&with_steps(&steps));
    assert!(e.to_string().contains("missing field `caption`"), "{e}");
}

#[test]
fn captions_longer_than_the_limit_are_errors() {
    let limit = reclaim_core::scenario::lesson::MAX_CAPTION_CHARS;
    // Characters, not bytes: a caption of exactly the limit in two-byte letters is fine.
    let fits = "é".repeat(limit);
    let steps = replace_checked(STEPS, "The balance view.", &fits);
    parse(&with_steps(&steps)).unwrap_or_else(|e| panic!("{e}"));
    let long = "x".repeat(limit + 1);
    let steps = replace_checked(STEPS, "The balance view.", &long);
    assert_error(
        &steps,
        &long,
        "lesson[2].caption",
        &[
            &format!("{} characters", limit + 1),
            &format!("at most {limit}"),
        ],
    );
}

#[test]
fn unknown_fields_and_wrong_types_are_errors() {
    let steps = replace_checked(STEPS, "pause = true", "pasue = true");
    assert_error(
        &steps,
        "pasue",
        "lesson[1]",
        &["unknown field `pasue`", "pause"],
    );
    let steps = replace_checked(STEPS, "pause = true", r#"pause = "yes""#);
    assert_error(&steps, r#"pause = "yes""#, "lesson[1].pause", &["bool"]);
    let steps = replace_checked(STEPS, r#"at = "1.5s""#, r#"at = "1.5 parsecs""#);
    assert_error(&steps, "parsecs", "lesson[1].at", &["unknown time unit"]);
}

#[test]
fn too_many_steps_are_an_error() {
    let limit = reclaim_core::scenario::lesson::MAX_STEPS;
    let steps: String = (0..=limit)
        .map(|i| {
            format!(
                "[[lesson]]\nat = \"{}ms\"\ncaption = \"step {i}\"\n",
                i * 10
            )
        })
        .collect();
    let e = error(&with_steps(&steps));
    assert!(
        e.to_string().contains(&format!("at most {limit} steps")),
        "{e}"
    );
}

/// Every scenario shipped with a lesson parses, and its captions are plain sentences.
#[test]
fn shipped_lessons_are_valid() {
    let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut with_lesson = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
    {
        let text = std::fs::read_to_string(path).unwrap();
        let s = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if s.lesson.is_empty() {
            continue;
        }
        for step in &s.lesson {
            assert!(
                !step.caption.contains('<'),
                "{}: markup in a caption: {}",
                path.display(),
                step.caption
            );
        }
        with_lesson.push(path.file_name().unwrap().to_string_lossy().into_owned());
    }
    for want in [
        "lesson-two-list-lru.toml",
        "lesson-refault-distance.toml",
        "lesson-swappiness.toml",
        "s000-thrash.toml",
        "s001-used-once.toml",
        "s001b-worst-case.toml",
        "s002-kswapd-writeback.toml",
        "s004-pgbench.toml",
        "s004b-parallelio.toml",
        "s003-memcg-lru.toml",
        "s003b-recency.toml",
        "s003b-noreuse.toml",
    ] {
        assert!(
            with_lesson.iter().any(|n| n == want),
            "{want} has no lesson; lessons in: {with_lesson:?}"
        );
    }
}

#[test]
fn facts_since_need_an_earlier_since() {
    let fact = r#"facts_since = [{ metric = "pgfault", above = 0.0 }]"#;
    // Valid: since before at, with facts over the change.
    let ok = STEPS.replace(
        "highlight = \"balance\"",
        &format!("highlight = \"balance\"\nsince = \"1s\"\n{fact}"),
    );
    let s = parse(&with_steps(&ok)).unwrap();
    assert_eq!(s.lesson[2].since.map(|d| d.ns()), Some(1_000_000_000));
    assert_eq!(s.lesson[2].facts_since.len(), 1);
    // since at or after the step's time.
    let late = STEPS.replace(
        "highlight = \"balance\"",
        &format!("highlight = \"balance\"\nsince = \"3s\"\n{fact}"),
    );
    assert_error(
        &late,
        r#"since = "3s""#,
        "lesson[2].since",
        &["before the step's at = 3s"],
    );
    // facts_since without since, since without facts_since.
    let orphan = STEPS.replace(
        "highlight = \"balance\"",
        &format!("highlight = \"balance\"\n{fact}"),
    );
    assert_error(
        &orphan,
        "facts_since",
        "lesson[2].facts_since",
        &["since = "],
    );
    let bare = STEPS.replace(
        "highlight = \"balance\"",
        "highlight = \"balance\"\nsince = \"1s\"",
    );
    assert_error(&bare, r#"since = "1s""#, "lesson[2].since", &["has none"]);
    // A fact names a metric the engine knows.
    let unknown = ok.replace("pgfault", "pgfalt");
    assert_error(
        &unknown,
        "pgfalt",
        "lesson[2].facts_since[0].metric",
        &["unknown metric 'pgfalt'"],
    );
}

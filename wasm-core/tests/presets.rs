//! Every kernel preset, flag by flag. The matrix below is the presets as they were defined by
//! hand (positional constructors in the old kernel/variant.rs) when the flag table replaced them; it
//! pins them so that deriving presets from each flag's kernel version changes no value. A row
//! reads as a timeline: columns are the presets in `PRESETS` order. The two 6.12 columns came
//! later, written from the kernel check (variant/flags.rs): 6.3's flags plus 6.4's pgfault
//! accounting, 6.7's two MGLRU fixes and 6.8/6.9's memory.reclaim batches; not 6.14's rework.
//! The `mglru_retry_clean` and `mglru_retry_counts_twice` rows (6.2's put-back, 6.11's fix
//! of it) came later too, and so did the 6.18 and 7.3 columns and the rows of 6.15-6.17
//! (`proactive_counters`, `swappiness_anon_only`, `mglru_proportional_protection`), written
//! from the 7.3 tree and the 6.18 boot (variant/flags.rs), `laptop_mode_ignored` and
//! `mglru_fault_referenced` (after 6.18, by 7.3), and `mglru_set_refs_counts` (by 7.3; 6.18
//! not read).
//!
//! `every_mark_follows_its_flags_date` checks the matrix against the flag table's dates with
//! its own reading of versions, so a flag whose date moves and a mark written by hand that
//! contradicts its date both fail here.
use reclaim_core::variant::flags::{Era, FLAG_DOCS};
use reclaim_core::variant::{preset, FLAG_NAMES, PRESETS, RFC_2016};

/// The presets, in `PRESETS` order: one column each below.
const COLUMNS: &[&str] = &[
    "linux-2.6.33",
    "linux-2.6.34",
    "linux-4.7",
    "rfc-2016-lru-cost",
    "linux-4.10",
    "linux-4.11",
    "linux-5.2",
    "linux-5.3",
    "linux-5.7",
    "linux-5.8",
    "linux-6.1",
    "linux-6.1-mglru",
    "linux-6.3",
    "linux-6.3-mglru",
    "linux-6.12",
    "linux-6.12-mglru",
    "linux-6.14-mglru",
    "linux-6.18",
    "linux-6.18-mglru",
    "linux-7.3",
    "linux-7.3-mglru",
];

/// 'x': the preset turns the flag on; '.': off.
#[rustfmt::skip]
const ROWS: &[(&str, &str)] = &[
    //                                 2.6.33
    //                                 |2.6.34
    //                                 ||4.7
    //                                 |||rfc-2016-lru-cost
    //                                 ||||4.10
    //                                 |||||4.11
    //                                 ||||||5.2
    //                                 |||||||5.3
    //                                 ||||||||5.7
    //                                 |||||||||5.8
    //                                 ||||||||||6.1
    //                                 |||||||||||6.1-mglru
    //                                 ||||||||||||6.3
    //                                 |||||||||||||6.3-mglru
    //                                 ||||||||||||||6.12
    //                                 |||||||||||||||6.12-mglru
    //                                 ||||||||||||||||6.14-mglru
    //                                 |||||||||||||||||6.18
    //                                 ||||||||||||||||||6.18-mglru
    //                                 |||||||||||||||||||7.3
    //                                 ||||||||||||||||||||7.3-mglru
    ("refault_scan_anon",             ".......xxxxxxxxxxxxxx"),
    ("scan_decisions_per_node",       "........xxxxxxxxxxxxx"),
    ("io_cost_balance",               ".........xxxxxxxxxxxx"),
    ("anon_workingset",               "..........xxxxxxxxxxx"),
    ("rotation_cost",                 "............xxxxxxxxx"),
    ("used_once_mapped",              ".xxxxxxxxxxxxxxxxxxxx"),
    ("activate_shared_exec",          "..xxxxxxxxxxxxxxxxxxx"),
    ("kswapd_writeback_4_11",         ".....xxxxxxxxxxxxxxxx"),
    ("pgdat_flags_per_node",          "......xxxxxxxxxxxxxxx"),
    ("file_writeback_kswapd_only",    "..xxxxxxxxxxxxxxxxxxx"),
    ("lru_gen",                       "...........x.x.xx.x.x"),
    ("mglru_retry_clean",             "............xxxxxxxxx"),
    ("mglru_retry_counts_twice",      "..............xxxxxxx"),
    ("mglru_activate_at_refault",     "..............xxxxxxx"),
    ("memcg_lru",                     "............xxxxxxxxx"),
    ("mglru_proactive_walk",          "............xxxxxxxxx"),
    ("mglru_look_around_activate",    "............xxxxxxxxx"),
    ("mglru_look_around_self_cleared", "..............xxxxxxx"),
    ("vma_has_recency",               "............xxxxxxxxx"),
    ("mglru_rework",                  "................xxxxx"),
    ("memcg_lru_gen_once",            "..............xxxxxxx"),
    ("reclaim_batch_cluster",         "..............xxxxxxx"),
    ("reclaim_batch_quarter",         "..............xxxxxxx"),
    ("memcg_incremental_walk",        "..............xxxxxxx"),
    ("proactive_counters",            ".................xxxx"),
    ("swappiness_anon_only",          ".................xxxx"),
    ("mglru_proportional_protection", ".................xxxx"),
    ("laptop_mode_ignored",           "...................xx"),
    ("mglru_fault_referenced",        "...................xx"),
    ("mglru_set_refs_counts",         "...................xx"),
    ("swap_ra_adaptive",              "..xxxxxxxxxxxxxxxxxxx"),
    ("swap_vma_readahead",            "......xxxxxxxxxxxxxxx"),
    ("swapin_activate",               "....xxxxxxxxxxxxxxxxx"),
    ("fault_retry",                   "..xxxxxxxxxxxxxxxxxxx"),
    ("mmap_readaround_async",         "..xxxxxxxxxxxxxxxxxxx"),
    ("filemap_fault_drop_mmap",       "......xxxxxxxxxxxxxxx"),
    ("pgfault_retry_uncounted",       "..............xxxxxxx"),
    ("write_no_activation",           "..xxxxxxxxxxxxxxxxxxx"),
    ("watermark_scale_factor",        "..xxxxxxxxxxxxxxxxxxx"),
    ("workingset_detection",          "..xxxxxxxxxxxxxxxxxxx"),
    ("inactive_ratio_by_list_size",   "..xxxxxxxxxxxxxxxxxxx"),
    ("plenty_file_rule",              "..xxxxxxxxxxxxxxxxxxx"),
    ("scan_fraction_exact",           "..xxxxxxxxxxxxxxxxxxx"),
    ("swappiness_zero_strict",        "..xxxxxxxxxxxxxxxxxxx"),
    ("tiny_file_anon_checks",         "......xxxxxxxxxxxxxxx"),
    ("refault_deactivate_file",       "......xxxxxxxxxxxxxxx"),
    ("shmem_inactive_first",          "..xxxxxxxxxxxxxxxxxxx"),
    ("kswapd_reclaim_3_11",           "..xxxxxxxxxxxxxxxxxxx"),
    ("anon_aging_needs_swap",         "..xxxxxxxxxxxxxxxxxxx"),
    ("eviction_clock_read_first",     "..........xxxxxxxxxxx"),
    ("mglru_protect_saturated",       "..............xxxxxxx"),
    ("rfc2016_swappiness",            "...x................."),
    ("rfc2016_lru_cost",              "...x................."),
    ("rfc2016_refault_cost",          "...x................."),
];

/// vm.swappiness's upper bound per preset, in `COLUMNS` order ('1': 100, '2': 200).
const SWAPPINESS_CAP: &str = "111211111222222222222";

#[test]
fn the_presets_are_the_matrix_flag_by_flag() {
    let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
    assert_eq!(
        names, COLUMNS,
        "a preset was added, removed or moved: update the matrix"
    );
    let rows: Vec<&str> = ROWS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        rows, FLAG_NAMES,
        "a flag was added, removed or moved: update the matrix"
    );
    let mut wrong = Vec::new();
    for (flag, marks) in ROWS {
        assert_eq!(marks.len(), COLUMNS.len(), "{flag}: one mark per preset");
        for (col, mark) in COLUMNS.iter().zip(marks.chars()) {
            let want = match mark {
                'x' => true,
                '.' => false,
                _ => panic!("{flag}: mark {mark:?} is neither 'x' nor '.'"),
            };
            let got = preset(col).unwrap().flags.get(flag).unwrap();
            if got != want {
                wrong.push(format!("{col} {flag}: {got}, matrix says {want}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "presets differ from the matrix:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn swappiness_caps_follow_the_flags() {
    assert_eq!(SWAPPINESS_CAP.len(), COLUMNS.len());
    for (col, mark) in COLUMNS.iter().zip(SWAPPINESS_CAP.chars()) {
        let want = match mark {
            '1' => 100,
            '2' => 200,
            _ => panic!("{col}: cap mark {mark:?} is neither '1' nor '2'"),
        };
        assert_eq!(preset(col).unwrap().flags.max_swappiness(), want, "{col}");
    }
}

/// "6.18" -> [6, 18, 0]: the test's own reading of a version, apart from the engine's `kver`.
fn version_parts(v: &str) -> Vec<u32> {
    let mut p: Vec<u32> = v
        .split('.')
        .map(|x| x.parse().unwrap_or_else(|_| panic!("bad version {v:?}")))
        .collect();
    p.resize(3, 0);
    p
}

/// What a column's name says: its mainline version, MGLRU on, the 2016 series applied.
fn column_kernel(col: &str) -> (Vec<u32>, bool, bool) {
    if col == "rfc-2016-lru-cost" {
        return (version_parts("4.7"), false, true);
    }
    let rest = col
        .strip_prefix("linux-")
        .expect("a column is linux-<version>[-mglru]");
    let (v, mglru) = match rest.strip_suffix("-mglru") {
        Some(v) => (v, true),
        None => (rest, false),
    };
    (version_parts(v), mglru, false)
}

#[test]
fn every_mark_follows_its_flags_date() {
    let mut wrong = Vec::new();
    for (flag, marks) in ROWS {
        let doc = FLAG_DOCS
            .iter()
            .find(|d| d.name == *flag)
            .unwrap_or_else(|| panic!("{flag}: not in the flag table"));
        for (col, mark) in COLUMNS.iter().zip(marks.chars()) {
            let (v, mglru, rfc) = column_kernel(col);
            let dated = match doc.era {
                Era::Since(s) => version_parts(s) <= v,
                Era::Switch(s) => mglru && version_parts(s) <= v,
                Era::Series { series, .. } => rfc && series == RFC_2016,
            };
            if dated != (mark == 'x') {
                wrong.push(format!(
                    "{col} {flag}: marked {mark:?}, but the flag is dated {} ({:?})",
                    doc.version(),
                    doc.era
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "marks against dates:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_changed_date_is_caught() {
    // The check above can fail: 6.17's flag, read as 6.19, contradicts the 6.18 columns.
    let (v618, _, _) = column_kernel("linux-6.18");
    assert!(version_parts("6.17") <= v618);
    assert!(!(version_parts("6.19") <= v618));
    assert!(
        version_parts("6.9") < version_parts("6.12"),
        "numeric, not textual"
    );
}

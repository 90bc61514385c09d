//! Every kernel preset, flag by flag. The matrix below is the presets as they were defined by
//! hand (positional constructors in the old kernel/variant.rs) when the flag table replaced them; it
//! pins them so that deriving presets from each flag's kernel version changes no value. A row
//! reads as a timeline: columns are the presets in `PRESETS` order. The two 6.12 columns came
//! later, written from the kernel check (variant/flags.rs): 6.3's flags plus 6.4's pgfault
//! accounting, 6.7's two MGLRU fixes and 6.8/6.9's memory.reclaim batches; not 6.14's rework.
//! The `mglru_retry_clean` and `mglru_retry_counts_twice` rows (6.2's put-back, 6.11's fix
//! of it) came later too.
use reclaim_core::variant::{preset, FLAG_NAMES, PRESETS};

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
    ("refault_scan_anon",             ".......xxxxxxxxxx"),
    ("scan_decisions_per_node",       "........xxxxxxxxx"),
    ("io_cost_balance",               ".........xxxxxxxx"),
    ("anon_workingset",               "..........xxxxxxx"),
    ("rotation_cost",                 "............xxxxx"),
    ("used_once_mapped",              ".xxxxxxxxxxxxxxxx"),
    ("activate_shared_exec",          "..xxxxxxxxxxxxxxx"),
    ("kswapd_writeback_4_11",         ".....xxxxxxxxxxxx"),
    ("pgdat_flags_per_node",          "......xxxxxxxxxxx"),
    ("file_writeback_kswapd_only",    "..xxxxxxxxxxxxxxx"),
    ("lru_gen",                       "...........x.x.xx"),
    ("mglru_retry_clean",             "............xxxxx"),
    ("mglru_retry_counts_twice",      "..............xxx"),
    ("memcg_lru",                     "............xxxxx"),
    ("vma_has_recency",               "............xxxxx"),
    ("mglru_rework",                  "................x"),
    ("memcg_lru_gen_once",            "..............xxx"),
    ("reclaim_batch_cluster",         "..............xxx"),
    ("reclaim_batch_quarter",         "..............xxx"),
    ("swap_ra_adaptive",              "..xxxxxxxxxxxxxxx"),
    ("swap_vma_readahead",            "......xxxxxxxxxxx"),
    ("swapin_activate",               "....xxxxxxxxxxxxx"),
    ("fault_retry",                   "..xxxxxxxxxxxxxxx"),
    ("filemap_fault_drop_mmap",       "......xxxxxxxxxxx"),
    ("pgfault_retry_uncounted",       "..............xxx"),
    ("write_no_activation",           "..xxxxxxxxxxxxxxx"),
    ("watermark_scale_factor",        "..xxxxxxxxxxxxxxx"),
    ("workingset_detection",          "..xxxxxxxxxxxxxxx"),
    ("inactive_ratio_by_list_size",   "..xxxxxxxxxxxxxxx"),
    ("plenty_file_rule",              "..xxxxxxxxxxxxxxx"),
    ("scan_fraction_exact",           "..xxxxxxxxxxxxxxx"),
    ("swappiness_zero_strict",        "..xxxxxxxxxxxxxxx"),
    ("tiny_file_anon_checks",         "......xxxxxxxxxxx"),
    ("refault_deactivate_file",       "......xxxxxxxxxxx"),
    ("shmem_inactive_first",          "..xxxxxxxxxxxxxxx"),
    ("kswapd_reclaim_3_11",           "..xxxxxxxxxxxxxxx"),
    ("anon_aging_needs_swap",         "..xxxxxxxxxxxxxxx"),
    ("eviction_clock_read_first",     "..........xxxxxxx"),
    ("mglru_protect_saturated",       "..............xxx"),
    ("rfc2016_swappiness",            "...x............."),
    ("rfc2016_lru_cost",              "...x............."),
    ("rfc2016_refault_cost",          "...x............."),
];

/// vm.swappiness's upper bound per preset, in `COLUMNS` order ('1': 100, '2': 200).
const SWAPPINESS_CAP: &str = "11121111122222222";

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

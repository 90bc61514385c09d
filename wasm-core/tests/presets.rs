//! Every kernel preset, flag by flag. The matrix below is the presets as they were defined by
//! hand (positional constructors in kernel/variant.rs) when the flag table replaced them; it
//! pins them so that deriving presets from each flag's kernel version changes no value. A row
//! reads as a timeline: columns are the presets in `PRESETS` order.
use reclaim_core::kernel::variant::{preset, FLAG_NAMES, PRESETS};

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
    //                                 ||||||||||||||6.14-mglru
    ("refault_scan_anon",             ".......xxxxxxxx"),
    ("scan_decisions_per_node",       "........xxxxxxx"),
    ("io_cost_balance",               ".........xxxxxx"),
    ("anon_workingset",               "..........xxxxx"),
    ("rotation_cost",                 "............xxx"),
    ("used_once_mapped",              ".xxxxxxxxxxxxxx"),
    ("activate_shared_exec",          "..xxxxxxxxxxxxx"),
    ("kswapd_writeback_4_11",         ".....xxxxxxxxxx"),
    ("pgdat_flags_per_node",          "......xxxxxxxxx"),
    ("file_writeback_kswapd_only",    "..xxxxxxxxxxxxx"),
    ("lru_gen",                       "...........x.xx"),
    ("memcg_lru",                     "............xxx"),
    ("vma_has_recency",               "............xxx"),
    ("mglru_rework",                  "..............x"),
    ("memcg_lru_gen_once",            "..............x"),
    ("reclaim_batch_cluster",         "..............x"),
    ("reclaim_batch_quarter",         "..............x"),
    ("swap_ra_adaptive",              "..xxxxxxxxxxxxx"),
    ("swap_vma_readahead",            "......xxxxxxxxx"),
    ("swapin_activate",               "....xxxxxxxxxxx"),
    ("fault_retry",                   "..xxxxxxxxxxxxx"),
    ("filemap_fault_drop_mmap",       "......xxxxxxxxx"),
    ("pgfault_retry_uncounted",       "..............x"),
    ("write_no_activation",           "..xxxxxxxxxxxxx"),
    ("watermark_scale_factor",        "..xxxxxxxxxxxxx"),
    ("workingset_detection",          "..xxxxxxxxxxxxx"),
    ("inactive_ratio_by_list_size",   "..xxxxxxxxxxxxx"),
    ("plenty_file_rule",              "..xxxxxxxxxxxxx"),
    ("scan_fraction_exact",           "..xxxxxxxxxxxxx"),
    ("swappiness_zero_strict",        "..xxxxxxxxxxxxx"),
    ("tiny_file_anon_checks",         "......xxxxxxxxx"),
    ("refault_deactivate_file",       "......xxxxxxxxx"),
    ("shmem_inactive_first",          "..xxxxxxxxxxxxx"),
    ("kswapd_reclaim_3_11",           "..xxxxxxxxxxxxx"),
    ("anon_aging_needs_swap",         "..xxxxxxxxxxxxx"),
    ("eviction_clock_read_first",     "..........xxxxx"),
    ("mglru_protect_saturated",       "..............x"),
    ("rfc2016_swappiness",            "...x..........."),
    ("rfc2016_lru_cost",              "...x..........."),
    ("rfc2016_refault_cost",          "...x..........."),
];

/// vm.swappiness's upper bound per preset, in `COLUMNS` order ('1': 100, '2': 200).
const SWAPPINESS_CAP: &str = "111211111222222";

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

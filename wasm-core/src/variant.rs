//! Kernel variants: every behaviour a seed patch changed is a named flag (variant/flags.rs, one
//! table); a preset is a kernel version, and its flags are every flag of that version or older.
//!
//! Presets are mainline behaviour at a tag; stable backports are not modelled.
pub mod flag_docs;
pub mod flags;

pub use flags::{Flags, Kernel, FLAG_NAMES, RFC_2016};

/// A named kernel: its version, and the flags it has.
#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
    /// The kernel it stands for.
    pub kernel: Kernel,
    /// `Flags::of(kernel)`: every flag whose version is at most the kernel's, MGLRU's switch
    /// when the kernel turns it on, a posted series' flags when it applies one.
    pub flags: Flags,
}

impl Preset {
    const fn new(name: &'static str, description: &'static str, kernel: Kernel) -> Preset {
        Preset {
            name,
            description,
            kernel,
            flags: Flags::of(kernel),
        }
    }
}

/// Mainline at `version`, classic LRU.
const fn linux(version: &'static str) -> Kernel {
    Kernel {
        version,
        lru_gen: false,
        series: None,
    }
}

/// Mainline at `version` with the multi-gen LRU switched on.
const fn mglru(version: &'static str) -> Kernel {
    Kernel {
        lru_gen: true,
        ..linux(version)
    }
}

pub const PRESETS: &[Preset] = &[
    Preset::new(
        "linux-2.6.33",
        "2.6.33: referenced mapped file pages activated on first inactive encounter",
        linux("2.6.33"),
    ),
    Preset::new(
        "linux-2.6.34",
        "2.6.34: used-once detection of mapped file pages",
        linux("2.6.34"),
    ),
    // The engine's LRU is per node as from 4.8; 4.7's were per zone (docs/model.md).
    Preset::new(
        "linux-4.7",
        "4.7: scanned/rotated balancing, swappiness <= 100, swap-ins stay inactive",
        linux("4.7"),
    ),
    Preset::new(
        "rfc-2016-lru-cost",
        "NOT MAINLINE: 4.7 + the June 2016 posting of 'balance LRU lists based on relative thrashing' (seed 004's kernel)",
        Kernel {
            series: Some(RFC_2016),
            ..linux("4.7")
        },
    ),
    Preset::new(
        "linux-4.10",
        "4.10: kswapd writes dirty pages in LRU order; laptop mode skips dirty pages",
        linux("4.10"),
    ),
    Preset::new(
        "linux-4.11",
        "4.11: flushers woken on dirty lumps; kswapd writes only pages seen twice",
        linux("4.11"),
    ),
    Preset::new(
        "linux-5.2",
        "4.12-5.2 rules: refaults deactivate file but do not unlock anon",
        linux("5.2"),
    ),
    Preset::new(
        "linux-5.3",
        "5.3: file refaults also let get_scan_count scan anon",
        linux("5.3"),
    ),
    Preset::new(
        "linux-5.7",
        "5.7: per-node scan decisions; scan/rotate balancing; swappiness <= 100",
        linux("5.7"),
    ),
    Preset::new(
        "linux-5.8",
        "5.8: IO-cost balancing, swappiness up to 200",
        linux("5.8"),
    ),
    Preset::new(
        "linux-6.1",
        "6.1 classic LRU: anon workingset protection and anon shadows",
        linux("6.1"),
    ),
    Preset::new(
        "linux-6.1-mglru",
        "6.1 with the multi-gen LRU enabled: memcgs shrunk in turn",
        mglru("6.1"),
    ),
    Preset::new(
        "linux-6.3",
        "6.3 classic LRU: rotation cost, recency hints (vma_has_recency)",
        linux("6.3"),
    ),
    Preset::new(
        "linux-6.3-mglru",
        "6.3 multi-gen LRU with the memcg LRU and recency hints",
        mglru("6.3"),
    ),
    // The 6.12 LTS: the 6.1-6.13 MGLRU rules with the 6.7 fixes, memory.reclaim in quarters;
    // which flags 6.12 has is argued per flag in variant/flags.rs.
    Preset::new(
        "linux-6.12",
        "6.12 LTS classic LRU: 6.3's rules, memory.reclaim in quarters, pgfault counted once",
        linux("6.12"),
    ),
    Preset::new(
        "linux-6.12-mglru",
        "6.12 LTS multi-gen LRU: the 6.1-6.13 rules with 6.7's memcg LRU and page cache fixes",
        mglru("6.12"),
    ),
    Preset::new(
        "linux-6.14-mglru",
        "6.14 multi-gen LRU after the Dec-2024 rework of tiers, types and refaults",
        mglru("6.14"),
    ),
    // The 6.18 LTS and 7.3: 6.12's rules plus 6.14's MGLRU rework and what changed since in
    // what the engine models (flags dated 6.15-6.17); what the 7.3 tree changed and the engine
    // does not model is listed in docs/model.md ("Kernels since 6.12").
    Preset::new(
        "linux-6.18",
        "6.18 LTS classic LRU: proactive-reclaim counters, memory.reclaim swappiness=max",
        linux("6.18"),
    ),
    Preset::new(
        "linux-6.18-mglru",
        "6.18 LTS multi-gen LRU: 6.14's rework, proportional memory.low/min protection",
        mglru("6.18"),
    ),
    Preset::new(
        "linux-7.3",
        "7.3 classic LRU (Debian 7.3.4): 6.18's modelled rules; see docs/model.md for what is not modelled",
        linux("7.3"),
    ),
    Preset::new(
        "linux-7.3-mglru",
        "7.3 multi-gen LRU (Debian 7.3.4): 6.18's modelled rules; see docs/model.md for what is not modelled",
        mglru("7.3"),
    ),
];

/// Look a preset up by name; `Err` lists the known names.
pub fn preset(name: &str) -> Result<&'static Preset, String> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        format!(
            "unknown kernel preset {name:?}; known presets: {}",
            PRESETS
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

/// Flags of a preset with overrides applied.
pub fn resolve(
    preset_name: &str,
    overrides: &std::collections::BTreeMap<String, bool>,
) -> Result<Flags, String> {
    let mut flags = preset(preset_name)?.flags;
    for (k, v) in overrides {
        flags.set(k, *v)?;
    }
    Ok(flags)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn presets_differ_in_the_seed_flags() {
        let a = preset("linux-5.2").unwrap().flags;
        let b = preset("linux-5.3").unwrap().flags;
        assert_eq!(
            Flags {
                refault_scan_anon: true,
                ..a
            },
            b
        );
        let c = preset("linux-5.7").unwrap().flags;
        let d = preset("linux-5.8").unwrap().flags;
        assert_eq!(
            Flags {
                io_cost_balance: true,
                ..c
            },
            d
        );
        assert_eq!(c.max_swappiness(), 100);
        assert_eq!(d.max_swappiness(), 200);
    }
    #[test]
    fn old_presets_differ_in_one_seed_flag() {
        let a = preset("linux-2.6.33").unwrap().flags;
        let b = preset("linux-2.6.34").unwrap().flags;
        assert_eq!(
            Flags {
                used_once_mapped: true,
                ..a
            },
            b
        );
        let c = preset("linux-4.10").unwrap().flags;
        let d = preset("linux-4.11").unwrap().flags;
        assert_eq!(
            Flags {
                kswapd_writeback_4_11: true,
                ..c
            },
            d
        );
        assert_eq!(a, Flags::default());
        for p in ["linux-5.2", "linux-5.8", "linux-6.1"] {
            let f = preset(p).unwrap().flags;
            assert!(f.used_once_mapped && f.activate_shared_exec && f.kswapd_writeback_4_11);
            assert!(f.pgdat_flags_per_node && f.file_writeback_kswapd_only);
        }
        for n in FLAG_NAMES {
            let mut x = Flags::default();
            x.set(n, true).unwrap();
            assert_eq!(x.get(n), Some(true));
        }
    }
    #[test]
    fn the_2016_series_is_4_7_plus_its_own_flags() {
        let v = preset("linux-4.7").unwrap().flags;
        let p = preset("rfc-2016-lru-cost").unwrap().flags;
        assert_eq!(
            Flags {
                rfc2016_swappiness: true,
                rfc2016_lru_cost: true,
                rfc2016_refault_cost: true,
                ..v
            },
            p
        );
        assert_eq!((v.max_swappiness(), p.max_swappiness()), (100, 200));
        // 4.7 is 4.10 without 4.8's swap-in activation; no mainline preset has the 2016 flags.
        let k410 = preset("linux-4.10").unwrap().flags;
        assert_eq!(
            Flags {
                swapin_activate: true,
                ..v
            },
            k410
        );
        for q in PRESETS.iter().filter(|q| q.name.starts_with("linux-")) {
            let f = q.flags;
            assert!(!f.rfc2016_swappiness && !f.rfc2016_lru_cost && !f.rfc2016_refault_cost);
        }
    }
    #[test]
    fn names_say_the_kernel() {
        for p in PRESETS {
            let k = p.kernel;
            let name = match k.series {
                Some(RFC_2016) => "rfc-2016-lru-cost".to_string(),
                Some(s) => panic!("{}: no name for series {s}", p.name),
                None => format!(
                    "linux-{}{}",
                    k.version,
                    if k.lru_gen { "-mglru" } else { "" }
                ),
            };
            assert_eq!(p.name, name);
            assert_eq!(p.flags, Flags::of(k), "{}", p.name);
            assert_eq!(p.flags.lru_gen, k.lru_gen, "{}", p.name);
        }
    }

    #[test]
    fn the_6_12_lts_is_6_14_without_the_mglru_rework() {
        let lts = preset("linux-6.12-mglru").unwrap().flags;
        let new = preset("linux-6.14-mglru").unwrap().flags;
        assert_eq!(
            Flags {
                mglru_rework: true,
                ..lts
            },
            new
        );
        assert_eq!(
            Flags {
                lru_gen: true,
                ..preset("linux-6.12").unwrap().flags
            },
            lts
        );
    }

    #[test]
    fn the_7_3_presets_are_6_18_and_the_flags_after_6_18() {
        // 7.3 is 6.18 plus the flags dated after 6.18 (docs/kernels-6.18-7.3.md lists what else
        // 7.3 changes and why it is not modelled yet); a new one must change this test.
        for (a, b) in [
            ("linux-6.18", "linux-7.3"),
            ("linux-6.18-mglru", "linux-7.3-mglru"),
        ] {
            assert_eq!(
                Flags {
                    laptop_mode_ignored: true,
                    mglru_fault_referenced: true,
                    mglru_set_refs_counts: true,
                    ..preset(a).unwrap().flags
                },
                preset(b).unwrap().flags,
                "{a} vs {b}"
            );
        }
        let lts = preset("linux-6.12-mglru").unwrap().flags;
        let new = preset("linux-6.18-mglru").unwrap().flags;
        assert_eq!(
            Flags {
                mglru_rework: true,
                proactive_counters: true,
                swappiness_anon_only: true,
                mglru_proportional_protection: true,
                ..lts
            },
            new
        );
    }

    #[test]
    fn unknown_names_are_errors() {
        assert!(preset("linux-9.9").unwrap_err().contains("linux-5.8"));
        let mut o = std::collections::BTreeMap::new();
        o.insert("nope".to_string(), true);
        assert!(resolve("linux-5.2", &o)
            .unwrap_err()
            .contains("refault_scan_anon"));
    }
}

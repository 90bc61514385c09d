//! Kernel variants: every behaviour a seed patch changed is a named flag; presets name sets of flags.
//!
//! A flag is `false` for the kernel before the change and `true` after it. Presets are mainline
//! behaviour at a tag; stable backports are not modelled.

/// Behaviour flags. Each names the kernel version and function whose behaviour it switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
    /// Seed 000, 5.3 (`inactive_list_is_low`, "mm: vmscan: scan anonymous pages on file refaults"):
    /// a refault activation since the last reclaim run makes the file list "low" for every caller,
    /// including `get_scan_count`, so the "only evict file pages when we have plenty" shortcut
    /// (3.8) no longer locks anon out of reclaim while the page cache thrashes. Before (4.12-5.2)
    /// only the deactivation path (`actual_reclaim`) saw refaults.
    pub refault_scan_anon: bool,
    /// 5.5 (`shrink_node`, later `prepare_scan_control`): the deactivation, cache-trim and
    /// tiny-file decisions are taken once per `shrink_node` pass from the reclaim root, instead
    /// of by `inactive_list_is_low` at every `shrink_list` call.
    pub scan_decisions_per_node: bool,
    /// Seed 004, 5.8 ("mm: balance LRU lists based on relative thrashing"): `get_scan_count`
    /// balances by `anon_cost`/`file_cost` (refault restores, swap-ins and pageouts, decayed at
    /// lru size / 4, `lru_note_cost`) instead of `recent_scanned`/`recent_rotated`; swappiness
    /// may be set up to 200 (100 before: larger writes are refused); the refault distance is
    /// compared against active file + anon (`workingset_refault`); swap-ins are charged as anon
    /// cost; `nonresident_age` also ages on anon and reclaim activations.
    pub io_cost_balance: bool,
    /// 5.9 ("mm: workingset: age nonresident information alongside anonymous pages" and
    /// "mm: vmscan: protect the workingset on anonymous LRU"): new anon pages start inactive;
    /// anon pages need two references like file pages (`page_check_references`); evicted swap
    /// cache pages leave shadow entries and anon refaults are activated by distance; swap-in no
    /// longer activates unconditionally nor charges cost.
    pub anon_workingset: bool,
    /// 6.2 ("mm: vmscan: make rotations a secondary factor in balancing anon vs file"):
    /// `lru_note_cost` charges pageouts at SWAP_CLUSTER_MAX each plus rotations at 1 each.
    pub rotation_cost: bool,
}

/// Names of the flags, as written in scenario files (`flags = { refault_scan_anon = true }`).
pub const FLAG_NAMES: &[&str] = &[
    "refault_scan_anon",
    "scan_decisions_per_node",
    "io_cost_balance",
    "anon_workingset",
    "rotation_cost",
];

impl Flags {
    /// Set a flag by name; `Err` lists the known names.
    pub fn set(&mut self, name: &str, value: bool) -> Result<(), String> {
        let slot = match name {
            "refault_scan_anon" => &mut self.refault_scan_anon,
            "scan_decisions_per_node" => &mut self.scan_decisions_per_node,
            "io_cost_balance" => &mut self.io_cost_balance,
            "anon_workingset" => &mut self.anon_workingset,
            "rotation_cost" => &mut self.rotation_cost,
            _ => {
                return Err(format!(
                    "unknown kernel flag {name:?}; known flags: {}",
                    FLAG_NAMES.join(", ")
                ))
            }
        };
        *slot = value;
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<bool> {
        Some(match name {
            "refault_scan_anon" => self.refault_scan_anon,
            "scan_decisions_per_node" => self.scan_decisions_per_node,
            "io_cost_balance" => self.io_cost_balance,
            "anon_workingset" => self.anon_workingset,
            "rotation_cost" => self.rotation_cost,
            _ => return None,
        })
    }

    /// The largest value `vm.swappiness` accepts (kernel/sysctl.c `extra2`).
    pub fn max_swappiness(&self) -> u32 {
        if self.io_cost_balance {
            200
        } else {
            100
        }
    }
}

/// A named kernel: a set of flags.
#[derive(Debug)]
pub struct Preset {
    pub name: &'static str,
    pub description: &'static str,
    pub flags: Flags,
}

const fn f(
    refault_scan_anon: bool,
    per_node: bool,
    io_cost: bool,
    anon_ws: bool,
    rot: bool,
) -> Flags {
    Flags {
        refault_scan_anon,
        scan_decisions_per_node: per_node,
        io_cost_balance: io_cost,
        anon_workingset: anon_ws,
        rotation_cost: rot,
    }
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "linux-5.2",
        description: "4.12-5.2 rules: refaults deactivate file but do not unlock anon",
        flags: f(false, false, false, false, false),
    },
    Preset {
        name: "linux-5.3",
        description: "5.3: file refaults also let get_scan_count scan anon",
        flags: f(true, false, false, false, false),
    },
    Preset {
        name: "linux-5.7",
        description: "5.7: per-node scan decisions; scan/rotate balancing; swappiness <= 100",
        flags: f(true, true, false, false, false),
    },
    Preset {
        name: "linux-5.8",
        description: "5.8: IO-cost balancing, swappiness up to 200",
        flags: f(true, true, true, false, false),
    },
    Preset {
        name: "linux-6.1",
        description: "6.1 classic LRU: anon workingset protection and anon shadows",
        flags: f(true, true, true, true, false),
    },
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
    fn unknown_names_are_errors() {
        assert!(preset("linux-9.9").unwrap_err().contains("linux-5.8"));
        let mut o = std::collections::BTreeMap::new();
        o.insert("nope".to_string(), true);
        assert!(resolve("linux-5.2", &o)
            .unwrap_err()
            .contains("refault_scan_anon"));
    }
}

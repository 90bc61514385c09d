//! What the interface shows about each behaviour flag, exported as JSON for the web page's
//! per-flag toggles: the flag table's entries (variant/flags.rs: version, function, commit, one
//! line of what it switches; the full story is the flag's doc comment there) and every preset's
//! values.
pub use super::flags::{FlagDoc, FLAG_DOCS};
use super::{Flags, FLAG_NAMES, PRESETS};
use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

/// A run's or a preset's flags, every flag by name (`FLAG_NAMES` order).
pub type FlagValues = BTreeMap<String, bool>;

/// One behaviour flag as the page lists it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct FlagInfo {
    pub name: String,
    /// The kernel version (or posted series) whose behaviour `true` follows.
    pub version: String,
    /// The kernel function(s) whose behaviour it switches.
    pub function: String,
    /// The mainline commit (abbreviated hash), "" when not known.
    pub commit: String,
    /// One line: what turning the flag on changes.
    pub doc: String,
}

/// One kernel preset with its flag values.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct PresetInfo {
    pub name: String,
    pub description: String,
    pub flags: FlagValues,
}

/// What the engine says about its kernels: every flag (in `FLAG_NAMES` order) and every preset.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
pub struct KernelInfo {
    pub flags: Vec<FlagInfo>,
    pub presets: Vec<PresetInfo>,
}

/// Every flag of `f` by name (the wasm facade reports a run's flags this way).
pub fn flag_values(f: &Flags) -> FlagValues {
    FLAG_NAMES
        .iter()
        .map(|n| (n.to_string(), f.get(n).unwrap_or(false)))
        .collect()
}

pub fn kernel_info() -> KernelInfo {
    KernelInfo {
        flags: FLAG_DOCS
            .iter()
            .map(|d| FlagInfo {
                name: d.name.to_string(),
                version: d.version(),
                function: d.function.to_string(),
                commit: d.commit.to_string(),
                doc: d.doc.to_string(),
            })
            .collect(),
        presets: PRESETS
            .iter()
            .map(|p| PresetInfo {
                name: p.name.to_string(),
                description: p.description.to_string(),
                flags: flag_values(&p.flags),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_has_exactly_one_doc_and_every_doc_a_flag() {
        let names: Vec<&str> = FLAG_DOCS.iter().map(|d| d.name).collect();
        assert_eq!(names, FLAG_NAMES);
        for n in FLAG_NAMES {
            let docs: Vec<_> = FLAG_DOCS.iter().filter(|d| d.name == *n).collect();
            assert_eq!(
                docs.len(),
                1,
                "flag {n} needs exactly one entry in FLAG_DOCS"
            );
            assert!(
                !docs[0].version().is_empty()
                    && !docs[0].doc.is_empty()
                    && !docs[0].function.is_empty(),
                "{n}"
            );
            assert!(!docs[0].doc.contains('\n'), "{n}: the doc is one line");
        }
        for d in FLAG_DOCS {
            assert!(
                FLAG_NAMES.contains(&d.name),
                "FLAG_DOCS names an unknown flag {}",
                d.name
            );
        }
    }

    #[test]
    fn kernel_info_lists_each_preset_with_its_values() {
        let info = kernel_info();
        assert_eq!(info.flags.len(), FLAG_NAMES.len());
        assert_eq!(info.flags[0].name, FLAG_NAMES[0]);
        assert_eq!(info.presets.len(), PRESETS.len());
        for (p, j) in PRESETS.iter().zip(&info.presets) {
            assert_eq!(j.name, p.name);
            assert_eq!(j.flags.len(), FLAG_NAMES.len());
            for n in FLAG_NAMES {
                assert_eq!(j.flags.get(*n).copied(), p.flags.get(n), "{} {n}", p.name);
            }
        }
        // The two seed presets of 5.7/5.8 differ exactly in io_cost_balance here too.
        let get = |name: &str| &info.presets.iter().find(|j| j.name == name).unwrap().flags;
        let (a, b) = (get("linux-5.7"), get("linux-5.8"));
        let differ: Vec<&String> = a.keys().filter(|k| a[*k] != b[*k]).collect();
        assert_eq!(differ, vec!["io_cost_balance"]);
    }
}

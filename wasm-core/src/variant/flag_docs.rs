//! What the interface shows about each behaviour flag: the kernel version that changed it and
//! one line of what it switches (the full story is the flag's doc comment in `variant.rs`),
//! and every preset's values; exported as JSON for the web page's per-flag toggles.
use crate::variant::{Flags, FLAG_NAMES, PRESETS};

/// One flag as the interface lists it.
#[derive(Debug)]
pub struct FlagDoc {
    pub name: &'static str,
    /// The mainline version whose behaviour `true` follows.
    pub version: &'static str,
    /// One line: what turning the flag on changes.
    pub doc: &'static str,
}

/// One entry per name of `FLAG_NAMES`, in the same order (a test checks both ways).
pub const FLAG_DOCS: &[FlagDoc] = &[
    FlagDoc {
        name: "refault_scan_anon",
        version: "5.3",
        doc: "file refaults also let get_scan_count scan anon (no file-only lock-out while the cache thrashes)",
    },
    FlagDoc {
        name: "scan_decisions_per_node",
        version: "5.5",
        doc: "deactivation and cache-trim decisions taken once per shrink_node pass, not per list",
    },
    FlagDoc {
        name: "io_cost_balance",
        version: "5.8",
        doc: "get_scan_count balances by IO cost (refaults, swap-ins, pageouts); swappiness up to 200",
    },
    FlagDoc {
        name: "anon_workingset",
        version: "5.9",
        doc: "new anon pages start inactive; anon refaults are detected by shadow entries",
    },
    FlagDoc {
        name: "rotation_cost",
        version: "6.2",
        doc: "lru_note_cost charges pageouts at SWAP_CLUSTER_MAX and rotations at 1 each",
    },
    FlagDoc {
        name: "used_once_mapped",
        version: "2.6.34",
        doc: "a mapped file page referenced once is kept one more trip, not activated at once",
    },
    FlagDoc {
        name: "activate_shared_exec",
        version: "3.3",
        doc: "file pages young in several mappings or in an executable mapping are activated at once",
    },
    FlagDoc {
        name: "kswapd_writeback_4_11",
        version: "4.11",
        doc: "flushers woken on dirty batches; kswapd writes only dirty pages it has seen twice",
    },
    FlagDoc {
        name: "pgdat_flags_per_node",
        version: "4.16",
        doc: "kswapd sets the node's dirty/writeback flags and throttles once per shrink_node pass",
    },
    FlagDoc {
        name: "file_writeback_kswapd_only",
        version: "3.2",
        doc: "only kswapd writes dirty file pages from reclaim; direct reclaim leaves them",
    },
    FlagDoc {
        name: "lru_gen",
        version: "6.1",
        doc: "the multi-generational LRU replaces the active/inactive lists (generations, tiers, aging walks)",
    },
    FlagDoc {
        name: "memcg_lru",
        version: "6.3",
        doc: "MGLRU root reclaim picks memcgs from the memcg LRU and stops as soon as the goal is met",
    },
    FlagDoc {
        name: "vma_has_recency",
        version: "6.3",
        doc: "MADV_RANDOM and FADV_NOREUSE mappings: accessed bits ignored, faults not recent (both LRUs)",
    },
    FlagDoc {
        name: "mglru_rework",
        version: "6.14",
        doc: "MGLRU rework: placement by distance, workingset after 4 fd accesses, all-tier type choice",
    },
    FlagDoc {
        name: "memcg_lru_gen_once",
        version: "6.7",
        doc: "memcg LRU: three generation slots; shrink_many reads the old generation once per call",
    },
    FlagDoc {
        name: "reclaim_batch_cluster",
        version: "6.8",
        doc: "memory.reclaim asks for at most SWAP_CLUSTER_MAX pages per call, not the whole remainder",
    },
    FlagDoc {
        name: "reclaim_batch_quarter",
        version: "6.9",
        doc: "memory.reclaim asks for a quarter of the remainder per call",
    },
    FlagDoc {
        name: "swap_ra_adaptive",
        version: "3.14",
        doc: "the swap readahead window grows with readahead hits and shrinks to one page without them",
    },
    FlagDoc {
        name: "swap_vma_readahead",
        version: "4.14",
        doc: "private anon reads ahead by address in its mapping, not by slot; on zram/pmem alone, freeing its slot",
    },
    FlagDoc {
        name: "swapin_activate",
        version: "4.8",
        doc: "a private anon page faulted back from swap (or found in the swap cache) is activated",
    },
    FlagDoc {
        name: "fault_retry",
        version: "2.6.37",
        doc: "a file or private anon fault that finds its page locked for a read returns VM_FAULT_RETRY and is faulted again",
    },
    FlagDoc {
        name: "filemap_fault_drop_mmap",
        version: "5.1",
        doc: "a file fault that reads drops the mmap lock for the IO and retries, even after a synchronous (pmem) read",
    },
    FlagDoc {
        name: "pgfault_retry_uncounted",
        version: "6.4",
        doc: "pgfault counts a fault once; before, every retry of a fault counted again",
    },
    FlagDoc {
        name: "write_no_activation",
        version: "4.7",
        doc: "a buffered write no longer marks its page accessed, so pages that are only written are not activated",
    },
    FlagDoc {
        name: "watermark_scale_factor",
        version: "4.6",
        doc: "watermark gaps scale with memory (vm.watermark_scale_factor), not only min/4",
    },
    FlagDoc {
        name: "workingset_detection",
        version: "3.15",
        doc: "evicted file pages leave shadow entries; a refault within the active file list's size is activated",
    },
    FlagDoc {
        name: "inactive_ratio_by_list_size",
        version: "4.7",
        doc: "inactive ratio from the lists' own sizes for anon and file (file was 1:1, anon by zone size)",
    },
    FlagDoc {
        name: "plenty_file_rule",
        version: "3.8",
        doc: "scan file only while the inactive file list is not low (only evict file pages when there is plenty)",
    },
    FlagDoc {
        name: "scan_fraction_exact",
        version: "2.6.35",
        doc: "scan fractions kept exact instead of rounded down to whole percents",
    },
    FlagDoc {
        name: "swappiness_zero_strict",
        version: "3.5",
        doc: "weights swappiness and 200 - swappiness without the +1, so swappiness 0 gives anon no share",
    },
    FlagDoc {
        name: "tiny_file_anon_checks",
        version: "4.13",
        doc: "file + free below high forces anon-only scanning only if inactive anon is not low and large enough",
    },
    FlagDoc {
        name: "refault_deactivate_file",
        version: "4.12",
        doc: "refault activations since the last reclaim run let active file pages be deactivated whatever the ratio",
    },
    FlagDoc {
        name: "shmem_inactive_first",
        version: "2.6.35",
        doc: "new shmem and tmpfs pages start on the inactive anon list instead of the active one",
    },
    FlagDoc {
        name: "kswapd_reclaim_3_11",
        version: "3.11",
        doc: "kswapd reclaims to the high watermark per pass, scans rescale at the goal, writeback pages are tagged and throttle; before, no goal, restarts and HZ/10 naps",
    },
    FlagDoc {
        name: "anon_aging_needs_swap",
        version: "2.6.36",
        doc: "active anon is aged only when swap exists; before, kswapd aged it whenever the inactive anon list was low",
    },
    FlagDoc {
        name: "eviction_clock_read_first",
        version: "5.18",
        doc: "workingset_eviction records the nonresident clock before aging it (5.8-5.17 aged first: distances one smaller)",
    },
    FlagDoc {
        name: "mglru_protect_saturated",
        version: "6.7",
        doc: "MGLRU: folios with saturated fd refs (refs == 4) are protected by sort_folio and counted; new inactive folios placed one generation younger",
    },
    FlagDoc {
        name: "rfc2016_swappiness",
        version: "RFC 2016 01/10",
        doc: "not mainline (June 2016 posting): vm.swappiness accepts up to 200 (kernel/sysctl.c)",
    },
    FlagDoc {
        name: "rfc2016_lru_cost",
        version: "RFC 2016 07/10",
        doc: "not mainline: get_scan_count balances by lru_note_cost's numer/denom (no floor, decay at 1/8 LRU); rotations cost 1 (05, 06, 08, 09/10)",
    },
    FlagDoc {
        name: "rfc2016_refault_cost",
        version: "RFC 2016 10/10",
        doc: "not mainline: restored file refaults and every swap-in cost 32 (__pagevec_lru_add_fn); distance vs active file + anon; refault_* counters",
    },
];

fn flags_json(f: &Flags) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    for n in FLAG_NAMES {
        m.insert(
            (*n).to_string(),
            serde_json::Value::Bool(f.get(n).unwrap_or(false)),
        );
    }
    serde_json::Value::Object(m)
}

/// `{flags: [{name, version, doc}], presets: [{name, description, flags: {name: bool}}]}`.
pub fn kernel_info() -> serde_json::Value {
    let flags: Vec<serde_json::Value> = FLAG_NAMES
        .iter()
        .map(|n| {
            let d = FLAG_DOCS.iter().find(|d| d.name == *n);
            serde_json::json!({
                "name": n,
                "version": d.map_or("", |d| d.version),
                "doc": d.map_or("", |d| d.doc),
            })
        })
        .collect();
    let presets: Vec<serde_json::Value> = PRESETS
        .iter()
        .map(|p| serde_json::json!({"name": p.name, "description": p.description, "flags": flags_json(&p.flags)}))
        .collect();
    serde_json::json!({"flags": flags, "presets": presets})
}

/// Every flag of `f` by name (the wasm facade reports a run's flags this way).
pub fn flag_values(f: &Flags) -> serde_json::Value {
    flags_json(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_has_exactly_one_doc_and_every_doc_a_flag() {
        for n in FLAG_NAMES {
            let docs: Vec<_> = FLAG_DOCS.iter().filter(|d| d.name == *n).collect();
            assert_eq!(
                docs.len(),
                1,
                "flag {n} needs exactly one entry in FLAG_DOCS"
            );
            assert!(
                !docs[0].version.is_empty() && !docs[0].doc.is_empty(),
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
        assert_eq!(info["flags"].as_array().unwrap().len(), FLAG_NAMES.len());
        assert_eq!(info["flags"][0]["name"], FLAG_NAMES[0]);
        let presets = info["presets"].as_array().unwrap();
        assert_eq!(presets.len(), PRESETS.len());
        for (p, j) in PRESETS.iter().zip(presets) {
            assert_eq!(j["name"], p.name);
            for n in FLAG_NAMES {
                assert_eq!(j["flags"][n].as_bool(), p.flags.get(n), "{} {n}", p.name);
            }
        }
        // The two seed presets of 5.7/5.8 differ exactly in io_cost_balance here too.
        let get = |name: &str| presets.iter().find(|j| j["name"] == name).unwrap()["flags"].clone();
        let (a, b) = (get("linux-5.7"), get("linux-5.8"));
        let differ: Vec<&String> = a
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| a[*k] != b[*k])
            .collect();
        assert_eq!(differ, vec!["io_cost_balance"]);
    }
}

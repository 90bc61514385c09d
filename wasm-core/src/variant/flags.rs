//! The behaviour flags, in one table. Each flag is written once below, with its long story (a
//! doc comment), the mainline version whose behaviour `true` follows, the kernel function and
//! commit, and one line for the interface. The struct `Flags`, `FLAG_NAMES`, `Flags::set` and
//! `Flags::get`, `Flags::NONE`, `FLAG_DOCS` (the page's flag list, through `kernel_info`) and
//! every preset (`Flags::of`, variant.rs) come from it.
//!
//! A flag is `false` for the kernel before the change and `true` after it, so the oldest kernel
//! modelled has every flag off; a behaviour a later kernel dropped is named for what replaced it
//! (`eviction_clock_read_first`, not "eviction_clock_aged_first").

/// The June 2016 posting of "mm: balance LRU lists based on relative thrashing" (10 patches,
/// on v4.7-rc), whose pgbench table is seed 004; never merged.
pub const RFC_2016: &str = "RFC 2016";

/// Which kernels have a flag's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Mainline from this tag on: on in every preset of that version or later.
    Since(&'static str),
    /// Mainline from this tag on, behind a switch (CONFIG_LRU_GEN_ENABLED, sysfs): on only in
    /// the presets that turn it on (the `-mglru` ones) from that version on.
    Switch(&'static str),
    /// Not mainline: one patch (`part`) of a posted series, on only in presets built on it.
    Series {
        series: &'static str,
        part: &'static str,
    },
}
use Era::{Series, Since, Switch};

impl Era {
    /// Whether `kernel` has this behaviour.
    pub const fn on_in(&self, kernel: &Kernel) -> bool {
        match *self {
            Since(v) => kver(v) <= kver(kernel.version),
            Switch(v) => kernel.lru_gen && kver(v) <= kver(kernel.version),
            Series { series, .. } => match kernel.series {
                Some(s) => same(s, series),
                None => false,
            },
        }
    }

    /// The version as the interface shows it: "2.6.34", "RFC 2016 07/10".
    pub fn version(&self) -> String {
        match *self {
            Since(v) | Switch(v) => v.to_string(),
            Series { series, part } => format!("{series} {part}"),
        }
    }
}

/// A kernel as a preset names it: a mainline tag, whether the multi-gen LRU is switched on,
/// and a posted series applied on top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernel {
    pub version: &'static str,
    pub lru_gen: bool,
    pub series: Option<&'static str>,
}

/// "2.6.34" -> 2_006_034; a malformed version fails the build (presets are constants).
pub const fn kver(v: &str) -> u32 {
    let b = v.as_bytes();
    let mut parts = [0u32; 3];
    let (mut i, mut k, mut digits) = (0, 0, 0);
    while i < b.len() {
        let c = b[i];
        if c == b'.' {
            assert!(digits > 0 && k < 2, "a kernel version is N.N or N.N.N");
            k += 1;
            digits = 0;
        } else {
            assert!(c.is_ascii_digit(), "a kernel version is N.N or N.N.N");
            parts[k] = parts[k] * 10 + (c - b'0') as u32;
            digits += 1;
        }
        i += 1;
    }
    assert!(digits > 0 && k >= 1, "a kernel version is N.N or N.N.N");
    assert!(
        parts[1] < 1000 && parts[2] < 1000,
        "a kernel version part is below 1000"
    );
    (parts[0] * 1000 + parts[1]) * 1000 + parts[2]
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// One flag as the table states it (and the interface lists it).
#[derive(Debug)]
pub struct FlagDoc {
    pub name: &'static str,
    /// Which kernels have the behaviour `true` follows.
    pub era: Era,
    /// The kernel function(s) whose behaviour it switches.
    pub function: &'static str,
    /// The mainline commit (abbreviated hash) where it is known, else "" (the doc comment names
    /// the patch).
    pub commit: &'static str,
    /// One line: what turning the flag on changes.
    pub doc: &'static str,
}

impl FlagDoc {
    /// The version as the interface shows it (see `Era::version`).
    pub fn version(&self) -> String {
        self.era.version()
    }
}

/// Writes the struct, the names, the docs, `set`, `get`, `NONE` and `of` from one list.
macro_rules! flag_table {
    ($(
        $(#[$attr:meta])*
        $name:ident {
            era: $era:expr,
            function: $function:expr,
            commit: $commit:expr,
            doc: $doc:expr $(,)?
        }
    )*) => {
        /// Behaviour flags. Each names the kernel version and function whose behaviour it switches.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct Flags {
            $($(#[$attr])* pub $name: bool,)*
        }

        /// Names of the flags, as written in scenario files (`flags = { refault_scan_anon = true }`).
        pub const FLAG_NAMES: &[&str] = &[$(stringify!($name)),*];

        /// Every flag's entry of the table, in `FLAG_NAMES` order.
        pub const FLAG_DOCS: &[FlagDoc] = &[$(FlagDoc {
            name: stringify!($name),
            era: $era,
            function: $function,
            commit: $commit,
            doc: $doc,
        }),*];

        impl Flags {
            /// Every behaviour off: the oldest kernel modelled.
            pub const NONE: Flags = Flags { $($name: false,)* };

            /// The flags of `kernel`: each flag whose era includes it.
            pub const fn of(kernel: Kernel) -> Flags {
                Flags { $($name: $era.on_in(&kernel),)* }
            }

            /// Set a flag by name; `Err` lists the known names.
            pub fn set(&mut self, name: &str, value: bool) -> Result<(), String> {
                let slot = match name {
                    $(stringify!($name) => &mut self.$name,)*
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
                    $(stringify!($name) => self.$name,)*
                    _ => return None,
                })
            }
        }
    };
}

flag_table! {
    /// Seed 000, 5.3 (`inactive_list_is_low`, "mm: vmscan: scan anonymous pages on file refaults"):
    /// a refault activation since the last reclaim run makes the file list "low" for every caller,
    /// including `get_scan_count`, so the "only evict file pages when we have plenty" shortcut
    /// (3.8) no longer locks anon out of reclaim while the page cache thrashes. Before (4.12-5.2)
    /// only the deactivation path (`actual_reclaim`) saw refaults.
    refault_scan_anon {
        era: Since("5.3"),
        function: "inactive_list_is_low",
        commit: "",
        doc: "file refaults also let get_scan_count scan anon (no file-only lock-out while the cache thrashes)",
    }
    /// 5.5 (`shrink_node`, later `prepare_scan_control`): the deactivation, cache-trim and
    /// tiny-file decisions are taken once per `shrink_node` pass from the reclaim root, instead
    /// of by `inactive_list_is_low` at every `shrink_list` call.
    scan_decisions_per_node {
        era: Since("5.5"),
        function: "shrink_node",
        commit: "",
        doc: "deactivation and cache-trim decisions taken once per shrink_node pass, not per list",
    }
    /// Seed 004, 5.8 ("mm: balance LRU lists based on relative thrashing"): `get_scan_count`
    /// balances by `anon_cost`/`file_cost` (refault restores, swap-ins and pageouts, decayed at
    /// lru size / 4, `lru_note_cost`) instead of `recent_scanned`/`recent_rotated`; swappiness
    /// may be set up to 200 (100 before: larger writes are refused); the refault distance is
    /// compared against active file + anon (`workingset_refault`); swap-ins are charged as anon
    /// cost ("mm/memory: fix IO cost for anonymous page"); `nonresident_age` also ages on anon
    /// and reclaim activations, shmem's `mark_page_accessed` included ("mm: workingset: age
    /// nonresident information alongside anonymous pages" and its fix, in the 5.8-rc series).
    io_cost_balance {
        era: Since("5.8"),
        function: "get_scan_count, lru_note_cost",
        commit: "",
        doc: "get_scan_count balances by IO cost (refaults, swap-ins, pageouts); swappiness up to 200",
    }
    /// 5.9 ("mm/vmscan: protect the workingset on anonymous LRU" and "mm/swap: implement
    /// workingset detection for anonymous LRU"; the anon aging of the nonresident clock is
    /// 5.8's, under `io_cost_balance`): new anon pages start inactive;
    /// anon pages need two references like file pages (`page_check_references`); evicted swap
    /// cache pages leave shadow entries and anon refaults are activated by distance; swap-in no
    /// longer activates unconditionally nor charges cost.
    anon_workingset {
        era: Since("5.9"),
        function: "page_check_references, workingset_refault",
        commit: "",
        doc: "new anon pages start inactive; anon refaults are detected by shadow entries",
    }
    /// 6.2 ("mm: vmscan: make rotations a secondary factor in balancing anon vs file"):
    /// `lru_note_cost` charges pageouts at SWAP_CLUSTER_MAX each plus rotations at 1 each.
    rotation_cost {
        era: Since("6.2"),
        function: "lru_note_cost",
        commit: "",
        doc: "lru_note_cost charges pageouts at SWAP_CLUSTER_MAX and rotations at 1 each",
    }
    /// Seed 001, 2.6.34 ("vmscan: detect mapped file pages used only once",
    /// `page_check_references`): a mapped file page found young on the inactive list is kept
    /// for one more trip (PG_referenced set) and activated only if referenced again; a page with
    /// only PG_referenced is reclaimed. Before (<= 2.6.33, `shrink_page_list` with
    /// `page_mapping_inuse`): any referenced page (young PTE or PG_referenced) whose page is
    /// mapped, in the swap cache, or whose file or shmem segment is mmapped by anyone is
    /// activated at once, and `shrink_active_list` clears PG_referenced along with the young
    /// bits of such pages.
    used_once_mapped {
        era: Since("2.6.34"),
        function: "page_check_references",
        commit: "",
        doc: "a mapped file page referenced once is kept one more trip, not activated at once",
    }
    /// 3.3 ("vmscan: promote shared file mapped pages", "vmscan: activate executable pages
    /// after first usage", `page_check_references`): a file page young in more than one
    /// mapping, or young in an executable mapping, is activated on its first inactive trip.
    /// Only meaningful with `used_once_mapped`.
    activate_shared_exec {
        era: Since("3.3"),
        function: "page_check_references",
        commit: "",
        doc: "file pages young in several mappings or in an executable mapping are activated at once",
    }
    /// Seed 002, 4.11 ("mm: vmscan: fix kswapd writeback regression" series): dirty pages are
    /// isolated in laptop mode too; reclaim wakes the flushers when a batch is all unqueued
    /// dirty pages (instead of direct reclaim waking them after scanning 1.5x its goal); kswapd
    /// writes only dirty file pages already tagged PG_reclaim; dirty and writeback pages that
    /// reclaim skips are moved to the active list (and deactivated when their writeback ends).
    /// Before (4.10): laptop-mode reclaim skips dirty pages at isolation; kswapd writes every
    /// dirty file page it meets once PGDAT_DIRTY is set; skipped pages go back on the inactive
    /// list; only inactive pages are rotated to the tail on writeback completion.
    kswapd_writeback_4_11 {
        era: Since("4.11"),
        function: "shrink_page_list",
        commit: "",
        doc: "flushers woken on dirty batches; kswapd writes only dirty pages it has seen twice",
    }
    /// 4.16 ("mm/vmscan: don't mess with pgdat->flags in memcg reclaim"): kswapd sets
    /// PGDAT_WRITEBACK / PGDAT_DIRTY from the counts of a whole `shrink_node` pass and throttles
    /// once per pass. Before, every `shrink_inactive_list` batch of global reclaim (kswapd or
    /// direct) set them from its own counts and throttled (`congestion_wait`, HZ/10) when it met
    /// pages kswapd had already tagged for immediate reclaim.
    pgdat_flags_per_node {
        era: Since("4.16"),
        function: "shrink_node",
        commit: "",
        doc: "kswapd sets the node's dirty/writeback flags and throttles once per shrink_node pass",
    }
    /// ~3.2 ("mm: vmscan: do not writeback filesystem pages in direct reclaim" and the
    /// kswapd follow-ups; 4.10 form read): only kswapd writes dirty file pages from reclaim
    /// (`shrink_page_list`). Before (2.6.33, 2.6.34) any reclaimer, direct or kswapd, wrote a
    /// dirty file page that the reference check let go (not RECLAIM_CLEAN / referenced).
    file_writeback_kswapd_only {
        era: Since("3.2"),
        function: "shrink_page_list",
        commit: "",
        doc: "only kswapd writes dirty file pages from reclaim; direct reclaim leaves them",
    }
    /// 6.1 ("mm: multi-gen LRU: minimal implementation" and the series, `lru_gen_enabled`,
    /// /sys/kernel/mm/lru_gen/enabled): the multi-generational LRU replaces the active/inactive
    /// lists — generations per type, aging by page-table walks, eviction from the oldest
    /// generation with tiers and a PID controller (mm/vmscan/lru_gen.rs).
    lru_gen {
        era: Switch("6.1"),
        function: "lru_gen_enabled",
        commit: "ac35a4902374",
        doc: "the multi-generational LRU replaces the active/inactive lists (generations, tiers, aging walks)",
    }
    /// 6.2 ("mm: multi-gen LRU: retry folios written back while isolated", `evict_folios`):
    /// of the folios `shrink_folio_list` kept, one clean, idle and unmapped is retried once (it
    /// may have finished writeback while isolated and missed `folio_rotate_reclaimable`), and
    /// every other but those pending writeback goes back active with its access counts,
    /// PG_referenced and PG_workingset cleared. Before (6.1) none was retried and every kept
    /// folio but those pending writeback went back active with its counts as they were.
    /// 6.14's `mglru_rework` changes which are retried and which go back active.
    mglru_retry_clean {
        era: Since("6.2"),
        function: "evict_folios",
        commit: "359a5e1416ca",
        doc: "MGLRU: a kept folio that is clean, idle and unmapped is retried once; the others go back active with their reference bits cleared",
    }
    /// 6.11 ("mm/mglru: fix div-by-zero in vmpressure_calc_level()", `evict_folios`, Cc
    /// stable): a folio retried by `mglru_retry_clean` counts in `sc->nr_scanned` on both
    /// passes. Before (6.2-6.10) the put-back took it off again, so it counted once, or not at
    /// all if the retry pass could not lock it: nr_scanned could wrap below zero and
    /// vmpressure divide by zero. Upstream after v6.10 (it was queued for 6.10-stable), so in
    /// 6.12 (the 6.1 and 6.6 stable series took it too; presets follow the mainline tags).
    mglru_retry_counts_twice {
        era: Since("6.11"),
        function: "evict_folios",
        commit: "8b671fe1a879",
        doc: "MGLRU: a retried folio counts in sc->nr_scanned on both passes; before, once",
    }
    /// 6.5 ("Multi-gen LRU: fix workingset accounting", `lru_gen_refault`, `sort_folio`):
    /// WORKINGSET_ACTIVATE counts the recent refaults `lru_gen_refault` finds (6.14's
    /// `mglru_rework` then only those in a fault). Before (6.1-6.4) `lru_gen_refault` counts
    /// none, and `sort_folio` counts one for every folio it protects by its tier at eviction.
    /// Read in the Debian 6.1.192 tree (mm/vmscan.c `sort_folio`, the protected branch;
    /// mm/workingset.c `lru_gen_refault` counts only WORKINGSET_REFAULT) and the 6.12.117 tree
    /// (the count in `lru_gen_refault`, none in `sort_folio`). Counting only: nothing in the
    /// multi-gen LRU reads the item back.
    mglru_activate_at_refault {
        era: Since("6.5"),
        function: "lru_gen_refault, sort_folio",
        commit: "",
        doc: "MGLRU: workingset_activate counts recent refaults, not the folios sort_folio protects",
    }
    /// Seed 003, 6.3 ("mm: multi-gen LRU: memcg LRU", `shrink_many`, `lru_gen_rotate_memcg`):
    /// global (root) reclaim under MGLRU picks memcgs from a per-node LRU of memcgs (old/young
    /// generations x 8 random bins) and stops as soon as the goal is met, starting at
    /// `set_initial_priority`; aging moved out of kswapd's `lru_gen_age_node` into the eviction
    /// path. Before, every memcg is shrunk in turn by `shrink_node_memcgs` at each priority.
    memcg_lru {
        era: Since("6.3"),
        function: "shrink_many, lru_gen_rotate_memcg",
        commit: "",
        doc: "MGLRU root reclaim picks memcgs from the memcg LRU and stops as soon as the goal is met",
    }
    /// 6.3 ("mm: multi-gen LRU: clarify scan_control flags", Yu Zhao, posted 2022-12-21, with
    /// the memcg LRU): proactive reclaim (memory.reclaim) has an mm_walk from its start
    /// (`set_mm_walk(pgdat, sc->proactive)` in `lru_gen_shrink_node`, `set_mm_walk(NULL,
    /// sc->proactive)` in `lru_gen_shrink_lruvec`), as kswapd always has. Before (6.1
    /// `set_mm_walk(pgdat)`), only kswapd; any other reclaimer gets one when it ages
    /// (`try_to_inc_max_seq`) until its shrink call ends. Read in the 6.1.192 tree
    /// (mm/vmscan.c 4226, 5210) and the 6.12.117 tree (3706, 4956, 4985). What it changes here:
    /// which look-around promotions are counted (`mglru_look_around_activate`).
    mglru_proactive_walk {
        era: Since("6.3"),
        function: "set_mm_walk, lru_gen_shrink_lruvec, lru_gen_shrink_node",
        commit: "",
        doc: "MGLRU: proactive reclaim has a page-table walker from its start, as kswapd does",
    }
    /// 6.3 ("mm: multi-gen LRU: simplify lru_gen_look_around()", abf086721a2f): a reclaimer
    /// without an mm_walk sends every young neighbour that look-around promotes through
    /// `folio_activate` (a PGACTIVATE each, `lru_activate`). Before (6.1.192 tree, mm/vmscan.c
    /// 4704-4708), only when fewer than PAGEVEC_SIZE (15) of them were found, else all were
    /// promoted in place uncounted; with an mm_walk they are promoted in place, uncounted, in
    /// both (6.12.117 tree, 4147-4161). Counting only: the generation they reach is the same.
    mglru_look_around_activate {
        era: Since("6.3"),
        function: "lru_gen_look_around",
        commit: "abf086721a2f",
        doc: "MGLRU: without a page-table walker every neighbour look-around promotes is an activation (pgactivate), not only batches under 15",
    }
    /// 6.12 ("mm: multi-gen LRU: use {ptep,pmdp}_clear_young_notify()", 1d4832becdc2, merged
    /// after v6.12-rc6): `lru_gen_look_around` first clears the young bit of the folio being
    /// evicted (and returns at once if it was not young), so its window no longer finds that
    /// PTE young and never marks the folio, isolated, PG_referenced: the folio's own reference
    /// is one young PTE in `folio_check_references`, a keep, not the second reference that
    /// activated it (and counted PGACTIVATE). Read in the 6.12.117 tree (mm/vmscan.c 4087,
    /// mm/rmap.c 895-897) and the 6.1.192 tree (4617-4700: the folio's PTE is cleared in the
    /// window, after which rmap clears it again). Isolated neighbours are still marked.
    mglru_look_around_self_cleared {
        era: Since("6.12"),
        function: "lru_gen_look_around, folio_referenced_one",
        commit: "1d4832becdc2",
        doc: "MGLRU look-around clears the evicted folio's own young bit first, so it no longer marks that folio referenced (a keep, not an activation)",
    }
    /// Seed 003, 6.3 ("mm: add vma_has_recency()", "mm: support POSIX_FADV_NOREUSE"): the
    /// accessed bit of MADV_RANDOM, MADV_SEQUENTIAL and FADV_NOREUSE mappings is ignored by rmap
    /// and by the MGLRU walker, and their faults do not count as recent, in both LRUs. Before,
    /// the classic LRU ignored only VM_SEQ_READ, MGLRU only VM_SEQ_READ and VM_RAND_READ.
    vma_has_recency {
        era: Since("6.3"),
        function: "vma_has_recency",
        commit: "8788f6781486",
        doc: "MADV_RANDOM and FADV_NOREUSE mappings: accessed bits ignored, faults not recent (both LRUs)",
    }
    /// 6.14 (Dec-2024 MGLRU rework: "rework aging feedback", "rework type selection", "rework
    /// refault detection", "rework workingset protection"): placement by distance from
    /// max_seq, fd accesses count to 4 before PG_workingset, a page-table hit first only marks
    /// PG_referenced, types chosen by all-tier refault rates and tiers protected at 1.5x tier
    /// 0's rate, refaults recent within MAX_NR_GENS of max_seq, aging only by generation count.
    /// Before (6.1-6.13): active -> max_seq else min_seq (+1 for anon), 2nd fd access sets
    /// PG_workingset, young PTEs promote at once, tier-0 comparison with the older type first,
    /// refaults recent only from min_seq, aging also by the generations' distribution.
    /// Also (`isolate_folio`, `shrink_folio_list`, `lru_gen_look_around`): isolation keeps
    /// PG_referenced, a mapped folio with PG_referenced is no longer kept unlooked-at, and
    /// look-around skips isolated folios. Before, isolation cleared PG_referenced (and the
    /// counts and PG_workingset of a folio without it) and look-around marked isolated folios
    /// PG_referenced, which `shrink_folio_list` then kept if mapped.
    /// Not in 6.12 (the 6.12 presets): the series was posted and queued in mm-unstable in Dec
    /// 2024, after v6.12's release (Nov 2024) and v6.13-rc1. Placement is v6.14's
    /// `lru_gen_folio_seq`, max(max_seq - gen + 1, min_seq), not the v3 posting's
    /// `lru_gen_distance`: mm_inline.h was the same blob (f9157a0c42a5) under patches posted on
    /// 30 Jan and 25 Apr 2025, either side of v6.14, whose context shows that function.
    /// mm/vmscan.c at the tag was not read (the stored one is between 6.14 and 6.16).
    mglru_rework {
        era: Since("6.14"),
        function: "lru_gen_folio_seq, sort_folio, get_type_to_scan",
        commit: "",
        doc: "MGLRU rework: placement by distance, workingset after 4 fd accesses, all-tier type choice",
    }
    /// 6.7 ("mm/mglru: respect min_ttl_ms with memcgs", Cc stable): the memcg LRU gets a third
    /// generation slot (MEMCG_NR_GENS 2 -> 3) and `shrink_many` reads the old generation once
    /// per call, skipping memcgs that moved. Before (6.3-6.6) it re-read it at every bin.
    /// In 6.12: one of the Dec-2023 MGLRU hotfixes (6.7-rc); later trees keep MEMCG_NR_GENS 3
    /// (include/linux/mmzone.h in those trees).
    memcg_lru_gen_once {
        era: Since("6.7"),
        function: "shrink_many",
        commit: "",
        doc: "memcg LRU: three generation slots; shrink_many reads the old generation once per call",
    }
    // ---- memcg (issue 5) ----
    /// ~6.8 (0388536ac291, "mm:vmscan: fix inaccurate reclaim during proactive reclaim"):
    /// memory.reclaim asks `try_to_free_mem_cgroup_pages` for at most SWAP_CLUSTER_MAX pages
    /// per call instead of the whole remainder (v5.19-6.7). In 6.12, 6.9's quarters (below)
    /// replace its cap; its exact tag (6.8) was not confirmed in the source.
    reclaim_batch_cluster {
        era: Since("6.8"),
        function: "memory_reclaim",
        commit: "0388536ac291",
        doc: "memory.reclaim asks for at most SWAP_CLUSTER_MAX pages per call, not the whole remainder",
    }
    /// ~6.9 ("mm: memcg: use larger batches for proactive reclaim"): a quarter of the remainder
    /// per call. Takes precedence over `reclaim_batch_cluster`. In 6.12: posted (v4) in Feb
    /// 2024, and its `/ 4` line is context in 2025 patches to `memory_reclaim`; the exact tag
    /// (6.9) was not confirmed in the source.
    reclaim_batch_quarter {
        era: Since("6.9"),
        function: "memory_reclaim",
        commit: "",
        doc: "memory.reclaim asks for a quarter of the remainder per call",
    }
    /// 6.11 ("mm: vmscan: restore incremental cgroup iteration", 6be5e186fd65, with "mm:
    /// vmscan: reset sc->priority on retry"; mm/vmscan.c `shrink_node_memcgs`,
    /// `do_try_to_free_pages`): direct and memcg reclaim walk the memcg tree with a reclaim
    /// cookie, so each walk goes on from the memcg the target's last walk stopped at, and
    /// stops once `nr_reclaimed >= nr_to_reclaim`; kswapd and a retry (`memcg_full_walk`, the
    /// first retry when a pass freed nothing) walk every memcg. Before (6.1), every walk visits
    /// every memcg of the target's subtree at each priority. Read in the Debian 6.12.117 tree
    /// (`shrink_node_memcgs`: the cookie unless `current_is_kswapd() || sc->memcg_full_walk`,
    /// the break after `shrink_lruvec`; `do_try_to_free_pages`: the `memcg_full_walk` retry)
    /// and absent from the 6.1.192 tree (`mem_cgroup_iter(target_memcg, NULL, NULL)`); the
    /// 7.3 tree keeps it.
    memcg_incremental_walk {
        era: Since("6.11"),
        function: "shrink_node_memcgs, do_try_to_free_pages",
        commit: "6be5e186fd65",
        doc: "direct and memcg reclaim walk on from the last memcg visited and stop at the goal; kswapd and a retry walk all",
    }
    // ---- since the 6.12 LTS (checked in the 7.3 tree, dated by the 6.18 boot) ----
    /// 6.15 (the proactive reclaimer of `reclaimer_offset`, mm/vmscan.c; the items in
    /// include/linux/vm_event_item.h and mm/vmstat.c): reclaim run by memory.reclaim counts
    /// its scans and steals as pgscan_proactive / pgsteal_proactive, not pgscan_direct /
    /// pgsteal_direct, in /proc/vmstat (global reclaim only, as for the other items until the
    /// counters became lruvec state after 6.18) and in memory.stat, whose pgscan / pgsteal
    /// include them. Read in the 7.3 tree (`reclaimer_offset` takes `sc` and returns the
    /// proactive offset when `sc->proactive`); not in 6.12 (`reclaimer_offset(void)`: kswapd,
    /// khugepaged or direct); the 6.18 image's /proc/vmstat lists both items (booted
    /// 2026-12-02). Before, these counters do not exist: a preset without the flag does not
    /// report them.
    proactive_counters {
        era: Since("6.15"),
        function: "reclaimer_offset",
        commit: "",
        doc: "memory.reclaim's scans and steals count as pgscan_proactive / pgsteal_proactive, not _direct",
    }
    /// 6.16 (`SWAPPINESS_ANON_ONLY`, mm/vmscan.c `get_scan_count`, `get_swappiness`,
    /// `get_nr_to_scan`; the key parsed by `user_proactive_reclaim`, memcontrol.c
    /// `memory_reclaim` before 6.17): memory.reclaim accepts `swappiness=max`, which reclaims
    /// anon only: the classic LRU scans anon alone (nothing when anon cannot be reclaimed),
    /// MGLRU evicts and ages anon alone, even where its swappiness would be 0 for want of
    /// may_swap. Before, `max` is refused (-EINVAL), as the engine refuses the scenario. Read
    /// in the 7.3 tree; absent in 6.12 (`get_scan_count` has no anon-only case).
    swappiness_anon_only {
        era: Since("6.16"),
        function: "get_scan_count, get_swappiness",
        commit: "",
        doc: "memory.reclaim accepts swappiness=max: anon only (classic SCAN_ANON; MGLRU evicts and ages anon alone)",
    }
    /// 6.17 (MGLRU `get_nr_to_scan` calling `apply_proportional_protection`, mm/vmscan.c):
    /// the multi-gen LRU scales a protected memcg's scan by its usage above memory.min / .low
    /// (at least SWAP_CLUSTER_MAX pages, and memory.low ignored by a retry that overrides it)
    /// before shifting by the priority, as the classic LRU does since 5.4. Before, MGLRU
    /// scanned a memcg that was above its effective protection as if unprotected. Read in
    /// the 7.3 tree; in 6.12 `get_nr_to_scan` shifts the evictable size alone. In 6.18:
    /// `apply_proportional_protection` is its own function in the 6.18 image's kallsyms (two
    /// callers, classic and MGLRU), as in 7.3; 6.12's classic LRU computes it inline.
    mglru_proportional_protection {
        era: Since("6.17"),
        function: "get_nr_to_scan, apply_proportional_protection",
        commit: "",
        doc: "MGLRU scales a protected memcg's scan by its usage above memory.min/low, as the classic LRU does",
    }
    /// After 6.18, by 7.3 (`laptop_mode_handler`, mm/page-writeback.c in the 7.3 tree): a write
    /// to vm.laptop_mode is accepted with a warning that it is deprecated and changes nothing;
    /// reclaim sets may_writepage without it. Before, reclaim reads it (6.12 mm/vmscan.c:
    /// `may_writepage = !laptop_mode` in `try_to_free_pages`, `mem_cgroup_shrink_node` and
    /// `try_to_free_mem_cgroup_pages`; `!laptop_mode && !nr_boost_reclaim` in `balance_pgdat`).
    /// Dated by the images: 6.18's vmlinuz still has `laptop_mode_timer_fn` and no deprecation
    /// text, 7.3's has `laptop_mode_handler` and the text, so Since("7.3") gives the presets
    /// exactly.
    laptop_mode_ignored {
        era: Since("7.3"),
        function: "laptop_mode_handler",
        commit: "",
        doc: "vm.laptop_mode is accepted and ignored (deprecated): reclaim may always write back",
    }
    /// After 6.18, by 7.3 (`folio_add_lru`, mm/folio.c, and `lru_gen_refault`, mm/workingset.c,
    /// in the 7.3 tree; the first names the second): under MGLRU a folio added to the LRU in a
    /// fault goes active only if it carries PG_workingset (a refault whose shadow had it);
    /// any other gets PG_referenced through `folio_mark_accessed` (`lru_gen_inc_refs`), so it
    /// is placed one generation below max_seq - 1 (file) and its first young PTE seen by the
    /// walk or by rmap is already its second reference. WORKINGSET_ACTIVATE counts only such a
    /// workingset refault in a fault. Before (6.1-6.18, the 6.12 tree's `folio_add_lru` in
    /// mm/swap.c): every folio added in a fault went active, and 6.14's `lru_gen_refault`
    /// counted every recent refault in a fault. Dated by the debian-6.18 boots of the thrash
    /// scenarios: 6.18's MGLRU counts workingset_activate_file equal to its refaults with
    /// workingset_restore_file 0, which only the earlier count gives; 7.3's counts none
    /// without a restore. The two changes are taken as one (7.3's folio_add_lru comment cites
    /// the refault side); their mainline commit was not found.
    mglru_fault_referenced {
        era: Since("7.3"),
        function: "folio_add_lru, lru_gen_refault",
        commit: "",
        doc: "MGLRU: a folio added in a fault is active only if workingset, else referenced; workingset_activate counts only workingset refaults",
    }
    /// After 6.14, by 7.3 (`lru_gen_set_refs`, mm/vmscan.c in the 7.3 tree, called by
    /// `folio_check_references` and by look-around without a walker, `walk_update_folio`):
    /// a young PTE on a folio that already has PG_referenced or PG_workingset still activates
    /// it, but sets PG_workingset (clearing the counts) only when the folio has more than one
    /// access counted (`folio_lru_refs` > 1); otherwise the access is counted
    /// (`folio_mark_accessed`), so the folio goes back to max_seq - 1, not max_seq. Before
    /// (6.14's rework), the second reference set PG_workingset at once. The 6.12 tree has no
    /// `lru_gen_set_refs`; the 6.18 form was not read (no tree): dated 7.3, the tree that
    /// shows it, until a 6.18 reading moves it.
    mglru_set_refs_counts {
        era: Since("7.3"),
        function: "lru_gen_set_refs, walk_update_folio",
        commit: "",
        doc: "MGLRU: a second page-table reference activates a folio but sets PG_workingset only from its third counted access",
    }
    // ---- swap-in ----
    /// 3.14 ("swap: add a simple detector for inappropriate swapin readahead",
    /// `swapin_nr_pages`): the swap readahead window follows the readahead hits since the last
    /// fault (one page when there were none and the fault is not next to the last one). Before
    /// (`valid_swaphandles`): every swap fault reads the run of used slots around its own
    /// within the aligned 2^page_cluster block.
    swap_ra_adaptive {
        era: Since("3.14"),
        function: "swapin_nr_pages",
        commit: "",
        doc: "the swap readahead window grows with readahead hits and shrinks to one page without them",
    }
    /// 4.14 ("mm, swap: VMA based swap readahead", `swap_vma_readahead`) and 4.15 ("mm, swap:
    /// skip swapcache for swapin of synchronous device"): private anon on non-rotational swap
    /// reads ahead the swapped pages around the fault in its mapping, and on a synchronous
    /// device (zram, pmem) reads its page alone, past the swap cache, freeing its slot;
    /// /proc/vmstat counts swap_ra and swap_ra_hit.
    /// Before, every swap fault uses cluster readahead (the block of swap slots).
    swap_vma_readahead {
        era: Since("4.14"),
        function: "swap_vma_readahead",
        commit: "",
        doc: "private anon reads ahead by address in its mapping, not by slot; on zram/pmem alone, freeing its slot",
    }
    /// 4.8 ("mm: move swap-in anonymous page into active list", `do_swap_page`): a private
    /// anon page a fault finds in, or reads into, the swap cache is activated (until 5.9's
    /// `anon_workingset` puts swapped-in pages on the inactive list). Before, it stays where
    /// `lru_cache_add` put it, inactive.
    swapin_activate {
        era: Since("4.8"),
        function: "do_swap_page",
        commit: "",
        doc: "a private anon page faulted back from swap (or found in the swap cache) is activated",
    }
    /// 2.6.37 ("mm: retry page fault when blocking on disk transfer", `lock_page_or_retry`):
    /// a file or private anon fault that finds its page locked for a read drops the mmap lock,
    /// waits, and returns VM_FAULT_RETRY; the task faults again (another `handle_mm_fault`
    /// call, another pgfault until 6.4). Before, it waited in `lock_page` inside the fault.
    /// shmem faults wait inside in every version (`shmem_getpage_gfp`).
    fault_retry {
        era: Since("2.6.37"),
        function: "lock_page_or_retry",
        commit: "",
        doc: "a file or private anon fault that finds its page locked for a read returns VM_FAULT_RETRY and is faulted again",
    }
    /// 3.0 ("readahead: trigger mmap sequential readahead on PG_readahead", 2cbea1d3ab11,
    /// posted 2011-04-30; the tag by its merge window, no preset lies between 2.6.34 and 4.7):
    /// the mmap read-around window (`do_sync_mmap_readahead`: ra_pages from pgoff -
    /// ra_pages/2, bounded by the file, not the mapping) sets async_size = ra_pages/4, so the
    /// page a quarter of the window from its end is marked PG_readahead, and a fault that finds
    /// a marked page in the page cache sends the next window out without waiting
    /// (`do_async_mmap_readahead`, 2.6.31): an mmap read in order keeps finding its pages
    /// cached, minor faults. The next window follows the file's readahead state
    /// (`page_cache_async_ra`; 6.1: `ondemand_readahead`): at the expected mark it starts
    /// where the last window ended, and it marks its first page only if it adds it, so a
    /// window that starts on a cached page ends the chain; the window is read inside the page
    /// fault (under MGLRU its pages are added as a fault's, `lru_gen_in_fault`).
    /// Read in the 6.1.192, 6.12.117 and 7.3.4 trees (mm/filemap.c: 6.1 3161 and 3172, 6.12
    /// 3204 and 3215, 7.3 3437 and 3452; mm/readahead.c: 6.1 585, 6.12 640, 7.3 682); not
    /// modelled: 7.3's own branch for executable mappings (filemap.c 3407-3430: forward,
    /// inside the mapping, no mark) and 6.1's `index == start + size` sequential case. Before, async_size was 0 and a sequential mmap reader was found by `ra->prev_pos`
    /// instead (not modelled): every read-around window is a major fault.
    mmap_readaround_async {
        era: Since("3.0"),
        function: "do_sync_mmap_readahead, do_async_mmap_readahead",
        commit: "2cbea1d3ab11",
        doc: "the mmap read-around window marks a page that sends the next window out ahead of the faults (minor, not major), following the file's readahead state",
    }
    /// 5.1 ("filemap: drop the mmap_sem for all blocking operations",
    /// `maybe_unlock_mmap_for_io`): a file fault that has to read drops the mmap lock for the
    /// IO and retries, whatever the device. Before, it retried only when `lock_page_or_retry`
    /// found the page still locked: not after a synchronous (pmem, ramdisk) read.
    filemap_fault_drop_mmap {
        era: Since("5.1"),
        function: "maybe_unlock_mmap_for_io",
        commit: "",
        doc: "a file fault that reads drops the mmap lock for the IO and retries, even after a synchronous (pmem) read",
    }
    /// 6.4 ("mm: do not increment pgfault stats when page fault handler retries",
    /// `mm_account_fault`): pgfault counts a fault once, when it completes. Before, every
    /// `handle_mm_fault` call counted, a VM_FAULT_RETRY retry too. In 6.12 by version (not
    /// re-read in a 6.12 tree).
    pgfault_retry_uncounted {
        era: Since("6.4"),
        function: "mm_account_fault",
        commit: "",
        doc: "pgfault counts a fault once; before, every retry of a fault counted again",
    }
    /// 4.7 ("mm: filemap: only do access activations on reads", bbddabe2e436): a buffered
    /// write no longer marks its page accessed (`grab_cache_page_write_begin` without
    /// FGP_ACCESSED), so pages that are only written, like a database's journal, are not
    /// activated. Before (3.15-4.6 through FGP_ACCESSED, earlier by `generic_perform_write`'s
    /// `mark_page_accessed` after the copy), every write marked it: a page written twice went
    /// active.
    write_no_activation {
        era: Since("4.7"),
        function: "grab_cache_page_write_begin",
        commit: "bbddabe2e436",
        doc: "a buffered write no longer marks its page accessed, so pages that are only written are not activated",
    }
    /// 4.6 ("mm: scale kswapd watermarks in proportion to memory", `__setup_per_zone_wmarks`):
    /// the gaps min -> low -> high are the larger of min/4 and managed pages x
    /// vm.watermark_scale_factor / 10000 (default 10). Before, they were min/4 (low = 5/4 min,
    /// high = 3/2 min) and the sysctl did not exist, so a scenario's value has no effect.
    watermark_scale_factor {
        era: Since("4.6"),
        function: "__setup_per_zone_wmarks",
        commit: "",
        doc: "watermark gaps scale with memory (vm.watermark_scale_factor), not only min/4",
    }
    /// 3.15 ("mm: thrash detection-based file cache sizing", mm/workingset.c): an evicted file
    /// page leaves a shadow entry with the eviction clock, and a refault whose distance fits
    /// the active file list is activated (`workingset_refault`; workingset_* counters). Before
    /// (2.6.x), `__remove_mapping` left nothing behind: a page read again was a new page on
    /// the inactive list, like any first read.
    workingset_detection {
        era: Since("3.15"),
        function: "workingset_refault",
        commit: "",
        doc: "evicted file pages leave shadow entries; a refault within the active file list's size is activated",
    }
    /// ~4.7 ("mm: vmscan: reduce size of inactive file list"; absent in 3.8, present in 4.10):
    /// `inactive_list_is_low` takes int_sqrt(10 x GB) of the list type's own size, for file as
    /// for anon. Before, file was low iff inactive < active (1:1), and anon used the zone's
    /// `inactive_ratio`, set at boot from the zone's present pages (one zone of all RAM here).
    inactive_ratio_by_list_size {
        era: Since("4.7"),
        function: "inactive_list_is_low",
        commit: "",
        doc: "inactive ratio from the lists' own sizes for anon and file (file was 1:1, anon by zone size)",
    }
    /// 3.8 ("mm,vmscan: only evict file pages when we have plenty", e9868505987a,
    /// `get_scan_count`): while the inactive file list is not low, reclaim scans file only
    /// (SCAN_FILE). Before, it always split by the scanned/rotated fractions.
    plenty_file_rule {
        era: Since("3.8"),
        function: "get_scan_count",
        commit: "e9868505987a",
        doc: "scan file only while the inactive file list is not low (only evict file pages when there is plenty)",
    }
    /// 2.6.35 ("vmscan: prevent get_scan_ratio() rounding errors", 76a33fc380c9,
    /// `get_scan_count`): scan targets are scan x fraction / denominator. Before
    /// (`get_scan_ratio`), the fractions were rounded down to whole percents first, so a type
    /// below 1% of the pressure was not scanned at all.
    scan_fraction_exact {
        era: Since("2.6.35"),
        function: "get_scan_count",
        commit: "76a33fc380c9",
        doc: "scan fractions kept exact instead of rounded down to whole percents",
    }
    /// 3.5 ("mm: avoid swapping out with swappiness==0", fe35004fbf9e, `get_scan_count`): the
    /// anon and file weights are swappiness and 200 - swappiness, and at priority 0 with
    /// swappiness 0 the fractions still apply. Before, both weights had 1 added (swappiness 0
    /// still gave anon a share) and priority 0 scanned every list in full.
    swappiness_zero_strict {
        era: Since("3.5"),
        function: "get_scan_count",
        commit: "fe35004fbf9e",
        doc: "weights swappiness and 200 - swappiness without the +1, so swappiness 0 gives anon no share",
    }
    /// 4.13 ("mm, vmscan: avoid thrashing anon lru when free + file is low", posted May 2017,
    /// queued on v4.12): with file + free at or below the high watermark, reclaim
    /// forces SCAN_ANON only if the inactive anon list is not low and is large enough to scan
    /// at this priority. Before, file + free <= high alone forced it.
    tiny_file_anon_checks {
        era: Since("4.13"),
        function: "get_scan_count",
        commit: "",
        doc: "file + free below high forces anon-only scanning only if inactive anon is not low and large enough",
    }
    /// 4.12 ("mm: vmscan: fix IO/refault regression in cache workingset transition",
    /// 2a2e48854d70, `inactive_list_is_low`): when refaults were activated since the last
    /// reclaim run, the deactivation path treats the inactive file list as low whenever any
    /// file page is active, so a new workingset replaces the old one quickly. Before, only the
    /// ratio decided.
    refault_deactivate_file {
        era: Since("4.12"),
        function: "inactive_list_is_low",
        commit: "2a2e48854d70",
        doc: "refault activations since the last reclaim run let active file pages be deactivated whatever the ratio",
    }
    /// 2.6.35 ("tmpfs: Insert tmpfs cache pages to inactive list at first",
    /// `add_to_page_cache_lru`): a new shmem/tmpfs page starts on the inactive anon list.
    /// Before, page cache pages that were not file cache went to `lru_cache_add_active_anon`.
    shmem_inactive_first {
        era: Since("2.6.35"),
        function: "add_to_page_cache_lru",
        commit: "",
        doc: "new shmem and tmpfs pages start on the inactive anon list instead of the active one",
    }
    /// 3.11 (Mel Gorman's "mm: vmscan: reduce system disruption due to kswapd" series:
    /// "limit the number of pages kswapd reclaims at each priority", "obey proportional
    /// scanning requirements for kswapd", "flatten kswapd priority loop", "block kswapd if it
    /// is encountering pages under writeback"): kswapd reclaims up to the high watermark per
    /// pass, `shrink_lruvec` rescales the rest of its scan once the goal is met, and pages under
    /// writeback are tagged PG_reclaim and throttle reclaim once kswapd meets them again.
    /// Before (2.6.3x `balance_pgdat`, `shrink_zone`, `shrink_page_list`): kswapd has no goal
    /// per pass (nr_to_reclaim = ULONG_MAX) and starts again at priority 12 once a run has
    /// reclaimed SWAP_CLUSTER_MAX pages; `shrink_zone` stops at the goal below DEF_PRIORITY
    /// without rescaling; kswapd and direct reclaim nap HZ/10 (`congestion_wait`) after a pass
    /// below priority 10 that scanned (kswapd not while under the min watermark); a page under
    /// writeback is simply kept.
    kswapd_reclaim_3_11 {
        era: Since("3.11"),
        function: "balance_pgdat, shrink_lruvec",
        commit: "",
        doc: "kswapd reclaims to the high watermark per pass, scans rescale at the goal, writeback pages are tagged and throttle; before, no goal, restarts and HZ/10 naps",
    }
    /// 2.6.36 (74e3f3c3391d, "vmscan: prevent background aging of anon page in no swap
    /// system"; the swap check moves into `inactive_anon_is_low` as `total_swap_pages`):
    /// anon is aged only where swap exists. Before, kswapd's `balance_pgdat` aged active anon
    /// whenever the inactive anon list was low, swap or not, and `shrink_zone`'s aging needed
    /// free swap (`nr_swap_pages > 0`, 2.6.31).
    anon_aging_needs_swap {
        era: Since("2.6.36"),
        function: "inactive_anon_is_low",
        commit: "74e3f3c3391d",
        doc: "active anon is aged only when swap exists; before, kswapd aged it whenever the inactive anon list was low",
    }
    /// 5.18 (8927f6473e56, "mm/workingset: Convert workingset_eviction() to take a folio", in
    /// the folio-5.18 pull): `workingset_eviction` reads the nonresident clock into the shadow
    /// entry, then ages it by the folio. Before (5.8-5.17, `workingset_age_nonresident` then
    /// `atomic_long_read`; <= 5.7 `atomic_long_inc_return`), it aged first and recorded the
    /// aged value, so every refault distance was one smaller.
    eviction_clock_read_first {
        era: Since("5.18"),
        function: "workingset_eviction",
        commit: "8927f6473e56",
        doc: "workingset_eviction records the nonresident clock before aging it (5.8-5.17 aged first: distances one smaller)",
    }
    /// 6.7 ("mm/mglru: fix underprotected page cache", Cc stable; `sort_folio`,
    /// `lru_gen_add_folio`): a folio whose fd accesses saturated LRU_REFS (refs == 4) is
    /// protected by `sort_folio` whatever its tier, and counted as protected of its tier; a new
    /// inactive folio goes to max_seq - 1 when it would have gone to min_seq + 1, and to
    /// min_seq + 1 instead of min_seq unless reclaim adds it or only MIN_NR_GENS are left.
    /// Before (6.1-6.6) only `tier > tier_idx` protected. 6.14's `mglru_rework` replaces both.
    /// In 6.12: the refs test is context in Jan-2024 patches to `sort_folio`, and only the
    /// Dec-2024 rework (after 6.12) removed it.
    mglru_protect_saturated {
        era: Since("6.7"),
        function: "sort_folio, lru_gen_add_folio",
        commit: "08148805",
        doc: "MGLRU: folios with saturated fd refs (refs == 4) are protected by sort_folio and counted; new inactive folios placed one generation younger",
    }
    // ---- the June 2016 posting of "mm: balance LRU lists based on relative thrashing" ----
    // Not mainline: the series' first posting (10 patches, 6 June 2016, on v4.7-rc), whose
    // pgbench table is seed 004. Only the `rfc-2016-lru-cost` preset turns these on.
    /// RFC 2016, 01/10 ("mm: allow swappiness that prefers anon over file", kernel/sysctl.c
    /// `vm_table` extra2): vm.swappiness accepts 0..200, the relative IO cost of swap and
    /// filesystem cache misses.
    rfc2016_swappiness {
        era: Series { series: RFC_2016, part: "01/10" },
        function: "vm_table (kernel/sysctl.c)",
        commit: "",
        doc: "not mainline (June 2016 posting): vm.swappiness accepts up to 200 (kernel/sysctl.c)",
    }
    /// RFC 2016, 07/10 ("mm: base LRU balancing on an explicit cost model"; with 05/10, 06/10,
    /// 08/10 and 09/10): `get_scan_count` weighs anon by swappiness x (denom + 1) /
    /// (numer[anon] + 1) and file by (200 - swappiness) x (denom + 1) / (numer[file] + 1),
    /// halving all three once denom exceeds an eighth of the LRU; `lru_note_cost` adds to
    /// numer[type] and denom. Charged (x1): pages `putback_inactive_pages` puts back active
    /// and, after 09/10, VM_EXEC file pages `shrink_active_list` keeps active. Nothing else:
    /// new and put-back pages (05/10, 06/10), `mark_page_accessed` activations (06/10) and
    /// deactivations (08/10) no longer count, so 4.7's scanned/rotated statistics are gone.
    rfc2016_lru_cost {
        era: Series { series: RFC_2016, part: "07/10" },
        function: "get_scan_count, lru_note_cost",
        commit: "",
        doc: "not mainline: get_scan_count balances by lru_note_cost's numer/denom (no floor, decay at 1/8 LRU); rotations cost 1 (05, 06, 08, 09/10)",
    }
    /// RFC 2016, 10/10 ("mm: balance LRU lists based on relative thrashing",
    /// `__pagevec_lru_add_fn`, `workingset_refault`, `__read_swap_cache_async`, `lru_note_cost`
    /// COST_IO): a new page added with PG_workingset charges its type SWAP_CLUSTER_MAX (32):
    /// a file refault restored from a shadow with the workingset bit, and every swap-in,
    /// readahead included. File refaults are compared with active file + anon (anon only while
    /// swap has room) and not counted at all beyond it; within it they count as
    /// refault_active_file (workingset) or refault_inactive_file (4.7's workingset_* items
    /// renamed). Only meaningful with `rfc2016_lru_cost`.
    rfc2016_refault_cost {
        era: Series { series: RFC_2016, part: "10/10" },
        function: "__pagevec_lru_add_fn, workingset_refault",
        commit: "",
        doc: "not mainline: restored file refaults and every swap-in cost 32 (__pagevec_lru_add_fn); distance vs active file + anon; refault_* counters",
    }
}

impl Flags {
    /// The largest value `vm.swappiness` accepts (kernel/sysctl.c `extra2`).
    pub fn max_swappiness(&self) -> u32 {
        if self.io_cost_balance || self.rfc2016_swappiness {
            200
        } else {
            100
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_numerically() {
        let v = [
            "2.6.33", "2.6.34", "3.2", "3.15", "4.7", "4.11", "5.10", "6.1", "6.12", "6.14",
        ];
        for w in v.windows(2) {
            assert!(kver(w[0]) < kver(w[1]), "{} < {}", w[0], w[1]);
        }
        assert_eq!(kver("6.12"), kver("6.12.0"));
    }

    #[test]
    fn eras_select_kernels() {
        let k = |version, lru_gen, series| Kernel {
            version,
            lru_gen,
            series,
        };
        assert!(Since("5.8").on_in(&k("5.8", false, None)));
        assert!(!Since("5.8").on_in(&k("5.7", false, None)));
        assert!(Since("4.12").on_in(&k("5.10", false, None)));
        // The MGLRU switch: only where the kernel turns it on, and only once it exists.
        assert!(!Switch("6.1").on_in(&k("6.3", false, None)));
        assert!(Switch("6.1").on_in(&k("6.3", true, None)));
        assert!(!Switch("6.1").on_in(&k("5.8", true, None)));
        // A series: only in a kernel that applies it, whatever the version.
        let part = Series {
            series: RFC_2016,
            part: "07/10",
        };
        assert!(part.on_in(&k("4.7", false, Some(RFC_2016))));
        assert!(!part.on_in(&k("6.14", true, None)));
        assert!(!part.on_in(&k("4.7", false, Some("RFC 2017"))));
        assert_eq!(part.version(), "RFC 2016 07/10");
    }

    #[test]
    fn every_flag_is_off_in_the_oldest_kernel_and_named_once() {
        assert_eq!(
            Flags::of(Kernel {
                version: "2.6.33",
                lru_gen: false,
                series: None
            }),
            Flags::NONE
        );
        assert_eq!(Flags::NONE, Flags::default());
        for (i, d) in FLAG_DOCS.iter().enumerate() {
            assert_eq!(d.name, FLAG_NAMES[i]);
            assert!(!FLAG_NAMES[..i].contains(&d.name), "{} twice", d.name);
            let mut f = Flags::NONE;
            f.set(d.name, true).unwrap();
            assert_eq!(f.get(d.name), Some(true));
            // Exactly one field moved.
            let on = FLAG_NAMES.iter().filter(|n| f.get(n) == Some(true)).count();
            assert_eq!(on, 1, "{}", d.name);
        }
    }
}

//! Kernel variants: every behaviour a seed patch changed is a named flag; presets name sets of flags.
//!
//! A flag is `false` for the kernel before the change and `true` after it. Presets are mainline
//! behaviour at a tag; stable backports are not modelled.
pub mod flag_docs;

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
    /// cost ("mm/memory: fix IO cost for anonymous page"); `nonresident_age` also ages on anon
    /// and reclaim activations, shmem's `mark_page_accessed` included ("mm: workingset: age
    /// nonresident information alongside anonymous pages" and its fix, in the 5.8-rc series).
    pub io_cost_balance: bool,
    /// 5.9 ("mm/vmscan: protect the workingset on anonymous LRU" and "mm/swap: implement
    /// workingset detection for anonymous LRU"; the anon aging of the nonresident clock is
    /// 5.8's, under `io_cost_balance`): new anon pages start inactive;
    /// anon pages need two references like file pages (`page_check_references`); evicted swap
    /// cache pages leave shadow entries and anon refaults are activated by distance; swap-in no
    /// longer activates unconditionally nor charges cost.
    pub anon_workingset: bool,
    /// 6.2 ("mm: vmscan: make rotations a secondary factor in balancing anon vs file"):
    /// `lru_note_cost` charges pageouts at SWAP_CLUSTER_MAX each plus rotations at 1 each.
    pub rotation_cost: bool,
    /// Seed 001, 2.6.34 ("vmscan: detect mapped file pages used only once",
    /// `page_check_references`): a mapped file page found young on the inactive list is kept
    /// for one more trip (PG_referenced set) and activated only if referenced again; a page with
    /// only PG_referenced is reclaimed. Before (<= 2.6.33, `shrink_page_list` with
    /// `page_mapping_inuse`): any referenced page (young PTE or PG_referenced) whose page is
    /// mapped, in the swap cache, or whose file or shmem segment is mmapped by anyone is
    /// activated at once, and `shrink_active_list` clears PG_referenced along with the young
    /// bits of such pages.
    pub used_once_mapped: bool,
    /// 3.3 ("vmscan: promote shared file mapped pages", "vmscan: activate executable pages
    /// after first usage", `page_check_references`): a file page young in more than one
    /// mapping, or young in an executable mapping, is activated on its first inactive trip.
    /// Only meaningful with `used_once_mapped`.
    pub activate_shared_exec: bool,
    /// Seed 002, 4.11 ("mm: vmscan: fix kswapd writeback regression" series): dirty pages are
    /// isolated in laptop mode too; reclaim wakes the flushers when a batch is all unqueued
    /// dirty pages (instead of direct reclaim waking them after scanning 1.5x its goal); kswapd
    /// writes only dirty file pages already tagged PG_reclaim; dirty and writeback pages that
    /// reclaim skips are moved to the active list (and deactivated when their writeback ends).
    /// Before (4.10): laptop-mode reclaim skips dirty pages at isolation; kswapd writes every
    /// dirty file page it meets once PGDAT_DIRTY is set; skipped pages go back on the inactive
    /// list; only inactive pages are rotated to the tail on writeback completion.
    pub kswapd_writeback_4_11: bool,
    /// 4.16 ("mm/vmscan: don't mess with pgdat->flags in memcg reclaim"): kswapd sets
    /// PGDAT_WRITEBACK / PGDAT_DIRTY from the counts of a whole `shrink_node` pass and throttles
    /// once per pass. Before, every `shrink_inactive_list` batch of global reclaim (kswapd or
    /// direct) set them from its own counts and throttled (`congestion_wait`, HZ/10) when it met
    /// pages kswapd had already tagged for immediate reclaim.
    pub pgdat_flags_per_node: bool,
    /// ~3.2 ("mm: vmscan: do not writeback filesystem pages in direct reclaim" and the
    /// kswapd follow-ups; 4.10 form read): only kswapd writes dirty file pages from reclaim
    /// (`shrink_page_list`). Before (2.6.33, 2.6.34) any reclaimer, direct or kswapd, wrote a
    /// dirty file page that the reference check let go (not RECLAIM_CLEAN / referenced).
    pub file_writeback_kswapd_only: bool,
    /// 6.1 ("mm: multi-gen LRU: minimal implementation" and the series, `lru_gen_enabled`,
    /// /sys/kernel/mm/lru_gen/enabled): the multi-generational LRU replaces the active/inactive
    /// lists — generations per type, aging by page-table walks, eviction from the oldest
    /// generation with tiers and a PID controller (kernel/mglru.rs).
    pub lru_gen: bool,
    /// Seed 003, 6.3 ("mm: multi-gen LRU: memcg LRU", `shrink_many`, `lru_gen_rotate_memcg`):
    /// global (root) reclaim under MGLRU picks memcgs from a per-node LRU of memcgs (old/young
    /// generations x 8 random bins) and stops as soon as the goal is met, starting at
    /// `set_initial_priority`; aging moved out of kswapd's `lru_gen_age_node` into the eviction
    /// path. Before, every memcg is shrunk in turn by `shrink_node_memcgs` at each priority.
    pub memcg_lru: bool,
    /// Seed 003, 6.3 ("mm: add vma_has_recency()", "mm: support POSIX_FADV_NOREUSE"): the
    /// accessed bit of MADV_RANDOM, MADV_SEQUENTIAL and FADV_NOREUSE mappings is ignored by rmap
    /// and by the MGLRU walker, and their faults do not count as recent, in both LRUs. Before,
    /// the classic LRU ignored only VM_SEQ_READ, MGLRU only VM_SEQ_READ and VM_RAND_READ.
    pub vma_has_recency: bool,
    /// 6.14 (Dec-2024 MGLRU rework: "rework aging feedback", "rework type selection", "rework
    /// refault detection", "rework workingset protection"): placement by distance from
    /// max_seq, fd accesses count to 4 before PG_workingset, a page-table hit first only marks
    /// PG_referenced, types chosen by all-tier refault rates and tiers protected at 1.5x tier
    /// 0's rate, refaults recent within MAX_NR_GENS of max_seq, aging only by generation count.
    /// Before (6.1-6.13): active -> max_seq else min_seq (+1 for anon), 2nd fd access sets
    /// PG_workingset, young PTEs promote at once, tier-0 comparison with the older type first,
    /// refaults recent only from min_seq, aging also by the generations' distribution.
    pub mglru_rework: bool,
    /// 6.7 ("mm/mglru: respect min_ttl_ms with memcgs", Cc stable): the memcg LRU gets a third
    /// generation slot (MEMCG_NR_GENS 2 -> 3) and `shrink_many` reads the old generation once
    /// per call, skipping memcgs that moved. Before (6.3-6.6) it re-read it at every bin.
    pub memcg_lru_gen_once: bool,
    // ---- memcg (issue 5) ----
    /// ~6.8 (0388536ac291, "mm:vmscan: fix inaccurate reclaim during proactive reclaim"):
    /// memory.reclaim asks `try_to_free_mem_cgroup_pages` for at most SWAP_CLUSTER_MAX pages
    /// per call instead of the whole remainder (v5.19-6.7).
    pub reclaim_batch_cluster: bool,
    /// ~6.9 ("mm: memcg: use larger batches for proactive reclaim"): a quarter of the remainder
    /// per call. Takes precedence over `reclaim_batch_cluster`.
    pub reclaim_batch_quarter: bool,
    // ---- swap-in ----
    /// 3.14 ("swap: add a simple detector for inappropriate swapin readahead",
    /// `swapin_nr_pages`): the swap readahead window follows the readahead hits since the last
    /// fault (one page when there were none and the fault is not next to the last one). Before
    /// (`valid_swaphandles`): every swap fault reads the run of used slots around its own
    /// within the aligned 2^page_cluster block.
    pub swap_ra_adaptive: bool,
    /// 4.14 ("mm, swap: VMA based swap readahead", `swap_vma_readahead`) and 4.15 ("mm, swap:
    /// skip swapcache for swapin of synchronous device"): private anon on non-rotational swap
    /// reads ahead the swapped pages around the fault in its mapping, and on a synchronous
    /// device (zram, pmem) reads its page alone, past the swap cache, freeing its slot;
    /// /proc/vmstat counts swap_ra and swap_ra_hit.
    /// Before, every swap fault uses cluster readahead (the block of swap slots).
    pub swap_vma_readahead: bool,
    /// 4.8 ("mm: move swap-in anonymous page into active list", `do_swap_page`): a private
    /// anon page a fault finds in, or reads into, the swap cache is activated (until 5.9's
    /// `anon_workingset` puts swapped-in pages on the inactive list). Before, it stays where
    /// `lru_cache_add` put it, inactive.
    pub swapin_activate: bool,
    /// 2.6.37 ("mm: retry page fault when blocking on disk transfer", `lock_page_or_retry`):
    /// a file or private anon fault that finds its page locked for a read drops the mmap lock,
    /// waits, and returns VM_FAULT_RETRY; the task faults again (another `handle_mm_fault`
    /// call, another pgfault until 6.4). Before, it waited in `lock_page` inside the fault.
    /// shmem faults wait inside in every version (`shmem_getpage_gfp`).
    pub fault_retry: bool,
    /// 5.1 ("filemap: drop the mmap_sem for all blocking operations",
    /// `maybe_unlock_mmap_for_io`): a file fault that has to read drops the mmap lock for the
    /// IO and retries, whatever the device. Before, it retried only when `lock_page_or_retry`
    /// found the page still locked: not after a synchronous (pmem, ramdisk) read.
    pub filemap_fault_drop_mmap: bool,
    /// 6.4 ("mm: do not increment pgfault stats when page fault handler retries",
    /// `mm_account_fault`): pgfault counts a fault once, when it completes. Before, every
    /// `handle_mm_fault` call counted, a VM_FAULT_RETRY retry too.
    pub pgfault_retry_uncounted: bool,
    /// 4.7 ("mm: filemap: only do access activations on reads", bbddabe2e436): a buffered
    /// write no longer marks its page accessed (`grab_cache_page_write_begin` without
    /// FGP_ACCESSED), so pages that are only written, like a database's journal, are not
    /// activated. Before (3.15-4.6 through FGP_ACCESSED, earlier by `generic_perform_write`'s
    /// `mark_page_accessed` after the copy), every write marked it: a page written twice went
    /// active.
    pub write_no_activation: bool,
    /// 4.6 ("mm: scale kswapd watermarks in proportion to memory", `__setup_per_zone_wmarks`):
    /// the gaps min -> low -> high are the larger of min/4 and managed pages x
    /// vm.watermark_scale_factor / 10000 (default 10). Before, they were min/4 (low = 5/4 min,
    /// high = 3/2 min) and the sysctl did not exist, so a scenario's value has no effect.
    pub watermark_scale_factor: bool,
    /// 3.15 ("mm: thrash detection-based file cache sizing", mm/workingset.c): an evicted file
    /// page leaves a shadow entry with the eviction clock, and a refault whose distance fits
    /// the active file list is activated (`workingset_refault`; workingset_* counters). Before
    /// (2.6.x), `__remove_mapping` left nothing behind: a page read again was a new page on
    /// the inactive list, like any first read.
    pub workingset_detection: bool,
    /// ~4.7 ("mm: vmscan: reduce size of inactive file list"; absent in 3.8, present in 4.10):
    /// `inactive_list_is_low` takes int_sqrt(10 x GB) of the list type's own size, for file as
    /// for anon. Before, file was low iff inactive < active (1:1), and anon used the zone's
    /// `inactive_ratio`, set at boot from the zone's present pages (one zone of all RAM here).
    pub inactive_ratio_by_list_size: bool,
    /// 3.8 ("mm,vmscan: only evict file pages when we have plenty", e9868505987a,
    /// `get_scan_count`): while the inactive file list is not low, reclaim scans file only
    /// (SCAN_FILE). Before, it always split by the scanned/rotated fractions.
    pub plenty_file_rule: bool,
    /// 2.6.35 ("vmscan: prevent get_scan_ratio() rounding errors", 76a33fc380c9,
    /// `get_scan_count`): scan targets are scan x fraction / denominator. Before
    /// (`get_scan_ratio`), the fractions were rounded down to whole percents first, so a type
    /// below 1% of the pressure was not scanned at all.
    pub scan_fraction_exact: bool,
    /// 3.5 ("mm: avoid swapping out with swappiness==0", fe35004fbf9e, `get_scan_count`): the
    /// anon and file weights are swappiness and 200 - swappiness, and at priority 0 with
    /// swappiness 0 the fractions still apply. Before, both weights had 1 added (swappiness 0
    /// still gave anon a share) and priority 0 scanned every list in full.
    pub swappiness_zero_strict: bool,
    /// 4.13 ("mm, vmscan: avoid thrashing anon lru when free + file is low", posted May 2017,
    /// queued on v4.12): with file + free at or below the high watermark, reclaim
    /// forces SCAN_ANON only if the inactive anon list is not low and is large enough to scan
    /// at this priority. Before, file + free <= high alone forced it.
    pub tiny_file_anon_checks: bool,
    /// 4.12 ("mm: vmscan: fix IO/refault regression in cache workingset transition",
    /// 2a2e48854d70, `inactive_list_is_low`): when refaults were activated since the last
    /// reclaim run, the deactivation path treats the inactive file list as low whenever any
    /// file page is active, so a new workingset replaces the old one quickly. Before, only the
    /// ratio decided.
    pub refault_deactivate_file: bool,
    /// 2.6.35 ("tmpfs: Insert tmpfs cache pages to inactive list at first",
    /// `add_to_page_cache_lru`): a new shmem/tmpfs page starts on the inactive anon list.
    /// Before, page cache pages that were not file cache went to `lru_cache_add_active_anon`.
    pub shmem_inactive_first: bool,
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
    pub kswapd_reclaim_3_11: bool,
    /// 2.6.36 (74e3f3c3391d, "vmscan: prevent background aging of anon page in no swap
    /// system"; the swap check moves into `inactive_anon_is_low` as `total_swap_pages`):
    /// anon is aged only where swap exists. Before, kswapd's `balance_pgdat` aged active anon
    /// whenever the inactive anon list was low, swap or not, and `shrink_zone`'s aging needed
    /// free swap (`nr_swap_pages > 0`, 2.6.31).
    pub anon_aging_needs_swap: bool,
    /// 5.18 (8927f6473e56, "mm/workingset: Convert workingset_eviction() to take a folio", in
    /// the folio-5.18 pull): `workingset_eviction` reads the nonresident clock into the shadow
    /// entry, then ages it by the folio. Before (5.8-5.17, `workingset_age_nonresident` then
    /// `atomic_long_read`; <= 5.7 `atomic_long_inc_return`), it aged first and recorded the
    /// aged value, so every refault distance was one smaller.
    pub eviction_clock_read_first: bool,
    /// 6.7 ("mm/mglru: fix underprotected page cache", Cc stable; `sort_folio`,
    /// `lru_gen_add_folio`): a folio whose fd accesses saturated LRU_REFS (refs == 4) is
    /// protected by `sort_folio` whatever its tier, and counted as protected of its tier; a new
    /// inactive folio goes to max_seq - 1 when it would have gone to min_seq + 1, and to
    /// min_seq + 1 instead of min_seq unless reclaim adds it or only MIN_NR_GENS are left.
    /// Before (6.1-6.6) only `tier > tier_idx` protected. 6.14's `mglru_rework` replaces both.
    pub mglru_protect_saturated: bool,
    // ---- the June 2016 posting of "mm: balance LRU lists based on relative thrashing" ----
    // Not mainline: the series' first posting (10 patches, 6 June 2016, on v4.7-rc), whose
    // pgbench table is seed 004. Only the `rfc-2016-lru-cost` preset turns these on.
    /// RFC 2016, 01/10 ("mm: allow swappiness that prefers anon over file", kernel/sysctl.c
    /// `vm_table` extra2): vm.swappiness accepts 0..200, the relative IO cost of swap and
    /// filesystem cache misses.
    pub rfc2016_swappiness: bool,
    /// RFC 2016, 07/10 ("mm: base LRU balancing on an explicit cost model"; with 05/10, 06/10,
    /// 08/10 and 09/10): `get_scan_count` weighs anon by swappiness x (denom + 1) /
    /// (numer[anon] + 1) and file by (200 - swappiness) x (denom + 1) / (numer[file] + 1),
    /// halving all three once denom exceeds an eighth of the LRU; `lru_note_cost` adds to
    /// numer[type] and denom. Charged (x1): pages `putback_inactive_pages` puts back active
    /// and, after 09/10, VM_EXEC file pages `shrink_active_list` keeps active. Nothing else:
    /// new and put-back pages (05/10, 06/10), `mark_page_accessed` activations (06/10) and
    /// deactivations (08/10) no longer count, so 4.7's scanned/rotated statistics are gone.
    pub rfc2016_lru_cost: bool,
    /// RFC 2016, 10/10 ("mm: balance LRU lists based on relative thrashing",
    /// `__pagevec_lru_add_fn`, `workingset_refault`, `__read_swap_cache_async`, `lru_note_cost`
    /// COST_IO): a new page added with PG_workingset charges its type SWAP_CLUSTER_MAX (32):
    /// a file refault restored from a shadow with the workingset bit, and every swap-in,
    /// readahead included. File refaults are compared with active file + anon (anon only while
    /// swap has room) and not counted at all beyond it; within it they count as
    /// refault_active_file (workingset) or refault_inactive_file (4.7's workingset_* items
    /// renamed). Only meaningful with `rfc2016_lru_cost`.
    pub rfc2016_refault_cost: bool,
}

/// Names of the flags, as written in scenario files (`flags = { refault_scan_anon = true }`).
pub const FLAG_NAMES: &[&str] = &[
    "refault_scan_anon",
    "scan_decisions_per_node",
    "io_cost_balance",
    "anon_workingset",
    "rotation_cost",
    "used_once_mapped",
    "activate_shared_exec",
    "kswapd_writeback_4_11",
    "pgdat_flags_per_node",
    "file_writeback_kswapd_only",
    "lru_gen",
    "memcg_lru",
    "vma_has_recency",
    "mglru_rework",
    "memcg_lru_gen_once",
    "reclaim_batch_cluster",
    "reclaim_batch_quarter",
    "swap_ra_adaptive",
    "swap_vma_readahead",
    "swapin_activate",
    "fault_retry",
    "filemap_fault_drop_mmap",
    "pgfault_retry_uncounted",
    "write_no_activation",
    "watermark_scale_factor",
    "workingset_detection",
    "inactive_ratio_by_list_size",
    "plenty_file_rule",
    "scan_fraction_exact",
    "swappiness_zero_strict",
    "tiny_file_anon_checks",
    "refault_deactivate_file",
    "shmem_inactive_first",
    "kswapd_reclaim_3_11",
    "anon_aging_needs_swap",
    "eviction_clock_read_first",
    "mglru_protect_saturated",
    "rfc2016_swappiness",
    "rfc2016_lru_cost",
    "rfc2016_refault_cost",
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
            "used_once_mapped" => &mut self.used_once_mapped,
            "activate_shared_exec" => &mut self.activate_shared_exec,
            "kswapd_writeback_4_11" => &mut self.kswapd_writeback_4_11,
            "pgdat_flags_per_node" => &mut self.pgdat_flags_per_node,
            "file_writeback_kswapd_only" => &mut self.file_writeback_kswapd_only,
            "lru_gen" => &mut self.lru_gen,
            "memcg_lru" => &mut self.memcg_lru,
            "vma_has_recency" => &mut self.vma_has_recency,
            "mglru_rework" => &mut self.mglru_rework,
            "memcg_lru_gen_once" => &mut self.memcg_lru_gen_once,
            "reclaim_batch_cluster" => &mut self.reclaim_batch_cluster,
            "reclaim_batch_quarter" => &mut self.reclaim_batch_quarter,
            "swap_ra_adaptive" => &mut self.swap_ra_adaptive,
            "swap_vma_readahead" => &mut self.swap_vma_readahead,
            "swapin_activate" => &mut self.swapin_activate,
            "fault_retry" => &mut self.fault_retry,
            "filemap_fault_drop_mmap" => &mut self.filemap_fault_drop_mmap,
            "pgfault_retry_uncounted" => &mut self.pgfault_retry_uncounted,
            "write_no_activation" => &mut self.write_no_activation,
            "watermark_scale_factor" => &mut self.watermark_scale_factor,
            "workingset_detection" => &mut self.workingset_detection,
            "inactive_ratio_by_list_size" => &mut self.inactive_ratio_by_list_size,
            "plenty_file_rule" => &mut self.plenty_file_rule,
            "scan_fraction_exact" => &mut self.scan_fraction_exact,
            "swappiness_zero_strict" => &mut self.swappiness_zero_strict,
            "tiny_file_anon_checks" => &mut self.tiny_file_anon_checks,
            "refault_deactivate_file" => &mut self.refault_deactivate_file,
            "shmem_inactive_first" => &mut self.shmem_inactive_first,
            "kswapd_reclaim_3_11" => &mut self.kswapd_reclaim_3_11,
            "anon_aging_needs_swap" => &mut self.anon_aging_needs_swap,
            "eviction_clock_read_first" => &mut self.eviction_clock_read_first,
            "mglru_protect_saturated" => &mut self.mglru_protect_saturated,
            "rfc2016_swappiness" => &mut self.rfc2016_swappiness,
            "rfc2016_lru_cost" => &mut self.rfc2016_lru_cost,
            "rfc2016_refault_cost" => &mut self.rfc2016_refault_cost,
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
            "used_once_mapped" => self.used_once_mapped,
            "activate_shared_exec" => self.activate_shared_exec,
            "kswapd_writeback_4_11" => self.kswapd_writeback_4_11,
            "pgdat_flags_per_node" => self.pgdat_flags_per_node,
            "file_writeback_kswapd_only" => self.file_writeback_kswapd_only,
            "lru_gen" => self.lru_gen,
            "memcg_lru" => self.memcg_lru,
            "vma_has_recency" => self.vma_has_recency,
            "mglru_rework" => self.mglru_rework,
            "memcg_lru_gen_once" => self.memcg_lru_gen_once,
            "reclaim_batch_cluster" => self.reclaim_batch_cluster,
            "reclaim_batch_quarter" => self.reclaim_batch_quarter,
            "swap_ra_adaptive" => self.swap_ra_adaptive,
            "swap_vma_readahead" => self.swap_vma_readahead,
            "swapin_activate" => self.swapin_activate,
            "fault_retry" => self.fault_retry,
            "filemap_fault_drop_mmap" => self.filemap_fault_drop_mmap,
            "pgfault_retry_uncounted" => self.pgfault_retry_uncounted,
            "write_no_activation" => self.write_no_activation,
            "watermark_scale_factor" => self.watermark_scale_factor,
            "workingset_detection" => self.workingset_detection,
            "inactive_ratio_by_list_size" => self.inactive_ratio_by_list_size,
            "plenty_file_rule" => self.plenty_file_rule,
            "scan_fraction_exact" => self.scan_fraction_exact,
            "swappiness_zero_strict" => self.swappiness_zero_strict,
            "tiny_file_anon_checks" => self.tiny_file_anon_checks,
            "refault_deactivate_file" => self.refault_deactivate_file,
            "shmem_inactive_first" => self.shmem_inactive_first,
            "kswapd_reclaim_3_11" => self.kswapd_reclaim_3_11,
            "anon_aging_needs_swap" => self.anon_aging_needs_swap,
            "eviction_clock_read_first" => self.eviction_clock_read_first,
            "mglru_protect_saturated" => self.mglru_protect_saturated,
            "rfc2016_swappiness" => self.rfc2016_swappiness,
            "rfc2016_lru_cost" => self.rfc2016_lru_cost,
            "rfc2016_refault_cost" => self.rfc2016_refault_cost,
            _ => return None,
        })
    }

    /// memory.reclaim's batch policy (see the two flags).
    pub fn reclaim_batch(&self) -> crate::mm::memcontrol::ReclaimBatch {
        use crate::mm::memcontrol::ReclaimBatch;
        if self.reclaim_batch_quarter {
            ReclaimBatch::Quarter
        } else if self.reclaim_batch_cluster {
            ReclaimBatch::ClusterMax
        } else {
            ReclaimBatch::Remainder
        }
    }

    /// The largest value `vm.swappiness` accepts (kernel/sysctl.c `extra2`).
    pub fn max_swappiness(&self) -> u32 {
        if self.io_cost_balance || self.rfc2016_swappiness {
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

/// Every behaviour off: the oldest kernel modelled, and the base the presets build on.
const NONE: Flags = Flags {
    refault_scan_anon: false,
    scan_decisions_per_node: false,
    io_cost_balance: false,
    anon_workingset: false,
    rotation_cost: false,
    used_once_mapped: false,
    activate_shared_exec: false,
    kswapd_writeback_4_11: false,
    pgdat_flags_per_node: false,
    file_writeback_kswapd_only: false,
    lru_gen: false,
    memcg_lru: false,
    vma_has_recency: false,
    mglru_rework: false,
    memcg_lru_gen_once: false,
    reclaim_batch_cluster: false,
    reclaim_batch_quarter: false,
    swap_ra_adaptive: false,
    swap_vma_readahead: false,
    swapin_activate: false,
    fault_retry: false,
    filemap_fault_drop_mmap: false,
    pgfault_retry_uncounted: false,
    write_no_activation: false,
    watermark_scale_factor: false,
    workingset_detection: false,
    inactive_ratio_by_list_size: false,
    plenty_file_rule: false,
    scan_fraction_exact: false,
    swappiness_zero_strict: false,
    tiny_file_anon_checks: false,
    refault_deactivate_file: false,
    shmem_inactive_first: false,
    kswapd_reclaim_3_11: false,
    anon_aging_needs_swap: false,
    eviction_clock_read_first: false,
    mglru_protect_saturated: false,
    rfc2016_swappiness: false,
    rfc2016_lru_cost: false,
    rfc2016_refault_cost: false,
};

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
        used_once_mapped: true,
        activate_shared_exec: true,
        kswapd_writeback_4_11: true,
        pgdat_flags_per_node: true,
        file_writeback_kswapd_only: true,
        swap_ra_adaptive: true,
        swap_vma_readahead: true,
        swapin_activate: true,
        fault_retry: true,
        filemap_fault_drop_mmap: true,
        write_no_activation: true,
        watermark_scale_factor: true,
        workingset_detection: true,
        inactive_ratio_by_list_size: true,
        plenty_file_rule: true,
        scan_fraction_exact: true,
        swappiness_zero_strict: true,
        tiny_file_anon_checks: true,
        refault_deactivate_file: true,
        shmem_inactive_first: true,
        kswapd_reclaim_3_11: true,
        anon_aging_needs_swap: true,
        // Every `f` preset with 5.9's anon workingset is 6.1 or later.
        eviction_clock_read_first: anon_ws,
        ..NONE
    }
}

/// 6.1 classic, plus: 6.2 rotation cost; 6.3 memcg LRU and recency hints.
const L6_3: Flags = Flags {
    rotation_cost: true,
    memcg_lru: true,
    vma_has_recency: true,
    ..f(true, true, true, true, false)
};

/// Flags of kernels older than every `f` preset: `old(used_once, shared_exec, wb_4_11)`,
/// with every later feature off; the 3.x rules (`activate_shared_exec`,
/// `file_writeback_kswapd_only`, `swap_ra_adaptive`, 4.8's `swapin_activate`, 2.6.37's
/// `fault_retry`, 2.6.35's `scan_fraction_exact` and `shmem_inactive_first`, 3.5's `swappiness_zero_strict`, 3.8's
/// `plenty_file_rule`, 3.11's `kswapd_reclaim_3_11`, 3.15's `workingset_detection`, 4.6's `watermark_scale_factor`, 2.6.36's `anon_aging_needs_swap`, 4.7's
/// `write_no_activation` and `inactive_ratio_by_list_size`) go together (on for 4.10 and
/// 4.11, off for 2.6.3x); 4.12's `refault_deactivate_file` and 4.13's
/// `tiny_file_anon_checks` are off for all of them.
const fn old(used_once: bool, shared_exec: bool, wb_4_11: bool) -> Flags {
    Flags {
        used_once_mapped: used_once,
        activate_shared_exec: shared_exec,
        kswapd_writeback_4_11: wb_4_11,
        file_writeback_kswapd_only: shared_exec,
        swap_ra_adaptive: shared_exec,
        swapin_activate: shared_exec,
        fault_retry: shared_exec,
        write_no_activation: shared_exec,
        watermark_scale_factor: shared_exec,
        workingset_detection: shared_exec,
        inactive_ratio_by_list_size: shared_exec,
        plenty_file_rule: shared_exec,
        scan_fraction_exact: shared_exec,
        swappiness_zero_strict: shared_exec,
        shmem_inactive_first: shared_exec,
        kswapd_reclaim_3_11: shared_exec,
        anon_aging_needs_swap: shared_exec,
        ..NONE
    }
}

/// 4.7: the 4.10 rules without 4.8's `swapin_activate` (a swapped-in page stays inactive).
/// The engine's LRU is per node as from 4.8; 4.7's were per zone (docs/model.md).
const L4_7: Flags = Flags {
    swapin_activate: false,
    ..old(true, true, false)
};

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "linux-2.6.33",
        description: "2.6.33: referenced mapped file pages activated on first inactive encounter",
        flags: old(false, false, false),
    },
    Preset {
        name: "linux-2.6.34",
        description: "2.6.34: used-once detection of mapped file pages",
        flags: old(true, false, false),
    },
    Preset {
        name: "linux-4.7",
        description: "4.7: scanned/rotated balancing, swappiness <= 100, swap-ins stay inactive",
        flags: L4_7,
    },
    Preset {
        name: "rfc-2016-lru-cost",
        description: "NOT MAINLINE: 4.7 + the June 2016 posting of 'balance LRU lists based on relative thrashing' (seed 004's kernel)",
        flags: Flags {
            rfc2016_swappiness: true,
            rfc2016_lru_cost: true,
            rfc2016_refault_cost: true,
            ..L4_7
        },
    },
    Preset {
        name: "linux-4.10",
        description: "4.10: kswapd writes dirty pages in LRU order; laptop mode skips dirty pages",
        flags: old(true, true, false),
    },
    Preset {
        name: "linux-4.11",
        description: "4.11: flushers woken on dirty lumps; kswapd writes only pages seen twice",
        flags: old(true, true, true),
    },
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
    Preset {
        name: "linux-6.1-mglru",
        description: "6.1 with the multi-gen LRU enabled: memcgs shrunk in turn",
        flags: Flags {
            lru_gen: true,
            ..f(true, true, true, true, false)
        },
    },
    Preset {
        name: "linux-6.3",
        description: "6.3 classic LRU: rotation cost, recency hints (vma_has_recency)",
        flags: L6_3,
    },
    Preset {
        name: "linux-6.3-mglru",
        description: "6.3 multi-gen LRU with the memcg LRU and recency hints",
        flags: Flags {
            lru_gen: true,
            ..L6_3
        },
    },
    Preset {
        name: "linux-6.14-mglru",
        description: "6.14 multi-gen LRU after the Dec-2024 rework of tiers, types and refaults",
        flags: Flags {
            lru_gen: true,
            mglru_rework: true,
            mglru_protect_saturated: true,
            memcg_lru_gen_once: true,
            reclaim_batch_cluster: true,
            reclaim_batch_quarter: true,
            pgfault_retry_uncounted: true,
            ..L6_3
        },
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
    fn unknown_names_are_errors() {
        assert!(preset("linux-9.9").unwrap_err().contains("linux-5.8"));
        let mut o = std::collections::BTreeMap::new();
        o.insert("nope".to_string(), true);
        assert!(resolve("linux-5.2", &o)
            .unwrap_err()
            .contains("refault_scan_anon"));
    }
}

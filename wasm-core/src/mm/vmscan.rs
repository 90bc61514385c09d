//! Page reclaim (mm/vmscan.c, classic two-list LRU): `shrink_node`, `shrink_lruvec`,
//! `shrink_active_list`, `shrink_inactive_list`, `shrink_folio_list`, reference checks,
//! `pageout`, direct reclaim (`try_to_free_pages`) and one `balance_pgdat` iteration of kswapd.
pub mod balance;
pub mod lru_gen;
pub mod memcg_lru;

use crate::devices::IoDir;
use crate::mm::mm_types::*;
use crate::mm::mmzone::Wakeup;
use crate::mm::mmzone::{Mm, MoveReason};
use crate::mm::space::SpaceKind;
use crate::mm::vmscan::balance::*;
use crate::mm::vmstat::C;

/// CPU cost of reclaim work, charged to the reclaiming task (kswapd or the allocator). Rough
/// figures for a 2-3 GHz core: isolating and checking an inactive page with an rmap walk and
/// unmap ~300 ns; an active page ~100 ns; submitting a page of writeback ~2 us. Per 4 KiB
/// page: a frame costs `frame_scale` times as much (see `mm::memory`).
pub const SCAN_INACTIVE_NS: u64 = 300;
pub const SCAN_ACTIVE_NS: u64 = 100;
pub const PAGEOUT_SUBMIT_NS: u64 = 2_000;
/// Reclaim throttle on writeback (`congestion_wait(BLK_RW_ASYNC, HZ/10)` up to 5.15,
/// `reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK)` after: HZ/10).
pub const THROTTLE_WRITEBACK_NS: u64 = 100_000_000;

/// `struct scan_control`, the parts that matter here.
#[derive(Debug, Clone, Default)]
pub struct ScanControl {
    pub nr_to_reclaim: u64,
    pub priority: u32,
    pub may_writepage: bool,
    pub may_swap: bool,
    pub kswapd: bool,
    pub anon_cost: u64,
    pub file_cost: u64,
    pub may_deactivate: u8,
    /// 5.5+: deactivate both types whatever the ratios say (the retry of
    /// `do_try_to_free_pages`), and whether a pass left an active list alone.
    pub force_deactivate: bool,
    pub skipped_deactivate: bool,
    pub cache_trim_mode: bool,
    pub file_is_tiny: bool,
    pub nr_scanned: u64,
    pub nr_reclaimed: u64,
    pub nr: NrStat,
    /// Time the reclaimer spent (scanning, submitting IO, synchronous IO, throttling, sleeping
    /// for request tags): the pass's clock.
    pub cpu_ns: u64,
    /// The part of `cpu_ns` spent asleep for request tags, which uses no CPU.
    pub tag_sleep_ns: u64,
    /// `sc->target_mem_cgroup`: None for global reclaim (kswapd, direct reclaim); the memcg
    /// for cgroup reclaim (memory.max, memory.high, memory.reclaim — the root included, so
    /// `cgroup_reclaim(sc)` is true for a write to the root's memory.reclaim).
    pub target_memcg: Option<u16>,
    /// `sc->memcg_low_reclaim`: the retry pass that reclaims below-low memcgs too.
    pub memcg_low_reclaim: bool,
    /// `sc->memcg_low_skipped`: a below-low memcg was skipped or scanned less.
    pub memcg_low_skipped: bool,
    /// `sc->proactive` (memory.reclaim).
    pub proactive: bool,
    /// `sc->memcg_full_walk` (6.11+): the retry that walks every memcg without a cookie.
    pub memcg_full_walk: bool,
    /// `sc->proactive_swappiness` (memory.reclaim's `swappiness=`); None: vm.swappiness.
    pub swappiness: Option<u32>,
    /// Anon pages written to swap during this reclaim (MGLRU 6.1's "need_swapping").
    pub nr_anon_pageout: u64,
}

impl ScanControl {
    /// `root_reclaim`: global reclaim or reclaim targeted at the root memcg.
    pub fn root_reclaim(&self) -> bool {
        matches!(self.target_memcg, None | Some(0))
    }
    /// `cgroup_reclaim`: reclaim targeted at a memcg (the global vmstat scan/steal events
    /// are not counted for it).
    pub fn cgroup_reclaim(&self) -> bool {
        self.target_memcg.is_some()
    }
}

/// Which of a reclaim pass's vmstat items to count: pages scanned or reclaimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reclaimed {
    /// pgscan_*: pages isolated.
    Scanned,
    /// pgsteal_*: pages reclaimed.
    Stolen,
}

impl ScanControl {
    /// `PGSCAN_KSWAPD + reclaimer_offset()` / `PGSTEAL_KSWAPD + reclaimer_offset()` (mm/vmscan.c
    /// v6.3; `current_is_kswapd()` picked the item before): the item of who reclaims.
    fn reclaimer_item(&self, what: Reclaimed) -> C {
        match (what, self.kswapd) {
            (Reclaimed::Scanned, true) => C::pgscan_kswapd,
            (Reclaimed::Scanned, false) => C::pgscan_direct,
            (Reclaimed::Stolen, true) => C::pgsteal_kswapd,
            (Reclaimed::Stolen, false) => C::pgsteal_direct,
        }
    }
}

impl Mm {
    /// The scan and steal accounting of `shrink_inactive_list` and MGLRU's `scan_folios` /
    /// `evict_folios` (4.x-6.18): the batch counts as kswapd's, as direct reclaim's or, from
    /// 6.15 (`proactive_counters`, `reclaimer_offset` gaining PGSCAN_PROACTIVE), as
    /// memory.reclaim's own item; /proc/vmstat only for global reclaim
    /// (`if (!cgroup_reclaim(sc))`), memory.stat always; then PGSCAN_ANON/FILE or
    /// PGSTEAL_ANON/FILE (5.8+ items, kept by every variant here).
    pub(crate) fn count_reclaim(
        &mut self,
        sc: &ScanControl,
        lv: usize,
        what: Reclaimed,
        file: bool,
        n: u64,
    ) {
        if sc.proactive && !sc.kswapd && self.flags.proactive_counters {
            use crate::mm::vmstat::Proactive;
            let item = match what {
                Reclaimed::Scanned => Proactive::pgscan_proactive,
                Reclaimed::Stolen => Proactive::pgsteal_proactive,
            };
            if !sc.cgroup_reclaim() {
                self.counters.add_proactive(item, n);
            }
            self.memcgs.list[lv].stat.add_proactive(item, n);
        } else {
            let item = sc.reclaimer_item(what);
            if !sc.cgroup_reclaim() {
                self.counters.add(item, n);
            }
            self.count_memcg(lv, item, n);
        }
        let by_type = match (what, file) {
            (Reclaimed::Scanned, false) => C::pgscan_anon,
            (Reclaimed::Scanned, true) => C::pgscan_file,
            (Reclaimed::Stolen, false) => C::pgsteal_anon,
            (Reclaimed::Stolen, true) => C::pgsteal_file,
        };
        self.counters.add(by_type, n);
    }
}

/// `sc->nr`: writeback state of the pages a `shrink_node` pass met.
#[derive(Debug, Clone, Copy, Default)]
pub struct NrStat {
    pub dirty: u64,
    pub unqueued_dirty: u64,
    pub congested: u64,
    pub writeback: u64,
    pub immediate: u64,
    pub file_taken: u64,
    pub taken: u64,
}

/// `enum folio_references`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refs {
    Activate,
    Keep,
    Reclaim,
    ReclaimClean,
}

/// What the rmap walk and the page flags told reclaim about one page.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefState {
    /// Mappings with young PTEs (`referenced_ptes`); the walk clears them.
    pub young: u32,
    /// PG_referenced was set (test-and-cleared by the check).
    pub referenced: bool,
    /// One of the young mappings is VM_EXEC.
    pub exec: bool,
    /// One of the mappings is VM_LOCKED.
    pub locked: bool,
    /// A file (not swap-backed) page.
    pub file: bool,
    /// 2.6.33 `page_mapping_inuse`: the page is mapped, or in the swap cache, or its file or
    /// shmem segment is mmapped by anyone.
    pub in_use: bool,
}

/// The reference check of `shrink_folio_list`, as a pure function. Returns the verdict and
/// whether PG_referenced ends up set.
///
/// - `used_once_mapped` (2.6.34+, `page_check_references`): a young page is kept for one more
///   inactive trip with PG_referenced set and activated when found referenced again;
///   swap-backed young pages activate at once unless `anon_needs_two_refs` (5.9+); with
///   `activate_shared_exec` (3.3+) a page young in several mappings, or a young file page in an
///   executable mapping, activates at once; PG_referenced alone on a file page means
///   "reclaim, but do not write it" (used-once `read()` cache).
/// - before (2.6.33 `shrink_page_list`): `page_referenced` counts young PTEs plus
///   PG_referenced (clearing both); a referenced page that is `page_mapping_inuse` is
///   activated; a referenced dirty page of any type is not written (kept), as RECLAIM_CLEAN
///   does for file pages later.
///
/// VM_LOCKED pages are activated in every variant (the engine has no unevictable culling).
pub fn check_references(
    r: RefState,
    used_once_mapped: bool,
    activate_shared_exec: bool,
    anon_needs_two_refs: bool,
) -> (Refs, bool) {
    if r.locked {
        return (Refs::Activate, r.referenced);
    }
    if !used_once_mapped {
        let referenced = r.young > 0 || r.referenced;
        if referenced && r.in_use {
            return (Refs::Activate, false);
        }
        if referenced {
            return (Refs::ReclaimClean, false);
        }
        return (Refs::Reclaim, false);
    }
    if r.young > 0 {
        if !r.file && !anon_needs_two_refs {
            return (Refs::Activate, false);
        }
        if r.referenced {
            return (Refs::Activate, true);
        }
        if activate_shared_exec && (r.young > 1 || (r.exec && r.file)) {
            return (Refs::Activate, true);
        }
        return (Refs::Keep, true);
    }
    if r.referenced && r.file {
        return (Refs::ReclaimClean, false);
    }
    (Refs::Reclaim, false)
}

enum Outcome {
    Activate,
    Keep,
    Freed,
}

impl Mm {
    /// `shrink_active_list`: deactivate pages from the tail of an active list. Referenced
    /// executable file pages stay active (2.6.31+); every other page goes to the inactive
    /// head. Before 2.6.34 (`!used_once_mapped`) only pages that are `page_mapping_inuse` are
    /// checked, and the check clears PG_referenced too.
    pub fn shrink_active_list(
        &mut self,
        lv: usize,
        lru: usize,
        nr_to_scan: u64,
        sc: &mut ScanControl,
    ) {
        let file = is_file_lru(lru);
        self.writes_done_during_reclaim(sc);
        let mut iso = Vec::with_capacity(nr_to_scan as usize);
        self.isolate_tail(lv, lru, nr_to_scan, &mut iso);
        self.skip_unclean_in_laptop_mode(sc, &mut iso);
        let taken = iso.len() as u64;
        self.counters.add(C::pgrefill, taken);
        self.count_memcg(lv, C::pgrefill, taken);
        sc.cpu_ns += taken * SCAN_ACTIVE_NS * self.scale;
        self.note_reclaim_stat(lv, file, taken, 0);
        let mut nr_rotated = 0u64;
        let mut nr_exec_kept = 0u64;
        let mut nr_deactivated = 0u64;
        for &f in &iso {
            let (rp, vmf) = if self.flags.used_once_mapped {
                self.folio_referenced(f)
            } else if self.page_mapping_inuse(f) {
                let (rp, vmf) = self.folio_referenced(f);
                let rf = self.frames.test_clear(f, PG_REFERENCED);
                (rp + rf as u32, vmf)
            } else {
                (0, 0)
            };
            if rp > 0 {
                nr_rotated += 1;
                if vmf & VM_EXEC != 0 && file {
                    nr_exec_kept += 1;
                    self.lru_add_head(f);
                    // 5.8+: pages put back active age the nonresident clock.
                    if self.flags.io_cost_balance {
                        self.age_nonresident(lv, 1);
                    }
                    self.trace
                        .moves
                        .record(self.now, f, lru as u8, lru as u8, MoveReason::Rotate);
                    continue;
                }
            }
            self.frames.clear(f, PG_ACTIVE);
            self.frames.set(f, PG_WORKINGSET);
            self.lru_add_head(f);
            nr_deactivated += 1;
            self.trace.moves.record(
                self.now,
                f,
                lru as u8,
                (lru - 1) as u8,
                MoveReason::Deactivate,
            );
        }
        self.counters.add(C::pgdeactivate, nr_deactivated);
        self.count_memcg(lv, C::pgdeactivate, nr_deactivated);
        // <= 5.7: every referenced page counts as rotated, even the deactivated ones.
        self.note_reclaim_stat(lv, file, 0, nr_rotated);
        if self.flags.rotation_cost && nr_exec_kept > 0 {
            self.lru_note_cost(lv, file, 0, nr_exec_kept);
        }
        // RFC 2016 09/10: only VM_EXEC file pages really kept active cost CPU.
        if self.flags.rfc2016_lru_cost {
            self.lru_note_cost_2016(lv, file, 0, nr_exec_kept);
        }
    }

    /// 4.10 `isolate_lru_pages` (inactive and active lists): without may_writepage (laptop
    /// mode) isolation is ISOLATE_CLEAN: dirty and writeback pages are skipped and moved to the
    /// list head. 4.11+ ("scan dirty pages even in laptop mode") isolates them like any other.
    /// ISOLATE_CLEAN itself came with the ~3.2 series that kept file writeback to kswapd
    /// ("mm: zone_reclaim: make isolate_lru_page() filter-aware"), so 2.6.3x isolates all.
    fn skip_unclean_in_laptop_mode(&mut self, sc: &ScanControl, iso: &mut Vec<u32>) {
        if sc.may_writepage
            || self.flags.kswapd_writeback_4_11
            || !self.flags.file_writeback_kswapd_only
        {
            return;
        }
        let mut kept = Vec::with_capacity(iso.len());
        for &f in iso.iter() {
            if self.frames.folio[f as usize].flags & (PG_DIRTY | PG_WRITEBACK) != 0 {
                self.lru_add_head(f);
            } else {
                kept.push(f);
            }
        }
        *iso = kept;
    }

    /// `shrink_inactive_list`: isolate a batch from the inactive tail and run it through
    /// `shrink_folio_list`; returns the number reclaimed.
    pub fn shrink_inactive_list(
        &mut self,
        lv: usize,
        lru: usize,
        nr_to_scan: u64,
        sc: &mut ScanControl,
    ) -> u64 {
        let file = is_file_lru(lru);
        self.writes_done_during_reclaim(sc);
        let mut iso = Vec::with_capacity(nr_to_scan as usize);
        self.isolate_tail(lv, lru, nr_to_scan, &mut iso);
        self.skip_unclean_in_laptop_mode(sc, &mut iso);
        let taken = iso.len() as u64;
        if taken == 0 {
            return 0;
        }
        self.count_reclaim(sc, lv, Reclaimed::Scanned, file, taken);
        self.note_reclaim_stat(lv, file, taken, 0);
        let mut stat = NrStat {
            taken,
            file_taken: if file { taken } else { 0 },
            ..Default::default()
        };
        let mut nr_pageout = 0u64;
        let mut reclaimed = 0u64;
        let mut nr_activated = 0u64;
        for &f in &iso {
            let from = lru as u8;
            match self.shrink_folio(f, sc, &mut stat, &mut nr_pageout) {
                Outcome::Freed => reclaimed += 1,
                Outcome::Activate => {
                    self.frames.set(f, PG_ACTIVE);
                    self.counters.add(C::pgactivate, 1);
                    self.count_memcg(lv, C::pgactivate, 1);
                    nr_activated += 1;
                    self.lru_add_head(f);
                    if self.flags.io_cost_balance {
                        self.age_nonresident(lv, 1);
                    }
                    let to = self.frames.list[f as usize];
                    self.trace
                        .moves
                        .record(self.now, f, from, to, MoveReason::Activate);
                }
                Outcome::Keep => {
                    self.lru_add_head(f);
                    let to = self.frames.list[f as usize];
                    self.trace
                        .moves
                        .record(self.now, f, from, to, MoveReason::Rotate);
                }
            }
        }
        sc.cpu_ns += (taken * SCAN_INACTIVE_NS + nr_pageout * PAGEOUT_SUBMIT_NS) * self.scale;
        self.count_reclaim(sc, lv, Reclaimed::Stolen, file, reclaimed);
        // <= 5.7: pages put back on the active list count as rotated (`putback_inactive_pages`).
        self.note_reclaim_stat(lv, file, 0, nr_activated);
        // RFC 2016 07/10 (`putback_inactive_pages`): the same pages, as CPU cost.
        if self.flags.rfc2016_lru_cost {
            self.lru_note_cost_2016(lv, file, 0, nr_activated);
        }
        // 5.8+: pageouts are the IO cost of reclaiming this type; 6.2+ also rotations.
        if self.flags.rotation_cost {
            self.lru_note_cost(lv, file, nr_pageout, taken - reclaimed);
        } else if nr_pageout > 0 {
            self.lru_note_cost(lv, file, nr_pageout, 0);
        }
        // 4.11+ (`shrink_inactive_list`): a batch entirely of unqueued dirty file pages wakes
        // the flushers for everything.
        if self.flags.kswapd_writeback_4_11
            && stat.unqueued_dirty > 0
            && stat.unqueued_dirty == taken
        {
            self.wb.flush_all = true;
            self.wake_flusher();
        }
        // <= 4.15 (`shrink_inactive_list`): each batch of global reclaim sets the node flags
        // from its own counts, and throttles when kswapd met pages it had tagged before.
        if !self.flags.pgdat_flags_per_node {
            if stat.writeback > 0 && stat.writeback == taken {
                self.pgdat.writeback = true;
            }
            if stat.unqueued_dirty == taken {
                self.pgdat.dirty = true;
            }
            if stat.immediate > 0 {
                sc.cpu_ns += THROTTLE_WRITEBACK_NS;
            }
        }
        sc.nr.dirty += stat.dirty;
        sc.nr.unqueued_dirty += stat.unqueued_dirty;
        sc.nr.congested += stat.congested;
        sc.nr.writeback += stat.writeback;
        sc.nr.immediate += stat.immediate;
        sc.nr.file_taken += stat.file_taken;
        sc.nr.taken += stat.taken;
        reclaimed
    }

    /// One page of `shrink_folio_list` (6.x order of checks).
    fn shrink_folio(
        &mut self,
        f: u32,
        sc: &mut ScanControl,
        stat: &mut NrStat,
        nr_pageout: &mut u64,
    ) -> Outcome {
        let flags = self.frames.folio[f as usize].flags;
        if flags & PG_LOCKED != 0 {
            return Outcome::Keep;
        }
        sc.nr_scanned += 1;
        // 6.1-6.13 ("folio_update_gen() tried to promote this page?", `shrink_folio_list`
        // v6.1): a mapped folio marked PG_referenced while isolated, by look-around from
        // another folio of its batch, is kept without a look at its PTEs. 6.14 dropped this.
        if self.flags.lru_gen
            && !self.flags.mglru_rework
            && flags & PG_REFERENCED != 0
            && self.frames.folio[f as usize].mapped != 0
        {
            return Outcome::Keep;
        }
        let file = flags & PG_SWAPBACKED == 0;
        let dirty = flags & PG_DIRTY != 0;
        let writeback = flags & PG_WRITEBACK != 0;
        if file {
            if dirty || writeback {
                stat.dirty += 1;
            }
            if dirty && !writeback {
                stat.unqueued_dirty += 1;
            }
            if writeback && flags & PG_RECLAIM != 0 {
                stat.congested += 1;
            }
        }
        if writeback && !self.flags.kswapd_reclaim_3_11 {
            // 2.6.3x: kept as it is, no tag, no count.
            return Outcome::Keep;
        }
        if writeback {
            // Cases 1 and 2 of `shrink_page_list` (4.10/4.11): kswapd meeting a page it tagged
            // before on a node flagged PGDAT_WRITEBACK counts it for throttling; otherwise the
            // page is tagged for rotation on completion. 4.11 moves it to the active list,
            // 4.10 puts it back on the inactive list.
            if sc.kswapd && flags & PG_RECLAIM != 0 && self.pgdat.writeback {
                stat.immediate += 1;
            } else {
                self.frames.set(f, PG_RECLAIM);
                stat.writeback += 1;
            }
            return if self.flags.kswapd_writeback_4_11 {
                Outcome::Activate
            } else {
                Outcome::Keep
            };
        }
        let refs = if self.flags.lru_gen {
            self.lru_gen_check_references(f)
        } else {
            let in_use = self.page_mapping_inuse(f);
            let (rp, vmf) = self.folio_referenced(f);
            let rf = self.frames.test_clear(f, PG_REFERENCED);
            let (refs, referenced) = check_references(
                RefState {
                    young: rp,
                    referenced: rf,
                    exec: vmf & VM_EXEC != 0,
                    locked: vmf & VM_LOCKED != 0,
                    file,
                    in_use,
                },
                self.flags.used_once_mapped,
                self.flags.activate_shared_exec,
                self.flags.anon_workingset,
            );
            if referenced {
                self.frames.set(f, PG_REFERENCED);
            }
            refs
        };
        match refs {
            Refs::Activate => return self.activate_outcome(f),
            Refs::Keep => return Outcome::Keep,
            Refs::Reclaim | Refs::ReclaimClean => {}
        }
        // Anon not yet in the swap cache: allocate a slot (`add_to_swap`), which dirties it.
        if !file && flags & PG_SWAPCACHE == 0 {
            let sp = self.frames.space[f as usize] as usize;
            let idx = self.frames.index[f as usize] as usize;
            let Some(slot) = self
                .swap
                .as_mut()
                .and_then(|s| s.alloc_for(sp as u32, idx as u32))
            else {
                return self.activate_outcome(f);
            };
            self.spaces[sp].swap[idx] = slot;
            self.spaces[sp].swapped += 1;
            self.frames.set(f, PG_SWAPCACHE | PG_DIRTY);
        }
        // `try_to_unmap`: drop every mapping (young bits were just consumed).
        self.pte_clear_young(f);
        self.frames.folio[f as usize].mapped = 0;
        if self.frames.has(f, PG_DIRTY) {
            // `shrink_page_list`: only kswapd writes file pages, and only once the node is
            // flagged PGDAT_DIRTY (4.10); 4.11+ also requires that kswapd tagged the page on an
            // earlier trip (PG_reclaim). Otherwise tag it and leave it to the flushers: 4.11+
            // moves it out of the way to the active list, 4.10 back to the inactive list.
            if file && !self.reclaim_may_write_file(sc, flags) {
                self.frames.set(f, PG_RECLAIM);
                self.counters.add(C::nr_vmscan_immediate_reclaim, 1);
                return if self.flags.kswapd_writeback_4_11 {
                    self.activate_outcome(f)
                } else {
                    Outcome::Keep
                };
            }
            if refs == Refs::ReclaimClean || !sc.may_writepage {
                return Outcome::Keep;
            }
            match self.pageout(f, sc) {
                true => *nr_pageout += 1,
                false => return Outcome::Keep,
            }
            if self.frames.has(f, PG_WRITEBACK) || self.frames.has(f, PG_DIRTY) {
                return Outcome::Keep;
            }
        }
        self.remove_mapping(f, sc.target_memcg.unwrap_or(0) as usize);
        Outcome::Freed
    }

    /// `shrink_folio_list` for one isolated folio of MGLRU's `evict_folios`: None if freed,
    /// else whether it is to be activated.
    pub(crate) fn shrink_folio_mglru(
        &mut self,
        f: u32,
        sc: &mut ScanControl,
        stat: &mut NrStat,
        nr_pageout: &mut u64,
    ) -> Option<bool> {
        match self.shrink_folio(f, sc, stat, nr_pageout) {
            Outcome::Freed => None,
            Outcome::Activate => Some(true),
            Outcome::Keep => Some(false),
        }
    }

    /// May this reclaimer write a dirty file page with flags `flags` itself (`pageout`)?
    /// <= 3.1 (`!file_writeback_kswapd_only`): any reclaimer.
    /// `shrink_page_list` 4.10: kswapd on a PGDAT_DIRTY node; 4.11+ (`kswapd_writeback_4_11`):
    /// only pages kswapd already tagged PG_reclaim ("rotated twice").
    pub fn reclaim_may_write_file(&self, sc: &ScanControl, flags: u16) -> bool {
        if !self.flags.file_writeback_kswapd_only {
            // 2.6.3x: any reclaimer (may_writepage and the reference check still apply).
            return true;
        }
        sc.kswapd
            && self.pgdat.dirty
            && (!self.flags.kswapd_writeback_4_11 || flags & PG_RECLAIM != 0)
    }

    /// The activate path of `shrink_folio_list`: a swap-cache page on a half-full swap device
    /// gives its slot back (`folio_free_swap`), since it will stay resident a while.
    fn activate_outcome(&mut self, f: u32) -> Outcome {
        // `try_to_free_swap` fails while a swap entry is still referenced: by the PTEs of an
        // unmapped private page, or by a shmem mapping.
        let sp = self.frames.space[f as usize];
        let referenced = self.frames.folio[f as usize].mapped == 0
            || (sp != NIL && self.spaces[sp as usize].kind == SpaceKind::Shmem);
        if self.frames.has(f, PG_SWAPCACHE)
            && !referenced
            && self.swap.as_ref().is_some_and(|s| s.full())
            && !self.frames.has(f, PG_WRITEBACK)
        {
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        }
        Outcome::Activate
    }

    /// A reclaim pass runs as one engine step, but it takes time (its CPU so far, and any
    /// sleep for request tags), and the device goes on completing writes meanwhile, as
    /// interrupts do under a running reclaimer: writes done by then end before the next batch
    /// is isolated, so their pages are back at the inactive tail (PG_reclaim) and reclaimable
    /// in the same pass, as in every kernel version.
    pub(crate) fn writes_done_during_reclaim(&mut self, sc: &ScanControl) {
        self.complete_writes_until(self.now + sc.cpu_ns);
    }

    /// `pageout`: write a dirty page (to swap for anon, to its file otherwise). Returns false if
    /// the page could not be written. Synchronous devices complete at once (cost to the caller).
    fn pageout(&mut self, f: u32, sc: &mut ScanControl) -> bool {
        let file = !self.frames.has(f, PG_SWAPBACKED);
        let sp = self.frames.space[f as usize] as usize;
        let idx = self.frames.index[f as usize] as usize;
        let (dev, lba) = if file {
            (self.spaces[sp].device, self.spaces[sp].lba + idx as u64)
        } else {
            let Some(swap) = self.swap.as_ref() else {
                return false;
            };
            (swap.device, self.spaces[sp].swap[idx] as u64)
        };
        self.frames.set(f, PG_RECLAIM);
        self.clear_dirty(f);
        self.frames.set(f, PG_WRITEBACK);
        if file {
            self.wb.nr_writeback += 1;
        }
        self.counters.add(C::nr_vmscan_write, 1);
        self.counters
            .add(if file { C::pgpgout } else { C::pswpout }, 1);
        let scale = self.scale;
        let mut now = self.now + sc.cpu_ns;
        // `blk_mq_get_tag`: with the request queue full the reclaimer sleeps until writes
        // complete; they complete meanwhile (their pages rotate to the inactive tail).
        if let Some(until) = self.devices[dev].write_queue_wait(now, scale) {
            self.complete_writes_until(until);
            sc.cpu_ns += until - now;
            sc.tag_sleep_ns += until - now;
            now = until;
        }
        let d = &mut self.devices[dev];
        let done = d.submit(now, lba * scale, scale, IoDir::Write);
        if d.synchronous {
            sc.cpu_ns += done - now;
            self.frames.clear(f, PG_WRITEBACK | PG_RECLAIM);
            if file {
                self.wb.nr_writeback -= 1;
            }
        } else {
            self.submit_page_write(f, done);
        }
        true
    }

    /// `__remove_mapping` + free: take a clean, unmapped page out of the page cache or swap cache,
    /// leaving a shadow entry (file pages 3.15+, `workingset_detection`; swap-cache pages 5.9+),
    /// and free the frame.
    /// 5.8 ("mm: workingset: age nonresident information alongside anonymous pages", merged
    /// for v5.8) calls `workingset_eviction` for a swap-cache page too but drops the shadow:
    /// the eviction ages the nonresident clock that file refault distances are measured on.
    /// `target`: the reclaim target's lruvec (`sc->target_mem_cgroup`; 0 for global reclaim).
    pub fn remove_mapping(&mut self, f: u32, target: usize) {
        let sp = self.frames.space[f as usize] as usize;
        let idx = self.frames.index[f as usize] as usize;
        let file = !self.frames.has(f, PG_SWAPBACKED);
        let shadow = if !self.flags.workingset_detection {
            0
        } else if file || self.flags.anon_workingset {
            self.workingset_eviction(f, target)
        } else {
            if self.flags.io_cost_balance {
                self.workingset_eviction(f, target);
            }
            0
        };
        let from = self.frames.list[f as usize];
        self.uninstall(f);
        if !self.spaces[sp].dead {
            self.spaces[sp].set_shadow(idx, shadow);
        }
        self.trace
            .moves
            .record(self.now, f, from, LIST_FREE, MoveReason::Evict);
        self.free_frame(f);
    }

    /// `shrink_list`: active lists are shrunk only when the deactivation rule allows.
    fn shrink_list(&mut self, lv: usize, lru: usize, n: u64, sc: &mut ScanControl) -> u64 {
        if lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE {
            let file = lru == LRU_ACTIVE_FILE;
            let allowed = if self.flags.scan_decisions_per_node {
                sc.may_deactivate
                    & if file {
                        DEACTIVATE_FILE
                    } else {
                        DEACTIVATE_ANON
                    }
                    != 0
            } else {
                self.inactive_list_is_low(lv, file, true)
            };
            if allowed {
                self.shrink_active_list(lv, lru, n, sc);
            } else {
                sc.skipped_deactivate = true;
            }
            return 0;
        }
        self.shrink_inactive_list(lv, lru, n, sc)
    }

    /// `shrink_lruvec`: scan the lists in 32-page chunks in the proportions of
    /// `get_scan_count`, stop early (rescaled) once the goal is met unless this is global
    /// direct reclaim at DEF_PRIORITY; then always age anon a little. Before 3.11
    /// (`kswapd_reclaim_3_11`, 2.6.3x `shrink_zone`): any reclaimer stops at the goal below
    /// DEF_PRIORITY, without rescaling.
    pub fn shrink_lruvec(&mut self, lv: usize, sc: &mut ScanControl) {
        if self.flags.lru_gen {
            return self.lru_gen_shrink_lruvec(lv, sc);
        }
        let (mut nr, balance, _, _) = self.get_scan_count(lv, sc);
        self.trace.balance_hist[balance as usize] += 1;
        let targets = nr;
        // `proportional_reclaim`: global direct reclaim at DEF_PRIORITY only (not cgroup reclaim).
        let proportional = if self.flags.kswapd_reclaim_3_11 {
            !sc.kswapd && sc.target_memcg.is_none() && sc.priority == DEF_PRIORITY
        } else {
            sc.priority == DEF_PRIORITY
        };
        let chunk = (SWAP_CLUSTER_MAX / self.scale).max(1);
        let mut reclaimed = 0u64;
        let mut scan_adjusted = false;
        while nr[LRU_INACTIVE_ANON] > 0 || nr[LRU_ACTIVE_FILE] > 0 || nr[LRU_INACTIVE_FILE] > 0 {
            for (lru, left) in nr.iter_mut().enumerate() {
                if *left > 0 {
                    let n = (*left).min(chunk);
                    *left -= n;
                    reclaimed += self.shrink_list(lv, lru, n, sc);
                }
            }
            if reclaimed < sc.nr_to_reclaim || proportional || scan_adjusted {
                continue;
            }
            if !self.flags.kswapd_reclaim_3_11 {
                break;
            }
            // Goal met: scale the remaining scan back to the original proportions, then finish.
            let file_left = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
            let anon_left = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
            if file_left == 0 || anon_left == 0 {
                break;
            }
            let (small, other) = if file_left > anon_left {
                (0usize, 2usize)
            } else {
                (2, 0)
            };
            let small_left = if small == 0 { anon_left } else { file_left };
            let pct = small_left * 100 / (targets[small] + targets[small + 1] + 1);
            nr[small] = 0;
            nr[small + 1] = 0;
            for l in [other, other + 1] {
                let done = targets[l] - nr[l];
                let want = targets[l] * (100 - pct.min(100)) / 100;
                nr[l] = want.saturating_sub(done.min(want));
            }
            scan_adjusted = true;
        }
        sc.nr_reclaimed += reclaimed;
        // 2.6.31-2.6.35 `shrink_zone`: only while swap has free slots (`nr_swap_pages`).
        let swap = if self.flags.anon_aging_needs_swap {
            self.total_swap()
        } else {
            self.swap_free()
        };
        if swap > 0 && self.inactive_list_is_low_for_aging(lv) {
            let chunk = (SWAP_CLUSTER_MAX / self.scale).max(1);
            self.shrink_active_list(lv, LRU_ACTIVE_ANON, chunk, sc);
        }
    }

    /// Does kswapd age active anon before this pass (`kswapd_age_node`, 2.6.3x
    /// `balance_pgdat`)? When the inactive anon list is low and swap exists; before 2.6.36
    /// (`anon_aging_needs_swap`) whether or not there is swap.
    fn kswapd_ages_anon(&self) -> bool {
        if self.flags.anon_aging_needs_swap {
            self.total_swap() > 0 && self.inactive_list_is_low_for_aging(0)
        } else {
            self.inactive_is_low(0, false)
        }
    }

    fn inactive_list_is_low_for_aging(&self, lv: usize) -> bool {
        if self.flags.scan_decisions_per_node {
            self.inactive_is_low(lv, false)
        } else {
            self.inactive_list_is_low(lv, false, true)
        }
    }

    /// `shrink_node`: one pass over the node at `sc.priority` (the scan decisions taken once
    /// at the reclaim target's lruvec, `prepare_scan_control` 5.5+), then kswapd's writeback
    /// flags.
    pub fn shrink_node(&mut self, sc: &mut ScanControl) {
        sc.nr = NrStat::default();
        let before = sc.nr_reclaimed;
        if self.flags.lru_gen && self.flags.memcg_lru && sc.root_reclaim() {
            self.lru_gen_shrink_node(sc);
            if sc.nr_reclaimed > before {
                self.pgdat.kswapd_failures = 0;
            }
            return;
        }
        if self.flags.scan_decisions_per_node && !self.flags.lru_gen {
            let target = sc.target_memcg.unwrap_or(0) as usize;
            self.prepare_scan_control(target, sc);
        }
        self.shrink_node_memcgs(sc);
        if sc.kswapd && self.flags.pgdat_flags_per_node {
            if sc.nr.writeback > 0 && sc.nr.writeback == sc.nr.taken {
                self.pgdat.writeback = true;
            }
            if sc.nr.unqueued_dirty > 0 && sc.nr.unqueued_dirty == sc.nr.file_taken {
                self.pgdat.dirty = true;
            }
            if sc.nr.immediate > 0 {
                sc.cpu_ns += THROTTLE_WRITEBACK_NS;
            }
        }
        if sc.nr_reclaimed > before {
            self.pgdat.kswapd_failures = 0;
        }
    }

    /// `try_to_free_pages`: global direct reclaim of SWAP_CLUSTER_MAX pages. Returns
    /// (reclaimed frames, CPU time spent).
    pub fn try_to_free_pages(&mut self) -> (u64, u64) {
        self.counters.add(C::allocstall, 1);
        let mut sc = ScanControl {
            nr_to_reclaim: (SWAP_CLUSTER_MAX / self.scale).max(1),
            priority: DEF_PRIORITY,
            may_writepage: !self.laptop_mode,
            may_swap: true,
            kswapd: false,
            ..Default::default()
        };
        self.do_try_to_free_pages(&mut sc);
        (sc.nr_reclaimed, sc.cpu_ns)
    }

    /// `try_to_free_mem_cgroup_pages` (5.x-6.x): reclaim max(`nr_frames`, SWAP_CLUSTER_MAX)
    /// from `memcg`'s subtree, run by the charging or writing task (counted as direct
    /// reclaim in the memcgs' memory.stat, not in the global pgscan/pgsteal_direct).
    /// `proactive`: memory.reclaim (`MEMCG_RECLAIM_PROACTIVE`). Returns (reclaimed frames, CPU).
    pub fn try_to_free_mem_cgroup_pages(
        &mut self,
        memcg: u16,
        nr_frames: u64,
        may_swap: bool,
        proactive: bool,
        swappiness: Option<u32>,
    ) -> (u64, u64) {
        let mut sc = ScanControl {
            nr_to_reclaim: nr_frames.max((SWAP_CLUSTER_MAX / self.scale).max(1)),
            priority: DEF_PRIORITY,
            may_writepage: !self.laptop_mode,
            may_swap,
            kswapd: false,
            target_memcg: Some(memcg),
            proactive,
            swappiness,
            ..Default::default()
        };
        self.do_try_to_free_pages(&mut sc);
        (sc.nr_reclaimed, sc.cpu_ns)
    }

    /// `shrink_node_memcgs` (4.x up to 6.10, `mem_cgroup_iter` without a shared cursor): a full
    /// pre-order walk of the reclaim target's subtree (the root for global reclaim) with no
    /// early exit; from 6.11 (`memcg_incremental_walk`) direct and memcg reclaim walk on from
    /// where the target's last walk stopped and stop at the goal; per memcg the effective
    /// protection is computed top-down, below-min memcgs are skipped, below-low ones skipped
    /// unless this is the low-reclaim retry (then a `low` event is counted), and the rest get a
    /// full `shrink_lruvec`.
    fn shrink_node_memcgs(&mut self, sc: &mut ScanControl) {
        if self.memcgs.only_root() {
            self.shrink_lruvec(0, sc);
            return;
        }
        let target = sc.target_memcg.unwrap_or(0);
        let order = self.memcgs.preorder(target);
        // 6.11+ (`memcg_incremental_walk`): a reclaim cookie unless kswapd or the full-walk
        // retry; the walk goes on from where the target's last walk stopped, to the end of
        // the subtree, and stops once the goal is met.
        let partial = self.flags.memcg_incremental_walk && !sc.kswapd && !sc.memcg_full_walk;
        let start = if partial {
            if self.memcg_reclaim_pos.len() < self.memcgs.len() {
                self.memcg_reclaim_pos.resize(self.memcgs.len(), None);
            }
            match self.memcg_reclaim_pos[target as usize] {
                Some(pos) => order.iter().position(|&m| m == pos).map_or(0, |i| i + 1),
                None => 0,
            }
        } else {
            0
        };
        if partial {
            // Reaching the end of the subtree starts the next walk at the target again.
            self.memcg_reclaim_pos[target as usize] = None;
        }
        for &m in &order[start..] {
            if partial {
                self.memcg_reclaim_pos[target as usize] = Some(m);
            }
            self.memcgs.calculate_protection(target, m);
            if self.memcgs.below_min(target, m) {
                continue;
            }
            if self.memcgs.below_low(target, m) {
                if !sc.memcg_low_reclaim {
                    sc.memcg_low_skipped = true;
                    continue;
                }
                self.memcgs.event(m, crate::mm::memcg::MemcgEvent::Low);
            }
            self.shrink_lruvec(m as usize, sc);
            if partial && sc.nr_reclaimed >= sc.nr_to_reclaim {
                return;
            }
        }
        if partial {
            self.memcg_reclaim_pos[target as usize] = None;
        }
    }

    /// `do_try_to_free_pages`: priority 12 down to 0 until the goal is met; if nothing was
    /// reclaimed and a below-low memcg was skipped, once more from DEF_PRIORITY with
    /// `memcg_low_reclaim` (4.16+). Refaults are snapshot at the target's lruvec.
    fn do_try_to_free_pages(&mut self, sc: &mut ScanControl) {
        let mut total_scanned = 0u64;
        loop {
            sc.nr_scanned = 0;
            self.shrink_node(sc);
            total_scanned += sc.nr_scanned;
            if sc.nr_reclaimed >= sc.nr_to_reclaim {
                break;
            }
            // 4.10 `do_try_to_free_pages`: having scanned 1.5x the goal, wake the flushers for
            // that many pages (all of them in laptop mode) and allow writepage. Removed in 4.11
            // ("remove old flusher wakeup from direct reclaim path").
            if !self.flags.kswapd_writeback_4_11
                && total_scanned > sc.nr_to_reclaim + sc.nr_to_reclaim / 2
            {
                if self.laptop_mode {
                    self.wb.flush_all = true;
                } else {
                    self.wb.flush_pages += total_scanned;
                }
                self.wake_flusher();
                sc.may_writepage = true;
            }
            if sc.priority < DEF_PRIORITY - 2 {
                sc.may_writepage = true;
                // 2.6.3x: "Take a nap, wait for some writeback to complete".
                if !self.flags.kswapd_reclaim_3_11 && sc.nr_scanned > 0 {
                    sc.cpu_ns += THROTTLE_WRITEBACK_NS;
                }
            }
            if sc.priority == 0 {
                // 6.11+: a reclaim that freed nothing on partial walks first walks every memcg.
                if sc.nr_reclaimed == 0 && self.flags.memcg_incremental_walk && !sc.memcg_full_walk
                {
                    sc.priority = DEF_PRIORITY;
                    sc.memcg_full_walk = true;
                    continue;
                }
                // 5.5+ ("mm: vmscan: enforce inactive:active ratio at the reclaim root"): a
                // whole pass that freed nothing while it left active lists alone for their
                // ratios is retried with forced deactivation.
                if sc.nr_reclaimed == 0
                    && self.flags.scan_decisions_per_node
                    && sc.skipped_deactivate
                {
                    sc.priority = DEF_PRIORITY;
                    sc.force_deactivate = true;
                    sc.skipped_deactivate = false;
                    continue;
                }
                if sc.nr_reclaimed == 0 && sc.memcg_low_skipped && !sc.memcg_low_reclaim {
                    sc.priority = DEF_PRIORITY;
                    sc.force_deactivate = false;
                    sc.skipped_deactivate = false;
                    sc.memcg_low_reclaim = true;
                    sc.memcg_low_skipped = false;
                    continue;
                }
                break;
            }
            sc.priority -= 1;
        }
        self.snapshot_refaults(sc.target_memcg.unwrap_or(0) as usize);
    }

    /// Test instrumentation (`ScanInactiveFile`): one `shrink_inactive_list` pass over the
    /// whole inactive file list as kswapd would run it; returns the CPU time.
    pub fn force_scan_inactive_file(&mut self) -> u64 {
        let mut sc = ScanControl {
            nr_to_reclaim: u64::MAX,
            priority: DEF_PRIORITY,
            may_writepage: !self.laptop_mode,
            may_swap: true,
            kswapd: true,
            ..Default::default()
        };
        for lv in 0..self.lruvecs.len() {
            let n = self.lruvecs[lv].size(LRU_INACTIVE_FILE);
            let chunk = (SWAP_CLUSTER_MAX / self.scale).max(1);
            let mut left = n;
            while left > 0 {
                let k = left.min(chunk);
                self.shrink_inactive_list(lv, LRU_INACTIVE_FILE, k, &mut sc);
                left -= k;
                self.trace.forced_scan_pages += k * self.scale;
            }
        }
        sc.cpu_ns
    }

    /// `drop_pagecache_sb` / `invalidate_mapping_pages`: free every clean, unmapped, unlocked
    /// page-cache page of every file (no shadow entries are left).
    pub fn drop_caches(&mut self) {
        for sp in 0..self.spaces.len() {
            if self.spaces[sp].kind != SpaceKind::File {
                continue;
            }
            for i in 0..self.spaces[sp].len() as usize {
                let f = self.spaces[sp].page(i);
                if f == NIL
                    || self.frames.folio[f as usize].mapped != 0
                    || self.frames.folio[f as usize].flags & (PG_DIRTY | PG_WRITEBACK | PG_LOCKED)
                        != 0
                {
                    continue;
                }
                self.drop_page(f);
            }
        }
    }

    /// Can reclaim still find pages? (`zone_reclaimable_pages`: file, plus anon with swap.)
    pub fn reclaimable_frames(&self) -> u64 {
        let file = self.lru_size(LRU_ACTIVE_FILE) + self.lru_size(LRU_INACTIVE_FILE);
        let anon = self.lru_size(LRU_ACTIVE_ANON) + self.lru_size(LRU_INACTIVE_ANON);
        if self.swap_free() > 0 {
            file + anon
        } else {
            file
        }
    }

    /// Is the node balanced for kswapd (free above the high watermark)?
    pub fn kswapd_balanced(&self) -> bool {
        self.nr_free() > self.wmark.high
    }
}

/// kswapd's progress through one `balance_pgdat` run, one priority iteration per event.
#[derive(Debug, Clone, Default)]
pub struct Kswapd {
    pub running: bool,
    pub sleeping: bool,
    pub priority: u32,
    pub reclaimed_this_run: u64,
    /// 2.6.3x `balance_pgdat` (`kswapd_reclaim_3_11` off): reclaimed and scanned since the
    /// loop last started at DEF_PRIORITY (`loop_again`).
    pub reclaimed_since_restart: u64,
    pub scanned_since_restart: u64,
    pub cpu_ns: u64,
    /// Of the last step's time, how much kswapd slept for request tags (no CPU used).
    pub tag_sleep_ns: u64,
    /// When kswapd last went to sleep (for `kswapd_*_wmark_hit_quickly`).
    pub slept_at: u64,
}

/// What one kswapd iteration asks of the simulation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KswapdStep {
    /// CPU time of the iteration; None: kswapd goes back to sleep.
    pub cpu: Option<u64>,
    /// Run the OOM killer (MGLRU's min_ttl_ms found only young generations).
    pub out_of_memory: bool,
}

impl Mm {
    /// One iteration of `balance_pgdat`'s priority loop: its CPU time (None when kswapd goes
    /// back to sleep), and whether the OOM killer must run (`lru_gen_age_node`'s min_ttl_ms
    /// protection), which the simulation carries out over its tasks (`out_of_memory`).
    pub fn kswapd_step(&mut self, k: &mut Kswapd) -> KswapdStep {
        let mut out_of_memory = false;
        let cpu = self.balance_pgdat_step(k, &mut out_of_memory);
        KswapdStep { cpu, out_of_memory }
    }

    fn balance_pgdat_step(&mut self, k: &mut Kswapd, out_of_memory: &mut bool) -> Option<u64> {
        if !k.running {
            if self.kswapd_balanced() {
                return None;
            }
            self.counters.add(C::pageoutrun, 1);
            k.running = true;
            k.priority = DEF_PRIORITY;
            k.reclaimed_this_run = 0;
            k.reclaimed_since_restart = 0;
            k.scanned_since_restart = 0;
        }
        if self.kswapd_balanced() {
            self.end_kswapd_run(k);
            self.pgdat.dirty = false;
            self.pgdat.writeback = false;
            return None;
        }
        let high = self.wmark.high.max((SWAP_CLUSTER_MAX / self.scale).max(1));
        // 2.6.3x: "kswapd doesn't want to be bailed out while reclaim".
        let goal = if self.flags.kswapd_reclaim_3_11 {
            high
        } else {
            u64::MAX
        };
        let mut sc = ScanControl {
            nr_to_reclaim: goal,
            priority: k.priority,
            may_writepage: !self.laptop_mode || k.priority < DEF_PRIORITY - 2,
            may_swap: true,
            kswapd: true,
            ..Default::default()
        };
        if self.flags.lru_gen {
            // `lru_gen_age_node`: 6.1 ages memcgs here; min_ttl_ms thrashing protection.
            let (cpu, oom) = self.lru_gen_age_node(&mut sc);
            sc.cpu_ns += cpu;
            *out_of_memory = oom;
        } else if self.kswapd_ages_anon() {
            // `kswapd_age_node`: keep some anon on the inactive list whenever swap exists; when
            // the root (hierarchical) inactive anon list is low, every memcg's active anon is
            // aged.
            let chunk = (SWAP_CLUSTER_MAX / self.scale).max(1);
            for m in self.memcgs.preorder(0) {
                self.shrink_active_list(m as usize, LRU_ACTIVE_ANON, chunk, &mut sc);
            }
        }
        sc.nr_scanned = 0;
        self.shrink_node(&mut sc);
        // `set_initial_priority` may have lowered the priority of this run.
        k.priority = k.priority.min(sc.priority.max(1));
        let reclaimed = sc.nr_reclaimed;
        k.reclaimed_this_run += reclaimed;
        if !self.flags.kswapd_reclaim_3_11 {
            return self.balance_pgdat_2_6_step(k, &mut sc);
        }
        let raise_priority = sc.nr_scanned < sc.nr_to_reclaim;
        if raise_priority || reclaimed == 0 {
            if k.priority <= 1 {
                // The run ended without balancing the node.
                let failed = k.reclaimed_this_run == 0;
                if self.end_failed_kswapd_run(k, failed) {
                    return None;
                }
                k.tag_sleep_ns = sc.tag_sleep_ns;
                return Some(sc.cpu_ns.max(1));
            }
            k.priority -= 1;
        }
        k.tag_sleep_ns = sc.tag_sleep_ns;
        Some(sc.cpu_ns.max(1))
    }

    /// The end of one 2.6.3x `balance_pgdat` priority iteration: nap HZ/10 below priority 10
    /// if the loop scanned and the node is not under its min watermark; start again at
    /// DEF_PRIORITY (`loop_again`) once SWAP_CLUSTER_MAX pages were reclaimed since the last
    /// start or priority 0 is done; otherwise the next priority. Returns the step's time, or
    /// None when kswapd gives up (as `kswapd_step`).
    fn balance_pgdat_2_6_step(&mut self, k: &mut Kswapd, sc: &mut ScanControl) -> Option<u64> {
        k.reclaimed_since_restart += sc.nr_reclaimed;
        k.scanned_since_restart += sc.nr_scanned;
        if !self.kswapd_balanced()
            && k.scanned_since_restart > 0
            && k.priority < DEF_PRIORITY - 2
            && self.nr_free() > self.wmark.min
        {
            sc.cpu_ns += THROTTLE_WRITEBACK_NS;
            sc.tag_sleep_ns += THROTTLE_WRITEBACK_NS;
        }
        let cluster = (SWAP_CLUSTER_MAX / self.scale).max(1);
        if k.reclaimed_since_restart >= cluster || k.priority == 0 {
            if k.priority == 0 && k.reclaimed_since_restart == 0 {
                // Abstracted: 2.6.3x marked zones all_unreclaimable (pages_scanned >= 6x the
                // reclaimable pages) and kept looping; the engine ends the run as 4.12+ does.
                if self.end_failed_kswapd_run(k, true) {
                    return None;
                }
            } else {
                k.priority = DEF_PRIORITY;
                k.reclaimed_since_restart = 0;
                k.scanned_since_restart = 0;
            }
        } else {
            k.priority -= 1;
        }
        k.tag_sleep_ns = sc.tag_sleep_ns;
        Some(sc.cpu_ns.max(1))
    }

    /// End a run that did not balance the node; a run that reclaimed nothing (`failed`) counts
    /// toward `kswapd_failures`. Returns true once kswapd gives up (MAX_RECLAIM_RETRIES).
    fn end_failed_kswapd_run(&mut self, k: &mut Kswapd, failed: bool) -> bool {
        if failed {
            self.pgdat.kswapd_failures += 1;
        }
        self.end_kswapd_run(k);
        self.pgdat.kswapd_failures >= crate::mm::memcontrol::MAX_RECLAIM_RETRIES
    }

    fn end_kswapd_run(&mut self, k: &mut Kswapd) {
        k.running = false;
        self.snapshot_refaults(0);
    }

    /// A page became unreachable for good (its owner exited): take it off its list and free it.
    pub fn drop_page(&mut self, f: u32) {
        let from = self.frames.list[f as usize];
        let sp = self.frames.space[f as usize];
        if self.frames.has(f, PG_DIRTY)
            && !self.frames.has(f, PG_SWAPBACKED)
            && (sp == NIL || !self.spaces[sp as usize].dead)
        {
            // Checked by `check_invariants`: dirty file data must be written, not dropped.
            self.dropped_dirty_file += 1;
        }
        self.lru_del(f);
        self.clear_dirty(f);
        if self.frames.has(f, PG_WRITEBACK) && !self.frames.has(f, PG_SWAPBACKED) {
            self.wb.nr_writeback = self.wb.nr_writeback.saturating_sub(1);
        }
        self.frames.folio[f as usize].flags = 0;
        self.uninstall(f);
        self.trace
            .moves
            .record(self.now, f, from, LIST_FREE, MoveReason::Free);
        self.frames.list[f as usize] = LIST_ISOLATED;
        self.free_frame(f);
    }

    /// Free a whole private anon space: resident pages and swap slots (exit or OOM kill).
    pub fn free_space(&mut self, sp: usize) -> u64 {
        let mut freed = 0;
        let n = self.spaces[sp].len() as usize;
        for i in 0..n {
            let f = self.spaces[sp].page(i);
            if f != NIL {
                if self.frames.has(f, PG_WRITEBACK) || self.frames.has(f, PG_LOCKED) {
                    // IO in flight holds a reference; the frame is freed when it completes.
                    self.frames.set(f, PG_RECLAIM);
                } else {
                    self.drop_page(f);
                    freed += 1;
                }
            }
            if self.spaces[sp].kind != SpaceKind::File {
                self.release_slot(sp as u32, i as u64);
            }
            self.spaces[sp].clear_shadow(i);
        }
        self.spaces[sp].dead = true;
        freed
    }
}

impl Mm {
    /// `wakeup_kswapd`: schedule kswapd unless it is running or the node is hopeless.
    pub fn wake_kswapd(&mut self) {
        if self.kswapd.sleeping
            && self.pgdat.kswapd_failures < crate::mm::memcontrol::MAX_RECLAIM_RETRIES
        {
            self.kswapd.sleeping = false;
            if self.now < self.kswapd.slept_at + 100_000_000 {
                self.counters.add(C::kswapd_low_wmark_hit_quickly, 1);
            }
            self.wake_at(self.now, Wakeup::Kswapd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rs(young: u32, referenced: bool, exec: bool, file: bool, in_use: bool) -> RefState {
        RefState {
            young,
            referenced,
            exec,
            locked: false,
            file,
            in_use,
        }
    }

    #[test]
    fn reference_outcomes_6x() {
        // 3.3+ rules with 5.9+ anon: (young, PG_referenced, exec, file)
        let t = |rp, rf, ex, file| check_references(rs(rp, rf, ex, file, true), true, true, true);
        assert_eq!(t(1, false, false, true), (Refs::Keep, true)); // first young: one more trip
        assert_eq!(t(1, true, false, true), (Refs::Activate, true)); // young again after a keep
        assert_eq!(t(2, false, false, true).0, Refs::Activate); // two mappings
        assert_eq!(t(1, false, true, true).0, Refs::Activate); // exec file page
        assert_eq!(t(1, false, true, false).0, Refs::Keep); // exec anon (JIT) is not special
        assert_eq!(t(2, false, false, false).0, Refs::Activate); // shared anon
        assert_eq!(t(1, true, false, false).0, Refs::Activate);
        assert_eq!(t(0, true, false, true), (Refs::ReclaimClean, false)); // used-once read()
        assert_eq!(t(0, true, false, false), (Refs::Reclaim, false));
        assert_eq!(t(0, false, false, true), (Refs::Reclaim, false));
        assert_eq!(t(0, false, false, false), (Refs::Reclaim, false));
        let mut locked = rs(0, false, false, true, true);
        locked.locked = true;
        assert_eq!(check_references(locked, true, true, true).0, Refs::Activate);
        assert_eq!(
            check_references(locked, false, false, false).0,
            Refs::Activate
        );
    }

    #[test]
    fn young_anon_activates_at_once_before_5_9() {
        for shared_exec in [false, true] {
            let r = check_references(rs(1, false, false, false, true), true, shared_exec, false);
            assert_eq!(r, (Refs::Activate, false));
        }
        assert_eq!(
            check_references(rs(1, false, false, false, true), true, true, true).0,
            Refs::Keep
        );
    }

    #[test]
    fn used_once_mapped_2_6_34_without_the_3_3_rules() {
        // 2.6.34-3.2: a page young in two mappings or an exec mapping still needs two trips.
        let t = |rp, rf, ex| check_references(rs(rp, rf, ex, true, true), true, false, false);
        assert_eq!(t(2, false, false), (Refs::Keep, true));
        assert_eq!(t(1, false, true), (Refs::Keep, true));
        assert_eq!(t(1, true, false), (Refs::Activate, true));
        // Mapped file page unmapped after use (zap set PG_referenced): reclaimed, not written.
        assert_eq!(t(0, true, false), (Refs::ReclaimClean, false));
        assert_eq!(t(0, false, false), (Refs::Reclaim, false));
    }

    #[test]
    fn referenced_mapped_pages_activate_at_once_in_2_6_33() {
        let t = |rp, rf, file, in_use| {
            check_references(rs(rp, rf, false, file, in_use), false, false, false)
        };
        // Young or PG_referenced, and mapped / in the swap cache / file mmapped: activate.
        assert_eq!(t(1, false, true, true), (Refs::Activate, false));
        assert_eq!(t(0, true, true, true), (Refs::Activate, false)); // the used-once page
        assert_eq!(t(1, false, false, true), (Refs::Activate, false));
        // In the swap cache.
        assert_eq!(t(0, true, false, true), (Refs::Activate, false));
        // Referenced but nobody maps the file or segment: reclaimed only if clean, for a
        // tmpfs page as for a file page (2.6.33 `if (PageDirty(page) && referenced) keep`).
        assert_eq!(t(0, true, true, false), (Refs::ReclaimClean, false));
        assert_eq!(t(0, true, false, false), (Refs::ReclaimClean, false));
        assert_eq!(t(0, false, true, true), (Refs::Reclaim, false));
        assert_eq!(t(0, false, false, false), (Refs::Reclaim, false));
    }

    fn mm(flags: crate::variant::Flags) -> Mm {
        let w = crate::mm::page_alloc::Watermarks::compute(4096, 1024, Some(10), 1);
        Mm::new(256, 1, flags, w)
    }

    fn ksc(kswapd: bool) -> ScanControl {
        ScanControl {
            kswapd,
            may_writepage: true,
            ..Default::default()
        }
    }

    #[test]
    fn any_reclaimer_wrote_dirty_file_pages_in_2_6_3x() {
        for p in ["linux-2.6.33", "linux-2.6.34"] {
            let mut m = file_mm(p, 4, true);
            scan(&mut m, false, true);
            assert_eq!(m.counters.get(C::nr_vmscan_write), 1, "{p}");
            assert!(m.frames.has(0, PG_WRITEBACK));
        }
    }

    #[test]
    fn who_may_write_dirty_file_pages() {
        use crate::variant::preset;
        let mut old = mm(preset("linux-4.10").unwrap().flags);
        let mut new = mm(preset("linux-4.11").unwrap().flags);
        for m in [&mut old, &mut new] {
            // Direct reclaim never writes file pages; kswapd only on a PGDAT_DIRTY node.
            m.pgdat.dirty = false;
            assert!(!m.reclaim_may_write_file(&ksc(true), PG_DIRTY | PG_RECLAIM));
            m.pgdat.dirty = true;
            assert!(!m.reclaim_may_write_file(&ksc(false), PG_DIRTY | PG_RECLAIM));
            assert!(m.reclaim_may_write_file(&ksc(true), PG_DIRTY | PG_RECLAIM));
        }
        // 4.10 kswapd writes a dirty page on first sight; 4.11 only one it tagged before.
        assert!(old.reclaim_may_write_file(&ksc(true), PG_DIRTY));
        assert!(!new.reclaim_may_write_file(&ksc(true), PG_DIRTY));
    }

    /// A machine with one file of `n` resident pages on the inactive file list (frame k holds
    /// page k; frame 0 is at the tail), each dirty when `dirty`.
    fn file_mm(preset: &str, n: u32, dirty: bool) -> Mm {
        use crate::mm::space::Space;
        let mut m = mm(crate::variant::preset(preset).unwrap().flags);
        m.devices.push(crate::devices::Device::default_for(
            "d",
            crate::scenario::DeviceKind::Ssd,
        ));
        m.spaces
            .push(Space::new("f", SpaceKind::File, n as u64, 0, 0, u32::MAX));
        for k in 0..n {
            let f = m.take_free_frame().unwrap();
            assert_eq!(f, k);
            m.frames.lruvec[f as usize] = 0;
            m.install(f, 0, k);
            m.lru_add_new(f);
            if dirty {
                m.mark_file_dirty(f);
            }
        }
        m
    }

    fn scan(m: &mut Mm, kswapd: bool, may_writepage: bool) -> u64 {
        let mut sc = ScanControl {
            kswapd,
            may_writepage,
            nr_to_reclaim: 32,
            priority: DEF_PRIORITY,
            ..Default::default()
        };
        m.shrink_inactive_list(0, LRU_INACTIVE_FILE, 1, &mut sc)
    }

    #[test]
    fn dirty_page_met_by_direct_reclaim_4_10_stays_inactive_4_11_moves_to_active() {
        for (preset, list) in [
            ("linux-4.10", LRU_INACTIVE_FILE),
            ("linux-4.11", LRU_ACTIVE_FILE),
        ] {
            let mut m = file_mm(preset, 4, true);
            assert_eq!(scan(&mut m, false, true), 0);
            assert_eq!(m.frames.list[0] as usize, list, "{preset}");
            assert!(m.frames.has(0, PG_RECLAIM | PG_DIRTY));
            assert_eq!(m.counters.get(C::nr_vmscan_immediate_reclaim), 1);
            assert_eq!(m.counters.get(C::nr_vmscan_write), 0);
        }
    }

    #[test]
    fn kswapd_writes_dirty_pages_in_lru_order_4_10_only_twice_seen_ones_4_11() {
        // 4.10: kswapd on a PGDAT_DIRTY node writes the first dirty page it meets.
        let mut m = file_mm("linux-4.10", 4, true);
        m.pgdat.dirty = true;
        scan(&mut m, true, true);
        assert_eq!(m.counters.get(C::nr_vmscan_write), 1);
        assert!(m.frames.has(0, PG_WRITEBACK | PG_RECLAIM) && !m.frames.has(0, PG_DIRTY));
        // 4.11: first sight tags it and moves it to the active list ...
        let mut m = file_mm("linux-4.11", 4, true);
        m.pgdat.dirty = true;
        scan(&mut m, true, true);
        assert_eq!(m.counters.get(C::nr_vmscan_write), 0);
        assert_eq!(m.frames.list[0] as usize, LRU_ACTIVE_FILE);
        // ... a page already tagged PG_reclaim (rotated twice) is written.
        m.frames.set(1, PG_RECLAIM);
        scan(&mut m, true, true);
        assert_eq!(m.counters.get(C::nr_vmscan_write), 1);
        assert!(m.frames.has(1, PG_WRITEBACK));
    }

    #[test]
    fn writeback_pages_kept_inactive_4_10_activated_4_11_and_rotated_on_completion() {
        for (preset, list) in [
            ("linux-4.10", LRU_INACTIVE_FILE),
            ("linux-4.11", LRU_ACTIVE_FILE),
        ] {
            let mut m = file_mm(preset, 4, false);
            m.frames.set(0, PG_WRITEBACK);
            m.wb.nr_writeback = 1;
            scan(&mut m, false, true);
            assert_eq!(m.frames.list[0] as usize, list, "{preset}");
            assert!(m.frames.has(0, PG_RECLAIM));
            // Writeback completes: the page rotates to the inactive tail (4.11 deactivates it
            // on the way).
            m.end_writeback(0);
            assert_eq!(m.counters.get(C::pgrotated), 1, "{preset}");
            assert_eq!(m.lruvecs[0].lists[LRU_INACTIVE_FILE].tail, 0, "{preset}");
        }
    }

    #[test]
    fn active_pages_rotate_on_writeback_completion_only_from_4_11() {
        for (preset, rotated) in [("linux-4.10", false), ("linux-4.11", true)] {
            let mut m = file_mm(preset, 4, false);
            m.activate_page(0);
            m.frames.set(0, PG_WRITEBACK | PG_RECLAIM);
            m.wb.nr_writeback = 1;
            m.end_writeback(0);
            assert_eq!(m.counters.get(C::pgrotated) == 1, rotated, "{preset}");
            let list = if rotated {
                LRU_INACTIVE_FILE
            } else {
                LRU_ACTIVE_FILE
            };
            assert_eq!(m.frames.list[0] as usize, list, "{preset}");
        }
    }

    #[test]
    fn laptop_mode_isolation_skips_dirty_pages_before_4_11() {
        let mut m = file_mm("linux-4.10", 4, true);
        scan(&mut m, true, false);
        assert_eq!(m.counters.get(C::pgscan_kswapd), 0);
        assert_eq!(m.lruvecs[0].lists[LRU_INACTIVE_FILE].head, 0); // moved to the head
        let mut m = file_mm("linux-4.11", 4, true);
        scan(&mut m, true, false);
        assert_eq!(m.counters.get(C::pgscan_kswapd), 1);
    }

    #[test]
    fn a_batch_of_unqueued_dirty_pages_wakes_the_flushers_from_4_11() {
        for (preset, woken) in [("linux-4.10", false), ("linux-4.11", true)] {
            let mut m = file_mm(preset, 4, true);
            m.now = 1_000;
            scan(&mut m, false, true);
            assert_eq!(
                m.wb.flusher_next == 1_000 && m.wb.flush_all,
                woken,
                "{preset}"
            );
            // Both (<= 4.15) set PGDAT_DIRTY from the batch itself.
            assert!(m.pgdat.dirty, "{preset}");
        }
    }
}

//! LRU insertion and promotion (mm/swap.c): adding new pages, `folio_mark_accessed`, and the
//! rotation of reclaimable pages when their writeback completes.
use crate::mm::vmstat::C;
use crate::mm::mm_types::*;
use crate::mm::mmzone::{Mm, MoveReason};

impl Mm {
    /// Add a new page to the LRU (`folio_add_lru` / `lru_add`), on the active list if its flags
    /// say so. <= 5.7 counts it as scanned, and rotated when active (`update_page_reclaim_stat`).
    pub fn lru_add_new(&mut self, f: u32) {
        let lv = self.frames.lruvec[f as usize] as usize;
        let file = !self.frames.has(f, PG_SWAPBACKED);
        // `folio_add_lru` with MGLRU: a page brought in by a fault on a mapping with recency
        // starts active (`lru_gen_in_fault`).
        if self.flags.lru_gen && self.in_lru_fault && !self.frames.has(f, PG_UNEVICTABLE) {
            self.frames.set(f, PG_ACTIVE);
        }
        let active = self.frames.has(f, PG_ACTIVE);
        self.note_reclaim_stat(lv, file, 1, active as u64);
        self.lru_add_head(f);
        let to = self.frames.list[f as usize];
        self.trace
            .record(self.now, f, LIST_FREE, to, MoveReason::Add);
    }

    /// `folio_mark_accessed`: the first access sets PG_referenced; a second while inactive
    /// activates the page (`folio_activate`, counted as pgactivate) and ages the nonresident
    /// clock (`workingset_activation`).
    pub fn mark_accessed(&mut self, f: u32) {
        if self.flags.lru_gen {
            return self.lru_gen_inc_refs(f);
        }
        let flags = self.frames.flags[f as usize];
        if flags & PG_REFERENCED == 0 {
            self.frames.set(f, PG_REFERENCED);
        } else if flags & (PG_ACTIVE | PG_UNEVICTABLE) == 0 {
            self.activate_page(f);
            self.frames.clear(f, PG_REFERENCED);
            self.workingset_activation(f);
        }
    }

    /// `folio_activate`: move an inactive page to the head of its active list.
    pub fn activate_page(&mut self, f: u32) {
        let fi = f as usize;
        if self.frames.flags[fi] & PG_ACTIVE != 0 {
            return;
        }
        let from = self.frames.list[fi];
        let on_lru = on_lru_list(from);
        if on_lru {
            self.lru_del(f);
        }
        self.frames.set(f, PG_ACTIVE);
        if on_lru {
            self.lru_add_head(f);
            let lv = self.frames.lruvec[fi] as usize;
            let file = !self.frames.has(f, PG_SWAPBACKED);
            self.note_reclaim_stat(lv, file, 1, 1);
            self.counters.add(C::pgactivate, 1);
            self.count_memcg(lv, C::pgactivate, 1);
            let to = self.frames.list[fi];
            self.trace
                .record(self.now, f, from, to, MoveReason::Activate);
        }
    }

    /// Writeback of `f` completed (`folio_end_writeback`): if reclaim tagged it PG_reclaim, rotate
    /// it to the inactive tail so the next scan frees it (`rotate_reclaimable_page`), counted as
    /// pgrotated. 4.11+ (`kswapd_writeback_4_11`): active pages too, deactivated on the way;
    /// 4.10: active pages stay where they are.
    pub fn end_writeback(&mut self, f: u32) {
        if !self.frames.test_clear(f, PG_WRITEBACK) {
            return;
        }
        if !self.frames.has(f, PG_SWAPBACKED) {
            self.nr_writeback = self.nr_writeback.saturating_sub(1);
        }
        if self.frames.test_clear(f, PG_RECLAIM) {
            let fi = f as usize;
            let flags = self.frames.flags[fi];
            let on_lru = on_lru_list(self.frames.list[fi]);
            let active_ok = self.flags.kswapd_writeback_4_11 || flags & PG_ACTIVE == 0;
            if on_lru && active_ok && flags & (PG_DIRTY | PG_UNEVICTABLE | PG_LOCKED) == 0 {
                let from = self.frames.list[fi];
                self.lru_del(f);
                self.frames.clear(f, PG_ACTIVE);
                self.lru_add_tail(f);
                self.counters.add(C::pgrotated, 1);
                let to = self.frames.list[fi];
                self.trace.record(self.now, f, from, to, MoveReason::Rotate);
            }
        }
        // A shmem page mapped again while its swap write was in flight: the fault waited for
        // the write (`shmem_swapin_page`), then took the page out of the swap cache.
        let sp = self.frames.space[f as usize];
        if sp != NIL
            && self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem
            && self.frames.mapped[f as usize] != 0
            && self.frames.has(f, PG_SWAPCACHE)
        {
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        }
    }
}

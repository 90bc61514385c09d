//! LRU insertion and promotion (mm/swap.c): adding new pages, `folio_mark_accessed`, and the
//! rotation of reclaimable pages when their writeback completes.
use crate::mm::mm_types::*;
use crate::mm::mmzone::Lruvec;
use crate::mm::mmzone::{Mm, MoveReason};
use crate::mm::vmscan::balance::SWAP_CLUSTER_MAX;
use crate::mm::vmstat::C;

impl Mm {
    /// Add a new page to the LRU (`folio_add_lru` / `lru_add`), on the active list if its flags
    /// say so. <= 5.7 counts it as scanned, and rotated when active (`update_page_reclaim_stat`).
    pub fn lru_add_new(&mut self, f: u32) {
        let lv = self.frames.lruvec[f as usize] as usize;
        let file = !self.frames.has(f, PG_SWAPBACKED);
        // `folio_add_lru` with MGLRU: a page brought in by a fault on a mapping with recency
        // starts active (`lru_gen_in_fault`); after 6.18 (`mglru_fault_referenced`) only a
        // workingset refault does, any other is marked accessed (PG_referenced).
        if self.flags.lru_gen && self.current.in_lru_fault && !self.frames.has(f, PG_UNEVICTABLE) {
            if !self.flags.mglru_fault_referenced || self.frames.has(f, PG_WORKINGSET) {
                self.frames.set(f, PG_ACTIVE);
            } else if !self.frames.has(f, PG_REFERENCED) {
                self.lru_gen_inc_refs(f);
            }
        }
        let active = self.frames.has(f, PG_ACTIVE);
        self.note_reclaim_stat(lv, file, 1, active as u64);
        self.lru_add_head(f);
        let to = self.frames.list[f as usize];
        self.trace
            .moves
            .record(self.now, f, LIST_FREE, to, MoveReason::Add);
    }

    /// `folio_mark_accessed` (mm/swap.c; `mark_page_accessed` before 5.16; MGLRU's 6.1+ form
    /// in `lru_gen_inc_refs`): the first access sets PG_referenced; a second while inactive
    /// activates the page (`folio_activate`, counted as pgactivate) and ages the nonresident
    /// clock (`workingset_activation`).
    pub fn folio_mark_accessed(&mut self, f: u32) {
        if self.flags.lru_gen {
            return self.lru_gen_inc_refs(f);
        }
        let flags = self.frames.folio[f as usize].flags;
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
        if self.frames.folio[fi].flags & PG_ACTIVE != 0 {
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
                .moves
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
            self.wb.nr_writeback = self.wb.nr_writeback.saturating_sub(1);
        }
        if self.frames.test_clear(f, PG_RECLAIM) {
            let fi = f as usize;
            let flags = self.frames.folio[fi].flags;
            let on_lru = on_lru_list(self.frames.list[fi]);
            let active_ok = self.flags.kswapd_writeback_4_11 || flags & PG_ACTIVE == 0;
            if on_lru && active_ok && flags & (PG_DIRTY | PG_UNEVICTABLE | PG_LOCKED) == 0 {
                let from = self.frames.list[fi];
                self.lru_del(f);
                self.frames.clear(f, PG_ACTIVE);
                self.lru_add_tail(f);
                self.counters.add(C::pgrotated, 1);
                let to = self.frames.list[fi];
                self.trace
                    .moves
                    .record_tail(self.now, f, from, to, MoveReason::Rotate);
            }
        }
        // A shmem page mapped again while its swap write was in flight: the fault waited for
        // the write (`shmem_swapin_page`), then took the page out of the swap cache.
        let sp = self.frames.space[f as usize];
        if sp != NIL
            && self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem
            && self.frames.folio[f as usize].mapped != 0
            && self.frames.has(f, PG_SWAPCACHE)
        {
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        }
    }
}

impl Mm {
    /// RFC 2016 07/10 (`get_scan_count`): halve numer and denom once denom exceeds an eighth of
    /// the lruvec's LRU pages.
    pub(crate) fn decay_cost_2016(&mut self, lv: usize) {
        let scale = self.scale;
        let l = &mut self.lruvecs[lv];
        if l.cost_denom > l.lru_pages() * scale / 8 {
            l.anon_cost /= 2;
            l.file_cost /= 2;
            l.cost_denom /= 2;
        }
    }

    /// RFC 2016 `lru_note_cost` (07/10, COST_IO and COST_CPU from 10/10): `nr_io` pages
    /// weighted SWAP_CLUSTER_MAX (only with `rfc2016_refault_cost`; before 10/10 there is no
    /// IO cost), `nr_cpu` rotated pages weighted 1, added to numer[type] and to denom of this
    /// lruvec alone (4.7 has no hierarchical lruvec state).
    pub fn lru_note_cost_2016(&mut self, lv: usize, file: bool, nr_io: u64, nr_cpu: u64) {
        if !self.flags.rfc2016_lru_cost {
            return;
        }
        let io = if self.flags.rfc2016_refault_cost {
            nr_io * SWAP_CLUSTER_MAX
        } else {
            0
        };
        let cost = (io + nr_cpu) * self.scale;
        let l = &mut self.lruvecs[lv];
        if file {
            l.file_cost += cost;
        } else {
            l.anon_cost += cost;
        }
        l.cost_denom += cost;
    }

    /// 5.8+ `lru_note_cost`: charge reclaim cost to a type and decay both costs once they exceed
    /// a quarter of the LRU size. 6.2+ (`rotation_cost`): IO at SWAP_CLUSTER_MAX, rotations at 1.
    /// With memcgs the cost is charged to the lruvec and every ancestor (the reclaim root
    /// reads its own), each decayed against its hierarchical LRU size.
    pub fn lru_note_cost(&mut self, lv: usize, file: bool, nr_io: u64, nr_rotated: u64) {
        if !self.flags.io_cost_balance {
            return;
        }
        let scale = self.scale;
        let cost = if self.flags.rotation_cost {
            nr_io * SWAP_CLUSTER_MAX + nr_rotated
        } else {
            nr_io
        } * scale;
        let mut cur = Some(lv as u16);
        while let Some(m) = cur {
            let m = m as usize;
            let lrusize = (0..4).map(|lru| self.lruvec_state(m, lru)).sum::<u64>() * scale;
            let l: &mut Lruvec = &mut self.lruvecs[m];
            if file {
                l.file_cost += cost;
            } else {
                l.anon_cost += cost;
            }
            if l.file_cost + l.anon_cost > lrusize / 4 {
                l.file_cost /= 2;
                l.anon_cost /= 2;
            }
            cur = self.memcgs.list[m].parent;
        }
    }
}

//! Workingset detection (mm/workingset.c): shadow entries at eviction, refault distance at
//! refault, and the `nonresident_age` clock.
use crate::mm::mm_types::*;
use crate::mm::mmzone::{Mm, MoveReason};
use crate::mm::space::Shadow;
use crate::mm::vmscan::lru_gen::order_base_2;
use crate::mm::vmscan::lru_gen::refs_and_tier;
use crate::mm::vmscan::lru_gen::FILE;
use crate::mm::vmscan::lru_gen::LRU_REFS_WIDTH;
use crate::mm::vmscan::lru_gen::MAX_NR_GENS;
use crate::mm::vmscan::lru_gen::MAX_NR_TIERS;
use crate::mm::vmstat::{Rfc2016, C};

/// What `workingset_refault` decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefaultOutcome {
    pub distance: u64,
    pub workingset_size: u64,
    pub activated: bool,
    pub restored: bool,
}

/// The last refault, for the page's refault-distance drawing (reporting only). Ages, distance
/// and workingset size in 4 KiB pages, as the kernel counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct RefaultRecord {
    pub at_ns: u64,
    /// The address space (`space_names` index) and page index of the refaulting page.
    pub space: u32,
    pub page: u64,
    pub file: bool,
    /// The eviction lruvec's nonresident_age stored in the shadow entry, and its value now.
    pub eviction_age: u64,
    pub now_age: u64,
    pub distance: u64,
    pub workingset_size: u64,
    pub activated: bool,
}

/// The pure test of `workingset_refault`: activate iff distance <= workingset size.
pub fn refault_activates(distance: u64, workingset_size: u64) -> bool {
    distance <= workingset_size
}

impl Mm {
    /// Advance the nonresident clock (`workingset_age_nonresident`). 5.5+ ("mm: vmscan: detect
    /// file thrashing at the reclaim root", the series of `scan_decisions_per_node`): the clock
    /// of every ancestor lruvec advances too, so a reclaim root sees its subtree's evictions.
    #[inline]
    pub fn age_nonresident(&mut self, lv: usize, n: u64) {
        self.lruvecs[lv].nonresident_age += n;
        if self.flags.scan_decisions_per_node {
            let mut p = self.memcgs.list[lv].parent;
            while let Some(m) = p {
                self.lruvecs[m as usize].nonresident_age += n;
                p = self.memcgs.list[m as usize].parent;
            }
        }
    }

    /// WORKINGSET_ACTIVATE of a lruvec (`mod_lruvec_state`, hierarchical like every lruvec
    /// state item: the ancestors count it too, 5.5+ where the reclaim root reads it).
    fn note_workingset_activate(&mut self, lv: usize, file: bool) {
        self.lruvecs[lv].workingset_activate[file as usize] += 1;
        if self.flags.scan_decisions_per_node {
            let mut p = self.memcgs.list[lv].parent;
            while let Some(m) = p {
                self.lruvecs[m as usize].workingset_activate[file as usize] += 1;
                p = self.memcgs.list[m as usize].parent;
            }
        }
    }

    /// `workingset_eviction`: the shadow entry a reclaimed page leaves behind.
    /// 5.18+ (`eviction_clock_read_first`): read the clock, then advance it by the page;
    /// before (<= 5.7 `atomic_long_inc_return`, 5.8-5.17 age then read): advance, then read.
    /// Whose clock: 5.5+ ("mm: vmscan: detect file thrashing at the reclaim root",
    /// `scan_decisions_per_node`) the reclaim target's lruvec (`target`: the root for global
    /// reclaim), whose id the shadow records; before, the page's own memcg.
    pub fn workingset_eviction(&mut self, f: u32, target: usize) -> u64 {
        if self.flags.lru_gen {
            return self.lru_gen_eviction(f);
        }
        let lv = if self.flags.scan_decisions_per_node {
            target
        } else {
            self.frames.lruvec[f as usize] as usize
        };
        let age = if self.flags.eviction_clock_read_first {
            let a = self.lruvecs[lv].nonresident_age;
            self.age_nonresident(lv, 1);
            a
        } else {
            self.age_nonresident(lv, 1);
            self.lruvecs[lv].nonresident_age
        };
        Shadow {
            age,
            workingset: self.frames.has(f, PG_WORKINGSET),
            lruvec: lv as u16,
        }
        .pack()
    }

    /// The workingset size a refault of this type competes against (`workingset_refault`):
    /// <= 5.7 active file only; 5.8 file refaults also against all anon when swap has room;
    /// 5.9+ anon refaults against the file lists plus active anon.
    /// The sizes are the eviction lruvec's hierarchical `lruvec_page_state`.
    pub fn refault_workingset_size(&self, lv: usize, file: bool) -> u64 {
        let size = |lru| self.lruvec_state(lv, lru);
        // RFC 2016 10/10: file refaults against active file + anon while swap has room.
        if self.flags.rfc2016_refault_cost && file {
            let anon = if self.swap_free() > 0 {
                size(LRU_ACTIVE_ANON) + size(LRU_INACTIVE_ANON)
            } else {
                0
            };
            return size(LRU_ACTIVE_FILE) + anon;
        }
        if !self.flags.io_cost_balance {
            return size(LRU_ACTIVE_FILE);
        }
        let swap = self.swap_free() > 0;
        if file {
            size(LRU_ACTIVE_FILE)
                + if swap {
                    size(LRU_ACTIVE_ANON) + size(LRU_INACTIVE_ANON)
                } else {
                    0
                }
        } else {
            size(LRU_ACTIVE_FILE)
                + size(LRU_INACTIVE_FILE)
                + if swap { size(LRU_ACTIVE_ANON) } else { 0 }
        }
    }

    /// `workingset_refault`: a page is faulted back while its shadow entry exists. Sets
    /// PG_active (and PG_workingset) on frame `f` before it is added to the LRU.
    /// With memcgs (5.x-6.x form): the distance and the workingset size are those of the
    /// eviction lruvec, whose memcg id the shadow entry records; the refault, activation and
    /// restore counts, the clock's aging and the cost go to the lruvec of the memcg the new
    /// page is charged to (the one experiencing the refault).
    pub fn workingset_refault(&mut self, f: u32, packed: u64) -> Option<RefaultOutcome> {
        if self.flags.lru_gen {
            self.lru_gen_refault(f, packed);
            return None;
        }
        let shadow = Shadow::unpack(packed)?;
        let file = !self.frames.has(f, PG_SWAPBACKED);
        let own = self.frames.lruvec[f as usize] as usize;
        let refault = if file {
            C::workingset_refault_file
        } else {
            C::workingset_refault_anon
        };
        self.counters.add(refault, 1);
        self.count_memcg(own, refault, 1);
        let lv = (shadow.lruvec as usize).min(self.lruvecs.len() - 1);
        let distance = self.lruvecs[lv].nonresident_age.wrapping_sub(shadow.age);
        let ws = self.refault_workingset_size(lv, file);
        let scale = self.scale;
        self.trace.last_refault = Some(RefaultRecord {
            at_ns: self.now,
            space: self.frames.space[f as usize],
            page: self.frames.index[f as usize] as u64 * scale,
            file,
            eviction_age: shadow.age * scale,
            now_age: self.lruvecs[lv].nonresident_age * scale,
            distance: distance.wrapping_mul(scale),
            workingset_size: ws * scale,
            activated: refault_activates(distance, ws),
        });
        let mut out = RefaultOutcome {
            distance,
            workingset_size: ws,
            activated: false,
            restored: false,
        };
        self.trace
            .moves
            .record(self.now, f, LIST_FREE, LIST_FREE, MoveReason::Refault);
        if !refault_activates(distance, ws) {
            return Some(out);
        }
        // RFC 2016 10/10: the series' own items count only refaults within the distance.
        if self.flags.rfc2016_refault_cost && file {
            let item = if shadow.workingset {
                Rfc2016::refault_active_file
            } else {
                Rfc2016::refault_inactive_file
            };
            self.counters.1[item as usize] += 1;
        }
        self.frames.set(f, PG_ACTIVE);
        self.age_nonresident(own, 1);
        self.note_workingset_activate(own, file);
        let activate = if file {
            C::workingset_activate_file
        } else {
            C::workingset_activate_anon
        };
        self.counters.add(activate, 1);
        self.count_memcg(own, activate, 1);
        out.activated = true;
        if shadow.workingset {
            self.frames.set(f, PG_WORKINGSET);
            let restore = if file {
                C::workingset_restore_file
            } else {
                C::workingset_restore_anon
            };
            self.counters.add(restore, 1);
            self.count_memcg(own, restore, 1);
            // 5.8+: thrashing of the established workingset is the cost of reclaiming this type
            // (`lru_note_cost_refault`: the folio's lruvec).
            self.lru_note_cost(own, file, 1, 0);
            // RFC 2016 10/10: added as a new PG_workingset page, it costs IO
            // (`__pagevec_lru_add_fn`).
            self.lru_note_cost_2016(own, file, 1, 0);
            out.restored = true;
        }
        Some(out)
    }

    /// `workingset_activation`, called when `folio_mark_accessed` promotes a page: ages the
    /// clock by the page for both types (5.8+), or by one for file pages only (<= 5.7).
    pub fn workingset_activation(&mut self, f: u32) {
        let lv = self.frames.lruvec[f as usize] as usize;
        if self.flags.io_cost_balance || !self.frames.has(f, PG_SWAPBACKED) {
            self.age_nonresident(lv, 1);
        }
    }

    /// `snapshot_refaults`: remember the activation counts when a reclaim run ends.
    /// Kernel: only the reclaim target's lruvec (kswapd: the root).
    pub fn snapshot_refaults(&mut self, target: usize) {
        for l in self.lruvecs.iter_mut().skip(target).take(1) {
            l.refaults = l.workingset_activate;
        }
    }
}

impl Mm {
    /// `lru_gen_eviction`: the shadow of an evicted folio — the token (min_seq of its type and
    /// its access count) and PG_workingset; counts the eviction for its tier.
    pub fn lru_gen_eviction(&mut self, f: u32) -> u64 {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let lv = self.frames.lruvec[fi] as usize;
        let ty = (flags & PG_SWAPBACKED == 0) as usize;
        let (refs, tier) = refs_and_tier(flags, self.flags.mglru_rework);
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.evicted[ty][tier] += 1;
        let token = (lg.min_seq[ty] << LRU_REFS_WIDTH) | refs.saturating_sub(1).min(3);
        Shadow {
            age: token,
            workingset: flags & PG_WORKINGSET != 0,
            lruvec: lv as u16,
        }
        .pack()
    }

    /// `lru_gen_refault`: a folio comes back while its shadow exists. Counted (6.14+: every
    /// refault of the same lruvec; 6.1: only recent ones); a recent one (6.14+: evicted within
    /// MAX_NR_GENS of max_seq; 6.1: from the still-oldest generation) adds to its tier's
    /// refaults and restores PG_workingset (counted as restore) or the access count.
    pub fn lru_gen_refault(&mut self, f: u32, packed: u64) {
        let Some(shadow) = Shadow::unpack(packed) else {
            return;
        };
        let fi = f as usize;
        let lv = shadow.lruvec as usize;
        if lv != self.frames.lruvec[fi] as usize || lv >= self.lruvecs.len() {
            return;
        }
        let ty = (self.frames.folio[fi].flags & PG_SWAPBACKED == 0) as usize;
        let token = shadow.age;
        let seq = token >> LRU_REFS_WIDTH;
        let rework = self.flags.mglru_rework;
        let lg = &self.lruvecs[lv].lrugen;
        let recent = if rework {
            lg.max_seq.abs_diff(seq) < MAX_NR_GENS
        } else {
            seq == lg.min_seq[ty]
        };
        let refault_item = if ty == FILE {
            C::workingset_refault_file
        } else {
            C::workingset_refault_anon
        };
        if rework || recent {
            self.counters.add(refault_item, 1);
            self.count_memcg(lv, refault_item, 1);
        }
        self.trace
            .moves
            .record(self.now, f, LIST_FREE, LIST_FREE, MoveReason::Refault);
        if !recent {
            return;
        }
        let bits = token & 3;
        let (refs, tier) = if rework {
            let refs = bits + 1;
            let tier = if shadow.workingset {
                MAX_NR_TIERS - 1
            } else {
                order_base_2(refs)
            };
            (refs, tier)
        } else {
            let refs = bits + shadow.workingset as u64;
            (refs, order_base_2(refs + 1))
        };
        self.lruvecs[lv].lrugen.refaulted[ty][tier] += 1;
        let (act, restore) = if ty == FILE {
            (C::workingset_activate_file, C::workingset_restore_file)
        } else {
            (C::workingset_activate_anon, C::workingset_restore_anon)
        };
        // 6.5-6.13: every recent refault counts as an activation; 6.14 only in a fault; after
        // 6.18 (`mglru_fault_referenced`) only a workingset one in a fault, the refault that
        // `folio_add_lru` activates; 6.1-6.4 none here (`sort_folio` counts protections).
        let activated = if self.flags.mglru_fault_referenced {
            shadow.workingset && self.current.in_lru_fault
        } else {
            !rework || self.current.in_lru_fault
        };
        if self.flags.mglru_activate_at_refault && activated {
            self.counters.add(act, 1);
            self.count_memcg(lv, act, 1);
        }
        let set_ws = if rework {
            shadow.workingset
        } else {
            self.current.in_lru_fault || refs == 1 << LRU_REFS_WIDTH
        };
        if set_ws {
            self.frames.folio[fi].flags |= PG_WORKINGSET;
            self.counters.add(restore, 1);
            self.count_memcg(lv, restore, 1);
        } else if rework {
            self.frames.folio[fi].flags = (self.frames.folio[fi].flags & !LRU_REFS_MASK)
                | (((refs - 1) as u16) << LRU_REFS_SHIFT);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn distance_rule() {
        assert!(refault_activates(0, 0));
        assert!(refault_activates(100, 100));
        assert!(!refault_activates(101, 100));
    }

    fn mm(preset: &str) -> Mm {
        let flags = crate::variant::preset(preset).unwrap().flags;
        let w = crate::mm::page_alloc::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        let mut mm = Mm::new(8, 1, flags, w);
        mm.spaces.push(crate::mm::space::Space::new(
            "f",
            crate::mm::space::SpaceKind::File,
            8,
            0,
            0,
            u32::MAX,
        ));
        mm.swap = Some(crate::mm::swapfile::Swap::new(0, 100));
        // active_file 100, active_anon 300, inactive_anon 200.
        mm.lruvecs[0].lists[LRU_ACTIVE_FILE].len = 100;
        mm.lruvecs[0].lists[LRU_ACTIVE_ANON].len = 300;
        mm.lruvecs[0].lists[LRU_INACTIVE_ANON].len = 200;
        mm
    }

    /// A file page evicted at age 1000 refaults at age 1000 + d: activated iff d fits.
    fn refault_at(preset: &str, d: u64, workingset: bool) -> (RefaultOutcome, u64) {
        let mut m = mm(preset);
        let f = m.take_free_frame().unwrap();
        m.lruvecs[0].nonresident_age = 1000 + d;
        let shadow = Shadow {
            age: 1000,
            workingset,
            lruvec: 0,
        }
        .pack();
        let out = m.workingset_refault(f, shadow).unwrap();
        (out, m.lruvecs[0].file_cost)
    }

    #[test]
    fn refault_distance_against_the_versions_workingset() {
        // <= 5.7: only active_file (100) counts.
        assert!(refault_at("linux-5.7", 100, false).0.activated);
        assert!(!refault_at("linux-5.7", 101, false).0.activated);
        // 5.8+: file refaults also compete with all anon while swap has room: 100 + 300 + 200.
        assert!(refault_at("linux-5.8", 600, false).0.activated);
        assert!(!refault_at("linux-5.8", 601, false).0.activated);
        // A restore (workingset bit) is charged as file IO cost only with the 5.8 cost model.
        let (o, cost) = refault_at("linux-5.8", 10, true);
        assert!(o.restored && cost == 1);
        let (o, cost) = refault_at("linux-5.7", 10, true);
        assert!(o.restored && cost == 0);
    }

    /// Reclaim frees a clean swap-cache page of an anon space (the second pass of a swap-out);
    /// returns the nonresident clock before and after, and the shadow left in the space.
    fn evict_swapcache_page(preset: &str) -> (u64, u64, u64) {
        let mut m = mm(preset);
        m.spaces.push(crate::mm::space::Space::new(
            "a",
            crate::mm::space::SpaceKind::Anon,
            8,
            0,
            0,
            u32::MAX,
        ));
        let f = m.take_free_frame().unwrap();
        m.frames.folio[f as usize].flags = PG_SWAPBACKED | PG_SWAPCACHE;
        m.install(f, 1, 3);
        let slot = m.swap.as_mut().unwrap().alloc().unwrap();
        m.spaces[1].swap[3] = slot;
        m.spaces[1].swapped += 1;
        m.lruvecs[0].nonresident_age = 500;
        m.remove_mapping(f, 0);
        (500, m.lruvecs[0].nonresident_age, m.spaces[1].shadow(3))
    }

    #[test]
    fn swap_cache_eviction_ages_the_clock_from_5_8() {
        // <= 5.7: only file evictions drive the (file-only) inactive_age.
        assert_eq!(evict_swapcache_page("linux-5.7"), (500, 500, 0));
        // 5.8: `__remove_mapping` calls `workingset_eviction` for swap cache too, which ages
        // the clock by the page, but no shadow entry is kept for anon yet.
        assert_eq!(evict_swapcache_page("linux-5.8"), (500, 501, 0));
        // 5.9+ (the 6.1 preset): the swap-cache slot keeps a shadow entry as well.
        let (_, after, shadow) = evict_swapcache_page("linux-6.1");
        assert_eq!(after, 501);
        assert_ne!(shadow, 0);
    }

    /// A file page evicted by global reclaim with the clock at 500: (clock after, shadow's age).
    fn evict_file_page(preset: &str) -> (u64, u64) {
        let mut m = mm(preset);
        let f = m.take_free_frame().unwrap();
        m.install(f, 0, 2);
        m.lruvecs[0].nonresident_age = 500;
        m.remove_mapping(f, 0);
        let shadow = Shadow::unpack(m.spaces[0].shadow(2)).unwrap();
        (m.lruvecs[0].nonresident_age, shadow.age)
    }

    #[test]
    fn eviction_reads_the_clock_first_only_from_5_18() {
        // <= 5.7 and 5.8-5.17 age the clock, then record the aged value.
        assert_eq!(evict_file_page("linux-5.7"), (501, 501));
        assert_eq!(evict_file_page("linux-5.8"), (501, 501));
        // 5.18+ (the 6.1 preset) records the clock, then ages it.
        assert_eq!(evict_file_page("linux-6.1"), (501, 500));
    }

    /// A page-cache page charged to memcg "a" under the root is freed by global reclaim
    /// (target: the root); returns (root clock, a's clock, shadow's lruvec).
    fn evict_child_page(preset: &str) -> (u64, u64, u16) {
        let mut m = mm(preset);
        let a = m.add_memcg("a", 0) as usize;
        m.cur_memcg = a as u16;
        let f = m.take_free_frame().unwrap();
        m.install(f, 0, 2);
        m.remove_mapping(f, 0);
        let shadow = Shadow::unpack(m.spaces[0].shadow(2)).unwrap();
        (
            m.lruvecs[0].nonresident_age,
            m.lruvecs[a].nonresident_age,
            shadow.lruvec,
        )
    }

    #[test]
    fn eviction_clock_is_the_reclaim_targets_from_5_5() {
        // 4.12-5.4: the page's own memcg (its clock ages; the root's does not before 5.5).
        assert_eq!(evict_child_page("linux-5.2"), (0, 1, 1));
        // 5.5+: the reclaim target's lruvec, the root for global reclaim.
        assert_eq!(evict_child_page("linux-5.7"), (1, 0, 0));
        assert_eq!(evict_child_page("linux-6.1"), (1, 0, 0));
    }

    /// A file folio refaults in a fault from a recent MGLRU shadow (with or without
    /// PG_workingset) and is added to the LRU: (workingset_activate_file counted, PG_active,
    /// PG_referenced, PG_workingset after `lru_add_new`).
    fn mglru_fault_refault(preset: &str, workingset: bool) -> (u64, bool, bool, bool) {
        let mut m = mm(preset);
        let f = m.take_free_frame().unwrap();
        m.install(f, 0, 2);
        let max_seq = m.lruvecs[0].lrugen.max_seq;
        let shadow = Shadow {
            age: max_seq << crate::mm::vmscan::lru_gen::LRU_REFS_WIDTH,
            workingset,
            lruvec: 0,
        }
        .pack();
        m.current.in_lru_fault = true;
        assert!(m.workingset_refault(f, shadow).is_none());
        m.lru_add_new(f);
        m.current.in_lru_fault = false;
        let flags = m.frames.folio[f as usize].flags;
        let gen = m.frames.gen[f as usize] as usize - 1;
        // PG_active is consumed by the add: read it back from the generation.
        let active = m.lruvecs[0].lrugen.is_active_gen(gen);
        (
            m.counters.get(C::workingset_activate_file),
            active,
            flags & PG_REFERENCED != 0,
            flags & PG_WORKINGSET != 0,
        )
    }

    #[test]
    fn after_6_18_mglru_counts_and_activates_only_workingset_refaults_in_a_fault() {
        // 6.14-6.18: every recent refault in a fault counts and goes active (max_seq - 1
        // without PG_workingset, max_seq with it).
        assert_eq!(mglru_fault_refault("linux-6.18-mglru", false), (1, true, false, false));
        assert_eq!(mglru_fault_refault("linux-6.18-mglru", true), (1, true, false, true));
        // 7.3 (`mglru_fault_referenced`): only the workingset one counts and goes active; the
        // other is marked accessed and placed below the two youngest generations.
        assert_eq!(mglru_fault_refault("linux-7.3-mglru", false), (0, false, true, false));
        assert_eq!(mglru_fault_refault("linux-7.3-mglru", true), (1, true, false, true));
    }
}

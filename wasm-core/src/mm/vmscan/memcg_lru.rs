//! The memcg LRU of mm/vmscan.c (v6.3, "mm: multi-gen LRU: per-node lru_gen_folio lists", e4dde56cd208):
//! a per-node LRU of lruvecs used by MGLRU's global reclaim (`lru_gen_shrink_node` →
//! `shrink_many`). Memcgs are split into generations (old = `seq % MEMCG_NR_GENS`, young =
//! the next) and, within a generation, randomly into MEMCG_NR_BINS bins; each bin is a list
//! whose entries carry a segment marker (head / tail / default).
//!
//! This module is only the data structure and the walk: `shrink_many` takes the per-lruvec
//! step (MGLRU's `shrink_one`) from its caller, which returns the operation to apply to that
//! lruvec and whether the walk must stop (`should_abort_scan` / the reclaim goal).
//!
//! Abstractions: one node; memcgs never go offline or away during a walk, so the kernel's
//! `mem_cgroup_tryget` failure path is not modelled (`release` exists for completeness); the
//! walk is single-threaded, so the RCU race restart (`get_nulls_value(pos) != gen`) never
//! triggers — each list's nulls marker always equals its generation here.
//! The per-lruvec `gen`/`seg` are kept here, indexed by lruvec, not in `Lruvec`.
use crate::rng::Rng;

/// MEMCG_NR_BINS.
pub const MEMCG_NR_BINS: usize = 8;

/// `MEMCG_LRU_*` operations (`lru_gen_rotate_memcg`); `Nop` = 0 keeps the lruvec in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemcgLruOp {
    Nop,
    /// Head of a random bin of the same generation, seg = head.
    Head,
    /// Tail of a random bin of the same generation, seg = tail.
    Tail,
    /// Head of a random bin of the old generation, seg = default.
    Old,
    /// Tail of a random bin of the young generation, seg = default.
    Young,
}

/// `lrugen.seg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Seg {
    Default,
    Head,
    Tail,
}

/// Where one lruvec sits (`lrugen.gen`, `lrugen.seg`, and its bin).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    pub gen: usize,
    pub bin: usize,
    pub seg: Seg,
}

/// `struct lru_gen_memcg` (`pgdat->memcg_lru`).
#[derive(Debug, Clone)]
pub struct MemcgLru {
    /// MEMCG_NR_GENS: 2 in v6.3; 3 from the Dec-2023 fix ("mm/mglru: respect min_ttl_ms with
    /// memcgs"), which also makes `shrink_many` read the generation once (`gen_read_once`).
    pub nr_gens: usize,
    pub gen_read_once: bool,
    pub seq: u64,
    pub nr_memcgs: Vec<u64>,
    /// `fifo[gen][bin]`: lruvec ids, head first.
    pub fifo: Vec<[Vec<u16>; MEMCG_NR_BINS]>,
    /// Per lruvec id: where it is, None when not on the memcg LRU.
    pub place: Vec<Option<Place>>,
    rng: Rng,
}

impl MemcgLru {
    pub fn new(nr_gens: usize, gen_read_once: bool, rng: Rng) -> MemcgLru {
        MemcgLru {
            nr_gens,
            gen_read_once,
            seq: 0,
            nr_memcgs: vec![0; nr_gens],
            fifo: (0..nr_gens).map(|_| Default::default()).collect(),
            place: Vec::new(),
            rng,
        }
    }

    /// `get_memcg_gen`.
    pub fn gen_of(&self, seq: u64) -> usize {
        (seq % self.nr_gens as u64) as usize
    }
    pub fn old_gen(&self) -> usize {
        self.gen_of(self.seq)
    }
    pub fn young_gen(&self) -> usize {
        self.gen_of(self.seq + 1)
    }

    fn random_bin(&mut self) -> usize {
        self.rng.below(MEMCG_NR_BINS as u64) as usize
    }

    fn unlink(&mut self, lv: u16) -> Place {
        let p = self.place[lv as usize].expect("lruvec on the memcg LRU");
        let list = &mut self.fifo[p.gen][p.bin];
        let i = list
            .iter()
            .position(|&x| x == lv)
            .expect("lruvec in its bin");
        list.remove(i);
        p
    }

    /// The old generation emptied: it becomes the young one's successor (`seq++`).
    fn maybe_advance(&mut self, old: usize) {
        if self.nr_memcgs[old] == 0 && old == self.old_gen() {
            self.seq += 1;
        }
    }

    /// `lru_gen_online_memcg`: tail of a random bin of the old generation.
    pub fn online(&mut self, lv: u16) {
        if self.place.len() <= lv as usize {
            self.place.resize(lv as usize + 1, None);
        }
        assert!(
            self.place[lv as usize].is_none(),
            "lruvec {lv} onlined twice"
        );
        let gen = self.old_gen();
        let bin = self.random_bin();
        self.fifo[gen][bin].push(lv);
        self.nr_memcgs[gen] += 1;
        self.place[lv as usize] = Some(Place {
            gen,
            bin,
            seg: Seg::Default,
        });
    }

    /// `lru_gen_offline_memcg`: MEMCG_LRU_OLD, so that it is visited early.
    pub fn offline(&mut self, lv: u16) {
        if self.place.get(lv as usize).copied().flatten().is_some() {
            self.rotate(lv, MemcgLruOp::Old);
        }
    }

    /// `lru_gen_release_memcg`: unlink; the old generation may empty and `seq` advance.
    pub fn release(&mut self, lv: u16) {
        if self.place.get(lv as usize).copied().flatten().is_none() {
            return;
        }
        let p = self.unlink(lv);
        self.place[lv as usize] = None;
        self.nr_memcgs[p.gen] -= 1;
        self.maybe_advance(p.gen);
    }

    /// `lru_gen_rotate_memcg`: move the lruvec as `op` says, to a fresh random bin.
    pub fn rotate(&mut self, lv: u16, op: MemcgLruOp) {
        if op == MemcgLruOp::Nop {
            return;
        }
        let old = self.place[lv as usize]
            .expect("lruvec on the memcg LRU")
            .gen;
        let bin = self.random_bin();
        let (new, seg) = match op {
            MemcgLruOp::Head => (old, Seg::Head),
            MemcgLruOp::Tail => (old, Seg::Tail),
            MemcgLruOp::Old => (self.old_gen(), Seg::Default),
            MemcgLruOp::Young => (self.young_gen(), Seg::Default),
            MemcgLruOp::Nop => unreachable!(),
        };
        self.unlink(lv);
        let list = &mut self.fifo[new][bin];
        if matches!(op, MemcgLruOp::Head | MemcgLruOp::Old) {
            list.insert(0, lv);
        } else {
            list.push(lv);
        }
        self.nr_memcgs[old] -= 1;
        self.nr_memcgs[new] += 1;
        self.place[lv as usize] = Some(Place { gen: new, bin, seg });
        self.maybe_advance(old);
    }

    /// `shrink_many`: from a random bin of the old generation, visit each bin's lruvecs from
    /// the head, calling `step(lruvec, place)` — the caller's `shrink_one`, which returns the
    /// op for that lruvec and whether to stop. An op is applied only when the walk has moved
    /// on to the next entry (or has ended), so moving an lruvec never breaks the iteration.
    /// v6.3 reads the old generation at every bin (`restart:`); with `gen_read_once` it is
    /// read once per call and entries whose generation changed are skipped. Returns true if
    /// the walk stopped early.
    /// The step also sees the memcg LRU as it is at that moment (read-only). A caller whose
    /// step needs `&mut Mm` takes the `MemcgLru` out of it for the walk (`std::mem::take`).
    pub fn shrink_many(
        &mut self,
        step: &mut dyn FnMut(&MemcgLru, u16, Place) -> (MemcgLruOp, bool),
    ) -> bool {
        let first = self.random_bin();
        let mut bin = first;
        let once_gen = self.old_gen();
        loop {
            let gen = if self.gen_read_once {
                once_gen
            } else {
                self.old_gen()
            };
            let mut pending: Option<(u16, MemcgLruOp)> = None;
            let mut cur = self.fifo[gen][bin].first().copied();
            let mut aborted = false;
            while let Some(lv) = cur {
                // The successor is taken before the previous entry's op is applied (the list
                // cursor has already moved past that entry).
                if let Some((prev, op)) = pending.take() {
                    self.rotate(prev, op);
                }
                let place = self.place[lv as usize].expect("listed lruvec has a place");
                let next_of = |s: &Self| {
                    let list = &s.fifo[place.gen][place.bin];
                    let i = list.iter().position(|&x| x == lv)?;
                    list.get(i + 1).copied()
                };
                if place.gen != gen {
                    cur = next_of(self);
                    continue;
                }
                let (op, abort) = step(self, lv, place);
                pending = Some((lv, op));
                if abort {
                    aborted = true;
                    break;
                }
                // The step does not move lruvecs; the op is applied on the next iteration.
                cur = next_of(self);
            }
            if let Some((prev, op)) = pending.take() {
                self.rotate(prev, op);
            }
            if aborted {
                return true;
            }
            bin = (bin + 1) % MEMCG_NR_BINS;
            if bin == first {
                return false;
            }
        }
    }

    /// Check that every listed lruvec is where `place` says, once, and the counts match.
    pub fn check(&self) -> Result<(), String> {
        let mut seen = vec![false; self.place.len()];
        let mut counts = vec![0u64; self.nr_gens];
        for (gen, bins) in self.fifo.iter().enumerate() {
            for (bin, list) in bins.iter().enumerate() {
                for &lv in list {
                    let p = self.place.get(lv as usize).copied().flatten();
                    if p.map(|p| (p.gen, p.bin)) != Some((gen, bin)) {
                        return Err(format!(
                            "lruvec {lv} in fifo[{gen}][{bin}] but placed {p:?}"
                        ));
                    }
                    if std::mem::replace(&mut seen[lv as usize], true) {
                        return Err(format!("lruvec {lv} listed twice"));
                    }
                    counts[gen] += 1;
                }
            }
        }
        if counts != self.nr_memcgs {
            return Err(format!(
                "nr_memcgs {:?} but {counts:?} listed",
                self.nr_memcgs
            ));
        }
        Ok(())
    }
}

impl Default for MemcgLru {
    /// The current form (MEMCG_NR_GENS = 3, generation read once per walk), fixed seed.
    fn default() -> Self {
        MemcgLru::new(3, true, Rng::new(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lru(n: u16, nr_gens: usize, once: bool) -> MemcgLru {
        let mut l = MemcgLru::new(nr_gens, once, Rng::new(7));
        for lv in 0..n {
            l.online(lv);
        }
        l
    }

    fn place(l: &MemcgLru, lv: u16) -> Place {
        l.place[lv as usize].unwrap()
    }

    #[test]
    fn online_appends_to_the_tail_of_a_bin_of_the_old_generation() {
        let l = lru(20, 3, true);
        assert_eq!(l.nr_memcgs, vec![20, 0, 0]);
        for lv in 0..20 {
            let p = place(&l, lv);
            assert_eq!((p.gen, p.seg), (0, Seg::Default));
        }
        // Tail order: within each bin, ids increase.
        for bin in &l.fifo[0] {
            assert!(bin.windows(2).all(|w| w[0] < w[1]));
        }
        // The bins are random: 20 lruvecs do not all land in one bin.
        assert!(l.fifo[0].iter().filter(|b| !b.is_empty()).count() > 1);
        l.check().unwrap();
    }

    #[test]
    fn head_and_tail_stay_in_their_generation_and_mark_the_segment() {
        let mut l = lru(20, 3, true);
        l.rotate(5, MemcgLruOp::Head);
        let p = place(&l, 5);
        assert_eq!((p.gen, p.seg), (0, Seg::Head));
        assert_eq!(l.fifo[0][p.bin][0], 5);
        l.rotate(6, MemcgLruOp::Tail);
        let p = place(&l, 6);
        assert_eq!((p.gen, p.seg), (0, Seg::Tail));
        assert_eq!(*l.fifo[0][p.bin].last().unwrap(), 6);
        assert_eq!(l.nr_memcgs, vec![20, 0, 0]);
        l.check().unwrap();
    }

    #[test]
    fn young_goes_to_the_tail_of_the_young_generation_old_to_the_head_of_the_old() {
        let mut l = lru(20, 3, true);
        l.rotate(3, MemcgLruOp::Young);
        let p = place(&l, 3);
        assert_eq!((p.gen, p.seg), (1, Seg::Default));
        assert_eq!(*l.fifo[1][p.bin].last().unwrap(), 3);
        l.rotate(4, MemcgLruOp::Young);
        assert_eq!(l.nr_memcgs, vec![18, 2, 0]);
        // OLD brings it back to the head of a bin of the old generation, seg reset.
        l.rotate(4, MemcgLruOp::Tail);
        l.rotate(4, MemcgLruOp::Old);
        let p = place(&l, 4);
        assert_eq!((p.gen, p.seg), (0, Seg::Default));
        assert_eq!(l.fifo[0][p.bin][0], 4);
        assert_eq!(l.nr_memcgs, vec![19, 1, 0]);
        l.check().unwrap();
    }

    #[test]
    fn seq_advances_when_the_old_generation_empties() {
        for nr_gens in [2usize, 3] {
            let mut l = lru(4, nr_gens, nr_gens == 3);
            for lv in 0..3 {
                l.rotate(lv, MemcgLruOp::Young);
                assert_eq!(l.seq, 0);
            }
            l.rotate(3, MemcgLruOp::Young);
            assert_eq!(l.seq, 1, "nr_gens {nr_gens}");
            assert_eq!(l.old_gen(), 1);
            // Now gen 1 is old; young is (seq + 1) % nr_gens.
            l.rotate(0, MemcgLruOp::Young);
            assert_eq!(place(&l, 0).gen, 2 % nr_gens);
            // Releasing the last old-generation entries advances seq too.
            for lv in 1..4 {
                l.release(lv);
            }
            assert_eq!(l.seq, 2);
            assert_eq!(l.old_gen(), 2 % nr_gens);
            l.check().unwrap();
        }
    }

    #[test]
    fn walk_visits_bins_in_order_from_a_random_one_each_from_its_head() {
        let mut l = lru(20, 3, true);
        let expect: Vec<u16> = {
            // Reproduce the walk's first bin with the same RNG state.
            let mut r = l.rng.clone();
            let first = r.below(MEMCG_NR_BINS as u64) as usize;
            (0..MEMCG_NR_BINS)
                .flat_map(|k| l.fifo[0][(first + k) % MEMCG_NR_BINS].clone())
                .collect()
        };
        let mut seen = Vec::new();
        let aborted = l.shrink_many(&mut |_, lv, _| {
            seen.push(lv);
            (MemcgLruOp::Nop, false)
        });
        assert!(!aborted);
        assert_eq!(seen, expect);
        assert_eq!(seen.len(), 20);
    }

    #[test]
    fn walk_stops_on_abort_and_applies_the_last_op() {
        let mut l = lru(20, 3, true);
        let mut seen = Vec::new();
        let aborted = l.shrink_many(&mut |_, lv, _| {
            seen.push(lv);
            (MemcgLruOp::Young, seen.len() == 3)
        });
        assert!(aborted);
        assert_eq!(seen.len(), 3);
        for lv in &seen {
            assert_eq!(
                place(&l, *lv).gen,
                1,
                "the aborting lruvec's op is applied too"
            );
        }
        assert_eq!(l.nr_memcgs, vec![17, 3, 0]);
        l.check().unwrap();
    }

    #[test]
    fn ops_are_deferred_until_the_walk_moved_on() {
        let mut l = lru(20, 3, true);
        let mut prev: Option<u16> = None;
        let mut checked = 0;
        l.shrink_many(&mut |m, lv, p| {
            // This lruvec's own op is not applied yet; the previous one's already is.
            assert_eq!((p.gen, m.place[lv as usize].unwrap().gen), (0, 0));
            if let Some(q) = prev {
                assert_eq!(m.place[q as usize].unwrap().gen, 1, "previous op applied");
                checked += 1;
            }
            m.check().unwrap();
            prev = Some(lv);
            (MemcgLruOp::Young, false)
        });
        assert_eq!(checked, 19);
        // Every lruvec ended young and seq advanced once the old generation emptied.
        assert_eq!(l.seq, 1);
        assert_eq!(l.nr_memcgs, vec![0, 20, 0]);
        // NOP keeps everything where it is.
        let before = l.fifo.clone();
        l.rotate(0, MemcgLruOp::Nop);
        assert_eq!(l.fifo, before);
        l.check().unwrap();
    }

    #[test]
    fn tail_ops_give_a_second_visit_in_the_same_walk() {
        // A lruvec sent to the tail of a bin of the same generation may be met again later in
        // the same walk (it is still in the old generation): the kernel's "second visit".
        let mut l = lru(16, 3, true);
        let mut visits = vec![0u32; 16];
        l.shrink_many(&mut |_, lv, p| {
            visits[lv as usize] += 1;
            let op = if p.seg == Seg::Tail {
                MemcgLruOp::Young
            } else {
                MemcgLruOp::Tail
            };
            (op, false)
        });
        // Every lruvec was visited at least once; any second visit saw seg = tail.
        assert!(visits.iter().all(|&v| (1..=2).contains(&v)), "{visits:?}");
        l.check().unwrap();
    }

    #[test]
    fn v6_3_rereads_the_generation_per_bin_and_revisits_aged_memcgs() {
        // Every visit ages (YOUNG). Once the old generation is empty, seq advances; v6.3 reads
        // the old generation again at the next bin and walks the memcgs it just aged, the
        // fixed form (generation read once) does not.
        // (Whether bins remain after the last aged one depends on the random bins: try seeds.)
        let visits = |nr_gens, once, seed| {
            let mut l = MemcgLru::new(nr_gens, once, Rng::new(seed));
            for lv in 0..16 {
                l.online(lv);
            }
            let mut n = 0;
            l.shrink_many(&mut |_, _, _| {
                n += 1;
                (MemcgLruOp::Young, false)
            });
            l.check().unwrap();
            n
        };
        let mut revisited = 0;
        for seed in 0..16 {
            assert_eq!(visits(3, true, seed), 16);
            let v63 = visits(2, false, seed);
            assert!(v63 >= 16);
            revisited += (v63 > 16) as u32;
        }
        assert!(revisited > 0, "v6.3 never walked the re-read generation");
    }
}

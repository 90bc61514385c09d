//! The multi-generational LRU (mm/vmscan.c `CONFIG_LRU_GEN`, include/linux/mm_inline.h,
//! mm/workingset.c): generations per type, aging by page-table walks, eviction from the oldest
//! generation with tiers and a PID controller, and shadow entries that record generation and
//! tier. Two shapes, switched by `Flags::mglru_rework`: 6.1-6.13 and 6.14+ (the Dec-2024
//! rework). Pure arithmetic is in free functions (unit-tested below); `impl Mm` holds the
//! list operations.
use crate::mm::mm_types::*;
use crate::mm::mmzone::{Mm, MoveReason};
use crate::mm::vmscan::balance::DEF_PRIORITY;
use crate::mm::vmscan::memcg_lru::{MemcgLruOp, Seg};
use crate::mm::vmscan::{NrStat, Reclaimed, ScanControl, SCAN_INACTIVE_NS};
use crate::mm::vmstat::C;

/// `MIN_NR_GENS`: generations a type keeps; the two youngest count as "active" for vmstat.
pub const MIN_NR_GENS: u64 = 2;
/// `MAX_NR_GENS`: the ring of generation slots.
pub const MAX_NR_GENS: u64 = 4;
/// `MAX_NR_TIERS`: tiers per generation, derived from the access-count bits.
pub const MAX_NR_TIERS: usize = 4;
/// `LRU_REFS_WIDTH`.
pub const LRU_REFS_WIDTH: u32 = 2;
/// `MIN_LRU_BATCH` (BITS_PER_LONG) and `MAX_LRU_BATCH`, in pages.
pub const MIN_LRU_BATCH: u64 = 64;
pub const MAX_LRU_BATCH: u64 = MIN_LRU_BATCH * 64;
/// PAGEVEC_SIZE (6.1): look-around's batch limit for `folio_activate` without an mm_walk.
pub const PAGEVEC_SIZE: u64 = 15;
/// `MAX_SWAPPINESS`; 201 (`SWAPPINESS_ANON_ONLY`) means "anon only". In 6.14 only
/// MAX_SWAPPINESS + 1 (which the lru_gen debugfs interface accepts; the name is 6.16's)
/// leaves file out of `for_each_evictable_type`; at 200 file stays evictable and type
/// selection takes anon first. (The Dec-2024 rework's first posting had excluded file at 200.)
/// Scenarios accept 0..=200 and, for memory.reclaim on 6.16+ (`swappiness_anon_only`),
/// `swappiness = "max"`, which is 201 here as in the kernel.
pub const MAX_SWAPPINESS: u32 = 200;
pub const SWAPPINESS_ANON_ONLY: u32 = MAX_SWAPPINESS + 1;
pub const ANON: usize = 0;
pub const FILE: usize = 1;

/// CPU cost of the aging walk per mapped page it visits: a PTE test-and-clear and a folio
/// lookup in a cache-friendly linear walk (`walk_pte_range`), an order of magnitude cheaper
/// than the rmap walk of a classic inactive-list check (`SCAN_INACTIVE_NS`).
pub const WALK_PTE_NS: u64 = 20;
/// The simulator's own choice, not the kernel's (it changes no result, only the engine's
/// speed): `lru_gen_walk` goes through the whole frame table in order, not down the lists, when
/// the lists hold at least 1/this of the frames. A sequential pass over the columns costs far
/// less a frame than a list's dependent misses.
const WALK_FRAME_ORDER_SHARE: usize = 8;
/// CPU cost of sorting one folio to another generation list (`sort_folio`, a list move).
/// Both per 4 KiB page: a frame costs `frame_scale` times as much.
pub const SORT_NS: u64 = 30;

/// `struct lru_gen_folio` (`lruvec->lrugen`), one zone.
#[derive(Debug, Clone)]
pub struct LruGen {
    pub max_seq: u64,
    pub min_seq: [u64; 2],
    /// Birth time (virtual ns) of each generation slot.
    pub timestamps: [u64; MAX_NR_GENS as usize],
    /// The lists folios sit on: `[gen][type]`, head = youngest insertions, tail = eviction end.
    pub lists: [[ListHead; 2]; MAX_NR_GENS as usize],
    /// Pages per generation by their generation counter (lazily sorted, so a promoted folio
    /// counts in its new generation while it still sits on its old list).
    pub nr_pages: [[i64; 2]; MAX_NR_GENS as usize],
    /// PID controller state, `[type][tier]` (NR_HIST_GENS = 1).
    pub avg_refaulted: [[u64; MAX_NR_TIERS]; 2],
    pub avg_total: [[u64; MAX_NR_TIERS]; 2],
    pub protected: [[u64; MAX_NR_TIERS]; 2],
    pub evicted: [[u64; MAX_NR_TIERS]; 2],
    pub refaulted: [[u64; MAX_NR_TIERS]; 2],
}

impl Default for LruGen {
    /// `lru_gen_init_lruvec`: max_seq = MIN_NR_GENS + 1, min_seq = 0 (four empty generations).
    fn default() -> Self {
        LruGen {
            max_seq: MIN_NR_GENS + 1,
            min_seq: [0; 2],
            timestamps: [0; MAX_NR_GENS as usize],
            lists: Default::default(),
            nr_pages: [[0; 2]; MAX_NR_GENS as usize],
            avg_refaulted: [[0; MAX_NR_TIERS]; 2],
            avg_total: [[0; MAX_NR_TIERS]; 2],
            protected: [[0; MAX_NR_TIERS]; 2],
            evicted: [[0; MAX_NR_TIERS]; 2],
            refaulted: [[0; MAX_NR_TIERS]; 2],
        }
    }
}

/// The walk's `should_skip_vma` by type: anon/shmem at swappiness 0, file at "anon only".
fn walk_skips(ty: usize, s: u32) -> bool {
    (ty == ANON && s == 0) || (ty == FILE && s > MAX_SWAPPINESS)
}

/// `lru_gen_from_seq`: the slot of a sequence number.
#[inline]
pub fn gen_from_seq(seq: u64) -> usize {
    (seq % MAX_NR_GENS) as usize
}

/// The evictable types at a swappiness (`for_each_evictable_type`, 6.14): anon iff s >= 1,
/// file iff s <= 200.
#[inline]
pub fn evictable_types(s: u32) -> std::ops::RangeInclusive<usize> {
    let min = if s == 0 { FILE } else { ANON };
    let max = if s < SWAPPINESS_ANON_ONLY { FILE } else { ANON };
    min..=max
}

/// `order_base_2`: ceil(log2(n)), 0 for n <= 1.
#[inline]
pub fn order_base_2(n: u64) -> usize {
    if n <= 1 {
        0
    } else {
        (64 - (n - 1).leading_zeros()) as usize
    }
}

/// `folio_lru_refs` + `lru_tier_from_refs` from a frame's flags.
/// 6.14+: refs = 0 without PG_referenced, else LRU_REFS + 1 (1..4); tier 3 if PG_workingset,
/// else order_base_2(refs). 6.1-6.13: refs = LRU_REFS + PG_workingset (accesses beyond the
/// first), tier = order_base_2(refs + 1).
/// Returns (refs, tier).
#[inline]
pub fn refs_and_tier(flags: u16, rework: bool) -> (u64, usize) {
    let bits = ((flags & LRU_REFS_MASK) >> LRU_REFS_SHIFT) as u64;
    let ws = flags & PG_WORKINGSET != 0;
    if rework {
        let refs = if flags & PG_REFERENCED != 0 {
            bits + 1
        } else {
            0
        };
        let tier = if ws {
            MAX_NR_TIERS - 1
        } else {
            order_base_2(refs)
        };
        (refs, tier)
    } else {
        let refs = bits + ws as u64;
        (refs, order_base_2(refs + 1))
    }
}

/// Is this the fd-saturated folio that `sort_folio` protects whatever its tier? 6.14: refs 4 +
/// workingset (moved up without counting it as protected, "workingset being lazily promoted");
/// 6.7-6.13 (`mglru_protect_saturated`): refs == 4 (counted without PG_referenced), counted as
/// protected; 6.1-6.6: no such rule.
#[inline]
pub fn fd_saturated(flags: u16, rework: bool) -> bool {
    let (refs, _) = refs_and_tier(flags, rework);
    let ws = flags & PG_WORKINGSET != 0;
    if rework {
        refs + ws as u64 == (1 << LRU_REFS_WIDTH) + 1
    } else {
        refs == 1 << LRU_REFS_WIDTH
    }
}

/// `sort_folio`'s "protected" test: (move the folio up, count it in `protected`). 6.1-6.6:
/// tier above `tier_idx`, counted; 6.7-6.13 (`fix`): also fd-saturated, counted; 6.14
/// (`rework`): also saturated + workingset, not counted.
pub fn sort_protects(
    flags: u16,
    tier: usize,
    tier_idx: usize,
    rework: bool,
    fix: bool,
) -> (bool, bool) {
    let saturated = (rework || fix) && fd_saturated(flags, rework);
    (tier > tier_idx || saturated, !(rework && saturated))
}

/// `struct ctrl_pos`: a position of the PID controller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CtrlPos {
    pub refaulted: u64,
    pub total: u64,
    pub gain: u64,
}

/// `read_ctrl_pos`: refaults and (evicted + protected) of one tier, or of all tiers when
/// `tier == MAX_NR_TIERS`, as the EMA plus the current generation's counts.
pub fn read_ctrl_pos(lg: &LruGen, ty: usize, tier: usize, gain: u64) -> CtrlPos {
    let tiers = if tier >= MAX_NR_TIERS {
        0..MAX_NR_TIERS
    } else {
        tier..tier + 1
    };
    let mut pos = CtrlPos {
        refaulted: 0,
        total: 0,
        gain,
    };
    for i in tiers {
        pos.refaulted += lg.avg_refaulted[ty][i] + lg.refaulted[ty][i];
        pos.total += lg.avg_total[ty][i] + lg.protected[ty][i] + lg.evicted[ty][i];
    }
    pos
}

/// `positive_ctrl_err`: true if the PV has few refaults (< MIN_LRU_BATCH) or a refault rate,
/// scaled by its gain, no higher than the SP's. `batch` is MIN_LRU_BATCH in frames.
pub fn positive_ctrl_err(sp: CtrlPos, pv: CtrlPos, batch: u64) -> bool {
    pv.refaulted < batch
        || (pv.refaulted as u128) * (sp.total + batch) as u128 * sp.gain as u128
            <= (sp.refaulted + 1) as u128 * pv.total as u128 * pv.gain as u128
}

/// `reset_ctrl_pos` with NR_HIST_GENS = 1: on each `min_seq` advance fold the generation's
/// counts into the EMA (factor 1/2) and clear them.
pub fn reset_ctrl_pos(lg: &mut LruGen, ty: usize) {
    for t in 0..MAX_NR_TIERS {
        lg.avg_refaulted[ty][t] = (lg.avg_refaulted[ty][t] + lg.refaulted[ty][t]) / 2;
        lg.avg_total[ty][t] = (lg.avg_total[ty][t] + lg.protected[ty][t] + lg.evicted[ty][t]) / 2;
        lg.refaulted[ty][t] = 0;
        lg.evicted[ty][t] = 0;
        lg.protected[ty][t] = 0;
    }
}

/// `get_tier_idx`: the highest tier still evictable. SP = tier 0, PV = each higher tier; a
/// tier is protected once its refault rate exceeds tier 0's by the gain ratio: 3:2 (6.14+),
/// 2:1 (6.1-6.13).
pub fn get_tier_idx(lg: &LruGen, ty: usize, rework: bool, batch: u64) -> usize {
    let (g0, g) = if rework { (2, 3) } else { (1, 2) };
    let sp = read_ctrl_pos(lg, ty, 0, g0);
    let mut tier = 1;
    while tier < MAX_NR_TIERS {
        if !positive_ctrl_err(sp, read_ctrl_pos(lg, ty, tier, g), batch) {
            break;
        }
        tier += 1;
    }
    tier - 1
}

/// Why `get_type_to_scan` chose its type (reporting only, for the generations view).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum TypeReason {
    /// 6.1-6.13: swappiness 0 scans file only (before the min_seq check).
    SwappinessZero,
    /// Swappiness at most 1 (6.14+; 6.1-6.13: exactly 1) takes file first.
    SwappinessLow,
    /// Swappiness MAX_SWAPPINESS (200) or above takes anon first.
    SwappinessMax,
    /// 6.1-6.13: anon's min_seq is older than file's, and the older type goes first.
    OlderAnon,
    /// `positive_ctrl_err`: file has fewer refaults than MIN_LRU_BATCH, so file.
    FewFileRefaults,
    /// `positive_ctrl_err`: the gain-weighted refault rates decided.
    RefaultRates,
}

/// `get_type_to_scan`'s choice with its reason and, when the PID controller decided, the
/// positions it compared (SP anon with gain s, PV file with gain 200 - s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypeChoice {
    pub ty: usize,
    /// The tier threshold, if the choice already decided it (6.1-6.13).
    pub tier: Option<usize>,
    pub reason: TypeReason,
    pub compared: Option<(CtrlPos, CtrlPos)>,
}

/// `get_type_to_scan` (6.14+): file at s <= 1, anon at s >= 200, otherwise compare all tiers of
/// anon (gain s) with all tiers of file (gain 200 - s): file unless its refault rate is
/// higher. Returns (type, tier threshold if already decided).
/// 6.1-6.13 (`isolate_folios` + `get_type_to_scan`): file at s = 0; anon if its min_seq is
/// older; file at s = 1, anon at s = 200; else tier 0 of anon vs tier 0 of file picks the type
/// and each higher tier of it is compared with tier 0 of the other type.
pub fn get_type_to_scan(lg: &LruGen, s: u32, rework: bool, batch: u64) -> (usize, Option<usize>) {
    let c = type_choice(lg, s, rework, batch);
    (c.ty, c.tier)
}

/// `get_type_to_scan` with its reason (see there).
pub fn type_choice(lg: &LruGen, s: u32, rework: bool, batch: u64) -> TypeChoice {
    let s = s as u64;
    let fixed = |ty, reason| TypeChoice {
        ty,
        tier: None,
        reason,
        compared: None,
    };
    let decided = |sp, pv: CtrlPos| {
        let reason = if pv.refaulted < batch {
            TypeReason::FewFileRefaults
        } else {
            TypeReason::RefaultRates
        };
        (
            positive_ctrl_err(sp, pv, batch) as usize,
            reason,
            Some((sp, pv)),
        )
    };
    if rework {
        if s <= 1 {
            return fixed(FILE, TypeReason::SwappinessLow);
        }
        if s >= MAX_SWAPPINESS as u64 {
            return fixed(ANON, TypeReason::SwappinessMax);
        }
        let sp = read_ctrl_pos(lg, ANON, MAX_NR_TIERS, s);
        let pv = read_ctrl_pos(lg, FILE, MAX_NR_TIERS, 200 - s);
        let (ty, reason, compared) = decided(sp, pv);
        return TypeChoice {
            ty,
            tier: None,
            reason,
            compared,
        };
    }
    if s == 0 {
        return fixed(FILE, TypeReason::SwappinessZero);
    }
    if lg.min_seq[ANON] < lg.min_seq[FILE] {
        return fixed(ANON, TypeReason::OlderAnon);
    }
    if s == 1 {
        return fixed(FILE, TypeReason::SwappinessLow);
    }
    if s >= MAX_SWAPPINESS as u64 {
        return fixed(ANON, TypeReason::SwappinessMax);
    }
    let gain = [s, 200 - s];
    let sp = read_ctrl_pos(lg, ANON, 0, gain[ANON]);
    let pv = read_ctrl_pos(lg, FILE, 0, gain[FILE]);
    let (ty, reason, compared) = decided(sp, pv);
    let sp = read_ctrl_pos(lg, 1 - ty, 0, gain[1 - ty]);
    let mut tier = 1;
    while tier < MAX_NR_TIERS {
        if !positive_ctrl_err(sp, read_ctrl_pos(lg, ty, tier, gain[ty]), batch) {
            break;
        }
        tier += 1;
    }
    TypeChoice {
        ty,
        tier: Some(tier - 1),
        reason,
        compared,
    }
}

/// The part of `try_to_inc_min_seq` that keeps the two types' oldest generations together,
/// given each type's first populated generation `found` and the current `old` values.
/// 6.14+: with both types evictable, the one more than MIN_NR_GENS behind max_seq is pulled
/// up to it when the other is ahead. 6.1-6.13 (with swap): anon may not pass file, and file
/// may not pass anon ("normally anon and file min_seq are in sync") unless it already had;
/// anon ahead of file (after `inc_min_seq` wrapped it while it could not be evicted) is
/// brought back.
pub fn sync_min_seq(
    found: [u64; 2],
    old: [u64; 2],
    max_seq: u64,
    s: u32,
    rework: bool,
) -> [u64; 2] {
    let mut min_seq = found;
    if rework {
        if s > 0 && s <= MAX_SWAPPINESS {
            let seq = max_seq - MIN_NR_GENS;
            if min_seq[ANON] > seq && min_seq[FILE] < seq {
                min_seq[ANON] = seq;
            } else if min_seq[FILE] > seq && min_seq[ANON] < seq {
                min_seq[FILE] = seq;
            }
        }
    } else if s > 0 {
        min_seq[ANON] = min_seq[ANON].min(min_seq[FILE]);
        min_seq[FILE] = min_seq[ANON].max(old[FILE]);
    }
    min_seq
}

/// `lru_gen_add_folio`'s generation (`lru_gen_folio_seq`), from the folio's flags. 6.1-6.6:
/// active -> max_seq, fresh anon or pending reclaim -> min_seq + 1, else min_seq; 6.7-6.13
/// (`saturated`, "fix underprotected page cache"): max_seq - 1 instead of min_seq + 1, and
/// min_seq + 1 instead of min_seq unless reclaiming or only MIN_NR_GENS are left; 6.14
/// (`rework`): max_seq + 1 - d, at least min_seq, for a distance d of 1 (active and
/// workingset), 2 (active), 4 (reclaiming), 2 (fresh anon or pending reclaim), 3 (workingset),
/// else 4, taken in that order.
pub fn folio_seq(lg: &LruGen, flags: u16, reclaiming: bool, rework: bool, saturated: bool) -> u64 {
    let ty = (flags & PG_SWAPBACKED == 0) as usize;
    let active = flags & PG_ACTIVE != 0;
    let ws = flags & PG_WORKINGSET != 0;
    let anon_fresh = ty == ANON && flags & PG_SWAPCACHE == 0;
    let pending = flags & PG_RECLAIM != 0 && flags & (PG_DIRTY | PG_WRITEBACK) != 0;
    if rework {
        let d = if active && ws {
            1
        } else if active {
            2
        } else if reclaiming {
            4
        } else if anon_fresh || pending {
            2
        } else if ws {
            3
        } else {
            4
        };
        return (lg.max_seq + 1 - d).max(lg.min_seq[ty]);
    }
    if active {
        lg.max_seq
    } else if saturated && (anon_fresh || pending) {
        lg.max_seq - 1
    } else if anon_fresh || pending {
        lg.min_seq[ty] + 1
    } else if saturated && !reclaiming && lg.min_seq[ty] + MIN_NR_GENS < lg.max_seq {
        lg.min_seq[ty] + 1
    } else {
        lg.min_seq[ty]
    }
}

impl LruGen {
    #[inline]
    pub fn nr_gens(&self, ty: usize) -> u64 {
        self.max_seq - self.min_seq[ty] + 1
    }
    /// `evictable_min_seq`.
    #[inline]
    pub fn evictable_min_seq(&self, s: u32) -> u64 {
        evictable_types(s).map(|t| self.min_seq[t]).min().unwrap()
    }
    /// Pages in every generation of the evictable types (`should_run_aging`'s size).
    pub fn evictable_size(&self, s: u32) -> u64 {
        let mut size = 0i64;
        for ty in evictable_types(s) {
            for seq in self.min_seq[ty]..=self.max_seq {
                size += self.nr_pages[gen_from_seq(seq)][ty].max(0);
            }
        }
        size as u64
    }
    /// The classic list sizes reported for compatibility: the two youngest generations are
    /// "active" (`lru_gen_is_active`), the rest "inactive". Every slot counts, also one below
    /// min_seq that a folio's counter still names (see `check_lru_gen`): the kernel's
    /// NR_INACTIVE_* / NR_ACTIVE_* include every folio.
    pub fn abi_sizes(&self) -> [u64; 4] {
        let mut out = [0u64; 4];
        for ty in 0..2 {
            for g in 0..MAX_NR_GENS as usize {
                let n = self.nr_pages[g][ty].max(0) as u64;
                out[ty * 2 + self.is_active_gen(g) as usize] += n;
            }
        }
        out
    }

    /// `lru_gen_is_active` (6.1): generation slot `gen` is one of the two youngest, which
    /// count as the classic active lists.
    pub fn is_active_gen(&self, gen: usize) -> bool {
        gen == gen_from_seq(self.max_seq) || gen == gen_from_seq(self.max_seq - 1)
    }

    /// `lru_gen_is_active` by sequence number.
    pub fn is_active_seq(&self, seq: u64) -> bool {
        seq + 1 >= self.max_seq
    }

    /// The generation slots of type `ty` from youngest to oldest: the window max_seq..min_seq,
    /// then any slot outside it (views list every folio).
    pub fn slots_youngest_first(&self, ty: usize) -> Vec<usize> {
        let mut v: Vec<usize> = (self.min_seq[ty]..=self.max_seq)
            .rev()
            .map(gen_from_seq)
            .collect();
        for g in 0..MAX_NR_GENS as usize {
            if !v.contains(&g) {
                v.push(g);
            }
        }
        v
    }
}

impl Mm {
    #[inline]
    fn refs_batch(&self) -> u64 {
        (MIN_LRU_BATCH / self.scale).max(1)
    }

    // ---- list operations ------------------------------------------------------------------

    /// `lru_gen_add_folio`: insert at the head (tail when `reclaiming`) of the generation its
    /// flags select; PG_active is consumed.
    pub fn lru_gen_add_folio(&mut self, f: u32, reclaiming: bool) {
        let fi = f as usize;
        let lv = self.frames.lruvec[fi] as usize;
        let flags = self.frames.folio[fi].flags;
        let ty = (flags & PG_SWAPBACKED == 0) as usize;
        let rework = self.flags.mglru_rework;
        let saturated = self.flags.mglru_protect_saturated;
        let seq = folio_seq(
            &self.lruvecs[lv].lrugen,
            flags,
            reclaiming,
            rework,
            saturated,
        );
        let gen = gen_from_seq(seq);
        self.frames.folio[fi].flags &= !PG_ACTIVE;
        self.frames.gen[fi] = gen as u8 + 1;
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.nr_pages[gen][ty] += 1;
        let id = gen_list_id(gen, ty == FILE);
        let l = &mut lg.lists[gen][ty];
        if reclaiming {
            self.frames.push_tail(l, f, id);
        } else {
            self.frames.push_head(l, f, id);
        }
    }

    /// `lru_gen_del_folio`: off its generation list; its counter is cleared.
    pub fn lru_gen_del_folio(&mut self, f: u32) {
        let fi = f as usize;
        let (lgen, ty) = gen_list_slot(self.frames.list[fi]);
        let lv = self.frames.lruvec[fi] as usize;
        let gen = self.frames.gen[fi] as usize - 1;
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.nr_pages[gen][ty] -= 1;
        self.frames.unlink(&mut lg.lists[lgen][ty], f);
        self.frames.gen[fi] = 0;
    }

    /// `lru_gen_inc_refs` (`folio_mark_accessed` with MGLRU): an fd access only counts.
    /// 6.14+: #1 sets PG_referenced, #2-#4 count LRU_REFS up to 3, #5+ set PG_workingset.
    /// 6.1-6.13: #1 PG_referenced, #2 PG_workingset, #3+ count LRU_REFS up to 3.
    pub fn lru_gen_inc_refs(&mut self, f: u32) {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        if flags & PG_UNEVICTABLE != 0 {
            return;
        }
        let bits = (flags & LRU_REFS_MASK) >> LRU_REFS_SHIFT;
        if flags & PG_REFERENCED == 0 {
            self.frames.folio[fi].flags = (flags | PG_REFERENCED) & !LRU_REFS_MASK;
            return;
        }
        if self.flags.mglru_rework {
            if bits == 3 {
                self.frames.folio[fi].flags |= PG_WORKINGSET;
            } else {
                self.frames.folio[fi].flags =
                    (flags & !LRU_REFS_MASK) | ((bits + 1) << LRU_REFS_SHIFT);
            }
        } else if flags & PG_WORKINGSET == 0 {
            self.frames.folio[fi].flags |= PG_WORKINGSET;
        } else if bits < 3 {
            self.frames.folio[fi].flags = (flags & !LRU_REFS_MASK) | ((bits + 1) << LRU_REFS_SHIFT);
        }
    }

    /// `folio_update_gen`: a young PTE seen by the aging walk or look-around.
    /// 6.14+: the first sighting only sets PG_referenced; later ones promote to `gen` and set
    /// PG_workingset, clearing the access counts. 6.1-6.13: promote at once, clearing
    /// PG_referenced, PG_workingset and the counts. A folio isolated for eviction (no
    /// generation) is not promoted: before 6.14 it is marked PG_referenced for
    /// `shrink_folio_list`; 6.14 leaves it alone unless it is a first sighting.
    fn folio_update_gen(&mut self, f: u32, gen: usize) {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let rework = self.flags.mglru_rework;
        if rework && flags & (PG_REFERENCED | PG_WORKINGSET) == 0 {
            self.frames.folio[fi].flags = (flags | PG_REFERENCED) & !LRU_REFS_MASK;
            return;
        }
        let old = self.frames.gen[fi] as usize;
        if old == 0 {
            if !rework {
                self.frames.folio[fi].flags = flags | PG_REFERENCED;
            }
            return;
        }
        self.frames.folio[fi].flags = if rework {
            (flags & !(LRU_REFS_MASK | PG_REFERENCED)) | PG_WORKINGSET
        } else {
            flags & !(LRU_REFS_MASK | PG_REFERENCED | PG_WORKINGSET)
        };
        if old - 1 == gen {
            return;
        }
        let lv = self.frames.lruvec[fi] as usize;
        let ty = (flags & PG_SWAPBACKED == 0) as usize;
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.nr_pages[old - 1][ty] -= 1;
        lg.nr_pages[gen][ty] += 1;
        self.frames.gen[fi] = gen as u8 + 1;
    }

    /// `folio_activate` of a folio on a generation list (`lru_activate`: off the list, PG_active
    /// set, back on): its counter moves to the generation `lru_gen_folio_seq` gives it active,
    /// max_seq with PG_workingset, else max_seq - 1. Lazily, as the walk's promotions: it is
    /// relinked when `sort_folio` meets it. Counted (PGACTIVATE) by the caller.
    fn lru_gen_activate(&mut self, f: u32) {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let lv = self.frames.lruvec[fi] as usize;
        let ty = (flags & PG_SWAPBACKED == 0) as usize;
        let lg = &self.lruvecs[lv].lrugen;
        let seq = folio_seq(lg, flags | PG_ACTIVE, false, self.flags.mglru_rework, false);
        let (old, new) = (self.frames.gen[fi] as usize - 1, gen_from_seq(seq));
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.nr_pages[old][ty] -= 1;
        lg.nr_pages[new][ty] += 1;
        self.frames.gen[fi] = new as u8 + 1;
    }

    /// `folio_inc_gen`: move a folio of the oldest generation one generation up (unless it was
    /// promoted meanwhile: then to its own generation), clearing its access counts; with
    /// `reclaiming` set PG_reclaim so writeback completion rotates it. Returns the new slot.
    fn folio_inc_gen(&mut self, f: u32, reclaiming: bool) -> usize {
        let fi = f as usize;
        let lv = self.frames.lruvec[fi] as usize;
        let ty = (self.frames.folio[fi].flags & PG_SWAPBACKED == 0) as usize;
        let old_gen = gen_from_seq(self.lruvecs[lv].lrugen.min_seq[ty]);
        let cur = self.frames.gen[fi] as usize - 1;
        if cur != old_gen {
            return cur;
        }
        let new_gen = (old_gen + 1) % MAX_NR_GENS as usize;
        let refs_flags = if self.flags.mglru_rework {
            LRU_REFS_MASK | PG_REFERENCED
        } else {
            LRU_REFS_MASK | PG_REFERENCED | PG_WORKINGSET
        };
        self.frames.folio[fi].flags &= !refs_flags;
        if reclaiming {
            self.frames.folio[fi].flags |= PG_RECLAIM;
        }
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.nr_pages[old_gen][ty] -= 1;
        lg.nr_pages[new_gen][ty] += 1;
        self.frames.gen[fi] = new_gen as u8 + 1;
        new_gen
    }

    // ---- aging ----------------------------------------------------------------------------

    /// The mapping slots of frame `f` whose PTEs MGLRU's page-table walker and look-around see:
    /// all from 6.3, where a mapping without recency keeps no young bits to see
    /// (`vma_has_recency`); before, those of mappings not advised MADV_RANDOM or
    /// MADV_SEQUENTIAL (`should_skip_vma` and `folio_referenced_one`, v6.1).
    #[inline]
    fn walkable_slots(&self, f: u32) -> u8 {
        if self.flags.vma_has_recency {
            return u8::MAX;
        }
        match self.frames.space[f as usize] {
            NIL => u8::MAX,
            sp => self.spaces[sp as usize].locality_slots(),
        }
    }

    /// The walker or look-around clears the young PTEs of these slots (`walk_pte_range`,
    /// `lru_gen_look_around`, v6.1); VM flags, which are remembered for young mappings, go
    /// with the last of them.
    fn clear_young_slots(&mut self, f: u32, slots: u8) {
        let fi = f as usize;
        self.pte_clear_young(f);
        self.frames.folio[fi].young &= !slots;
        if self.frames.folio[fi].young == 0 {
            self.frames.vmflags[fi] = 0;
        }
    }

    /// The page-table walk of `try_to_inc_max_seq` (`walk_mm` over the memcg's mm list):
    /// every young PTE of a mapping the walker sees (`walkable_slots`) of this lruvec's pages is
    /// cleared and the page promoted into max_seq (`folio_update_gen`). Anon/shmem is skipped
    /// at swappiness 0, file at "anon only" (`should_skip_vma`). Returns the CPU time, by the
    /// pages it saw mapped.
    ///
    /// Each page's step touches only that page (its frame, its PTE copy in its space, and the
    /// lruvec's counts, by sums), and moves no page between lists, so the order of the walk
    /// changes nothing. A lruvec that holds a large share of memory is walked in
    /// frame order, one pass over the frame table's columns, rather than down its lists, a
    /// cache miss a page in the order of last use (issue #28).
    fn lru_gen_walk(&mut self, lv: usize, s: u32) -> u64 {
        let lists = &self.lruvecs[lv].lrugen.lists;
        let on_lists: usize = (0..2)
            .filter(|&ty| !walk_skips(ty, s))
            .map(|ty| lists.iter().map(|l| l[ty].len as usize).sum::<usize>())
            .sum();
        let frame_order = on_lists >= self.frames.len() / WALK_FRAME_ORDER_SHARE;
        self.lru_gen_walk_in(lv, s, frame_order)
    }

    /// `lru_gen_walk` in the order given: frame order, or down the generation lists.
    fn lru_gen_walk_in(&mut self, lv: usize, s: u32, frame_order: bool) -> u64 {
        let gen = gen_from_seq(self.lruvecs[lv].lrugen.max_seq);
        let mut visited = 0u64;
        let mut visit = |mm: &mut Mm, f: u32| {
            let fi = f as usize;
            let mapped = mm.frames.folio[fi].mapped;
            if mapped == 0 {
                return;
            }
            let seen = mapped & mm.walkable_slots(f);
            if seen != 0 {
                visited += 1;
                let young = mm.frames.folio[fi].young & seen;
                if young != 0 {
                    mm.clear_young_slots(f, young);
                    mm.folio_update_gen(f, gen);
                }
            }
        };
        if frame_order {
            for fi in 0..self.frames.len() {
                let Some((_, ty)) = gen_list_of(self.frames.list[fi]) else {
                    continue;
                };
                if self.frames.lruvec[fi] as usize == lv && !walk_skips(ty, s) {
                    visit(self, fi as u32);
                }
            }
        } else {
            for g in 0..MAX_NR_GENS as usize {
                for ty in 0..2 {
                    if walk_skips(ty, s) {
                        continue;
                    }
                    let mut f = self.lruvecs[lv].lrugen.lists[g][ty].head;
                    while f != NIL {
                        let next = self.frames.next[f as usize];
                        visit(self, f);
                        f = next;
                    }
                }
            }
        }
        visited * WALK_PTE_NS * self.scale
    }

    /// `inc_min_seq`: retire the oldest generation of a type that has MAX_NR_GENS: its folios
    /// move one generation up (counted as protected by tier, 6.14+), or, for a type not
    /// evictable at this swappiness, `min_seq` simply advances.
    fn inc_min_seq(&mut self, lv: usize, ty: usize, s: u32) {
        let evictable = evictable_types(s).contains(&ty);
        if evictable {
            let old_gen = gen_from_seq(self.lruvecs[lv].lrugen.min_seq[ty]);
            let rework = self.flags.mglru_rework;
            loop {
                let f = self.lruvecs[lv].lrugen.lists[old_gen][ty].tail;
                if f == NIL {
                    break;
                }
                let flags = self.frames.folio[f as usize].flags;
                let new_gen = self.folio_inc_gen(f, false);
                self.lru_gen_move_list(f, new_gen, true);
                if rework && !fd_saturated(flags, rework) {
                    let (_, tier) = refs_and_tier(flags, rework);
                    self.lruvecs[lv].lrugen.protected[ty][tier] += 1;
                }
            }
        }
        let lg = &mut self.lruvecs[lv].lrugen;
        reset_ctrl_pos(lg, ty);
        lg.min_seq[ty] += 1;
    }

    /// Relink a folio whose counter is already `gen` onto that generation's list.
    fn lru_gen_move_list(&mut self, f: u32, gen: usize, tail: bool) {
        let fi = f as usize;
        let (lgen, ty) = gen_list_slot(self.frames.list[fi]);
        let lv = self.frames.lruvec[fi] as usize;
        let lg = &mut self.lruvecs[lv].lrugen;
        self.frames.unlink(&mut lg.lists[lgen][ty], f);
        let id = gen_list_id(gen, ty == FILE);
        if tail {
            self.frames.push_tail(&mut lg.lists[gen][ty], f, id);
        } else {
            self.frames.push_head(&mut lg.lists[gen][ty], f, id);
        }
    }

    /// `try_to_inc_min_seq`: skip empty oldest generations of the evictable types; with both
    /// types evictable keep them within one generation of each other (6.14+), or in step
    /// (6.1-6.13: neither passes the other). Returns whether min_seq changed.
    pub fn try_to_inc_min_seq(&mut self, lv: usize, s: u32) -> bool {
        let lg = &self.lruvecs[lv].lrugen;
        let mut min_seq = lg.min_seq;
        let mut moved = false;
        for ty in evictable_types(s) {
            while min_seq[ty] + MIN_NR_GENS <= lg.max_seq
                && lg.lists[gen_from_seq(min_seq[ty])][ty].len == 0
            {
                min_seq[ty] += 1;
                moved = true;
            }
        }
        let rework = self.flags.mglru_rework;
        if !moved && (rework || s == 0) {
            return false;
        }
        let min_seq = sync_min_seq(min_seq, lg.min_seq, lg.max_seq, s, rework);
        let mut success = false;
        for ty in evictable_types(s) {
            // 6.14+ only ever raises min_seq; 6.1-6.13 also brings anon back to file.
            let old = self.lruvecs[lv].lrugen.min_seq[ty];
            let keep = if rework {
                min_seq[ty] <= old
            } else {
                min_seq[ty] == old
            };
            if keep {
                continue;
            }
            let lg = &mut self.lruvecs[lv].lrugen;
            reset_ctrl_pos(lg, ty);
            lg.min_seq[ty] = min_seq[ty];
            success = true;
        }
        success
    }

    /// `inc_max_seq`: open a new youngest generation, first retiring the oldest generation of
    /// any type that already has MAX_NR_GENS.
    fn inc_max_seq(&mut self, lv: usize, s: u32) {
        for ty in 0..2 {
            if self.lruvecs[lv].lrugen.nr_gens(ty) == MAX_NR_GENS {
                self.inc_min_seq(lv, ty, s);
            }
        }
        let now = self.now;
        let lg = &mut self.lruvecs[lv].lrugen;
        lg.timestamps[gen_from_seq(lg.max_seq + 1)] = now;
        lg.max_seq += 1;
    }

    /// `try_to_inc_max_seq`: the aging — walk the page tables (when the hardware sets accessed
    /// bits: `should_walk_mmu`) and then increment max_seq. Returns the CPU time.
    /// The walk gives the reclaimer an mm_walk until its shrink call ends (`set_mm_walk(NULL,
    /// true)`, 6.12.117 mm/vmscan.c 3914; 6.1.192 4422).
    pub fn try_to_inc_max_seq(&mut self, lv: usize, s: u32) -> u64 {
        let cpu = if self.young_fault_ns == 0 {
            self.current.mm_walk = true;
            self.lru_gen_walk(lv, s)
        } else {
            0
        };
        self.inc_max_seq(lv, s);
        cpu
    }

    /// `should_run_aging`: (must or should age, evictable size).
    /// 6.14+: age when only MIN_NR_GENS + 1 generations are left (must when MIN_NR_GENS).
    /// 6.1-6.13: with exactly three generations also look at the distribution: age if the
    /// youngest holds more than 1/2 or the oldest less than 1/4 of the pages.
    fn should_run_aging(&self, lv: usize, s: u32) -> (bool, u64) {
        let lg = &self.lruvecs[lv].lrugen;
        let min = lg.evictable_min_seq(s);
        if min + MIN_NR_GENS > lg.max_seq {
            return (true, 0);
        }
        let size = lg.evictable_size(s);
        if self.flags.mglru_rework {
            return (min + MIN_NR_GENS == lg.max_seq, size);
        }
        if min + MIN_NR_GENS < lg.max_seq {
            return (false, size);
        }
        let (mut young, mut old) = (0i64, 0i64);
        for ty in evictable_types(s) {
            young += lg.nr_pages[gen_from_seq(lg.max_seq)][ty].max(0);
            old += lg.nr_pages[gen_from_seq(lg.max_seq - MIN_NR_GENS)][ty].max(0);
        }
        let total = size as i64;
        (
            young * MIN_NR_GENS as i64 > total || old * (MIN_NR_GENS as i64 + 2) < total,
            size,
        )
    }

    /// `get_swappiness`: 0 without may_swap or with fewer than MIN_LRU_BATCH free swap slots;
    /// the proactive (`memory.reclaim swappiness=`) value if given; else vm.swappiness.
    pub fn lru_gen_swappiness(&self, sc: &ScanControl) -> u32 {
        // 6.16 (`swappiness_anon_only`): memory.reclaim's `swappiness=max` before any check.
        if sc.swappiness == Some(SWAPPINESS_ANON_ONLY) {
            return SWAPPINESS_ANON_ONLY;
        }
        if !sc.may_swap || self.swap_free() < self.refs_batch() {
            return 0;
        }
        sc.swappiness.unwrap_or(self.swappiness)
    }

    /// `get_nr_to_scan`: how much to scan in this lruvec, or -1 to stop (below min, or it was
    /// just aged). At DEF_PRIORITY aging is never attempted. 6.1 without the memcg LRU: kswapd
    /// leaves the aging to `lru_gen_age_node`.
    fn nr_frames_to_scan(&mut self, lv: usize, pages: u64, first: bool) -> i64 {
        let scale = self.scale;
        let l = &mut self.lruvecs[lv];
        (if first {
            l.scan_frames(4, pages, scale)
        } else {
            l.peek_scan_frames(4, pages, scale)
        }) as i64
    }

    /// `first`: the pass's first call, which moves the frame carry (`Lruvec::scan_frames`);
    /// the loop's later calls recompute the same target without moving it.
    fn get_nr_to_scan(&mut self, lv: usize, sc: &mut ScanControl, s: u32, first: bool) -> i64 {
        // 6.16 anon only (`swappiness=max`) with no swap to reclaim anon into: nothing to scan.
        if s == SWAPPINESS_ANON_ONLY && self.swap_free() == 0 {
            return 0;
        }
        if self
            .memcgs
            .below_min(sc.target_memcg.unwrap_or(0), lv as u16)
        {
            return -1;
        }
        let (age, size) = self.should_run_aging(lv, s);
        // In pages, as the kernel computes it; frames when it is used (`Lruvec::scan_frames`).
        let scale = self.scale;
        let mut evictable = size * scale;
        if self.flags.mglru_proportional_protection {
            // 6.17 `apply_proportional_protection`: the classic LRU's scaling by the protected
            // share of the memcg's usage (memory.low unless this is the retry overriding it).
            let (emin, elow) = self
                .memcgs
                .protection(sc.target_memcg.unwrap_or(0), lv as u16);
            let (scan, low_applied) = crate::mm::memcg::protected_scan(
                evictable,
                self.memcgs.list[lv].usage * scale,
                emin * scale,
                elow * scale,
                sc.memcg_low_reclaim,
                crate::mm::vmscan::balance::SWAP_CLUSTER_MAX,
            );
            evictable = scan;
            sc.memcg_low_skipped |= low_applied;
        }
        let pages = evictable >> sc.priority;
        if !age || sc.priority == DEF_PRIORITY {
            if !self.flags.mglru_rework {
                // 6.1-6.13: without cold generations there is nothing to scan.
                let lg = &self.lruvecs[lv].lrugen;
                if lg.evictable_min_seq(s) + MIN_NR_GENS > lg.max_seq {
                    return 0;
                }
            }
            return self.nr_frames_to_scan(lv, pages, first);
        }
        if sc.kswapd && !self.flags.memcg_lru {
            return 0;
        }
        let max_seq = self.lruvecs[lv].lrugen.max_seq;
        sc.cpu_ns += self.try_to_inc_max_seq(lv, s);
        let aged = self.lruvecs[lv].lrugen.max_seq > max_seq;
        if !self.flags.memcg_lru {
            // 6.1: having aged, go on scanning this lruvec.
            return if aged {
                self.nr_frames_to_scan(lv, pages, first)
            } else {
                0
            };
        }
        // 6.3+: "stop scanning this lruvec as it's low on cold folios" (it rotates young).
        if aged {
            -1
        } else {
            0
        }
    }

    /// `should_abort_scan`: root reclaim stops once its goal is met; kswapd also once every
    /// zone is above high + MIN_LRU_BATCH. Memcg reclaim never aborts (fairness).
    fn should_abort_scan(&self, sc: &ScanControl) -> bool {
        if !sc.root_reclaim() {
            return false;
        }
        if sc.nr_reclaimed >= sc.nr_to_reclaim {
            return true;
        }
        sc.kswapd && self.nr_free() >= self.wmark.high + self.refs_batch()
    }

    // ---- eviction -------------------------------------------------------------------------

    /// `sort_folio`: file a folio elsewhere instead of evicting it. Returns true if sorted.
    fn sort_folio(&mut self, f: u32, tier_idx: usize, nr: &mut NrStat) -> bool {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let lv = self.frames.lruvec[fi] as usize;
        let ty = (flags & PG_SWAPBACKED == 0) as usize;
        let rework = self.flags.mglru_rework;
        let gen = self.frames.gen[fi] as usize - 1;
        let min_gen = gen_from_seq(self.lruvecs[lv].lrugen.min_seq[ty]);
        // Promoted by the walk or look-around: lazily sorted to its own generation.
        if gen != min_gen {
            self.lru_gen_move_list(f, gen, false);
            return true;
        }
        // Protected by its tier (or fd-saturated).
        let (_, tier) = refs_and_tier(flags, rework);
        let (protect, count) = sort_protects(
            flags,
            tier,
            tier_idx,
            rework,
            self.flags.mglru_protect_saturated,
        );
        if protect {
            let g = self.folio_inc_gen(f, false);
            self.lru_gen_move_list(f, g, false);
            if count {
                self.lruvecs[lv].lrugen.protected[ty][tier] += 1;
            }
            // 6.1-6.4: a protection counts as a workingset activation (vmstat only).
            if !self.flags.mglru_activate_at_refault {
                let act = if ty == FILE {
                    C::workingset_activate_file
                } else {
                    C::workingset_activate_anon
                };
                self.counters.add(act, 1);
                self.count_memcg(lv, act, 1);
            }
            return true;
        }
        let dirty = flags & PG_DIRTY != 0;
        let writeback = flags & PG_WRITEBACK != 0;
        if ty == FILE && dirty {
            nr.file_taken += 1;
            if !writeback {
                nr.unqueued_dirty += 1;
            }
        }
        // Waiting for writeback: one generation up, rotated to the tail when it completes.
        // A page still being read in (PG_locked here) waits too: 6.1-6.13 sorted locked folios
        // this way; 6.14 would fail to lock it in `shrink_folio_list` and keep it.
        if writeback || (ty == FILE && dirty) || flags & PG_LOCKED != 0 {
            let g = self.folio_inc_gen(f, true);
            self.lru_gen_move_list(f, g, false);
            return true;
        }
        false
    }

    /// `scan_folios`: from the tail of the oldest generation of `ty`, sort or isolate folios
    /// until MIN_LRU_BATCH are isolated or MAX_LRU_BATCH (or `nr_to_scan`) examined.
    /// Returns (pages examined, or 0 if nothing isolated and budget left).
    fn scan_folios(
        &mut self,
        lv: usize,
        ty: usize,
        tier: usize,
        nr_to_scan: u64,
        sc: &mut ScanControl,
        out: &mut Vec<u32>,
    ) -> u64 {
        let lg = &self.lruvecs[lv].lrugen;
        if lg.nr_gens(ty) == MIN_NR_GENS {
            return 0;
        }
        let gen = gen_from_seq(lg.min_seq[ty]);
        let max_batch = (MAX_LRU_BATCH / self.scale).max(1);
        let min_batch = self.refs_batch();
        let mut remaining = nr_to_scan.clamp(1, max_batch);
        let (mut scanned, mut sorted, mut isolated) = (0u64, 0u64, 0u64);
        let mut nr = NrStat::default();
        loop {
            let f = self.lruvecs[lv].lrugen.lists[gen][ty].tail;
            if f == NIL {
                break;
            }
            scanned += 1;
            if self.sort_folio(f, tier, &mut nr) {
                sorted += 1;
            } else {
                self.isolate_folio(f);
                out.push(f);
                isolated += 1;
            }
            remaining -= 1;
            if remaining == 0 || isolated >= min_batch {
                break;
            }
        }
        if !sc.cgroup_reclaim() {
            self.counters.add(C::pgrefill, sorted);
        }
        self.count_memcg(lv, C::pgrefill, sorted);
        self.count_reclaim(sc, lv, Reclaimed::Scanned, ty == FILE, isolated);
        sc.cpu_ns += sorted * SORT_NS * self.scale;
        if ty == FILE {
            nr.file_taken += isolated;
        }
        sc.nr.file_taken += nr.file_taken;
        sc.nr.unqueued_dirty += nr.unqueued_dirty;
        if isolated > 0 || remaining == 0 {
            scanned
        } else {
            0
        }
    }

    /// `isolate_folio`: take the folio off its generation for `shrink_folio_list`, clearing
    /// PG_reclaim. Access counts without PG_referenced are meaningless and go. Before 6.14
    /// (v6.1, through 6.13) PG_referenced is cleared too, and with it PG_workingset of a folio
    /// that did not have it; so a PG_referenced seen in `shrink_folio_list` was set while the
    /// folio was isolated (look-around). 6.14 keeps PG_referenced and PG_workingset.
    fn isolate_folio(&mut self, f: u32) {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let mut clear = PG_RECLAIM;
        if flags & PG_REFERENCED == 0 {
            clear |= if self.flags.mglru_rework {
                LRU_REFS_MASK
            } else {
                LRU_REFS_MASK | PG_WORKINGSET
            };
        }
        if !self.flags.mglru_rework {
            clear |= PG_REFERENCED;
        }
        self.frames.folio[fi].flags = flags & !clear;
        self.lru_gen_del_folio(f);
    }

    /// `isolate_folios`: choose the type (and tier threshold) and scan it; if it yields
    /// nothing, try the other evictable type.
    fn isolate_folios(
        &mut self,
        lv: usize,
        sc: &mut ScanControl,
        s: u32,
        nr_to_scan: u64,
        out: &mut Vec<u32>,
    ) -> (u64, usize) {
        let rework = self.flags.mglru_rework;
        let batch = self.refs_batch();
        let (mut ty, mut tier) = get_type_to_scan(&self.lruvecs[lv].lrugen, s, rework, batch);
        for _ in evictable_types(s) {
            let t =
                tier.unwrap_or_else(|| get_tier_idx(&self.lruvecs[lv].lrugen, ty, rework, batch));
            let scanned = self.scan_folios(lv, ty, t, nr_to_scan, sc, out);
            if scanned > 0 {
                return (scanned, ty);
            }
            ty = 1 - ty;
            tier = None;
        }
        (0, ty)
    }

    /// `evict_folios`: isolate a batch, advance min_seq over empty generations, reclaim the
    /// batch with `shrink_folio_list`, and put back the rest — never into the oldest
    /// generation (they come back active). Returns the pages examined.
    fn evict_folios(&mut self, lv: usize, sc: &mut ScanControl, s: u32, nr_to_scan: u64) -> u64 {
        self.writes_done_during_reclaim(sc);
        let mut list = Vec::new();
        let (mut scanned, ty) = self.isolate_folios(lv, sc, s, nr_to_scan, &mut list);
        scanned += self.try_to_inc_min_seq(lv, s) as u64;
        {
            let lg = &self.lruvecs[lv].lrugen;
            if lg.evictable_min_seq(s) + MIN_NR_GENS > lg.max_seq {
                scanned = 0;
            }
        }
        if list.is_empty() {
            return scanned;
        }
        let mut retry = true;
        while !list.is_empty() {
            let mut stat = NrStat::default();
            let mut nr_pageout = 0u64;
            let mut reclaimed = 0u64;
            let taken = list.len() as u64;
            // `shrink_folio_list` runs over the whole batch before any kept folio goes back, so
            // look-around from one sees the others still isolated.
            let mut kept = Vec::new();
            for &f in &list {
                match self.shrink_folio_mglru(f, sc, &mut stat, &mut nr_pageout) {
                    None => reclaimed += 1,
                    Some(activate) => kept.push((f, activate)),
                }
            }
            let clean = self.evict_putback(lv, ty, &kept, retry, sc);
            sc.cpu_ns += (taken * SCAN_INACTIVE_NS
                + nr_pageout * crate::mm::vmscan::PAGEOUT_SUBMIT_NS)
                * self.scale;
            sc.nr_reclaimed += reclaimed;
            self.count_reclaim(sc, lv, Reclaimed::Stolen, ty == FILE, reclaimed);
            if nr_pageout > 0 {
                sc.nr_anon_pageout += nr_pageout;
            }
            retry = false;
            list = clean;
        }
        scanned
    }

    /// The put-back of `evict_folios` after `shrink_folio_list`: each kept folio (with whether
    /// it was activated) goes back to its lruvec, or onto the returned list to be retried.
    fn evict_putback(
        &mut self,
        lv: usize,
        ty: usize,
        kept: &[(u32, bool)],
        retry: bool,
        sc: &mut ScanControl,
    ) -> Vec<u32> {
        let mut clean = Vec::new();
        for &(f, activate) in kept {
            let fi = f as usize;
            if activate {
                self.frames.folio[fi].flags |= PG_ACTIVE;
                self.counters.add(C::pgactivate, 1);
                self.count_memcg(lv, C::pgactivate, 1);
            }
            if self.putback_retries(f, ty, retry) {
                // 6.2-6.10: taken back here; the retry pass counts it again.
                if !self.flags.mglru_retry_counts_twice {
                    sc.nr_scanned -= 1;
                }
                clean.push(f);
                continue;
            }
            self.lru_gen_add_folio(f, false);
            let to = self.frames.list[fi];
            self.trace.moves.record(
                self.now,
                f,
                LIST_ISOLATED,
                to,
                if activate {
                    MoveReason::Activate
                } else {
                    MoveReason::Rotate
                },
            );
        }
        clean
    }

    /// The put-back of `evict_folios` for a folio `shrink_folio_list` kept: sets the flags it
    /// is added back with, never into the oldest generation, or returns true if it is to be
    /// retried once (`retry`: first pass), being clean and idle: it may have finished
    /// writeback while isolated and missed `folio_rotate_reclaimable`.
    /// 6.1: PG_referenced comes back if PG_workingset; every folio but one pending writeback
    /// for reclaim goes back active, its access counts kept; none is retried.
    /// 6.2-6.13 (`mglru_retry_clean`, 359a5e1416ca): a folio pending writeback for reclaim
    /// gets PG_referenced back if PG_workingset and goes by its flags; one active, referenced,
    /// mapped, locked, dirty, under writeback or on the second pass goes back active with its
    /// counts, PG_referenced and PG_workingset cleared; any other is retried.
    /// 6.14 (`mglru_rework`): retried unless active, mapped, dirty, under writeback or on the
    /// second pass; only a folio that would land in the oldest generation goes back active,
    /// its counts and PG_referenced cleared.
    fn putback_retries(&mut self, f: u32, ty: usize, retry: bool) -> bool {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        let mapped = self.frames.folio[fi].mapped != 0;
        let pending = flags & PG_RECLAIM != 0 && flags & (PG_DIRTY | PG_WRITEBACK) != 0;
        let new = if self.flags.mglru_rework {
            if retry && flags & (PG_ACTIVE | PG_DIRTY | PG_WRITEBACK) == 0 && !mapped {
                return true;
            }
            let lg = &self.lruvecs[self.frames.lruvec[fi] as usize].lrugen;
            let seq = folio_seq(lg, flags, false, true, self.flags.mglru_protect_saturated);
            if seq == lg.min_seq[ty] {
                (flags & !(LRU_REFS_MASK | PG_REFERENCED)) | PG_ACTIVE
            } else {
                flags
            }
        } else {
            // PG_referenced, cleared by `isolate_folio`, back if PG_workingset.
            let restored = if flags & PG_WORKINGSET != 0 {
                flags | PG_REFERENCED
            } else {
                flags
            };
            if !self.flags.mglru_retry_clean {
                if pending {
                    restored & !PG_ACTIVE
                } else {
                    restored | PG_ACTIVE
                }
            } else if pending {
                restored
            } else if !retry
                || mapped
                || flags & (PG_ACTIVE | PG_REFERENCED | PG_LOCKED | PG_DIRTY | PG_WRITEBACK) != 0
            {
                (flags & !(LRU_REFS_MASK | PG_REFERENCED | PG_WORKINGSET)) | PG_ACTIVE
            } else {
                return true;
            }
        };
        self.frames.folio[fi].flags = new;
        false
    }

    /// The reference check of `shrink_folio_list` under MGLRU.
    /// 6.14+ (`lru_gen_folio_check_references`): VM_LOCKED activates; no young PTE reclaims; a
    /// young PTE (after look-around) keeps the folio on the first sighting (PG_referenced) and
    /// activates it on the second (PG_workingset). 6.1-6.13: the classic
    /// `folio_check_references`, with the PG_referenced that look-around sets on the folio
    /// itself (v6.1); `shrink_folio` has already kept a mapped folio marked while isolated.
    pub fn lru_gen_check_references(&mut self, f: u32) -> crate::mm::vmscan::Refs {
        use crate::mm::vmscan::Refs;
        let fi = f as usize;
        let young = self.frames.folio[fi].young;
        let vmf = self.frames.vmflags[fi];
        // Before 6.3 only a young PTE of a VMA without VM_SEQ_READ or VM_RAND_READ looks
        // around (`folio_referenced_one`, v6.1); the young PTE counts as a reference either way.
        let seen = if young != 0 {
            self.walkable_slots(f)
        } else {
            0
        };
        let looked_around = young & seen != 0;
        if young != 0 {
            if looked_around {
                self.lru_gen_look_around(f, seen);
            }
            self.pte_clear_young(f);
        }
        self.frames.folio[fi].young = 0;
        self.frames.vmflags[fi] = 0;
        if vmf & VM_LOCKED != 0 {
            return Refs::Activate;
        }
        if self.flags.mglru_rework {
            if young == 0 {
                return Refs::Reclaim;
            }
            return if self.lru_gen_set_refs(f) {
                Refs::Activate
            } else {
                Refs::Keep
            };
        }
        let flags = self.frames.folio[fi].flags;
        // Look-around met the folio's own young PTE too and, the folio being isolated, marked
        // it PG_referenced before 6.14: read here as a second reference, so it activates.
        let referenced = self.frames.test_clear(f, PG_REFERENCED);
        let (refs, set) = crate::mm::vmscan::check_references(
            crate::mm::vmscan::RefState {
                young: young.count_ones(),
                referenced,
                exec: vmf & VM_EXEC != 0,
                locked: false,
                file: flags & PG_SWAPBACKED == 0,
                in_use: true,
            },
            true,
            self.flags.activate_shared_exec,
            self.flags.anon_workingset,
        );
        if set {
            self.frames.set(f, PG_REFERENCED);
        }
        refs
    }

    /// `lru_gen_set_refs` (6.14+): a young PTE found by rmap on a folio outside the aging walk.
    /// The first reference (neither PG_referenced nor PG_workingset) only sets PG_referenced;
    /// a later one activates (returns true), setting PG_workingset and clearing the counts
    /// (6.14), or, after 6.18 (`mglru_set_refs_counts`), doing so only for a folio with more
    /// than one access counted (`folio_lru_refs` > 1) and otherwise counting the access
    /// (`folio_mark_accessed`).
    fn lru_gen_set_refs(&mut self, f: u32) -> bool {
        let fi = f as usize;
        let flags = self.frames.folio[fi].flags;
        if flags & (PG_REFERENCED | PG_WORKINGSET) == 0 {
            self.frames.folio[fi].flags = (flags | PG_REFERENCED) & !LRU_REFS_MASK;
            return false;
        }
        if self.flags.mglru_set_refs_counts && refs_and_tier(flags, true).0 <= 1 {
            self.lru_gen_inc_refs(f);
        } else {
            self.frames.folio[fi].flags =
                (flags & !(LRU_REFS_MASK | PG_REFERENCED)) | PG_WORKINGSET;
        }
        true
    }

    /// `lru_gen_look_around`: a young PTE found by rmap during eviction also harvests the
    /// young PTEs of up to MIN_LRU_BATCH neighbouring pages of the same space and PMD (the
    /// 64-page window centred on the address), promoting them into max_seq. It clears the
    /// neighbours' young bits of the mapping slots `seen` (`walkable_slots` of `f`), a
    /// simplification: the kernel looks in the one VMA whose PTE was young.
    /// The window includes the folio itself. An isolated folio (no generation: the folio, or
    /// one of its batch) is marked PG_referenced before 6.14 (`lru_gen_look_around` and
    /// `folio_update_gen`, v6.1), a second reference for the folio and a keep in
    /// `shrink_folio_list` for the others; 6.14's `get_pfn_folio` skips isolated folios.
    fn lru_gen_look_around(&mut self, f: u32, seen: u8) {
        let fi = f as usize;
        let sp = self.frames.space[fi];
        if sp == NIL {
            return;
        }
        let lv = self.frames.lruvec[fi];
        let idx = self.frames.index[fi] as u64;
        let scale = self.scale;
        let win = (MIN_LRU_BATCH / scale).max(1);
        let pmd = (512 / scale).max(1);
        let pmd_start = idx / pmd * pmd;
        let len = self.spaces[sp as usize].len();
        let pmd_end = (pmd_start + pmd).min(len);
        let (mut start, mut end) = (pmd_start, pmd_end);
        if end - start > win {
            if idx - start < win / 2 {
                end = start + win;
            } else if end - idx < win / 2 {
                start = end - win;
            } else {
                start = idx - win / 2;
                end = idx + win / 2;
            }
        }
        let gen = gen_from_seq(self.lruvecs[lv as usize].lrugen.max_seq);
        let rework = self.flags.mglru_rework;
        let mut promoted = 0u64;
        for i in start..end {
            let g = self.spaces[sp as usize].page(i as usize);
            if g == NIL {
                continue;
            }
            let gi = g as usize;
            let young = self.frames.folio[gi].young & seen;
            if young == 0 || self.frames.lruvec[gi] != lv || rework && self.frames.gen[gi] == 0 {
                continue;
            }
            // 6.12 (`mglru_look_around_self_cleared`): the folio's own young bit is already
            // clear when the window is scanned.
            if g == f && self.flags.mglru_look_around_self_cleared {
                continue;
            }
            self.clear_young_slots(g, young);
            let old = self.frames.gen[gi];
            if rework && self.flags.mglru_set_refs_counts && !self.current.mm_walk {
                // After 6.18 `walk_update_folio` without a walker: `lru_gen_set_refs`, and an
                // activated folio not already in max_seq's generation goes through
                // `folio_activate` to the generation its flags give an active folio.
                if self.lru_gen_set_refs(g) && old as usize != gen + 1 {
                    self.lru_gen_activate(g);
                    promoted += 1;
                }
                continue;
            }
            self.folio_update_gen(g, gen);
            promoted += (old != 0 && self.frames.gen[gi] != old) as u64;
        }
        // Without an mm_walk the promotions go through `folio_activate`, a PGACTIVATE each
        // (`lru_activate`; a folio on a generation list never carries PG_active): from 6.3
        // (`mglru_look_around_activate`) all of them, in 6.1 only a batch under PAGEVEC_SIZE.
        let counted = !self.current.mm_walk
            && (self.flags.mglru_look_around_activate || promoted < PAGEVEC_SIZE);
        if counted && promoted > 0 {
            self.counters.add(C::pgactivate, promoted);
            self.count_memcg(lv as usize, C::pgactivate, promoted);
        }
    }

    /// `try_to_shrink_lruvec`: evict in batches until `get_nr_to_scan`'s target is examined or
    /// root reclaim has enough; wake the flushers if the oldest file pages were all dirty.
    /// Returns true if the lruvec should rotate (it aged or is below min).
    pub fn try_to_shrink_lruvec(&mut self, lv: usize, sc: &mut ScanControl) -> bool {
        let s = self.lru_gen_swappiness(sc);
        let mut scanned = 0u64;
        let mut nr_to_scan;
        loop {
            nr_to_scan = self.get_nr_to_scan(lv, sc, s, scanned == 0);
            if nr_to_scan <= 0 {
                break;
            }
            let delta = self.evict_folios(lv, sc, s, nr_to_scan as u64);
            if delta == 0 {
                break;
            }
            scanned += delta;
            if scanned >= nr_to_scan as u64 {
                break;
            }
            if self.flags.memcg_lru {
                if self.should_abort_scan(sc) {
                    break;
                }
            } else if self.should_abort_scan_6_1(sc) {
                break;
            }
        }
        if sc.nr.unqueued_dirty > 0 && sc.nr.unqueued_dirty == sc.nr.file_taken {
            self.wake_flusher();
        }
        nr_to_scan < 0
    }

    /// 6.1 `should_abort_scan` (before the memcg LRU): direct reclaim stops once the goal is
    /// met if it had to swap; memcg reclaim never stops; otherwise a global reclaimer stops at
    /// priority <= DEF_PRIORITY - 2 once free memory is above the min watermark. (The 6.1 tree
    /// is not in the search index; this follows kernel-mglru-memcg.md §7.5 and the 6.1 shape.)
    fn should_abort_scan_6_1(&self, sc: &ScanControl) -> bool {
        if !sc.kswapd {
            if sc.nr_reclaimed >= sc.nr_to_reclaim && sc.nr_anon_pageout > 0 {
                return true;
            }
            if sc.cgroup_reclaim() {
                return false;
            }
        } else if sc.nr_reclaimed < sc.nr_to_reclaim {
            return false;
        }
        if sc.priority > DEF_PRIORITY - 2 {
            return false;
        }
        self.nr_free() > self.wmark.min
    }

    /// `set_initial_priority` (6.3+, root reclaim with the memcg LRU): start where one pass
    /// over the inactive pages should meet the goal, clamped to [DEF_PRIORITY/2, DEF_PRIORITY].
    pub fn set_initial_priority(&self, sc: &mut ScanControl) {
        let batch = self.refs_batch();
        if sc.priority != DEF_PRIORITY || sc.nr_to_reclaim < batch {
            return;
        }
        let mut reclaimable = self.lru_size(LRU_INACTIVE_FILE);
        if sc.may_swap && self.swap_free() > 0 {
            reclaimable += self.lru_size(LRU_INACTIVE_ANON);
        }
        let fls = |x: u64| 64 - x.leading_zeros() as i64;
        let p = fls(reclaimable) - 1 - fls(sc.nr_to_reclaim - 1);
        sc.priority = p.clamp(DEF_PRIORITY as i64 / 2, DEF_PRIORITY as i64) as u32;
    }

    /// `shrink_one` (6.3+): reclaim one memcg's lruvec for root reclaim and say how the memcg
    /// LRU should move it: below min -> young; below low -> tail on the first visit, reclaimed
    /// (and a `low` event) on the second; aged -> young; still sizable -> stay; too small ->
    /// tail, then young. Protection is computed here (as 6.6 `shrink_one` did).
    fn lru_gen_shrink_one(&mut self, lv: usize, seg: Seg, sc: &mut ScanControl) -> MemcgLruOp {
        let m = lv as u16;
        self.memcgs.calculate_protection(0, m);
        if self.memcgs.below_min(0, m) {
            return MemcgLruOp::Young;
        }
        if self.memcgs.below_low(0, m) {
            if seg != Seg::Tail {
                return MemcgLruOp::Tail;
            }
            self.memcgs.event(m, crate::mm::memcg::MemcgEvent::Low);
        }
        let aged = self.try_to_shrink_lruvec(lv, sc);
        if aged {
            return MemcgLruOp::Young;
        }
        let s = self.lru_gen_swappiness(sc);
        if self.sizable(self.lruvecs[lv].lrugen.evictable_size(s), sc.priority) {
            return MemcgLruOp::Nop;
        }
        if seg != Seg::Tail {
            MemcgLruOp::Tail
        } else {
            MemcgLruOp::Young
        }
    }

    /// `lru_gen_shrink_lruvec` (non-root memcg reclaim, and every lruvec before the memcg LRU):
    /// one lruvec; with the memcg LRU, a lruvec that aged rotates young.
    pub fn lru_gen_shrink_lruvec(&mut self, lv: usize, sc: &mut ScanControl) {
        self.set_mm_walk(sc);
        if self.try_to_shrink_lruvec(lv, sc) && self.flags.memcg_lru {
            self.memcg_lru.rotate(lv as u16, MemcgLruOp::Young);
        }
        self.current.mm_walk = false;
    }

    /// `set_mm_walk` at the start of a shrink call (`lru_gen_shrink_lruvec`,
    /// `lru_gen_shrink_node`): kswapd has the node's walker; from 6.3
    /// (`mglru_proactive_walk`) proactive reclaim allocates one too; any other reclaimer has
    /// none until it ages (`try_to_inc_max_seq`). `clear_mm_walk` at the call's end.
    fn set_mm_walk(&mut self, sc: &ScanControl) {
        self.current.mm_walk = sc.kswapd || (sc.proactive && self.flags.mglru_proactive_walk);
    }

    /// `lru_gen_shrink_node` (6.3+, root reclaim with the memcg LRU): start at
    /// `set_initial_priority` and walk the memcg LRU until the goal is met (`shrink_many`).
    pub fn lru_gen_shrink_node(&mut self, sc: &mut ScanControl) {
        if !sc.may_writepage {
            return;
        }
        self.set_mm_walk(sc);
        self.set_initial_priority(sc);
        let saved = sc.nr_reclaimed;
        if sc.kswapd {
            sc.nr_reclaimed = 0;
        }
        // The walk moves memcgs on the memcg LRU while each step needs the whole Mm.
        let mut lru = std::mem::take(&mut self.memcg_lru);
        lru.shrink_many(&mut |_, lv, place| {
            let op = self.lru_gen_shrink_one(lv as usize, place.seg, sc);
            (op, self.should_abort_scan(sc))
        });
        self.memcg_lru = lru;
        self.current.mm_walk = false;
        if sc.kswapd {
            sc.nr_reclaimed += saved;
        }
    }

    /// `lru_gen_age_node` (kswapd, each `balance_pgdat` iteration): 6.1 ages every memcg that
    /// needs it; with `min_ttl_ms` set, if no memcg's oldest generation is older than it, the
    /// OOM killer runs instead of evicting a recent working set. Returns the CPU time, and
    /// whether the OOM killer must run.
    pub fn lru_gen_age_node(&mut self, sc: &mut ScanControl) -> (u64, bool) {
        let mut cpu = 0;
        if !self.flags.memcg_lru {
            let s = self.lru_gen_swappiness(sc);
            for lv in 0..self.lruvecs.len() {
                self.memcgs.calculate_protection(0, lv as u16);
                if self.memcgs.below_min(0, lv as u16) {
                    continue;
                }
                if self.should_run_aging(lv, s).0 {
                    cpu += self.try_to_inc_max_seq(lv, s);
                }
            }
        }
        if self.lru_gen_min_ttl_ns > 0 {
            let s = self.lru_gen_swappiness(sc);
            let now = self.now;
            let ttl = self.lru_gen_min_ttl_ns;
            let reclaimable = (0..self.lruvecs.len()).any(|lv| {
                let lg = &self.lruvecs[lv].lrugen;
                let sizable = self.sizable(lg.evictable_size(s), sc.priority);
                let birth = lg.timestamps[gen_from_seq(lg.evictable_min_seq(s))];
                !self.memcgs.below_min(0, lv as u16) && sizable && birth + ttl < now
            });
            return (cpu, !reclaimable);
        }
        (cpu, false)
    }

    // ---- the `enabled` switch -------------------------------------------------------------

    /// `lru_gen_change_state` (writing /sys/kernel/mm/lru_gen/enabled): move every folio
    /// between the classic lists and the generations. Enabling adds each folio by the normal
    /// placement (active ones young: `fill_evictable`); disabling puts folios of the two youngest
    /// generations on the active lists and the rest on the inactive ones (`drain_evictable`).
    pub fn lru_gen_change_state(&mut self, enabled: bool) {
        if enabled == self.flags.lru_gen {
            return;
        }
        let mut frames = Vec::new();
        for lv in 0..self.lruvecs.len() {
            frames.clear();
            if enabled {
                for lru in [
                    LRU_INACTIVE_ANON,
                    LRU_ACTIVE_ANON,
                    LRU_INACTIVE_FILE,
                    LRU_ACTIVE_FILE,
                ] {
                    // Tail first, so the oldest folios are added first and end up oldest.
                    let mut f = self.lruvecs[lv].lists[lru].tail;
                    while f != NIL {
                        frames.push(f);
                        f = self.frames.prev[f as usize];
                    }
                }
                for &f in &frames {
                    let l = self.frames.list[f as usize] as usize;
                    self.frames.unlink(&mut self.lruvecs[lv].lists[l], f);
                    self.account_lru_len(lv, l, -1);
                }
                self.flags.lru_gen = true;
                for &f in &frames {
                    self.lru_gen_add_folio(f, false);
                }
            } else {
                let lg = &self.lruvecs[lv].lrugen;
                let max_seq = lg.max_seq;
                let mut young = Vec::new();
                for g in 0..MAX_NR_GENS as usize {
                    for ty in 0..2 {
                        let mut f = lg.lists[g][ty].tail;
                        while f != NIL {
                            frames.push(f);
                            f = self.frames.prev[f as usize];
                        }
                    }
                }
                for &f in &frames {
                    let gen = self.frames.gen[f as usize] as usize - 1;
                    young.push((0..2).any(|d| gen_from_seq(max_seq - d) == gen));
                    self.lru_gen_del_folio(f);
                }
                for (&f, &y) in frames.iter().zip(&young) {
                    if y {
                        self.frames.set(f, PG_ACTIVE);
                    }
                    let lru = lru_of(self.frames.folio[f as usize].flags);
                    let l = &mut self.lruvecs[lv].lists[lru];
                    self.frames.push_head(l, f, lru as u8);
                    self.account_lru_len(lv, lru, 1);
                }
            }
        }
        self.flags.lru_gen = enabled;
    }

    // ---- invariants ----------------------------------------------------------------------

    /// Structural invariants of the generations: every folio on a generation list of its
    /// lruvec with a counter inside the window, counts by counter match, MIN_NR_GENS kept.
    #[allow(clippy::needless_range_loop)] // parallel [gen][type] arrays
    pub fn check_lru_gen(&self) -> Result<(), String> {
        for (lvi, lv) in self.lruvecs.iter().enumerate() {
            let lg = &lv.lrugen;
            let mut counts = [[0i64; 2]; MAX_NR_GENS as usize];
            for ty in 0..2 {
                let n = lg.nr_gens(ty);
                if !(MIN_NR_GENS..=MAX_NR_GENS).contains(&n) {
                    return Err(format!("lruvec {lvi} type {ty}: {n} generations"));
                }
                if lg.min_seq[ty] > lg.max_seq {
                    return Err(format!("lruvec {lvi}: min_seq > max_seq"));
                }
            }
            for g in 0..MAX_NR_GENS as usize {
                for ty in 0..2 {
                    let mut f = lg.lists[g][ty].head;
                    while f != NIL {
                        let fi = f as usize;
                        let cg = self.frames.gen[fi] as usize;
                        if cg == 0 {
                            return Err(format!(
                                "frame {f} on a generation list without a counter"
                            ));
                        }
                        counts[cg - 1][ty] += 1;
                        if self.frames.folio[fi].flags & PG_ACTIVE != 0 {
                            return Err(format!("frame {f}: PG_active on a generation list"));
                        }
                        if (self.frames.folio[fi].flags & PG_SWAPBACKED == 0) as usize != ty {
                            return Err(format!("frame {f} on the wrong type's list"));
                        }
                        f = self.frames.next[fi];
                    }
                }
            }
            for g in 0..MAX_NR_GENS as usize {
                for ty in 0..2 {
                    if counts[g][ty] != lg.nr_pages[g][ty] {
                        return Err(format!(
                            "lruvec {lvi} gen {g} type {ty}: nr_pages {} but {} folios",
                            lg.nr_pages[g][ty], counts[g][ty]
                        ));
                    }
                }
            }
            // Counters and lists may lie outside [min_seq, max_seq], as in the kernel: a type
            // that cannot be evicted (anon while swap is full) has its oldest list wrapped into
            // the youngest by `inc_min_seq` without moving it ("cold/hot inversion", in
            // `inc_max_seq`), so a folio on it that an earlier walk promoted keeps a counter
            // for an older generation; once swap frees up `try_to_inc_min_seq` passes that
            // generation (its list is empty), and `sort_folio` later moves the folio onto the
            // retired slot's list, where it stays until max_seq reaches the slot again. What
            // holds: a list outside the window holds only folios whose counter names it.
            for ty in 0..2 {
                for g in 0..MAX_NR_GENS as usize {
                    let in_window = (lg.min_seq[ty]..=lg.max_seq).any(|s| gen_from_seq(s) == g);
                    let mut f = lg.lists[g][ty].head;
                    while !in_window && f != NIL {
                        if self.frames.gen[f as usize] as usize != g + 1 {
                            return Err(format!(
                                "lruvec {lvi}: frame {f} on retired slot {g} of type {ty} \
                                 with a counter for another generation"
                            ));
                        }
                        f = self.frames.next[f as usize];
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oldest_generations_stay_together() {
        // Anon's oldest generation (2) is populated, file's are empty up to 4, max_seq 5.
        // 6.1-6.13: file may not pass anon, so it stays at 2 (it was there already).
        assert_eq!(sync_min_seq([2, 4], [2, 2], 5, 60, false), [2, 2]);
        // File had already passed anon (3): it keeps that, no further.
        assert_eq!(sync_min_seq([2, 4], [2, 3], 5, 60, false), [2, 3]);
        // Anon may not pass file.
        assert_eq!(sync_min_seq([4, 2], [2, 2], 5, 60, false), [2, 2]);
        // Anon left ahead by a wrap while it could not be evicted is brought back to file.
        assert_eq!(sync_min_seq([3, 2], [3, 2], 5, 60, false), [2, 2]);
        // Without swap (swappiness 0 here) the types move independently.
        assert_eq!(sync_min_seq([2, 4], [2, 2], 5, 0, false), [2, 4]);
        // 6.14+: file may run at most to max_seq - MIN_NR_GENS (3) while anon lags.
        assert_eq!(sync_min_seq([2, 4], [2, 2], 5, 60, true), [2, 3]);
        assert_eq!(sync_min_seq([4, 2], [2, 2], 5, 60, true), [3, 2]);
    }

    fn lg_with(max: u64, min: [u64; 2]) -> LruGen {
        LruGen {
            max_seq: max,
            min_seq: min,
            ..Default::default()
        }
    }

    #[test]
    fn generation_arithmetic() {
        let lg = LruGen::default();
        assert_eq!(lg.nr_gens(ANON), 4);
        assert_eq!(gen_from_seq(5), 1);
        assert_eq!(evictable_types(0), FILE..=FILE);
        assert_eq!(evictable_types(60), ANON..=FILE);
        assert_eq!(evictable_types(201), ANON..=ANON);
        let lg = lg_with(7, [5, 6]);
        assert_eq!(lg.evictable_min_seq(60), 5);
        assert_eq!(lg.evictable_min_seq(0), 6);
    }

    #[test]
    fn tiers_from_fd_accesses() {
        // 6.14+: accesses 0..5 through read() give tiers 0,0,1,2,2,3.
        let mut fl = 0u16;
        let mut tiers = vec![refs_and_tier(fl, true).1];
        for _ in 0..5 {
            // The inc_refs rules, as in `lru_gen_inc_refs`.
            let bits = (fl & LRU_REFS_MASK) >> LRU_REFS_SHIFT;
            if fl & PG_REFERENCED == 0 {
                fl |= PG_REFERENCED;
            } else if bits == 3 {
                fl |= PG_WORKINGSET;
            } else {
                fl = (fl & !LRU_REFS_MASK) | ((bits + 1) << LRU_REFS_SHIFT);
            }
            tiers.push(refs_and_tier(fl, true).1);
        }
        assert_eq!(tiers, vec![0, 0, 1, 2, 2, 3]);
        assert!(fd_saturated(fl, true));
        // 6.1: the 2nd access sets workingset (tier 1); 5 accesses reach tier 3.
        assert_eq!(refs_and_tier(PG_REFERENCED, false).1, 0);
        assert_eq!(refs_and_tier(PG_REFERENCED | PG_WORKINGSET, false).1, 1);
        let three = PG_REFERENCED | PG_WORKINGSET | (3 << LRU_REFS_SHIFT);
        assert_eq!(refs_and_tier(three, false), (4, 3));
        // A page-table promotion: workingset without counts is tier 3 in 6.14.
        assert_eq!(refs_and_tier(PG_WORKINGSET, true).1, 3);
    }

    #[test]
    fn saturated_folios_protected_from_6_7() {
        // refs == 4 by fd accesses (6.1-6.13 encoding: LRU_REFS 3 + PG_workingset), tier 3,
        // with the PID controller protecting no tier (tier_idx 3): 6.1-6.6 evict it; 6.7-6.13
        // protect and count it.
        let fl = (3u16 << LRU_REFS_SHIFT) | PG_WORKINGSET;
        let (refs, tier) = refs_and_tier(fl, false);
        assert_eq!((refs, tier), (4, 3));
        assert_eq!(sort_protects(fl, tier, 3, false, false), (false, true));
        assert_eq!(sort_protects(fl, tier, 3, false, true), (true, true));
        // A folio above tier_idx is protected and counted in every version.
        assert_eq!(sort_protects(0, 3, 2, false, false), (true, true));
    }

    #[test]
    fn placement_by_version() {
        let lg = lg_with(10, [7, 8]);
        let anon = PG_SWAPBACKED;
        let file = 0;
        // 6.14: active+workingset -> max_seq; active -> max_seq-1; fresh anon -> max_seq-1;
        // file -> oldest (max_seq-3 clamped to min_seq); workingset file -> max_seq-2.
        assert_eq!(
            folio_seq(&lg, anon | PG_ACTIVE | PG_WORKINGSET, false, true, false),
            10
        );
        assert_eq!(folio_seq(&lg, file | PG_ACTIVE, false, true, false), 9);
        assert_eq!(folio_seq(&lg, anon, false, true, false), 9);
        assert_eq!(folio_seq(&lg, file, false, true, false), 8);
        assert_eq!(folio_seq(&lg, file | PG_WORKINGSET, false, true, false), 8);
        assert_eq!(folio_seq(&lg, anon | PG_SWAPCACHE, true, true, false), 7);
        // 6.1: active -> max_seq; fresh anon -> min_seq+1; file -> min_seq.
        assert_eq!(folio_seq(&lg, file | PG_ACTIVE, false, false, false), 10);
        assert_eq!(folio_seq(&lg, anon, false, false, false), 8);
        assert_eq!(folio_seq(&lg, file, false, false, false), 8);
        // 6.7-6.13: fresh anon -> max_seq-1; file -> min_seq+1 unless reclaiming or only
        // MIN_NR_GENS are left.
        let lg = lg_with(10, [5, 5]);
        assert_eq!(folio_seq(&lg, anon, false, false, true), 9);
        assert_eq!(folio_seq(&lg, file, false, false, true), 6);
        assert_eq!(folio_seq(&lg, file, true, false, true), 5);
        assert_eq!(folio_seq(&lg_with(10, [8, 8]), file, false, false, true), 8);
    }

    #[test]
    fn pid_controller_decisions() {
        let batch = 64;
        // Few refaults: always "positive" (keep evicting that side).
        let sp = CtrlPos {
            refaulted: 0,
            total: 1000,
            gain: 60,
        };
        let pv = CtrlPos {
            refaulted: 63,
            total: 100,
            gain: 140,
        };
        assert!(positive_ctrl_err(sp, pv, batch));
        // File refaulting at 50% vs anon at 10%, s = 60: 0.5/140 > 0.1/60 -> scan anon.
        let mut lg = LruGen::default();
        lg.refaulted[ANON][0] = 100;
        lg.evicted[ANON][0] = 1000;
        lg.refaulted[FILE][0] = 500;
        lg.evicted[FILE][0] = 1000;
        assert_eq!(get_type_to_scan(&lg, 60, true, batch).0, ANON);
        // File at 20%: 0.2/140 < 0.1/60 -> keep scanning file.
        lg.refaulted[FILE][0] = 200;
        assert_eq!(get_type_to_scan(&lg, 60, true, batch).0, FILE);
        assert_eq!(get_type_to_scan(&lg, 0, true, batch).0, FILE);
        assert_eq!(get_type_to_scan(&lg, 200, true, batch).0, ANON);
        // The reasons the generations view reports, per branch.
        let why = |lg: &LruGen, s, rework| type_choice(lg, s, rework, batch).reason;
        assert_eq!(why(&lg, 60, true), TypeReason::RefaultRates);
        assert_eq!(why(&lg, 0, true), TypeReason::SwappinessLow);
        assert_eq!(why(&lg, 1, true), TypeReason::SwappinessLow);
        assert_eq!(why(&lg, 200, true), TypeReason::SwappinessMax);
        assert_eq!(why(&lg, 0, false), TypeReason::SwappinessZero);
        assert_eq!(why(&lg, 1, false), TypeReason::SwappinessLow);
        let c = type_choice(&lg, 60, true, batch);
        let (sp, pv) = c.compared.unwrap();
        assert_eq!((sp.gain, pv.gain, pv.refaulted), (60, 140, 200));
        let mut older = lg.clone();
        older.min_seq = [1, 2];
        assert_eq!(why(&older, 60, false), TypeReason::OlderAnon);
        assert_eq!(why(&older, 0, false), TypeReason::SwappinessZero);
        assert_eq!(why(&older, 60, true), TypeReason::RefaultRates);
        let mut few = lg.clone();
        few.refaulted[FILE][0] = 63;
        assert_eq!(type_choice(&few, 60, true, batch).ty, FILE);
        assert_eq!(why(&few, 60, true), TypeReason::FewFileRefaults);
        // Tier 2 refaulting at 3x tier 0's rate is protected (threshold 1 in 6.14 at 1.5x).
        let mut lg = LruGen::default();
        lg.refaulted[FILE][0] = 100;
        lg.evicted[FILE][0] = 1000;
        lg.refaulted[FILE][1] = 120;
        lg.evicted[FILE][1] = 1000;
        lg.refaulted[FILE][2] = 300;
        lg.evicted[FILE][2] = 1000;
        assert_eq!(get_tier_idx(&lg, FILE, true, batch), 1);
        // 6.1's 2:1 gain protects tier 2 too (3x > 2x) but not tier 1 (1.2x).
        assert_eq!(get_tier_idx(&lg, FILE, false, batch), 1);
        lg.refaulted[FILE][1] = 250;
        assert_eq!(get_tier_idx(&lg, FILE, true, batch), 0);
        assert_eq!(get_tier_idx(&lg, FILE, false, batch), 0);
    }

    #[test]
    fn ema_halves_on_each_generation() {
        let mut lg = LruGen::default();
        lg.refaulted[FILE][1] = 100;
        lg.evicted[FILE][1] = 300;
        lg.protected[FILE][1] = 100;
        reset_ctrl_pos(&mut lg, FILE);
        assert_eq!(lg.avg_refaulted[FILE][1], 50);
        assert_eq!(lg.avg_total[FILE][1], 200);
        assert_eq!(lg.refaulted[FILE][1], 0);
        reset_ctrl_pos(&mut lg, FILE);
        assert_eq!(lg.avg_total[FILE][1], 100);
    }

    #[test]
    fn the_enabled_switch_moves_every_folio_and_back() {
        let text = r#"
title = "t"
[machine]
ram = "64MiB"
swap = { device = "d", size = "64MiB" }
[[devices]]
name = "d"
kind = "ssd"
[[files]]
name = "f"
size = "32MiB"
device = "d"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "t"
program = [
  { op = "anon", name = "a", size = "48MiB" },
  { op = "touch", regions = ["a"], write = true },
  { op = "read", file = "f" },
  { op = "read", file = "f" },
]
[run]
duration = "5s"
"#;
        let scn = crate::scenario::parse(text).unwrap();
        let mut sim = crate::Simulation::new(&scn, "v").unwrap();
        sim.run_until(5_000_000_000);
        let before = sim.lru_sizes();
        let total = |s: [u64; 6]| s[0] + s[1] + s[2] + s[3];
        assert!(before[1] + before[3] > 0, "some pages active: {before:?}");
        sim.set_lru_gen(true);
        sim.invariants().unwrap();
        let on = sim.lru_sizes();
        assert_eq!(total(on), total(before));
        assert_eq!(on[0] + on[1], before[0] + before[1], "anon stays anon");
        sim.set_lru_gen(false);
        sim.invariants().unwrap();
        let off = sim.lru_sizes();
        assert_eq!(total(off), total(before));
        assert_eq!(off[2] + off[3], before[2] + before[3], "file stays file");
    }

    /// The aging walk in frame order and down the lists leaves the same state: the same pages
    /// promoted, PTE copies cleared and counts moved, and the same CPU time. Two memcgs share
    /// the frame table, so the frame-order walk must pass over the other one's frames.
    #[test]
    fn the_walk_in_frame_order_equals_the_walk_down_the_lists() {
        let scenario = |preset: &str| {
            format!(
                r#"
title = "t"
seed = 7
[machine]
ram = "64MiB"
swap = {{ device = "d", size = "64MiB" }}
[[devices]]
name = "d"
kind = "ssd"
[[files]]
name = "f"
size = "48MiB"
device = "d"
[[variants]]
name = "v"
preset = "{preset}"
[[memcgs]]
name = "g{{i}}"
replicas = 2
[[tasks]]
name = "t{{i}}"
memcg = "g{{i}}"
replicas = 2
program = [
  {{ op = "anon", name = "a", size = "20MiB" }},
  {{ op = "mmap", name = "m", file = "f", prot = "r" }},
  {{ op = "loop", body = [
    {{ op = "touch", regions = ["a"], pattern = "random", count = 3000, write_fraction = 0.3, cpu = "1us" }},
    {{ op = "touch", regions = ["m"], pattern = "zipf", theta = 0.9, count = 3000 }},
  ] }},
]
[run]
duration = "20s"
"#
            )
        };
        for preset in ["linux-6.1-mglru", "linux-6.14-mglru"] {
            let scn = crate::scenario::parse(&scenario(preset)).unwrap();
            let state = |order: bool, s: u32| {
                let mut sim = crate::Simulation::new(&scn, "v").unwrap();
                // A moment with young pages of each kind (asserted below); at 3 s the 6.1 run
                // had just aged and had none.
                sim.run_until(2_500_000_000);
                let mm = &mut sim.mm;
                let lv = mm.memcgs.find("g0").unwrap() as usize;
                // Young pages of memcg g0, by type, and of the other memcgs.
                let young = |mm: &Mm| {
                    let mut n = [0usize; 3];
                    for fi in 0..mm.frames.len() {
                        if mm.frames.folio[fi].young != 0 && mm.frames.gen[fi] != 0 {
                            let file = mm.frames.folio[fi].flags & PG_SWAPBACKED == 0;
                            let k = if mm.frames.lruvec[fi] as usize != lv {
                                2
                            } else {
                                file as usize
                            };
                            n[k] += 1;
                        }
                    }
                    n
                };
                let before = young(mm);
                let cpu = mm.lru_gen_walk_in(lv, s, order);
                sim.invariants().unwrap();
                let mm = &sim.mm;
                let ptes: Vec<(Vec<u8>, Vec<u8>)> = mm
                    .spaces
                    .iter()
                    .map(|sp| (sp.pte.clone(), sp.pte_dirty.clone()))
                    .collect();
                let counts: Vec<_> = mm.lruvecs.iter().map(|l| l.lrugen.nr_pages).collect();
                (
                    (before, young(mm)),
                    cpu,
                    mm.frames.folio.clone(),
                    mm.frames.gen.clone(),
                    mm.frames.vmflags.clone(),
                    counts,
                    ptes,
                )
            };
            for s in [0, 60, SWAPPINESS_ANON_ONLY] {
                let (by_frames, by_lists) = (state(true, s), state(false, s));
                let ([anon, file, other], [anon_after, file_after, other_after]) = by_lists.0;
                // There were young pages of each type in memcg g0 and in the other one; the walk
                // cleared those of the types it walks, and no other memcg's.
                assert!(
                    anon > 50 && file > 50 && other > 50,
                    "{preset} s={s}: {:?}",
                    by_lists.0
                );
                assert_eq!(
                    anon_after == 0,
                    s != 0,
                    "{preset} s={s}: anon {anon} -> {anon_after}"
                );
                assert_eq!(
                    file_after == 0,
                    s <= MAX_SWAPPINESS,
                    "{preset} s={s}: file {file} -> {file_after}"
                );
                assert_eq!(
                    other_after, other,
                    "{preset} s={s}: the other memcgs' pages"
                );
                assert!(by_lists.1 > 0);
                assert!(
                    by_frames == by_lists,
                    "{preset} s={s}: the two walk orders differ"
                );
            }
        }
    }

    /// One task in 64 MiB of RAM mapping 24 MiB files read-only and touching each in turn,
    /// 2,000 random pages at a time; `maps` are (file, madvise hint or "").
    /// The young mapped folio of space `sp` (on a list, away from a PMD's edges) with the most
    /// young neighbours in its look-around window, and those neighbours not in generation
    /// `gen` (1-based, as `frames.gen`).
    fn young_window(mm: &Mm, sp: usize, gen: u8) -> (u32, Vec<u32>) {
        let pages: Vec<u32> = (0..mm.spaces[sp].len() as usize)
            .map(|i| mm.spaces[sp].page(i))
            .collect();
        let young = |g: u32| {
            g != NIL && mm.frames.folio[g as usize].young != 0 && mm.frames.gen[g as usize] != 0
        };
        let at = (0..pages.len())
            .filter(|&i| (i as u64 % 512) >= 32 && (i as u64 % 512) < 480)
            .filter(|&i| young(pages[i]))
            .max_by_key(|&i| (i - 32..i + 32).filter(|&j| j != i && young(pages[j])).count())
            .unwrap();
        let neighbours = (at - 32..at + 32)
            .filter(|&j| j != at && young(pages[j]) && mm.frames.gen[pages[j] as usize] != gen)
            .map(|j| pages[j])
            .collect();
        (pages[at], neighbours)
    }

    fn mmap_scenario(preset: &str, maps: &[(&str, &str)]) -> String {
        let (mut files, mut mmaps, mut touches) = (String::new(), String::new(), String::new());
        for (name, hint) in maps {
            files += &format!("[[files]]\nname = \"{name}\"\nsize = \"24MiB\"\ndevice = \"d\"\n");
            let hint = match *hint {
                "" => String::new(),
                h => format!(", hint = \"{h}\""),
            };
            mmaps += &format!(
                "  {{ op = \"mmap\", name = \"{name}\", file = \"{name}\", prot = \"r\"{hint} }},\n"
            );
            touches += &format!(
                "    {{ op = \"touch\", regions = [\"{name}\"], pattern = \"random\", count = 2000, cpu = \"1us\" }},\n"
            );
        }
        format!(
            r#"
title = "t"
seed = 5
[machine]
ram = "64MiB"
[[devices]]
name = "d"
kind = "ssd"
{files}[[variants]]
name = "v"
preset = "{preset}"
[[tasks]]
name = "t"
program = [
{mmaps}  {{ op = "loop", body = [
{touches}  ] }},
]
[run]
duration = "10s"
"#
        )
    }

    /// Before 6.3 MGLRU's walker and look-around skip MADV_RANDOM mappings (`should_skip_vma`,
    /// `folio_referenced_one`, v6.1), though their young bits are kept for the reference check
    /// at eviction; from 6.3 such a mapping keeps no young bits at all (`vma_has_recency`).
    #[test]
    fn before_6_3_the_walker_and_look_around_skip_random_mappings() {
        let scenario = |preset: &str| mmap_scenario(preset, &[("rnd", "random"), ("plain", "")]);
        // Young frames of each file: (rnd, plain).
        let young = |mm: &Mm| {
            let sp = |name: &str| mm.spaces.iter().position(|s| s.name == name).unwrap() as u32;
            let (rnd, plain) = (sp("rnd"), sp("plain"));
            let count = |space: u32| {
                (0..mm.frames.len())
                    .filter(|&fi| mm.frames.space[fi] == space && mm.frames.folio[fi].young != 0)
                    .count()
            };
            (count(rnd), count(plain))
        };
        for preset in ["linux-6.1-mglru", "linux-6.3-mglru"] {
            let scn = crate::scenario::parse(&scenario(preset)).unwrap();
            let mut sim = crate::Simulation::new(&scn, "v").unwrap();
            sim.run_until(2_000_000_000);
            let mm = &mut sim.mm;
            let (rnd, plain) = young(mm);
            assert!(plain > 100, "{preset}: young plain pages {plain}");
            if preset == "linux-6.3-mglru" {
                assert_eq!(rnd, 0, "{preset}: a random mapping keeps no young bits");
                continue;
            }
            assert!(rnd > 100, "{preset}: young random pages {rnd}");

            // Look-around from a young page of each file: from the random mapping's page it
            // does not run, so its young neighbours stay young; from the plain one's it does.
            let from = |mm: &mut Mm, name: &str| {
                let sp = mm.spaces.iter().position(|s| s.name == name).unwrap() as u32;
                let f = (0..mm.frames.len() as u32)
                    .filter(|&f| {
                        let fi = f as usize;
                        mm.frames.space[fi] == sp
                            && mm.frames.folio[fi].young != 0
                            && mm.frames.folio[fi].flags & PG_REFERENCED == 0
                            && mm.frames.gen[fi] != 0
                    })
                    .max_by_key(|&f| {
                        // The page with the most young neighbours in its window.
                        let idx = mm.frames.index[f as usize] as usize;
                        let space = &mm.spaces[sp as usize];
                        (idx.saturating_sub(32)..(idx + 32).min(space.len() as usize))
                            .map(|i| space.page(i))
                            .filter(|&g| g != NIL && mm.frames.folio[g as usize].young != 0)
                            .count()
                    })
                    .unwrap();
                let before = young(mm);
                // Reclaim checks references of an isolated folio.
                mm.isolate_folio(f);
                let refs = mm.lru_gen_check_references(f);
                mm.lru_gen_add_folio(f, false);
                let after = young(mm);
                (before, after, refs)
            };
            // The random mapping's young PTE still counts: a first reference keeps the page.
            let (before, after, refs) = from(mm, "rnd");
            assert_eq!(
                after.0,
                before.0 - 1,
                "{preset}: only the page itself is cleared"
            );
            assert_eq!(refs, crate::mm::vmscan::Refs::Keep, "{preset}: random");
            // Look-around also marks the page itself referenced: it activates.
            let (before, after, refs) = from(mm, "plain");
            assert!(
                after.1 + 1 < before.1,
                "{preset}: look-around cleared neighbours: {before:?} -> {after:?}"
            );
            assert_eq!(refs, crate::mm::vmscan::Refs::Activate, "{preset}: plain");

            // The aging walk clears the plain mapping's young bits and leaves the random one's.
            sim.mm.lru_gen_walk_in(0, 60, false);
            sim.invariants().unwrap();
            let (rnd_after, plain_after) = young(&sim.mm);
            assert_eq!(
                plain_after, 0,
                "{preset}: the walk harvested the plain mapping"
            );
            assert!(
                rnd_after > 100,
                "{preset}: the walk skipped the random mapping: {rnd_after}"
            );
        }
    }

    /// Look-around from an evicted folio promotes its young neighbours into max_seq. Without
    /// an mm_walk they go through `folio_activate`, a PGACTIVATE each: in 6.1 only when fewer
    /// than PAGEVEC_SIZE are found (more are promoted in place, uncounted), from 6.3
    /// (`mglru_look_around_activate`) all of them. With a walk (kswapd's; from 6.3 proactive
    /// reclaim's, `mglru_proactive_walk`; any reclaimer's after it aged) none is counted.
    /// Counting only: the neighbours reach max_seq's generation either way.
    #[test]
    fn look_around_counts_its_promotions_only_without_a_walk() {
        use crate::mm::vmscan::ScanControl;
        for preset in ["linux-6.1-mglru", "linux-6.3-mglru", "linux-6.12-mglru"] {
            let all = preset != "linux-6.1-mglru";
            for (few, walk) in [(true, false), (false, false), (false, true)] {
                let scn = crate::scenario::parse(&mmap_scenario(preset, &[("plain", "")])).unwrap();
                let mut sim = crate::Simulation::new(&scn, "v").unwrap();
                sim.run_until(2_000_000_000);
                let mm = &mut sim.mm;
                let sp = mm.spaces.iter().position(|s| s.name == "plain").unwrap();
                let lv = 0;
                mm.inc_max_seq(lv, 60);
                let gen = gen_from_seq(mm.lruvecs[lv].lrugen.max_seq) as u8 + 1;
                let (f, mut neighbours) = young_window(mm, sp, gen);
                assert!(
                    neighbours.len() >= PAGEVEC_SIZE as usize,
                    "{preset}: {}",
                    neighbours.len()
                );
                if few {
                    // Only three neighbours stay young.
                    for &g in &neighbours[3..] {
                        mm.frames.folio[g as usize].young = 0;
                    }
                    neighbours.truncate(3);
                }
                let sc = ScanControl {
                    kswapd: walk,
                    ..Default::default()
                };
                mm.set_mm_walk(&sc);
                mm.isolate_folio(f);
                let before = mm.counters.get(C::pgactivate);
                let seen = mm.walkable_slots(f);
                mm.lru_gen_look_around(f, seen);
                let counted = mm.counters.get(C::pgactivate) - before;
                for &g in &neighbours {
                    assert_eq!(mm.frames.gen[g as usize], gen, "{preset}: promoted");
                }
                let want = if !walk && (all || few) {
                    neighbours.len() as u64
                } else {
                    0
                };
                assert_eq!(counted, want, "{preset} few {few} walk {walk}");
            }
        }
    }

    /// A young PTE found by rmap on a folio that already has PG_referenced (`lru_gen_set_refs`):
    /// 6.14-6.18 set PG_workingset and activate at once; after 6.18 (`mglru_set_refs_counts`)
    /// the folio is activated with the access counted, and PG_workingset comes with the next
    /// such reference. Look-around without a walker does the same to its young neighbours,
    /// each an activation (PGACTIVATE) into max_seq (PG_workingset) or max_seq - 1 (without).
    #[test]
    fn after_6_18_a_second_rmap_reference_counts_before_it_sets_workingset() {
        use crate::mm::vmscan::{Refs, ScanControl};
        for preset in ["linux-6.18-mglru", "linux-7.3-mglru"] {
            let counts = preset == "linux-7.3-mglru";
            let scn = crate::scenario::parse(&mmap_scenario(preset, &[("plain", "")])).unwrap();
            let mut sim = crate::Simulation::new(&scn, "v").unwrap();
            sim.run_until(2_000_000_000);
            let mm = &mut sim.mm;
            let sp = mm.spaces.iter().position(|s| s.name == "plain").unwrap();
            let lv = 0;
            mm.inc_max_seq(lv, 60);
            let max_gen = gen_from_seq(mm.lruvecs[lv].lrugen.max_seq) as u8 + 1;
            let below_gen = gen_from_seq(mm.lruvecs[lv].lrugen.max_seq - 1) as u8 + 1;
            let (f, neighbours) = young_window(mm, sp, max_gen);
            let fi = f as usize;
            let (y0, vmf0) = (mm.frames.folio[fi].young, mm.frames.vmflags[fi]);
            assert!(neighbours.len() >= 4, "{preset}: {}", neighbours.len());
            let referenced = |mm: &mut Mm, g: u32| {
                let fl = &mut mm.frames.folio[g as usize].flags;
                *fl = (*fl & !(PG_WORKINGSET | LRU_REFS_MASK)) | PG_REFERENCED;
            };
            for &g in &neighbours {
                referenced(mm, g);
            }
            // Look-around without a walker (direct reclaim before it aged).
            mm.set_mm_walk(&ScanControl::default());
            mm.isolate_folio(f);
            let before = mm.counters.get(C::pgactivate);
            let seen = mm.walkable_slots(f);
            mm.lru_gen_look_around(f, seen);
            let counted = mm.counters.get(C::pgactivate) - before;
            assert_eq!(counted, neighbours.len() as u64, "{preset}: activations");
            for &g in &neighbours {
                let fl = mm.frames.folio[g as usize].flags;
                let (refs, _) = refs_and_tier(fl, true);
                if counts {
                    assert_eq!(mm.frames.gen[g as usize], below_gen, "{preset}");
                    assert_eq!((fl & PG_WORKINGSET, refs), (0, 2), "{preset}");
                } else {
                    assert_eq!(mm.frames.gen[g as usize], max_gen, "{preset}");
                    assert_eq!((fl & PG_WORKINGSET, refs), (PG_WORKINGSET, 0), "{preset}");
                }
            }
            // rmap in `shrink_folio_list`: the folio's own young PTE, twice.
            referenced(mm, f);
            let check = |mm: &mut Mm| {
                mm.frames.folio[fi].young = y0;
                mm.frames.vmflags[fi] = vmf0;
                let r = mm.lru_gen_check_references(f);
                let fl = mm.frames.folio[fi].flags;
                (r, fl & PG_WORKINGSET != 0, refs_and_tier(fl, true).0)
            };
            let first = check(mm);
            let second = check(mm);
            if counts {
                assert_eq!(first, (Refs::Activate, false, 2), "{preset}");
                assert_eq!(second, (Refs::Activate, true, 0), "{preset}");
            } else {
                assert_eq!(first, (Refs::Activate, true, 0), "{preset}");
                // PG_workingset without PG_referenced is still a later reference.
                assert_eq!(second, (Refs::Activate, true, 0), "{preset}");
            }
            mm.lru_gen_add_folio(f, false);
            sim.invariants().unwrap();
        }
    }

    /// Before 6.14 isolation clears PG_referenced (and a folio without it loses its counts and
    /// PG_workingset too), look-around marks a young neighbour isolated in the same batch
    /// PG_referenced (before 6.12 the evicted folio itself too, which then activates),
    /// `shrink_folio_list` keeps that mapped folio without a look at its PTEs,
    /// and the put-back makes it active: 6.1 with its bits, 6.2+ with them cleared. On its next
    /// sighting, cold, it is reclaimed. 6.14 keeps the bits at isolation and look-around skips
    /// isolated folios. Also the put-back's pending and retry cases, and a retried folio's
    /// count in `sc->nr_scanned` (taken back in 6.2-6.10 only).
    #[test]
    fn before_6_14_isolation_clears_pg_referenced_and_look_around_marks_the_batch() {
        use crate::mm::vmscan::{NrStat, ScanControl};
        let scenario = |preset: &str| mmap_scenario(preset, &[("plain", "")]);
        for preset in [
            "linux-6.1-mglru",
            "linux-6.3-mglru",
            "linux-6.12-mglru",
            "linux-6.14-mglru",
        ] {
            let rework = preset == "linux-6.14-mglru";
            let retry_clean = preset != "linux-6.1-mglru";
            let scn = crate::scenario::parse(&scenario(preset)).unwrap();
            let mut sim = crate::Simulation::new(&scn, "v").unwrap();
            sim.run_until(2_000_000_000);
            let mm = &mut sim.mm;
            let sp = mm.spaces.iter().position(|s| s.name == "plain").unwrap();
            let on_lru_young = |mm: &Mm, g: u32| {
                g != NIL
                    && mm.frames.folio[g as usize].young != 0
                    && mm.frames.gen[g as usize] != 0
                    && mm.frames.folio[g as usize].mapped != 0
            };
            // Two young mapped pages side by side in one PMD (f, g), and a third one (h).
            let pmd = (512 / mm.scale).max(1) as usize;
            let (f, g) = (0..mm.spaces[sp].len() as usize - 1)
                .filter(|i| (i + 1) % pmd != 0)
                .map(|i| (mm.spaces[sp].page(i), mm.spaces[sp].page(i + 1)))
                .find(|&(f, g)| on_lru_young(mm, f) && on_lru_young(mm, g))
                .expect("two young neighbours");
            let h = (0..mm.spaces[sp].len() as usize)
                .map(|i| mm.spaces[sp].page(i))
                .find(|&h| h != f && h != g && on_lru_young(mm, h))
                .expect("a third young page");
            let (fi, gi, hi) = (f as usize, g as usize, h as usize);

            // Isolation: a folio with PG_workingset and counts but no PG_referenced.
            let refs1 = 1 << LRU_REFS_SHIFT;
            mm.frames.folio[hi].flags = (mm.frames.folio[hi].flags
                & !(PG_REFERENCED | LRU_REFS_MASK))
                | PG_WORKINGSET
                | refs1;
            mm.isolate_folio(h);
            let kept = mm.frames.folio[hi].flags & (PG_WORKINGSET | LRU_REFS_MASK);
            assert_eq!(kept, if rework { PG_WORKINGSET } else { 0 }, "{preset}: h");
            mm.lru_gen_add_folio(h, false);
            // ... and one with PG_referenced: that goes before 6.14, the rest stays.
            mm.frames.folio[hi].flags |= PG_REFERENCED | PG_WORKINGSET | refs1;
            mm.isolate_folio(h);
            let kept = mm.frames.folio[hi].flags & (PG_REFERENCED | PG_WORKINGSET | LRU_REFS_MASK);
            let all = PG_REFERENCED | PG_WORKINGSET | refs1;
            assert_eq!(
                kept,
                if rework { all } else { all & !PG_REFERENCED },
                "{preset}: h"
            );
            mm.lru_gen_add_folio(h, false);

            // f and g isolated in one batch; look-around from f.
            for x in [fi, gi] {
                mm.frames.folio[x].flags &= !(PG_REFERENCED | PG_WORKINGSET | LRU_REFS_MASK);
            }
            mm.isolate_folio(f);
            mm.isolate_folio(g);
            let refs = mm.lru_gen_check_references(f);
            let g_flags = mm.frames.folio[gi].flags;
            if rework {
                assert_eq!(refs, crate::mm::vmscan::Refs::Keep, "{preset}: f");
                assert!(g_flags & PG_REFERENCED == 0, "{preset}: g untouched");
                assert!(mm.frames.folio[gi].young != 0, "{preset}: g still young");
            } else {
                // 6.12 (`mglru_look_around_self_cleared`): f's own young bit was cleared first,
                // so look-around did not mark f: one young PTE is a keep.
                let f_refs = if preset == "linux-6.12-mglru" {
                    crate::mm::vmscan::Refs::Keep
                } else {
                    crate::mm::vmscan::Refs::Activate
                };
                assert_eq!(refs, f_refs, "{preset}: f");
                assert!(g_flags & PG_REFERENCED != 0, "{preset}: g marked");
                assert_eq!(mm.frames.folio[gi].young, 0, "{preset}: g's PTE cleared");
            }
            mm.frames.folio[fi].flags |= PG_ACTIVE;
            mm.lru_gen_add_folio(f, false);

            // g is kept, and goes back active (6.1 with PG_referenced, 6.2+ without).
            let mut sc = ScanControl {
                kswapd: true,
                may_writepage: true,
                may_swap: true,
                ..Default::default()
            };
            let (mut stat, mut nr_pageout) = (NrStat::default(), 0);
            let out = mm.shrink_folio_mglru(g, &mut sc, &mut stat, &mut nr_pageout);
            assert_eq!(out, Some(false), "{preset}: g kept");

            // The put-back's other cases, on g's frame while it is isolated (flags and
            // `mapped` restored after).
            let (saved, mapped) = (mm.frames.folio[gi].flags, mm.frames.folio[gi].mapped);
            let bits = saved & !(PG_REFERENCED | PG_ACTIVE | PG_RECLAIM | PG_DIRTY | PG_WRITEBACK);
            // Pending writeback for reclaim: 6.1 not active, 6.2+ as it was; PG_referenced back
            // (PG_workingset) before 6.14.
            let pend = bits | PG_RECLAIM | PG_WRITEBACK | PG_ACTIVE | PG_WORKINGSET;
            mm.frames.folio[gi].flags = pend;
            assert!(!mm.putback_retries(g, FILE, true), "{preset}: pending");
            let want = if rework {
                pend
            } else if retry_clean {
                pend | PG_REFERENCED
            } else {
                (pend | PG_REFERENCED) & !PG_ACTIVE
            };
            assert_eq!(mm.frames.folio[gi].flags, want, "{preset}: pending");
            // Clean, idle and unmapped: retried on the first pass from 6.2, never in 6.1.
            mm.frames.folio[gi].mapped = 0;
            mm.frames.folio[gi].flags = bits;
            assert_eq!(
                mm.putback_retries(g, FILE, true),
                retry_clean,
                "{preset}: retried"
            );
            if !retry_clean {
                assert!(mm.frames.folio[gi].flags & PG_ACTIVE != 0, "{preset}: 6.1");
            }
            mm.frames.folio[gi].flags = bits | PG_WORKINGSET;
            let second = mm.putback_retries(g, FILE, false);
            assert!(!second, "{preset}: not retried twice");
            if retry_clean && !rework {
                let after = mm.frames.folio[gi].flags;
                assert_eq!(after & (PG_ACTIVE | PG_WORKINGSET), PG_ACTIVE, "{preset}");
            }
            mm.frames.folio[gi].flags = saved;
            mm.frames.folio[gi].mapped = mapped;
            // A retried folio comes off sc->nr_scanned in 6.2-6.10 only (it is counted again
            // on the second pass); h stands in, unmapped for the moment.
            mm.isolate_folio(h);
            let h_mapped = mm.frames.folio[hi].mapped;
            mm.frames.folio[hi].flags &=
                !(PG_ACTIVE | PG_REFERENCED | PG_RECLAIM | PG_DIRTY | PG_WRITEBACK | PG_LOCKED);
            mm.frames.folio[hi].mapped = 0;
            sc.nr_scanned = 10;
            let lv = mm.frames.lruvec[hi] as usize;
            let clean = mm.evict_putback(lv, FILE, &[(h, false)], true, &mut sc);
            assert_eq!(
                clean,
                if retry_clean { vec![h] } else { vec![] },
                "{preset}"
            );
            let once = preset == "linux-6.3-mglru";
            assert_eq!(sc.nr_scanned, if once { 9 } else { 10 }, "{preset}");
            mm.frames.folio[hi].mapped = h_mapped;
            if retry_clean {
                mm.lru_gen_add_folio(h, false);
            }
            assert!(
                !mm.putback_retries(g, FILE, true),
                "{preset}: mapped, not retried"
            );
            let g_flags = mm.frames.folio[gi].flags;
            mm.lru_gen_add_folio(g, false);
            sim.invariants().unwrap();
            if rework {
                continue;
            }
            let mm = &mut sim.mm;
            assert!(g_flags & PG_ACTIVE != 0, "{preset}: g back active");
            assert_eq!(
                g_flags & PG_REFERENCED != 0,
                !retry_clean,
                "{preset}: g's PG_referenced after the put-back"
            );
            let max_gen = gen_from_seq(mm.lruvecs[mm.frames.lruvec[gi] as usize].lrugen.max_seq);
            assert_eq!(
                mm.frames.gen[gi] as usize,
                max_gen + 1,
                "{preset}: g in max_seq"
            );

            // Its next sighting, cold: reclaimed.
            mm.isolate_folio(g);
            let out = mm.shrink_folio_mglru(g, &mut sc, &mut stat, &mut nr_pageout);
            assert_eq!(out, None, "{preset}: g reclaimed");
            sim.invariants().unwrap();
        }
    }

    #[test]
    fn abi_sizes_split_the_two_youngest_as_active() {
        let mut lg = lg_with(5, [2, 3]);
        lg.nr_pages[gen_from_seq(2)][ANON] = 10;
        lg.nr_pages[gen_from_seq(3)][ANON] = 20;
        lg.nr_pages[gen_from_seq(4)][ANON] = 30;
        lg.nr_pages[gen_from_seq(5)][FILE] = 7;
        lg.nr_pages[gen_from_seq(3)][FILE] = 5;
        assert_eq!(lg.abi_sizes(), [30, 30, 5, 7]);
    }
}

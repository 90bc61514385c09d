//! The scan balance of mm/vmscan.c: which lists to scan, and how much (`inactive_is_low`,
//! `prepare_scan_control`, `get_scan_count`), and the <= 5.7 scanned/rotated statistics.
//! (`lru_note_cost`, in mm/swap.c, is in swap.rs.)
use crate::math::int_sqrt;
use crate::mm::mm_types::*;
use crate::mm::mmzone::Mm;
use crate::mm::vmscan::ScanControl;

/// SWAP_CLUSTER_MAX, in pages.
pub const SWAP_CLUSTER_MAX: u64 = 32;
pub const DEF_PRIORITY: u32 = 12;
pub const DEACTIVATE_ANON: u8 = 1;
pub const DEACTIVATE_FILE: u8 = 2;

/// How `get_scan_count` splits the scan between anon and file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
pub enum ScanBalance {
    #[serde(rename = "SCAN_EQUAL")]
    Equal,
    #[serde(rename = "SCAN_FRACT")]
    Fract,
    #[serde(rename = "SCAN_FILE")]
    File,
    #[serde(rename = "SCAN_ANON")]
    Anon,
}

/// Which branch of `get_scan_count` (mm/vmscan.c) chose the balance: one code per branch of
/// the kernel the variant models. Reporting only: the choice itself is `scan_balance`'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ScanReason {
    /// `!sc->may_swap`: this reclaim may not swap (SCAN_FILE).
    MayNotSwap,
    /// No free swap space: anon cannot be reclaimed (`get_nr_swap_pages() <= 0`; 5.8+
    /// `mem_cgroup_get_nr_swap_pages`, 5.13+ `can_reclaim_anon_pages`) (SCAN_FILE).
    NoSwap,
    /// `!sc->priority && swappiness` (3.5+; every swappiness before): SCAN_EQUAL.
    PriorityZero,
    /// 5.5+ `sc->file_is_tiny` (set by `prepare_scan_control`, 6.1+ `prepare_scan_count`):
    /// file + free at most the high watermark, with inactive anon to scan (SCAN_ANON).
    FileIsTiny,
    /// <= 5.4, global reclaim: file + free at most the high watermark ("the cache trap"; from
    /// 4.12 only with enough inactive anon) (SCAN_ANON).
    FileBelowHigh,
    /// 5.5+ `sc->cache_trim_mode`: plenty of inactive file and no file refaults (SCAN_FILE).
    CacheTrim,
    /// 3.8-5.4: "only evict file pages when we have plenty" — inactive file not low and
    /// sizable at this priority (SCAN_FILE).
    PlentyInactiveFile,
    /// SCAN_FRACT whose anon weight is 0 because swappiness is 0 (3.5+: no +1 per priority).
    SwappinessZero,
    /// SCAN_FRACT whose file weight is 0 because swappiness is 200 (5.8+, which allows 200).
    SwappinessMax,
    /// SCAN_FRACT: both types scanned in proportion to the two weights.
    Fraction,
    /// 6.16+ memory.reclaim `swappiness=max` (`SWAPPINESS_ANON_ONLY`): anon only (SCAN_ANON),
    /// and nothing at all when anon cannot be reclaimed.
    AnonOnly,
}

/// Which statistics a kernel's `get_scan_count` balances on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum BalanceEra {
    /// <= 5.7: `recent_scanned`/`recent_rotated` per type (`reclaim_stat`).
    Rotation,
    /// 5.8+: `anon_cost`/`file_cost` from `lru_note_cost` ("mm: balance LRU lists based on
    /// relative thrashing").
    Cost,
    /// The multi-gen LRU: get_scan_count is not used (the PID controller chooses the type).
    Mglru,
    /// The June 2016 RFC series (07/10, never merged): `numer[anon, file] / denom` of refault
    /// IO and rotations, kept in `anon_cost`/`file_cost` and `cost_denom`.
    Cost2016,
}

/// One `get_scan_count` call as the balance view shows it: the branch, its reason and the
/// inputs the era's kernel computed from. Counts are in 4 KiB pages.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ScanDecision {
    pub at_ns: u64,
    pub balance: ScanBalance,
    pub reason: ScanReason,
    /// The lruvec (memcg id; 0 = root) scanned.
    pub lruvec: u16,
    pub priority: u32,
    /// The swappiness this call used (memory.reclaim's, or vm.swappiness).
    pub swappiness: u32,
    /// SCAN_FRACT's weights [ap, fp] and denominator ([1, 1] and 1 for the other branches).
    pub fraction: [u64; 2],
    pub denominator: u64,
    /// Share of the scan each type got, [anon, file] in [0, 1]: the weights for SCAN_FRACT, the
    /// scan targets for SCAN_EQUAL (proportional to list sizes), 1 and 0 otherwise.
    pub shares: [f64; 2],
    /// <= 5.7: the scanned/rotated counts the weights came from (after their decay).
    pub recent_scanned: [u64; 2],
    pub recent_rotated: [u64; 2],
    /// 5.8+: the costs the weights came from (the reclaim root's, read once per pass); the
    /// 2016 series: its `numer[anon, file]` after the decay, with `cost_denom` its `denom`.
    pub anon_cost: u64,
    pub file_cost: u64,
    pub cost_denom: u64,
}

/// The pure SCAN_FRACT arithmetic of 5.8+ `get_scan_count` (`[ap, fp]`, denominator ap + fp):
/// each type's cost is inflated by the total so the cheaper side still gets a third of the
/// pressure ("mm: vmscan: limit the range of LRU type balancing", 5.8).
pub fn cost_fractions(anon_cost: u64, file_cost: u64, swappiness: u64) -> ([u64; 2], u64) {
    let total_cost = anon_cost + file_cost;
    let anon = total_cost + anon_cost;
    let file = total_cost + file_cost;
    let total = anon + file;
    let ap = swappiness * (total + 1) / (anon + 1);
    let fp = (200 - swappiness) * (total + 1) / (file + 1);
    ([ap, fp], ap + fp)
}

/// The pure SCAN_FRACT arithmetic of <= 5.7 `get_scan_count`: priority times scanned/rotated,
/// denominator ap + fp + 1. Before 3.5 (`swappiness_zero_strict` off) each priority had 1
/// added; before 2.6.35 (`scan_fraction_exact` off, `get_scan_ratio`) the result was rounded
/// down to whole percents, anon's first: [p, 100 - p] over 100.
pub fn rotation_fractions(
    scanned: [u64; 2],
    rotated: [u64; 2],
    swappiness: u64,
    prio_plus_one: bool,
    percents: bool,
) -> ([u64; 2], u64) {
    let plus = prio_plus_one as u64;
    let ap = (swappiness + plus) * (scanned[0] + 1) / (rotated[0] + 1);
    let fp = (200 - swappiness + plus) * (scanned[1] + 1) / (rotated[1] + 1);
    if percents {
        let anon = 100 * ap / (ap + fp + 1);
        return ([anon, 100 - anon], 100);
    }
    ([ap, fp], ap + fp + 1)
}

/// The pure SCAN_FRACT arithmetic of the June 2016 series (07/10, `get_scan_count`): each
/// type's weight is its priority times (denom + 1) / (numer[type] + 1), with no floor and no
/// range limit; denominator ap + fp + 1 as in 4.7.
pub fn lru_cost_fractions_2016(numer: [u64; 2], denom: u64, swappiness: u64) -> ([u64; 2], u64) {
    let ap = swappiness * (denom + 1) / (numer[0] + 1);
    let fp = (200 - swappiness) * (denom + 1) / (numer[1] + 1);
    ([ap, fp], ap + fp + 1)
}

/// The inactive:active target ratio: int_sqrt(10 * GB), 1 below 1 GB (`inactive_is_low`; of
/// the type's list sizes from ~4.7, of the zone's present pages for anon before).
pub fn inactive_ratio(total_pages: u64) -> u64 {
    let gb = total_pages >> (30 - 12);
    if gb > 0 {
        int_sqrt(10 * gb)
    } else {
        1
    }
}

impl Mm {
    /// `inactive_is_low` (5.5+): is the inactive list of this type below its target share?
    /// Sizes are `lruvec_page_state`, i.e. hierarchical over the lruvec's memcg subtree.
    pub fn inactive_is_low(&self, lv: usize, file: bool) -> bool {
        let (i, a) = if file {
            (LRU_INACTIVE_FILE, LRU_ACTIVE_FILE)
        } else {
            (LRU_INACTIVE_ANON, LRU_ACTIVE_ANON)
        };
        let (inactive, active) = (self.lruvec_state(lv, i), self.lruvec_state(lv, a));
        let ratio = if self.flags.inactive_ratio_by_list_size {
            inactive_ratio((inactive + active) * self.scale)
        } else if file {
            // <= 4.6 `inactive_file_is_low`: active > inactive.
            1
        } else {
            // <= 4.6 `zone->inactive_ratio` (`calculate_zone_inactive_ratio`).
            inactive_ratio(self.total_frames() * self.scale)
        };
        inactive * ratio < active
    }

    /// Have refault activations of this type happened since the last reclaim run ended?
    pub fn refaults_changed(&self, lv: usize, file: bool) -> bool {
        let l = &self.lruvecs[lv];
        let t = file as usize;
        l.workingset_activate[t] != l.refaults[t]
    }

    /// 4.12-5.4 `inactive_list_is_low(lruvec, file, sc, actual_reclaim)`: with refault
    /// activations since the last snapshot the file ratio is 0 (deactivate whenever anything is
    /// active) -- for every caller since 5.3 (`refault_scan_anon`), only for the deactivation
    /// path before, and not at all before 4.12 (`refault_deactivate_file`). Anon is never
    /// "low" without swap.
    pub fn inactive_list_is_low(&self, lv: usize, file: bool, actual_reclaim: bool) -> bool {
        if !file && self.total_swap() == 0 {
            return false;
        }
        let l = &self.lruvecs[lv];
        if file
            && self.flags.refault_deactivate_file
            && (actual_reclaim || self.flags.refault_scan_anon)
            && self.refaults_changed(lv, true)
        {
            return l.size(LRU_ACTIVE_FILE) > 0;
        }
        self.inactive_is_low(lv, file)
    }

    /// 5.5+ `prepare_scan_control`: deactivation, cache-trim and tiny-file decisions, taken once
    /// per `shrink_node` pass at the reclaim root.
    /// `lv` is the reclaim target's lruvec; its list sizes are hierarchical. `file_is_tiny` is
    /// a global-reclaim rule (`if (!cgroup_reclaim(sc))`).
    pub fn prepare_scan_control(&self, lv: usize, sc: &mut ScanControl) {
        let l = &self.lruvecs[lv];
        let size = |lru| self.lruvec_state(lv, lru);
        sc.anon_cost = l.anon_cost;
        sc.file_cost = l.file_cost;
        if sc.force_deactivate {
            sc.may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
        } else {
            sc.may_deactivate = 0;
            // 5.9+ also deactivates anon on anon refault activations.
            let anon_refaults = self.flags.anon_workingset && self.refaults_changed(lv, false);
            if anon_refaults || self.inactive_is_low(lv, false) {
                sc.may_deactivate |= DEACTIVATE_ANON;
            }
            let file_refaults = self.refaults_changed(lv, true);
            if file_refaults || self.inactive_is_low(lv, true) {
                sc.may_deactivate |= DEACTIVATE_FILE;
            }
        }
        // Without the 5.3 rule refaults would not switch cache-trim mode off.
        let file_low_for_balance = if self.flags.refault_scan_anon {
            sc.may_deactivate & DEACTIVATE_FILE != 0
        } else {
            self.inactive_is_low(lv, true)
        };
        sc.cache_trim_mode =
            self.sizable(size(LRU_INACTIVE_FILE), sc.priority) && !file_low_for_balance;
        let file = size(LRU_ACTIVE_FILE) + size(LRU_INACTIVE_FILE);
        sc.file_is_tiny = sc.target_memcg.is_none()
            && file + self.nr_free() <= self.wmark.high
            && sc.may_deactivate & DEACTIVATE_ANON == 0
            && self.sizable(size(LRU_INACTIVE_ANON), sc.priority);
    }

    /// `size >> sc->priority` is not zero, with the size in 4 KiB pages as the kernel counts
    /// it (a list of `frames` frames holds `frames * scale` pages).
    pub fn sizable(&self, frames: u64, priority: u32) -> bool {
        (frames * self.scale) >> priority != 0
    }

    /// Choose the scan balance (`get_scan_count`, first half).
    pub fn scan_balance(&self, lv: usize, sc: &ScanControl) -> ScanBalance {
        self.scan_balance_why(lv, sc).0
    }

    /// `scan_balance` with the branch that decided it (SCAN_FRACT's swappiness cases are told
    /// apart later, from the weights).
    pub fn scan_balance_why(&self, lv: usize, sc: &ScanControl) -> (ScanBalance, ScanReason) {
        use ScanReason as R;
        let l = &self.lruvecs[lv];
        // 6.16 (`swappiness_anon_only`): checked first, before may_swap.
        if sc.swappiness == Some(crate::mm::vmscan::lru_gen::SWAPPINESS_ANON_ONLY) {
            return (ScanBalance::Anon, R::AnonOnly);
        }
        if !sc.may_swap {
            return (ScanBalance::File, R::MayNotSwap);
        }
        if self.swap_free() == 0 {
            return (ScanBalance::File, R::NoSwap);
        }
        // Before 3.5 priority 0 scanned every list in full whatever the swappiness.
        let s = sc.swappiness.unwrap_or(self.swappiness);
        if sc.priority == 0 && (s != 0 || !self.flags.swappiness_zero_strict) {
            return (ScanBalance::Equal, R::PriorityZero);
        }
        if self.flags.scan_decisions_per_node {
            if sc.file_is_tiny {
                return (ScanBalance::Anon, R::FileIsTiny);
            }
            if sc.cache_trim_mode {
                return (ScanBalance::File, R::CacheTrim);
            }
            return (ScanBalance::Fract, R::Fraction);
        }
        // <= 5.4: the cache trap check of global reclaim (4.12+ only with enough inactive anon,
        // `tiny_file_anon_checks`), then "only evict file pages when we have plenty" (3.8).
        // Node-wide file pages (`pgdatfile`; the zone's before 4.8), whichever memcg is scanned.
        let file = self.lruvec_state(0, LRU_ACTIVE_FILE) + self.lruvec_state(0, LRU_INACTIVE_FILE);
        if sc.target_memcg.is_none()
            && file + self.nr_free() <= self.wmark.high
            && (!self.flags.tiny_file_anon_checks
                || (!self.inactive_list_is_low(lv, false, false)
                    && self.sizable(l.size(LRU_INACTIVE_ANON), sc.priority)))
        {
            return (ScanBalance::Anon, R::FileBelowHigh);
        }
        if self.flags.plenty_file_rule
            && !self.inactive_list_is_low(lv, true, false)
            && self.sizable(l.size(LRU_INACTIVE_FILE), sc.priority)
        {
            return (ScanBalance::File, R::PlentyInactiveFile);
        }
        (ScanBalance::Fract, R::Fraction)
    }

    /// The era of this kernel's balance (`BalanceEra`).
    pub fn balance_era(&self) -> BalanceEra {
        if self.flags.lru_gen {
            BalanceEra::Mglru
        } else if self.flags.io_cost_balance {
            BalanceEra::Cost
        } else if self.flags.rfc2016_lru_cost {
            BalanceEra::Cost2016
        } else {
            BalanceEra::Rotation
        }
    }

    /// `get_scan_count`: how many frames to scan on each evictable list at this priority.
    pub fn get_scan_count(
        &mut self,
        lv: usize,
        sc: &ScanControl,
    ) -> ([u64; 4], ScanBalance, [u64; 2], u64) {
        let (balance, mut reason) = self.scan_balance_why(lv, sc);
        let s = sc.swappiness.unwrap_or(self.swappiness) as u64;
        let (fraction, denominator) = if balance == ScanBalance::Fract {
            if self.flags.io_cost_balance {
                cost_fractions(sc.anon_cost, sc.file_cost, s)
            } else if self.flags.rfc2016_lru_cost {
                self.decay_cost_2016(lv);
                let l = &self.lruvecs[lv];
                lru_cost_fractions_2016([l.anon_cost, l.file_cost], l.cost_denom, s)
            } else {
                self.decay_recent(lv);
                let l = &self.lruvecs[lv];
                rotation_fractions(
                    l.recent_scanned,
                    l.recent_rotated,
                    s,
                    !self.flags.swappiness_zero_strict,
                    !self.flags.scan_fraction_exact,
                )
            }
        } else {
            ([1, 1], 1)
        };
        let target = sc.target_memcg.unwrap_or(0);
        let (emin, elow) = self.memcgs.protection(target, lv as u16);
        let usage = self.memcgs.list[lv].usage;
        let scale = self.scale;
        let mut nr = [0u64; 4];
        let mut targets = [0u64; 4];
        for (lru, out) in nr.iter_mut().enumerate() {
            let file = is_file_lru(lru) as usize;
            // In pages, as the kernel computes it; frames at the end (`Lruvec::scan_frames`).
            // 5.4+: a protected memcg's lists are scanned in proportion to its unprotected
            // usage, at least SWAP_CLUSTER_MAX pages (`mem_cgroup_protection`), then shifted.
            let (size, _) = crate::mm::memcg::protected_scan(
                self.lruvecs[lv].size(lru) * scale,
                usage * scale,
                emin * scale,
                elow * scale,
                sc.memcg_low_reclaim,
                SWAP_CLUSTER_MAX,
            );
            let scan = size >> sc.priority;
            let pages = match balance {
                ScanBalance::Equal => scan,
                ScanBalance::Fract => {
                    ((scan as u128 * fraction[file] as u128) / denominator.max(1) as u128) as u64
                }
                ScanBalance::File => {
                    if file == 1 {
                        scan
                    } else {
                        0
                    }
                }
                ScanBalance::Anon => {
                    if file == 0 {
                        scan
                    } else {
                        0
                    }
                }
            };
            // Anon only with no swap to reclaim it into: nothing is scanned.
            let pages = if reason == ScanReason::AnonOnly && self.swap_free() == 0 {
                0
            } else {
                pages
            };
            targets[lru] = pages;
            *out = self.lruvecs[lv].scan_frames(lru, pages, scale);
        }
        // Reporting only, from what was computed above: nothing here feeds back into reclaim.
        if balance == ScanBalance::Fract {
            if fraction[0] == 0 && s == 0 {
                reason = ScanReason::SwappinessZero;
            } else if fraction[1] == 0 && s == 200 {
                reason = ScanReason::SwappinessMax;
            }
        }
        let shares = match balance {
            ScanBalance::File => [0.0, 1.0],
            ScanBalance::Anon => [1.0, 0.0],
            ScanBalance::Fract => {
                let d = denominator.max(1) as f64;
                [fraction[0] as f64 / d, fraction[1] as f64 / d]
            }
            ScanBalance::Equal => {
                let a = (targets[0] + targets[1]) as f64;
                let f = (targets[2] + targets[3]) as f64;
                if a + f > 0.0 {
                    [a / (a + f), f / (a + f)]
                } else {
                    [0.5, 0.5]
                }
            }
        };
        let l = &self.lruvecs[lv];
        // The 2016 series weighs the lruvec's own numer/denom, decayed in this call.
        let rfc2016 = self.flags.rfc2016_lru_cost && !self.flags.io_cost_balance;
        let (anon_cost, file_cost, cost_denom) = if rfc2016 {
            (l.anon_cost, l.file_cost, l.cost_denom)
        } else {
            (sc.anon_cost, sc.file_cost, 0)
        };
        self.trace.last_scan = Some(ScanDecision {
            at_ns: self.now,
            balance,
            reason,
            lruvec: lv as u16,
            priority: sc.priority,
            swappiness: s as u32,
            fraction,
            denominator,
            shares,
            recent_scanned: l.recent_scanned.map(|v| v * scale),
            recent_rotated: l.recent_rotated.map(|v| v * scale),
            anon_cost,
            file_cost,
            cost_denom,
        });
        (nr, balance, fraction, denominator)
    }

    /// <= 5.7: halve scanned and rotated of a type once scanned exceeds a quarter of its size.
    fn decay_recent(&mut self, lv: usize) {
        let l = &mut self.lruvecs[lv];
        let anon = l.size(LRU_ACTIVE_ANON) + l.size(LRU_INACTIVE_ANON);
        let file = l.size(LRU_ACTIVE_FILE) + l.size(LRU_INACTIVE_FILE);
        for (t, size) in [(0, anon), (1, file)] {
            if l.recent_scanned[t] > size / 4 {
                l.recent_scanned[t] /= 2;
                l.recent_rotated[t] /= 2;
            }
        }
    }

    /// <= 5.7 `update_page_reclaim_stat`: a page added or moved counts as scanned, and as rotated
    /// if it went to an active list.
    #[inline]
    pub fn note_reclaim_stat(&mut self, lv: usize, file: bool, scanned: u64, rotated: u64) {
        // RFC 2016 07/10 replaced the statistics by `lru_note_cost_2016`.
        if self.flags.rfc2016_lru_cost {
            return;
        }
        if !self.flags.io_cost_balance {
            let l = &mut self.lruvecs[lv];
            l.recent_scanned[file as usize] += scanned;
            l.recent_rotated[file as usize] += rotated;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_targets_smaller_than_a_frame_carry_over() {
        // A 1920 MB memcg at frame_scale 512 at priority 12: 491,520 >> 12 = 120 pages a pass,
        // under a quarter of a frame. Frames come every few passes, at the kernel's rate.
        let mut l = crate::mm::mmzone::Lruvec::default();
        let pages = (960u64 * 512) >> 12;
        assert_eq!(pages, 120);
        let frames: Vec<u64> = (0..13).map(|_| l.scan_frames(0, pages, 512)).collect();
        assert_eq!(frames, [0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
        assert_eq!(l.scan_carry[0], 13 * 120 - 3 * 512);
        // Each list keeps its own carry; at frame_scale 1 nothing is carried.
        assert_eq!(l.scan_frames(1, 120, 512), 0);
        assert_eq!(l.scan_frames(2, 120, 1), 120);
        assert_eq!(l.scan_carry[2], 0);
    }

    #[test]
    fn equal_costs_give_swappiness_over_200() {
        let ([ap, fp], d) = cost_fractions(0, 0, 60);
        // total = 0: ap = 60 * 1 / 1, fp = 140 * 1 / 1
        assert_eq!((ap, fp, d), (60, 140, 200));
        let ([ap, fp], _) = cost_fractions(1000, 1000, 100);
        assert_eq!(ap, fp);
    }

    #[test]
    fn cost_moves_each_weight_by_at_most_a_factor_of_two() {
        // All recent cost on file: anon share at its maximum 3s / (3s + 1.5(200-s)).
        let ([ap, fp], _) = cost_fractions(0, 1_000_000, 60);
        let share = ap as f64 / (ap + fp) as f64;
        assert!((share - 0.4615).abs() < 0.001, "{share}");
        // All on anon: the minimum, 1.5s / (1.5s + 3(200-s)) = 17.6% at s=60.
        let ([ap, fp], _) = cost_fractions(1_000_000, 0, 60);
        let share = ap as f64 / (ap + fp) as f64;
        assert!((share - 0.1765).abs() < 0.002, "{share}"); // integer truncation: 89 / 508
                                                            // Worked by hand: a=300, f=100, s=115: total=400, A=700, F=500, T=1200
                                                            // ap = 115*1201/701 = 197, fp = 85*1201/501 = 203.
        assert_eq!(cost_fractions(300, 100, 115), ([197, 203], 400));
    }

    #[test]
    fn swappiness_extremes() {
        let ([_, fp], _) = cost_fractions(5, 7, 200);
        assert_eq!(fp, 0);
        let ([ap, _], _) = cost_fractions(5, 7, 0);
        assert_eq!(ap, 0);
    }

    #[test]
    fn rotation_fractions_by_hand() {
        // anon: scanned 100 rotated 99 -> ap = 60*101/100 = 60; file: 1000 scanned, 9 rotated
        // -> fp = 140*1001/10 = 14014; denominator = 14075.
        assert_eq!(
            rotation_fractions([100, 1000], [99, 9], 60, false, false),
            ([60, 14014], 14075)
        );
    }

    #[test]
    fn rotation_fractions_before_3_5_and_2_6_35() {
        // Before 3.5 each priority has 1 added: ap = 61*101/100 = 61, fp = 141*1001/10 = 14114.
        assert_eq!(
            rotation_fractions([100, 1000], [99, 9], 60, true, false),
            ([61, 14114], 14176)
        );
        // Swappiness 0 still weighs anon 1: ap = 1*101/100 = 1, fp = 201*1001/10 = 20120.
        assert_eq!(
            rotation_fractions([100, 1000], [99, 9], 0, true, false),
            ([1, 20120], 20122)
        );
        // Before 2.6.35, percents: anon 100*61/14176 = 0.43% rounds to 0, file gets all.
        assert_eq!(
            rotation_fractions([100, 1000], [99, 9], 60, true, true),
            ([0, 100], 100)
        );
        // ap = 61*1001/10 = 6106, fp = 14114: anon 610600/20221 = 30.2 -> 30%.
        assert_eq!(
            rotation_fractions([1000, 1000], [9, 9], 60, true, true),
            ([30, 70], 100)
        );
    }

    #[test]
    fn inactive_ratio_table() {
        let gb = 1u64 << 18;
        assert_eq!(inactive_ratio(gb - 1), 1);
        assert_eq!(inactive_ratio(gb), 3);
        assert_eq!(inactive_ratio(10 * gb), 10);
        assert_eq!(inactive_ratio(100 * gb), 31);
        assert_eq!(inactive_ratio(1024 * gb), 101);
    }

    fn mm_with_lists(flags: crate::variant::Flags, sizes: [u64; 4]) -> Mm {
        let w = crate::mm::page_alloc::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        let mut mm = Mm::new(16, 1, flags, w);
        for (l, n) in sizes.iter().enumerate() {
            mm.lruvecs[0].lists[l].len = *n;
        }
        mm
    }

    #[test]
    fn lru_note_cost_decays_at_a_quarter_of_the_lru() {
        let f = crate::variant::preset("linux-5.8").unwrap().flags;
        // LRU of 4000 pages: the decay threshold is 1000.
        let mut mm = mm_with_lists(f, [1000, 1000, 1000, 1000]);
        mm.lru_note_cost(0, true, 600, 0);
        mm.lru_note_cost(0, false, 400, 0);
        assert_eq!(
            (mm.lruvecs[0].anon_cost, mm.lruvecs[0].file_cost),
            (400, 600)
        ); // 1000: not over
        mm.lru_note_cost(0, false, 2, 0); // 1002 > 1000: both halve, ratio kept
        assert_eq!(
            (mm.lruvecs[0].anon_cost, mm.lruvecs[0].file_cost),
            (201, 300)
        );
        // 6.2 rotation cost: IO counts SWAP_CLUSTER_MAX times a rotation.
        let mut g = f;
        g.rotation_cost = true;
        let mut mm = mm_with_lists(g, [100_000, 0, 0, 0]);
        mm.lru_note_cost(0, true, 2, 5);
        assert_eq!(mm.lruvecs[0].file_cost, 2 * 32 + 5);
        // Before 5.8 there is no cost model at all.
        let old = crate::variant::preset("linux-5.7").unwrap().flags;
        let mut mm = mm_with_lists(old, [1000, 1000, 1000, 1000]);
        mm.lru_note_cost(0, true, 10, 0);
        assert_eq!(mm.lruvecs[0].file_cost, 0);
    }

    #[test]
    fn scan_balance_of_older_kernels() {
        let flags = |p| crate::variant::preset(p).unwrap().flags;
        let sc = |priority| ScanControl {
            priority,
            may_swap: true,
            ..Default::default()
        };
        let swap = || Some(crate::mm::swapfile::Swap::new(0, 1000));
        // Plenty of inactive file (819,200 of 1,228,800 pages): 3.8+ scans file only.
        let lists = [409_600, 81_920, 819_200, 409_600];
        let mut old = mm_with_lists(flags("linux-2.6.34"), lists);
        let mut new = mm_with_lists(flags("linux-4.10"), lists);
        old.swap = swap();
        new.swap = swap();
        assert_eq!(old.scan_balance(0, &sc(12)), ScanBalance::Fract);
        assert_eq!(new.scan_balance(0, &sc(12)), ScanBalance::File);
        // Priority 0 with swappiness 0: every list in full before 3.5.
        old.swappiness = 0;
        new.swappiness = 0;
        assert_eq!(old.scan_balance(0, &sc(0)), ScanBalance::Equal);
        assert_ne!(new.scan_balance(0, &sc(0)), ScanBalance::Equal);
        // File + free below the high watermark: anon only, from 4.13 only with inactive anon
        // to scan (here there is none).
        let lists = [0, 409_600, 0, 0];
        let mut k410 = mm_with_lists(flags("linux-4.10"), lists);
        let mut k52 = mm_with_lists(flags("linux-5.2"), lists);
        for mm in [&mut k410, &mut k52] {
            mm.swap = swap();
            mm.wmark.high = 100;
        }
        assert_eq!(k410.scan_balance(0, &sc(12)), ScanBalance::Anon);
        assert_eq!(k52.scan_balance(0, &sc(12)), ScanBalance::Fract);
    }

    #[test]
    fn refaults_deactivate_file_from_4_12() {
        let flags = |p| crate::variant::preset(p).unwrap().flags;
        // Inactive file 500 of 600 pages: not low by the ratio. A refault activation since
        // the last reclaim run makes it low for the deactivation path from 4.12 on.
        let lists = [0, 0, 500, 100];
        let mut k411 = mm_with_lists(flags("linux-4.11"), lists);
        let mut k52 = mm_with_lists(flags("linux-5.2"), lists);
        for mm in [&mut k411, &mut k52] {
            assert!(!mm.inactive_list_is_low(0, true, true));
            mm.lruvecs[0].workingset_activate[1] = 1;
        }
        assert!(!k411.inactive_list_is_low(0, true, true));
        assert!(k52.inactive_list_is_low(0, true, true));
        // get_scan_count's caller (actual_reclaim = false) ignores refaults before 5.3.
        assert!(!k52.inactive_list_is_low(0, true, false));
    }

    #[test]
    fn inactive_ratios_before_4_7() {
        let flags = |p| crate::variant::preset(p).unwrap().flags;
        // File 300k inactive, 400k active (2.7 GB, ratio 4): low only by the old 1:1 rule.
        // Anon 100k/300k (1.5 GB, ratio 3 by list size): low by the old zone ratio, 1 for
        // this 16-frame machine.
        let lists = [100_000, 300_000, 300_000, 400_000];
        let old = mm_with_lists(flags("linux-2.6.34"), lists);
        let new = mm_with_lists(flags("linux-4.10"), lists);
        assert!(old.inactive_is_low(0, true));
        assert!(!new.inactive_is_low(0, true));
        assert!(old.inactive_is_low(0, false));
        assert!(!new.inactive_is_low(0, false));
    }

    #[test]
    fn lru_cost_2016_by_hand() {
        // No cost yet: swappiness against 200 - swappiness, like 4.7 with nothing scanned.
        assert_eq!(lru_cost_fractions_2016([0, 0], 0, 115), ([115, 85], 201));
        // File cost 320 (ten restores), anon 10 (rotations), denom 330, swappiness 115:
        // ap = 115 * 331 / 11 = 3460, fp = 85 * 331 / 321 = 87: no floor, anon takes 97.5%.
        assert_eq!(
            lru_cost_fractions_2016([10, 320], 330, 115),
            ([3460, 87], 3548)
        );
        // IO costs 32 a page, rotations 1, charged to this lruvec; decay at an eighth of the LRU.
        let f = crate::variant::preset("rfc-2016-lru-cost").unwrap().flags;
        let mut mm = mm_with_lists(f, [200, 200, 200, 200]);
        mm.lru_note_cost_2016(0, true, 2, 0);
        mm.lru_note_cost_2016(0, false, 0, 5);
        let l = &mm.lruvecs[0];
        assert_eq!((l.anon_cost, l.file_cost, l.cost_denom), (5, 64, 69));
        mm.lru_note_cost_2016(0, true, 1, 0); // denom 101 > 800 / 8: halved at the next count
        mm.decay_cost_2016(0);
        let l = &mm.lruvecs[0];
        assert_eq!((l.anon_cost, l.file_cost, l.cost_denom), (2, 48, 50));
        // 4.7 keeps no such cost, and the 2016 kernel no scanned/rotated statistics.
        let v = crate::variant::preset("linux-4.7").unwrap().flags;
        let mut old = mm_with_lists(v, [200, 200, 200, 200]);
        old.lru_note_cost_2016(0, true, 2, 0);
        old.note_reclaim_stat(0, true, 3, 1);
        assert_eq!(
            (old.lruvecs[0].cost_denom, old.lruvecs[0].recent_scanned[1]),
            (0, 3)
        );
        mm.note_reclaim_stat(0, true, 3, 1);
        assert_eq!(mm.lruvecs[0].recent_scanned[1], 0);
    }

    #[test]
    fn scan_count_by_hand() {
        // linux-5.8, priority 12, swappiness 60, anon_cost = file_cost = 0: fractions 60/140.
        let f = crate::variant::preset("linux-5.8").unwrap().flags;
        let mut mm = mm_with_lists(f, [409_600, 81_920, 409_600, 819_200]);
        mm.swap = Some(crate::mm::swapfile::Swap::new(0, 1000));
        let sc = ScanControl {
            priority: 12,
            may_swap: true,
            ..Default::default()
        };
        let (nr, balance, frac, den) = mm.get_scan_count(0, &sc);
        assert_eq!((balance, frac, den), (ScanBalance::Fract, [60, 140], 200));
        // size >> 12 = 100, 20, 100, 200; times 60/200 or 140/200.
        assert_eq!(nr, [30, 6, 70, 140]);
        // Without swap: file only.
        mm.swap = None;
        assert_eq!(mm.get_scan_count(0, &sc).0, [0, 0, 100, 200]);
    }
}

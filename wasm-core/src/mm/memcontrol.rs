//! memcg charging, limits and proactive reclaim (mm/memcontrol.c): `try_charge_memcg` with
//! memory.max reclaim and the memcg OOM, memory.high reclaim and throttling, and the
//! memory.reclaim write.
use crate::mm::memcg::MemcgEvent;
use crate::mm::mmzone::Mm;
use crate::mm::page_alloc::Alloc;
use crate::mm::vmscan::balance::SWAP_CLUSTER_MAX;

/// MAX_RECLAIM_RETRIES (mm/internal.h).
pub const MAX_RECLAIM_RETRIES: u32 = 16;
/// MEMCG_CHARGE_BATCH (6.1: 64 pages): how far a task may overshoot memory.high before it
/// reclaims and is throttled.
pub const MEMCG_CHARGE_BATCH: u64 = 64;
/// `calculate_high_delay` constants: MEMCG_DELAY_PRECISION_SHIFT, MEMCG_DELAY_SCALING_SHIFT,
/// and MEMCG_MAX_HIGH_DELAY_JIFFIES = 2 s; penalties of at most HZ/100 = 10 ms are skipped.
const DELAY_PRECISION_SHIFT: u32 = 20;
const DELAY_SCALING_SHIFT: u32 = 14;
const MAX_HIGH_DELAY_NS: u64 = 2_000_000_000;
const MIN_HIGH_DELAY_NS: u64 = 10_000_000;
const NS_PER_JIFFY_HZ1000: u64 = 1_000_000;

/// Which share of the remaining request one `try_to_free_mem_cgroup_pages` call of
/// memory.reclaim asks for (a variant's flags choose it, `ReclaimBatch::of`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReclaimBatch {
    /// v5.19 (94968384dde1, "memcg: introduce per-memcg reclaim interface") to v6.7: the whole
    /// remainder per call.
    Remainder,
    /// ~v6.8 (0388536ac291, "mm:vmscan: fix inaccurate reclaim during proactive reclaim"):
    /// at most SWAP_CLUSTER_MAX per call.
    ClusterMax,
    /// ~v6.9 ("mm: memcg: use larger batches for proactive reclaim", T.J. Mercier; its hash
    /// was not checked here): a quarter of the remainder per call (at least SWAP_CLUSTER_MAX, enforced by
    /// `try_to_free_mem_cgroup_pages`).
    Quarter,
}

impl ReclaimBatch {
    /// The policy a variant's flags choose (`reclaim_batch_quarter`, `reclaim_batch_cluster`).
    pub fn of(flags: &crate::variant::Flags) -> ReclaimBatch {
        if flags.reclaim_batch_quarter {
            ReclaimBatch::Quarter
        } else if flags.reclaim_batch_cluster {
            ReclaimBatch::ClusterMax
        } else {
            ReclaimBatch::Remainder
        }
    }
}

/// `calculate_high_delay` (5.8+ form) for one memcg: the throttle a task that charged
/// `nr_pages` pages pays for a usage over memory.high, in ns (HZ = 1000). 0 when tiny.
pub fn high_delay_ns(usage: u64, high: u64, nr_pages: u64) -> u64 {
    if usage <= high || high == 0 {
        return 0;
    }
    let overage = (((usage - high) as u128) << DELAY_PRECISION_SHIFT) / high as u128;
    let mut jiffies = overage * overage * 1000;
    jiffies >>= DELAY_PRECISION_SHIFT;
    jiffies >>= DELAY_SCALING_SHIFT;
    jiffies = jiffies * nr_pages as u128 / MEMCG_CHARGE_BATCH as u128;
    let ns = (jiffies as u64).saturating_mul(NS_PER_JIFFY_HZ1000);
    let ns = ns.min(MAX_HIGH_DELAY_NS);
    if ns <= MIN_HIGH_DELAY_NS {
        0
    } else {
        ns
    }
}

impl Mm {
    /// `try_charge_memcg` (6.1) for one new frame of the current task's memcg, before the page
    /// allocator runs. If a memcg on the way up is at memory.max: count a `max` event, reclaim
    /// its subtree (`try_to_free_mem_cgroup_pages(mem_over_limit, nr_pages, MAY_SWAP)`), and
    /// retry; progress retries for free, MAX_RECLAIM_RETRIES failed attempts lead to the memcg
    /// OOM killer (`oom` event; the interpreter then kills inside that memcg). Like the page
    /// allocator's throttling, a reclaimer that only started swap-out IO waits for it rather
    /// than declaring OOM. Returns the CPU time spent reclaiming, or the allocation outcome to
    /// report instead (wait / OOM). The charge itself happens in `take_free_frame`.
    pub fn memcg_try_charge(&mut self, now: u64) -> Result<u64, Alloc> {
        let id = self.cur_memcg;
        if self.memcgs.only_root() {
            return Ok(0);
        }
        let mut stall = 0u64;
        let mut retries = MAX_RECLAIM_RETRIES;
        loop {
            let Some(over) = self.memcgs.over_max(id, 1) else {
                return Ok(stall);
            };
            if std::mem::take(&mut self.memcg_force_charge) {
                // `mem_cgroup_oom` found nothing to kill: the charge is forced (`force:`).
                return Ok(stall);
            }
            self.memcgs.event(over, MemcgEvent::Max);
            self.now = now + stall;
            let (reclaimed, cpu) = self.try_to_free_mem_cgroup_pages(over, 1, true, false, None);
            stall += cpu.max(1);
            if self.memcgs.over_max(id, 1).is_none() || reclaimed > 0 {
                continue;
            }
            if retries > 0 {
                retries -= 1;
                continue;
            }
            if let Some(t) = self.earliest_io_completion() {
                return Err(Alloc::Wait(t.max(now + stall)));
            }
            self.memcgs.event(over, MemcgEvent::Oom);
            self.oom_memcg = Some(over);
            return Err(Alloc::Oom(stall));
        }
    }

    /// memory.high after a charge (`mem_cgroup_handle_over_high`, 5.8+), simplified: the
    /// overshoot is accumulated per memcg (the kernel counts it per task,
    /// `current->memcg_nr_pages_over_high`); once it reaches MEMCG_CHARGE_BATCH pages, every
    /// over-high memcg from the task's up to (not including) the root gets a `high` event and a
    /// reclaim of that many pages (`reclaim_high`), then the task is throttled by
    /// `calculate_high_delay` of the worst overage. The kernel's reclaim retries before the
    /// sleep and its exact skip thresholds are UNCONFIRMED (kernel-mglru-memcg.md §9.2) and not
    /// modelled: one reclaim round, then the delay. Returns the CPU + sleep time.
    pub fn memcg_handle_over_high(&mut self, now: u64) -> u64 {
        self.memcg_over_high_after(now, self.scale)
    }

    /// `memcg_handle_over_high` after a charge of `pages` pages (several: a readahead window).
    pub fn memcg_over_high_after(&mut self, now: u64, pages: u64) -> u64 {
        let id = self.cur_memcg;
        if self.memcgs.only_root() {
            return 0;
        }
        let over = self.memcgs.over_high(id);
        if over.is_empty() {
            return 0;
        }
        self.memcgs.list[id as usize].over_high_pages += pages;
        if self.memcgs.list[id as usize].over_high_pages < MEMCG_CHARGE_BATCH {
            return 0;
        }
        let nr_pages = std::mem::take(&mut self.memcgs.list[id as usize].over_high_pages);
        let nr_frames = (nr_pages / self.scale).max(1);
        let mut spent = 0u64;
        for m in over {
            self.memcgs.event(m, MemcgEvent::High);
            self.now = now + spent;
            let (_, cpu) = self.try_to_free_mem_cgroup_pages(m, nr_frames, true, false, None);
            spent += cpu;
        }
        let worst = self
            .memcgs
            .ancestors(id)
            .filter(|&m| m != 0)
            .map(|m| {
                let c = &self.memcgs.list[m as usize];
                high_delay_ns(c.usage, c.high, nr_pages)
            })
            .max()
            .unwrap_or(0);
        spent + worst
    }

    /// A write of `bytes` to `memcg`'s memory.reclaim run to the end at once (see
    /// `ReclaimWrite`; the interpreter runs it call by call so that IO completes in between).
    /// Returns (frames reclaimed, CPU time).
    pub fn memory_reclaim(
        &mut self,
        memcg: u16,
        bytes: u64,
        swappiness: Option<u32>,
        batch: ReclaimBatch,
        now: u64,
    ) -> (u64, u64) {
        let mut w = ReclaimWrite::new(self, memcg, bytes, swappiness, batch);
        let mut cpu = 0;
        while let Some(c) = w.step(self, now + cpu) {
            cpu += c;
        }
        (w.done, cpu)
    }
}

/// A write to memory.reclaim in progress (`memory_reclaim`, v5.19+), run by the writing task:
/// calls of `try_to_free_mem_cgroup_pages(memcg, batch, MAY_SWAP | PROACTIVE, swappiness)`
/// until the request is met; a call that reclaims nothing uses one of MAX_RECLAIM_RETRIES, and
/// the write fails (-EAGAIN) once they are used up. The kernel's last-chance drain of the
/// per-CPU LRU batches has nothing to do here (the engine has none). Each call is one step, so
/// that the task's clock advances and IO (swap writes started by earlier calls) completes
/// between calls, as it does while the kernel's loop runs. At the end the memcg's
/// `reclaim_requested` / `reclaim_reclaimed` are accounted.
#[derive(Debug, Clone)]
pub struct ReclaimWrite {
    pub memcg: u16,
    /// Frames asked for and reclaimed so far.
    pub target: u64,
    pub done: u64,
    pub retries: u32,
    pub swappiness: Option<u32>,
    pub batch: ReclaimBatch,
}

impl ReclaimWrite {
    pub fn new(
        mm: &Mm,
        memcg: u16,
        bytes: u64,
        swappiness: Option<u32>,
        batch: ReclaimBatch,
    ) -> ReclaimWrite {
        ReclaimWrite {
            memcg,
            target: bytes / (crate::devices::PAGE_BYTES * mm.scale),
            done: 0,
            retries: MAX_RECLAIM_RETRIES,
            swappiness,
            batch,
        }
    }

    /// One `try_to_free_mem_cgroup_pages` call at `now`: its CPU time, or None when the write
    /// is over (then accounted).
    pub fn step(&mut self, mm: &mut Mm, now: u64) -> Option<u64> {
        if self.done >= self.target || self.retries == u32::MAX {
            let m = &mut mm.memcgs.list[self.memcg as usize];
            m.reclaim_requested += self.target;
            m.reclaim_reclaimed += self.done;
            return None;
        }
        let cluster = (SWAP_CLUSTER_MAX / mm.scale).max(1);
        let left = self.target - self.done;
        let ask = match self.batch {
            ReclaimBatch::Remainder => left,
            ReclaimBatch::ClusterMax => left.min(cluster),
            ReclaimBatch::Quarter => left / 4,
        };
        mm.now = now;
        let (got, cpu) =
            mm.try_to_free_mem_cgroup_pages(self.memcg, ask, true, true, self.swappiness);
        if got == 0 {
            // `if (!reclaimed && !nr_retries--) return -EAGAIN;` (u32::MAX marks the failure).
            self.retries = self.retries.wrapping_sub(1);
        }
        self.done += got;
        Some(cpu.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn high_delay_grows_with_the_square_of_the_overage_and_is_capped() {
        assert_eq!(high_delay_ns(100, 100, 64), 0);
        // 1% over: tiny, skipped.
        assert_eq!(high_delay_ns(101_000, 100_000, 64), 0);
        // 2% and 4% over: ~25 ms and ~100 ms (overage^2 x HZ x 64 jiffies).
        let d2 = high_delay_ns(102_000, 100_000, 64);
        let d4 = high_delay_ns(104_000, 100_000, 64);
        assert!(d2 > 20_000_000 && d2 < 30_000_000, "{d2}");
        assert!(d4 > 3 * d2 && d4 < 5 * d2, "{d2} {d4}");
        assert_eq!(high_delay_ns(150_000, 100_000, 64), MAX_HIGH_DELAY_NS);
        // Fewer pages charged over the batch: proportionally less.
        assert_eq!(
            high_delay_ns(104_000, 100_000, 32),
            d4 / 2 / 1_000_000 * 1_000_000
        );
    }
}

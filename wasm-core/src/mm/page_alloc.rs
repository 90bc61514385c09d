//! The page allocator (mm/page_alloc.c), for one node with one zone: the watermarks
//! (`__setup_per_zone_wmarks`, `calculate_min_free_kbytes`, as in 5.x-6.x), the free list, and
//! `__alloc_pages` with its slow path (kswapd wakeup, direct reclaim, the OOM decision).
use super::mmzone::Mm;
use crate::mm::mm_types::LIST_FREE;
use crate::mm::mm_types::LIST_ISOLATED;
use crate::mm::mm_types::NIL;
use crate::mm::vmstat::C;

use crate::math::int_sqrt;

/// min/low/high in frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Watermarks {
    pub min: u64,
    pub low: u64,
    pub high: u64,
}

/// `init_per_zone_wmark_min`: sqrt(lowmem_kbytes * 16), clamped to [128, 262144] kB.
/// Abstracted: the upper bound was 65536 kB until "mm/page_alloc: increase default
/// min_free_kbytes bound" (posted February 2020, merged for 5.7 or 5.8); every preset uses the
/// newer bound, so older presets differ from their kernel above 256 GiB of RAM.
pub fn default_min_free_kbytes(ram_pages: u64) -> u64 {
    let kb = ram_pages * 4;
    int_sqrt(kb * 16).clamp(128, 262_144)
}

impl Watermarks {
    /// `__setup_per_zone_wmarks` for a single zone of `ram_pages` pages:
    /// min = min_free_kbytes in pages; from 4.6 gap = max(min/4, managed * scale_factor /
    /// 10000), low = min + gap, high = low + gap; before (`watermark_scale_factor` is `None`),
    /// low = min + min/4 and high = min + min/2. In frames of `scale` pages (rounded up).
    pub fn compute(
        ram_pages: u64,
        min_free_kbytes: u64,
        watermark_scale_factor: Option<u32>,
        scale: u64,
    ) -> Watermarks {
        let min = min_free_kbytes / 4;
        let (low, high) = match watermark_scale_factor {
            Some(f) => {
                let gap = (min / 4).max(ram_pages.saturating_mul(f as u64) / 10_000);
                (min + gap, min + 2 * gap)
            }
            // <= 4.5: low = min + min/4, high = min + min/2.
            None => (min + min / 4, min + min / 2),
        };
        let fr = |p: u64| p.div_ceil(scale);
        Watermarks {
            min: fr(min),
            low: fr(low),
            high: fr(high),
        }
    }
}

/// What an allocation attempt came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Alloc {
    /// A frame, and the time the allocator stalled in direct reclaim.
    Frame(u32, u64),
    /// No progress possible right now, but IO in flight will free or unlock pages: wait.
    Wait(u64),
    /// Out of memory: the OOM killer must act.
    Oom(u64),
}

impl Mm {
    /// Allocate a frame for a task at time `now` (`__alloc_pages`): fast path above low, wake
    /// kswapd, above min, else direct reclaim until the min watermark is met; 16 rounds
    /// without progress (`MAX_RECLAIM_RETRIES`) or nothing left to reclaim means OOM.
    ///
    /// With memcgs the charge comes first (`memcg_try_charge`: memory.max reclaim, memcg OOM)
    /// and memory.high is handled after it (`memcg_handle_over_high`); their time is part of
    /// the stall.
    pub fn alloc_frame(&mut self, now: u64) -> Alloc {
        if self.memcgs.only_root() {
            return self.page_alloc(now, 0);
        }
        let charge_stall = match self.memcg_try_charge(now) {
            Ok(s) => s,
            Err(a) => return a,
        };
        match self.page_alloc(now + charge_stall, charge_stall) {
            Alloc::Frame(f, stall) => {
                let high = self.memcg_handle_over_high(now + stall);
                Alloc::Frame(f, stall + high)
            }
            other => other,
        }
    }

    /// `__alloc_pages` proper; `stall` is time already spent (charging).
    fn page_alloc(&mut self, now: u64, stall0: u64) -> Alloc {
        self.now = now;
        let free = self.nr_free();
        if free > self.wmark.low {
            return Alloc::Frame(self.take_free_frame().unwrap(), stall0);
        }
        self.wake_kswapd();
        if free > self.wmark.min {
            return Alloc::Frame(self.take_free_frame().unwrap(), stall0);
        }
        let mut stall = 0u64;
        let mut no_progress = 0;
        loop {
            self.now = now + stall;
            let (reclaimed, cpu) = self.try_to_free_pages();
            stall += cpu.max(1);
            if self.nr_free() > self.wmark.min {
                return Alloc::Frame(self.take_free_frame().unwrap(), stall0 + stall);
            }
            if reclaimed == 0 {
                no_progress += 1;
            } else {
                no_progress = 0;
            }
            let hopeless = self.reclaimable_frames() + self.nr_free() <= self.wmark.min;
            if no_progress >= crate::mm::memcontrol::MAX_RECLAIM_RETRIES || hopeless {
                if let Some(t) = self.earliest_io_completion() {
                    // Writeback or reads in flight will free or unlock pages: sleep until the
                    // first completes (the kernel throttles reclaimers on writeback similarly)
                    // rather than spin, or ping-pong with other stalled tasks at one instant.
                    return Alloc::Wait(t.max(now + stall));
                }
                return Alloc::Oom(stall);
            }
        }
    }
}

impl Mm {
    /// Take a frame from the free list without any watermark check.
    #[inline]
    pub fn take_free_frame(&mut self) -> Option<u32> {
        let f = self.free.pop()?;
        self.counters.add(C::pgalloc, 1);
        let fi = f as usize;
        // `mem_cgroup_charge`: a new page belongs to the current task's memcg.
        self.frames.lruvec[fi] = self.cur_memcg;
        self.memcgs.charge(self.cur_memcg, 1);
        // No PTE copy to clear: `uninstall` cleared it before the frame was freed.
        self.frames.folio[fi].flags = 0;
        self.frames.folio[fi].mapped = 0;
        self.frames.folio[fi].young = 0;
        self.frames.vmflags[fi] = 0;
        self.frames.list[fi] = LIST_ISOLATED;
        Some(f)
    }

    /// Return a frame (already off every list and out of its space) to the free list.
    #[inline]
    pub fn free_frame(&mut self, f: u32) {
        debug_assert!(self.frames.list[f as usize] >= LIST_FREE);
        // `mem_cgroup_uncharge` when the folio is freed.
        self.memcgs.uncharge(self.frames.lruvec[f as usize], 1);
        self.frames.folio[f as usize].flags = 0;
        self.frames.writable[f as usize] = 0;
        self.frames.space[f as usize] = NIL;
        self.frames.list[f as usize] = LIST_FREE;
        self.free.push(f);
        self.counters.add(C::pgfree, 1);
    }

    /// The machine's memory in frames (`totalram_pages()`).
    pub fn totalram_frames(&self) -> u64 {
        self.frames.len() as u64
    }

    #[inline]
    pub fn nr_free(&self) -> u64 {
        self.free.len() as u64
    }

    pub fn total_frames(&self) -> u64 {
        self.frames.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn two_gigabyte_machine_matches_the_kernel_formula() {
        let pages = 2u64 << 18; // 2 GiB
        let mfk = default_min_free_kbytes(pages);
        assert_eq!(mfk, int_sqrt(2 * 1024 * 1024 * 16)); // 5792 kB
        let w = Watermarks::compute(pages, mfk, Some(10), 1);
        assert_eq!(w.min, 5792 / 4); // 1448 pages
        let gap = (pages * 10 / 10_000).max(w.min / 4); // 524
        assert_eq!((w.low, w.high), (w.min + gap, w.min + 2 * gap));
    }
    #[test]
    fn before_4_6_the_gaps_are_a_quarter_of_min() {
        // 4 GiB: min_free_kbytes = int_sqrt(4 Mi kB * 16) = 8192 kB, min = 2048 pages.
        let pages = 4u64 << 18;
        let mfk = default_min_free_kbytes(pages);
        assert_eq!(mfk, 8192);
        let old = Watermarks::compute(pages, mfk, None, 1);
        assert_eq!((old.min, old.low, old.high), (2048, 2560, 3072));
        // From 4.6 the default factor 10 gives 1048 pages, more than min/4 = 512.
        let new = Watermarks::compute(pages, mfk, Some(10), 1);
        assert_eq!((new.min, new.low, new.high), (2048, 3096, 4144));
        // high is min + min/2, not min + 2 * (min/4): 1032 kB gives min 258, high 387.
        assert_eq!(
            Watermarks::compute(pages, 1032, None, 1),
            Watermarks {
                min: 258,
                low: 322,
                high: 387
            }
        );
        // On a small machine min/4 is the larger gap either way: 64 MiB, min = 256 pages.
        let small = 16u64 << 10;
        let mfk = default_min_free_kbytes(small);
        assert_eq!(
            Watermarks::compute(small, mfk, None, 1),
            Watermarks::compute(small, mfk, Some(10), 1)
        );
    }
}

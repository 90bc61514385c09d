//! Dirty page accounting and throttling (mm/page-writeback.c): `folio_mark_dirty`,
//! `folio_clear_dirty_for_io`, the dirty thresholds (`domain_dirty_limits`) and the writer's
//! pause (`balance_dirty_pages`).
use super::mm_types::*;
use super::mmzone::Mm;
use crate::mm::fs_writeback::FLUSHER_PERIOD_NS;
use crate::mm::mmzone::Wakeup;

/// The pause of a throttled writer (`balance_dirty_pages` aims its pauses at ~10 ms, between
/// one jiffy and MAX_PAUSE = 200 ms; the simplified model retries every 10 ms).
pub const DIRTY_PAUSE_NS: u64 = 10_000_000;

impl Mm {
    /// Drop a dirty page from the dirty accounting (it was cleaned or freed). Cleaning a file
    /// page write-protects its PTEs (`folio_clear_dirty_for_io` -> `folio_mkclean`), so the
    /// next write through a mapping faults again.
    pub fn clear_dirty(&mut self, f: u32) {
        if self.frames.has(f, PG_SWAPBACKED) {
            // A dirty PTE copy must not outlive the page's dirty bit (`Space::pte_dirty`; a
            // file page has none, and keeps its read copy).
            self.pte_clear_young(f);
        }
        if self.frames.test_clear(f, PG_DIRTY) && !self.frames.has(f, PG_SWAPBACKED) {
            self.wb.nr_dirty = self.wb.nr_dirty.saturating_sub(1);
            self.frames.writable[f as usize] = 0;
        }
    }

    /// Mark a file page dirty (`folio_mark_dirty`), queueing it for the flushers: the periodic
    /// flusher run is armed (`wb_wakeup_delayed`, dirty_writeback_centisecs = 5 s), and above
    /// the background threshold background writeback starts at once (`balance_dirty_pages`).
    pub fn mark_file_dirty(&mut self, f: u32) {
        if !self.frames.has(f, PG_DIRTY) {
            self.frames.set(f, PG_DIRTY);
            if !self.frames.has(f, PG_SWAPBACKED) {
                self.wb.nr_dirty += 1;
                self.wb.dirty_fifo.push_back((f, self.now));
                if self.wb.flusher_next == u64::MAX {
                    self.wb.flusher_next = self.now + FLUSHER_PERIOD_NS;
                    self.wake_at(self.wb.flusher_next, Wakeup::Flusher);
                }
                if self.wb.nr_dirty + self.wb.nr_writeback > self.dirty_thresholds().0 {
                    self.wake_flusher();
                }
            }
        }
    }

    /// `global_dirty_limits`: (background threshold, dirty threshold) in frames, the sysctl
    /// percentages of dirtyable memory (`global_dirtyable_memory`: free + file LRU pages).
    pub fn dirty_thresholds(&self) -> (u64, u64) {
        let dirtyable =
            self.nr_free() + self.lru_size(LRU_ACTIVE_FILE) + self.lru_size(LRU_INACTIVE_FILE);
        (
            dirtyable * self.wb.dirty_background_ratio / 100,
            dirtyable * self.wb.dirty_ratio / 100,
        )
    }

    /// `balance_dirty_pages` (mm/page-writeback.c; simplified, the same in every version
    /// modelled: no per-task ratelimit or pause curve): a writer that would push dirty +
    /// writeback pages over the dirty threshold is paused (and background writeback kicked)
    /// until they fall below it; the caller sleeps and asks again, as the kernel loops.
    /// Returns the time to ask again, or None when the write may proceed.
    pub fn balance_dirty_pages(&mut self, now: u64) -> Option<u64> {
        let (bg, thresh) = self.dirty_thresholds();
        let nr = self.wb.nr_dirty + self.wb.nr_writeback;
        if nr > bg {
            self.wake_flusher();
        }
        (nr >= thresh.max(1)).then(|| now + DIRTY_PAUSE_NS)
    }
}

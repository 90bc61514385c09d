//! The flusher threads (fs/fs-writeback.c): `wb_wakeup`, `wb_workfn` / `wb_writeback`
//! writing dirty file pages back in the order they were dirtied, a chunk at a time.
use super::mmzone::Mm;
use crate::mm::mmzone::Wakeup;

/// dirty_writeback_centisecs default (500): the flushers' periodic run.
pub const FLUSHER_PERIOD_NS: u64 = 5_000_000_000;

impl Mm {
    /// `wakeup_flusher_threads` / `wb_start_background_writeback`: run the flushers now unless
    /// they are already running (writing chunks or asleep for a request tag: they look for more
    /// work before they stop).
    pub fn wake_flusher(&mut self) {
        if self.flusher_next > self.now && !self.flusher_busy {
            self.flusher_next = self.now;
            self.wake_at(self.now, Wakeup::Flusher);
        }
    }
}

//! The flusher threads (fs/fs-writeback.c): `wb_wakeup`, `wb_workfn` / `wb_writeback`
//! writing dirty file pages back in the order they were dirtied, a chunk at a time.
use super::mm_types::*;
use super::mmzone::{IoReq, Mm};
use super::vmstat::C;
use crate::mm::mmzone::Wakeup;

/// dirty_writeback_centisecs default (500): the flushers' periodic run.
pub const FLUSHER_PERIOD_NS: u64 = 5_000_000_000;

/// The writeback state of the one device-independent writeback context the model has (the
/// kernel's `struct bdi_writeback`, include/linux/backing-dev-defs.h, with the node's
/// NR_FILE_DIRTY / NR_WRITEBACK counts and the global dirty limits of mm/page-writeback.c).
#[derive(Debug, Clone)]
pub struct Writeback {
    /// Dirty file pages in the order they were dirtied (frame, time), the kernel's `b_dirty`
    /// by dirtied_when; stale entries skipped.
    pub dirty_fifo: std::collections::VecDeque<(u32, u64)>,
    pub nr_dirty: u64,
    pub nr_writeback: u64,
    /// The flushers are writing everything (`WB_start_all`).
    pub flush_all: bool,
    /// Pages the flushers were asked to write (4.10 direct reclaim wakeup).
    pub flush_pages: u64,
    /// The time of the one pending flusher event that counts (u64::MAX: none); flusher
    /// events at other times are stale and ignored.
    pub flusher_next: u64,
    /// The flushers are at work (writing chunk after chunk, or asleep for a request tag); a
    /// wakeup finds them running and changes nothing.
    pub flusher_busy: bool,
    /// Pages of the current chunk (frame, space, index) whose request has not gone out yet:
    /// the flusher sleeps for a request tag. They stay dirty until it does.
    pub flusher_pending: Vec<(u32, u32, u32)>,
    /// vm.dirty_ratio and vm.dirty_background_ratio (percent of dirtyable memory).
    pub dirty_ratio: u64,
    pub dirty_background_ratio: u64,
}

impl Default for Writeback {
    fn default() -> Self {
        Writeback {
            dirty_fifo: Default::default(),
            nr_dirty: 0,
            nr_writeback: 0,
            flush_all: false,
            flush_pages: 0,
            flusher_next: u64::MAX,
            flusher_busy: false,
            flusher_pending: Vec::new(),
            dirty_ratio: 20,
            dirty_background_ratio: 10,
        }
    }
}

impl Mm {
    /// `wakeup_flusher_threads` / `wb_start_background_writeback`: run the flushers now unless
    /// they are already running (writing chunks or asleep for a request tag: they look for more
    /// work before they stop).
    pub fn wake_flusher(&mut self) {
        if self.wb.flusher_next > self.now && !self.wb.flusher_busy {
            self.wb.flusher_next = self.now;
            self.wake_at(self.now, Wakeup::Flusher);
        }
    }
}

/// dirty_expire_centisecs: the flushers write pages dirty for longer than 30 s.
const EXPIRE_NS: u64 = 30_000_000_000;

impl Mm {
    /// The flusher threads (`wb_workfn` / `wb_writeback`): write back dirty file pages in the
    /// order they were dirtied, a chunk at a time: all of them when asked to (reclaim), the
    /// number asked for, the rest while over the background threshold, and pages dirtied more
    /// than dirty_expire (30 s) ago on the periodic run every dirty_writeback interval (5 s).
    /// Background writeback does not wait for a chunk to complete (WB_SYNC_NONE): it goes on
    /// to the next while there is work, and the device's speed holds it back through the
    /// request tags: a chunk's requests go out only as tags free (`blk_mq_get_tag`,
    /// `Device::write_tag_wait`). One flusher serves every device (the kernel has one per
    /// device), so a chunk's pages for a fast device wait behind a slow one's tags.
    pub fn wb_workfn(&mut self, t: u64) {
        if self.wb.flusher_next != t {
            return; // stale
        }
        let bg = self.dirty_thresholds().0;
        if self.wb.flusher_pending.is_empty() {
            self.take_writeback_chunk(t, bg);
        }
        // A chunk with pages (new, or left from a tag sleep): the flusher looks for more after.
        let wrote = !self.wb.flusher_pending.is_empty();
        // The chunk's requests go out until the device has no free tag; the flusher sleeps
        // until a request completes and goes on with the rest.
        if let Some(at) = self.submit_writeback(t) {
            self.wb.flusher_busy = true;
            self.wb.flusher_next = at.max(t + 1);
            self.wake_at(self.wb.flusher_next, Wakeup::Flusher);
            return;
        }
        let expired = self
            .wb
            .dirty_fifo
            .front()
            .is_some_and(|&(_, d)| d + EXPIRE_NS <= t);
        let more = self.wb.flush_all || self.wb.flush_pages > 0 || self.wb.nr_dirty > bg || expired;
        self.wb.flusher_busy = wrote && more;
        self.wb.flusher_next = if wrote && more {
            t + 1
        } else if !self.wb.dirty_fifo.is_empty() {
            t + FLUSHER_PERIOD_NS
        } else {
            u64::MAX
        };
        if self.wb.flusher_next != u64::MAX {
            self.wake_at(self.wb.flusher_next, Wakeup::Flusher);
        }
    }

    /// One chunk of writeback: the oldest dirty pages, taken while they are expired or the
    /// flushers were asked or are over the background threshold, left dirty in
    /// `flusher_pending` until their request goes out. The chunk is MIN_WRITEBACK_PAGES
    /// (1024 pages), the floor of `writeback_chunk_size`; the kernel's grows to half a second
    /// of the device's bandwidth, but with chunks submitted back to back its size only sets how
    /// often the thresholds are checked.
    fn take_writeback_chunk(&mut self, t: u64, bg: u64) {
        const MIN_WRITEBACK_PAGES: u64 = 1024;
        let chunk = (MIN_WRITEBACK_PAGES / self.scale).max(1) as usize;
        let mut batch = Vec::new();
        // Background writeback checks the threshold between chunks (`wb_over_bg_thresh`).
        let over = self.wb.nr_dirty > bg;
        let mut budget = self.wb.dirty_fifo.len();
        while batch.len() < chunk && budget > 0 {
            budget -= 1;
            let Some(&(f, dirtied)) = self.wb.dirty_fifo.front() else {
                break;
            };
            let asked = self.wb.flush_all || self.wb.flush_pages > 0;
            if !(asked || over || dirtied + EXPIRE_NS <= t) {
                break;
            }
            self.wb.dirty_fifo.pop_front();
            if self.frames.has(f, PG_DIRTY)
                && !self.frames.has(f, PG_SWAPBACKED)
                && !self.frames.has(f, PG_WRITEBACK)
            {
                self.wb.flush_pages = self.wb.flush_pages.saturating_sub(1);
                let fi = f as usize;
                batch.push((f, self.frames.space[fi], self.frames.index[fi]));
            } else if self.frames.has(f, PG_DIRTY) && !self.frames.has(f, PG_SWAPBACKED) {
                // Redirtied while under writeback: written again once that completes.
                self.wb.dirty_fifo.push_back((f, dirtied));
            }
        }
        if self.wb.dirty_fifo.is_empty() {
            self.wb.flush_all = false;
            self.wb.flush_pages = 0;
        }
        // In file order, the first at the end: `submit_writeback` takes them from there.
        batch.sort_unstable_by_key(|&(_, sp, idx)| std::cmp::Reverse((sp, idx)));
        self.wb.flusher_pending = batch;
    }

    /// Write back the chunk's pages (`flusher_pending`: frame, space, index, in file order from
    /// the end), merging runs contiguous in their file into requests of up to the device's
    /// `max_request_pages`, while the device has free tags. A page is put under writeback as
    /// its request goes out (`write_cache_pages`), so until then a redirty costs nothing; a
    /// page no longer dirty, already under writeback (a page the dirty FIFO listed twice) or
    /// no longer the same page (truncated, dropped, reused) is passed over. Returns, if the
    /// flusher must sleep, when a tag frees on the device that stopped it.
    fn submit_writeback(&mut self, t: u64) -> Option<u64> {
        let mm = self;
        let to_write = |mm: &Mm, (f, sp, idx): (u32, u32, u32)| {
            let fi = f as usize;
            mm.frames.space[fi] == sp
                && mm.frames.index[fi] == idx
                && mm.frames.has(f, PG_DIRTY)
                && !mm.frames.has(f, PG_WRITEBACK | PG_SWAPBACKED)
        };
        loop {
            while let Some(&e) = mm.wb.flusher_pending.last() {
                if to_write(mm, e) {
                    break;
                }
                mm.wb.flusher_pending.pop();
            }
            let &(_, sp, first) = mm.wb.flusher_pending.last()?;
            let dev = mm.spaces[sp as usize].device;
            if let Some(at) = mm.devices[dev].write_tag_wait(t) {
                return Some(at);
            }
            let max_frames = match mm.devices[dev].max_request_pages {
                0 => usize::MAX,
                pages => (pages / mm.scale).max(1) as usize,
            };
            let mut frames = mm.io_frames();
            while let Some(&e) = mm.wb.flusher_pending.last() {
                let next = first as u64 + frames.len() as u64;
                if frames.len() == max_frames || e.1 != sp || e.2 as u64 != next || !to_write(mm, e)
                {
                    break;
                }
                mm.wb.flusher_pending.pop();
                mm.clear_dirty(e.0);
                mm.frames.set(e.0, PG_WRITEBACK);
                mm.wb.nr_writeback += 1;
                frames.push(e.0);
            }
            let n = frames.len() as u64;
            let base = mm.spaces[sp as usize].lba;
            mm.counters.add(C::pgpgout, n);
            let done = mm.devices[dev].submit(
                t,
                (base + first as u64) * mm.scale,
                n * mm.scale,
                crate::devices::IoDir::Write,
            );
            mm.submit_io(IoReq::Write { frames }, done);
        }
    }
}

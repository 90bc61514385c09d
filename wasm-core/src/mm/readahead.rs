//! Readahead (mm/readahead.c): the mmap read-around and sequential windows
//! (`page_cache_ra_order`, `page_cache_async_ra`), the PG_readahead mark and, for a read() that
//! is not sequential, the context readahead (`try_context_readahead`).
use super::mm_types::*;
use super::mmzone::Mm;
use super::vmstat::C;
use crate::devices::IoDir;

/// Default readahead window (`read_ahead_kb` = 128 KiB).
pub const RA_PAGES: u64 = 32;

/// The readahead state of a file's mapped pages (`struct file_ra_state`): one per file, shared
/// by its mappings, where the kernel's `f_ra` is per open file (the same where one fd maps the
/// file, as in the validation runs): the last window, in frames, and the part of it that was
/// asynchronous; the page `start + size - async_size` carries the window's PG_readahead mark.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FileRa {
    pub start: u64,
    pub size: u64,
    pub async_size: u64,
}

/// Readahead window shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readahead {
    /// mmap read-around: a window centred on the fault.
    Around,
    /// Sequential: a window from the page forward.
    Forward,
    /// Just the page (MADV_RANDOM, POSIX_FADV_RANDOM).
    None,
    /// A read() that is not sequential: the page, or a window forward from it when the page
    /// cache holds what a sequential stream would have left just before it (`Mm::context_window`).
    Context,
}

impl Readahead {
    /// The window a page fault on `vma` reads (`do_sync_mmap_readahead`, mm/filemap.c, every
    /// version modelled): just the page for MADV_RANDOM (and a VM_LOCKED mapping, whose pages
    /// this model faults one by one), forward for MADV_SEQUENTIAL, read-around otherwise.
    pub fn for_fault(vma: &Vma) -> Readahead {
        if vma.vmflags & VM_LOCKED != 0 || vma.advice == Madvise::Random {
            Readahead::None
        } else if vma.advice == Madvise::Sequential {
            Readahead::Forward
        } else {
            Readahead::Around
        }
    }

    /// The window a read() reads (`page_cache_sync_ra`, mm/readahead.c, every version
    /// modelled): none for POSIX_FADV_RANDOM (FMODE_RANDOM), forward for a sequential stream
    /// (`sequential`: the reader's own order, which the kernel's `file_ra_state` detects) or
    /// POSIX_FADV_SEQUENTIAL, otherwise the context readahead.
    pub fn for_read(advice: Madvise, sequential: bool) -> Readahead {
        match (advice, sequential) {
            (Madvise::Random, _) => Readahead::None,
            (_, true) => Readahead::Forward,
            (Madvise::Sequential, _) => Readahead::Forward,
            _ => Readahead::Context,
        }
    }
}

impl Mm {
    /// Submit one read request per contiguous run of the pages just added (locked, no IO yet)
    /// in `start..start + n`, at time `t`; returns when the run holding page `idx` completes.
    pub(crate) fn submit_new_pages(
        &mut self,
        sp: u32,
        start: u64,
        n: u64,
        t: u64,
        idx: u64,
    ) -> Option<u64> {
        let scale = self.scale;
        let dev = self.spaces[sp as usize].device;
        let base = self.spaces[sp as usize].lba;
        let mut wait_until = None;
        let mut p = start;
        while p < start + n {
            let is_new = |mm: &Mm, q: u64| {
                let f = mm.spaces[sp as usize].page(q as usize);
                f != NIL && mm.frames.has(f, PG_LOCKED) && mm.ready_at[f as usize] == u64::MAX
            };
            if !is_new(self, p) {
                p += 1;
                continue;
            }
            let first = p;
            let mut frames = self.io_frames();
            while p < start + n && is_new(self, p) {
                frames.push(self.spaces[sp as usize].page(p as usize));
                p += 1;
            }
            let pages = frames.len() as u64;
            self.counters.add(C::pgpgin, pages);
            let done =
                self.devices[dev].submit(t, (base + first) * scale, pages * scale, IoDir::Read);
            if (first..p).contains(&idx) {
                wait_until = Some(done);
            }
            self.finish_read(frames, done);
        }
        wait_until
    }

    /// A read() reached page `m` of file space `sp`, which carries the readahead marker
    /// (`page_cache_async_readahead`, every version modelled): the next window, up to 128 KiB
    /// from the first page not cached after `m` (as `ondemand_readahead` does for a marker hit
    /// without the expected state), is read without waiting, its first page marked in turn so
    /// that a sequential reader keeps one window in flight ahead of it. Best effort, like all
    /// readahead: no direct reclaim, but kswapd is woken at the low watermark, and the pages
    /// count towards the memcg's memory.high (`mem_cgroup_handle_over_high` on the way back to
    /// user space). `hi` bounds the window (the read's file range). Returns the time memory.high
    /// throttling adds to the read, and when the window's read completes (None: no window).
    pub fn async_readahead(&mut self, sp: u32, m: u64, hi: u64, now: u64) -> (u64, Option<u64>) {
        let window = (RA_PAGES / self.scale).max(1);
        let limit = hi.min(self.spaces[sp as usize].eof);
        let mut start = m + 1;
        while start < limit
            && start <= m + window
            && self.spaces[sp as usize].page(start as usize) != NIL
        {
            start += 1;
        }
        if start >= limit || start > m + window {
            return (0, None);
        }
        let n = window.min(limit - start);
        self.now = now;
        let added = self.add_readahead_pages(sp, start, n);
        if added == 0 {
            return (0, None);
        }
        // `start` is the first page not cached: the window's first new page.
        let first = self.spaces[sp as usize].page(start as usize);
        self.frames.set(first, PG_RA_MARK);
        let done = self.submit_new_pages(sp, start, n, now, start);
        (self.memcg_over_high_after(now, added * self.scale), done)
    }

    /// A fault found page `idx` of mapped file `sp` in the page cache with the PG_readahead
    /// mark (`do_async_mmap_readahead` -> `page_cache_async_ra`, mm/readahead.c, read in the
    /// 6.1.192, 6.12.117 and 7.3.4 trees; `ondemand_readahead` in 6.1), with
    /// `mmap_readaround_async`: the mark is cleared; where `idx` is where the file's last
    /// window put its mark (`start + size - async_size`), the next window follows that window
    /// (`start += size`); otherwise (another stream of the same file moved the state, as two
    /// mappings touched in turn do) it starts at the first page not cached within one window
    /// after `idx` (`page_cache_next_miss`), and with none there no window is read. The window
    /// is the whole 128 KiB (the fault asks for `ra_pages`, so `get_next_ra_size` gives the
    /// maximum), all of it asynchronous, its first page marked only if this window adds it
    /// (`page_cache_ra_unbounded` marks no folio that was already cached): a window that
    /// starts on a cached page ends the chain, and the next miss is a major fault. Pages are
    /// added best effort (`add_readahead_pages`). Returns the time memory.high throttling adds
    /// and when the window's read completes (None: no window).
    pub fn mmap_async_ra(&mut self, sp: u32, idx: u64, now: u64) -> (u64, Option<u64>) {
        let window = (RA_PAGES / self.scale).max(1);
        let eof = self.spaces[sp as usize].eof;
        let ra = self.spaces[sp as usize].file_ra;
        let start = if idx == ra.start + ra.size - ra.async_size {
            ra.start + ra.size
        } else {
            let space = &self.spaces[sp as usize];
            match (idx + 1..=idx + window).find(|&p| p >= eof || space.page(p as usize) == NIL) {
                Some(p) => p,
                None => return (0, None),
            }
        };
        self.spaces[sp as usize].file_ra = FileRa {
            start,
            size: window,
            async_size: window,
        };
        if start >= eof {
            return (0, None);
        }
        let n = window.min(eof - start);
        self.now = now;
        let fresh = self.spaces[sp as usize].page(start as usize) == NIL;
        let added = self.add_readahead_pages(sp, start, n);
        if added == 0 {
            return (0, None);
        }
        if fresh {
            let first = self.spaces[sp as usize].page(start as usize);
            if first != NIL {
                self.frames.set(first, PG_RA_MARK);
            }
        }
        self.submit_new_pages(sp, start, n, now, u64::MAX);
        // When the window's last read completes: what a synchronous device's fault waits for.
        let done = (start..start + n)
            .map(|p| self.spaces[sp as usize].page(p as usize))
            .filter(|&f| f != NIL && self.frames.has(f, PG_LOCKED))
            .map(|f| self.ready_at[f as usize])
            .max();
        (self.memcg_over_high_after(now, added * self.scale), done)
    }

    /// A free frame for one more readahead page (file or swap), or None when there is no room:
    /// at or below the min watermark (readahead does not reclaim here, the faulting page's
    /// allocation did) or over the memcg's memory.max (the kernel drops a readahead page whose
    /// charge fails). Like every page allocation (`get_page_from_freelist` against the low
    /// watermark, then `wake_all_kswapds` in `__alloc_pages_slowpath`, every version
    /// modelled), one that finds free memory at or below the low watermark wakes kswapd first;
    /// nothing checks again after a window's last page.
    pub fn readahead_frame(&mut self) -> Option<u32> {
        if self.nr_free() <= self.wmark.low {
            self.wake_kswapd();
        }
        if self.nr_free() <= self.wmark.min || self.memcgs.over_max(self.cur_memcg, 1).is_some() {
            return None;
        }
        self.take_free_frame()
    }

    /// Add the pages of `start..start + n` not in the cache yet, as best-effort readahead
    /// (`readahead_frame`: above the min watermark and within memory.max, no reclaim, kswapd
    /// woken as `readahead_gfp_mask` keeps __GFP_KSWAPD_RECLAIM). Returns how many were added.
    pub(crate) fn add_readahead_pages(&mut self, sp: u32, start: u64, n: u64) -> u64 {
        let mut added = 0;
        for p in start..start + n {
            if self.spaces[sp as usize].page(p as usize) != NIL {
                continue;
            }
            let Some(f) = self.readahead_frame() else {
                break;
            };
            self.add_cache_page(f, sp, p);
            added += 1;
        }
        added
    }

    /// How many frames a non-sequential read() of frame `idx` brings in, counted in 4 KiB pages
    /// as 5.8's `ondemand_readahead` does for a request of one frame with no usable readahead
    /// state (context readahead dates from 2.6.31, older than every preset). A read at the
    /// file's start gets the initial window (`get_init_ra_size`). Elsewhere
    /// `try_context_readahead` counts the pages cached contiguously just before the request
    /// (`count_history_pages`, up to the 128 KiB window); when there are more of them than the
    /// request, it reads forward history + request (the history doubled when it reaches back to
    /// the file's start), up to the window and the end of the file. Fewer, and it is a
    /// standalone small random read of the request alone. Abstracted: the per-open-file state
    /// (`prev_pos` sequential detection, the context window's own `PG_readahead` marker).
    pub fn context_window(&self, sp: u32, idx: u64) -> u64 {
        let scale = self.scale;
        let space = &self.spaces[sp as usize];
        let eof = space.eof.max(idx + 1) - idx;
        let req = scale;
        let size = if idx == 0 {
            let r = req.next_power_of_two();
            if r <= RA_PAGES / 32 {
                4 * r
            } else if r <= RA_PAGES / 4 {
                2 * r
            } else {
                RA_PAGES
            }
        } else {
            let max_frames = (RA_PAGES / scale).max(1);
            let history = (1..=max_frames.min(idx))
                .take_while(|&back| space.page((idx - back) as usize) != NIL)
                .count() as u64
                * scale;
            if history <= req {
                return 1;
            }
            let history = if history >= idx * scale {
                2 * history
            } else {
                history
            };
            (history + req).min(RA_PAGES)
        };
        (size / scale).max(1).min(eof)
    }
}

//! The page cache (mm/filemap.c): `filemap_fault`, buffered `read()` and `write()`
//! (`filemap_read`, `generic_perform_write`), adding pages to and removing them from a mapping,
//! and the end of IO (`folio_end_read`, `folio_end_writeback`).
use super::memory::{Access, VmFault};
use super::mm_types::*;
use super::mmzone::{IoReq, Mm};
use super::vmstat::C;
use crate::devices::IoDir;
use crate::mm::memory::WRITE_COPY_NS;
use crate::mm::memory::{FaultOutcome, FaultWait, MAJOR_FAULT_NS, READ_COPY_NS};
use crate::mm::page_alloc::Alloc;
use crate::mm::readahead::RA_PAGES;
use crate::mm::readahead::{FileRa, Readahead};

impl Mm {
    /// A page fault on a file page that is not in the page cache (`filemap_fault`, mm/filemap.c,
    /// every version modelled): pgfault, and pgmajfault when it reads (not for read(), which
    /// calls `file_read` itself).
    pub fn filemap_fault(
        &mut self,
        sp: u32,
        idx: u64,
        ra: Readahead,
        lo: u64,
        hi: u64,
        now: u64,
    ) -> FaultOutcome {
        self.count_pgfault();
        let out = self.file_read(sp, idx, ra, lo, hi, now, false);
        self.mm_account_fault(out)
    }

    /// Read pages of file space `sp` around `idx` into the page cache (locked until the IO
    /// completes); the faulting page is `idx`. The faulting page is allocated like any page
    /// (it may stall in direct reclaim, wait, or need the OOM killer); the rest of the window
    /// is best effort without direct reclaim (it stops at the min watermark or the memcg's
    /// memory.max), as `readahead_gfp_mask` (`__GFP_NORETRY`) makes readahead give up rather
    /// than push hard; readahead pages that take free memory to the low watermark wake kswapd
    /// (`readahead_gfp_mask` keeps __GFP_KSWAPD_RECLAIM). For a read() (`read_call`), a forward
    /// (sequential) window puts its PG_readahead marker on the page after `idx`
    /// (`ondemand_readahead`'s initial window: async_size = size - request), where a later
    /// read() starts the next window (`async_readahead`); a window of one frame (a request of
    /// the whole 128 KiB) has its marker inside the request, so the next window goes out at
    /// once. Returns when the faulting page's IO completes, a major outcome (pgmajfault is the
    /// page fault's to count, `filemap_fault`, not read()'s).
    #[allow(clippy::too_many_arguments)]
    pub fn file_read(
        &mut self,
        sp: u32,
        idx: u64,
        ra: Readahead,
        lo: u64,
        hi: u64,
        now: u64,
        read_call: bool,
    ) -> FaultOutcome {
        let window = (RA_PAGES / self.scale).max(1);
        let (start, n) = match ra {
            Readahead::None => (idx, 1),
            Readahead::Forward => (idx, window.min(hi - idx)),
            Readahead::Around if self.flags.mmap_readaround_async => {
                // The file's window, not the mapping's (`do_sync_mmap_readahead` bounds it by
                // the file only).
                let s = idx.saturating_sub(window / 2);
                (s, window)
            }
            Readahead::Around => {
                let s = idx.saturating_sub(window / 2).max(lo);
                (s, window.min(hi - s))
            }
            Readahead::Context => (idx, self.context_window(sp, idx)),
        };
        // Readahead stops at the end of the file (a truncated one is shorter than its space).
        let n = n.min(self.spaces[sp as usize].eof.max(idx + 1) - start);
        let stall = match self.alloc_frame(now) {
            Alloc::Frame(f, stall) => {
                self.add_cache_page(f, sp, idx);
                stall
            }
            Alloc::Wait(t) => return FaultOutcome::waits_in_fault(Access::Wait(t)),
            Alloc::Oom(_) => return FaultOutcome::minor(Access::Oom),
        };
        self.add_readahead_pages(sp, start, n);
        if ra == Readahead::Around && self.flags.mmap_readaround_async {
            // `do_sync_mmap_readahead`: the file's readahead state becomes this window with
            // async_size = ra_pages / 4, and the page that far from the window's end is marked
            // if this window added it (`page_cache_ra_unbounded` marks only a folio it
            // allocates); `Mm::mmap_async_ra` goes on from there.
            let async_size = window - (RA_PAGES - RA_PAGES / 4) / self.scale;
            self.spaces[sp as usize].file_ra = FileRa {
                start,
                size: window,
                async_size,
            };
            let m = start + window - async_size;
            if m < start + n {
                let f = self.spaces[sp as usize].page(m as usize);
                if f != NIL && self.ready_at[f as usize] == u64::MAX {
                    self.frames.set(f, PG_RA_MARK);
                }
            }
        }
        let marked = read_call && ra == Readahead::Forward && n > 1 && {
            // The initial window's marker, one request past the page read (`ondemand_readahead`:
            // async_size = size - req), on a page this read added: reaching it starts the next
            // window.
            let next = self.spaces[sp as usize].page(idx as usize + 1);
            let fresh = next != NIL && self.ready_at[next as usize] == u64::MAX;
            if fresh {
                self.frames.set(next, PG_RA_MARK);
            }
            fresh
        };
        let t = now + stall + MAJOR_FAULT_NS;
        let mut wait_until = self.submit_new_pages(sp, start, n, t, idx).unwrap_or(t);
        if read_call && ra == Readahead::Forward && window == 1 && !marked {
            let (throttle, _) = self.async_readahead(sp, idx, hi, t);
            wait_until = wait_until.max(t + throttle);
        }
        // Up to 5.0 a synchronous device (pmem, ramdisk) has read the page before
        // `lock_page_or_retry`, so the fault goes on; from 5.1 the fault dropped the mmap lock
        // for the IO and retries anyway.
        let dev = self.spaces[sp as usize].device;
        FaultOutcome {
            access: Access::Wait(wait_until),
            major: true,
            wait_in_fault: self.devices[dev].synchronous && !self.flags.filemap_fault_drop_mmap,
        }
    }

    /// Add a new, locked page to the page cache and the LRU (`filemap_add_folio`), after the
    /// refault check of its shadow entry.
    pub(crate) fn add_cache_page(&mut self, f: u32, sp: u32, p: u64) {
        self.frames.folio[f as usize].flags = PG_LOCKED;
        self.ready_at[f as usize] = u64::MAX;
        let shadow = self.spaces[sp as usize].take_shadow(p as usize);
        self.install(f, sp, p as u32);
        if shadow != 0 {
            self.workingset_refault(f, shadow);
        }
        self.lru_add_new(f);
    }

    /// Register a read completing at `done` for locked frames.
    pub(crate) fn finish_read(&mut self, frames: Vec<u32>, done: u64) {
        for &f in &frames {
            self.ready_at[f as usize] = done;
        }
        self.submit_io(IoReq::Read { frames }, done);
    }

    /// An IO request completed.
    pub fn complete_io(&mut self, id: u32) {
        let req = self.take_io(id);
        self.finish_io(req);
    }

    /// What completing a request does to its pages.
    pub fn finish_io(&mut self, req: Option<IoReq>) {
        match req {
            Some(IoReq::Read { frames }) => {
                for &f in &frames {
                    self.frames.clear(f, PG_LOCKED);
                    if self.frames.space[f as usize] != NIL
                        && self.spaces[self.frames.space[f as usize] as usize].dead
                    {
                        self.drop_page(f);
                    }
                }
                self.recycle_io_frames(frames);
            }
            Some(IoReq::Write { frames }) => {
                for &f in &frames {
                    let dead = self.frames.space[f as usize] != NIL
                        && self.spaces[self.frames.space[f as usize] as usize].dead;
                    self.end_writeback(f);
                    // A dead owner's page is freed here, unless reclaim holds it isolated
                    // (a write completed while the pass sleeps for a request tag): then
                    // reclaim frees it when it reaches it (`remove_mapping`).
                    let list = self.frames.list[f as usize];
                    if dead && list != LIST_FREE && list != LIST_ISOLATED {
                        self.drop_page(f);
                    }
                }
                self.recycle_io_frames(frames);
            }
            None => {}
        }
    }

    /// Write a dirty file page now and return when the device completes it (O_DSYNC).
    /// A tmpfs page has nowhere to be written (`shmem_file_operations.fsync` is
    /// `noop_fsync`): done at once.
    pub fn write_sync(&mut self, sp: u32, idx: u64, now: u64) -> u64 {
        let f = self.spaces[sp as usize].page(idx as usize);
        if !self.frames.has(f, PG_DIRTY)
            || self.frames.has(f, PG_WRITEBACK)
            || self.frames.has(f, PG_SWAPBACKED)
        {
            return now;
        }
        self.clear_dirty(f);
        self.frames.set(f, PG_WRITEBACK);
        self.wb.nr_writeback += 1;
        let sp = self.frames.space[f as usize] as usize;
        let idx = self.frames.index[f as usize] as u64;
        let (dev, base) = (self.spaces[sp].device, self.spaces[sp].lba);
        self.counters.add(C::pgpgout, 1);
        let scale = self.scale;
        let done = self.devices[dev].submit(now, (base + idx) * scale, scale, IoDir::Write);
        self.submit_page_write(f, done);
        done
    }

    /// A read() of page `idx` of space `sp` (`filemap_read`, mm/filemap.c, every version
    /// modelled; a tmpfs file's `shmem_file_read_iter`), by a reader of file range `lo..hi`
    /// with advice `advice` that reads it sequentially or not: past the end of a truncated
    /// file it returns 0 bytes; a cached page that carries the readahead marker sends the
    /// next window out first (`filemap_get_pages` -> `page_cache_async_ra`), before the page
    /// is waited for or copied; a cached page is copied and marked accessed; a missing one is
    /// read with the window `Readahead::for_read` picks. A read() is no page fault: a shmem
    /// miss counts none. The op's own CPU time `cpu_ns` is added to a hit's.
    #[allow(clippy::too_many_arguments)]
    pub fn filemap_read(
        &mut self,
        sp: u32,
        idx: u64,
        lo: u64,
        hi: u64,
        advice: crate::mm::mm_types::Madvise,
        sequential: bool,
        now: u64,
        cpu_ns: u64,
    ) -> Access {
        let f = self.spaces[sp as usize].page(idx as usize);
        if idx >= self.spaces[sp as usize].eof {
            Access::Done(cpu_ns)
        } else if f != NIL {
            let mut throttle = 0;
            if self.frames.has(f, PG_RA_MARK) {
                self.frames.clear(f, PG_RA_MARK);
                throttle = self.async_readahead(sp, idx, hi, now).0;
            }
            if self.frames.has(f, PG_LOCKED) {
                Access::Wait(self.ready_at[f as usize].max(now + throttle))
            } else {
                if self.frames.folio[f as usize].flags & (PG_READAHEAD | PG_SWAPCACHE) != 0 {
                    self.swap_cache_fault(f);
                }
                self.folio_mark_accessed(f);
                Access::Done(READ_COPY_NS * self.scale + cpu_ns + throttle)
            }
        } else if self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem {
            match self.shmem_read_miss(sp, idx, now) {
                Access::Done(c) => Access::Done(c + cpu_ns),
                other => other,
            }
        } else {
            let ra = Readahead::for_read(advice, sequential);
            self.file_read(sp, idx, ra, lo, hi, now, true).access
        }
    }

    /// A fault that finds page `f` of its mapping in the page cache (`filemap_fault` ->
    /// `do_async_mmap_readahead`, mm/filemap.c, from 2.6.31, every version modelled): a page
    /// marked PG_readahead (a read-around window's with `mmap_readaround_async`, or a read()'s)
    /// sends the next window out before the fault maps or waits for it, unless the mapping is
    /// MADV_RANDOM (VM_RAND_READ): with `mmap_readaround_async` the window the file's
    /// readahead state gives (`mmap_async_ra`), before it one from the first page not cached
    /// (`async_readahead`, bounded by the end of the file). The window is read inside the page
    /// fault, with `in_lru_fault` as the mapping's fault sets it. A minor fault either way. On
    /// a synchronous device (pmem, ramdisk) the fault waits for the window, as its bios
    /// complete in the submitter. Returns the time the fault spends: memory.high throttling,
    /// or that read.
    pub fn async_mmap_readahead(&mut self, vmf: &VmFault, f: u32, now: u64) -> u64 {
        if vmf.rand_read || !self.frames.has(f, PG_RA_MARK) {
            return 0;
        }
        self.frames.clear(f, PG_RA_MARK);
        // The window is read inside the page fault (`handle_mm_fault` -> `filemap_fault`),
        // between `lru_gen_enter_fault` and `lru_gen_exit_fault`, as a missing page's is.
        let outer = std::mem::replace(&mut self.current.in_lru_fault, vmf.fault_recency);
        let (throttle, done) = if self.flags.mmap_readaround_async {
            self.mmap_async_ra(vmf.space, vmf.pgoff, now)
        } else {
            self.async_readahead(vmf.space, vmf.pgoff, u64::MAX, now)
        };
        self.current.in_lru_fault = outer;
        let dev = self.spaces[vmf.space as usize].device;
        match done {
            Some(d) if self.devices[dev].synchronous => throttle.max(d.saturating_sub(now)),
            _ => throttle,
        }
    }

    /// A fault that finds its page (frame `f` of space `sp`) locked for a read: a file or
    /// private anon fault returns VM_FAULT_RETRY from 2.6.37 (`lock_page_or_retry`,
    /// `lock_page_maybe_drop_mmap`, mm/filemap.c), counted by `handle_mm_fault` up to 6.3; a
    /// shmem fault, and any fault before, waits inside (`lock_page`) and counts once. A
    /// continuation of a fault already counted (a synchronous read that has just finished)
    /// counts nothing. Returns how the fault goes on and when the page is read.
    pub fn lock_page_or_retry(&mut self, sp: u32, f: u32) -> (FaultWait, u64) {
        let continuation = self.current.uncounted_retry;
        let wait = if self.fault_retries(sp) {
            if !continuation && !self.flags.pgfault_retry_uncounted {
                self.count_event(C::pgfault, 1);
            }
            FaultWait::Locked
        } else {
            if !continuation {
                self.count_event(C::pgfault, 1);
            }
            FaultWait::InFault
        };
        (wait, self.ready_at[f as usize])
    }

    /// Whether page `idx` of space `sp` is in the page cache, up to date or still being read
    /// (what `mincore(2)` reports of a file page: `mincore_page` -> `filemap_get_incore_folio`,
    /// mm/mincore.c and mm/swap_state.c, v6.1): a replayed request's hit or miss.
    pub fn filemap_cached(&self, sp: u32, idx: u64) -> bool {
        let s = &self.spaces[sp as usize];
        idx < s.eof && s.page(idx as usize) != NIL
    }

    /// Whether page `idx` of space `sp` is under writeback (the test of
    /// `filemap_fdatawait_range`, mm/filemap.c, every version modelled): an O_DSYNC write
    /// waits for it first.
    pub fn filemap_range_has_writeback(&self, sp: u32, idx: u64) -> bool {
        let f = self.spaces[sp as usize].page(idx as usize);
        f != NIL && self.frames.has(f, PG_WRITEBACK)
    }

    /// An O_APPEND write() of `bytes` to space `sp` (`generic_write_checks` puts it at the
    /// file's end): returns the byte position it starts at, and advances the end. With a
    /// drop-behind writer (segments of `seg` frames, 0: none), also the segment the write
    /// starts in when `drop_behind` has segments to close or drops pending there.
    pub fn append_pos(&mut self, sp: u32, bytes: u64, seg: u64) -> (u64, Option<u64>) {
        let frame_bytes = crate::devices::PAGE_BYTES * self.scale;
        let s = &mut self.spaces[sp as usize];
        let before = s.append_cursor;
        s.append_cursor += bytes;
        let mut drop = None;
        if seg > 0 {
            let at = before / (seg * frame_bytes);
            if at > s.segments_closed || !s.drop_pending.is_empty() {
                drop = Some(at);
            }
        }
        (before, drop)
    }

    pub(crate) fn file_write(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        let f = self.spaces[sp as usize].page(idx as usize);
        let redirty = f != NIL && self.frames.has(f, PG_DIRTY);
        if !redirty {
            self.now = now;
            if let Some(until) = self.balance_dirty_pages(now) {
                return Access::Throttled(until);
            }
        }
        if f != NIL {
            if self.frames.has(f, PG_LOCKED) {
                return Access::Wait(self.ready_at[f as usize]);
            }
            self.mark_file_dirty(f);
            if !self.flags.write_no_activation {
                self.folio_mark_accessed(f);
            }
            return Access::Done(WRITE_COPY_NS * self.scale);
        }
        let (f, stall) = match self.alloc_frame(now) {
            Alloc::Frame(f, s) => (f, s),
            Alloc::Wait(t) => return Access::Wait(t),
            Alloc::Oom(_) => return Access::Oom,
        };
        self.frames.folio[f as usize].flags = 0;
        self.spaces[sp as usize].clear_shadow(idx as usize);
        self.install(f, sp, idx as u32);
        self.lru_add_new(f);
        self.now = now + stall;
        self.mark_file_dirty(f);
        if !self.flags.write_no_activation {
            self.folio_mark_accessed(f);
        }
        Access::Done(stall + WRITE_COPY_NS * self.scale)
    }
}

impl Mm {
    /// Bind a frame to (space, index).
    #[inline]
    pub fn install(&mut self, f: u32, space: u32, index: u32) {
        self.frames.space[f as usize] = space;
        self.frames.index[f as usize] = index;
        let s = &mut self.spaces[space as usize];
        // An empty slot has no PTE copy (`uninstall` cleared it); nothing to clear per fault.
        debug_assert!(s.page(index as usize) == NIL || s.page(index as usize) == f);
        debug_assert!(s.pte[index as usize] | s.pte_dirty[index as usize] == 0);
        s.set_page(index as usize, f);
        s.resident += 1;
    }

    /// Unbind a frame from its space (the page is no longer resident).
    #[inline]
    pub fn uninstall(&mut self, f: u32) {
        let sp = self.frames.space[f as usize];
        if sp == NIL {
            return;
        }
        let idx = self.frames.index[f as usize] as usize;
        let s = &mut self.spaces[sp as usize];
        if s.page(idx) == f {
            s.clear_page(idx);
            if self.frames.test_clear(f, PTE_COPIED) {
                s.pte_clear(idx);
            }
            s.resident -= 1;
        }
        self.frames.space[f as usize] = NIL;
    }
}

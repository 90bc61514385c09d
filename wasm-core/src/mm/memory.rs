//! Page faults and page-cache fills: anon zero-fill and swap-in (`do_anonymous_page`,
//! `do_swap_page`), file read-around (`filemap_fault`, `do_sync_mmap_readahead`), buffered
//! read/write, and allocation with kswapd wakeup, direct reclaim and the OOM decision.
use crate::mm::vmstat::C;
use crate::mm::mm_types::*;
use crate::mm::mmzone::{Event, IoReq, Mm};
use crate::devices::IoDir;

/// CPU cost of fault handling (engine constants, the same for every variant): a minor fault
/// mapping a cached page ~0.5 us; an anon fault including clearing 4 KiB ~1 us; the kernel
/// side of a major fault (lookup, IO submission, mapping) ~5 us; copying a page in read() or
/// write() ~0.5-0.7 us. All per 4 KiB page: a frame stands for `frame_scale` pages and costs
/// `frame_scale` times as much, so virtual time does not depend on the scale. A file major
/// fault is the exception: it reads a whole readahead window, one fault at any scale.
pub const MAP_FAULT_NS: u64 = 500;
pub const ANON_FAULT_NS: u64 = 1_000;
pub const MAJOR_FAULT_NS: u64 = 5_000;
pub const READ_COPY_NS: u64 = 500;
pub const WRITE_COPY_NS: u64 = 700;
/// Default readahead window (`read_ahead_kb` = 128 KiB).
pub const RA_PAGES: u64 = 32;

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

/// What an access came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Done; CPU time spent (including any allocation stall).
    Done(u64),
    /// The task must wait until this time (IO), then retry the access.
    Wait(u64),
    Oom,
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

    /// `wakeup_kswapd`: schedule kswapd unless it is running or the node is hopeless.
    pub fn wake_kswapd(&mut self) {
        if self.kswapd.sleeping
            && self.pgdat.kswapd_failures < crate::mm::memcontrol::MAX_RECLAIM_RETRIES
        {
            self.kswapd.sleeping = false;
            if self.now < self.kswapd.slept_at + 100_000_000 {
                self.counters.add(C::kswapd_low_wmark_hit_quickly, 1);
            }
            self.schedule(self.now, Event::Kswapd);
        }
    }

    /// A page fault on an anonymous or shmem page that is not resident (`do_anonymous_page`,
    /// `do_swap_page`, `shmem_fault`): pgfault, and pgmajfault when the page comes from swap.
    pub fn fault_anon(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        self.count_pgfault();
        let res = self.anon_page_in(sp, idx, now);
        if self.last_fault_major {
            self.count_event(C::pgmajfault, 1);
        }
        res
    }

    /// Bring in an anonymous or shmem page that is not resident: swap-in if it has a swap
    /// slot, else a zero-filled page. Counts no fault: a tmpfs read()/write() comes here too
    /// (`shmem_getpage_gfp` without a `fault_type`). Sets `last_fault_major` when it reads.
    pub fn anon_page_in(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        self.last_fault_major = false;
        let f = match self.alloc_frame(now) {
            Alloc::Frame(f, stall) => (f, stall),
            Alloc::Wait(t) => {
                self.wait_in_fault = true;
                return Access::Wait(t);
            }
            Alloc::Oom(_) => return Access::Oom,
        };
        let (f, stall) = f;
        let slot = self.spaces[sp as usize].swap[idx as usize];
        self.frames.flags[f as usize] = PG_SWAPBACKED;
        if slot == NIL {
            // `do_anonymous_page`: 5.9+ inactive, before that straight onto the active list.
            // Shared anonymous memory and tmpfs come through `shmem_getpage_gfp` instead, which
            // adds the new page to the inactive anon list from 2.6.35 (`shmem_inactive_first`;
            // `lru_cache_add_anon` up to 5.7, `lru_cache_add` from 5.8), the active one before.
            let shmem = self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem;
            let active = if shmem {
                !self.flags.shmem_inactive_first
            } else {
                !self.flags.anon_workingset
            };
            if active {
                self.frames.set(f, PG_ACTIVE);
            }
            self.install(f, sp, idx as u32);
            self.lru_add_new(f);
            return Access::Done(stall + ANON_FAULT_NS * self.scale);
        }
        // `do_swap_page`: read the page back into the swap cache, with what swap readahead
        // picks around it (kernel/swap_readahead.rs), as far as there is room.
        self.last_fault_major = true;
        let shmem = self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem;
        // 4.15+ `do_swap_page` on a synchronous device (zram, pmem) with a slot of one user:
        // the page skips the swap cache and the fault's `swap_free` drops the slot's last
        // reference, so reclaim must write (compress) the page again.
        let skip = !shmem && self.swap_ra_mode(sp) == crate::mm::swap_state::SwapRa::None;
        if skip {
            self.swap_direct_read_page(f, sp, idx);
        } else {
            self.swap_cache_read_page(f, sp, idx);
        }
        if !shmem && self.flags.swapin_activate && !self.flags.anon_workingset {
            // 4.8-5.8: `do_swap_page` activates the private anon page it maps
            // (`activate_page`); shmem comes back through `shmem_swapin_page`, which leaves it
            // on the inactive list.
            self.activate_page(f);
        }
        let mut reads = vec![(slot, f)];
        for (rsp, ridx) in self.swap_readahead_targets(sp, idx, slot) {
            let Some(g) = self.readahead_frame() else {
                break;
            };
            let rslot = self.spaces[rsp as usize].swap[ridx as usize];
            self.swap_cache_read_page(g, rsp, ridx);
            self.frames.set(g, PG_READAHEAD);
            if self.flags.swap_vma_readahead {
                self.counters.add(C::swap_ra, 1);
            }
            reads.push((rslot, g));
        }
        // One request per run of consecutive slots (the plug merges them). The task waits for
        // its own page; a synchronous device (zram, pmem) does each read in the faulting task,
        // one after the other, so there it waits for them all.
        reads.sort_unstable();
        let scale = self.scale;
        let dev = self.swap.as_ref().map(|s| s.device).unwrap_or(0);
        let sync = self.devices[dev].synchronous;
        let mut t = now + stall + MAJOR_FAULT_NS * scale;
        let mut done_fault = t;
        let mut i = 0;
        while i < reads.len() {
            let mut j = i + 1;
            while j < reads.len() && reads[j].0 == reads[j - 1].0 + 1 {
                j += 1;
            }
            let pages = (j - i) as u64;
            let done =
                self.devices[dev].submit(t, reads[i].0 as u64 * scale, pages * scale, IoDir::Read);
            if sync {
                t = done;
                done_fault = done;
            } else if reads[i..j].iter().any(|&(_, g)| g == f) {
                done_fault = done;
            }
            self.finish_read(reads[i..j].iter().map(|&(_, g)| g).collect(), done);
            i = j;
        }
        if shmem {
            // `shmem_swapin_page` (every version): once read, the page goes back into the
            // shmem mapping and leaves the swap cache at once (`delete_from_swap_cache`,
            // `set_page_dirty`, `swap_free`), so reclaim must write it to swap again.
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        } else if !skip {
            // A private anon page stays in the swap cache (`do_swap_page`), unless swap is
            // more than half full.
            self.try_to_free_swap_if_full(f);
        }
        // A synchronous device has read the page before the fault goes on; otherwise
        // `lock_page_or_retry` finds it locked and the fault is retried once it is read.
        self.wait_in_fault = sync;
        Access::Wait(done_fault)
    }

    /// A page fault on a file page that is not in the page cache (`filemap_fault`): pgfault,
    /// and pgmajfault when it reads (not for read(), which calls `file_read` itself).
    pub fn file_fault(
        &mut self,
        sp: u32,
        idx: u64,
        ra: Readahead,
        lo: u64,
        hi: u64,
        now: u64,
    ) -> Access {
        self.count_pgfault();
        let res = self.file_read(sp, idx, ra, lo, hi, now, false);
        if self.last_fault_major {
            self.count_event(C::pgmajfault, 1);
        }
        res
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
    /// once. Returns when the faulting page's IO completes.
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
    ) -> Access {
        self.last_fault_major = false;
        let window = (RA_PAGES / self.scale).max(1);
        let (start, n) = match ra {
            Readahead::None => (idx, 1),
            Readahead::Forward => (idx, window.min(hi - idx)),
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
            Alloc::Wait(t) => {
                self.wait_in_fault = true;
                return Access::Wait(t);
            }
            Alloc::Oom(_) => return Access::Oom,
        };
        self.add_readahead_pages(sp, start, n);
        let marked = read_call && ra == Readahead::Forward && n > 1 && {
            // The initial window's marker, one request past the page read (`ondemand_readahead`:
            // async_size = size - req), on a page this read added: reaching it starts the next
            // window.
            let next = self.spaces[sp as usize].pages[idx as usize + 1];
            let fresh = next != NIL && self.ready_at[next as usize] == u64::MAX;
            if fresh {
                self.frames.set(next, PG_RA_MARK);
            }
            fresh
        };
        let t = now + stall + MAJOR_FAULT_NS;
        let mut wait_until = self.submit_new_pages(sp, start, n, t, idx).unwrap_or(t);
        if read_call && ra == Readahead::Forward && window == 1 && !marked {
            let throttle = self.async_readahead(sp, idx, hi, t);
            wait_until = wait_until.max(t + throttle);
        }
        // pgmajfault is the page fault's to count (`file_fault`), not read()'s.
        self.last_fault_major = true;
        // Up to 5.0 a synchronous device (pmem, ramdisk) has read the page before
        // `lock_page_or_retry`, so the fault goes on; from 5.1 the fault dropped the mmap lock
        // for the IO and retries anyway.
        let dev = self.spaces[sp as usize].device;
        self.wait_in_fault = self.devices[dev].synchronous && !self.flags.filemap_fault_drop_mmap;
        Access::Wait(wait_until)
    }

    /// Submit one read request per contiguous run of the pages just added (locked, no IO yet)
    /// in `start..start + n`, at time `t`; returns when the run holding page `idx` completes.
    fn submit_new_pages(&mut self, sp: u32, start: u64, n: u64, t: u64, idx: u64) -> Option<u64> {
        let scale = self.scale;
        let dev = self.spaces[sp as usize].device;
        let base = self.spaces[sp as usize].lba;
        let mut wait_until = None;
        let mut p = start;
        while p < start + n {
            let is_new = |mm: &Mm, q: u64| {
                let f = mm.spaces[sp as usize].pages[q as usize];
                f != NIL && mm.frames.has(f, PG_LOCKED) && mm.ready_at[f as usize] == u64::MAX
            };
            if !is_new(self, p) {
                p += 1;
                continue;
            }
            let first = p;
            let mut frames = Vec::new();
            while p < start + n && is_new(self, p) {
                frames.push(self.spaces[sp as usize].pages[p as usize]);
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
    /// throttling adds to the read.
    pub fn async_readahead(&mut self, sp: u32, m: u64, hi: u64, now: u64) -> u64 {
        let window = (RA_PAGES / self.scale).max(1);
        let limit = hi.min(self.spaces[sp as usize].eof);
        let mut start = m + 1;
        while start < limit
            && start <= m + window
            && self.spaces[sp as usize].pages[start as usize] != NIL
        {
            start += 1;
        }
        if start >= limit || start > m + window {
            return 0;
        }
        let n = window.min(limit - start);
        self.now = now;
        let added = self.add_readahead_pages(sp, start, n);
        if added == 0 {
            return 0;
        }
        // `start` is the first page not cached: the window's first new page.
        let first = self.spaces[sp as usize].pages[start as usize];
        self.frames.set(first, PG_RA_MARK);
        self.submit_new_pages(sp, start, n, now, u64::MAX);
        self.memcg_over_high_after(now, added * self.scale)
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
    fn add_readahead_pages(&mut self, sp: u32, start: u64, n: u64) -> u64 {
        let mut added = 0;
        for p in start..start + n {
            if self.spaces[sp as usize].pages[p as usize] != NIL {
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
        let pages = &self.spaces[sp as usize].pages;
        let eof = self.spaces[sp as usize].eof.max(idx + 1) - idx;
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
                .take_while(|&back| pages[(idx - back) as usize] != NIL)
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

    /// Add a new, locked page to the page cache and the LRU (`filemap_add_folio`), after the
    /// refault check of its shadow entry.
    fn add_cache_page(&mut self, f: u32, sp: u32, p: u64) {
        self.frames.flags[f as usize] = PG_LOCKED;
        self.ready_at[f as usize] = u64::MAX;
        let shadow = std::mem::take(&mut self.spaces[sp as usize].shadow[p as usize]);
        self.install(f, sp, p as u32);
        if shadow != 0 {
            self.workingset_refault(f, shadow);
        }
        self.lru_add_new(f);
    }

    /// Register a read completing at `done` for locked frames.
    fn finish_read(&mut self, frames: Vec<u32>, done: u64) {
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
                for f in frames {
                    self.frames.clear(f, PG_LOCKED);
                    if self.frames.space[f as usize] != NIL
                        && self.spaces[self.frames.space[f as usize] as usize].dead
                    {
                        self.drop_page(f);
                    }
                }
            }
            Some(IoReq::Write { frames }) => {
                for f in frames {
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
            }
            None => {}
        }
    }

    /// Write a dirty file page now and return when the device completes it (O_DSYNC).
    /// A tmpfs page has nowhere to be written (`shmem_file_operations.fsync` is
    /// `noop_fsync`): done at once.
    pub fn write_sync(&mut self, f: u32, now: u64) -> u64 {
        if !self.frames.has(f, PG_DIRTY)
            || self.frames.has(f, PG_WRITEBACK)
            || self.frames.has(f, PG_SWAPBACKED)
        {
            return now;
        }
        self.clear_dirty(f);
        self.frames.set(f, PG_WRITEBACK);
        self.nr_writeback += 1;
        let sp = self.frames.space[f as usize] as usize;
        let idx = self.frames.index[f as usize] as u64;
        let (dev, base) = (self.spaces[sp].device, self.spaces[sp].lba);
        self.counters.add(C::pgpgout, 1);
        let scale = self.scale;
        let done = self.devices[dev].submit(now, (base + idx) * scale, scale, IoDir::Write);
        self.submit_io(IoReq::Write { frames: vec![f] }, done);
        done
    }

    /// A buffered write of one page (`generic_perform_write`): find or create the page-cache
    /// page (no refault check for write allocations, `__GFP_WRITE`), copy, dirty it. Before 4.7
    /// (`write_no_activation` off) the write also marks the page accessed. The file is extended
    /// once the write is done.
    pub fn write_page(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        let res = if self.spaces[sp as usize].kind == crate::mm::space::SpaceKind::Shmem {
            self.shmem_write(sp, idx, now)
        } else {
            self.file_write(sp, idx, now)
        };
        if let Access::Done(_) = res {
            let s = &mut self.spaces[sp as usize];
            s.eof = s.eof.max(idx + 1);
        }
        res
    }

    fn file_write(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        let f = self.spaces[sp as usize].pages[idx as usize];
        let redirty = f != NIL && self.frames.has(f, PG_DIRTY);
        if !redirty {
            self.now = now;
            if let Some(until) = self.dirty_throttle(now) {
                self.throttled = true;
                return Access::Wait(until);
            }
        }
        if f != NIL {
            if self.frames.has(f, PG_LOCKED) {
                return Access::Wait(self.ready_at[f as usize]);
            }
            self.mark_file_dirty(f);
            if !self.flags.write_no_activation {
                self.mark_accessed(f);
            }
            return Access::Done(WRITE_COPY_NS * self.scale);
        }
        let (f, stall) = match self.alloc_frame(now) {
            Alloc::Frame(f, s) => (f, s),
            Alloc::Wait(t) => return Access::Wait(t),
            Alloc::Oom(_) => return Access::Oom,
        };
        self.frames.flags[f as usize] = 0;
        self.spaces[sp as usize].shadow[idx as usize] = 0;
        self.install(f, sp, idx as u32);
        self.lru_add_new(f);
        self.now = now + stall;
        self.mark_file_dirty(f);
        if !self.flags.write_no_activation {
            self.mark_accessed(f);
        }
        Access::Done(stall + WRITE_COPY_NS * self.scale)
    }

    /// A write() of one page of a tmpfs file (5.x `shmem_write_begin` ->
    /// `shmem_getpage_gfp(SGP_WRITE)`, then `shmem_write_end`). tmpfs pages are swap-backed and
    /// live on the anon LRU: a new page goes through `lru_cache_add` without PG_active, so it
    /// starts on the inactive anon list, with PG_referenced set (`__SetPageReferenced` for
    /// SGP_WRITE); a resident page is marked accessed (`mark_page_accessed` for SGP_WRITE) and
    /// loses a stale swap copy; a swapped-out page is read back first (`shmem_swapin_page`).
    /// The dirty bit carries no writeback accounting (`__set_page_dirty_no_writeback`): no
    /// dirty throttling and no flusher; reclaim writes the page to swap (`shmem_writepage`).
    /// A swap-in here is no page fault: neither pgfault nor pgmajfault.
    fn shmem_write(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        let f = self.spaces[sp as usize].pages[idx as usize];
        if f != NIL {
            if self.frames.has(f, PG_LOCKED) {
                return Access::Wait(self.ready_at[f as usize]);
            }
            // A page in the swap cache leaves it (`shmem_swapin_page`), losing its stale copy.
            if self.frames.has(f, PG_READAHEAD | PG_SWAPCACHE) {
                self.swap_cache_fault(f);
            }
            self.mark_accessed(f);
            self.frames.set(f, PG_DIRTY);
            return Access::Done(WRITE_COPY_NS * self.scale);
        }
        if self.spaces[sp as usize].swap[idx as usize] != NIL {
            return self.anon_page_in(sp, idx, now);
        }
        let (f, stall) = match self.alloc_frame(now) {
            Alloc::Frame(f, s) => (f, s),
            Alloc::Wait(t) => return Access::Wait(t),
            Alloc::Oom(_) => return Access::Oom,
        };
        self.frames.flags[f as usize] = PG_SWAPBACKED | PG_REFERENCED | PG_DIRTY;
        if !self.flags.shmem_inactive_first {
            self.frames.set(f, PG_ACTIVE);
        }
        self.install(f, sp, idx as u32);
        self.lru_add_new(f);
        self.now = now + stall;
        Access::Done(stall + WRITE_COPY_NS * self.scale)
    }

    /// A read() of one non-resident page of a tmpfs file (`shmem_file_read_iter` ->
    /// `shmem_getpage(SGP_READ)`): a swapped-out page is read back (`shmem_swapin_page`); a
    /// hole allocates nothing (the zero page is copied). Resident pages are read like cache
    /// pages (`mark_page_accessed`). The swap-in is no page fault, as in `shmem_write`.
    pub fn shmem_read_miss(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        if self.spaces[sp as usize].swap[idx as usize] != NIL {
            return self.anon_page_in(sp, idx, now);
        }
        Access::Done(READ_COPY_NS * self.scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mm::space::{Space, SpaceKind, Swap};

    /// An `Mm` of `frames` frames under `preset`, with tiny watermarks.
    fn mm(preset: &str, frames: usize) -> Mm {
        let flags = crate::variant::preset(preset).unwrap().flags;
        let w = crate::mm::page_alloc::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        Mm::new(frames, 1, flags, w)
    }

    /// Device 0: a SATA SSD (a file's or the swap's).
    fn add_ssd(m: &mut Mm) {
        m.devices.push(crate::devices::Device::default_for(
            "ssd",
            crate::scenario::DeviceKind::Ssd,
        ));
    }

    /// Take free frames until `n` are left.
    fn leave_free(m: &mut Mm, n: u64) {
        while m.nr_free() > n {
            m.take_free_frame().unwrap();
        }
    }

    /// Swap page 0 of a one-page space of `kind` out (a slot and no resident page), fault it
    /// back in, and return the new frame's flags, list, the space's slot and the free swap
    /// slots.
    fn swap_in(kind: SpaceKind) -> (u16, u8, u32, u64) {
        let mut m = mm("linux-5.8", 16);
        add_ssd(&mut m);
        m.swap = Some(Swap::new(0, 8));
        m.spaces.push(Space::new("s", kind, 1, 0, 0, u32::MAX));
        let slot = m.swap.as_mut().unwrap().alloc().unwrap();
        m.spaces[0].swap[0] = slot;
        m.spaces[0].swapped = 1;
        assert!(matches!(m.fault_anon(0, 0, 0), Access::Wait(_)));
        let f = m.spaces[0].pages[0];
        (
            m.frames.flags[f as usize],
            m.frames.list[f as usize],
            m.spaces[0].swap[0],
            m.swap.as_ref().unwrap().nr_free,
        )
    }

    #[test]
    fn a_readahead_page_wakes_kswapd_when_it_finds_free_memory_at_low() {
        // Watermarks min 1, low 2: the page taken with 3 free leaves 2 and wakes no one; the
        // next finds 2 (at low), wakes kswapd and still gets a page; the one after finds the
        // min watermark and gets none.
        let mut m = mm("linux-5.8", 8);
        leave_free(&mut m, 4);
        assert!(m.readahead_frame().is_some() && m.readahead_frame().is_some());
        assert_eq!(m.nr_free(), 2);
        assert!(
            m.kswapd.sleeping,
            "no allocation has found free memory at low yet"
        );
        assert!(m.readahead_frame().is_some());
        assert!(
            !m.kswapd.sleeping,
            "woken by the allocation that found 2 free"
        );
        assert_eq!(m.readahead_frame(), None, "at the min watermark");
    }

    #[test]
    fn a_read_around_window_that_ends_at_low_leaves_kswapd_asleep() {
        // A fault in the middle of a 64-page file reads the 32-page window around it. With 34
        // frames free, each of its 32 allocations finds more than the low watermark (2) free
        // before it takes a page, so none wakes kswapd, though 2 are left: the kernel checks
        // each allocation, not the window afterwards. The next allocation wakes it.
        let mut m = mm("linux-5.8", 40);
        add_ssd(&mut m);
        m.spaces
            .push(Space::new("f", SpaceKind::File, 64, 0, 0, u32::MAX));
        leave_free(&mut m, 34);
        let res = m.file_fault(0, 16, Readahead::Around, 0, 64, 0);
        assert!(matches!(res, Access::Wait(_)));
        assert_eq!((0..64).filter(|&p| m.spaces[0].pages[p] != NIL).count(), 32);
        assert_eq!(m.nr_free(), 2);
        assert!(m.kswapd.sleeping);
        assert!(m.readahead_frame().is_some());
        assert!(!m.kswapd.sleeping);
    }

    #[test]
    fn swap_readahead_pages_wake_kswapd_too() {
        // A swap fault on page 0 of an 8-page anon space whose pages sit in consecutive slots
        // reads neighbours ahead. With 4 frames free the faulting page's allocation (4 free)
        // and the first readahead page's (3 free) wake no one; the second readahead page finds
        // free memory at low (2) and wakes kswapd, as a file readahead page does.
        let mut m = mm("linux-5.8", 16);
        add_ssd(&mut m);
        m.swap = Some(Swap::new(0, 64));
        m.spaces
            .push(Space::new("a", SpaceKind::Anon, 8, 0, 0, u32::MAX));
        for p in 0..8 {
            let slot = m.swap.as_mut().unwrap().alloc().unwrap();
            m.spaces[0].swap[p] = slot;
        }
        m.spaces[0].swapped = 8;
        leave_free(&mut m, 4);
        assert!(matches!(m.fault_anon(0, 0, 0), Access::Wait(_)));
        let read = (0..8).filter(|&p| m.spaces[0].pages[p] != NIL).count();
        assert_eq!(
            read, 3,
            "the faulting page and two read ahead, down to the min watermark"
        );
        assert!(!m.kswapd.sleeping, "the second readahead page woke kswapd");
    }

    #[test]
    fn shmem_swap_in_leaves_the_swap_cache_private_anon_keeps_it() {
        // shmem: inactive, dirty, out of the swap cache, its slot freed (all 8 free again).
        let (flags, list, slot, nr_free) = swap_in(SpaceKind::Shmem);
        assert_eq!(list as usize, LRU_INACTIVE_ANON);
        assert_eq!(flags & (PG_SWAPCACHE | PG_DIRTY), PG_DIRTY);
        assert_eq!((slot, nr_free), (NIL, 8));
        // Private anon (5.8): activated (`activate_page`), still in the swap cache with its
        // slot, clean.
        let (flags, list, slot, nr_free) = swap_in(SpaceKind::Anon);
        assert_eq!(list as usize, LRU_ACTIVE_ANON);
        assert_eq!(flags & (PG_SWAPCACHE | PG_DIRTY), PG_SWAPCACHE);
        assert!(slot != NIL && nr_free == 7);
    }

    #[test]
    fn a_write_completed_during_reclaim_keeps_its_id_until_its_event() {
        let mut m = mm("linux-5.8", 16);
        let (f, g) = (m.take_free_frame().unwrap(), m.take_free_frame().unwrap());
        m.frames.set(f, PG_SWAPBACKED | PG_WRITEBACK);
        m.frames.set(g, PG_LOCKED);
        m.submit_io(IoReq::Write { frames: vec![f] }, 100);
        m.complete_writes_until(99);
        assert!(m.frames.has(f, PG_WRITEBACK), "not done at 99");
        m.complete_writes_until(100);
        assert!(!m.frames.has(f, PG_WRITEBACK), "done at 100");
        // The read submitted now must not take the id whose event is still queued...
        m.submit_io(IoReq::Read { frames: vec![g] }, 200);
        let Some((100, crate::mm::mmzone::Event::Io(id))) = m.pop_event() else {
            panic!("the write's event comes first");
        };
        m.complete_io(id);
        assert!(
            m.frames.has(g, PG_LOCKED),
            "the stale event completed the read"
        );
        // ...and reads are never completed early.
        m.complete_writes_until(300);
        assert!(m.frames.has(g, PG_LOCKED));
        let Some((200, crate::mm::mmzone::Event::Io(rid))) = m.pop_event() else {
            panic!("the read's event");
        };
        m.complete_io(rid);
        assert!(!m.frames.has(g, PG_LOCKED));
    }

    #[test]
    fn a_write_ending_early_leaves_an_isolated_page_to_reclaim() {
        let mut m = mm("linux-6.1", 4);
        m.spaces
            .push(Space::new("gone", SpaceKind::Anon, 1, 0, 0, u32::MAX));
        let f = m.take_free_frame().unwrap();
        m.install(f, 0, 0);
        m.frames.set(f, PG_SWAPBACKED | PG_WRITEBACK | PG_RECLAIM);
        m.frames.list[f as usize] = LIST_ISOLATED;
        m.spaces[0].dead = true;
        let free = m.nr_free();
        m.submit_io(IoReq::Write { frames: vec![f] }, 10);
        m.complete_writes_until(10);
        assert!(!m.frames.has(f, PG_WRITEBACK));
        assert_eq!(m.frames.list[f as usize], LIST_ISOLATED, "still reclaim's");
        assert_eq!(m.nr_free(), free, "not freed under reclaim's feet");
    }
}

//! Page faults and the access path (mm/memory.c): the touch of a mapped page (the young bit
//! and the PTE copy), `handle_mm_fault` and its anon zero-fill and swap-in
//! (`do_anonymous_page`, `do_swap_page`), write-protect faults (`do_wp_page`), unmapping
//! (`zap_pte_range`), and the fault-path costs. File faults are in filemap.rs, shmem's in
//! shmem.rs, allocation in page_alloc.rs.
use crate::devices::IoDir;
use crate::mm::mm_types::*;
use crate::mm::mmzone::Mm;
use crate::mm::page_alloc::Alloc;
use crate::mm::readahead::Readahead;
use crate::mm::space::{pte_dirty_ok, SpaceKind};
use crate::mm::vmstat::C;

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
/// How a page fault ended for the task that took it (the kernel's `vm_fault_t` bits, returned
/// down the fault path as the kernel returns them): what the access came to, VM_FAULT_MAJOR,
/// and whether a wait is spent inside the fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaultOutcome {
    pub access: Access,
    /// VM_FAULT_MAJOR: the fault read its page from a device.
    pub major: bool,
    /// An `Access::Wait` is time the kernel spends inside the fault (allocation throttling, a
    /// synchronous device's read); otherwise the fault returns VM_FAULT_RETRY and the task
    /// faults again once the page is read.
    pub wait_in_fault: bool,
}

/// How the kernel goes on from a page fault that has to wait, which decides whether the
/// task's retry of the access is another `handle_mm_fault` call that counts pgfault
/// (`Mm::retry_uncounted`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FaultWait {
    /// The wait is inside the fault (allocation throttling, a synchronous device's read,
    /// every shmem fault, every fault before 2.6.37): the retry continues the fault, already
    /// counted.
    InFault,
    /// The fault returned VM_FAULT_RETRY after starting a read (`Flags::fault_retry`): the
    /// retry is a new call, counted up to 6.3 (`Flags::pgfault_retry_uncounted`).
    Retry,
    /// The fault found its page locked by someone else's read and returned VM_FAULT_RETRY
    /// (counted then up to 6.3, see `Mm::lock_page_or_retry`): the retry counts as a new
    /// fault, unless this attempt was itself a continuation.
    Locked,
}

/// One access to a page of a mapping as the hit and fault paths pass it down, on the stack
/// (the kernel's `struct vm_fault`, include/linux/mm.h: the VMA's fields they read, the page
/// offset, FAULT_FLAG_WRITE).
#[derive(Clone, Copy, Debug)]
pub struct VmFault {
    pub space: u32,
    /// The page of the space (`pgoff`).
    pub pgoff: u64,
    /// The mapping's slot bit (`young`/`mapped` masks of frames).
    pub bit: u8,
    /// References through the mapping count (`vma_has_recency`).
    pub recency: bool,
    pub vmflags: u8,
    /// FAULT_FLAG_WRITE: the access stores.
    pub write: bool,
    /// VM_RAND_READ (MADV_RANDOM): no readahead, a marked page starts none.
    pub rand_read: bool,
    /// `lru_gen_enter_fault`'s `vma_has_recency` (`Vma::fault_recency`): what a fault on the
    /// mapping sets `current->in_lru_fault` to, for the readahead it starts as for its page.
    pub fault_recency: bool,
}

impl VmFault {
    /// A read of page `page` of mapping `vma` (clamped to the mapping, as a task's index of
    /// its region is).
    #[inline(always)]
    pub fn of(vma: &Vma, page: u64) -> VmFault {
        VmFault {
            space: vma.space,
            pgoff: vma.offset + page.min(vma.pages - 1),
            bit: vma.bit,
            recency: vma.recency,
            vmflags: vma.vmflags,
            write: false,
            rand_read: vma.advice == Madvise::Random,
            fault_recency: vma.fault_recency,
        }
    }
}

/// What the page-table walk of an access finds (`Mm::follow_pte`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PteLookup {
    /// A present, young PTE whose copy (`Space::pte`) answers: the frame is not read.
    Young,
    /// Resident and unlocked: a hit on frame `f`.
    Present(u32),
    /// Resident but locked for a read in flight: the access waits for it.
    Locked(u32),
    /// Not resident: a page fault.
    None,
}

/// A touch of a resident page: its CPU time, and whether it took a write fault through a
/// shared file mapping, after which the task goes through `balance_dirty_pages_ratelimited`
/// once the access is done (`fault_dirty_shared_page`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Touched {
    pub cost: u64,
    pub dirtied_shared: bool,
    /// The fault sent a readahead window out (`do_async_mmap_readahead`): new IO events, so
    /// the task's run limit must be read again before its next access.
    pub started_io: bool,
}

impl FaultOutcome {
    /// A fault that read nothing and waits, if at all, for its page's read (VM_FAULT_RETRY).
    pub fn minor(access: Access) -> FaultOutcome {
        FaultOutcome {
            access,
            major: false,
            wait_in_fault: false,
        }
    }

    /// A fault that read nothing and waits inside (allocation throttling).
    pub fn waits_in_fault(access: Access) -> FaultOutcome {
        FaultOutcome {
            access,
            major: false,
            wait_in_fault: true,
        }
    }
}

/// What an access came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Done; CPU time spent (including any allocation stall).
    Done(u64),
    /// The task must wait until this time (IO), then retry the access.
    Wait(u64),
    /// The writer sleeps in `balance_dirty_pages` until this time, then retries the access.
    Throttled(u64),
    Oom,
}

impl Mm {
    /// A page fault on an anonymous or shmem page that is not resident (`do_anonymous_page`,
    /// `do_swap_page`, `shmem_fault`): pgfault, and pgmajfault when the page comes from swap.
    pub fn fault_anon(&mut self, sp: u32, idx: u64, now: u64) -> FaultOutcome {
        self.count_pgfault();
        let out = self.anon_page_in(sp, idx, now);
        self.mm_account_fault(out)
    }

    /// pgmajfault for a fault that read its page (`mm_account_fault` from 5.9; before, the
    /// same count in `filemap_fault` and `do_swap_page`).
    pub(crate) fn mm_account_fault(&mut self, out: FaultOutcome) -> FaultOutcome {
        if out.major {
            self.count_event(C::pgmajfault, 1);
        }
        out
    }

    /// Bring in an anonymous or shmem page that is not resident: swap-in if it has a swap
    /// slot, else a zero-filled page. Counts no fault: a tmpfs read()/write() comes here too
    /// (`shmem_getpage_gfp` without a `fault_type`), and takes the outcome's access. The
    /// outcome is major when it reads.
    pub fn anon_page_in(&mut self, sp: u32, idx: u64, now: u64) -> FaultOutcome {
        let f = match self.alloc_frame(now) {
            Alloc::Frame(f, stall) => (f, stall),
            Alloc::Wait(t) => return FaultOutcome::waits_in_fault(Access::Wait(t)),
            Alloc::Oom(_) => return FaultOutcome::minor(Access::Oom),
        };
        let (f, stall) = f;
        let slot = self.spaces[sp as usize].swap[idx as usize];
        self.frames.folio[f as usize].flags = PG_SWAPBACKED;
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
            return FaultOutcome::minor(Access::Done(stall + ANON_FAULT_NS * self.scale));
        }
        // `do_swap_page`: read the page back into the swap cache, with what swap readahead
        // picks around it (mm/swap_state.rs), as far as there is room.
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
            let mut frames = self.io_frames();
            frames.extend(reads[i..j].iter().map(|&(_, g)| g));
            self.finish_read(frames, done);
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
        FaultOutcome {
            access: Access::Wait(done_fault),
            major: true,
            wait_in_fault: sync,
        }
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
}

impl Mm {
    // ---- the access path ---------------------------------------------------------------------

    /// The CPU's page-table walk for an access (no kernel function: the MMU's): a present,
    /// young PTE answers from its copy (`Space::pte`, not used by mappings with VM flags),
    /// read first so that a repeat hit reads neither the page slot nor the frame; otherwise
    /// the page slot and the frame's lock.
    #[inline(always)]
    pub fn follow_pte(&self, vmf: &VmFault) -> PteLookup {
        let s = &self.spaces[vmf.space as usize];
        let idx = vmf.pgoff as usize;
        let e = if vmf.vmflags == 0 { s.pte[idx] } else { 0 };
        if e & vmf.bit != 0 {
            return PteLookup::Young;
        }
        Self::classify(s.page(idx), &self.frames)
    }

    /// The page at `vmf`'s offset, without the PTE copy (`filemap_get_folio` on the mapping).
    #[inline]
    pub fn find_page(&self, vmf: &VmFault) -> PteLookup {
        Self::classify(
            self.spaces[vmf.space as usize].page(vmf.pgoff as usize),
            &self.frames,
        )
    }

    #[inline(always)]
    fn classify(f: u32, frames: &Frames) -> PteLookup {
        if f == NIL {
            PteLookup::None
        } else if frames.folio[f as usize].flags & PG_LOCKED == 0 {
            PteLookup::Present(f)
        } else {
            PteLookup::Locked(f)
        }
    }

    /// A hit the walk found (`PteLookup::Young` or `Present`): a young PTE's copy answers a
    /// read, and a write to a page it promises needs nothing (`pte_dirty_ok`); anything else
    /// touches the frame (`touch_page`), and the PTE copy takes what the frame now promises
    /// (also on the retry after a fault: skipping it costs a hot page one more slow hit,
    /// zipf-hit 0.62 -> 0.86 s, more than a page touched once pays to have its copy cleared by
    /// reclaim).
    #[inline(always)]
    pub fn pte_hit(&mut self, vmf: &VmFault, look: PteLookup, cpu_ns: u64, now: u64) -> Touched {
        let (sp, idx) = (vmf.space as usize, vmf.pgoff as usize);
        let f = match look {
            PteLookup::Present(f) => f,
            _ => {
                if !vmf.write || self.spaces[sp].pte_dirty[idx] & vmf.bit != 0 {
                    debug_assert!(self.pte_holds(vmf));
                    return Touched {
                        cost: cpu_ns,
                        dirtied_shared: false,
                        started_io: false,
                    };
                }
                // The slot was not read: the PTE copy answered the walk.
                self.spaces[sp].page(idx)
            }
        };
        let t = self.touch_page(vmf, f, cpu_ns, now);
        self.set_pte(vmf, f);
        t
    }

    /// A touch of resident, unlocked frame `f` through `vmf`'s mapping (every version
    /// modelled): map it on first use (`map_cached_page`), set its young bit (the MMU's
    /// accessed bit; a minor fault where the machine sets it in software, `young_fault_ns`),
    /// remember the mapping's VM flags, and on a write dirty it (`do_wp_page` where the PTE
    /// is read-only). Returns the CPU time.
    #[inline(always)]
    pub fn touch_page(&mut self, vmf: &VmFault, f: u32, cpu_ns: u64, now: u64) -> Touched {
        let fi = f as usize;
        let mut cost = cpu_ns;
        let mapped = self.frames.folio[fi].mapped & vmf.bit != 0;
        let mut started_io = false;
        if !mapped {
            let (c, io) = self.map_cached_page(vmf, f, now);
            cost += c;
            started_io = io;
        }
        if vmf.recency {
            // A write-protect fault also marks the PTE young: one fault, not a young one too.
            if self.frames.folio[fi].young & vmf.bit == 0
                && self.young_fault_ns > 0
                && cost == cpu_ns
                && !(vmf.write && self.write_protected(vmf, f))
            {
                self.count_event(C::pgfault, 1);
                cost += self.young_fault_ns;
            }
            self.frames.folio[fi].young |= vmf.bit;
            if vmf.vmflags != 0 {
                // Most mappings add no VM flag: skip the column's cache line then.
                self.frames.vmflags[fi] |= vmf.vmflags;
            }
        }
        let mut dirtied_shared = false;
        if vmf.write {
            let (c, shared) = self.write_hit(vmf, f, mapped);
            cost += c;
            dirtied_shared = shared;
        }
        Touched {
            cost,
            dirtied_shared,
            started_io,
        }
    }

    /// After a hit on frame `f`: copy into `Space::pte` what the frame now promises a repeat
    /// hit (nothing when it promises nothing: unmapped, not young, locked).
    #[inline(always)]
    fn set_pte(&mut self, vmf: &VmFault, f: u32) {
        let folio = self.frames.folio[f as usize];
        if folio.mapped & folio.young & vmf.bit == 0 || folio.flags & PG_LOCKED != 0 {
            return;
        }
        let idx = vmf.pgoff as usize;
        let s = &mut self.spaces[vmf.space as usize];
        if s.page(idx) != f {
            return;
        }
        s.pte[idx] |= vmf.bit;
        if pte_dirty_ok(folio.flags) {
            s.pte_dirty[idx] |= vmf.bit;
        }
        self.frames.folio[f as usize].flags |= PTE_COPIED;
    }

    /// What `Space::pte` promises of a page a hit trusts it for: resident, unlocked, mapped
    /// and young through the mapping's slot, and for a write a page it need not touch
    /// (checked in debug builds on every such hit).
    fn pte_holds(&self, vmf: &VmFault) -> bool {
        let f = self.spaces[vmf.space as usize].page(vmf.pgoff as usize);
        f != NIL && {
            let folio = self.frames.folio[f as usize];
            folio.flags & PG_LOCKED == 0
                && folio.mapped & vmf.bit != 0
                && folio.young & vmf.bit != 0
                && (!vmf.write || pte_dirty_ok(folio.flags))
        }
    }

    /// Whether a write to file page `f` through `vmf`'s mapping meets a read-only PTE
    /// (write-notify, see `do_wp_page`).
    #[inline(always)]
    fn write_protected(&self, vmf: &VmFault, f: u32) -> bool {
        let fi = f as usize;
        self.frames.folio[fi].flags & PG_SWAPBACKED == 0 && self.frames.writable[fi] & vmf.bit == 0
    }

    /// A write through a mapping to a resident page: file pages are dirtied for writeback,
    /// after a write-protect fault where the PTE is read-only; anon pages in the swap cache
    /// lose their now stale swap copy (`do_wp_page` reusing the page, `folio_free_swap`).
    /// Returns the fault's CPU time and whether it was a write-notify fault.
    #[inline(always)]
    fn write_hit(&mut self, vmf: &VmFault, f: u32, was_mapped: bool) -> (u64, bool) {
        if self.frames.has(f, PG_SWAPBACKED) {
            if self.frames.has(f, PG_SWAPCACHE) && !self.frames.has(f, PG_WRITEBACK) {
                self.free_swap_slot(f);
            }
            self.frames.set(f, PG_DIRTY);
            (0, false)
        } else {
            let res = if self.frames.writable[f as usize] & vmf.bit == 0 {
                (self.do_wp_page(vmf, f, was_mapped), true)
            } else {
                (0, false)
            };
            self.mark_file_dirty(f);
            res
        }
    }

    /// A write through a shared file mapping whose PTE is read-only (write-notify, 2.6.19+,
    /// every version modelled: `do_wp_page` -> `wp_page_shared`, or `do_shared_fault` when
    /// the write is what maps the page): `page_mkwrite` and the PTE made writable;
    /// `fault_dirty_shared_page`'s `balance_dirty_pages_ratelimited` is the caller's, once the
    /// access is done (`Touched::dirtied_shared`). A write-protect fault on a mapped page is a
    /// pgfault of its own; one that maps the page is the same fault. Returns its CPU time.
    #[cold]
    #[inline(never)]
    fn do_wp_page(&mut self, vmf: &VmFault, f: u32, was_mapped: bool) -> u64 {
        self.frames.writable[f as usize] |= vmf.bit;
        if was_mapped {
            self.count_pgfault();
            MAP_FAULT_NS * self.scale
        } else {
            0
        }
    }

    /// The minor fault that maps a page already in the page cache or the swap cache (the same
    /// in every version modelled: `do_read_fault`, `__do_fault` in the oldest, or
    /// `do_swap_page` finding it with `lookup_swap_cache`; kept out of the hit path). A new PTE of a shared file mapping is
    /// read-only until a write (write-notify).
    #[cold]
    #[inline(never)]
    fn map_cached_page(&mut self, vmf: &VmFault, f: u32, now: u64) -> (u64, bool) {
        self.frames.folio[f as usize].mapped |= vmf.bit;
        self.frames.writable[f as usize] &= !vmf.bit;
        self.count_pgfault();
        if self.frames.folio[f as usize].flags & (PG_READAHEAD | PG_SWAPCACHE) != 0 {
            self.swap_cache_fault(f);
        }
        let marked = self.frames.has(f, PG_RA_MARK);
        let wait = self.async_mmap_readahead(vmf, f, now);
        (MAP_FAULT_NS * self.scale + wait, marked)
    }

    /// Prefetch the PTE copy and the page slot of page `page` of mapping `vma` that the next
    /// access reads (a simulator cost, no kernel rule; no state changes). x86-64 only: wasm
    /// has no prefetch instruction, and a plain load there would stall as the real access
    /// does.
    #[inline(always)]
    pub fn prefetch_pte(&self, vma: &Vma, page: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let Some(sp) = self.spaces.get(vma.space as usize) else {
                return;
            };
            let idx = vma
                .offset
                .wrapping_add(page.min(vma.pages.saturating_sub(1))) as usize;
            // SAFETY: `_mm_prefetch` never faults, whatever the address; the pointers are
            // computed with wrapping arithmetic and never dereferenced.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(sp.pte.as_ptr().wrapping_add(idx) as *const i8);
                _mm_prefetch::<_MM_HINT_T0>(sp.slot_ptr(idx) as *const i8);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (vma, page);
    }

    // ---- page faults -------------------------------------------------------------------------

    /// A page fault on page `idx` of mapping `vma` that is not resident (`handle_mm_fault`,
    /// every version modelled): between `lru_gen_enter_fault` and `lru_gen_exit_fault` (6.1+,
    /// `Current::in_lru_fault`), an anon or shmem page is zero-filled or swapped in and mapped
    /// young (`fault_anon`); a file page is read with the window `do_sync_mmap_readahead`
    /// picks (`filemap_fault`). A page of a space that is gone (a shmem file dropped while
    /// mapped) costs nothing. The outcome's `wait_in_fault` is also set for a fault that
    /// cannot return VM_FAULT_RETRY (`fault_retries`).
    pub fn handle_mm_fault(&mut self, vma: &Vma, idx: u64, now: u64) -> FaultOutcome {
        self.current.in_lru_fault = vma.fault_recency;
        let sp = vma.space;
        let mut out = match self.spaces[sp as usize].kind {
            SpaceKind::Anon | SpaceKind::Shmem => {
                if self.spaces[sp as usize].dead {
                    FaultOutcome::minor(Access::Done(0))
                } else {
                    let out = self.fault_anon(sp, idx, now);
                    if let Access::Done(_) = out.access {
                        // The fault maps the page: young in this mapping.
                        let f = self.spaces[sp as usize].page(idx as usize) as usize;
                        self.frames.folio[f].mapped |= vma.bit;
                        self.frames.folio[f].young |= vma.bit;
                    }
                    out
                }
            }
            SpaceKind::File => {
                let ra = Readahead::for_fault(vma);
                self.filemap_fault(sp, idx, ra, vma.offset, vma.offset + vma.pages, now)
            }
        };
        self.current.in_lru_fault = false;
        out.wait_in_fault |= !self.fault_retries(sp);
        out
    }

    /// Whether a fault on space `sp` that waits for a read returns VM_FAULT_RETRY (2.6.37+,
    /// `Flags::fault_retry`, file and private anon) rather than waiting inside (`shmem_fault`
    /// always does).
    pub(crate) fn fault_retries(&self, sp: u32) -> bool {
        self.flags.fault_retry && self.spaces[sp as usize].kind != SpaceKind::Shmem
    }

    /// Whether the task's retry of an access after a wait is a continuation whose pgfault is
    /// not counted (`Current::uncounted_retry`), by how the fault that waited went on: a wait
    /// inside the fault continues it; a VM_FAULT_RETRY after a read is a new call, uncounted
    /// from 6.4 (`Flags::pgfault_retry_uncounted`, `mm_account_fault`); a locked page's retry
    /// (or an access that was no fault) keeps what the attempt was.
    pub fn retry_uncounted(&self, wait: Option<FaultWait>) -> bool {
        match wait {
            Some(FaultWait::InFault) => true,
            Some(FaultWait::Retry) => self.flags.pgfault_retry_uncounted,
            Some(FaultWait::Locked) | None => self.current.uncounted_retry,
        }
    }

    // ---- unmapping ---------------------------------------------------------------------------

    /// Unmap `vma` (munmap, a new mapping in its place, exit, the OOM killer), as
    /// `zap_pte_range` does (mm/memory.c, every version modelled): each PTE is dropped, and a
    /// young PTE of a page-cache or shmem page (not private anon) is handed to
    /// `folio_mark_accessed`, unless the mapping ignores recency (VM_SEQ_READ; from 6.3
    /// `vma_has_recency`, which also covers MADV_RANDOM and FADV_NOREUSE). So processes that
    /// exit after using shared pages promote them: shmem touched by two exiting processes is
    /// activated. A private anon mapping's pages are freed with it; returns how many.
    pub fn zap_vma(&mut self, vma: &Vma) -> u64 {
        let sp = vma.space as usize;
        let private = self.spaces[sp].kind == SpaceKind::Anon;
        for p in vma.offset..vma.offset + vma.pages {
            let f = self.spaces[sp].page(p as usize);
            if f == NIL {
                continue;
            }
            let fi = f as usize;
            if self.frames.folio[fi].mapped & vma.bit == 0 {
                continue;
            }
            let frames = &mut self.frames;
            let folio = &mut frames.folio[fi];
            folio.mapped &= !vma.bit;
            let young = folio.young & vma.bit != 0;
            folio.young &= !vma.bit;
            if folio.flags & PTE_COPIED != 0 {
                self.spaces[sp].pte_clear_slots(p as usize, vma.bit);
            }
            let none_young = folio.young == 0;
            frames.writable[fi] &= !vma.bit;
            if none_young {
                // VM_EXEC is remembered only for young mappings (`folio_referenced`).
                frames.vmflags[fi] = 0;
            }
            if young && !private && vma.recency {
                self.folio_mark_accessed(f);
            }
        }
        let space = &mut self.spaces[sp];
        space.mmaps = space.mmaps.saturating_sub(1);
        space.unmap_slot(vma.bit, vma.advice.rand_seq());
        if private && !self.spaces[sp].dead {
            self.free_space(sp)
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mm::mmzone::IoReq;
    use crate::mm::readahead::Readahead;
    use crate::mm::space::{Space, SpaceKind};
    use crate::mm::swapfile::Swap;

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
        assert!(matches!(m.fault_anon(0, 0, 0).access, Access::Wait(_)));
        let f = m.spaces[0].page(0);
        (
            m.frames.folio[f as usize].flags,
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
    fn an_async_window_from_a_fault_joins_the_youngest_generation_under_mglru() {
        // Under MGLRU a window sent out by a fault on a marked page is read inside that page
        // fault (`filemap_fault` -> `do_async_mmap_readahead`, between `lru_gen_enter_fault`
        // and `lru_gen_exit_fault`), so `folio_add_lru` makes its pages active, the youngest
        // generation, as the read-around window's of the fault that missed. Outside the
        // fault (the task's access path leaves `in_lru_fault` clear) they would be older.
        let mut m = mm("linux-6.12-mglru", 256);
        add_ssd(&mut m);
        m.spaces
            .push(Space::new("f", SpaceKind::File, 128, 0, 0, u32::MAX));
        let vma = Vma {
            space: 0,
            offset: 0,
            pages: 128,
            bit: 1,
            vmflags: 0,
            recency: true,
            fault_recency: true,
            advice: Madvise::Normal,
            live: true,
        };
        let out = m.handle_mm_fault(&vma, 0, 0);
        assert!(out.major);
        let marked = m.spaces[0].page(24);
        assert!(m.frames.has(marked, PG_RA_MARK));
        assert!(!m.current.in_lru_fault);
        m.async_mmap_readahead(&VmFault::of(&vma, 24), marked, 1_000_000);
        assert!(!m.current.in_lru_fault);
        let gen = |p: usize| m.frames.gen[m.spaces[0].page(p) as usize];
        assert!(m.spaces[0].page(32) != NIL && m.spaces[0].page(63) != NIL);
        assert_eq!((gen(32), gen(63)), (gen(0), gen(0)));
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
        let res = m.filemap_fault(0, 16, Readahead::Around, 0, 64, 0).access;
        assert!(matches!(res, Access::Wait(_)));
        assert_eq!((0..64).filter(|&p| m.spaces[0].page(p) != NIL).count(), 32);
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
        assert!(matches!(m.fault_anon(0, 0, 0).access, Access::Wait(_)));
        let read = (0..8).filter(|&p| m.spaces[0].page(p) != NIL).count();
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
        let Some((100, crate::mm::mmzone::Wakeup::Io(id))) = Some(m.wakeups.remove(0)) else {
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
        let Some((200, crate::mm::mmzone::Wakeup::Io(rid))) = Some(m.wakeups.remove(0)) else {
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

//! Swap readahead (mm/swap_state.c): a swap fault reads neighbouring swapped-out pages into
//! the swap cache along with the faulting one.
//!
//! How the neighbours are picked (`swapin_readahead`):
//! - cluster readahead (`swap_cluster_readahead`): the aligned block of swap slots around the
//!   faulting slot, whoever owns them. Used for shmem (`shmem_swapin`) and, for private anon,
//!   while a rotational swap device is in use (`swap_use_vma_readahead` is false with
//!   `nr_rotate_swap`), and for everything before 4.14 (`swap_vma_readahead` flag);
//! - VMA readahead (4.14+, `swap_vma_readahead`): the swapped-out pages around the faulting
//!   address in the same mapping and page table, otherwise;
//! - none: private anon on a synchronous device (zram, pmem, ramdisk) reads its page alone
//!   (4.15+ `do_swap_page` skips the swap cache when the slot has one user, and the slot is
//!   freed at once: `Mm::fault_anon`).
//!
//! How many (`swap_ra_adaptive`, 3.14+): a window from `__swapin_nr_pages`, fed by readahead
//! hits; before, the run of used slots around the faulting one inside the aligned block
//! (`valid_swaphandles`).
//!
//! Units: windows are worked out in frames, hits and adjacency too (the kernel counts pages).
//! `vm.page-cluster`'s 2^n pages are 2^n / scale frames (at least one), so a frame_scale of 8
//! or more leaves no room for readahead, as for file readahead's 128 KiB window
//! (`fault::RA_PAGES`). A mapping is taken to start on a page-table boundary.
use crate::mm::mm_types::*;
use crate::mm::mmzone::Mm;
use crate::mm::space::SpaceKind;
use crate::mm::swapfile::VmaRa;
use crate::mm::vmstat::C;

/// `SWAP_RA_ORDER_CEILING` (64-bit): VMA readahead reads at most 2^5 pages.
pub const SWAP_RA_ORDER_CEILING: u32 = 5;
/// `SWAP_RA_HITS_MAX`: a mapping's hit counter saturates (it has PAGE_SHIFT / 2 bits).
pub const SWAP_RA_HITS_MAX: u64 = 63;
/// Pages one page table maps (PMD_SIZE / PAGE_SIZE): VMA readahead stays inside it.
pub const PTRS_PER_PTE: u64 = 512;

/// How a swap fault picks its readahead (`swapin_readahead`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwapRa {
    /// Just the faulting page.
    None,
    /// The aligned block of swap slots around the faulting slot.
    Cluster,
    /// The swapped pages around the faulting page in its mapping.
    Vma,
}

/// `__swapin_nr_pages` (3.14+, `swap_ra_adaptive`): the next window from the readahead hits
/// since the last fault, or, with none, from whether this fault is next to the previous one;
/// at least half the previous window, at most `max_pages`.
pub fn swapin_nr_pages(
    prev: Option<u64>,
    offset: u64,
    hits: u64,
    max_pages: u64,
    prev_win: u64,
) -> u64 {
    let pages = if hits == 0 {
        let adjacent = prev.is_some_and(|p| offset == p + 1 || offset + 1 == p);
        if adjacent {
            2
        } else {
            1
        }
    } else {
        (hits + 2).next_power_of_two().max(4)
    };
    pages.min(max_pages).max(prev_win / 2)
}

/// The readahead window of a VMA fault at `idx` after one at `prev` (`swap_ra_info`): forward
/// after a fault on the page before, backward after one on the page after, else centred.
/// Clamped to the mapping `[0, len)` and to the page table of `idx` (`pmd` frames).
pub fn vma_window(prev: Option<u64>, idx: u64, win: u64, len: u64, pmd: u64) -> (u64, u64) {
    let (lo, hi) = if prev.is_some_and(|p| idx == p + 1) {
        (idx, idx + win)
    } else if prev.is_some_and(|p| p == idx + 1) {
        ((idx + 1).saturating_sub(win), idx + 1)
    } else {
        let left = (win - 1) / 2;
        (idx.saturating_sub(left), idx + win - left)
    };
    let table = idx / pmd * pmd;
    (lo.max(table), hi.min(len).min(table + pmd))
}

impl Mm {
    /// `swap_use_vma_readahead` (4.14+): VMA readahead unless a rotational device is swap.
    pub fn swap_use_vma_readahead(&self) -> bool {
        self.flags.swap_vma_readahead
            && self
                .swap
                .as_ref()
                .is_some_and(|s| !self.devices[s.device].rotational())
    }

    /// Which readahead a swap fault on space `sp` does.
    pub fn swap_ra_mode(&self, sp: u32) -> SwapRa {
        let Some(swap) = self.swap.as_ref() else {
            return SwapRa::None;
        };
        if self.spaces[sp as usize].kind == SpaceKind::Shmem || !self.swap_use_vma_readahead() {
            SwapRa::Cluster
        } else if self.devices[swap.device].synchronous {
            SwapRa::None
        } else {
            SwapRa::Vma
        }
    }

    /// The most frames a window may hold: 2^page_cluster pages, for VMA readahead at most
    /// 2^SWAP_RA_ORDER_CEILING.
    fn swap_ra_max_frames(&self, mode: SwapRa) -> u64 {
        let order = match mode {
            SwapRa::None => return 1,
            SwapRa::Cluster => self.page_cluster,
            SwapRa::Vma => self.page_cluster.min(SWAP_RA_ORDER_CEILING),
        };
        ((1u64 << order) / self.scale).max(1)
    }

    /// The swapped-out pages (space, index) that a swap fault on page `idx` of space `sp`, in
    /// slot `slot`, reads ahead, updating the readahead state (`swapin_nr_pages`,
    /// `swap_ra_info`). The faulting page is not in the list.
    pub fn swap_readahead_targets(&mut self, sp: u32, idx: u64, slot: u32) -> Vec<(u32, u64)> {
        let mode = self.swap_ra_mode(sp);
        let max = self.swap_ra_max_frames(mode);
        if max <= 1 {
            return Vec::new();
        }
        match mode {
            SwapRa::None => Vec::new(),
            SwapRa::Cluster => {
                let offset = slot as u64;
                let (start, end) = if self.flags.swap_ra_adaptive {
                    let swap = self.swap.as_mut().unwrap();
                    let hits = std::mem::take(&mut swap.ra_hits);
                    let pages =
                        swapin_nr_pages(swap.ra_prev_offset, offset, hits, max, swap.ra_last_pages);
                    if hits == 0 {
                        swap.ra_prev_offset = Some(offset);
                    }
                    swap.ra_last_pages = pages;
                    if pages <= 1 {
                        return Vec::new();
                    }
                    let start = offset / pages * pages;
                    (start, (start + pages).min(swap.total()))
                } else {
                    self.valid_swaphandles(offset, max)
                };
                self.swapped_owners(start..end, offset)
            }
            SwapRa::Vma => {
                let pmd = (PTRS_PER_PTE / self.scale).max(1);
                let s = &mut self.spaces[sp as usize];
                let ra = s.ra;
                let win = swapin_nr_pages(ra.prev, idx, ra.hits, max, ra.win);
                s.ra = VmaRa {
                    prev: Some(idx),
                    win,
                    hits: 0,
                };
                if win <= 1 {
                    return Vec::new();
                }
                let (lo, hi) = vma_window(ra.prev, idx, win, s.len(), pmd);
                (lo..hi)
                    .filter(|&i| i != idx && s.page(i as usize) == NIL && s.swap[i as usize] != NIL)
                    .map(|i| (sp, i))
                    .collect()
            }
        }
    }

    /// <= 3.13 `valid_swaphandles`: the run of used slots around `offset` inside its aligned
    /// block of `max` slots.
    fn valid_swaphandles(&self, offset: u64, max: u64) -> (u64, u64) {
        let swap = self.swap.as_ref().unwrap();
        let base = offset / max * max;
        let end = (base + max).min(swap.total());
        let mut hi = offset + 1;
        while hi < end && swap.used[hi as usize] {
            hi += 1;
        }
        let mut lo = offset;
        while lo > base && swap.used[lo as usize - 1] {
            lo -= 1;
        }
        (lo, hi)
    }

    /// The non-resident pages whose slots are in `slots`, except `skip` (cluster readahead
    /// reads whatever the slots hold; `__read_swap_cache_async` skips free slots and pages
    /// already in the swap cache).
    fn swapped_owners(&self, slots: std::ops::Range<u64>, skip: u64) -> Vec<(u32, u64)> {
        let swap = self.swap.as_ref().unwrap();
        let mut out = Vec::new();
        for o in slots {
            if o == skip || !swap.used[o as usize] {
                continue;
            }
            let Some(&(osp, oidx)) = swap.owner.get(o as usize) else {
                continue;
            };
            let Some(s) = self.spaces.get(osp as usize) else {
                continue;
            };
            let oidx = oidx as usize;
            if !s.dead && s.swap[oidx] == o as u32 && s.page(oidx) == NIL {
                out.push((osp, oidx as u64));
            }
        }
        out
    }

    /// Set up frame `f` as page `idx` of space `sp` being read from swap into the swap cache
    /// (`__read_swap_cache_async`): locked until the read completes, added to the LRU as a new
    /// page (inactive, or active under MGLRU within a fault, `folio_add_lru`). <= 5.8 marks every
    /// swapped-in page workingset (4.20+) and 5.8 charges it as anon IO cost; 5.9+ checks its
    /// shadow entry instead, which may activate it. Counted in pswpin.
    pub fn swap_cache_read_page(&mut self, f: u32, sp: u32, idx: u64) {
        self.frames.folio[f as usize].flags = PG_SWAPBACKED | PG_SWAPCACHE | PG_LOCKED;
        let shadow = self.spaces[sp as usize].take_shadow(idx as usize);
        self.install(f, sp, idx as u32);
        if self.flags.anon_workingset {
            if shadow != 0 {
                self.workingset_refault(f, shadow);
            }
            self.lru_add_new(f);
        } else {
            self.frames.set(f, PG_WORKINGSET);
            self.lru_add_new(f);
            let lv = self.frames.lruvec[f as usize] as usize;
            self.lru_note_cost(lv, false, 1, 0);
            // RFC 2016 10/10: the page is new and PG_workingset (`__pagevec_lru_add_fn`).
            self.lru_note_cost_2016(lv, false, 1, 0);
        }
        self.counters.add(C::pswpin, 1);
    }

    /// Set up frame `f` as page `idx` of space `sp` read from a synchronous device past the
    /// swap cache (4.15+ `do_swap_page`, `SWP_SYNCHRONOUS_IO` with one user): locked until the
    /// read completes, a new page on the LRU; 5.9+ checks the shadow entry the swap cache kept
    /// (`get_shadow_from_swap_cache`). The slot is freed (`swap_free` drops its last
    /// reference). No PG_workingset and no 5.8 cost: those are `__read_swap_cache_async`'s.
    pub fn swap_direct_read_page(&mut self, f: u32, sp: u32, idx: u64) {
        self.frames.folio[f as usize].flags = PG_SWAPBACKED | PG_LOCKED;
        let shadow = self.spaces[sp as usize].take_shadow(idx as usize);
        self.install(f, sp, idx as u32);
        if self.flags.anon_workingset && shadow != 0 {
            self.workingset_refault(f, shadow);
        }
        self.lru_add_new(f);
        self.counters.add(C::pswpin, 1);
        self.release_slot(sp, idx);
    }

    /// `try_to_free_swap` at the end of `do_swap_page` when `vm_swap_full`: a private anon
    /// page just mapped leaves the swap cache (dirty, slot freed) unless it is under writeback.
    pub fn try_to_free_swap_if_full(&mut self, f: u32) {
        if self.frames.has(f, PG_SWAPCACHE)
            && !self.frames.has(f, PG_WRITEBACK)
            && self.swap.as_ref().is_some_and(|s| s.full())
        {
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        }
    }

    /// A fault that finds its page in the swap cache (`lookup_swap_cache`): the page readahead
    /// brought in and no fault claimed yet, or one reclaim unmapped and has not freed. A
    /// readahead page is a hit (swap_ra_hit from 4.14), credited to the mapping under VMA
    /// readahead and globally otherwise (shmem looks up without a mapping); under VMA
    /// readahead any hit also moves the mapping's last fault position. Then what
    /// `do_swap_page` / `shmem_swapin_page` do with the page: 4.8-5.8 activates private anon
    /// (`activate_page`), which leaves the swap cache if swap is more than half full; shmem
    /// leaves the swap cache (dirty, slot freed) once its writeback, if any, is done. Callers
    /// pass pages with PG_swapcache or PG_readahead.
    pub fn swap_cache_fault(&mut self, f: u32) {
        let readahead = self.frames.test_clear(f, PG_READAHEAD);
        if readahead && self.flags.swap_vma_readahead {
            self.counters.add(C::swap_ra_hit, 1);
        }
        let sp = self.frames.space[f as usize];
        let idx = self.frames.index[f as usize] as u64;
        let shmem = self.spaces[sp as usize].kind == SpaceKind::Shmem;
        if !shmem && self.swap_use_vma_readahead() {
            let ra = &mut self.spaces[sp as usize].ra;
            if readahead {
                ra.hits = (ra.hits + 1).min(SWAP_RA_HITS_MAX);
            }
            ra.prev = Some(idx);
        } else if readahead {
            if let Some(s) = self.swap.as_mut() {
                s.ra_hits += 1;
            }
        }
        if shmem {
            // Under writeback the kernel waits for the write first; `end_writeback` does this
            // for a page mapped again meanwhile.
            if self.frames.has(f, PG_SWAPCACHE) && !self.frames.has(f, PG_WRITEBACK) {
                self.free_swap_slot(f);
                self.frames.set(f, PG_DIRTY);
            }
        } else {
            if self.flags.swapin_activate && !self.flags.anon_workingset {
                self.activate_page(f);
            }
            self.try_to_free_swap_if_full(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mm::memory::{Access, MAJOR_FAULT_NS as MAJOR_FAULT};
    use crate::mm::space::Space;
    use crate::mm::swapfile::Swap;
    use crate::scenario::DeviceKind;

    /// A 5.8-or-later `Mm` (`preset`) with room to spare, swap on a `kind` device, and spaces
    /// of the given kinds and sizes whose pages are all swapped out, slots in order.
    fn swapped(preset: &str, kind: DeviceKind, spaces: &[(SpaceKind, u64)]) -> Mm {
        let flags = crate::variant::preset(preset).unwrap().flags;
        let w = crate::mm::page_alloc::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        let mut m = Mm::new(256, 1, flags, w);
        m.devices
            .push(crate::devices::Device::default_for("swap", kind));
        m.swap = Some(Swap::new(0, 128).track_owners());
        for (i, &(k, n)) in spaces.iter().enumerate() {
            m.spaces.push(Space::new("s", k, n, 0, 0, u32::MAX));
            for p in 0..n {
                let slot = m
                    .swap
                    .as_mut()
                    .unwrap()
                    .alloc_for(i as u32, p as u32)
                    .unwrap();
                m.spaces[i].swap[p as usize] = slot;
            }
            m.spaces[i].swapped = n;
        }
        m
    }

    /// Touch pages `order` of space 0 one after another: a fault where the page is not
    /// resident, a readahead hit where it is. Returns the pages that faulted.
    fn touch(m: &mut Mm, order: impl IntoIterator<Item = u64>) -> Vec<u64> {
        let mut faults = Vec::new();
        for p in order {
            let f = m.spaces[0].page(p as usize);
            if f == NIL {
                assert!(matches!(m.fault_anon(0, p, 0).access, Access::Wait(_)));
                faults.push(p);
            } else {
                m.swap_cache_fault(f);
            }
        }
        faults
    }

    #[test]
    fn a_sequential_scan_reads_page_cluster_windows_ahead() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 40)]);
        // A new mapping counts as 4 hits: the first fault reads a full window of 8
        // (2^page_cluster) centred on it, [0, 5) at the mapping's start; the next faults read
        // forward, [5, 13), [13, 21), ... while every readahead page is used.
        assert_eq!(touch(&mut m, 0..40), [0, 5, 13, 21, 29, 37]);
        assert_eq!(m.counters.get(C::pswpin), 40);
        assert_eq!(m.counters.get(C::swap_ra), 34);
        assert_eq!(m.counters.get(C::swap_ra_hit), 34);
        assert_eq!(m.counters.get(C::pgmajfault), 6);
        // <= 5.8: every page, read ahead or not, ends up active once claimed.
        let f = m.spaces[0].page(20);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_ACTIVE_ANON);
    }

    #[test]
    fn random_faults_shrink_the_first_window_to_one_page() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 64)]);
        // Full window at first (7 pages ahead), then, with no hits, halves: 4 (3 ahead),
        // 2 (1 ahead), then one page a fault.
        let faults = touch(&mut m, [40, 3, 17, 60, 8, 33]);
        assert_eq!(faults.len(), 6);
        assert_eq!(m.counters.get(C::swap_ra), 7 + 3 + 1);
        assert_eq!(m.spaces[0].ra.win, 1);
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 16)]);
        m.page_cluster = 0;
        assert_eq!(touch(&mut m, 0..16).len(), 16);
        assert_eq!(m.counters.get(C::swap_ra), 0);
    }

    #[test]
    fn unused_readahead_shrinks_the_window_by_halves() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 128)]);
        touch(&mut m, 0..40);
        assert_eq!(m.spaces[0].ra.win, 8);
        // Far away: 2 hits left from the sequential pass give 4; then no hits: 2, 1, 1.
        let wins: Vec<u64> = [100u64, 70, 50, 90]
            .iter()
            .map(|&p| {
                touch(&mut m, [p]);
                m.spaces[0].ra.win
            })
            .collect();
        assert_eq!(wins, [4, 2, 1, 1]);
    }

    #[test]
    fn synchronous_devices_read_the_private_anon_page_alone_and_free_its_slot() {
        let mut m = swapped("linux-5.8", DeviceKind::Zram, &[(SpaceKind::Anon, 16)]);
        assert_eq!(touch(&mut m, 0..16).len(), 16);
        assert_eq!(m.counters.get(C::swap_ra), 0);
        // ... past the swap cache: every slot is free again, the pages must be written anew.
        assert_eq!(m.swap.as_ref().unwrap().nr_free, 128);
        let f = m.spaces[0].page(7);
        assert!(!m.frames.has(f, PG_SWAPCACHE) && m.spaces[0].swap[7] == NIL);
        // 5.8 activates it (`do_swap_page`), but the skip path neither marks it workingset nor
        // charges anon cost (both `__read_swap_cache_async`'s); it is clean until reclaim
        // adds it to swap again.
        assert_eq!(m.frames.list[f as usize] as usize, LRU_ACTIVE_ANON);
        assert!(!m.frames.has(f, PG_WORKINGSET | PG_DIRTY));
        assert_eq!(m.lruvecs[0].anon_cost, 0);
        // An SSD keeps the slot with the clean swap cache copy.
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 16)]);
        touch(&mut m, 0..16);
        assert_eq!(m.swap.as_ref().unwrap().nr_free, 128 - 16);
    }

    #[test]
    fn cluster_readahead_reads_the_aligned_slot_block_whoever_owns_it() {
        // A rotational swap device: cluster readahead for private anon too. Slots 0-7 belong
        // to space 0, 8-15 to space 1.
        let mut m = swapped(
            "linux-5.8",
            DeviceKind::Hdd,
            &[(SpaceKind::Anon, 8), (SpaceKind::Anon, 8)],
        );
        // The global hit counter starts at 4: slot 6 reads its whole block [0, 8).
        assert!(matches!(m.fault_anon(0, 6, 0).access, Access::Wait(_)));
        assert_eq!(m.counters.get(C::swap_ra), 7);
        // No hits since: half the last window, 4. Slot 8 (space 1's page 0) reads [8, 12).
        assert!(matches!(m.fault_anon(1, 0, 0).access, Access::Wait(_)));
        assert_eq!(m.counters.get(C::swap_ra), 10);
        let f = m.spaces[1].page(1);
        assert!(f != NIL && m.frames.has(f, PG_READAHEAD | PG_SWAPCACHE));
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
        // A hit, from any mapping, feeds the next window: 1 hit -> 4 pages, [12, 16).
        m.swap_cache_fault(f);
        assert_eq!(m.swap.as_ref().unwrap().ra_hits, 1);
        assert!(matches!(m.fault_anon(1, 4, 0).access, Access::Wait(_)));
        assert_eq!(m.swap.as_ref().unwrap().ra_last_pages, 4);
        assert_eq!(m.counters.get(C::swap_ra), 13);
    }

    #[test]
    fn older_kernels_read_swap_slots_not_addresses() {
        // 4.11 (no VMA readahead): private anon on an SSD reads its slot block, and on zram
        // too (no skip-swapcache path yet).
        for kind in [DeviceKind::Ssd, DeviceKind::Zram] {
            let mut m = swapped("linux-4.11", kind, &[(SpaceKind::Anon, 16)]);
            assert!(matches!(m.fault_anon(0, 10, 0).access, Access::Wait(_)));
            let resident: Vec<u64> = (0..16)
                .filter(|&p| m.spaces[0].page(p as usize) != NIL)
                .collect();
            assert_eq!(resident, (8..16).collect::<Vec<_>>(), "{kind:?}");
            // No swap_ra counters before 4.14.
            assert_eq!(m.counters.get(C::swap_ra), 0);
        }
        // 2.6.33 (`valid_swaphandles`): the run of used slots around the fault inside its
        // block, whatever happened before. Slot 3 is free: slot 5 reads [4, 8), slot 0 [0, 3).
        let mut m = swapped("linux-2.6.33", DeviceKind::Ssd, &[(SpaceKind::Anon, 16)]);
        m.spaces[0].swap[3] = NIL;
        m.swap.as_mut().unwrap().free(3);
        assert!(matches!(m.fault_anon(0, 5, 0).access, Access::Wait(_)));
        assert!(matches!(m.fault_anon(0, 0, 0).access, Access::Wait(_)));
        let resident: Vec<u64> = (0..16)
            .filter(|&p| m.spaces[0].page(p as usize) != NIL)
            .collect();
        assert_eq!(resident, [0, 1, 2, 4, 5, 6, 7]);
        // Before 4.8 a swapped-in page is not activated.
        let f = m.spaces[0].page(5);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
    }

    #[test]
    fn a_synchronous_device_reads_every_run_in_the_faulting_task() {
        // shmem on zram: cluster readahead; a free slot splits block [0, 8) into two reads,
        // [0, 3) and [4, 8), done one after the other, 1 us a page each: the task waits for
        // all seven.
        let mut m = swapped("linux-5.8", DeviceKind::Zram, &[(SpaceKind::Shmem, 8)]);
        m.spaces[0].swap[3] = NIL;
        m.swap.as_mut().unwrap().free(3);
        let Access::Wait(t) = m.fault_anon(0, 5, 0).access else {
            panic!("a swap-in waits");
        };
        assert!(t >= MAJOR_FAULT + 7 * 1_000, "waited until {t}");
    }

    #[test]
    fn a_claimed_shmem_page_leaves_the_swap_cache_and_6_1_anon_stays_inactive() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Shmem, 8)]);
        // Cluster readahead (shmem): the first fault reads the whole block [0, 8).
        touch(&mut m, [2, 3, 4]);
        let f = m.spaces[0].page(5);
        assert!(m.frames.has(f, PG_READAHEAD | PG_SWAPCACHE));
        let free = m.swap.as_ref().unwrap().nr_free;
        m.swap_cache_fault(f);
        assert!(!m.frames.has(f, PG_SWAPCACHE) && m.frames.has(f, PG_DIRTY));
        assert_eq!(m.swap.as_ref().unwrap().nr_free, free + 1);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);

        let mut m = swapped("linux-6.1", DeviceKind::Ssd, &[(SpaceKind::Anon, 8)]);
        touch(&mut m, [2, 3, 4]);
        let f = m.spaces[0].page(4);
        assert_eq!(m.counters.get(C::swap_ra_hit), 2);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
    }

    #[test]
    fn window_from_hits_and_adjacency_by_hand() {
        // No hits: one page unless the fault is next to the previous one, then two.
        assert_eq!(swapin_nr_pages(None, 10, 0, 8, 0), 1);
        assert_eq!(swapin_nr_pages(Some(5), 10, 0, 8, 0), 1);
        assert_eq!(swapin_nr_pages(Some(9), 10, 0, 8, 0), 2);
        assert_eq!(swapin_nr_pages(Some(11), 10, 0, 8, 0), 2);
        // Hits: hits + 2 rounded up to a power of two, at least 4, at most max.
        assert_eq!(swapin_nr_pages(None, 10, 1, 8, 0), 4);
        assert_eq!(swapin_nr_pages(None, 10, 3, 8, 0), 8);
        assert_eq!(swapin_nr_pages(None, 10, 7, 8, 0), 8);
        assert_eq!(swapin_nr_pages(None, 10, 7, 32, 0), 16);
        // Shrinks by at most half of the previous window.
        assert_eq!(swapin_nr_pages(None, 10, 0, 8, 8), 4);
        assert_eq!(swapin_nr_pages(None, 10, 0, 8, 4), 2);
        assert_eq!(swapin_nr_pages(None, 10, 0, 8, 2), 1);
    }

    #[test]
    fn vma_window_direction_and_clamps() {
        // Forward after the page before, backward after the page after, else centred.
        assert_eq!(vma_window(Some(9), 10, 4, 100, 512), (10, 14));
        assert_eq!(vma_window(Some(11), 10, 4, 100, 512), (7, 11));
        assert_eq!(vma_window(Some(50), 10, 4, 100, 512), (9, 13));
        assert_eq!(vma_window(None, 10, 8, 100, 512), (7, 15));
        // The mapping's ends and the page table's.
        assert_eq!(vma_window(Some(97), 98, 8, 100, 512), (98, 100));
        assert_eq!(vma_window(None, 1, 8, 100, 512), (0, 6));
        assert_eq!(vma_window(Some(510), 511, 8, 2000, 512), (511, 512));
    }

    /// A resident, unmapped page `idx` of space 0 in the swap cache with a slot, on the
    /// inactive list: what reclaim leaves between `add_to_swap` + unmap and the free.
    fn in_swap_cache(m: &mut Mm, idx: u64) -> u32 {
        let f = m.take_free_frame().unwrap();
        m.frames.folio[f as usize].flags = PG_SWAPBACKED | PG_SWAPCACHE;
        m.install(f, 0, idx as u32);
        m.lru_add_new(f);
        let slot = m.swap.as_mut().unwrap().alloc_for(0, idx as u32).unwrap();
        m.spaces[0].swap[idx as usize] = slot;
        m.spaces[0].swapped += 1;
        f
    }

    #[test]
    fn a_fault_on_any_swap_cache_page_finds_it_there() {
        // Private anon, 5.8: activated (`do_swap_page`'s `activate_page`), the mapping's last
        // fault position moves, no readahead hit is counted.
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 0)]);
        m.spaces[0] = Space::new("a", SpaceKind::Anon, 16, 0, 0, u32::MAX);
        let f = in_swap_cache(&mut m, 9);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
        m.swap_cache_fault(f);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_ACTIVE_ANON);
        assert_eq!(m.spaces[0].ra.prev, Some(9));
        assert_eq!(m.spaces[0].ra.hits, 4, "no hit: the initial count stays");
        assert_eq!(m.counters.get(C::swap_ra_hit), 0);
        assert!(
            m.frames.has(f, PG_SWAPCACHE),
            "private anon keeps its swap copy"
        );
        // 6.1: no activation.
        let mut m = swapped("linux-6.1", DeviceKind::Ssd, &[(SpaceKind::Anon, 0)]);
        m.spaces[0] = Space::new("a", SpaceKind::Anon, 16, 0, 0, u32::MAX);
        let f = in_swap_cache(&mut m, 9);
        m.swap_cache_fault(f);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
        // shmem: back into its file, dirty, slot freed; not while the write is in flight.
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Shmem, 0)]);
        m.spaces[0] = Space::new("s", SpaceKind::Shmem, 16, 0, 0, u32::MAX);
        let f = in_swap_cache(&mut m, 9);
        m.frames.set(f, PG_WRITEBACK);
        m.swap_cache_fault(f);
        assert!(m.frames.has(f, PG_SWAPCACHE) && !m.frames.has(f, PG_DIRTY));
        m.frames.clear(f, PG_WRITEBACK);
        m.swap_cache_fault(f);
        assert!(!m.frames.has(f, PG_SWAPCACHE) && m.frames.has(f, PG_DIRTY));
        assert_eq!(m.spaces[0].swap[9], NIL);
        assert_eq!(m.swap.as_ref().unwrap().nr_free, 128);
        // Mapped again while its write is in flight: out of the swap cache when the write ends.
        let g = in_swap_cache(&mut m, 3);
        m.frames.set(g, PG_WRITEBACK);
        m.frames.folio[g as usize].mapped = 1;
        m.swap_cache_fault(g);
        assert!(m.frames.has(g, PG_SWAPCACHE));
        m.end_writeback(g);
        assert!(!m.frames.has(g, PG_SWAPCACHE) && m.frames.has(g, PG_DIRTY));
        assert_eq!(m.swap.as_ref().unwrap().nr_free, 128);
    }

    #[test]
    fn a_swap_in_gives_its_slot_back_when_swap_is_more_than_half_full() {
        // 8 of 128 slots in use: the swapped-in page keeps its swap copy.
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 8)]);
        m.page_cluster = 0;
        assert!(matches!(m.fault_anon(0, 2, 0).access, Access::Wait(_)));
        let f = m.spaces[0].page(2);
        assert!(m.frames.has(f, PG_SWAPCACHE) && !m.frames.has(f, PG_DIRTY));
        // 72 of 128: `vm_swap_full`, so `do_swap_page` frees it (`try_to_free_swap`).
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 72)]);
        m.page_cluster = 0;
        assert!(matches!(m.fault_anon(0, 2, 0).access, Access::Wait(_)));
        let f = m.spaces[0].page(2);
        assert!(!m.frames.has(f, PG_SWAPCACHE) && m.frames.has(f, PG_DIRTY));
        assert_eq!(m.spaces[0].swap[2], NIL);
    }
}

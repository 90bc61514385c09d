//! Swap readahead (mm/swap_state.c, 4.14+ form as read in 5.8-5.18): a swap fault reads
//! neighbouring swapped-out pages into the swap cache along with the faulting one, in a window
//! that grows while earlier readahead gets used and shrinks back to one page when it does not.
//!
//! Two ways to pick the neighbours (`swapin_readahead`):
//! - cluster readahead (`swap_cluster_readahead`): the aligned block of swap slots around the
//!   faulting slot. Used for shmem (`shmem_swapin`) and, for private anon, while a rotational
//!   swap device is in use (`swap_use_vma_readahead` is false with `nr_rotate_swap`);
//! - VMA readahead (`swap_vma_readahead`): the swapped-out pages around the faulting address
//!   in the same mapping and page table, otherwise.
//!
//! A private anon fault on a synchronous device (zram, pmem, ramdisk) reads just its page
//! (4.15+ `do_swap_page` skips the swap cache when the slot has one user).
//!
//! Units: windows are worked out in frames. `vm.page-cluster`'s 2^n pages are 2^n / scale
//! frames (at least one), so a frame_scale of 8 or more leaves no room for readahead, as for
//! file readahead's 128 KiB window (`fault::RA_PAGES`).
use crate::engine::counters::C;
use crate::engine::frames::*;
use crate::engine::mm::Mm;
use crate::engine::space::{SpaceKind, VmaRa};
use crate::scenario::DeviceKind;

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

/// `__swapin_nr_pages` (3.x+): the next window from the readahead hits since the last fault,
/// or, with none, from whether this fault is next to the previous one; at least half the
/// previous window, at most `max_pages`.
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
    /// Which readahead a swap fault on space `sp` does.
    pub fn swap_ra_mode(&self, sp: u32) -> SwapRa {
        let Some(swap) = self.swap.as_ref() else {
            return SwapRa::None;
        };
        let dev = &self.devices[swap.device];
        let shmem = self.spaces[sp as usize].kind == SpaceKind::Shmem;
        if shmem {
            SwapRa::Cluster
        } else if dev.synchronous {
            SwapRa::None
        } else if dev.kind == DeviceKind::Hdd {
            SwapRa::Cluster
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
    /// slot `slot`, reads ahead, and the updated readahead state (`swapin_nr_pages`,
    /// `swap_ra_info`). The faulting page is not in the list.
    pub fn swap_readahead_targets(&mut self, sp: u32, idx: u64, slot: u32) -> Vec<(u32, u64)> {
        let mode = self.swap_ra_mode(sp);
        let max = self.swap_ra_max_frames(mode);
        let mut out = Vec::new();
        if max <= 1 {
            return out;
        }
        match mode {
            SwapRa::None => {}
            SwapRa::Cluster => {
                let swap = self.swap.as_mut().unwrap();
                let offset = slot as u64;
                let hits = std::mem::take(&mut swap.ra_hits);
                let pages =
                    swapin_nr_pages(swap.ra_prev_offset, offset, hits, max, swap.ra_last_pages);
                if hits == 0 {
                    swap.ra_prev_offset = Some(offset);
                }
                swap.ra_last_pages = pages;
                if pages <= 1 {
                    return out;
                }
                let start = offset / pages * pages;
                let end = (start + pages).min(swap.total());
                for o in start..end {
                    if o == offset || !swap.used[o as usize] {
                        continue;
                    }
                    let (osp, oidx) = swap.owner[o as usize];
                    if osp == u32::MAX {
                        continue;
                    }
                    let s = &self.spaces[osp as usize];
                    let oidx = oidx as usize;
                    if !s.dead && s.swap[oidx] == o as u32 && s.pages[oidx] == NIL {
                        out.push((osp, oidx as u64));
                    }
                }
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
                    return out;
                }
                let (lo, hi) = vma_window(ra.prev, idx, win, s.len(), pmd);
                for i in lo..hi {
                    if i != idx && s.pages[i as usize] == NIL && s.swap[i as usize] != NIL {
                        out.push((sp, i));
                    }
                }
            }
        }
        out
    }

    /// Set up frame `f` as page `idx` of space `sp` being read from swap into the swap cache
    /// (`__read_swap_cache_async`): locked until the read completes, on the inactive list (or
    /// where the workingset check puts it). <= 5.8 marks every swapped-in page workingset and
    /// 5.8 charges it as anon IO cost; 5.9+ checks its shadow entry instead. Counted in pswpin.
    pub fn swap_cache_read_page(&mut self, f: u32, sp: u32, idx: u64) {
        self.frames.flags[f as usize] = PG_SWAPBACKED | PG_SWAPCACHE | PG_LOCKED;
        let shadow = std::mem::take(&mut self.spaces[sp as usize].shadow[idx as usize]);
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
        }
        self.counters.add(C::pswpin, 1);
    }

    /// The first fault on a page that readahead brought into the swap cache
    /// (`lookup_swap_cache`): a readahead hit, credited to the mapping for VMA readahead and
    /// globally otherwise. Then what `do_swap_page` / `shmem_swapin_page` do with a page found
    /// in the swap cache: <= 5.8 activates private anon (`activate_page`); shmem leaves the
    /// swap cache (dirty, slot freed).
    pub fn claim_swap_readahead(&mut self, f: u32) {
        if !self.frames.test_clear(f, PG_READAHEAD) {
            return;
        }
        self.counters.add(C::swap_ra_hit, 1);
        let sp = self.frames.space[f as usize];
        let idx = self.frames.index[f as usize] as u64;
        match self.swap_ra_mode(sp) {
            SwapRa::Vma => {
                let ra = &mut self.spaces[sp as usize].ra;
                ra.hits = (ra.hits + 1).min(SWAP_RA_HITS_MAX);
                ra.prev = Some(idx);
            }
            SwapRa::Cluster | SwapRa::None => {
                if let Some(s) = self.swap.as_mut() {
                    s.ra_hits += 1;
                }
            }
        }
        if self.spaces[sp as usize].kind == SpaceKind::Shmem {
            self.free_swap_slot(f);
            self.frames.set(f, PG_DIRTY);
        } else if !self.flags.anon_workingset {
            self.activate_page(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fault::Access;
    use crate::engine::space::{Space, Swap};

    /// A 5.8-or-later `Mm` (`preset`) with room to spare, swap on a `kind` device, and spaces
    /// of the given kinds and sizes whose pages are all swapped out, slots in order.
    fn swapped(preset: &str, kind: DeviceKind, spaces: &[(SpaceKind, u64)]) -> Mm {
        let flags = crate::kernel::variant::preset(preset).unwrap().flags;
        let w = crate::kernel::watermarks::Watermarks {
            min: 1,
            low: 2,
            high: 3,
        };
        let mut m = Mm::new(256, 1, flags, w);
        m.devices
            .push(crate::devices::Device::default_for("swap", kind));
        m.swap = Some(Swap::new(0, 128));
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
            let f = m.spaces[0].pages[p as usize];
            if f == NIL {
                assert!(matches!(m.fault_anon(0, p, 0), Access::Wait(_)));
                faults.push(p);
            } else {
                m.claim_swap_readahead(f);
            }
        }
        faults
    }

    #[test]
    fn a_sequential_scan_grows_the_vma_window_to_page_cluster() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 40)]);
        // Windows 1, 2, 4, then 8 (2^page_cluster) while every readahead page is used.
        assert_eq!(touch(&mut m, 0..40), [0, 1, 3, 7, 15, 23, 31, 39]);
        assert_eq!(m.counters.get(C::pswpin), 40);
        assert_eq!(m.counters.get(C::swap_ra), 32);
        assert_eq!(m.counters.get(C::swap_ra_hit), 32);
        assert_eq!(m.counters.get(C::pgmajfault), 8);
        // <= 5.8: every page, read ahead or not, ends up active once claimed.
        let f = m.spaces[0].pages[20];
        assert_eq!(m.frames.list[f as usize] as usize, LRU_ACTIVE_ANON);
    }

    #[test]
    fn random_faults_read_one_page_and_page_cluster_zero_turns_readahead_off() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Anon, 64)]);
        let faults = touch(&mut m, [40, 3, 17, 60, 8, 33]);
        assert_eq!(faults.len(), 6);
        assert_eq!(m.counters.get(C::swap_ra), 0);
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
        // Far away, with no hits: 4, 2, then 1 page.
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
    fn synchronous_devices_read_the_private_anon_page_alone() {
        let mut m = swapped("linux-5.8", DeviceKind::Zram, &[(SpaceKind::Anon, 16)]);
        assert_eq!(touch(&mut m, 0..16).len(), 16);
        assert_eq!(m.counters.get(C::swap_ra), 0);
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
        touch(&mut m, [6, 7]);
        // Slot 7 next to slot 6: a window of 2, the aligned block [6, 8): nothing new.
        assert_eq!(m.counters.get(C::swap_ra), 0);
        // Space 1's page 0 is slot 8, next to 7: block [8, 10) reads space 1's page 1 too.
        assert!(matches!(m.fault_anon(1, 0, 0), Access::Wait(_)));
        assert_eq!(m.counters.get(C::swap_ra), 1);
        let f = m.spaces[1].pages[1];
        assert!(f != NIL && m.frames.has(f, PG_READAHEAD | PG_SWAPCACHE));
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);
        // Its hit is global: the next fault, anywhere, gets a window of 4.
        m.claim_swap_readahead(f);
        assert!(matches!(m.fault_anon(0, 1, 0), Access::Wait(_)));
        assert_eq!(m.swap.as_ref().unwrap().ra_last_pages, 4);
        assert_eq!(
            m.counters.get(C::swap_ra),
            4,
            "slots 0, 2, 3 of block [0, 4)"
        );
    }

    #[test]
    fn a_claimed_shmem_page_leaves_the_swap_cache_and_6_1_anon_stays_inactive() {
        let mut m = swapped("linux-5.8", DeviceKind::Ssd, &[(SpaceKind::Shmem, 8)]);
        // Cluster readahead (shmem): slot 4 next to 3 reads the block [4, 6).
        touch(&mut m, [2, 3, 4]);
        let f = m.spaces[0].pages[5];
        assert!(m.frames.has(f, PG_READAHEAD | PG_SWAPCACHE));
        let free = m.swap.as_ref().unwrap().nr_free;
        m.claim_swap_readahead(f);
        assert!(!m.frames.has(f, PG_SWAPCACHE) && m.frames.has(f, PG_DIRTY));
        assert_eq!(m.swap.as_ref().unwrap().nr_free, free + 1);
        assert_eq!(m.frames.list[f as usize] as usize, LRU_INACTIVE_ANON);

        let mut m = swapped("linux-6.1", DeviceKind::Ssd, &[(SpaceKind::Anon, 8)]);
        touch(&mut m, [2, 3, 4]);
        let f = m.spaces[0].pages[4];
        assert_eq!(m.counters.get(C::swap_ra_hit), 1);
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
}

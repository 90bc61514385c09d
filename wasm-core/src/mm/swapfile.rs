//! Swap space (mm/swapfile.c): the swap device's slots (`swap_info_struct`), their
//! allocation (`get_swap_pages`, in cluster order) and freeing (`swap_free`,
//! `free_swap_and_cache`).
use super::mm_types::*;
use super::mmzone::Mm;

/// Swap slots on the swap device, allocated in clusters the way `get_swap_pages` scans
/// forward from a cursor, so that pages evicted together are written contiguously.
#[derive(Clone)]
pub struct Swap {
    pub device: usize,
    pub used: Vec<bool>,
    /// The (space, page) a used slot was allocated for: what cluster readahead finds when it
    /// reads a slot's neighbours (the kernel's swap cache lookup by offset).
    pub owner: Vec<(u32, u32)>,
    pub cursor: usize,
    pub nr_free: u64,
    /// Cluster readahead's global state (`swapin_nr_pages`): the last offset faulted without
    /// hits, the last window, and readahead hits since the last fault.
    pub ra_prev_offset: Option<u64>,
    pub ra_last_pages: u64,
    pub ra_hits: u64,
}

/// A private anon mapping's swap readahead state (`vma->swap_readahead_info`): the page of the
/// last swap fault or readahead hit, the window then, and hits since.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VmaRa {
    pub prev: Option<u64>,
    pub win: u64,
    pub hits: u64,
}

impl Default for VmaRa {
    /// A new mapping reads as 4 hits (`GET_SWAP_RA_VAL`: "initial readahead hits is 4"), so its
    /// first swap fault reads a full window.
    fn default() -> Self {
        VmaRa {
            prev: None,
            win: 0,
            hits: 4,
        }
    }
}

impl Swap {
    pub fn new(device: usize, slots: u64) -> Swap {
        Swap {
            device,
            used: vec![false; slots as usize],
            owner: Vec::new(),
            cursor: 0,
            nr_free: slots,
            ra_prev_offset: None,
            ra_last_pages: 0,
            // `swapin_readahead_hits` starts at 4: the first cluster readahead is a full one.
            ra_hits: 4,
        }
    }
    /// Record which page each slot holds, for cluster readahead; 8 bytes a slot, so only
    /// when some swap fault can use cluster readahead.
    pub fn track_owners(mut self) -> Swap {
        self.owner = vec![(u32::MAX, u32::MAX); self.used.len()];
        self
    }
    pub fn total(&self) -> u64 {
        self.used.len() as u64
    }
    pub fn alloc(&mut self) -> Option<u32> {
        if self.nr_free == 0 {
            return None;
        }
        let n = self.used.len();
        for k in 0..n {
            let i = (self.cursor + k) % n;
            if !self.used[i] {
                self.used[i] = true;
                self.cursor = (i + 1) % n;
                self.nr_free -= 1;
                return Some(i as u32);
            }
        }
        None
    }
    /// Allocate a slot for page `idx` of space `sp`.
    pub fn alloc_for(&mut self, sp: u32, idx: u32) -> Option<u32> {
        let slot = self.alloc()?;
        if let Some(o) = self.owner.get_mut(slot as usize) {
            *o = (sp, idx);
        }
        Some(slot)
    }
    pub fn free(&mut self, slot: u32) {
        let i = slot as usize;
        if self.used[i] {
            self.used[i] = false;
            self.nr_free += 1;
        }
    }
    /// `vm_swap_full`: more than half of swap is in use.
    pub fn full(&self) -> bool {
        self.nr_free * 2 < self.total()
    }
}

impl Mm {
    /// Free swap slots (`get_nr_swap_pages`), 0 without swap.
    pub fn swap_free(&self) -> u64 {
        self.swap.as_ref().map_or(0, |s| s.nr_free)
    }

    pub fn total_swap(&self) -> u64 {
        self.swap.as_ref().map_or(0, |s| s.total())
    }

    /// Swap slot accounting: each space's `swapped` counts its slots, every slot a page holds
    /// is in use and held once, the used slots are exactly those held, and a resident page of
    /// a live space is in the swap cache exactly when it holds a slot.
    pub(crate) fn check_swap_slots(&self) -> Result<(), String> {
        let Some(swap) = self.swap.as_ref() else {
            return Ok(());
        };
        let mut held = vec![false; swap.used.len()];
        let mut total = 0u64;
        for s in &self.spaces {
            let mut n = 0u64;
            for (i, &slot) in s.swap.iter().enumerate() {
                if slot != NIL {
                    n += 1;
                    if !swap.used[slot as usize]
                        || std::mem::replace(&mut held[slot as usize], true)
                    {
                        return Err(format!(
                            "space {} page {i}: slot {slot} free or held twice",
                            s.name
                        ));
                    }
                }
                let f = if (i as u64) < s.len() { s.page(i) } else { NIL };
                if !s.dead && f != NIL && self.frames.has(f, PG_SWAPCACHE) != (slot != NIL) {
                    return Err(format!(
                        "space {} page {i}: swap cache flag and slot disagree",
                        s.name
                    ));
                }
            }
            if n != s.swapped {
                return Err(format!(
                    "space {}: swapped {} but {n} slots",
                    s.name, s.swapped
                ));
            }
            total += n;
        }
        if total != swap.total() - swap.nr_free {
            return Err(format!(
                "swap: {} slots in use but {total} held",
                swap.total() - swap.nr_free
            ));
        }
        Ok(())
    }
}

impl Mm {
    /// Drop the swap slot of a resident swap-cache page.
    pub fn free_swap_slot(&mut self, f: u32) {
        if !self.frames.test_clear(f, PG_SWAPCACHE) {
            return;
        }
        let sp = self.frames.space[f as usize];
        let idx = self.frames.index[f as usize] as u64;
        self.release_slot(sp, idx);
    }

    /// Give page `idx` of space `sp`'s swap slot, if it holds one, back to the swap device.
    pub fn release_slot(&mut self, sp: u32, idx: u64) {
        let s = &mut self.spaces[sp as usize];
        let slot = std::mem::replace(&mut s.swap[idx as usize], NIL);
        if slot != NIL {
            s.swapped -= 1;
            if let Some(sw) = self.swap.as_mut() {
                sw.free(slot);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn swap_slots_are_contiguous_then_reused() {
        let mut s = Swap::new(0, 4);
        assert_eq!((s.alloc(), s.alloc()), (Some(0), Some(1)));
        s.free(0);
        assert_eq!(
            (s.alloc(), s.alloc(), s.alloc()),
            (Some(2), Some(3), Some(0))
        );
        assert_eq!(s.alloc(), None);
        assert!(s.full());
    }
}

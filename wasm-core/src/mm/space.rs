//! Address spaces: anonymous regions, shmem/tmpfs files and page-cache files, with what an
//! evicted page leaves behind (a shadow entry, a swap slot).
use crate::mm::mm_types::NIL;

/// A shadow entry (`workingset_eviction`): the lruvec's nonresident age at eviction and the
/// page's workingset bit. The kernel packs these into an xarray value; we keep the full age
/// (bucket_order is 0 on 64-bit machines of ordinary size, so the kernel's is exact too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shadow {
    pub age: u64,
    pub workingset: bool,
    pub lruvec: u16,
}

impl Shadow {
    #[inline]
    pub fn pack(self) -> u64 {
        // 0 means "no shadow", so store age + 1 above the flag and lruvec bits.
        ((self.age + 1) << 17) | ((self.lruvec as u64) << 1) | self.workingset as u64
    }
    #[inline]
    pub fn unpack(v: u64) -> Option<Shadow> {
        if v == 0 {
            return None;
        }
        Some(Shadow {
            age: (v >> 17) - 1,
            workingset: v & 1 != 0,
            lruvec: ((v >> 1) & 0xffff) as u16,
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpaceKind {
    /// Private anonymous memory of one task.
    Anon,
    /// Shared anonymous memory / tmpfs: swap-backed, survives unmapping.
    Shmem,
    /// A regular file in the page cache, backed by a device.
    File,
}

pub struct Space {
    pub name: String,
    pub kind: SpaceKind,
    /// Backing device (files) and the file's first block on it, in pages.
    pub device: usize,
    pub lba: u64,
    /// Frame holding each page, or NIL.
    pub pages: Vec<u32>,
    /// Packed shadow entry per page (0 = none).
    pub shadow: Vec<u64>,
    /// Swap slot per page (swap-backed spaces), or NIL.
    pub swap: Vec<u32>,
    /// Task that owns a private anon space (for the OOM killer), or NIL.
    pub owner: u32,
    pub resident: u64,
    pub swapped: u64,
    /// Freed (the owner exited or was killed): no new faults.
    pub dead: bool,
    /// End of file, in frames: the length, until a `truncate` sets it to zero; writes extend
    /// it again. Reads at or past it do no IO.
    pub eof: u64,
    /// The task whose truncate is waiting for IO on some of the file's pages, or NIL: it holds
    /// the inode lock (`do_truncate`), so writes to the file wait (`generic_file_write_iter`).
    pub truncating: u32,
    /// Next page of a sequential append, shared by every writer (O_APPEND).
    pub append_cursor: u64,
    /// `drop_behind` appends: segments closed so far (counted along the append cursor), and
    /// frame ranges of closed segments whose pages were still being written when closed.
    pub segments_closed: u64,
    pub drop_pending: Vec<(u64, u64)>,
    /// Next page of a `sweep` access, shared by every task that sweeps this space.
    pub sweep_cursor: u64,
    /// Live mappings of this file or shmem space by any task (`mapping_mapped`, used by
    /// 2.6.33's `page_mapping_inuse`).
    pub mmaps: u32,
    /// Swap readahead state of a private anon space (one VMA).
    pub ra: VmaRa,
    /// Live mappings of this space per mapping slot bit (see `map_slot`).
    pub slot_users: [u16; 8],
}

impl Space {
    pub fn new(
        name: &str,
        kind: SpaceKind,
        pages: u64,
        device: usize,
        lba: u64,
        owner: u32,
    ) -> Space {
        let n = pages as usize;
        let swap = if kind == SpaceKind::File {
            Vec::new()
        } else {
            vec![NIL; n]
        };
        Space {
            name: name.to_string(),
            kind,
            device,
            lba,
            pages: vec![NIL; n],
            shadow: vec![0; n],
            swap,
            owner,
            resident: 0,
            swapped: 0,
            dead: false,
            eof: pages,
            truncating: NIL,
            append_cursor: 0,
            segments_closed: 0,
            drop_pending: Vec::new(),
            sweep_cursor: 0,
            mmaps: 0,
            ra: VmaRa::default(),
            slot_users: [0; 8],
        }
    }

    /// The mapping slot bit for a new mapping of this space: the least used one, so two live
    /// mappings of a space share a bit (and its mapped/young/writable state) only when more
    /// than eight map it at once. Bits matter only among mappings of the same space.
    pub fn map_slot(&mut self) -> u8 {
        let mut best = 0;
        for i in 1..8 {
            if self.slot_users[i] < self.slot_users[best] {
                best = i;
            }
        }
        self.slot_users[best] += 1;
        1 << best
    }

    /// A mapping that held `bit` is gone.
    pub fn unmap_slot(&mut self, bit: u8) {
        let i = bit.trailing_zeros() as usize;
        self.slot_users[i] = self.slot_users[i].saturating_sub(1);
    }

    pub fn len(&self) -> u64 {
        self.pages.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    pub fn swapbacked(&self) -> bool {
        self.kind != SpaceKind::File
    }
}

/// Swap slots on the swap device, allocated in clusters the way `get_swap_pages` scans
/// forward from a cursor, so that pages evicted together are written contiguously.
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

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn shadow_round_trip() {
        for s in [
            Shadow {
                age: 0,
                workingset: false,
                lruvec: 0,
            },
            Shadow {
                age: 12345,
                workingset: true,
                lruvec: 77,
            },
        ] {
            assert_eq!(Shadow::unpack(s.pack()), Some(s));
        }
        assert_eq!(Shadow::unpack(0), None);
    }
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

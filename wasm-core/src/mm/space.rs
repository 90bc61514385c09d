//! Address spaces (include/linux/fs.h `address_space`, with the anon regions of
//! include/linux/mm_types.h): anonymous regions, shmem/tmpfs files and page-cache files, with
//! what an evicted page leaves behind (a shadow entry, a swap slot).
use crate::mm::mm_types::{NIL, PG_DIRTY, PG_SWAPBACKED, PG_SWAPCACHE, PG_WRITEBACK};
use crate::mm::swapfile::VmaRa;

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

/// Page flags under which a write through a present, young PTE surely changes nothing (the
/// copy's condition; not the only such state): a dirty swap-backed page, not in the swap
/// cache (a write frees a stale swap copy) and not under writeback.
#[inline(always)]
pub fn pte_dirty_ok(flags: u16) -> bool {
    flags & (PG_SWAPBACKED | PG_DIRTY | PG_SWAPCACHE | PG_WRITEBACK) == PG_SWAPBACKED | PG_DIRTY
}

pub struct Space {
    pub name: String,
    pub kind: SpaceKind,
    /// Backing device (files) and the file's first block on it, in pages.
    pub device: usize,
    pub lba: u64,
    /// Frame holding each page, or NIL.
    pub pages: Vec<u32>,
    /// Per page, a copy of its PTEs' state that the hit reads first, as a CPU reads the PTE
    /// and never the `struct page`, so that a repeat hit touches one cache line (issue #28).
    /// Bit s: mapping slot s maps the page present and young (a subset of the frame's
    /// `mapped & young`). Cleared wherever the frame's young bits drop or it is unmapped
    /// (`Mm::pte_clear_young`, zap), when a swap-backed page is cleaned, and whenever the
    /// slot's frame changes. Mappings with VM flags do not use it. One byte a page, so that
    /// the copy of a large file stays in cache.
    pub pte: Vec<u8>,
    /// Per page, the slots of `pte` that are also dirty on a page that a write through them
    /// leaves as it is (`pte_dirty_ok`); a subset of `pte`, cleared with it. Read by writes
    /// only.
    pub pte_dirty: Vec<u8>,
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
    /// Forget page `idx`'s PTE copy (both bytes).
    #[inline(always)]
    pub fn pte_clear(&mut self, idx: usize) {
        self.pte_clear_slots(idx, u8::MAX);
    }

    /// Forget the PTE copy of the mapping slots in `bits` for page `idx` (an unmap of one
    /// mapping clears only its own).
    #[inline(always)]
    pub fn pte_clear_slots(&mut self, idx: usize, bits: u8) {
        self.pte[idx] &= !bits;
        self.pte_dirty[idx] &= !bits;
    }

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
            pte: vec![0; n],
            pte_dirty: vec![0; n],
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
}

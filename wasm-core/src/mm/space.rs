//! Address spaces (include/linux/fs.h `address_space`, with the anon regions of
//! include/linux/mm_types.h): anonymous regions, shmem/tmpfs files and page-cache files, with
//! what an evicted page leaves behind (a shadow entry, a swap slot).
use crate::mm::mm_types::{NIL, PG_DIRTY, PG_SWAPBACKED, PG_SWAPCACHE, PG_WRITEBACK};
use crate::mm::readahead::FileRa;
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

#[derive(Clone)]
pub struct Space {
    pub name: String,
    pub kind: SpaceKind,
    /// Backing device (files) and the file's first block on it, in pages.
    pub device: usize,
    pub lba: u64,
    /// Per page, what the kernel's xarray slot holds: nothing, the frame, or a shadow entry
    /// (a value entry, `xa_mk_value`); never both, so a fault reads the slot's shadow in the
    /// cache line it read the slot in (issue #28). Read through `page`, `shadow`; 0 is empty
    /// (so a new space costs no writes), frame `f` is `f + 1`, a shadow `v` is `SHADOW + v`.
    slots: Vec<u64>,
    /// Slots that hold a shadow entry, kept as slots change (the workingset view reads it;
    /// counting the slots of a large file each time cost a pass over all of them).
    shadows: u64,
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
    /// Live mappings of this file or shmem space by any task (`mapping_mapped`, used by
    /// 2.6.33's `page_mapping_inuse`).
    pub mmaps: u32,
    /// Swap readahead state of a private anon space (one VMA).
    pub ra: VmaRa,
    /// Readahead state of a file's mapped pages: set by the read-around of a fault that
    /// misses (`Mm::file_read`), followed by the async windows (`Mm::mmap_async_ra`).
    pub file_ra: FileRa,
    /// Live mappings of this space per mapping slot bit (see `map_slot`).
    pub slot_users: [u16; 8],
    /// Of those, the mappings advised MADV_RANDOM or MADV_SEQUENTIAL (VM_RAND_READ,
    /// VM_SEQ_READ), which MGLRU's walker and look-around skip before 6.3 (`locality_slots`).
    rand_seq_users: [u16; 8],
    /// `locality_slots`, kept as mappings come and go: the walker reads it for every page.
    locality: u8,
}

/// Where shadow entries start in a slot: above every frame number + 1.
const SHADOW: u64 = 1 << 32;

impl Space {
    /// The frame holding page `idx`, or NIL.
    #[inline(always)]
    pub fn page(&self, idx: usize) -> u32 {
        // Empty (0) wraps to the top and a shadow is above NIL: both read as NIL.
        self.slots[idx].wrapping_sub(1).min(NIL as u64) as u32
    }

    /// Where slot `idx` would be, for a prefetch hint (never dereferenced).
    #[inline(always)]
    pub fn slot_ptr(&self, idx: usize) -> *const u64 {
        self.slots.as_ptr().wrapping_add(idx)
    }

    /// Page `idx`'s packed shadow entry (`Shadow::pack`), or 0.
    #[inline(always)]
    pub fn shadow(&self, idx: usize) -> u64 {
        self.slots[idx].saturating_sub(SHADOW)
    }

    /// Put frame `f` in slot `idx`, which holds no shadow: an install takes it first, or the
    /// page cannot have one (a new anon or shmem page: its shadow goes with its swap slot).
    #[inline(always)]
    pub fn set_page(&mut self, idx: usize, f: u32) {
        debug_assert!(f != NIL && self.slots[idx] < SHADOW);
        self.slots[idx] = f as u64 + 1;
    }

    /// Empty slot `idx`, which holds a frame.
    #[inline(always)]
    pub fn clear_page(&mut self, idx: usize) {
        debug_assert!(self.slots[idx] < SHADOW);
        self.slots[idx] = 0;
    }

    /// Store a packed shadow entry in slot `idx`, which holds no frame (0: forget the shadow).
    #[inline(always)]
    pub fn set_shadow(&mut self, idx: usize, v: u64) {
        if v == 0 {
            self.clear_shadow(idx);
        } else {
            debug_assert!(self.slots[idx] == 0 || self.slots[idx] >= SHADOW);
            // Ages below 2^46 fit (`Shadow::pack` keeps 47 bits of it).
            debug_assert!(v <= u64::MAX - SHADOW);
            self.shadows += (self.slots[idx] < SHADOW) as u64;
            self.slots[idx] = SHADOW + v;
        }
    }

    /// Forget slot `idx`'s shadow entry, if it holds one (not a frame).
    #[inline(always)]
    pub fn clear_shadow(&mut self, idx: usize) {
        if self.slots[idx] >= SHADOW {
            self.slots[idx] = 0;
            self.shadows -= 1;
        }
    }

    /// Take slot `idx`'s shadow entry (0 if none), leaving any frame there.
    #[inline(always)]
    pub fn take_shadow(&mut self, idx: usize) -> u64 {
        let v = self.shadow(idx);
        if v != 0 {
            self.slots[idx] = 0;
            self.shadows -= 1;
        }
        v
    }

    /// Shadow entries held (the workingset view).
    pub fn nr_shadows(&self) -> u64 {
        self.shadows
    }

    /// Shadow entries held, counted slot by slot (the invariant check of `nr_shadows`).
    pub fn count_shadows(&self) -> u64 {
        self.slots.iter().filter(|&&v| v >= SHADOW).count() as u64
    }

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
            slots: vec![0; n],
            shadows: 0,
            pte: vec![0; n],
            pte_dirty: vec![0; n],
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
            mmaps: 0,
            ra: VmaRa::default(),
            file_ra: FileRa::default(),
            slot_users: [0; 8],
            rand_seq_users: [0; 8],
            locality: 0,
        }
    }

    /// The mapping slot bit for a new mapping of this space: the least used one, so two live
    /// mappings of a space share a bit (and its mapped/young/writable state) only when more
    /// than eight map it at once. Bits matter only among mappings of the same space.
    /// `rand_seq`: the mapping is advised MADV_RANDOM or MADV_SEQUENTIAL.
    pub fn map_slot(&mut self, rand_seq: bool) -> u8 {
        let mut best = 0;
        for i in 1..8 {
            if self.slot_users[i] < self.slot_users[best] {
                best = i;
            }
        }
        self.slot_users[best] += 1;
        self.rand_seq_users[best] += rand_seq as u16;
        self.update_locality(best);
        1 << best
    }

    /// A mapping that held `bit` is gone.
    pub fn unmap_slot(&mut self, bit: u8, rand_seq: bool) {
        let i = bit.trailing_zeros() as usize;
        self.slot_users[i] = self.slot_users[i].saturating_sub(1);
        if rand_seq {
            self.rand_seq_users[i] = self.rand_seq_users[i].saturating_sub(1);
        }
        self.update_locality(i);
    }

    fn update_locality(&mut self, i: usize) {
        let plain = self.slot_users[i] > self.rand_seq_users[i];
        self.locality = (self.locality & !(1 << i)) | (plain as u8) << i;
    }

    /// The slot bits with a live mapping not advised MADV_RANDOM or MADV_SEQUENTIAL: before
    /// 6.3 MGLRU's page-table walker skips the others (`should_skip_vma`, v6.1) and rmap looks
    /// around only from these (`folio_referenced_one`, v6.1). A slot shared by both kinds
    /// (more than eight live mappings) counts as one of these.
    #[inline]
    pub fn locality_slots(&self) -> u8 {
        self.locality
    }

    pub fn len(&self) -> u64 {
        self.slots.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
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

    #[test]
    fn a_slot_holds_a_frame_or_a_shadow() {
        let mut s = Space::new("s", SpaceKind::File, 4, 0, 0, NIL);
        assert_eq!((s.page(0), s.shadow(0), s.nr_shadows()), (NIL, 0, 0));
        // The lowest and highest frame numbers round-trip, and a frame is not a shadow.
        s.set_page(0, 0);
        s.set_page(1, NIL - 1);
        assert_eq!((s.page(0), s.shadow(0)), (0, 0));
        assert_eq!((s.page(1), s.shadow(1)), (NIL - 1, 0));
        // Clearing or taking the shadow of a slot that holds a frame leaves the frame.
        s.clear_shadow(0);
        assert_eq!((s.take_shadow(1), s.page(1)), (0, NIL - 1));
        // A shadow, even of an age near 2^46, is not a frame; taking it empties the slot.
        let big = Shadow {
            age: (1 << 46) - 2,
            workingset: true,
            lruvec: u16::MAX,
        }
        .pack();
        s.set_shadow(2, big);
        s.set_shadow(3, 1);
        s.set_shadow(3, 2);
        assert_eq!((s.page(2), s.shadow(2), s.nr_shadows()), (NIL, big, 2));
        assert_eq!((s.take_shadow(2), s.page(2), s.shadow(2)), (big, NIL, 0));
        s.set_shadow(3, 0);
        assert_eq!((s.shadow(3), s.nr_shadows(), s.count_shadows()), (0, 0, 0));
        s.set_shadow(3, 5);
        s.clear_shadow(3);
        s.clear_shadow(3);
        assert_eq!((s.shadow(3), s.nr_shadows()), (0, 0));
        s.clear_page(0);
        assert_eq!(s.page(0), NIL);
    }
}

//! Mappings (mm/mmap.c, with the advice of mm/madvise.c): a task's new mapping of an address
//! space, and what its access advice means for reclaim.
use crate::mm::mm_types::{Madvise, Vma};
use crate::mm::mmzone::Mm;
use crate::mm::space::{Space, SpaceKind};

impl Madvise {
    /// VM_RAND_READ or VM_SEQ_READ: before 6.3 MGLRU's walker and look-around skip such a
    /// mapping (`Space::locality_slots`).
    pub fn rand_seq(self) -> bool {
        matches!(self, Madvise::Random | Madvise::Sequential)
    }

    /// Which accesses through a mapping with this advice count for reclaim: (references,
    /// faults). 6.3+ (`vma_has_recency`, `Flags::vma_has_recency`): neither for
    /// MADV_SEQUENTIAL, MADV_RANDOM or FADV_NOREUSE mappings, in both LRUs. Before: the
    /// classic LRU's rmap ignored only VM_SEQ_READ (`folio_referenced_one`), and MGLRU's fault
    /// entry ignored VM_SEQ_READ and VM_RAND_READ (`lru_gen_enter_fault`, 6.1).
    pub fn recency(self, vma_has_recency: bool) -> (bool, bool) {
        match self {
            Madvise::Normal => (true, true),
            Madvise::Sequential => (false, false),
            Madvise::Random => (!vma_has_recency, false),
            Madvise::Noreuse => (!vma_has_recency, !vma_has_recency),
        }
    }
}

impl Mm {
    /// A new address space (an inode's page cache, a shmem file, or a task's private anon
    /// memory); returns its id.
    pub fn add_space(&mut self, space: Space) -> u32 {
        self.spaces.push(space);
        (self.spaces.len() - 1) as u32
    }

    /// The length of space `sp`, in frames.
    pub fn space_len(&self, sp: u32) -> u64 {
        self.spaces[sp as usize].len()
    }

    /// Whether space `sp` is gone (its owner exited, or a shmem file was removed): its pages
    /// are freed and new faults on it bring in nothing.
    pub fn space_dead(&self, sp: u32) -> bool {
        self.spaces[sp as usize].dead
    }

    /// A new mapping of pages `offset..offset + pages` of space `sp` (`mmap_region`, every
    /// version modelled), clamped to the space (a shared anon region attached by name may be
    /// smaller than asked): it takes a mapping slot, and a file or shmem mapping joins the
    /// file's mappings (`i_mmap`; private anon memory has none). Its recency follows its
    /// advice (`Madvise::recency`).
    pub fn mmap_region(
        &mut self,
        sp: u32,
        offset: u64,
        pages: u64,
        vmflags: u8,
        advice: Madvise,
    ) -> Vma {
        let (recency, fault_recency) = advice.recency(self.flags.vma_has_recency);
        let s = &mut self.spaces[sp as usize];
        let bit = s.map_slot(advice.rand_seq());
        if s.kind != SpaceKind::Anon {
            s.mmaps += 1;
        }
        Vma {
            space: sp,
            offset,
            pages: pages.min(s.len().saturating_sub(offset)),
            bit,
            vmflags,
            recency,
            fault_recency,
            advice,
            live: true,
        }
    }
}

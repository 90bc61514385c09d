//! Reverse mapping (mm/rmap.c): whether and how often a page was referenced through its
//! mappings (`folio_referenced`), and whether it is mapped at all.
use super::mm_types::*;
use super::mmzone::Mm;
use crate::mm::space::SpaceKind;

impl Mm {
    /// `folio_referenced`: count young mappings, collect their VM flags, clear the young bits.
    #[inline]
    pub(crate) fn folio_referenced(&mut self, f: u32) -> (u32, u8) {
        let fi = f as usize;
        let rp = self.frames.folio[fi].young.count_ones();
        let vmf = self.frames.vmflags[fi];
        self.pte_clear_young(f);
        self.frames.folio[fi].young = 0;
        self.frames.vmflags[fi] = 0;
        (rp, vmf)
    }

    /// Clear folio `f`'s PTE copy (`Space::pte` and `pte_dirty`), as the rmap walk clears
    /// each PTE's accessed bit (`page_referenced_one`, renamed `folio_referenced_one` by the
    /// folio conversion; every version modelled). Called where the folio's young bits are
    /// cleared, where it is unmapped (`try_to_unmap`) and where a swap-backed page is cleaned
    /// (`clear_dirty`). Only pages a hit copied (`PTE_COPIED`) have a copy.
    #[inline(always)]
    pub(crate) fn pte_clear_young(&mut self, f: u32) {
        if self.frames.folio[f as usize].flags & PTE_COPIED != 0 {
            self.pte_clear_copy(f);
        }
    }

    /// The part of `pte_clear_young` for a page that has a copy: out of line, as most pages
    /// reclaim looks at have none.
    #[inline(never)]
    fn pte_clear_copy(&mut self, f: u32) {
        self.frames.clear(f, PTE_COPIED);
        let sp = self.frames.space[f as usize];
        if sp != NIL {
            let idx = self.frames.index[f as usize] as usize;
            self.spaces[sp as usize].pte_clear(idx);
        }
    }

    /// 2.6.33 `page_mapping_inuse`: mapped, in the swap cache, or its file mmapped by anyone
    /// (`mapping_mapped`; for shmem, the segment or tmpfs file; private anon has no mapping).
    pub(crate) fn page_mapping_inuse(&self, f: u32) -> bool {
        let fi = f as usize;
        if self.frames.folio[fi].mapped != 0 || self.frames.folio[fi].flags & PG_SWAPCACHE != 0 {
            return true;
        }
        let sp = self.frames.space[fi];
        sp != NIL
            && self.spaces[sp as usize].kind != SpaceKind::Anon
            && self.spaces[sp as usize].mmaps > 0
    }
}

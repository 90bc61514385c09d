//! Shared memory (mm/shmem.c): writes and read misses of shmem pages (`shmem_write_begin`,
//! `shmem_get_folio`).
use super::memory::Access;
use super::mm_types::*;
use super::mmzone::Mm;
use crate::mm::memory::READ_COPY_NS;
use crate::mm::memory::WRITE_COPY_NS;
use crate::mm::page_alloc::Alloc;

impl Mm {
    /// A write() of one page of a tmpfs file (5.x `shmem_write_begin` ->
    /// `shmem_getpage_gfp(SGP_WRITE)`, then `shmem_write_end`). tmpfs pages are swap-backed and
    /// live on the anon LRU: a new page goes through `lru_cache_add` without PG_active, so it
    /// starts on the inactive anon list, with PG_referenced set (`__SetPageReferenced` for
    /// SGP_WRITE); a resident page is marked accessed (`mark_page_accessed` for SGP_WRITE) and
    /// loses a stale swap copy; a swapped-out page is read back first (`shmem_swapin_page`).
    /// The dirty bit carries no writeback accounting (`__set_page_dirty_no_writeback`): no
    /// dirty throttling and no flusher; reclaim writes the page to swap (`shmem_writepage`).
    /// A swap-in here is no page fault: neither pgfault nor pgmajfault.
    pub(crate) fn shmem_write(&mut self, sp: u32, idx: u64, now: u64) -> Access {
        let f = self.spaces[sp as usize].page(idx as usize);
        if f != NIL {
            if self.frames.has(f, PG_LOCKED) {
                return Access::Wait(self.ready_at[f as usize]);
            }
            // A page in the swap cache leaves it (`shmem_swapin_page`), losing its stale copy.
            if self.frames.has(f, PG_READAHEAD | PG_SWAPCACHE) {
                self.swap_cache_fault(f);
            }
            self.folio_mark_accessed(f);
            self.frames.set(f, PG_DIRTY);
            return Access::Done(WRITE_COPY_NS * self.scale);
        }
        if self.spaces[sp as usize].swap[idx as usize] != NIL {
            return self.anon_page_in(sp, idx, now).access;
        }
        let (f, stall) = match self.alloc_frame(now) {
            Alloc::Frame(f, s) => (f, s),
            Alloc::Wait(t) => return Access::Wait(t),
            Alloc::Oom(_) => return Access::Oom,
        };
        self.frames.folio[f as usize].flags = PG_SWAPBACKED | PG_REFERENCED | PG_DIRTY;
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
            return self.anon_page_in(sp, idx, now).access;
        }
        Access::Done(READ_COPY_NS * self.scale)
    }
}

//! Truncation and invalidation of a file's page cache: `truncate_inode_pages_range` and
//! `invalidate_mapping_pages` (mm/truncate.c).
use crate::engine::frames::*;
use crate::engine::mm::Mm;
use crate::engine::space::SpaceKind;

/// CPU time to take one page out of the page cache and free it: a list removal and a free,
/// the order of moving a page between LRU lists (`SCAN_ACTIVE_NS`).
pub const TRUNCATE_PAGE_NS: u64 = super::vmscan::SCAN_ACTIVE_NS;

impl Mm {
    /// Truncate space `sp` to length zero (`truncate_inode_pages_range`, the same in every
    /// version modelled; tmpfs: `shmem_undo_range`). Its first pass waits for nothing: every
    /// page that is neither locked (a read in flight) nor under writeback is taken out of the
    /// page cache and freed at once, a dirty one without being written (`folio_cancel_dirty`);
    /// the caller waits for the IO of the rest and calls again (the second pass). It is not
    /// reclaim: no pgscan/pgsteal, no shadow entry; the shadow entries already there go too
    /// (`truncate_folio_batch_exceptionals`), so a later read of the offset is no refault. A
    /// tmpfs file's swap slots are freed. The end of file and the append position go to zero.
    /// Returns (frames freed, frames still busy).
    pub fn truncate_space(&mut self, sp: u32) -> (u64, u64) {
        let s = sp as usize;
        self.spaces[s].eof = 0;
        self.spaces[s].append_cursor = 0;
        // The flushers forget the dirty pages about to go (`folio_account_cleaned`).
        let frames = &self.frames;
        self.dirty_fifo.retain(|&(f, _)| {
            frames.space[f as usize] != sp
                || frames.flags[f as usize] & (PG_LOCKED | PG_WRITEBACK) != 0
        });
        let (mut freed, mut busy) = (0, 0);
        for i in 0..self.spaces[s].pages.len() {
            let f = self.spaces[s].pages[i];
            if f != NIL {
                if self.frames.flags[f as usize] & (PG_LOCKED | PG_WRITEBACK) != 0 {
                    busy += 1;
                    continue;
                }
                self.clear_dirty(f);
                self.drop_page(f);
                freed += 1;
            }
            if self.spaces[s].kind != SpaceKind::File && self.spaces[s].pages[i] == NIL {
                self.release_slot(sp, i as u64);
            }
            if self.spaces[s].pages[i] == NIL {
                self.spaces[s].shadow[i] = 0;
            }
        }
        (freed, busy)
    }
}

impl Mm {
    /// POSIX_FADV_DONTNEED over frames `start..start + n` of space `sp` (`generic_fadvise`):
    /// drop each page that is clean, unmapped and has no IO in flight
    /// (`invalidate_mapping_pages`, the same in every version modelled); no shadow entry is
    /// left, since this is not reclaim. Dirty pages would first be queued for writeback
    /// (`__filemap_fdatawrite_range`); abstracted: they, and pages it cannot drop, stay where
    /// they are, where 3.1+ moves them to the inactive tail (`deactivate_file_folio`).
    /// Swap-backed (tmpfs) pages are never dropped. Returns the frames freed.
    pub fn invalidate_mapping_pages(&mut self, sp: u32, start: u64, n: u64) -> u64 {
        let mut freed = 0;
        for i in start..start + n {
            let f = self.spaces[sp as usize].pages[i as usize];
            if f == NIL
                || self.frames.mapped[f as usize] != 0
                || self.frames.flags[f as usize]
                    & (PG_DIRTY | PG_WRITEBACK | PG_LOCKED | PG_SWAPBACKED)
                    != 0
            {
                continue;
            }
            self.drop_page(f);
            freed += 1;
        }
        freed
    }
}

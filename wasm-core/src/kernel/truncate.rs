//! Truncation of a file's page cache: `truncate_inode_pages_range` (mm/truncate.c).
use crate::engine::frames::*;
use crate::engine::mm::Mm;
use crate::engine::space::SpaceKind;

/// CPU time to take one page out of the page cache and free it: a list removal and a free,
/// the order of moving a page between LRU lists (`SCAN_ACTIVE_NS`).
pub const TRUNCATE_PAGE_NS: u64 = super::vmscan::SCAN_ACTIVE_NS;

impl Mm {
    /// Must truncating space `sp` wait first? `truncate_inode_pages_range` waits for pages
    /// under writeback and locked pages (a read in flight) before it removes them; a page
    /// reclaim holds isolated is waited for too (reclaim puts it back when its pass ends).
    pub fn truncate_busy(&self, sp: u32) -> bool {
        self.spaces[sp as usize].pages.iter().any(|&f| {
            f != NIL
                && (self.frames.flags[f as usize] & (PG_WRITEBACK | PG_LOCKED) != 0
                    || self.frames.list[f as usize] == LIST_ISOLATED)
        })
    }

    /// Truncate space `sp` to length zero (`truncate_inode_pages_range`, the same in every
    /// version modelled; tmpfs: `shmem_undo_range`). Every resident page is taken out of the
    /// page cache and freed, a dirty one without being written (`folio_cancel_dirty`); it is
    /// not reclaim, so no pgscan/pgsteal and no shadow entry. The shadow entries already
    /// there go too (`truncate_folio_batch_exceptionals`): a later read of the offset is no
    /// refault. A tmpfs file's swap slots are freed. Call only when `truncate_busy` is false.
    /// Returns the frames freed.
    pub fn truncate_space(&mut self, sp: u32) -> u64 {
        debug_assert!(!self.truncate_busy(sp));
        let s = sp as usize;
        // The flushers forget its dirty pages (`folio_account_cleaned`).
        let frames = &self.frames;
        self.dirty_fifo
            .retain(|&(f, _)| frames.space[f as usize] != sp);
        let mut freed = 0;
        for i in 0..self.spaces[s].pages.len() {
            let f = self.spaces[s].pages[i];
            if f != NIL {
                self.clear_dirty(f);
                self.drop_page(f);
                freed += 1;
            }
            if self.spaces[s].kind != SpaceKind::File {
                self.release_slot(sp, i as u64);
            }
            self.spaces[s].shadow[i] = 0;
        }
        self.spaces[s].eof = 0;
        freed
    }
}

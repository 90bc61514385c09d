//! Truncation and invalidation of a file's page cache: `truncate_inode_pages_range` and
//! `invalidate_mapping_pages` (mm/truncate.c).
use crate::mm::mm_types::*;
use crate::mm::mmzone::Mm;
use crate::mm::space::SpaceKind;

/// CPU time to take one page out of the page cache and free it: a list removal and a free,
/// the order of moving a page between LRU lists (`SCAN_ACTIVE_NS`).
pub const TRUNCATE_PAGE_NS: u64 = crate::mm::vmscan::SCAN_ACTIVE_NS;

impl Mm {
    /// Truncate space `sp` to length zero (`truncate_inode_pages_range`, the same in every
    /// version modelled; tmpfs: `shmem_undo_range`). Its first pass waits for nothing: every
    /// page that is neither locked (a read in flight) nor under writeback is taken out of the
    /// page cache and freed at once, a dirty one without being written (`folio_cancel_dirty`);
    /// the caller waits for the IO of the rest and calls again (the second pass). It is not
    /// reclaim: no pgscan/pgsteal, no shadow entry; the shadow entries already there go too
    /// (`truncate_folio_batch_exceptionals`), so a later read of the offset is no refault. A
    /// tmpfs file's swap slots are freed. The end of file and the append position go to zero.
    /// Until the last pass, writes to the file wait (`Space::truncating`, set here to `task`:
    /// the inode lock), so each pass finds only the pages the first one left busy. Returns
    /// (frames freed, frames still busy).
    pub fn truncate_space(&mut self, sp: u32, task: u32) -> (u64, u64) {
        let s = sp as usize;
        if self.spaces[s].truncating == NIL {
            // The first pass. Writers that took an append position since then write there.
            self.spaces[s].eof = 0;
            self.spaces[s].append_cursor = 0;
            self.spaces[s].segments_closed = 0;
            self.spaces[s].drop_pending.clear();
        }
        // The flushers forget the dirty pages about to go (`folio_account_cleaned`).
        let frames = &self.frames;
        self.wb.dirty_fifo.retain(|&(f, _)| {
            frames.space[f as usize] != sp
                || frames.folio[f as usize].flags & (PG_LOCKED | PG_WRITEBACK) != 0
        });
        let (mut freed, mut busy) = (0, 0);
        for i in 0..self.spaces[s].len() as usize {
            let f = self.spaces[s].page(i);
            if f != NIL {
                if self.frames.folio[f as usize].flags & (PG_LOCKED | PG_WRITEBACK) != 0 {
                    busy += 1;
                    continue;
                }
                self.clear_dirty(f);
                self.drop_page(f);
                freed += 1;
            }
            // The offset holds no page now.
            if self.spaces[s].kind != SpaceKind::File {
                self.release_slot(sp, i as u64);
            }
            self.spaces[s].clear_shadow(i);
        }
        self.spaces[s].truncating = if busy > 0 { task } else { NIL };
        (freed, busy)
    }

    /// The task that holds space `sp`'s inode lock (`i_rwsem`) across the passes of a
    /// truncate that waits for IO (`truncate_space`), if any.
    pub fn inode_lock_holder(&self, sp: u32) -> Option<u32> {
        let holder = self.spaces[sp as usize].truncating;
        (holder != NIL).then_some(holder)
    }

    /// The holder of space `sp`'s inode lock is gone (killed while it waited): the lock is
    /// free.
    pub fn inode_unlock(&mut self, sp: u32) {
        self.spaces[sp as usize].truncating = NIL;
    }

    /// POSIX_FADV_DONTNEED over frames `start..start + n` of space `sp` (`generic_fadvise`):
    /// drop each page that is clean, unmapped and has no IO in flight
    /// (`invalidate_mapping_pages`, the same in every version modelled), leaving no shadow
    /// entry since this is not reclaim, and clear the shadow entries of pages already gone
    /// (3.15+, `invalidate_exceptional_entry`). A tmpfs file is left alone: from 4.14 fadvise
    /// returns early for a file system without a backing device (in `fadvise64_64`, from 4.19
    /// `generic_fadvise`); before, its swap entries were shmem's to handle, and its pages,
    /// dirty as tmpfs pages are here, could not be dropped.
    /// Abstracted: the writeback fadvise starts for dirty pages first, and 3.1+'s move of
    /// the pages it cannot drop to the inactive tail (`deactivate_file_folio`).
    /// Returns (frames freed, frames skipped because IO was in flight on them).
    pub fn invalidate_mapping_pages(&mut self, sp: u32, start: u64, n: u64) -> (u64, u64) {
        let (mut freed, mut busy) = (0, 0);
        if self.spaces[sp as usize].kind == SpaceKind::Shmem {
            return (freed, busy);
        }
        for i in start..start + n {
            let f = self.spaces[sp as usize].page(i as usize);
            if f == NIL {
                self.spaces[sp as usize].clear_shadow(i as usize);
                continue;
            }
            let flags = self.frames.folio[f as usize].flags;
            if flags & (PG_WRITEBACK | PG_LOCKED) != 0 {
                busy += 1;
                continue;
            }
            if self.frames.folio[f as usize].mapped != 0 || flags & PG_DIRTY != 0 {
                continue;
            }
            self.drop_page(f);
            freed += 1;
        }
        (freed, busy)
    }

    /// A `drop_behind` writer of space `sp` (file range `offset..offset + pages`, segments of
    /// `seg` frames) is about to append at cursor segment `at`. Postgres closes each finished
    /// WAL segment when its writes move on, after an fsync of it, and drops it from the page
    /// cache with POSIX_FADV_DONTNEED (`XLogFileClose`, wal_level minimal): every segment
    /// between the last one closed and `at` is closed now; pages another writer still has
    /// under writeback are dropped at a later append, once that write has ended (standing
    /// in for the fsync). Returns the frames freed.
    pub fn drop_behind(&mut self, sp: u32, offset: u64, pages: u64, seg: u64, at: u64) -> u64 {
        // Writes the device has finished by now have ended (a sync writer's own completion
        // may be queued at this very instant).
        self.complete_writes_until(self.now);
        let mut freed = 0;
        let mut pending = std::mem::take(&mut self.spaces[sp as usize].drop_pending);
        let closed = self.spaces[sp as usize].segments_closed;
        for k in closed..at {
            pending.push((offset + (k * seg) % pages, seg));
        }
        self.spaces[sp as usize].segments_closed = closed.max(at);
        for (start, n) in pending {
            let (f, busy) = self.invalidate_mapping_pages(sp, start, n);
            freed += f;
            if busy > 0 {
                self.spaces[sp as usize].drop_pending.push((start, n));
            }
        }
        freed
    }
}

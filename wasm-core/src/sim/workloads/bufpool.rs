//! An application's own block cache in front of the page cache: postgres's shared buffers.
//!
//! The pool is a shared anon region, one buffer a frame. A read through it first looks the
//! block up; only a miss reaches the page cache, after a victim buffer is chosen by clock
//! sweep and, if dirty, written back with write(). This follows PostgreSQL's buffer manager
//! (`src/backend/storage/buffer/bufmgr.c` `BufferAlloc`/`PinBuffer`/`FlushBuffer` and
//! `freelist.c` `StrategyGetBuffer`, 9.x–13): so the kernel sees what postgres makes it see,
//! a page cache holding blocks that are mostly *not* in shared buffers, and buffer pages that
//! sit idle in anon memory until the sweep reuses them.
use std::collections::HashMap;

/// `BM_MAX_USAGE_COUNT`: a buffer survives at most this many passes of the clock hand unused.
pub const MAX_USAGE_COUNT: u8 = 5;

/// A block of a file: (file space, block index).
pub type Tag = (u32, u64);

/// What a lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// The block is in buffer `buf` and its contents are valid.
    Hit(u32),
    /// The block is being read into buffer `buf` by another client (`WaitIO`).
    Loading(u32),
    /// Not in the pool: buffer `buf` was taken for it, evicting `dirty_victim` if that block
    /// has to be written back first.
    Miss { buf: u32, dirty_victim: Option<Tag> },
}

#[derive(Clone)]
pub struct BufferPool {
    tag: Vec<Option<Tag>>,
    usage: Vec<u8>,
    dirty: Vec<bool>,
    /// A read into the buffer is in flight (`BM_IO_IN_PROGRESS`): the sweep skips it, as it
    /// skips pinned buffers.
    loading: Vec<bool>,
    /// The client (task index) that is loading the buffer, while `loading`.
    loader: Vec<u32>,
    map: HashMap<Tag, u32>,
    /// Buffers never used yet are handed out in order before the sweep starts (the free list).
    next_free: u32,
    hand: u32,
}

impl BufferPool {
    pub fn new(buffers: u64) -> Self {
        let n = buffers.max(1) as usize;
        BufferPool {
            tag: vec![None; n],
            usage: vec![0; n],
            dirty: vec![false; n],
            loading: vec![false; n],
            loader: vec![0; n],
            map: HashMap::new(),
            next_free: 0,
            hand: 0,
        }
    }

    /// `ReadBuffer`: find the block, pinning it (`PinBuffer` raises the usage count), or take
    /// a buffer for it (`BufferAlloc`: a new buffer starts with usage count 1).
    pub fn lookup(&mut self, tag: Tag) -> Lookup {
        if let Some(&buf) = self.map.get(&tag) {
            let b = buf as usize;
            if self.usage[b] < MAX_USAGE_COUNT {
                self.usage[b] += 1;
            }
            return if self.loading[b] {
                Lookup::Loading(buf)
            } else {
                Lookup::Hit(buf)
            };
        }
        let buf = self.victim();
        let b = buf as usize;
        let old = self.tag[b].take();
        if let Some(old) = old {
            self.map.remove(&old);
        }
        let dirty_victim = if std::mem::take(&mut self.dirty[b]) {
            old
        } else {
            None
        };
        self.tag[b] = Some(tag);
        self.map.insert(tag, buf);
        self.usage[b] = 1;
        self.loading[b] = true;
        Lookup::Miss { buf, dirty_victim }
    }

    /// Client `task` does the load of `buf` (`StartBufferIO`): the one that took it at a miss,
    /// or one that took over after the loader died (`AbortBufferIO` let it start again).
    pub fn set_loader(&mut self, buf: u32, task: u32) {
        self.loader[buf as usize] = task;
    }

    /// The client loading `buf`, if a load is in progress.
    pub fn loader(&self, buf: u32) -> Option<u32> {
        self.loading[buf as usize].then_some(self.loader[buf as usize])
    }

    /// The read into `buf` finished (`TerminateBufferIO`).
    pub fn loaded(&mut self, buf: u32) {
        self.loading[buf as usize] = false;
    }

    /// The caller modified the block in `buf` (`MarkBufferDirty`): it is written back when
    /// the sweep reuses the buffer.
    pub fn mark_dirty(&mut self, buf: u32) {
        self.dirty[buf as usize] = true;
    }

    /// `StrategyGetBuffer`: a never-used buffer if any, else sweep the clock, decrementing
    /// usage counts until one at zero that is not in use is found.
    fn victim(&mut self) -> u32 {
        let n = self.tag.len() as u32;
        if self.next_free < n {
            self.next_free += 1;
            return self.next_free - 1;
        }
        // Every buffer loading at once cannot happen with fewer clients than buffers, but a
        // bound keeps a degenerate pool from spinning: after enough passes take the hand's.
        for _ in 0..(n as u64) * (MAX_USAGE_COUNT as u64 + 2) {
            let b = self.hand as usize;
            self.hand = (self.hand + 1) % n;
            if self.loading[b] {
                continue;
            }
            if self.usage[b] > 0 {
                self.usage[b] -= 1;
            } else {
                return b as u32;
            }
        }
        let b = self.hand;
        self.hand = (self.hand + 1) % n;
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_buffers_are_used_in_order_then_the_clock_takes_the_least_used() {
        let mut p = BufferPool::new(3);
        assert_eq!(
            p.lookup((0, 10)),
            Lookup::Miss {
                buf: 0,
                dirty_victim: None
            }
        );
        assert_eq!(
            p.lookup((0, 11)),
            Lookup::Miss {
                buf: 1,
                dirty_victim: None
            }
        );
        assert_eq!(
            p.lookup((0, 12)),
            Lookup::Miss {
                buf: 2,
                dirty_victim: None
            }
        );
        for b in 0..3 {
            p.loaded(b);
        }
        // Block 10 is used twice more (usage 3); 11 and 12 stay at 1.
        assert_eq!(p.lookup((0, 10)), Lookup::Hit(0));
        assert_eq!(p.lookup((0, 10)), Lookup::Hit(0));
        // The sweep: 10 (3->2), 11 (1->0), 12 (1->0), 10 (2->1), 11 at 0: the victim.
        assert_eq!(
            p.lookup((0, 13)),
            Lookup::Miss {
                buf: 1,
                dirty_victim: None
            }
        );
        assert_eq!(
            p.lookup((0, 11)),
            Lookup::Miss {
                buf: 2,
                dirty_victim: None
            }
        );
    }

    #[test]
    fn a_dirty_victim_is_named_for_write_back_and_its_block_leaves_the_pool() {
        let mut p = BufferPool::new(1);
        let Lookup::Miss { buf, .. } = p.lookup((1, 5)) else {
            panic!("first lookup must miss")
        };
        p.loaded(buf);
        p.mark_dirty(buf);
        // Usage 1 is swept to 0 first, then the buffer is taken.
        assert_eq!(
            p.lookup((1, 6)),
            Lookup::Miss {
                buf: 0,
                dirty_victim: Some((1, 5))
            }
        );
        p.loaded(0);
        assert!(matches!(
            p.lookup((1, 5)),
            Lookup::Miss {
                dirty_victim: None,
                ..
            }
        ));
    }

    #[test]
    fn the_loader_is_known_until_the_load_ends() {
        let mut p = BufferPool::new(2);
        let Lookup::Miss { buf, .. } = p.lookup((0, 1)) else {
            panic!("a miss")
        };
        p.set_loader(buf, 7);
        assert_eq!(p.loader(buf), Some(7));
        p.loaded(buf);
        assert_eq!(p.loader(buf), None);
    }

    #[test]
    fn a_block_being_read_is_waited_for_and_not_swept() {
        let mut p = BufferPool::new(2);
        assert!(matches!(p.lookup((0, 1)), Lookup::Miss { buf: 0, .. }));
        assert_eq!(p.lookup((0, 1)), Lookup::Loading(0));
        assert!(matches!(p.lookup((0, 2)), Lookup::Miss { buf: 1, .. }));
        p.loaded(1);
        // Buffer 0 is still loading: the sweep passes it and takes buffer 1.
        assert!(matches!(p.lookup((0, 3)), Lookup::Miss { buf: 1, .. }));
    }
}

//! The kernel model: Linux's mm/ as Reclaim Lab simulates it, one file per kernel file where
//! the kernel has one (each file's opening comment names the Linux file it mirrors). It knows
//! nothing of the simulation (`crate::sim`): it asks it for what it needs (a kswapd or flusher
//! wakeup, an IO completion) through `Mm::wakeups`, and a fault says how it ended by its return
//! value.
pub mod filemap;
pub mod fs_writeback;
pub mod memcg;
pub mod memcontrol;
pub mod memory;
pub mod mm_inline;
pub mod mm_types;
pub mod mmap;
pub mod mmzone;
pub mod oom_kill;
pub mod page_alloc;
pub mod page_writeback;
pub mod readahead;
pub mod rmap;
pub mod shmem;
pub mod space;
pub mod swap;
pub mod swap_state;
pub mod swapfile;
pub mod truncate;
pub mod vmscan;
pub mod vmstat;
pub mod workingset;

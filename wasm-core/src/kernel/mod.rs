//! Kernel reclaim policies and the variant flags that switch their historical behaviour.
pub mod balance;
pub mod flag_docs;
pub mod flags;
pub mod memcg_lru;
pub mod memcontrol;
pub mod mglru;
pub mod swap;
pub mod swap_readahead;
pub mod truncate;
pub mod variant;
pub mod vmscan;
pub mod watermarks;
pub mod workingset;

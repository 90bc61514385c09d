//! Kernel reclaim policies and the variant flags that switch their historical behaviour.
pub mod variant;

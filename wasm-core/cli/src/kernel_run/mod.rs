//! Ground truth: run a scenario on a real Linux kernel in QEMU (`reclaim kernel`) and compare
//! it with the model (`reclaim validate`). See docs/real-kernels.md.
pub mod plan;

#[cfg(target_os = "linux")]
pub mod cli;
#[cfg(target_os = "linux")]
pub mod guest;
#[cfg(target_os = "linux")]
pub mod host;
#[cfg(target_os = "linux")]
pub mod score;

//! `reclaim`, the command line of Reclaim Lab: a thin shell over the engine (`reclaim-core`):
//! argument parsing and text output (`cli`), and the runs on a real kernel under QEMU
//! (`kernel_run`, with the in-guest runner `reclaim-guest`).
pub mod cli;
pub mod kernel_run;

//! Reclaim Lab engine: Linux page reclaim simulated page by page.
//!
//! The core is pure Rust with no I/O; the CLI (`src/bin/reclaim.rs`) and the
//! wasm-bindgen facade (`src/wasm.rs`) are thin shells over [`Simulation`].
//!
//! Layout: `engine` (frames, lists, time, the `Simulation` API), `kernel` (reclaim policies
//! and variant flags), `devices` (storage queue models), `workloads` (task programs),
//! `scenario` (the file format), `report` (what a run reports).

pub mod cli;
pub mod devices;
#[doc(hidden)]
pub mod fuzzing;
#[cfg(not(target_arch = "wasm32"))]
pub mod kernel_run;
pub mod mm;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod sim;
#[cfg(not(target_arch = "wasm32"))]
pub mod sweep;
pub mod variant;
pub mod views;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
#[cfg(target_arch = "wasm32")]
mod wasm_alloc;

pub use sim::Simulation;

/// "message at file:line" of a panic, for the CLI's and the wasm facade's panic hooks, which
/// report an engine bug by its message instead of an exit status or `unreachable`.
pub fn panic_message(info: &std::panic::PanicHookInfo<'_>) -> String {
    let what = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string());
    let at = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    format!("{what}{at}")
}

/// The engine version, shown by the CLI and the web page.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

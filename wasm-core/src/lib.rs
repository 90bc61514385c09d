//! Reclaim Lab engine: Linux page reclaim simulated page by page.
//!
//! The core is pure Rust with no I/O; the CLI (crate `reclaim-cli`, `cli/`), the wasm-bindgen
//! facade (crate `reclaim-wasm`, `wasm/`) and the Python package (`python/`) are thin shells
//! over [`Simulation`].
//!
//! Layout, dependencies one way (`sim` -> `mm` -> `variant`, `devices`, `math`; the model never
//! names the simulation, the scenario format or the views, and the flag table and the devices
//! name neither; `tests/layout.rs` enforces it):
//! `sim` (virtual time, the event queue, tasks and their programs, building a simulation from a
//! scenario, the `Simulation` API), `mm` (the kernel model, one file per Linux mm/ file),
//! `variant` (the flag table and the kernel presets), `devices` (storage queue models),
//! `scenario` (the file format), `report` and `views` (what a run reports, and what the page
//! draws), `mrc` (miss-ratio curves of a replayed trace, above `sim`), `reference` (plain LRU
//! and OPT, below both `sim` and `mrc`), `sweep` (parameter sweeps, native only). No module
//! depends on itself through others.

pub mod devices;
#[doc(hidden)]
pub mod fuzzing;
pub mod math;
pub mod mm;
pub mod mrc;
pub mod reference;
pub mod report;
pub mod rng;
pub mod scenario;
pub mod sim;
#[cfg(not(target_arch = "wasm32"))]
pub mod sweep;
pub mod variant;
pub mod views;

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

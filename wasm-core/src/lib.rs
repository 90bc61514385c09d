//! Reclaim Lab engine: Linux page reclaim simulated page by page.
//!
//! The core is pure Rust with no I/O; the CLI (`src/bin/reclaim.rs`) and the
//! wasm-bindgen facade (`src/wasm.rs`) are thin shells over [`Simulation`].

pub mod engine;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use engine::Simulation;

/// The engine version, shown by the CLI and the web page.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

//! Thin wasm-bindgen facade over [`crate::Simulation`].
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub fn engine_version() -> String {
    crate::VERSION.to_string()
}

#[wasm_bindgen]
pub struct WasmSimulation {
    inner: crate::Simulation,
}

#[wasm_bindgen]
impl WasmSimulation {
    /// The built-in demo scenario.
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmSimulation {
        WasmSimulation { inner: crate::Simulation::demo() }
    }
    /// Advance by `ns` virtual nanoseconds.
    pub fn step(&mut self, ns: f64) {
        self.inner.step(ns.max(0.0) as u64)
    }
    pub fn now_ns(&self) -> f64 {
        self.inner.now_ns() as f64
    }
    pub fn counter_names(&self) -> Vec<String> {
        self.inner.counter_names()
    }
    pub fn counter_values(&self) -> Vec<f64> {
        self.inner.counter_values()
    }
}

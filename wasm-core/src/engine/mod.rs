//! Placeholder slice engine (replaced by the real reclaim engine).

/// A running simulation.
pub struct Simulation {
    frames: Vec<u64>,
    next_evict: usize,
    used: usize,
    page_cursor: u64,
    anon_pages: u64,
    now_ns: u64,
    counters: Vec<(&'static str, u64)>,
}

impl Simulation {
    /// The tiny built-in scenario: 4096 frames, one task touching 6000 anon pages in a loop.
    pub fn demo() -> Self {
        Simulation { frames: vec![u64::MAX; 4096], next_evict: 0, used: 0, page_cursor: 0, anon_pages: 6000, now_ns: 0,
            counters: vec![("pgfault", 0), ("pgsteal_direct", 0), ("pswpout", 0)] }
    }
    /// Advance virtual time by `ns` nanoseconds.
    pub fn step(&mut self, ns: u64) {
        let end = self.now_ns + ns;
        while self.now_ns < end {
            let page = self.page_cursor;
            self.page_cursor = (self.page_cursor + 1) % self.anon_pages;
            self.counters[0].1 += 1;
            if self.used < self.frames.len() { self.frames[self.used] = page; self.used += 1; }
            else { self.frames[self.next_evict] = page; self.next_evict = (self.next_evict + 1) % self.frames.len();
                   self.counters[1].1 += 1; self.counters[2].1 += 1; }
            self.now_ns += 1_000;
        }
    }
    pub fn now_ns(&self) -> u64 { self.now_ns }
    pub fn counter_names(&self) -> Vec<String> { self.counters.iter().map(|c| c.0.to_string()).collect() }
    pub fn counter_values(&self) -> Vec<f64> { self.counters.iter().map(|c| c.1 as f64).collect() }
}

// PLACEHOLDER: replaced on merge. The CLI's entry points into the engine, with the signatures
// the real engine provides; `new` always fails until the engine is wired in.
impl Simulation {
    /// A simulation of one variant of a parsed scenario.
    pub fn new(_scenario: &crate::scenario::Scenario, _variant_name: &str) -> Result<Simulation, String> {
        Err("engine not wired yet".to_string())
    }
    /// Run to `run.duration` and report.
    pub fn run_to_end(&mut self) -> crate::report::RunReport {
        let counters: std::collections::BTreeMap<String, u64> =
            self.counters.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        crate::report::RunReport {
            scenario: String::new(),
            variant: String::new(),
            preset: String::new(),
            swappiness: 0,
            virtual_s: self.now_ns as f64 / 1e9,
            measured: counters.clone(),
            counters,
            tasks: Vec::new(),
            oom_kills: Vec::new(),
        }
    }
}

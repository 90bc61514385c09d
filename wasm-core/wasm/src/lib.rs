//! Thin wasm-bindgen facade over [`reclaim_core::Simulation`]: scenario text in; counters, list
//! sizes, per-frame state, time series, page moves and the report out (typed arrays where
//! the page pulls them every animation frame). Built for wasm32 only.
#![cfg(target_arch = "wasm32")]

mod wasm_alloc;

use wasm_bindgen::prelude::*;

thread_local! {
    /// The message of the last panic. wasm32 aborts on a panic (a `RuntimeError: unreachable`
    /// in JS); the hook keeps what went wrong so that the page can say it (`last_panic`).
    static PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

thread_local! {
    /// The access traces the page supplied (`set_trace`), attached to every scenario parsed
    /// for a simulation here that names them: the trace never leaves the browser.
    static TRACES: std::cell::RefCell<reclaim_core::scenario::trace::Traces> =
        std::cell::RefCell::new(Default::default());
}

/// Supply trace `name` (the name a scenario's replay op uses) as the bytes of a file the page
/// holds; refused (throws) when longer than the resource budget allows.
#[wasm_bindgen]
pub fn set_trace(name: &str, bytes: Vec<u8>) -> Result<(), JsError> {
    let budget = reclaim_core::scenario::Budget::DEFAULT;
    TRACES
        .with(|t| {
            t.borrow_mut()
                .insert(name, std::sync::Arc::new(bytes), &budget)
        })
        .map_err(|e| JsError::new(&e))
}

/// Forget every trace supplied.
#[wasm_bindgen]
pub fn clear_traces() {
    TRACES.with(|t| *t.borrow_mut() = Default::default());
}

thread_local! {
    /// The set of traces before the last `stash_traces`: shared with the runs built from it
    /// (each holds its traces by `Arc`), not a copy; kept until `restore_traces` puts it back
    /// (a refused load) or `drop_stashed_traces` lets it go (a load taken).
    static STASHED: std::cell::RefCell<Option<reclaim_core::scenario::trace::Traces>> =
        const { std::cell::RefCell::new(None) };
}

/// Set the traces supplied aside (emptying the set), so that a load whose new traces or
/// scenario are refused can put them back without the page sending them again.
#[wasm_bindgen]
pub fn stash_traces() {
    let old = TRACES.with(|t| std::mem::take(&mut *t.borrow_mut()));
    STASHED.with(|s| *s.borrow_mut() = Some(old));
}

/// Put back the traces set aside by `stash_traces` (nothing when none is).
#[wasm_bindgen]
pub fn restore_traces() {
    if let Some(old) = STASHED.with(|s| s.borrow_mut().take()) {
        TRACES.with(|t| *t.borrow_mut() = old);
    }
}

/// Let go of the traces set aside by `stash_traces` (their bytes are freed once no run
/// holds them).
#[wasm_bindgen]
pub fn drop_stashed_traces() {
    STASHED.with(|s| *s.borrow_mut() = None);
}

/// The traces scenario `text` replays (the names the page must supply), as a list.
#[wasm_bindgen]
pub fn trace_names(text: &str) -> Result<Vec<String>, JsError> {
    let scn = reclaim_core::scenario::parse(text).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(scn.trace_names())
}

/// A scenario (TOML text) that replays trace `name`, supplied already, read in `format`
/// ("oracleGeneral" or "csv"): for a dropped file (`mrc::dropped_scenario`: one page an
/// object, a page cache of about half the footprint, classic vs MGLRU). Throws naming the
/// record of a bad trace.
#[wasm_bindgen]
pub fn trace_scenario(name: &str, format: &str) -> Result<String, JsError> {
    use reclaim_core::scenario::trace::TraceFormat;
    let format = match format {
        "oracleGeneral" => TraceFormat::OracleGeneral,
        "csv" => TraceFormat::Csv,
        other => {
            return Err(JsError::new(&format!(
                "unknown trace format {other:?}; known: oracleGeneral, csv"
            )))
        }
    };
    let src = TRACES
        .with(|t| t.borrow().get(name).cloned())
        .ok_or_else(|| JsError::new(&format!("trace {name:?} was not supplied (set_trace)")))?;
    reclaim_core::mrc::dropped_scenario(name, format, src).map_err(|e| JsError::new(&e))
}

/// Parse `text` and attach the traces supplied that it names.
fn parse_with_traces(text: &str) -> Result<reclaim_core::scenario::Scenario, JsError> {
    let mut scn = reclaim_core::scenario::parse(text).map_err(|e| JsError::new(&e.to_string()))?;
    TRACES.with(|t| scn.traces = t.borrow().clone());
    Ok(scn)
}

/// The miss-ratio curve's plan and reference columns of scenario `text` (one replay op, its
/// trace supplied) at `points` cache sizes: JSON `{plan: mrc::Plan, lru: [misses], opt:
/// [misses]}` (`mrc::MrcReference`), each column one entry a size. The kernel points are runs
/// of `WasmSimulation.fromMrcPoint`.
#[wasm_bindgen]
pub fn mrc_reference(text: &str, points: u32) -> Result<String, JsError> {
    use reclaim_core::mrc;
    let scn = parse_with_traces(text)?;
    let (plan, found) = mrc::plan(&scn, points as usize).map_err(|e| JsError::new(&e))?;
    let (lru, opt) = mrc::reference(&scn, &plan, &found).map_err(|e| JsError::new(&e))?;
    serde_json::to_string(&mrc::MrcReference { plan, lru, opt })
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Runs when the module is instantiated: install the panic hook.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        PANIC.with(|p| *p.borrow_mut() = Some(reclaim_core::panic_message(info)));
    }));
}

/// The message of the panic that aborted the last call (and clears it), or "" if none: after
/// a `RuntimeError: unreachable` the page reports this as an engine error.
#[wasm_bindgen]
pub fn last_panic() -> String {
    PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default()
}

#[wasm_bindgen]
pub fn engine_version() -> String {
    reclaim_core::VERSION.to_string()
}

/// Parse and validate scenario text; returns JSON `views::info::ScenarioInfo` or throws an Error
/// whose message names the line and what is wrong.
#[wasm_bindgen]
pub fn scenario_info(text: &str) -> Result<String, JsError> {
    let scn = reclaim_core::scenario::parse(text).map_err(|e| JsError::new(&e.to_string()))?;
    serde_json::to_string(&reclaim_core::views::info::ScenarioInfo::of(&scn))
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The scenario text a page setup runs (`scenario::knobs::Setup` as JSON: knobs and an
/// optional swappiness pair), resolved by the engine so the page applies no knob itself; throws
/// an Error naming the knob, variant or field that is wrong.
#[wasm_bindgen]
pub fn resolve_scenario(text: &str, setup: &str) -> Result<String, JsError> {
    let setup: reclaim_core::scenario::knobs::Setup = serde_json::from_str(setup)
        .map_err(|e| JsError::new(&format!("the page's setup is not valid: {e}")))?;
    reclaim_core::scenario::knobs::resolve(text, &setup).map_err(|e| JsError::new(&e))
}

/// Validate scenario text for the editor: JSON `null` when it is valid, else `{line, column,
/// field, message}` (1-based line and column in characters). Never throws.
#[wasm_bindgen]
pub fn scenario_check(text: &str) -> String {
    match reclaim_core::scenario::parse(text) {
        Ok(_) => "null".to_string(),
        Err(e) => serde_json::to_string(&e).unwrap_or_default(),
    }
}

/// The scenario's headline rows and expectation verdicts over its variants' reports (each the
/// JSON of `run_to_end_json`): `report::Assessment` as JSON, the same the CLI prints.
#[wasm_bindgen]
pub fn assess(text: &str, reports: Vec<String>) -> Result<String, JsError> {
    let scn = reclaim_core::scenario::parse(text).map_err(|e| JsError::new(&e.to_string()))?;
    let reports = reports
        .iter()
        .map(|r| serde_json::from_str::<reclaim_core::report::RunReport>(r))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| JsError::new(&format!("a report is not a RunReport: {e}")))?;
    serde_json::to_string(&reclaim_core::report::assess(&scn, &reports))
        .map_err(|e| JsError::new(&e.to_string()))
}

/// The results table (`report::results_table` over the page's counters, `RESULT_COUNTERS`) of
/// these runs, each the JSON of a RunReport or `null` for a column not in yet: JSON
/// `ResultRow[]`, the rows the CLI's `compare` prints.
#[wasm_bindgen]
pub fn results_table(reports: Vec<String>) -> Result<String, JsError> {
    let reports = reports
        .iter()
        .map(|r| serde_json::from_str::<Option<reclaim_core::report::RunReport>>(r))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| JsError::new(&format!("a report is not a RunReport: {e}")))?;
    let columns: Vec<Option<&reclaim_core::report::RunReport>> =
        reports.iter().map(Option::as_ref).collect();
    let rows = reclaim_core::report::results_table(&columns, reclaim_core::report::RESULT_COUNTERS);
    serde_json::to_string(&rows).map_err(|e| JsError::new(&e.to_string()))
}

/// Every behaviour flag (name, kernel version, one-line doc) and every preset's values, as
/// JSON `KernelInfo`: the page builds its per-flag toggles from this, never from a list of its
/// own.
#[wasm_bindgen]
pub fn kernel_info() -> String {
    serde_json::to_string(&reclaim_core::variant::flag_docs::kernel_info()).unwrap_or_default()
}

#[wasm_bindgen]
pub struct WasmSimulation {
    inner: reclaim_core::Simulation,
    /// Flags of the variant as the scenario file writes it (preset + its `flags` table).
    base_flags: reclaim_core::variant::Flags,
    /// vm.swappiness as the scenario asked for it (a capped kernel may have refused it).
    swappiness_asked: u32,
    /// For a checkpoint (`snapshot`): the bytes cloning the run allocated; 0 for a run built
    /// from a scenario.
    snapshot_bytes: usize,
}

impl WasmSimulation {
    /// The engine's message when the run ended early, as a thrown Error.
    fn ended_early(&self) -> Result<(), JsError> {
        match self.inner.error() {
            Some(e) => Err(JsError::new(e)),
            None => Ok(()),
        }
    }
    fn with_flags(
        scn: &reclaim_core::scenario::Scenario,
        variant: &str,
        overrides: &std::collections::BTreeMap<String, bool>,
    ) -> Result<WasmSimulation, JsError> {
        let spec = scn.variants.iter().find(|v| v.name == variant);
        let base_flags = match spec {
            Some(v) => {
                reclaim_core::variant::resolve(&v.preset, &v.flags).map_err(|e| JsError::new(&e))?
            }
            None => reclaim_core::variant::Flags::default(), // Simulation::new names the error
        };
        let scn = reclaim_core::scenario::overrides::with_flag_overrides(scn, variant, overrides)
            .map_err(|e| JsError::new(&e))?;
        let inner = reclaim_core::Simulation::new(&scn, variant).map_err(|e| JsError::new(&e))?;
        Ok(WasmSimulation {
            inner,
            base_flags,
            swappiness_asked: scn.swappiness_for(variant),
            snapshot_bytes: 0,
        })
    }
}

impl Default for WasmSimulation {
    fn default() -> Self {
        Self::new()
    }
}

#[wasm_bindgen]
impl WasmSimulation {
    /// The built-in demo scenario.
    #[wasm_bindgen(constructor)]
    pub fn new() -> WasmSimulation {
        let inner = reclaim_core::Simulation::demo();
        WasmSimulation {
            base_flags: inner.flags(),
            swappiness_asked: inner.swappiness(),
            inner,
            snapshot_bytes: 0,
        }
    }
    /// A simulation of `variant` of the scenario `text`; throws with a line-numbered message.
    #[wasm_bindgen(js_name = fromScenario)]
    pub fn from_scenario(text: &str, variant: &str) -> Result<WasmSimulation, JsError> {
        let scn = parse_with_traces(text)?;
        Self::with_flags(&scn, variant, &Default::default())
    }
    /// The kernel point of a miss-ratio curve: `variant` of scenario `text` with its replaying
    /// task in a memcg of memory.max = `pages` pages (`mrc::kernel_scenario`); run it to the
    /// end, then `replay_stats_json` gives its misses. Throws for a footprint whose point
    /// needs more frames than the budget allows.
    #[wasm_bindgen(js_name = fromMrcPoint)]
    pub fn from_mrc_point(
        text: &str,
        variant: &str,
        pages: f64,
    ) -> Result<WasmSimulation, JsError> {
        use reclaim_core::mrc;
        let scn = parse_with_traces(text)?;
        let (plan, _) = mrc::plan(&scn, 1).map_err(|e| JsError::new(&e))?;
        let budget = reclaim_core::scenario::Budget::DEFAULT;
        let point = mrc::kernel_scenario(&scn, pages as u64, plan.footprint, &budget)
            .map_err(|e| JsError::new(&e))?;
        Self::with_flags(&point, variant, &Default::default())
    }
    /// A finished kernel point's misses: task `task`'s, which must have made all `requests` of
    /// the trace (`mrc::kernel_misses`); throws naming how far it got otherwise.
    pub fn mrc_misses(&self, task: &str, requests: f64) -> Result<f64, JsError> {
        let s = self.inner.replay_stats_of(task);
        reclaim_core::mrc::kernel_misses(s.requests, s.misses, requests as u64)
            .map(|m| m as f64)
            .map_err(|e| JsError::new(&e))
    }
    /// Each replaying task's requests, misses and writes so far: JSON `[[task, {requests,
    /// misses, writes}], …]`.
    pub fn replay_stats_json(&self) -> String {
        serde_json::to_string(&self.inner.replay_stats()).unwrap_or_default()
    }
    /// Like `fromScenario`, with per-run flag overrides `{"flag": bool, …}` (JSON) on top of the
    /// variant as written; an unknown flag name throws an Error naming it.
    #[wasm_bindgen(js_name = fromScenarioWithFlags)]
    pub fn from_scenario_with_flags(
        text: &str,
        variant: &str,
        flags_json: &str,
    ) -> Result<WasmSimulation, JsError> {
        let scn = parse_with_traces(text)?;
        let overrides = reclaim_core::scenario::overrides::parse_overrides(flags_json)
            .map_err(|e| JsError::new(&e))?;
        Self::with_flags(&scn, variant, &overrides)
    }
    /// The run's constants as JSON (`views::info::RunInfo`): variant, scale, frames, end, its
    /// kernel (flags effective and as written, swappiness asked / cap / run) and memcg names.
    pub fn run_info(&self) -> String {
        use reclaim_core::variant::flag_docs::flag_values;
        use reclaim_core::views::info::{RunKernel, SwappinessInfo};
        let kernel = RunKernel {
            flags: flag_values(&self.inner.flags()),
            base_flags: flag_values(&self.base_flags),
            swappiness: SwappinessInfo {
                asked: self.swappiness_asked,
                cap: self.inner.flags().max_swappiness(),
                runs: self.inner.swappiness(),
            },
        };
        serde_json::to_string(&self.inner.run_info(kernel)).unwrap_or_default()
    }
    /// The state of the run for the page as JSON (`views::info::FrameView`): list sizes,
    /// watermarks, dirty state, the LRU view (about `cells` cells per full strip, the moves since
    /// the last call sampled down to `max_moves`) and the views. Takes the recorded moves.
    pub fn frame_view(&mut self, cells: u32, max_moves: u32) -> String {
        serde_json::to_string(&self.inner.frame_view(cells, max_moves as usize)).unwrap_or_default()
    }
    /// The vm.swappiness the kernel runs with.
    pub fn swappiness(&self) -> u32 {
        self.inner.swappiness()
    }
    /// A checkpoint of this run: an independent copy in its present state, which steps on
    /// exactly as this run would (the engine is deterministic; tests/checkpoint.rs). A seek
    /// restores a run by taking a snapshot of a checkpoint, so the checkpoint stays usable.
    pub fn snapshot(&self) -> WasmSimulation {
        let before = wasm_alloc::live_bytes();
        let inner = self.inner.clone();
        let snapshot_bytes = wasm_alloc::live_bytes() - before + std::mem::size_of::<Self>();
        WasmSimulation {
            inner,
            base_flags: self.base_flags,
            swappiness_asked: self.swappiness_asked,
            snapshot_bytes,
        }
    }
    /// The memory a snapshot holds: the bytes cloning the run allocated on the wasm heap (the
    /// allocator's count of live bytes before and after, dlmalloc's per-block headers aside)
    /// plus the handle itself. 0 for a run built from a scenario.
    pub fn snapshot_bytes(&self) -> f64 {
        self.snapshot_bytes as f64
    }
    /// Advance by `ns` virtual nanoseconds (or to the end of the run); throws an Error with
    /// the engine's message when the run ends early (its progress guard: virtual time stopped
    /// advancing).
    pub fn step(&mut self, ns: f64) -> Result<(), JsError> {
        self.inner.step(ns.max(0.0) as u64);
        self.ended_early()
    }
    /// Run to the end and return the report as JSON (the CLI's `run --json` document); throws
    /// as `step` does.
    pub fn run_to_end_json(&mut self) -> Result<String, JsError> {
        let report = self.inner.run_to_end();
        self.ended_early()?;
        Ok(serde_json::to_string(&report).unwrap_or_default())
    }
    pub fn report_json(&self) -> String {
        serde_json::to_string(&self.inner.report()).unwrap_or_default()
    }
    pub fn now_ns(&self) -> f64 {
        self.inner.now_ns() as f64
    }
    pub fn end_ns(&self) -> f64 {
        self.inner.end_ns() as f64
    }
    pub fn finished(&self) -> bool {
        self.inner.finished()
    }
    /// Pages per simulated frame.
    pub fn scale(&self) -> f64 {
        self.inner.scale() as f64
    }
    pub fn counter_names(&self) -> Vec<String> {
        self.inner.counter_names()
    }
    /// Counter values in pages, in `counter_names` order.
    pub fn counter_values(&self) -> Vec<f64> {
        self.inner.counter_values()
    }
    /// inactive_anon, active_anon, inactive_file, active_file, unevictable, free (pages).
    pub fn lru_sizes(&self) -> Vec<f64> {
        self.inner.lru_sizes().iter().map(|&v| v as f64).collect()
    }
    /// The refault-distance view as JSON (`views::RefaultView`).
    pub fn refault_view(&self) -> String {
        serde_json::to_string(&self.inner.refault_view()).unwrap_or_default()
    }
    /// The balance view as JSON (`views::BalanceView`, TypeScript type generated from it).
    pub fn balance_view(&self) -> String {
        serde_json::to_string(&self.inner.balance_view()).unwrap_or_default()
    }
    /// Whether the multi-gen LRU runs (the generations view applies).
    pub fn lru_gen(&self) -> bool {
        self.inner.lru_gen()
    }
    /// Names of the memcgs by id ("/" = root).
    pub fn memcg_names(&self) -> Vec<String> {
        self.inner.memcg_names()
    }
    /// The memcg LRU view as JSON (`views::MemcgLruView`, TypeScript type generated from it).
    pub fn memcg_lru_view(&self) -> String {
        serde_json::to_string(&self.inner.memcg_lru_view()).unwrap_or_default()
    }
    /// Pages asked of memory.reclaim so far (writes that are over): see
    /// `Simulation::reclaim_requested_pages`.
    pub fn reclaim_requested_pages(&self) -> f64 {
        self.inner.reclaim_requested_pages() as f64
    }
    /// Switch the multi-gen LRU on or off now (/sys/kernel/mm/lru_gen/enabled).
    pub fn set_lru_gen(&mut self, enabled: bool) {
        self.inner.set_lru_gen(enabled)
    }
    /// The generations of lruvec `lv` (0 = root) as JSON (`views::GensView`), "null" when the
    /// lruvec does not exist.
    pub fn lru_gen_view(&self, lv: u32) -> String {
        serde_json::to_string(&self.inner.lru_gen_view(lv as usize)).unwrap_or_default()
    }
    /// Per frame: its address space id (4294967295 when free).
    pub fn frame_spaces(&self) -> Vec<u32> {
        self.inner.frame_spaces().to_vec()
    }
    pub fn space_names(&self) -> Vec<String> {
        self.inner.space_names()
    }
    /// Frames of LRU list `lru` (0..4) from head to tail.
    pub fn list_frames(&self, lru: u32) -> Vec<u32> {
        self.inner.list_frames((lru as usize).min(4))
    }
    /// Number of time-series rows so far.
    pub fn series_len(&self) -> u32 {
        self.inner.series().len() as u32
    }
    /// Values per series row (`views::series::columns`, generated as SERIES_COLUMNS).
    pub fn series_width(&self) -> u32 {
        reclaim_core::views::series::columns().len() as u32
    }
    /// Rows `from..` of the time series, flattened in SERIES_COLUMNS order, in pages.
    pub fn series_from(&self, from: u32) -> Vec<f64> {
        let scale = self.inner.scale();
        let mut out = Vec::new();
        for s in self.inner.series().iter().skip(from as usize) {
            s.push_row(scale, &mut out);
        }
        out
    }
    /// Drop the moves recorded since the last frame (a seek's replay is no animation).
    pub fn discard_moves(&mut self) {
        self.inner.drain_moves();
    }
    /// Record at most `capacity` page moves between frames (0 turns recording off).
    pub fn set_move_trace(&mut self, capacity: u32) {
        self.inner.set_move_trace(capacity as usize)
    }
}

//! What a run reports: the stable JSON contract of `reclaim run --json` (documented in README).
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RunReport {
    /// Scenario title.
    pub scenario: String,
    /// Variant name (e.g. "before").
    pub variant: String,
    /// Kernel preset of the variant.
    pub preset: String,
    /// The swappiness the kernel really ran with (a capped kernel refuses larger values).
    pub swappiness: u32,
    /// Virtual seconds simulated.
    pub virtual_s: f64,
    /// /proc/vmstat names to page counts, over the whole run.
    pub counters: BTreeMap<String, u64>,
    /// The same counters measured from `run.measure_from` (equal to `counters` without it).
    pub measured: BTreeMap<String, u64>,
    pub tasks: Vec<TaskReport>,
    /// OOM kills: task and virtual time.
    pub oom_kills: Vec<OomKill>,
    /// Scenarios with `[[memcgs]]`: every memcg, the root ("/") first, in creation order.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub memcgs: Vec<MemcgReport>,
    /// Pages asked of memory.reclaim (all writes, all memcgs), where it was written.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reclaim_requested_pages: Option<u64>,
    /// Pages those writes reclaimed (as the kernel's loop counted them).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reclaim_reclaimed_pages: Option<u64>,
}

/// One memcg: memory.stat counters (hierarchical, pages; `pgscan` and `pgsteal` are the
/// kswapd + direct sums as in memory.stat) flattened into the object, usage and memory.events.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MemcgReport {
    pub name: String,
    /// The parent's name; None for the root.
    pub parent: Option<String>,
    /// memory.current at the end, pages.
    pub current_pages: u64,
    /// memory.events (hierarchical): low, high, max, oom, oom_kill.
    pub events: BTreeMap<String, u64>,
    #[serde(flatten)]
    pub stat: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TaskReport {
    pub name: String,
    /// Per-round wall times in virtual seconds (loops with record = "rounds").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds_s: Option<Vec<f64>>,
    /// Operations per virtual second (loops with record = "ops").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ops_per_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency_ms: Option<Percentiles>,
    /// Time stalled in direct reclaim, per allocation that stalled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_stall_ms: Option<Percentiles>,
    /// Time waiting for IO (major faults, read misses, pages locked for IO), per page access
    /// that waited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub io_wait_ms: Option<Percentiles>,
    /// Time a write was paused by dirty throttling (`balance_dirty_pages`), per page write
    /// that was paused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dirty_throttle_ms: Option<Percentiles>,
    pub major_faults: u64,
    pub killed: bool,
}

// Deserialize: `reclaim kernel`'s guest sends these to the host.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize, PartialEq)]
pub struct Percentiles {
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub mean: f64,
    pub count: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct OomKill {
    pub task: String,
    pub time_s: f64,
    pub freed_pages: u64,
}

/// `reclaim compare --json`
#[derive(Debug, Clone, Serialize)]
pub struct CompareReport {
    pub variants: Vec<RunReport>,
}

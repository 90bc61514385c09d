//! The scenario file format (TOML), as Rust types.
//!
//! Every struct denies unknown fields so that a typo is an error, not a silent default.
//! Sizes are written with units ("2GiB", "200MB", "4KiB") or as plain byte counts;
//! durations with units ("10s", "5ms", "250us", "100ns") or as plain seconds.
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::lesson::LessonStep;
use super::ops::subst;
// The ops live in ops.rs, each with its checks; `Op` is named here too, with the schema.
pub use super::ops::Op;
use super::units::{Duration, Size};
use crate::devices::{Device, PAGE_BYTES};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Short title, shown in the scenario picker.
    pub title: String,
    /// One-line description.
    #[serde(default)]
    pub description: String,
    /// Random seed for every random choice a workload makes.
    #[serde(default)]
    pub seed: u64,
    pub machine: Machine,
    #[serde(default)]
    pub sysctl: Sysctl,
    /// The kernels to run: usually a "before" and an "after" that differ in one flag.
    pub variants: Vec<VariantSpec>,
    #[serde(default)]
    pub devices: Vec<DeviceSpec>,
    #[serde(default)]
    pub files: Vec<FileSpec>,
    /// Memory cgroups under the root ("/"), in creation order.
    #[serde(default)]
    pub memcgs: Vec<MemcgSpec>,
    pub tasks: Vec<TaskSpec>,
    pub run: RunSpec,
    /// Expected outcomes (the bands of seed-experiments.md), as text for people and views.
    #[serde(default)]
    pub expect: Vec<Expectation>,
    /// Lesson steps: captions shown at virtual times (see `lesson.rs`).
    #[serde(default)]
    pub lesson: Vec<LessonStep>,
    /// The access traces the `replay` ops name, supplied by the shell after parsing (the
    /// engine opens no file): see `trace.rs` and [`Scenario::trace_names`].
    #[serde(skip)]
    pub traces: super::trace::Traces,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Physical memory.
    pub ram: Size,
    /// How many 4 KiB pages one simulated frame stands for (1 = exact).
    #[serde(default = "one")]
    pub frame_scale: u32,
    /// Swap space, if any.
    #[serde(default)]
    pub swap: Option<SwapSpec>,
    /// CPUs without a hardware accessed bit (ARM before ARMv6K) set a PTE young again through
    /// a minor fault after reclaim cleared it: the cost of that fault. Default 0: the bit is
    /// set by hardware for free.
    #[serde(default)]
    pub young_fault: Duration,
    /// CPUs that the tasks and kswapd share. Unset: every task and kswapd run on a CPU of
    /// their own, so kswapd's work never delays a task.
    #[serde(default)]
    pub cpus: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SwapSpec {
    /// Name of a device in `[[devices]]`.
    pub device: String,
    pub size: Size,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Sysctl {
    /// vm.swappiness as written by the scenario; a kernel that caps it refuses larger values.
    #[serde(default = "default_swappiness")]
    pub swappiness: u32,
    /// vm.min_free_kbytes; default computed from RAM as the kernel does.
    #[serde(default)]
    pub min_free_kbytes: Option<u64>,
    /// vm.watermark_scale_factor (in 1/10000 of memory).
    #[serde(default = "default_wsf")]
    pub watermark_scale_factor: u32,
    /// vm.dirty_ratio, percent of dirtyable memory.
    #[serde(default = "default_dirty_ratio")]
    pub dirty_ratio: u32,
    /// vm.dirty_background_ratio, percent of dirtyable memory.
    #[serde(default = "default_dirty_bg_ratio")]
    pub dirty_background_ratio: u32,
    /// vm.laptop_mode.
    #[serde(default)]
    pub laptop_mode: bool,
    /// vm.page-cluster: swap readahead reads up to 2^page_cluster pages (default 3).
    #[serde(default = "default_page_cluster")]
    pub page_cluster: u32,
    /// /sys/kernel/mm/lru_gen/min_ttl_ms (MGLRU thrashing protection; 0 = off).
    #[serde(default)]
    pub lru_gen_min_ttl: Duration,
}

impl Default for Sysctl {
    fn default() -> Self {
        Sysctl {
            swappiness: default_swappiness(),
            min_free_kbytes: None,
            watermark_scale_factor: default_wsf(),
            dirty_ratio: default_dirty_ratio(),
            dirty_background_ratio: default_dirty_bg_ratio(),
            laptop_mode: false,
            page_cluster: default_page_cluster(),
            lru_gen_min_ttl: Duration::default(),
        }
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSpec {
    /// Name shown in tables, e.g. "before" / "after".
    pub name: String,
    /// A preset such as "linux-5.2"; see `variant::PRESETS`.
    pub preset: String,
    /// Individual flag overrides on top of the preset.
    #[serde(default)]
    pub flags: BTreeMap<String, bool>,
    /// Sysctls this variant writes over `[sysctl]`, so one kernel can be compared at two knob
    /// settings (e.g. swappiness 0 against 200); the kernel's cap still applies.
    #[serde(default)]
    pub sysctl: VariantSysctl,
}

/// The sysctls a variant may set (absent: the scenario's `[sysctl]` value).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VariantSysctl {
    /// vm.swappiness for this variant.
    #[serde(default)]
    pub swappiness: Option<u32>,
}

pub use crate::devices::DeviceKind;

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceSpec {
    pub name: String,
    pub kind: DeviceKind,
    /// Overrides of the kind's physical defaults (see `devices`).
    #[serde(default)]
    pub read_latency: Option<Duration>,
    #[serde(default)]
    pub write_latency: Option<Duration>,
    /// Sequential bandwidth, bytes per second ("150MB" means 150 MB/s).
    #[serde(default)]
    pub bandwidth: Option<Size>,
    /// Requests serviced in parallel.
    #[serde(default)]
    pub parallelism: Option<u32>,
    /// zram: compressed size = size / compression_ratio.
    #[serde(default)]
    pub compression_ratio: Option<f64>,
    /// Rotational disks: the disk's size. When given, seeks depend on the distance travelled
    /// (short within a small part of a large disk); otherwise every seek is the average.
    #[serde(default)]
    pub capacity: Option<Size>,
    /// How much written data the host queue holds before a writer must wait for a completion
    /// (nr_requests x max_segments pages; defaults per kind in `devices`; "0": no limit).
    /// The flushers' request tags are this over max_segments (64 by default on SATA).
    /// Disks and SSDs only.
    #[serde(default)]
    pub write_queue: Option<Size>,
}

impl DeviceSpec {
    /// The device model this spec describes: the kind's defaults with the spec's overrides.
    pub fn device(&self) -> Device {
        let mut d = Device::default_for(&self.name, self.kind);
        if let Some(l) = self.read_latency {
            d.read_latency_ns = l.ns();
            if d.seek_ns > 0 {
                // For a disk, a given random read latency is the positioning time.
                d.seek_ns = l.ns();
                d.read_latency_ns = 0;
            }
        }
        if let Some(l) = self.write_latency {
            d.write_latency_ns = l.ns();
        }
        if let Some(b) = self.bandwidth {
            d.bytes_per_s = b.bytes().max(1);
        }
        if let Some(p) = self.parallelism {
            d.parallelism = p.max(1);
        }
        if let Some(r) = self.compression_ratio {
            d.compression_ratio = r.max(1.0);
        }
        if let Some(c) = self.capacity {
            d.capacity_pages = c.bytes() / PAGE_BYTES;
        }
        if let Some(q) = self.write_queue {
            // "0": no limit.
            d.write_queue_pages = q.bytes().div_ceil(PAGE_BYTES);
        }
        d
    }
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FileSpec {
    pub name: String,
    pub size: Size,
    /// Name of a device in `[[devices]]`; "tmpfs" files live in memory (swap-backed).
    pub device: String,
    /// tmpfs: the file's pages are shmem (anon type) and are created on first touch.
    #[serde(default)]
    pub tmpfs: bool,
}

/// A memory cgroup (cgroup v2 memory controller).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MemcgSpec {
    /// Unique name; "/" is the root, which always exists. With `replicas`, `{i}` is replaced
    /// by the replica's number (0, 1, ...).
    pub name: String,
    /// Parent memcg, declared earlier (default: the root "/"); `{i}` is substituted too.
    #[serde(default)]
    pub parent: Option<String>,
    /// memory.min, memory.low (default 0), memory.high, memory.max (default: no limit).
    #[serde(default)]
    pub min: Option<Size>,
    #[serde(default)]
    pub low: Option<Size>,
    #[serde(default)]
    pub high: Option<Size>,
    #[serde(default)]
    pub max: Option<Size>,
    /// Declare this many identical memcgs (names must contain `{i}`).
    #[serde(default)]
    pub replicas: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSpec {
    /// With `replicas`, `{i}` is replaced by the replica's number (also in `memcg`, in region
    /// names -- a shared anon region's name is its shmem object's -- and in memory_reclaim's
    /// memcg).
    pub name: String,
    /// The memcg the task runs in (default: the root "/").
    #[serde(default)]
    pub memcg: Option<String>,
    /// Declare this many copies of the task, each its own task spec (unlike `clients`).
    #[serde(default)]
    pub replicas: Option<u32>,
    /// Virtual start time.
    #[serde(default)]
    pub start: Duration,
    /// Number of identical clients running this program (each its own task).
    #[serde(default = "one")]
    pub clients: u32,
    pub program: Vec<Op>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Pattern {
    #[default]
    Seq,
    Random,
    Zipf,
    /// The next pages after a cursor kept by the address space itself, shared by every task
    /// and op that sweeps it and carried over between ops: a ring that several tasks fill in
    /// turn. (An application cache that looks blocks up is `buffer` on a read instead.)
    Sweep,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Hint {
    #[default]
    Normal,
    /// MADV_SEQUENTIAL
    Sequential,
    /// MADV_RANDOM
    Random,
    /// POSIX_FADV_NOREUSE
    Noreuse,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Record {
    /// Nothing recorded.
    #[default]
    None,
    /// Each iteration's wall time is a round (`rounds_s` in the report).
    Rounds,
    /// Each iteration is one operation (`ops_per_s`, `latency_ms`).
    Ops,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RunSpec {
    /// Stop at this virtual time even if tasks are still running.
    pub duration: Duration,
    /// Interval of the time series.
    #[serde(default = "default_sample")]
    pub sample_interval: Duration,
    /// Measure counters from this mark on (headline tables); default: from the start.
    #[serde(default)]
    pub measure_from: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// What holds when the experiment is reproduced, in words.
    pub text: String,
    /// The same, checkable over the reports (scenario/expect.rs); all must hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<super::expect::Check>,
}

fn one() -> u32 {
    1
}
fn default_page_cluster() -> u32 {
    3
}

fn default_swappiness() -> u32 {
    60
}
fn default_wsf() -> u32 {
    10
}
fn default_dirty_ratio() -> u32 {
    20
}
fn default_dirty_bg_ratio() -> u32 {
    10
}
fn default_sample() -> Duration {
    Duration::from_ns(100_000_000)
}

impl Scenario {
    /// The traces the scenario's `replay` ops name (each once, sorted), for the shell to
    /// supply before the simulation is built.
    pub fn trace_names(&self) -> Vec<String> {
        fn walk(ops: &[Op], out: &mut std::collections::BTreeSet<String>) {
            for op in ops {
                match op {
                    Op::Replay(r) => {
                        out.insert(r.trace.clone());
                    }
                    Op::Loop(l) => walk(&l.body, out),
                    _ => {}
                }
            }
        }
        let mut out = std::collections::BTreeSet::new();
        for t in &self.tasks {
            walk(&t.program, &mut out);
        }
        out.into_iter().collect()
    }

    /// vm.swappiness `variant` asks for: its own `sysctl.swappiness`, else the scenario's.
    pub fn swappiness_for(&self, variant: &str) -> u32 {
        self.variants
            .iter()
            .find(|v| v.name == variant)
            .and_then(|v| v.sysctl.swappiness)
            .unwrap_or(self.sysctl.swappiness)
    }

    /// The memcgs with `replicas` expanded, each with the index of the entry it came from.
    pub fn expanded_memcgs(&self) -> Vec<(usize, MemcgSpec)> {
        let mut out = Vec::new();
        for (k, m) in self.memcgs.iter().enumerate() {
            match m.replicas {
                None => out.push((k, m.clone())),
                Some(n) => {
                    for i in 0..n {
                        let mut c = m.clone();
                        c.name = subst(&m.name, i);
                        c.parent = m.parent.as_ref().map(|p| subst(p, i));
                        c.replicas = None;
                        out.push((k, c));
                    }
                }
            }
        }
        out
    }

    /// The tasks with `replicas` expanded, each with the index of the entry it came from.
    pub fn expanded_tasks(&self) -> Vec<(usize, TaskSpec)> {
        let mut out = Vec::new();
        for (k, t) in self.tasks.iter().enumerate() {
            match t.replicas {
                None => out.push((k, t.clone())),
                Some(n) => {
                    for i in 0..n {
                        let mut c = t.clone();
                        c.name = subst(&t.name, i);
                        c.memcg = t.memcg.as_ref().map(|m| subst(m, i));
                        c.program = t.program.iter().map(|op| op.subst(i)).collect();
                        c.replicas = None;
                        out.push((k, c));
                    }
                }
            }
        }
        out
    }
}

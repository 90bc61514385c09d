//! The resource budget: how much a scenario may ask of the machine that runs it.
//!
//! A scenario is untrusted input (a shared link carries a whole one), so what it would make the
//! engine allocate or do is checked during validation, before anything is built: frames, the
//! pages of files, anon regions and swap, tasks (after replicas and clients), memcgs and their
//! depth, samples of the time series, ops, and the text itself. Each limit is generous for real
//! experiments (every scenario in `scenarios/` runs at its original size, S003's 128 memcgs and
//! 512 GiB at frame_scale 512 included) and documented in docs/scenarios.md. The web page and links
//! always use [`Budget::DEFAULT`]; the CLI's `--no-budget` lifts the soft limits for big native
//! runs, while the hard ones that keep the engine's own arithmetic and ids in range stay.

/// Scenario text, in bytes (a link carries at most 2 MB of text).
pub const MAX_TEXT_BYTES: usize = 2 << 20;
/// Simulated frames of RAM (`ram / (4 KiB x frame_scale)`): 8 GiB at frame_scale 1.
pub const MAX_FRAMES: u64 = 1 << 21;
/// Pages (frames) of all files, anon regions (per client, shared ones once) and swap
/// together: each is a slot in a per-page table (frame, shadow entry, swap slot).
pub const MAX_SPACE_FRAMES: u64 = 1 << 24;
/// Tasks after `replicas` and `clients` are expanded.
pub const MAX_TASKS: u64 = 4096;
/// Memcgs after `replicas` are expanded (the root not counted).
pub const MAX_MEMCGS: u64 = 4096;
/// Levels below the root of the memcg tree.
pub const MAX_MEMCG_DEPTH: u64 = 64;
/// Samples of the time series: `run.duration / run.sample_interval`.
pub const MAX_SAMPLES: u64 = 200_000;
/// Ops of every task's program, loop bodies included, after `replicas` are expanded.
pub const MAX_OPS: u64 = 100_000;
/// Accesses one touch, read or write may make when each may take no virtual time
/// (`cpu = 0` and `rate = 0` on resident pages): they all happen at one instant.
pub const MAX_FREE_ACCESSES: u64 = 1 << 24;

/// Bytes of one access trace a `replay` op plays (`scenario/trace.rs`): checked before the
/// trace is read; ~11 M oracleGeneral requests. The trace is streamed, never held whole by
/// the engine (the page holds the dropped file's bytes).
pub const MAX_TRACE_BYTES: u64 = 256 << 20;

/// Hard limit whatever the budget: memcg ids are 16 bits wide (as the kernel's are,
/// `MEM_CGROUP_ID_MAX` = 65535), and the root takes id 0.
pub const HARD_MAX_MEMCGS: u64 = u16::MAX as u64 - 1;
/// Hard limit whatever the budget: frame numbers are 32 bits wide, with room for the
/// sentinel.
pub const HARD_MAX_FRAMES: u64 = u32::MAX as u64 / 2;

/// The limits a scenario is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub text_bytes: usize,
    pub frames: u64,
    pub space_frames: u64,
    pub tasks: u64,
    pub memcgs: u64,
    pub memcg_depth: u64,
    pub samples: u64,
    pub ops: u64,
    pub free_accesses: u64,
    pub trace_bytes: u64,
}

impl Budget {
    /// The page's, the links' and the CLI's default.
    pub const DEFAULT: Budget = Budget {
        text_bytes: MAX_TEXT_BYTES,
        frames: MAX_FRAMES,
        space_frames: MAX_SPACE_FRAMES,
        tasks: MAX_TASKS,
        memcgs: MAX_MEMCGS,
        memcg_depth: MAX_MEMCG_DEPTH,
        samples: MAX_SAMPLES,
        ops: MAX_OPS,
        free_accesses: MAX_FREE_ACCESSES,
        trace_bytes: MAX_TRACE_BYTES,
    };

    /// `reclaim --no-budget`: only the hard limits of the engine's representation remain;
    /// the machine running it is the limit.
    pub const UNLIMITED: Budget = Budget {
        text_bytes: usize::MAX,
        frames: HARD_MAX_FRAMES,
        space_frames: u64::MAX,
        tasks: u32::MAX as u64,
        memcgs: HARD_MAX_MEMCGS,
        memcg_depth: HARD_MAX_MEMCGS,
        samples: u64::MAX,
        ops: u64::MAX,
        free_accesses: u64::MAX,
        trace_bytes: u64::MAX,
    };
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

//! Task programs: the scenario's ops compiled into a flat instruction list with resolved
//! spaces and regions, and the per-task interpreter state.
use crate::sim::stats::LatencyStats;
use std::rc::Rc;

pub mod bufpool;

use crate::mm::mm_types::Madvise;
use crate::rng::Zipf;
use crate::scenario::{Pattern, Record};

/// One compiled instruction.
#[derive(Debug, Clone)]
pub enum Instr {
    /// Create (or, for a shared name, attach to) an anonymous region.
    Anon {
        region: usize,
        pages: u64,
        shared: bool,
        name: String,
    },
    /// Map `pages` pages of file space `space` starting at `offset`.
    Mmap {
        region: usize,
        space: u32,
        offset: u64,
        pages: u64,
        exec: bool,
        /// madvise/fadvise advice of the mapping (MADV_SEQUENTIAL, MADV_RANDOM, FADV_NOREUSE).
        advice: Madvise,
        /// `advance`: the file's length in frames (each run maps the next chunk, wrapping).
        advance: Option<u64>,
    },
    Munmap {
        region: usize,
    },
    Free {
        region: usize,
    },
    Touch(Rc<Access>),
    Read(Rc<Access>),
    Write(Rc<Access>),
    Sleep {
        ns: u64,
    },
    ScanInactiveFile,
    DropCaches,
    /// Truncate file space `space` to length zero.
    Truncate {
        space: u32,
    },
    Mark {
        name: String,
    },
    /// A write to memory.reclaim of memcg `memcg`.
    MemoryReclaim {
        memcg: u16,
        bytes: u64,
        swappiness: Option<u32>,
    },
    /// Replay a trace through `access` (a read()'s file range, or a touch's one region).
    Replay {
        access: Rc<Access>,
        spec: Rc<crate::sim::replay::ReplaySpec>,
    },
    LoopStart {
        end: usize,
        count: Option<u64>,
        duration: Option<u64>,
        record: Record,
    },
    LoopEnd {
        start: usize,
    },
}

/// The common shape of touch/read/write: which pages, in what order, how fast.
#[derive(Debug, Clone)]
pub struct Access {
    /// Regions (touch) interleaved page by page; for read/write a single pseudo-region.
    pub regions: Vec<usize>,
    /// read/write: the file space and page range.
    pub space: u32,
    pub offset: u64,
    pub pages: u64,
    pub pattern: Pattern,
    pub count: Option<u64>,
    pub write: bool,
    pub cpu_ns: u64,
    pub zipf: Option<Rc<Zipf>>,
    /// Minimum interval between accesses (rate limit), ns.
    pub interval_ns: u64,
    /// A read's fadvise advice (POSIX_FADV_RANDOM, ...).
    pub advice: Madvise,
    /// Writes wait for the device (O_DSYNC).
    pub sync: bool,
    /// Bytes per sequential write (appends advance the shared cursor by this much).
    pub bytes: u64,
    /// touch: the share of accesses that write (drawn per access), when `write` is false.
    pub write_fraction: f64,
    /// Sequential writes: segment length in frames after which the finished segment is
    /// dropped with POSIX_FADV_DONTNEED (0: never).
    pub drop_behind: u64,
    /// read: the region slot of the buffer pool the read goes through (see `bufpool`).
    pub buffer: Option<usize>,
}

/// The stages of a read through a buffer pool that can wait for IO, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PoolStep {
    /// Write the victim's old block back to its file (`FlushBuffer`).
    WriteBack { buf: u32, old: bufpool::Tag },
    /// read() the block from the page cache.
    Read { buf: u32, fill: bool },
    /// Another client is reading the block into `buf`: wait for its read to finish
    /// (`WaitIO`), with no read() of our own.
    WaitIo { buf: u32 },
    /// Copy the block into the buffer page, or use it on a hit: a memory access.
    Use { buf: u32, fill: bool },
}

/// A task's view of a mapped or anonymous region: the kernel's VMA.
pub use crate::mm::mm_types::Vma as Region;

/// How many of a task's regions live in the task itself. Most programs map one or two; every
/// access reads its region, and with many tasks taking turns a separate allocation is one more
/// cache miss an access (S003 at 128 memcgs).
const INLINE_REGIONS: usize = 2;

/// A task's regions by the program's region number: the first `INLINE_REGIONS` inline.
#[derive(Debug, Clone)]
pub struct Regions {
    inline: [Region; INLINE_REGIONS],
    len: usize,
    more: Vec<Region>,
}

impl Default for Regions {
    fn default() -> Self {
        Regions {
            inline: [Region::UNUSED; INLINE_REGIONS],
            len: 0,
            more: Vec::new(),
        }
    }
}

impl Regions {
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn get(&self, i: usize) -> Option<&Region> {
        if i >= self.len {
            None
        } else if i < INLINE_REGIONS {
            Some(&self.inline[i])
        } else {
            self.more.get(i - INLINE_REGIONS)
        }
    }
    /// Set region `i`, the numbers below it that were never set left unused.
    pub fn set(&mut self, i: usize, r: Region) {
        if i >= self.len {
            self.len = i + 1;
            if self.len > INLINE_REGIONS {
                self.more.resize(self.len - INLINE_REGIONS, Region::UNUSED);
            }
        }
        self[i] = r;
    }
}

impl std::ops::Index<usize> for Regions {
    type Output = Region;
    fn index(&self, i: usize) -> &Region {
        assert!(i < self.len, "region {i} of {}", self.len);
        if i < INLINE_REGIONS {
            &self.inline[i]
        } else {
            &self.more[i - INLINE_REGIONS]
        }
    }
}

impl std::ops::IndexMut<usize> for Regions {
    fn index_mut(&mut self, i: usize) -> &mut Region {
        assert!(i < self.len, "region {i} of {}", self.len);
        if i < INLINE_REGIONS {
            &mut self.inline[i]
        } else {
            &mut self.more[i - INLINE_REGIONS]
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct LoopState {
    pub start: usize,
    pub end: usize,
    pub remaining: Option<u64>,
    pub deadline: Option<u64>,
    pub record: Record,
    pub iter_start: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskState {
    Runnable,
    /// Waiting for IO or a timer; an event will wake it.
    Waiting,
    Done,
    Killed,
}

impl TaskState {
    /// The task has ended, by itself or killed: it will not run again.
    pub fn is_over(self) -> bool {
        matches!(self, TaskState::Done | TaskState::Killed)
    }
}

/// A Zipf draw made ahead on a copy of a task's generator (`Simulation::draw_ahead`): the page
/// the op at `pc` draws from generator state `before`, and the state after it. Taken only on an
/// exact match of both, so the task's stream is the same whether or not it is taken.
#[derive(Debug, Clone, Copy)]
pub struct DrawAhead {
    pub pc: usize,
    pub before: u64,
    pub after: u64,
    pub page: u64,
}

/// A running task (one client of a task spec). `repr(C)`, aligned, with the fields every access
/// reads or writes first (its regions among them): with many tasks taking turns access by
/// access (S003: 128) each task's step then misses on the struct's first few cache lines, not
/// on lines spread over the struct by field size and a separate allocation.
#[repr(C, align(64))]
#[derive(Clone)]
pub struct Task {
    pub clock: u64,
    pub prog: Rc<[Instr]>,
    pub pc: usize,
    /// Accesses done in the current op.
    pub progress: u64,
    /// Start time of the current op (rate limiting).
    pub op_start: u64,
    pub rng: crate::rng::Rng,
    pub regions: Regions,
    /// Chosen page of a random access that faulted, retried after the IO.
    pub pending: Option<(usize, u64)>,
    /// The current access's running sums of the waits `io_waits_ns` and `throttle_waits_ns`
    /// record when it is done.
    pub acc_io_wait: u64,
    pub acc_throttle_wait: u64,
    /// Where a read through a buffer pool stopped to wait, resumed after the IO.
    pub pool_step: Option<PoolStep>,
    pub state: TaskState,
    /// The retry of the pending access continues a fault already counted (`Current::uncounted_retry`).
    pub retry_uncounted: bool,
    /// The last access's write fault left the task to go through `balance_dirty_pages`.
    pub throttle_pending: bool,
    /// The memcg the task runs in (charged for its new pages).
    pub memcg: u16,
    /// Read by Zipf touches only: after the fields every access reads.
    pub ahead: Option<DrawAhead>,
    pub loops: Vec<LoopState>,
    pub name: String,
    /// Index of the task spec in the scenario (clients share it).
    pub spec: usize,
    pub rounds_ns: Vec<u64>,
    /// (end time, latency) of the ops recorded before the time `run.measure_from` starts at
    /// is known (see `record_op`).
    pub ops_pending: Vec<(u64, u64)>,
    /// Latencies of the ops that ended at or after it.
    pub ops_measured: LatencyStats,
    /// Ops recorded in all, measured or not.
    pub ops_total: u64,
    pub alloc_stalls_ns: LatencyStats,
    pub major_faults: u64,
    /// Per page access that had to wait: time waiting for IO (faults, reads, locked pages)
    /// and time throttled by `balance_dirty_pages`.
    pub io_waits_ns: LatencyStats,
    pub throttle_waits_ns: LatencyStats,
    /// How many times each advancing mmap instruction (by pc) has run.
    pub mmap_runs: std::collections::BTreeMap<usize, u64>,
    /// A memory.reclaim write in progress.
    pub reclaim: Option<crate::mm::memcontrol::ReclaimWrite>,
    /// A trace replay in progress, and what the task's replays did.
    pub replay: Option<Box<crate::sim::replay::ReplayCursor>>,
    pub replay_stats: crate::sim::replay::ReplayStats,
    /// The reference policies beside a replay with `reference`.
    pub references: Option<Box<crate::sim::replay::References>>,
}

impl Task {
    /// The current page access is done: record what it waited for.
    pub fn finish_access(&mut self) {
        if self.acc_io_wait > 0 {
            self.io_waits_ns
                .record(std::mem::take(&mut self.acc_io_wait));
        }
        if self.acc_throttle_wait > 0 {
            self.throttle_waits_ns
                .record(std::mem::take(&mut self.acc_throttle_wait));
        }
    }

    /// An op ended at `end` after `took` ns. `measure_t0` is when the measured window starts,
    /// once known: until then ops wait in `ops_pending` (a warm-up's worth at most).
    pub fn record_op(&mut self, end: u64, took: u64, measure_t0: Option<u64>) {
        self.ops_total += 1;
        match measure_t0 {
            None => self.ops_pending.push((end, took)),
            Some(t0) => {
                for (e, l) in std::mem::take(&mut self.ops_pending) {
                    if e >= t0 {
                        self.ops_measured.record(l);
                    }
                }
                if end >= t0 {
                    self.ops_measured.record(took);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Task` keeps its layout: aligned to a cache line, the fields every access reads in its
    /// first four lines (an attribute or a field put in the wrong place undoes it silently;
    /// the reports cannot tell).
    #[test]
    fn a_tasks_hot_fields_lead_it() {
        use std::mem::{align_of, offset_of, size_of};
        assert_eq!(align_of::<Task>(), 64);
        let ends = [
            offset_of!(Task, clock) + size_of::<u64>(),
            offset_of!(Task, pc) + size_of::<usize>(),
            offset_of!(Task, progress) + size_of::<u64>(),
            offset_of!(Task, rng) + size_of::<crate::rng::Rng>(),
            offset_of!(Task, regions) + size_of::<Regions>(),
            offset_of!(Task, pending) + size_of::<Option<(usize, u64)>>(),
            offset_of!(Task, state) + size_of::<TaskState>(),
        ];
        assert!(ends.iter().all(|&e| e <= 256), "{ends:?}");
    }

    #[test]
    fn regions_past_the_inline_ones_and_gaps_read_as_unused() {
        let mut rs = Regions::default();
        assert!(rs.is_empty() && rs.get(0).is_none());
        let r = |pages| Region {
            pages,
            live: true,
            ..Region::UNUSED
        };
        rs.set(4, r(40));
        assert_eq!(rs.len(), 5);
        for i in 0..4 {
            assert!(!rs[i].live, "region {i} was never set");
        }
        assert_eq!(rs[4].pages, 40);
        assert!(rs.get(5).is_none());
        rs.set(1, r(10));
        rs[4].live = false;
        assert_eq!((rs.len(), rs[1].pages, rs[4].live), (5, 10, false));
    }
}

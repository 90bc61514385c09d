//! The node (include/linux/mmzone.h: `pglist_data`, `lruvec`): the state of the kernel model,
//! with frames, lruvecs, address spaces, swap, devices, counters, memcgs and the IO requests in
//! flight. The kernel's functions are `impl Mm` blocks over it, each in the file of mm/ that
//! holds its Linux counterpart.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::devices::Device;
use crate::mm::mm_types::*;
use crate::mm::page_alloc::Watermarks;
use crate::mm::space::{pte_dirty_ok, Space};
use crate::mm::swapfile::Swap;
use crate::mm::vmstat::{Counters, C};
use crate::variant::Flags;

/// Per-lruvec reclaim state (`struct lruvec`).
#[derive(Debug, Clone, Default)]
pub struct Lruvec {
    pub lists: [ListHead; NR_LRU_LISTS],
    /// 5.8+: decayed IO cost of reclaiming each type (`lru_note_cost`).
    pub anon_cost: u64,
    pub file_cost: u64,
    /// Eviction/activation clock of refault distances (`nonresident_age`, `inactive_age` <= 5.7).
    pub nonresident_age: u64,
    /// WORKINGSET_ACTIVATE_{ANON,FILE} of this lruvec (`lruvec_page_state`).
    pub workingset_activate: [u64; 2],
    /// Snapshot of `workingset_activate` taken when a reclaim run ends (`snapshot_refaults`).
    pub refaults: [u64; 2],
    /// <= 5.7: `reclaim_stat.recent_scanned/recent_rotated`, [anon, file].
    pub recent_scanned: [u64; 2],
    pub recent_rotated: [u64; 2],
    /// RFC 2016 (`rfc2016_lru_cost`): `lruvec->balance.denom`; its `numer[anon, file]` are
    /// kept in `anon_cost` and `file_cost`.
    pub cost_denom: u64,
    /// The multi-gen LRU's generations (`lruvec->lrugen`), used when `Flags::lru_gen` is on.
    pub lrugen: crate::mm::vmscan::lru_gen::LruGen,
    /// Scan targets are worked out in 4 KiB pages, as the kernel's are; with `frame_scale` > 1
    /// the part of a target smaller than a frame carries over to the next pass (per LRU list,
    /// then one for MGLRU's `get_nr_to_scan`), so a list scanned a fraction of a frame per pass
    /// is still scanned at the kernel's rate.
    pub scan_carry: [u64; 5],
    /// Sizes of the classic LRU lists summed over this memcg's subtree, kept as pages move
    /// (the kernel's memcg lruvec stats are hierarchical: `lruvec_page_state` of a parent
    /// covers its children since 5.x's rstat), so reading a parent's list size costs O(1).
    pub hier_len: [u64; NR_LRU_LISTS],
}

impl Lruvec {
    #[inline]
    pub fn size(&self, lru: usize) -> u64 {
        self.lists[lru].len
    }
    /// Turn a scan target in pages into frames of `scale` pages, carrying the remainder in
    /// `scan_carry[slot]` (see there).
    pub fn scan_frames(&mut self, slot: usize, pages: u64, scale: u64) -> u64 {
        let total = self.scan_carry[slot] + pages;
        self.scan_carry[slot] = total % scale;
        total / scale
    }
    /// `scan_frames` without moving the carry: a target recomputed within the same pass.
    pub fn peek_scan_frames(&self, slot: usize, pages: u64, scale: u64) -> u64 {
        (self.scan_carry[slot] + pages) / scale
    }
    pub fn lru_pages(&self) -> u64 {
        (0..4).map(|l| self.lists[l].len).sum()
    }
}

/// Node flags and kswapd bookkeeping (`pglist_data`).
#[derive(Debug, Clone, Default)]
pub struct Pgdat {
    /// PGDAT_DIRTY: kswapd met a batch of unqueued dirty file pages; it may write them.
    pub dirty: bool,
    /// PGDAT_WRITEBACK: kswapd met a batch entirely under writeback.
    pub writeback: bool,
    pub kswapd_failures: u32,
}

/// The running task's state that the model reads, as the kernel reads `current`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Current {
    /// `current->in_lru_fault`: the task is in a page fault on a mapping with recency
    /// (`lru_gen_enter_fault`), so MGLRU adds the pages it brings in as active.
    pub in_lru_fault: bool,
    /// The running access continues a fault already counted: its next pgfault is not counted
    /// (`count_pgfault`). Set for the retry of a waiting access; the count clears it.
    pub uncounted_retry: bool,
    /// `current->reclaim_state->mm_walk`: the running reclaimer has a page-table walker
    /// (`set_mm_walk`), so look-around promotes neighbours in place, uncounted.
    pub mm_walk: bool,
}

/// What the model asks the simulation to do at a time (the kernel's wakeups and interrupts):
/// the simulation queues them in the order asked and calls back into the model when they fire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wakeup {
    /// An IO request completes (`Mm::complete_io`).
    Io(u32),
    /// kswapd runs one `balance_pgdat` iteration (`Mm::kswapd_step`).
    Kswapd,
    /// The flusher threads write back dirty pages (`Mm::wb_workfn`).
    Flusher,
}

/// Why a page moved, for the animation's event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum MoveReason {
    /// A new page enters an LRU list (fault, read, refault).
    Add = 0,
    Activate = 1,
    Deactivate = 2,
    /// Kept on (or rotated within) its list by reclaim.
    Rotate = 3,
    /// Freed by reclaim.
    Evict = 4,
    /// Refault of a page whose shadow entry was found.
    Refault = 5,
    /// Freed because its owner exited or was killed.
    Free = 6,
}

/// What the model reports to the views as it goes, as the kernel's tracepoints do
/// (`trace_mm_lru_insertion`, `trace_mm_vmscan_lru_shrink_inactive`, ...): written by the
/// model, read only by the views; nothing the model computes reads it.
#[derive(Debug, Default, Clone)]
pub struct Tracepoints {
    /// Page moves between lists, for the animation.
    pub moves: MoveTrace,
    /// How often each scan balance was chosen (Equal, Fract, File, Anon).
    pub balance_hist: [u64; 4],
    /// The last `get_scan_count` call with its branch, reason and inputs (balance view).
    pub last_scan: Option<crate::mm::vmscan::balance::ScanDecision>,
    /// Pages scanned by the scenario's forced scans (`scan_inactive_file`), outside
    /// get_scan_count (balance view).
    pub forced_scan_pages: u64,
    /// The last classic refault with its distance (the refault-distance drawing).
    pub last_refault: Option<crate::mm::workingset::RefaultRecord>,
}

impl MoveReason {
    pub const ALL: [MoveReason; 7] = [
        MoveReason::Add,
        MoveReason::Activate,
        MoveReason::Deactivate,
        MoveReason::Rotate,
        MoveReason::Evict,
        MoveReason::Refault,
        MoveReason::Free,
    ];
}

/// One recorded page move: list ids as the model holds them (MGLRU generation lists included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TracedMove {
    pub t: u64,
    pub frame: u32,
    pub from: u8,
    pub to: u8,
    pub reason: MoveReason,
    /// Added at the tail of `to` (`lruvec_add_folio_tail`), not at its head.
    pub tail: bool,
}

/// A bounded record of page moves (sampled by the consumer; moves past `capacity` are not kept).
#[derive(Debug, Default, Clone)]
pub struct MoveTrace {
    pub enabled: bool,
    pub capacity: usize,
    pub moves: Vec<TracedMove>,
}

impl MoveTrace {
    /// A move that adds the page at the head of `to` (or takes it off the lists).
    #[inline]
    pub fn record(&mut self, t: u64, f: u32, from: u8, to: u8, why: MoveReason) {
        self.push(t, f, from, to, why, false)
    }
    /// A move that adds the page at the tail of `to` (`folio_rotate_reclaimable`).
    #[inline]
    pub fn record_tail(&mut self, t: u64, f: u32, from: u8, to: u8, why: MoveReason) {
        self.push(t, f, from, to, why, true)
    }
    #[inline]
    fn push(&mut self, t: u64, frame: u32, from: u8, to: u8, reason: MoveReason, tail: bool) {
        if !self.enabled {
            return;
        }
        if self.moves.len() < self.capacity {
            self.moves.push(TracedMove {
                t,
                frame,
                from,
                to,
                reason,
                tail,
            });
        }
    }
}

/// An IO request in flight.
#[derive(Debug, Clone)]
pub enum IoReq {
    /// Read into these frames (locked until done).
    Read { frames: Vec<u32> },
    /// Writeback of these frames.
    Write { frames: Vec<u32> },
}

/// The IO requests in flight by id (the block layer's request tags, `blk_mq_tags`, of every
/// device at once), with their completion times and the writes ordered by completion.
#[derive(Debug, Clone, Default)]
pub struct IoTable {
    reqs: Vec<Option<IoReq>>,
    /// Completion time of each in-flight request (parallel to `reqs`).
    done_at: Vec<u64>,
    free: Vec<u32>,
    /// Emptied frame lists of completed requests, for the next ones, so that most requests
    /// allocate no list (a simulator cost, not a kernel rule).
    bufs: Vec<Vec<u32>>,
    /// Writes completed early (`complete_writes_until`) whose queued event has not fired yet:
    /// their id is reused only after it has, so a stale event never completes a new request.
    early: Vec<bool>,
    /// Writes in flight by completion time (stale entries are dropped as they surface).
    write_heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl IoTable {
    /// Register a request completing at `done`; returns its id.
    fn insert(&mut self, req: IoReq, done: u64) -> u32 {
        let write = matches!(req, IoReq::Write { .. });
        let id = if let Some(id) = self.free.pop() {
            self.reqs[id as usize] = Some(req);
            self.done_at[id as usize] = done;
            id
        } else {
            self.reqs.push(Some(req));
            self.done_at.push(done);
            self.early.push(false);
            (self.reqs.len() - 1) as u32
        };
        if write {
            self.write_heap.push(Reverse((done, id)));
        }
        id
    }

    /// When the earliest request in flight completes.
    fn earliest(&self) -> Option<u64> {
        self.reqs
            .iter()
            .zip(&self.done_at)
            .filter(|(r, _)| r.is_some())
            .map(|(_, &t)| t)
            .min()
    }

    /// The request of id `id`, whose completion event fires now (None: completed early).
    fn take(&mut self, id: u32) -> Option<IoReq> {
        // Events fire in time order: writes that ended before this one are gone.
        let done = self.done_at[id as usize];
        while let Some(&Reverse((d, i))) = self.write_heap.peek() {
            if d < done || (d == done && i == id) {
                self.write_heap.pop();
            } else {
                break;
            }
        }
        let r = self.reqs[id as usize].take();
        if r.is_some() {
            self.free.push(id);
        } else if std::mem::take(&mut self.early[id as usize]) {
            // The event of a request completed early: its id is free from now on.
            self.free.push(id);
        }
        r
    }

    /// The write in flight that completes first, if it is done by `t`, taken ahead of its
    /// queued event (its id stays taken until the event).
    fn take_write_done_by(&mut self, t: u64) -> Option<IoReq> {
        while let Some(&Reverse((d, id))) = self.write_heap.peek() {
            if d > t {
                break;
            }
            self.write_heap.pop();
            let live = self.done_at[id as usize] == d
                && matches!(self.reqs[id as usize], Some(IoReq::Write { .. }));
            if live {
                self.early[id as usize] = true;
                return self.reqs[id as usize].take();
            }
        }
        None
    }

    /// The requests in flight.
    pub fn in_flight(&self) -> impl Iterator<Item = &IoReq> {
        self.reqs.iter().flatten()
    }
}

#[derive(Clone)]
pub struct Mm {
    /// 6.11+ (`memcg_incremental_walk`): per reclaim target memcg, the memcg its last partial
    /// walk stopped at (`mem_cgroup_reclaim_iter.position` of the target's per-node info);
    /// None: the next walk starts at the target.
    pub memcg_reclaim_pos: Vec<Option<u16>>,
    pub frames: Frames,
    pub free: Vec<u32>,
    pub lruvecs: Vec<Lruvec>,
    pub spaces: Vec<Space>,
    pub swap: Option<Swap>,
    pub devices: Vec<Device>,
    pub counters: Counters,
    pub flags: Flags,
    /// vm.swappiness as the kernel holds it.
    pub swappiness: u32,
    /// vm.page-cluster: swap readahead reads up to 2^page_cluster pages.
    pub page_cluster: u32,
    pub laptop_mode: bool,
    pub wmark: Watermarks,
    /// Pages per frame.
    pub scale: u64,
    pub pgdat: Pgdat,
    /// The model's clock (the kernel's jiffies, in ns): set by the simulation to the time of
    /// the event it runs.
    pub now: u64,
    /// Wakeups asked for and not yet taken by the simulation, in the order asked.
    pub wakeups: Vec<(u64, Wakeup)>,
    /// IO requests in flight.
    pub io: IoTable,
    /// When a locked frame's read completes.
    pub ready_at: Vec<u64>,
    /// What the model reports to the views as it goes.
    pub trace: Tracepoints,
    /// Dirty and writeback pages, the flushers and the dirty limits (fs_writeback.rs).
    pub wb: crate::mm::fs_writeback::Writeback,
    /// Cost of a minor fault that sets a young bit in software (0: hardware accessed bit).
    pub young_fault_ns: u64,
    /// Dirty pages of live files dropped without being written (must stay 0).
    pub dropped_dirty_file: u64,
    /// What the model reads of the running task (the kernel's `current`), set by the
    /// simulation when it runs one (`count_pgfault` consumes `uncounted_retry`).
    pub current: Current,
    /// kswapd's state (`balance_pgdat` progress, sleeping or not).
    pub kswapd: crate::mm::vmscan::Kswapd,
    /// /sys/kernel/mm/lru_gen/min_ttl_ms, in ns (0 = off).
    pub lru_gen_min_ttl_ns: u64,
    /// Memory cgroups: memcg id == index of its lruvec in `lruvecs` (root: 0).
    pub memcgs: crate::mm::memcg::Memcgs,
    /// The memcg of the task running now (`current`'s memcg), set by the interpreter; new
    /// pages are charged to it.
    pub cur_memcg: u16,
    /// Set when an allocation failed because a memcg is at memory.max and reclaim could not
    /// make room: the OOM killer then picks a victim inside that memcg (`mem_cgroup_out_of_memory`).
    pub oom_memcg: Option<u16>,
    /// The memcg OOM killer found no task to kill: the next charge is forced.
    pub memcg_force_charge: bool,
    /// The per-node LRU of memcgs that MGLRU root reclaim walks (6.3, `pgdat->memcg_lru`).
    pub memcg_lru: crate::mm::vmscan::memcg_lru::MemcgLru,
}

impl Mm {
    pub fn new(nframes: usize, scale: u64, flags: Flags, wmark: Watermarks) -> Mm {
        let mut free: Vec<u32> = (0..nframes as u32).collect();
        free.reverse(); // pop() hands out low frame numbers first
        Mm {
            frames: Frames::new(nframes),
            free,
            lruvecs: vec![Lruvec::default()],
            spaces: Vec::new(),
            swap: None,
            devices: Vec::new(),
            counters: Counters::default(),
            flags,
            swappiness: 60,
            laptop_mode: false,
            wmark,
            scale,
            pgdat: Pgdat::default(),
            now: 0,
            wakeups: Vec::new(),
            io: IoTable::default(),
            ready_at: vec![0; nframes],
            trace: Tracepoints::default(),
            wb: Default::default(),
            page_cluster: 3,
            young_fault_ns: 0,
            dropped_dirty_file: 0,
            current: Current::default(),
            memcg_reclaim_pos: Vec::new(),
            kswapd: crate::mm::vmscan::Kswapd {
                sleeping: true,
                ..Default::default()
            },
            lru_gen_min_ttl_ns: 0,
            memcgs: Default::default(),
            cur_memcg: 0,
            oom_memcg: None,
            memcg_force_charge: false,
            memcg_lru: {
                // MEMCG_NR_GENS: 2 in 6.3-6.6, 3 from 6.7. A fixed seed: the bins a memcg
                // lands in are random in the kernel (`get_random_u32_below`), reproducible here.
                let once = flags.memcg_lru_gen_once;
                let mut l = crate::mm::vmscan::memcg_lru::MemcgLru::new(
                    if once { 3 } else { 2 },
                    once,
                    crate::rng::Rng::new(0x6d65_6d63_675f_6c72),
                );
                l.online(0);
                l
            },
        }
    }

    // ---- memcgs -------------------------------------------------------------------------------

    /// Create a memcg under `parent` with its own lruvec (`mem_cgroup_css_alloc`); returns its
    /// id, which is also its lruvec's index.
    pub fn add_memcg(&mut self, name: &str, parent: u16) -> u16 {
        let id = self.memcgs.create(name, parent);
        self.lruvecs.push(Lruvec::default());
        // `lru_gen_online_memcg`: the tail of a random bin of the old generation.
        self.memcg_lru.online(id);
        debug_assert_eq!(self.lruvecs.len(), self.memcgs.len());
        id
    }

    /// The memcg side of an event counter (`__count_memcg_events` / `mod_lruvec_state`): counted
    /// into the memcg owning lruvec `lv`.
    #[inline]
    pub fn count_memcg(&mut self, lv: usize, c: C, n: u64) {
        self.memcgs.count(lv as u16, c, n);
    }

    /// A per-task event (`count_memcg_event_mm`: pgfault, pgmajfault): global and the current
    /// task's memcg.
    #[inline]
    pub fn count_event(&mut self, c: C, n: u64) {
        self.counters.add(c, n);
        self.memcgs.count(self.cur_memcg, c, n);
    }

    /// One pgfault (`handle_mm_fault`), unless the running access continues a fault that was
    /// counted already (see `Current::uncounted_retry`).
    #[inline]
    pub fn count_pgfault(&mut self) {
        if std::mem::take(&mut self.current.uncounted_retry) {
            return;
        }
        self.count_event(C::pgfault, 1);
    }

    /// `lruvec_page_state(lruvec, NR_LRU_BASE + lru)`: hierarchical size of one list (the
    /// lruvec's own pages plus those of its memcg's descendants).
    pub fn lruvec_state(&self, lv: usize, lru: usize) -> u64 {
        if self.memcgs.list[lv].children.is_empty() {
            return self.lruvecs[lv].size(lru);
        }
        self.lruvecs[lv].hier_len[lru]
    }

    /// Add `delta` frames to list `lru` of `lv` and of every ancestor in `hier_len`.
    #[inline]
    pub(crate) fn account_lru_len(&mut self, lv: usize, lru: usize, delta: i64) {
        let mut cur = Some(lv as u16);
        while let Some(m) = cur {
            let h = &mut self.lruvecs[m as usize].hier_len[lru];
            *h = h.wrapping_add_signed(delta);
            cur = self.memcgs.list[m as usize].parent;
        }
    }

    // ---- wakeups and IO in flight --------------------------------------------------------

    /// Ask the simulation to run `w` at time `t`.
    #[inline]
    pub fn wake_at(&mut self, t: u64, w: Wakeup) {
        self.wakeups.push((t, w));
    }

    /// An empty frame list for a new request (a recycled one when there is one).
    pub(crate) fn io_frames(&mut self) -> Vec<u32> {
        self.io.bufs.pop().unwrap_or_default()
    }

    /// Register the write of page `f` alone, completing at `done`.
    pub(crate) fn submit_page_write(&mut self, f: u32, done: u64) {
        let mut frames = self.io_frames();
        frames.push(f);
        self.submit_io(IoReq::Write { frames }, done);
    }

    /// A request's frame list, done with: kept for `io_frames` (a bounded number of them).
    pub(crate) fn recycle_io_frames(&mut self, mut frames: Vec<u32>) {
        if self.io.bufs.len() < 256 {
            frames.clear();
            self.io.bufs.push(frames);
        }
    }

    /// Register a request completing at `done` and schedule its completion event.
    pub fn submit_io(&mut self, req: IoReq, done: u64) {
        let id = self.io.insert(req, done);
        self.wake_at(done, Wakeup::Io(id));
    }

    /// When the earliest request in flight completes.
    pub fn earliest_io_completion(&self) -> Option<u64> {
        self.io.earliest()
    }

    /// The request whose completion event `id` fires now (None: completed early).
    pub fn take_io(&mut self, id: u32) -> Option<IoReq> {
        self.io.take(id)
    }

    /// Complete, in completion order, every write in flight that is done by `t`, ahead of its
    /// queued event: a reclaimer that sleeps for a request tag (`Device::write_queue_wait`)
    /// wakes after those writes have ended, so their pages are clean by then. Reads keep to
    /// their own events.
    pub fn complete_writes_until(&mut self, t: u64) {
        while let Some(req) = self.io.take_write_done_by(t) {
            self.finish_io(Some(req));
        }
    }

    // ---- sizes ----------------------------------------------------------------------------

    pub fn lru_size(&self, lru: usize) -> u64 {
        if self.flags.lru_gen && lru < 4 {
            return self.lruvecs.iter().map(|l| l.lrugen.abi_sizes()[lru]).sum();
        }
        self.lruvecs.iter().map(|l| l.size(lru)).sum()
    }
    /// Frames per given number of 4 KiB pages (at least one).
    pub fn pages_to_frames(&self, pages: u64) -> u64 {
        pages.div_ceil(self.scale).max(1)
    }

    // ---- LRU list operations ---------------------------------------------------------------

    // ---- frame allocation and freeing --------------------------------------------------------

    // ---- invariants ------------------------------------------------------------------------

    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.frames.len();
        // IO in flight holds its pages: none of them may have been freed meanwhile.
        for req in self.io.in_flight() {
            let (IoReq::Read { frames } | IoReq::Write { frames }) = req;
            for &f in frames {
                if self.frames.list[f as usize] == LIST_FREE {
                    return Err(format!("frame {f} is free while its IO is in flight"));
                }
            }
        }
        // The PTE copy (`Space::pte`) promises a resident, unlocked page whose frame has those
        // mappings mapped and young (and knows it has a copy, `PTE_COPIED`); the dirty copy, a
        // dirty swap-backed page outside the swap cache and not under writeback.
        for (sp, s) in self.spaces.iter().enumerate() {
            if s.nr_shadows() != s.count_shadows() {
                return Err(format!(
                    "space {sp}: shadow entries kept count {}, slots hold {}",
                    s.nr_shadows(),
                    s.count_shadows()
                ));
            }
            for (idx, (&bits, &dirty)) in s.pte.iter().zip(&s.pte_dirty).enumerate() {
                if bits | dirty == 0 {
                    continue;
                }
                let f = s.page(idx);
                if f == NIL {
                    return Err(format!(
                        "space {sp} page {idx}: young PTEs but not resident"
                    ));
                }
                let folio = self.frames.folio[f as usize];
                if folio.flags & PG_LOCKED != 0
                    || folio.flags & PTE_COPIED == 0
                    || bits & !(folio.mapped & folio.young) != 0
                    || dirty & !bits != 0
                    || (dirty != 0 && !pte_dirty_ok(folio.flags))
                {
                    return Err(format!(
                        "space {sp} page {idx}: PTE copy {bits:#04x}, dirty {dirty:#04x}, \
                         but frame {f} is mapped {:#04x}, young {:#04x}, flags {:#06x}",
                        folio.mapped, folio.young, folio.flags
                    ));
                }
            }
        }
        // The hierarchical list sizes match the subtree sums they stand for.
        for lvi in 0..self.lruvecs.len() {
            for lru in 0..NR_LRU_LISTS {
                let sum: u64 = self
                    .memcgs
                    .preorder(lvi as u16)
                    .iter()
                    .map(|&m| self.lruvecs[m as usize].size(lru))
                    .sum();
                if self.lruvecs[lvi].hier_len[lru] != sum {
                    return Err(format!(
                        "lruvec {lvi} list {lru}: hierarchical size {} but the subtree holds {sum}",
                        self.lruvecs[lvi].hier_len[lru]
                    ));
                }
            }
        }
        let mut on_list = vec![false; n];
        for (lvi, lv) in self.lruvecs.iter().enumerate() {
            for (lru, l) in lv.lists.iter().enumerate() {
                let mut count = 0u64;
                let mut f = l.head;
                let mut prev = NIL;
                while f != NIL {
                    let fi = f as usize;
                    if on_list[fi] {
                        return Err(format!("frame {f} on two lists"));
                    }
                    on_list[fi] = true;
                    if self.frames.list[fi] as usize != lru {
                        return Err(format!(
                            "frame {f} on list {lru} but tagged {}",
                            self.frames.list[fi]
                        ));
                    }
                    if self.frames.lruvec[fi] as usize != lvi {
                        return Err(format!(
                            "frame {f} on lruvec {lvi} but owned by {}",
                            self.frames.lruvec[fi]
                        ));
                    }
                    if self.frames.prev[fi] != prev {
                        return Err(format!("frame {f}: broken prev link"));
                    }
                    if lru_of(self.frames.folio[fi].flags) != lru {
                        return Err(format!(
                            "frame {f} on list {lru} but its flags select {}",
                            lru_of(self.frames.folio[fi].flags)
                        ));
                    }
                    let sp = self.frames.space[fi];
                    if sp == NIL
                        || self.spaces[sp as usize].page(self.frames.index[fi] as usize) != f
                    {
                        return Err(format!("frame {f} on an LRU list but not in its space"));
                    }
                    count += 1;
                    prev = f;
                    f = self.frames.next[fi];
                }
                if l.tail != prev {
                    return Err(format!("list {lru}: tail mismatch"));
                }
                if count != l.len {
                    return Err(format!("list {lru}: length {} but {count} linked", l.len));
                }
            }
        }
        for (lvi, lv) in self.lruvecs.iter().enumerate() {
            for g in lv.lrugen.lists.iter() {
                for (ty, l) in g.iter().enumerate() {
                    let mut f = l.head;
                    let mut count = 0u64;
                    while f != NIL {
                        let fi = f as usize;
                        if on_list[fi] {
                            return Err(format!("frame {f} on two lists"));
                        }
                        on_list[fi] = true;
                        let Some((_, tagged)) = gen_list_of(self.frames.list[fi]) else {
                            return Err(format!(
                                "frame {f} on a generation list but tagged otherwise"
                            ));
                        };
                        if tagged != ty {
                            return Err(format!("frame {f}: generation list type mismatch"));
                        }
                        if self.frames.lruvec[fi] as usize != lvi {
                            return Err(format!(
                                "frame {f} on a generation list of memcg {lvi} but charged to {}",
                                self.frames.lruvec[fi]
                            ));
                        }
                        count += 1;
                        f = self.frames.next[fi];
                    }
                    if count != l.len {
                        return Err(format!("generation list: length {} but {count}", l.len));
                    }
                }
            }
        }
        if self.flags.lru_gen {
            self.check_lru_gen()?;
        }
        self.memcg_lru.check()?;
        if self.memcg_lru.place.iter().filter(|p| p.is_some()).count() != self.lruvecs.len() {
            return Err("a memcg is missing from the memcg LRU".to_string());
        }
        for &f in &self.free {
            if on_list[f as usize] {
                return Err(format!("frame {f} both free and on a list"));
            }
            if self.frames.list[f as usize] != LIST_FREE {
                return Err(format!("free frame {f} not tagged free"));
            }
            on_list[f as usize] = true;
        }
        // Every frame is on exactly one list or free (reclaim isolates only within a call).
        if let Some(f) = on_list.iter().position(|x| !x) {
            return Err(format!("frame {f} neither free nor on an LRU list"));
        }
        for (si, s) in self.spaces.iter().enumerate() {
            let mut resident = 0;
            // A slot holds a frame or a shadow entry, never both (`Space::page`).
            for i in 0..s.len() as usize {
                let f = s.page(i);
                if f != NIL {
                    resident += 1;
                    if self.frames.space[f as usize] != si as u32
                        || self.frames.index[f as usize] != i as u32
                    {
                        return Err(format!(
                            "space {} page {i}: frame {f} points elsewhere",
                            s.name
                        ));
                    }
                    // A readahead page is claimed by the first access that maps it.
                    if self.frames.has(f, PG_READAHEAD) && self.frames.folio[f as usize].mapped != 0
                    {
                        return Err(format!(
                            "space {} page {i}: mapped but still unclaimed readahead",
                            s.name
                        ));
                    }
                }
            }
            if resident != s.resident {
                return Err(format!(
                    "space {}: resident count {} but {resident} pages",
                    s.name, s.resident
                ));
            }
        }
        self.check_swap_slots()?;
        // Dirty and writeback accounting: a page under writeback is never freed, a dirty page
        // is never freed or dropped unwritten, and every dirty file page is queued for the
        // flushers (so it is written before its frame can be reused).
        if self.dropped_dirty_file > 0 {
            return Err(format!(
                "{} dirty file pages dropped without writeback",
                self.dropped_dirty_file
            ));
        }
        for &f in &self.free {
            if self.frames.folio[f as usize].flags & (PG_DIRTY | PG_WRITEBACK) != 0 {
                return Err(format!("free frame {f} is dirty or under writeback"));
            }
        }
        let mut queued = vec![false; n];
        for &(f, _) in &self.wb.dirty_fifo {
            queued[f as usize] = true;
        }
        // The flusher's chunk waiting for a request tag: taken off the FIFO, still dirty.
        for &(f, sp, idx) in &self.wb.flusher_pending {
            let fi = f as usize;
            if self.frames.space[fi] == sp && self.frames.index[fi] == idx {
                queued[fi] = true;
            }
        }
        let (mut dirty, mut writeback) = (0u64, 0u64);
        for (f, fl) in self.frames.folio.iter().map(|p| p.flags).enumerate() {
            if fl & PG_SWAPBACKED != 0 || self.frames.space[f] == NIL {
                continue;
            }
            if fl & PG_DIRTY != 0 {
                dirty += 1;
                if !queued[f] {
                    return Err(format!("dirty file frame {f} is not queued for writeback"));
                }
            }
            if fl & PG_WRITEBACK != 0 {
                writeback += 1;
            }
        }
        if dirty != self.wb.nr_dirty || writeback != self.wb.nr_writeback {
            return Err(format!(
                "dirty/writeback counts {}/{} but {dirty}/{writeback} file pages flagged",
                self.wb.nr_dirty, self.wb.nr_writeback
            ));
        }
        // memcg charges: each memcg's own usage (its usage minus its children's) is the number
        // of allocated frames tagged with its lruvec.
        let mut charged = vec![0u64; self.memcgs.len()];
        for (f, &lv) in self.frames.lruvec.iter().enumerate() {
            if self.frames.list[f] != LIST_FREE {
                charged[lv as usize] += 1;
            }
        }
        for (id, m) in self.memcgs.list.iter().enumerate() {
            let children: u64 = m
                .children
                .iter()
                .map(|&c| self.memcgs.list[c as usize].usage)
                .sum();
            if m.usage != charged[id] + children {
                return Err(format!(
                    "memcg {}: usage {} but {} own frames + {children} in children",
                    m.name, m.usage, charged[id]
                ));
            }
        }
        let c = &self.counters;
        if c.get(C::pgsteal_kswapd) > c.get(C::pgscan_kswapd)
            || c.get(C::pgsteal_direct) > c.get(C::pgscan_direct)
        {
            return Err("pgsteal > pgscan".to_string());
        }
        Ok(())
    }
}

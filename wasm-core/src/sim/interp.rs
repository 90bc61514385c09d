//! The task interpreter: runs a task's program until it blocks on IO, sleeps, or passes the
//! next pending event (so that events stay in time order), and the OOM killer.
use super::events::Event;
use super::guard::CPU_CHECK_ACCESSES;
use super::Simulation;
use crate::mm::memory::{Access as Acc, FaultOutcome, MAP_FAULT_NS, READ_COPY_NS};
use crate::mm::mm_types::*;
use crate::mm::oom_kill::OomTask;
use crate::mm::readahead::Readahead;
use crate::mm::space::{pte_dirty_ok, Space, SpaceKind};
use crate::mm::vmstat::C;
use crate::report::OomKill;
use crate::scenario::{Hint, Pattern, Record};
use crate::sim::workloads::bufpool::{BufferPool, Lookup};
use crate::sim::workloads::{Access, DrawAhead, Instr, LoopState, PoolStep, Region, TaskState};

enum Step {
    /// The op is finished; go to the next instruction.
    Next,
    /// The task yielded or blocked; an event will resume it.
    Yield,
    /// The task's allocation needs the OOM killer.
    Oom,
}

/// How the kernel goes on from a page fault that has to wait, which decides whether the
/// task's retry of the access is another `handle_mm_fault` call that counts pgfault.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum FaultWait {
    /// The wait is inside the fault (allocation throttling, a synchronous device's read,
    /// every shmem fault, every fault before 2.6.37): the retry continues the fault, already
    /// counted.
    InFault,
    /// The fault returned VM_FAULT_RETRY after starting a read (`Flags::fault_retry`): the
    /// retry is a new call, counted up to 6.3 (`Flags::pgfault_retry_uncounted`).
    Retry,
    /// The fault found its page locked by someone else's read and returned VM_FAULT_RETRY
    /// (counted then up to 6.3, see `locked_page_fault`): the retry counts as a new fault,
    /// unless this attempt was itself a continuation.
    Locked,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Touch,
    Read,
    Write,
}

impl Simulation {
    /// The task waits (for IO, a timer, or its turn after the events now due): it runs again
    /// at its own clock.
    fn park(&mut self, ti: usize) {
        let t = &mut self.tasks[ti];
        t.state = TaskState::Waiting;
        let c = t.clock;
        self.schedule(c, Event::Task(ti as u32));
    }

    pub(crate) fn run_task(&mut self, ti: usize) {
        let prog = self.tasks[ti].prog.clone();
        // `current`'s memcg while the task runs: its new pages are charged there.
        self.mm.cur_memcg = self.tasks[ti].memcg;
        loop {
            let limit = self.limit();
            let t = &mut self.tasks[ti];
            if t.clock > limit {
                self.park(ti);
                return;
            }
            let Some(instr) = prog.get(t.pc) else {
                self.exit_task(ti);
                return;
            };
            let step = match instr {
                Instr::Anon {
                    region,
                    pages,
                    shared,
                    name,
                } => {
                    self.op_anon(ti, *region, *pages, *shared, name);
                    Step::Next
                }
                Instr::Mmap {
                    region,
                    space,
                    offset,
                    pages,
                    exec,
                    hint,
                    advance,
                } => {
                    let mut offset = *offset;
                    if let Some(flen) = advance {
                        let pc = self.tasks[ti].pc;
                        let run = self.tasks[ti].mmap_runs.entry(pc).or_insert(0);
                        let chunks = ((flen - offset) / pages).max(1);
                        offset += (*run % chunks) * pages;
                        *run += 1;
                    }
                    self.zap_region(ti, *region);
                    let bit = self.mm.spaces[*space as usize]
                        .map_slot(crate::sim::workloads::vm_rand_seq(*hint));
                    let (recency, fault_recency) = crate::sim::workloads::mapping_recency(
                        *hint,
                        self.mm.flags.vma_has_recency,
                    );
                    let r = Region {
                        space: *space,
                        offset,
                        pages: *pages,
                        bit,
                        vmflags: if *exec { VM_EXEC } else { 0 },
                        recency,
                        fault_recency,
                        hint: *hint,
                        live: true,
                    };
                    self.mm.spaces[*space as usize].mmaps += 1;
                    self.tasks[ti].regions.set(*region, r);
                    Step::Next
                }
                Instr::Munmap { region } | Instr::Free { region } => {
                    self.zap_region(ti, *region);
                    Step::Next
                }
                Instr::Touch(a) => self.op_access(ti, a, Kind::Touch),
                Instr::Read(a) => self.op_access(ti, a, Kind::Read),
                Instr::Write(a) => self.op_access(ti, a, Kind::Write),
                Instr::Sleep { ns } => {
                    let t = &mut self.tasks[ti];
                    t.clock = t.clock.saturating_add(*ns);
                    t.pc += 1;
                    self.park(ti);
                    return;
                }
                Instr::ScanInactiveFile => {
                    self.mm.now = self.tasks[ti].clock;
                    let cpu = self.mm.force_scan_inactive_file();
                    self.tasks[ti].clock += cpu;
                    Step::Next
                }
                Instr::MemoryReclaim {
                    memcg,
                    bytes,
                    swappiness,
                } => self.op_memory_reclaim(ti, *memcg, *bytes, *swappiness),
                Instr::DropCaches => {
                    self.mm.drop_caches();
                    Step::Next
                }
                Instr::Truncate { space } => {
                    if self.truncate_in_progress(*space)
                        && self.mm.spaces[*space as usize].truncating != ti as u32
                    {
                        // Another task's truncate holds the inode lock: take turns.
                        let holder = self.mm.spaces[*space as usize].truncating as usize;
                        let until = self.tasks[holder].clock;
                        let t = &mut self.tasks[ti];
                        t.clock = until.max(t.clock + 1);
                        self.park(ti);
                        return;
                    }
                    self.mm.now = self.tasks[ti].clock;
                    let (freed, busy) = self.mm.truncate_space(*space, ti as u32);
                    let t = &mut self.tasks[ti];
                    t.clock = t.clock.saturating_add(
                        freed * self.mm.scale * crate::mm::truncate::TRUNCATE_PAGE_NS,
                    );
                    if busy > 0 {
                        // Wait for the IO in flight on the rest, then take them too.
                        let until = self.mm.earliest_io_completion().unwrap_or(t.clock + 1);
                        let until = until.max(t.clock + 1);
                        t.acc_io_wait += until - t.clock;
                        t.clock = until;
                        self.park(ti);
                        return;
                    }
                    // The whole wait is one sample of the task's IO waits.
                    t.finish_access();
                    Step::Next
                }
                Instr::Mark { name } => {
                    let clock = self.tasks[ti].clock;
                    if !self.marks.contains_key(name) {
                        self.marks
                            .insert(name.clone(), (clock, self.mm.counters.clone()));
                    }
                    Step::Next
                }
                Instr::LoopStart {
                    end,
                    count,
                    duration,
                    record,
                } => {
                    let t = &mut self.tasks[ti];
                    if *count == Some(0) {
                        t.pc = *end;
                        continue;
                    }
                    t.loops.push(LoopState {
                        start: t.pc,
                        end: *end,
                        remaining: *count,
                        deadline: duration.map(|d| t.clock.saturating_add(d)),
                        record: *record,
                        iter_start: t.clock,
                    });
                    Step::Next
                }
                Instr::LoopEnd { .. } => {
                    let measure_t0 = self.measure_t0();
                    let t = &mut self.tasks[ti];
                    let l = t.loops.last().expect("loop end without start");
                    let (took, record) = (t.clock - l.iter_start, l.record);
                    match record {
                        Record::Rounds => t.rounds_ns.push(took),
                        Record::Ops => t.record_op(t.clock, took, measure_t0),
                        Record::None => {}
                    }
                    let l = t.loops.last_mut().expect("loop end without start");
                    if let Some(r) = l.remaining.as_mut() {
                        *r -= 1;
                    }
                    let over = l.remaining == Some(0) || l.deadline.is_some_and(|d| t.clock >= d);
                    if !self.guard_iteration(ti, took) {
                        return;
                    }
                    let t = &mut self.tasks[ti];
                    let l = t.loops.last_mut().expect("loop end without start");
                    if over {
                        let end = l.end;
                        t.loops.pop();
                        t.pc = end;
                    } else {
                        l.iter_start = t.clock;
                        t.pc = l.start + 1;
                    }
                    continue;
                }
            };
            match step {
                Step::Next => {
                    let t = &mut self.tasks[ti];
                    t.pc += 1;
                    t.progress = 0;
                    t.op_start = t.clock;
                    t.pending = None;
                    t.pool_step = None;
                    self.mm.current.uncounted_retry = false;
                }
                Step::Yield => return,
                Step::Oom => {
                    self.oom_kill(self.tasks[ti].clock);
                    if self.tasks[ti].state == TaskState::Killed {
                        return;
                    }
                }
            }
        }
    }

    /// The latest time a task may run to before it must let pending events happen.
    #[inline]
    fn limit(&self) -> u64 {
        self.next_event_time().unwrap_or(u64::MAX).min(self.end_ns)
    }

    fn op_anon(&mut self, ti: usize, region: usize, pages: u64, shared: bool, name: &str) {
        let space = if shared {
            match self.shared_spaces.get(name) {
                Some(&s) => s,
                None => {
                    let s = self.mm.spaces.len() as u32;
                    self.mm
                        .spaces
                        .push(Space::new(name, SpaceKind::Shmem, pages, 0, 0, u32::MAX));
                    self.shared_spaces.insert(name.to_string(), s);
                    s
                }
            }
        } else {
            let s = self.mm.spaces.len() as u32;
            let owner_name = format!("{}:{}", self.tasks[ti].name, name);
            self.mm.spaces.push(Space::new(
                &owner_name,
                SpaceKind::Anon,
                pages,
                0,
                0,
                ti as u32,
            ));
            s
        };
        self.zap_region(ti, region);
        let bit = self.mm.spaces[space as usize].map_slot(false);
        if shared {
            self.mm.spaces[space as usize].mmaps += 1;
        }
        let pages = pages.min(self.mm.spaces[space as usize].len());
        let r = Region {
            space,
            offset: 0,
            pages,
            bit,
            vmflags: 0,
            recency: true,
            fault_recency: true,
            hint: Hint::Normal,
            live: true,
        };
        self.tasks[ti].regions.set(region, r);
    }

    /// A write to memory.reclaim, one `try_to_free_mem_cgroup_pages` call at a time; the task
    /// yields between calls when events are due, so IO started by one call can complete
    /// before the next (`ReclaimWrite`).
    fn op_memory_reclaim(
        &mut self,
        ti: usize,
        memcg: u16,
        bytes: u64,
        swappiness: Option<u32>,
    ) -> Step {
        loop {
            let limit = self.limit();
            let t = &mut self.tasks[ti];
            if t.clock > limit {
                self.park(ti);
                return Step::Yield;
            }
            let clock = t.clock;
            let mut w = t.reclaim.take().unwrap_or_else(|| {
                let batch = crate::mm::memcontrol::ReclaimBatch::of(&self.mm.flags);
                crate::mm::memcontrol::ReclaimWrite::new(&self.mm, memcg, bytes, swappiness, batch)
            });
            match w.step(&mut self.mm, clock) {
                Some(cpu) => {
                    let t = &mut self.tasks[ti];
                    t.clock = t.clock.saturating_add(cpu);
                    t.reclaim = Some(w);
                }
                None => return Step::Next,
            }
        }
    }

    /// Unmap a region (munmap, `free`, a new mapping in its slot, exit, OOM kill), as
    /// `zap_pte_range` does (mm/memory.c, in every version modelled): each PTE of the region is
    /// dropped, and a young PTE of a page-cache or shmem page (not private anon) is handed to
    /// `folio_mark_accessed`, unless the mapping ignores recency (VM_SEQ_READ; from 6.3
    /// `vma_has_recency`, which also covers MADV_RANDOM and FADV_NOREUSE). So processes that
    /// exit after using shared pages promote them: shmem touched by two exiting processes is
    /// activated. A private anon region's pages are freed with it; returns how many.
    fn zap_region(&mut self, ti: usize, region: usize) -> u64 {
        let Some(&r) = self.tasks[ti].regions.get(region) else {
            return 0;
        };
        if !r.live {
            return 0;
        }
        let sp = r.space as usize;
        let private = self.mm.spaces[sp].kind == SpaceKind::Anon;
        for p in r.offset..r.offset + r.pages {
            let f = self.mm.spaces[sp].page(p as usize);
            if f == NIL {
                continue;
            }
            let fi = f as usize;
            if self.mm.frames.folio[fi].mapped & r.bit == 0 {
                continue;
            }
            let frames = &mut self.mm.frames;
            let folio = &mut frames.folio[fi];
            folio.mapped &= !r.bit;
            let young = folio.young & r.bit != 0;
            folio.young &= !r.bit;
            if folio.flags & PTE_COPIED != 0 {
                self.mm.spaces[sp].pte_clear_slots(p as usize, r.bit);
            }
            let none_young = folio.young == 0;
            frames.writable[fi] &= !r.bit;
            if none_young {
                // VM_EXEC is remembered only for young mappings (`folio_referenced`).
                frames.vmflags[fi] = 0;
            }
            if young && !private && r.recency {
                self.mm.mark_accessed(f);
            }
        }
        let space = &mut self.mm.spaces[sp];
        space.mmaps = space.mmaps.saturating_sub(1);
        space.unmap_slot(r.bit, crate::sim::workloads::vm_rand_seq(r.hint));
        self.tasks[ti].regions[region].live = false;
        if private && !self.mm.spaces[sp].dead {
            self.mm.free_space(sp)
        } else {
            0
        }
    }

    /// Draw task `ti`'s next Zipf page now, on a copy of its generator (past a hit's write
    /// coin), keep it for that access, and prefetch the lines it will read: reclaim-heavy Zipf
    /// runs wait on the page slot of a random page of a large file (issue #28: zipf-reclaim
    /// 15% faster). Only where the prefetch exists: elsewhere the copy and the keeping would
    /// be cost without gain.
    fn draw_ahead(&mut self, ti: usize, a: &Access) {
        if !cfg!(target_arch = "x86_64") || a.regions.len() != 1 {
            return;
        }
        let Some(z) = &a.zipf else {
            return;
        };
        let t = &mut self.tasks[ti];
        let mut rng = t.rng.clone();
        if !a.write && a.write_fraction > 0.0 {
            rng.next_u64();
        }
        let before = rng.state();
        let page = z.sample(&mut rng);
        t.ahead = Some(DrawAhead {
            pc: t.pc,
            before,
            after: rng.state(),
            page,
        });
        if let Some(r) = t.regions.get(a.regions[0]).copied() {
            self.prefetch_page(&r, page);
        }
    }

    /// Run accesses of a touch/read/write op until it finishes, blocks or must yield.
    fn op_access(&mut self, ti: usize, a: &Access, kind: Kind) -> Step {
        let total = a.count.unwrap_or(match kind {
            Kind::Touch => a.pages * a.regions.len() as u64,
            _ => a.pages,
        });
        let mut limit = self.limit();
        // Woken from `balance_dirty_pages`: check again before the next access.
        if self.tasks[ti].throttle_pending && self.balance_after_write(ti) {
            return Step::Yield;
        }
        loop {
            if self.tasks[ti].progress & CPU_CHECK_ACCESSES == CPU_CHECK_ACCESSES
                && !self.guard_accesses(ti)
            {
                return Step::Yield;
            }
            let t = &mut self.tasks[ti];
            if t.progress >= total {
                return Step::Next;
            }
            if a.interval_ns > 0 {
                let earliest = t
                    .op_start
                    .saturating_add(t.progress.saturating_mul(a.interval_ns));
                if t.clock < earliest {
                    t.clock = earliest;
                }
            }
            if t.clock > limit {
                self.park(ti);
                return Step::Yield;
            }
            // Which page: (region slot, page within the region or file range).
            let mut drop_segment = None;
            let (slot, page) = match t.pending {
                Some(p) => {
                    self.mm.current.uncounted_retry = t.retry_uncounted;
                    p
                }
                None => {
                    let k = t.progress;
                    let n = a.regions.len().max(1) as u64;
                    // Most accesses name one region: no division then (a 64-bit `%` on
                    // every access: the hit benches run ~10% faster without it).
                    let slot = if n == 1 { 0 } else { (k % n) as usize };
                    let page = match a.pattern {
                        Pattern::Seq if kind == Kind::Write => {
                            // Sequential writes append `bytes` at the file's shared cursor.
                            let frame_bytes = crate::devices::PAGE_BYTES * self.mm.scale;
                            let sp = &mut self.mm.spaces[a.space as usize];
                            let before = sp.append_cursor;
                            let p = (before / frame_bytes) % a.pages;
                            sp.append_cursor += a.bytes;
                            if a.drop_behind > 0 {
                                let at = before / (a.drop_behind * frame_bytes);
                                if at > sp.segments_closed || !sp.drop_pending.is_empty() {
                                    drop_segment = Some(at);
                                }
                            }
                            p
                        }
                        Pattern::Seq => {
                            let round = if n == 1 { k } else { k / n };
                            round % a.pages
                        }
                        Pattern::Sweep => {
                            // Touch only (the parser refuses it for read/write).
                            let sp = t.regions[a.regions[slot]].space;
                            let sp = &mut self.mm.spaces[sp as usize];
                            let p = sp.sweep_cursor % a.pages;
                            sp.sweep_cursor += 1;
                            p
                        }
                        Pattern::Random => t.rng.below(a.pages),
                        Pattern::Zipf => match t.ahead.take() {
                            Some(d) if d.pc == t.pc && d.before == t.rng.state() => {
                                t.rng.set_state(d.after);
                                d.page
                            }
                            _ => a.zipf.as_ref().unwrap().sample(&mut t.rng),
                        },
                    };
                    if a.pattern == Pattern::Zipf && n == 1 && kind == Kind::Touch {
                        self.draw_ahead(ti, a);
                    }
                    (slot, page)
                }
            };
            if let Some(at) = drop_segment {
                self.mm.now = self.tasks[ti].clock;
                let freed = self
                    .mm
                    .drop_behind(a.space, a.offset, a.pages, a.drop_behind, at);
                let t = &mut self.tasks[ti];
                t.clock = t
                    .clock
                    .saturating_add(freed * self.mm.scale * crate::mm::truncate::TRUNCATE_PAGE_NS);
                if freed > 0 && t.clock > limit {
                    // The drop took the task past what may run now: write the page later.
                    t.pending = Some((slot, page));
                    self.park(ti);
                    return Step::Yield;
                }
            }
            let t = &mut self.tasks[ti];
            let now = t.clock;
            let res = match kind {
                Kind::Touch => {
                    // Hot path: a resident, unlocked page mapped by this region. The region's
                    // fields are read in place (copying the whole region costs ~20% here).
                    let ri = a.regions[slot];
                    let r = &t.regions[ri];
                    if !r.live {
                        return Step::Next;
                    }
                    let idx = r.offset + page.min(r.pages - 1);
                    let pte = Pte::of(r);
                    let sp = r.space;
                    // A present, young PTE: resident, mapped here and unlocked, read first so
                    // that a repeat hit reads neither the page slot nor the frame.
                    let e = if r.vmflags == 0 {
                        self.mm.spaces[sp as usize].pte[idx as usize]
                    } else {
                        0
                    };
                    let young_pte = e & r.bit != 0;
                    let f = if young_pte {
                        NIL
                    } else {
                        self.mm.spaces[sp as usize].page(idx as usize)
                    };
                    let hit = young_pte
                        || (f != NIL && self.mm.frames.folio[f as usize].flags & PG_LOCKED == 0);
                    if hit {
                        let write = a.write
                            || (a.write_fraction > 0.0
                                && self.tasks[ti].rng.unit() < a.write_fraction);
                        let cost = if young_pte
                            && (!write
                                || self.mm.spaces[sp as usize].pte_dirty[idx as usize] & pte.bit
                                    != 0)
                        {
                            debug_assert!(self.pte_holds(sp, idx, pte.bit, write));
                            a.cpu_ns
                        } else {
                            // The slot was read above unless the PTE copy answered.
                            let f = if young_pte {
                                self.mm.spaces[sp as usize].page(idx as usize)
                            } else {
                                f
                            };
                            let cost = self.touch_resident(pte, f, write, a.cpu_ns);
                            // Also on the retry after a fault: skipping it costs a hot page
                            // one more slow hit (zipf-hit: 0.62 -> 0.86 s), more than a
                            // page touched once pays to have its copy cleared by reclaim.
                            self.set_pte(sp, idx, f, pte.bit);
                            cost
                        };
                        self.mm.current.uncounted_retry = false;
                        let t = &mut self.tasks[ti];
                        t.clock = t.clock.saturating_add(cost);
                        t.progress += 1;
                        t.pending = None;
                        if write && self.write_notified {
                            self.write_notified = false;
                            t.throttle_pending = true;
                            if self.balance_after_write(ti) {
                                return Step::Yield;
                            }
                        } else {
                            t.finish_access();
                        }
                        continue;
                    }
                    if f != NIL {
                        self.locked_page_fault(sp);
                        Acc::Wait(self.mm.ready_at[f as usize])
                    } else {
                        let r = self.tasks[ti].regions[ri];
                        self.fault(ti, r, idx, now)
                    }
                }
                Kind::Read => match a.buffer {
                    Some(pool) => self.pool_read(ti, a, pool, page),
                    None => self.read_page(a, a.offset + page, now),
                },
                Kind::Write if self.truncate_in_progress(a.space) => {
                    // The truncating task holds the inode lock: wait for its next pass (a
                    // sleep on the lock, not IO wait).
                    let holder = self.mm.spaces[a.space as usize].truncating as usize;
                    self.lock_wait = true;
                    Acc::Wait(self.tasks[holder].clock.max(now + 1))
                }
                Kind::Write if a.sync && self.page_under_writeback(a.space, a.offset + page) => {
                    // fdatasync of a page still being written: wait for that IO first.
                    Acc::Wait(self.mm.earliest_io_completion().unwrap_or(now + 1))
                }
                Kind::Write => match self.mm.write_page(a.space, a.offset + page, now) {
                    Acc::Done(c) if a.sync => {
                        // Done once the page is on the device; the wait is the access's cost.
                        let f = self.mm.spaces[a.space as usize].page((a.offset + page) as usize);
                        let done = self.mm.write_sync(f, now + c);
                        Acc::Done(done - now + a.cpu_ns)
                    }
                    Acc::Done(c) => Acc::Done(c + a.cpu_ns),
                    other => other,
                },
            };
            // Whether the retry of a waiting access counts a new pgfault (`FaultWait`).
            let uncounted = match self.fault_wait.take() {
                Some(FaultWait::InFault) => true,
                Some(FaultWait::Retry) => self.mm.flags.pgfault_retry_uncounted,
                Some(FaultWait::Locked) | None => self.mm.current.uncounted_retry,
            };
            self.mm.current.uncounted_retry = false;
            let t = &mut self.tasks[ti];
            match res {
                Acc::Done(cost) => {
                    t.clock = t.clock.saturating_add(cost);
                    t.progress += 1;
                    t.pending = None;
                    t.retry_uncounted = false;
                    if std::mem::take(&mut self.write_notified) {
                        t.throttle_pending = true;
                        if self.balance_after_write(ti) {
                            return Step::Yield;
                        }
                    } else {
                        t.finish_access();
                    }
                }
                Acc::Wait(until) | Acc::Throttled(until) => {
                    t.retry_uncounted = uncounted;
                    let waited = until.max(t.clock + 1) - t.clock;
                    if std::mem::take(&mut self.lock_wait) {
                        // Asleep on a lock: neither IO wait nor throttling.
                    } else if matches!(res, Acc::Throttled(_)) {
                        t.acc_throttle_wait += waited;
                    } else {
                        t.acc_io_wait += waited;
                    }
                    t.pending = Some((slot, page));
                    t.clock = until.max(t.clock + 1);
                    self.park(ti);
                    return Step::Yield;
                }
                Acc::Oom => {
                    // The failed fault was counted; the next attempt is a new one.
                    t.retry_uncounted = false;
                    t.pending = Some((slot, page));
                    return Step::Oom;
                }
            }
            limit = self.limit();
        }
    }

    /// A touch of a resident, unlocked page through region `r`: map it on first use, set its
    /// young bit (software accessed bit: a minor fault where the machine charges one), dirty
    /// it on a write. Returns the CPU time.
    #[inline(always)]
    fn touch_resident(&mut self, r: Pte, f: u32, write: bool, cpu_ns: u64) -> u64 {
        let fi = f as usize;
        let mut cost = cpu_ns;
        let mapped = self.mm.frames.folio[fi].mapped & r.bit != 0;
        if !mapped {
            cost += self.map_resident(r, f);
        }
        if r.recency {
            // A write-protect fault also marks the PTE young: one fault, not a young one too.
            if self.mm.frames.folio[fi].young & r.bit == 0
                && self.mm.young_fault_ns > 0
                && cost == cpu_ns
                && !(write && self.write_protected(r, f))
            {
                self.mm.count_event(C::pgfault, 1);
                cost += self.mm.young_fault_ns;
            }
            self.mm.frames.folio[fi].young |= r.bit;
            if r.vmflags != 0 {
                // Most mappings add no VM flag: skip the column's cache line then.
                self.mm.frames.vmflags[fi] |= r.vmflags;
            }
        }
        if write {
            cost += self.write_hit(r, f, mapped);
        }
        cost
    }

    /// After a hit on frame `f` at page `idx` of space `sp` through mapping slot `bit`: copy
    /// into `Space::pte` what the frame now promises a repeat hit (nothing when it promises
    /// nothing: unmapped, not young, locked).
    #[inline(always)]
    fn set_pte(&mut self, sp: u32, idx: u64, f: u32, bit: u8) {
        let folio = self.mm.frames.folio[f as usize];
        if folio.mapped & folio.young & bit == 0 || folio.flags & PG_LOCKED != 0 {
            return;
        }
        let s = &mut self.mm.spaces[sp as usize];
        if s.page(idx as usize) != f {
            return;
        }
        s.pte[idx as usize] |= bit;
        if pte_dirty_ok(folio.flags) {
            s.pte_dirty[idx as usize] |= bit;
        }
        self.mm.frames.folio[f as usize].flags |= PTE_COPIED;
    }

    /// What `Space::pte` promises of a page a hit trusts it for: resident, unlocked, mapped
    /// and young through mapping slot `bit`, and for a write a page it need not touch
    /// (checked in debug builds on every such hit).
    fn pte_holds(&self, sp: u32, idx: u64, bit: u8, write: bool) -> bool {
        let f = self.mm.spaces[sp as usize].page(idx as usize);
        f != NIL && {
            let folio = self.mm.frames.folio[f as usize];
            folio.flags & PG_LOCKED == 0
                && folio.mapped & bit != 0
                && folio.young & bit != 0
                && (!write || pte_dirty_ok(folio.flags))
        }
    }

    /// Whether a write to file page `f` through mapping `r` meets a read-only PTE
    /// (write-notify, see `write_notify_fault`).
    #[inline(always)]
    fn write_protected(&self, r: Pte, f: u32) -> bool {
        let fi = f as usize;
        self.mm.frames.folio[fi].flags & PG_SWAPBACKED == 0
            && self.mm.frames.writable[fi] & r.bit == 0
    }

    /// `balance_dirty_pages_ratelimited` after a write fault through a shared file mapping
    /// (`fault_dirty_shared_page`), its access done: while dirty pages are over the threshold
    /// the task sleeps and checks again, as `balance_dirty_pages` loops (simplified as
    /// `Mm::dirty_throttle` is for write()). Returns whether it sleeps; once under, the access
    /// is finished with its throttle time.
    fn balance_after_write(&mut self, ti: usize) -> bool {
        let now = self.tasks[ti].clock;
        self.mm.now = now;
        if let Some(until) = self.mm.dirty_throttle(now) {
            let t = &mut self.tasks[ti];
            t.acc_throttle_wait += until - now;
            t.clock = until;
            self.park(ti);
            return true;
        }
        let t = &mut self.tasks[ti];
        t.throttle_pending = false;
        t.finish_access();
        false
    }

    /// A write through a shared file mapping whose PTE is read-only (write-notify, 2.6.19+:
    /// `do_wp_page` -> `wp_page_shared`, or `do_shared_fault` when the write is what maps the
    /// page): `page_mkwrite`, the PTE made writable, and `fault_dirty_shared_page`'s
    /// `balance_dirty_pages_ratelimited`, which puts the task to sleep once the access is done
    /// if dirty pages are over the threshold. A write-protect fault on a mapped page is a
    /// pgfault of its own; one that maps the page is the same fault. Returns its CPU time.
    #[cold]
    #[inline(never)]
    fn write_notify_fault(&mut self, r: Pte, f: u32, was_mapped: bool) -> u64 {
        self.mm.frames.writable[f as usize] |= r.bit;
        self.write_notified = true;
        if was_mapped {
            self.mm.count_pgfault();
            MAP_FAULT_NS * self.mm.scale
        } else {
            0
        }
    }

    /// The minor fault that maps a resident page into region `r` (kept out of the hit path).
    /// A page still (or already) in the swap cache is found there (`lookup_swap_cache`).
    #[cold]
    #[inline(never)]
    fn map_resident(&mut self, r: Pte, f: u32) -> u64 {
        self.mm.frames.folio[f as usize].mapped |= r.bit;
        // A new PTE of a shared file mapping is read-only until a write (write-notify).
        self.mm.frames.writable[f as usize] &= !r.bit;
        self.mm.count_pgfault();
        if self.mm.frames.folio[f as usize].flags & (PG_READAHEAD | PG_SWAPCACHE) != 0 {
            self.mm.swap_cache_fault(f);
        }
        MAP_FAULT_NS * self.mm.scale
    }

    /// A read() of page `idx` of the op's file through the page cache.
    #[inline(never)]
    fn read_page(&mut self, a: &Access, idx: u64, now: u64) -> Acc {
        let f = self.mm.spaces[a.space as usize].page(idx as usize);
        if idx >= self.mm.spaces[a.space as usize].eof {
            // Past the end of a truncated file: read() returns 0 bytes.
            Acc::Done(a.cpu_ns)
        } else if f != NIL {
            let mut throttle = 0;
            if self.mm.frames.has(f, PG_RA_MARK) {
                // The reader has reached the marker: the next window goes out now, before
                // this page is waited for or copied (`filemap_get_pages`).
                self.mm.frames.clear(f, PG_RA_MARK);
                throttle = self
                    .mm
                    .async_readahead(a.space, idx, a.offset + a.pages, now);
            }
            if self.mm.frames.has(f, PG_LOCKED) {
                Acc::Wait(self.mm.ready_at[f as usize].max(now + throttle))
            } else {
                if self.mm.frames.folio[f as usize].flags & (PG_READAHEAD | PG_SWAPCACHE) != 0 {
                    self.mm.swap_cache_fault(f);
                }
                self.mm.mark_accessed(f);
                Acc::Done(READ_COPY_NS * self.mm.scale + a.cpu_ns + throttle)
            }
        } else if self.mm.spaces[a.space as usize].kind == SpaceKind::Shmem {
            // A read() is no page fault: nothing counts as one (nor as the task's).
            match self.mm.shmem_read_miss(a.space, idx, now) {
                Acc::Done(c) => Acc::Done(c + a.cpu_ns),
                other => other,
            }
        } else {
            let ra = match (a.hint, a.pattern) {
                (Hint::Random, _) => Readahead::None,
                (_, Pattern::Seq) => Readahead::Forward,
                (Hint::Sequential, _) => Readahead::Forward,
                _ => Readahead::Context,
            };
            self.mm
                .file_read(a.space, idx, ra, a.offset, a.offset + a.pages, now, true)
        }
    }

    /// A fault on a page of space `sp` that is locked for a read. A file or private anon
    /// fault returns VM_FAULT_RETRY from 2.6.37 (`lock_page_or_retry`,
    /// `lock_page_maybe_drop_mmap`), counted by `handle_mm_fault` up to 6.3; a shmem fault,
    /// and any fault before, waits inside (`lock_page`) and counts once. A continuation of a
    /// fault already counted (a synchronous read that has just finished) counts nothing.
    fn locked_page_fault(&mut self, sp: u32) {
        let continuation = self.mm.current.uncounted_retry;
        if self.fault_retries(sp) {
            if !continuation && !self.mm.flags.pgfault_retry_uncounted {
                self.mm.count_event(C::pgfault, 1);
            }
            self.fault_wait = Some(FaultWait::Locked);
        } else {
            if !continuation {
                self.mm.count_event(C::pgfault, 1);
            }
            self.fault_wait = Some(FaultWait::InFault);
        }
    }

    /// Whether a fault on space `sp` that waits for a read returns VM_FAULT_RETRY (2.6.37+,
    /// file and private anon) rather than waiting inside (`shmem_fault` always does).
    fn fault_retries(&self, sp: u32) -> bool {
        self.mm.flags.fault_retry && self.mm.spaces[sp as usize].kind != SpaceKind::Shmem
    }

    /// A read through the buffer pool in region slot `pool` (postgres `ReadBuffer`, see
    /// `workloads::bufpool`): look the block up; on a miss write the victim's old block back
    /// if dirty, then read() the block; then use the buffer page (a fill writes it). Each
    /// stage may wait; the task resumes at the stage it stopped in. Stages that complete at
    /// once run back to back, like the syscalls of one backend.
    #[inline(never)]
    fn pool_read(&mut self, ti: usize, a: &Access, pool: usize, page: u64) -> Acc {
        let r = self.tasks[ti].regions[pool];
        if !r.live || self.mm.spaces[r.space as usize].dead {
            return Acc::Done(0);
        }
        let block = a.offset + page;
        let mut step = match self.tasks[ti].pool_step.take() {
            Some(step) => step,
            None => {
                let p = self
                    .pools
                    .entry(r.space)
                    .or_insert_with(|| BufferPool::new(r.pages));
                let lookup = p.lookup((a.space, block));
                if let Lookup::Miss { buf, .. } = lookup {
                    p.set_loader(buf, ti as u32);
                }
                match lookup {
                    Lookup::Hit(buf) => PoolStep::Use { buf, fill: false },
                    Lookup::Loading(buf) => PoolStep::WaitIo { buf },
                    Lookup::Miss {
                        buf,
                        dirty_victim: Some(old),
                    } => PoolStep::WriteBack { buf, old },
                    Lookup::Miss { buf, .. } => PoolStep::Read { buf, fill: true },
                }
            }
        };
        loop {
            let now = self.tasks[ti].clock;
            let res = match step {
                PoolStep::WriteBack { old, .. } => self.mm.write_page(old.0, old.1, now),
                PoolStep::Read { .. } => self.read_page(a, block, now),
                PoolStep::WaitIo { buf } => {
                    // Wait until the loader has written its victim back, read the block and
                    // filled the buffer, checking again whenever it runs next. A loader that
                    // died leaves the load to this client.
                    let p = self.pools.get_mut(&r.space).expect("pool made at lookup");
                    match p.loader(buf) {
                        None => Acc::Done(0),
                        Some(l) if self.tasks[l as usize].state.is_over() => {
                            p.set_loader(buf, ti as u32);
                            step = PoolStep::Read { buf, fill: true };
                            continue;
                        }
                        Some(l) => Acc::Wait(self.tasks[l as usize].clock.max(now + 1)),
                    }
                }
                PoolStep::Use { buf, fill } => {
                    let idx = r.offset + (buf as u64).min(r.pages - 1);
                    let f = self.mm.spaces[r.space as usize].page(idx as usize);
                    if f == NIL {
                        // Fault the buffer page in (new, or back from swap), then use it: a
                        // fill's store dirties it and drops a stale swap copy.
                        match self.fault(ti, r, idx, now) {
                            Acc::Done(stall)
                                if self.mm.spaces[r.space as usize].page(idx as usize) != NIL =>
                            {
                                self.tasks[ti].clock += stall;
                                continue;
                            }
                            other => other,
                        }
                    } else if self.mm.frames.has(f, PG_LOCKED) {
                        self.locked_page_fault(r.space);
                        Acc::Wait(self.mm.ready_at[f as usize])
                    } else {
                        // A fill's CPU time was the read's; a hit pays the op's.
                        let cpu = if fill { 0 } else { a.cpu_ns };
                        Acc::Done(self.touch_resident(Pte::of(&r), f, fill || a.write, cpu))
                    }
                }
            };
            match res {
                Acc::Done(cost) => {
                    self.tasks[ti].clock = self.tasks[ti].clock.saturating_add(cost);
                    step = match step {
                        PoolStep::WriteBack { buf, .. } => PoolStep::Read { buf, fill: true },
                        PoolStep::Read { buf, fill } => PoolStep::Use { buf, fill },
                        PoolStep::WaitIo { buf } => PoolStep::Use { buf, fill: false },
                        PoolStep::Use { buf, fill } => {
                            let p = self.pools.get_mut(&r.space).expect("pool made at lookup");
                            if fill {
                                p.loaded(buf);
                            }
                            if a.write {
                                p.mark_dirty(buf);
                            }
                            return Acc::Done(0);
                        }
                    };
                }
                other => {
                    self.tasks[ti].pool_step = Some(step);
                    return other;
                }
            }
        }
    }

    /// Whether a live task is in the middle of truncating `space` (waiting for IO on pages it
    /// could not free yet). A task killed while waiting lets go of the file.
    fn truncate_in_progress(&mut self, space: u32) -> bool {
        let holder = self.mm.spaces[space as usize].truncating;
        if holder == NIL {
            return false;
        }
        if self.tasks[holder as usize].state.is_over() {
            self.mm.spaces[space as usize].truncating = NIL;
            return false;
        }
        true
    }

    fn page_under_writeback(&self, space: u32, idx: u64) -> bool {
        let f = self.mm.spaces[space as usize].page(idx as usize);
        f != NIL && self.mm.frames.has(f, PG_WRITEBACK)
    }

    /// A write through mapping `r` to a resident page: file pages are dirtied for writeback,
    /// after a write-protect fault where the PTE is read-only; anon pages in the swap cache
    /// lose their now stale swap copy. Returns the fault's CPU time.
    #[inline(always)]
    fn write_hit(&mut self, r: Pte, f: u32, was_mapped: bool) -> u64 {
        if self.mm.frames.has(f, PG_SWAPBACKED) {
            if self.mm.frames.has(f, PG_SWAPCACHE) && !self.mm.frames.has(f, PG_WRITEBACK) {
                self.mm.free_swap_slot(f);
            }
            self.mm.frames.set(f, PG_DIRTY);
            0
        } else {
            let cost = if self.mm.frames.writable[f as usize] & r.bit == 0 {
                self.write_notify_fault(r, f, was_mapped)
            } else {
                0
            };
            self.mm.mark_file_dirty(f);
            cost
        }
    }

    /// A page fault on a non-resident page of a region.
    fn fault(&mut self, ti: usize, r: Region, idx: u64, now: u64) -> Acc {
        // `lru_gen_enter_fault` / `lru_gen_exit_fault`.
        self.mm.current.in_lru_fault = r.fault_recency;
        let out = self.fault_inner(ti, r, idx, now);
        self.mm.current.in_lru_fault = false;
        let res = out.access;
        if let Acc::Wait(_) = res {
            self.fault_wait = Some(if out.wait_in_fault || !self.fault_retries(r.space) {
                FaultWait::InFault
            } else {
                FaultWait::Retry
            });
        }
        res
    }

    fn fault_inner(&mut self, ti: usize, r: Region, idx: u64, now: u64) -> FaultOutcome {
        let sp = r.space;
        match self.mm.spaces[sp as usize].kind {
            SpaceKind::Anon | SpaceKind::Shmem => {
                if self.mm.spaces[sp as usize].dead {
                    return FaultOutcome {
                        access: Acc::Done(0),
                        major: false,
                        wait_in_fault: false,
                    };
                }
                let out = self.mm.fault_anon(sp, idx, now);
                if out.major {
                    self.tasks[ti].major_faults += 1;
                }
                if let Acc::Done(stall) = out.access {
                    self.note_stall(ti, stall);
                    // The fault maps the page: young in this mapping.
                    let f = self.mm.spaces[sp as usize].page(idx as usize);
                    let fi = f as usize;
                    self.mm.frames.folio[fi].mapped |= r.bit;
                    self.mm.frames.folio[fi].young |= r.bit;
                }
                out
            }
            SpaceKind::File => {
                // `do_sync_mmap_readahead`: MADV_RANDOM reads only the page, MADV_SEQUENTIAL
                // reads ahead, otherwise read-around.
                let ra = if r.vmflags & VM_LOCKED != 0 || r.hint == Hint::Random {
                    Readahead::None
                } else if r.hint == Hint::Sequential {
                    Readahead::Forward
                } else {
                    Readahead::Around
                };
                let out = self
                    .mm
                    .file_fault(sp, idx, ra, r.offset, r.offset + r.pages, now);
                if out.major {
                    self.tasks[ti].major_faults += 1;
                }
                out
            }
        }
    }

    fn note_stall(&mut self, ti: usize, stall: u64) {
        if stall > crate::mm::memory::ANON_FAULT_NS {
            self.tasks[ti].alloc_stalls_ns.record(stall);
        }
    }

    /// The task's program ended: its private anon memory is freed (exit).
    fn exit_task(&mut self, ti: usize) {
        self.tasks[ti].state = TaskState::Done;
        self.last_exit_ns = self.last_exit_ns.max(self.tasks[ti].clock);
        self.release_task_memory(ti);
    }

    /// Exit or OOM kill: every region is unmapped; a task's private anon spaces all belong to
    /// its regions, so this frees them. Returns the pages freed.
    fn release_task_memory(&mut self, ti: usize) -> u64 {
        (0..self.tasks[ti].regions.len())
            .map(|region| self.zap_region(ti, region))
            .sum()
    }

    /// The OOM killer runs (`Mm::out_of_memory` picks the victim, mm/oom_kill.rs): the victim
    /// exits, its memory freed, and the run records the kill at `now`, the time of the
    /// allocating context (a task's clock or kswapd's event), not the victim's own clock.
    pub(crate) fn oom_kill(&mut self, now: u64) {
        let tasks: Vec<OomTask> = self
            .tasks
            .iter()
            .map(|t| OomTask {
                memcg: t.memcg,
                live: !t.state.is_over(),
            })
            .collect();
        let Some(victim) = self.mm.out_of_memory(&tasks) else {
            return;
        };
        let freed = self.release_task_memory(victim);
        self.last_exit_ns = self.last_exit_ns.max(now);
        let t = &mut self.tasks[victim];
        t.state = TaskState::Killed;
        self.oom_kills.push(OomKill {
            task: t.name.clone(),
            time_s: now as f64 / 1e9,
            freed_pages: freed * self.mm.scale,
        });
    }
}

/// What a touch through a region needs of it: the mapping's slot bit, whether its
/// references count, and its VM flags.
#[derive(Clone, Copy)]
struct Pte {
    bit: u8,
    recency: bool,
    vmflags: u8,
}

impl Pte {
    #[inline(always)]
    fn of(r: &Region) -> Self {
        Pte {
            bit: r.bit,
            recency: r.recency,
            vmflags: r.vmflags,
        }
    }
}

//! The task interpreter: runs a task's program until it blocks on IO, sleeps, or passes the
//! next pending event (so that events stay in time order), and the OOM killer.
use super::events::Event;
use super::guard::CPU_CHECK_ACCESSES;
use super::Simulation;
use crate::mm::memory::{Access as Acc, FaultWait, PteLookup, VmFault};
use crate::mm::mm_types::*;
use crate::mm::oom_kill::OomTask;
use crate::mm::space::{Space, SpaceKind};
use crate::report::OomKill;
use crate::scenario::{Pattern, Record};
use crate::sim::replay::{Next, ReplaySpec};
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
        self.note_next_touch(ti);
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
                    advice,
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
                    let vmflags = if *exec { VM_EXEC } else { 0 };
                    let r = self
                        .mm
                        .mmap_region(*space, offset, *pages, vmflags, *advice);
                    self.tasks[ti].regions.set(*region, r);
                    Step::Next
                }
                Instr::Munmap { region } | Instr::Free { region } => {
                    self.zap_region(ti, *region);
                    Step::Next
                }
                Instr::Touch(a) => self.op_access::<false>(ti, a, Kind::Touch, None),
                Instr::Read(a) => self.op_access::<false>(ti, a, Kind::Read, None),
                Instr::Write(a) => self.op_access::<false>(ti, a, Kind::Write, None),
                Instr::Replay { access, spec } => {
                    let kind = if spec.touch { Kind::Touch } else { Kind::Read };
                    self.op_access::<true>(ti, access, kind, Some(spec))
                }
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
                    if let Some(holder) = self
                        .truncate_in_progress(*space)
                        .filter(|&h| h != ti as u32)
                    {
                        // Another task's truncate holds the inode lock: take turns.
                        let holder = holder as usize;
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
                    let s = self.mm.add_space(Space::new(
                        name,
                        SpaceKind::Shmem,
                        pages,
                        0,
                        0,
                        u32::MAX,
                    ));
                    self.shared_spaces.insert(name.to_string(), s);
                    s
                }
            }
        } else {
            let owner_name = format!("{}:{}", self.tasks[ti].name, name);
            self.mm.add_space(Space::new(
                &owner_name,
                SpaceKind::Anon,
                pages,
                0,
                0,
                ti as u32,
            ))
        };
        self.zap_region(ti, region);
        let r = self.mm.mmap_region(space, 0, pages, 0, Madvise::Normal);
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

    /// Unmap a region (munmap, `free`, a new mapping in its slot, exit, OOM kill:
    /// `Mm::zap_vma`); returns the private anon pages freed with it.
    fn zap_region(&mut self, ti: usize, region: usize) -> u64 {
        let Some(&r) = self.tasks[ti].regions.get(region) else {
            return 0;
        };
        if !r.live {
            return 0;
        }
        let freed = self.mm.zap_vma(&r);
        self.tasks[ti].regions[region].live = false;
        freed
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
            self.mm.prefetch_pte(&r, page);
        }
    }

    /// Run accesses of a touch/read/write op, or of a trace replay (`replay`, sim/replay.rs:
    /// a request's page and write flag come from the trace), until it finishes, blocks or
    /// must yield. `REPLAY` is whether `replay` is given: the plain ops' copy of the loop
    /// then has none of the replay's tests (they cost the hit path ~7% in instructions).
    fn op_access<const REPLAY: bool>(
        &mut self,
        ti: usize,
        a: &Access,
        kind: Kind,
        replay: Option<&ReplaySpec>,
    ) -> Step {
        let replay = if REPLAY { replay } else { None };
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
                if replay.is_some() {
                    t.replay = None;
                }
                return Step::Next;
            }
            if let Some(r) = replay.filter(|_| t.pending.is_none()) {
                match self.replay_peek(ti, r) {
                    Ok(Next::End) => return Step::Next,
                    Ok(Next::At(at)) => {
                        let t = &mut self.tasks[ti];
                        t.clock = t.clock.max(at);
                    }
                    Err(e) => {
                        self.trace_failed(ti, e);
                        return Step::Yield;
                    }
                }
            }
            let t = &mut self.tasks[ti];
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
                None if replay.is_some() => {
                    let r = replay.unwrap();
                    let region = r.touch.then(|| t.regions[a.regions[0]]);
                    (0, self.replay_take(ti, r, a.space, a.offset, region))
                }
                None => {
                    let k = t.progress;
                    let n = a.regions.len().max(1) as u64;
                    // Most accesses name one region: no division then (a 64-bit `%` on
                    // every access: the hit benches run ~10% faster without it).
                    let slot = if n == 1 { 0 } else { (k % n) as usize };
                    let page = match a.pattern {
                        Pattern::Seq if kind == Kind::Write => {
                            // Sequential writes append `bytes` at the file's end.
                            let frame_bytes = crate::devices::PAGE_BYTES * self.mm.scale;
                            let (before, drop) =
                                self.mm.append_pos(a.space, a.bytes, a.drop_behind);
                            drop_segment = drop;
                            (before / frame_bytes) % a.pages
                        }
                        Pattern::Seq => {
                            let round = if n == 1 { k } else { k / n };
                            round % a.pages
                        }
                        Pattern::Sweep => {
                            // Touch only (the parser refuses it for read/write): one cursor
                            // per space, shared by every task that sweeps it.
                            let sp = t.regions[a.regions[slot]].space as usize;
                            if sp >= self.sweep_cursors.len() {
                                self.sweep_cursors.resize(sp + 1, 0);
                            }
                            let c = &mut self.sweep_cursors[sp];
                            let p = *c % a.pages;
                            *c += 1;
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
                    let mut vmf = VmFault::of(r, page);
                    match self.mm.follow_pte(&vmf) {
                        PteLookup::None => {
                            let r = self.tasks[ti].regions[ri];
                            self.fault(ti, r, vmf.pgoff, now)
                        }
                        PteLookup::Locked(f) => {
                            let throttle = self.mm.async_mmap_readahead(&vmf, f, now);
                            let (wait, until) = self.mm.lock_page_or_retry(vmf.space, f);
                            self.fault_wait = Some(wait);
                            Acc::Wait(until.max(now + throttle))
                        }
                        look => {
                            vmf.write = a.write
                                || (replay.is_some() && self.replay_writes(ti))
                                || (a.write_fraction > 0.0
                                    && self.tasks[ti].rng.unit() < a.write_fraction);
                            let hit = self.mm.pte_hit(&vmf, look, a.cpu_ns, now);
                            if hit.started_io {
                                limit = self.limit();
                            }
                            self.write_notified |= hit.dirtied_shared;
                            self.mm.current.uncounted_retry = false;
                            let t = &mut self.tasks[ti];
                            t.clock = t.clock.saturating_add(hit.cost);
                            t.progress += 1;
                            t.pending = None;
                            if vmf.write && self.write_notified {
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
                    }
                }
                Kind::Read if replay.is_some() && self.replay_writes(ti) => {
                    match self.mm.write_page(a.space, a.offset + page, now) {
                        Acc::Done(c) => Acc::Done(c + a.cpu_ns),
                        other => other,
                    }
                }
                Kind::Read => match a.buffer {
                    Some(pool) => self.pool_read(ti, a, pool, page),
                    None => self.read_page(a, a.offset + page, now),
                },
                Kind::Write if self.truncate_in_progress(a.space).is_some() => {
                    // The truncating task holds the inode lock: wait for its next pass (a
                    // sleep on the lock, not IO wait).
                    let holder = self.truncate_in_progress(a.space).unwrap() as usize;
                    self.lock_wait = true;
                    Acc::Wait(self.tasks[holder].clock.max(now + 1))
                }
                Kind::Write
                    if a.sync
                        && self
                            .mm
                            .filemap_range_has_writeback(a.space, a.offset + page) =>
                {
                    // fdatasync of a page still being written: wait for that IO first.
                    Acc::Wait(self.mm.earliest_io_completion().unwrap_or(now + 1))
                }
                Kind::Write => match self.mm.write_page(a.space, a.offset + page, now) {
                    Acc::Done(c) if a.sync => {
                        // Done once the page is on the device; the wait is the access's cost.
                        let done = self.mm.write_sync(a.space, a.offset + page, now + c);
                        Acc::Done(done - now + a.cpu_ns)
                    }
                    Acc::Done(c) => Acc::Done(c + a.cpu_ns),
                    other => other,
                },
            };
            // Whether the retry of a waiting access counts a new pgfault (`FaultWait`).
            let uncounted = self.mm.retry_uncounted(self.fault_wait.take());
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

    /// `balance_dirty_pages_ratelimited` after a write fault through a shared file mapping
    /// (`fault_dirty_shared_page`), its access done: while `Mm::balance_dirty_pages` says
    /// dirty pages are over the threshold the task sleeps and asks again. Returns whether it
    /// sleeps; once under, the access is finished with its throttle time.
    fn balance_after_write(&mut self, ti: usize) -> bool {
        let now = self.tasks[ti].clock;
        self.mm.now = now;
        if let Some(until) = self.mm.balance_dirty_pages(now) {
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

    /// A read() of page `idx` of the op's file through the page cache (`Mm::filemap_read`).
    #[inline(never)]
    fn read_page(&mut self, a: &Access, idx: u64, now: u64) -> Acc {
        self.mm.filemap_read(
            a.space,
            idx,
            a.offset,
            a.offset + a.pages,
            a.advice,
            a.pattern == Pattern::Seq,
            now,
            a.cpu_ns,
        )
    }

    /// A read through the buffer pool in region slot `pool` (postgres `ReadBuffer`, see
    /// `workloads::bufpool`): look the block up; on a miss write the victim's old block back
    /// if dirty, then read() the block; then use the buffer page (a fill writes it). Each
    /// stage may wait; the task resumes at the stage it stopped in. Stages that complete at
    /// once run back to back, like the syscalls of one backend.
    #[inline(never)]
    fn pool_read(&mut self, ti: usize, a: &Access, pool: usize, page: u64) -> Acc {
        let r = self.tasks[ti].regions[pool];
        if !r.live || self.mm.space_dead(r.space) {
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
                    let mut vmf = VmFault::of(&r, buf as u64);
                    match self.mm.find_page(&vmf) {
                        PteLookup::None => {
                            // Fault the buffer page in (new, or back from swap), then use it:
                            // a fill's store dirties it and drops a stale swap copy.
                            match self.fault(ti, r, vmf.pgoff, now) {
                                Acc::Done(stall) if self.mm.find_page(&vmf) != PteLookup::None => {
                                    self.tasks[ti].clock += stall;
                                    continue;
                                }
                                other => other,
                            }
                        }
                        PteLookup::Locked(f) => {
                            let throttle = self.mm.async_mmap_readahead(&vmf, f, now);
                            let (wait, until) = self.mm.lock_page_or_retry(r.space, f);
                            self.fault_wait = Some(wait);
                            Acc::Wait(until.max(now + throttle))
                        }
                        PteLookup::Young => unreachable!("find_page reads no PTE copy"),
                        PteLookup::Present(f) => {
                            // A fill's CPU time was the read's; a hit pays the op's.
                            let cpu = if fill { 0 } else { a.cpu_ns };
                            vmf.write = fill || a.write;
                            let hit = self.mm.touch_page(&vmf, f, cpu, now);
                            self.write_notified |= hit.dirtied_shared;
                            Acc::Done(hit.cost)
                        }
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

    /// The live task in the middle of truncating `space` (waiting for IO on pages it could
    /// not free yet), if any. A task killed while waiting lets go of the file.
    fn truncate_in_progress(&mut self, space: u32) -> Option<u32> {
        let holder = self.mm.inode_lock_holder(space)?;
        if self.tasks[holder as usize].state.is_over() {
            self.mm.inode_unlock(space);
            return None;
        }
        Some(holder)
    }

    /// A page fault on a non-resident page of a region (`Mm::handle_mm_fault`), with what the
    /// task keeps of it: its major faults, its allocation stalls, and how a wait goes on.
    fn fault(&mut self, ti: usize, r: Region, idx: u64, now: u64) -> Acc {
        let out = self.mm.handle_mm_fault(&r, idx, now);
        if out.major {
            self.tasks[ti].major_faults += 1;
        }
        match out.access {
            Acc::Done(stall) => self.note_stall(ti, stall),
            Acc::Wait(_) => {
                self.fault_wait = Some(if out.wait_in_fault {
                    FaultWait::InFault
                } else {
                    FaultWait::Retry
                })
            }
            _ => {}
        }
        out.access
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

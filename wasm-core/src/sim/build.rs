//! Building a `Simulation` from a scenario: machine, devices, files, swap, and the task
//! programs compiled to instructions.
use std::collections::BTreeMap;
use std::rc::Rc;

use super::events::Event;
use super::Simulation;
use crate::devices::PAGE_BYTES;
use crate::mm::memcg::UNLIMITED;
use crate::mm::mmzone::Mm;
use crate::mm::page_alloc::{default_min_free_kbytes, Watermarks};
use crate::mm::space::{Space, SpaceKind};
use crate::mm::swapfile::Swap;
use crate::rng::{Rng, Zipf};
use crate::scenario::{progress, DeviceKind, Op, Pattern, Scenario};
use crate::sim::workloads::{Access, Instr, Task, TaskState};
use crate::variant;

pub fn build(scn: &Scenario, variant_name: &str) -> Result<Simulation, String> {
    let v = scn
        .variants
        .iter()
        .find(|v| v.name == variant_name)
        .ok_or_else(|| {
            let names: Vec<&str> = scn.variants.iter().map(|v| v.name.as_str()).collect();
            format!(
                "no variant named {variant_name:?} in this scenario; it has: {}",
                names.join(", ")
            )
        })?;
    let flags = variant::resolve(&v.preset, &v.flags)?;
    let scale = scn.machine.frame_scale.max(1) as u64;
    let ram_pages = scn.machine.ram.bytes() / PAGE_BYTES;
    let nframes = ram_pages / scale;
    if nframes < 64 {
        return Err(format!(
            "machine.ram is too small: {nframes} frames; need at least 64"
        ));
    }
    if nframes > u32::MAX as u64 / 2 {
        return Err("machine.ram / frame_scale is too large: raise machine.frame_scale".into());
    }
    let mfk = scn
        .sysctl
        .min_free_kbytes
        .unwrap_or_else(|| default_min_free_kbytes(ram_pages));
    // Before 4.6 there is no vm.watermark_scale_factor: the scenario's value has no effect.
    let wsf = flags
        .watermark_scale_factor
        .then_some(scn.sysctl.watermark_scale_factor);
    let wmark = Watermarks::compute(ram_pages, mfk, wsf, scale);
    let mut mm = Mm::new(nframes as usize, scale, flags, wmark);
    // A kernel whose sysctl caps swappiness refuses a larger write; the default stays.
    // A variant's own sysctl.swappiness replaces the scenario's (same cap).
    let swappiness = scn.swappiness_for(&v.name);
    mm.swappiness = if swappiness <= flags.max_swappiness() {
        swappiness
    } else {
        60
    };
    // 7.3 `laptop_mode_handler` (`laptop_mode_ignored`): the write is accepted and ignored.
    mm.laptop_mode = scn.sysctl.laptop_mode && !flags.laptop_mode_ignored;
    mm.page_cluster = scn.sysctl.page_cluster;
    mm.lru_gen_min_ttl_ns = scn.sysctl.lru_gen_min_ttl.ns();
    mm.wb.dirty_ratio = scn.sysctl.dirty_ratio as u64;
    // Per 4 KiB page, like every CPU cost: a frame costs `scale` times as much.
    mm.young_fault_ns = progress::per_frame(scn.machine.young_fault.ns(), scale);
    mm.wb.dirty_background_ratio = scn.sysctl.dirty_background_ratio as u64;

    let mut dev_index = BTreeMap::new();
    for d in &scn.devices {
        dev_index.insert(d.name.clone(), mm.devices.len());
        mm.devices.push(d.device());
    }
    let dev = |name: &str| -> Result<usize, String> {
        dev_index
            .get(name)
            .copied()
            .ok_or_else(|| format!("unknown device {name:?}"))
    };
    let mut dev_cursor = vec![0u64; mm.devices.len()];
    if let Some(sw) = &scn.machine.swap {
        let d = dev(&sw.device)?;
        let slots = sw.size.bytes() / PAGE_BYTES / scale;
        let mut swap = Swap::new(d, slots);
        // Cluster readahead reads slots by number: it needs each slot's owner (8 bytes a
        // slot), which only shmem, a rotational swap device or a pre-4.14 kernel use.
        let shmem = scn.files.iter().any(|f| f.tmpfs)
            || scn.tasks.iter().any(|t| has_shared_anon(&t.program));
        if shmem || !flags.swap_vma_readahead || mm.devices[d].kind == DeviceKind::Hdd {
            swap = swap.track_owners();
        }
        mm.swap = Some(swap);
        dev_cursor[d] += slots + 1024;
    }
    let mut file_space = BTreeMap::new();
    for f in &scn.files {
        let pages = f.size.bytes().div_ceil(PAGE_BYTES * scale);
        let (kind, d) = if f.tmpfs {
            (SpaceKind::Shmem, 0)
        } else {
            (SpaceKind::File, dev(&f.device)?)
        };
        let lba = if f.tmpfs { 0 } else { dev_cursor[d] };
        if !f.tmpfs {
            dev_cursor[d] += pages + 1024;
        }
        let id = mm.add_space(Space::new(&f.name, kind, pages, d, lba, u32::MAX));
        file_space.insert(f.name.clone(), id);
    }

    // Memcgs in declaration order (parents first, as the parser checks); limits in frames.
    // Ids are 16 bits wide: refuse what validation would (a scenario built in code may skip it).
    let memcgs: u64 = scn
        .memcgs
        .iter()
        .map(|m| u64::from(m.replicas.unwrap_or(1)))
        .sum();
    if memcgs > crate::scenario::budget::HARD_MAX_MEMCGS {
        return Err(format!(
            "{memcgs} memcgs; memcg ids are 16 bits wide, so at most {} besides the root",
            crate::scenario::budget::HARD_MAX_MEMCGS
        ));
    }
    let mut memcg_ids = BTreeMap::new();
    memcg_ids.insert("/".to_string(), 0u16);
    let frame_bytes = PAGE_BYTES * scale;
    for (_, m) in scn.expanded_memcgs() {
        let parent = memcg_ids[m.parent.as_deref().unwrap_or("/")];
        let id = mm.add_memcg(&m.name, parent);
        let c = &mut mm.memcgs.list[id as usize];
        c.min = m.min.map_or(0, |v| v.bytes() / frame_bytes);
        c.low = m.low.map_or(0, |v| v.bytes() / frame_bytes);
        c.high = m
            .high
            .map_or(UNLIMITED, |v| (v.bytes() / frame_bytes).max(1));
        c.max = m
            .max
            .map_or(UNLIMITED, |v| (v.bytes() / frame_bytes).max(1));
        memcg_ids.insert(m.name.clone(), id);
    }
    let tasks = scn.expanded_tasks();

    let mut sim = Simulation {
        mm,
        events: Default::default(),
        tasks: Vec::new(),
        spec_names: Vec::new(),
        scenario_title: scn.title.clone(),
        variant: v.name.clone(),
        preset: v.preset.clone(),
        end_ns: scn.run.duration.ns().max(1),
        sample_ns: scn.run.sample_interval.ns().max(1_000),
        measure_from: scn.run.measure_from.clone(),
        marks: BTreeMap::new(),
        series: Vec::new(),
        oom_kills: Vec::new(),
        now: 0,
        shared_spaces: BTreeMap::new(),
        pools: BTreeMap::new(),
        fault_wait: None,
        lock_wait: false,
        write_notified: false,
        sweep_cursors: Vec::new(),
        check_invariants: false,
        cpus: scn.machine.cpus,
        first_live: Default::default(),
        last_exit_ns: 0,
        op_paths: Vec::new(),
        guard: Default::default(),
        next_touch: Vec::new(),
        replays: false,
    };
    // Each task's memcg (None: unknown, refused when that task is compiled).
    let charged: Vec<Option<u16>> = tasks
        .iter()
        .map(|(_, t)| memcg_ids.get(t.memcg.as_deref().unwrap_or("/")).copied())
        .collect();
    for (si, (orig, spec)) in tasks.iter().enumerate() {
        let memcg = charged[si]
            .ok_or_else(|| format!("tasks[{orig}].memcg: unknown memcg {:?}", spec.memcg))?;
        let mut c = Compiler {
            reference: Reference {
                task: si,
                tasks: &tasks,
                charged: &charged,
                memcg,
                clients: spec.clients,
                in_loop: false,
                used: false,
            },
            scale,
            anon_only_reclaim: sim.mm.flags.swappiness_anon_only,
            preset: &v.preset,
            files: &file_space,
            mm: &sim.mm,
            memcgs: &memcg_ids,
            regions: BTreeMap::new(),
            writable: Default::default(),
            traces: &scn.traces,
            out: Vec::new(),
            paths: Vec::new(),
        };
        c.ops(&spec.program, &format!("tasks[{orig}].program"))?;
        let prog: Rc<[Instr]> = c.out.into();
        sim.replays |= prog.iter().any(|i| matches!(i, Instr::Replay { .. }));
        sim.op_paths.push(c.paths);
        sim.spec_names.push(spec.name.clone());
        for client in 0..spec.clients.max(1) {
            let ti = sim.tasks.len() as u32;
            let name = if spec.clients > 1 {
                format!("{}/{}", spec.name, client)
            } else {
                spec.name.clone()
            };
            sim.tasks.push(Task {
                name,
                spec: si,
                prog: prog.clone(),
                pc: 0,
                loops: Vec::new(),
                progress: 0,
                op_start: spec.start.ns(),
                regions: Default::default(),
                rng: task_rng(scn.seed, si as u64, client as u64),
                ahead: None,
                state: TaskState::Waiting,
                clock: spec.start.ns(),
                pending: None,
                retry_uncounted: false,
                throttle_pending: false,
                pool_step: None,
                rounds_ns: Vec::new(),
                ops_pending: Vec::new(),
                ops_measured: Default::default(),
                ops_total: 0,
                alloc_stalls_ns: Default::default(),
                major_faults: 0,
                mmap_runs: Default::default(),
                io_waits_ns: Default::default(),
                throttle_waits_ns: Default::default(),
                acc_io_wait: 0,
                acc_throttle_wait: 0,
                memcg,
                reclaim: None,
                replay: None,
                replay_stats: Default::default(),
                references: None,
            });
            sim.schedule(spec.start.ns(), Event::Task(ti));
        }
    }
    sim.schedule(0, Event::Sample);
    Ok(sim)
}

/// Each client's random stream: the scenario seed and the client's identity mixed through
/// SplitMix64, so that different seeds give unrelated streams (XOR alone would only permute the
/// same set of streams among identical clients).
pub fn task_rng(seed: u64, spec: u64, client: u64) -> Rng {
    let mut mix = Rng::new(seed);
    let a = mix.next_u64();
    Rng::new(a ^ Rng::new(spec << 32 | client).next_u64())
}

// The op structs, by name, for the compiler's match over `Op`.
use crate::scenario::ops::{
    Anon, Free, Loop, Mark, MemoryReclaim, Mmap, Munmap, Read, Sleep, Touch, Truncate, Write,
};

/// What a replay's `reference` needs of its task: the size the reference policies hold, and
/// whether the cache of that size is the task's alone.
struct Reference<'a> {
    /// The task's index among the expanded tasks, all of them, and each one's memcg.
    task: usize,
    tasks: &'a [(usize, crate::scenario::TaskSpec)],
    charged: &'a [Option<u16>],
    memcg: u16,
    clients: u32,
    /// Compiling a loop's body.
    in_loop: bool,
    /// A replay of this task already has one.
    used: bool,
}

struct Compiler<'a> {
    reference: Reference<'a>,
    scale: u64,
    /// memory.reclaim accepts `swappiness=max` (6.16+, `swappiness_anon_only`).
    anon_only_reclaim: bool,
    preset: &'a str,
    files: &'a BTreeMap<String, u32>,
    /// The model, for the lengths of its spaces.
    mm: &'a Mm,
    memcgs: &'a BTreeMap<String, u16>,
    /// Region name -> (index, size in frames).
    regions: BTreeMap<String, (usize, u64)>,
    /// Regions last mapped with write permission (a replay's stores need it).
    writable: std::collections::BTreeSet<usize>,
    /// The traces the shell supplied.
    traces: &'a crate::scenario::trace::Traces,
    out: Vec<Instr>,
    /// The scenario path of each instruction's op (a loop's start and end: the loop's).
    paths: Vec<String>,
}

impl Compiler<'_> {
    fn frames(&self, bytes: u64) -> u64 {
        progress::frames(bytes, self.scale)
    }

    fn region(&self, name: &str, at: &str) -> Result<(usize, u64), String> {
        self.regions
            .get(name)
            .copied()
            .ok_or_else(|| format!("{at}: region {name:?} is not defined earlier in this program"))
    }

    fn file(&self, name: &str, at: &str) -> Result<u32, String> {
        self.files
            .get(name)
            .copied()
            .ok_or_else(|| format!("{at}: unknown file {name:?}"))
    }

    fn new_region(&mut self, name: &str, pages: u64) -> usize {
        let idx = self.regions.len();
        let idx = self.regions.get(name).map(|r| r.0).unwrap_or(idx);
        self.regions.insert(name.to_string(), (idx, pages));
        idx
    }

    fn ops(&mut self, ops: &[Op], at: &str) -> Result<(), String> {
        for (i, op) in ops.iter().enumerate() {
            let at = format!("{at}[{i}]");
            self.op(op, &at)?;
        }
        Ok(())
    }

    fn access(
        &self,
        pattern: Pattern,
        pages: u64,
        count: Option<u64>,
        theta: f64,
        rate: f64,
    ) -> (Option<Rc<Zipf>>, Option<u64>, u64) {
        let zipf = (pattern == Pattern::Zipf).then(|| Rc::new(Zipf::new(pages.max(1), theta)));
        // `rate` and `count` are in 4 KiB pages and an access touches one frame of `scale`
        // pages: the scenario check reckons with the same rounding (`scenario::progress`).
        (
            zipf,
            progress::access_count(count, self.scale),
            progress::access_interval_ns(rate, self.scale),
        )
    }

    fn op(&mut self, op: &Op, at: &str) -> Result<(), String> {
        match op {
            Op::Anon(Anon { name, size, shared }) => {
                let pages = self.frames(size.bytes()).max(1);
                let region = self.new_region(name, pages);
                self.out.push(Instr::Anon {
                    region,
                    pages,
                    shared: *shared,
                    name: name.clone(),
                });
            }
            Op::Mmap(Mmap {
                name,
                file,
                offset,
                size,
                prot,
                shared: _,
                hint,
                advance,
            }) => {
                let space = self.file(file, at)?;
                let flen = self.mm.space_len(space);
                let off = offset.bytes() / (PAGE_BYTES * self.scale);
                let pages = match size {
                    Some(s) => self.frames(s.bytes()),
                    None => flen.saturating_sub(off),
                };
                if off + pages > flen || pages == 0 {
                    return Err(format!("{at}: mapping of {file:?} lies outside the file"));
                }
                let region = self.new_region(name, pages);
                if prot.contains('w') {
                    self.writable.insert(region);
                } else {
                    self.writable.remove(&region);
                }
                self.out.push(Instr::Mmap {
                    region,
                    space,
                    offset: off,
                    pages,
                    exec: prot.contains('x'),
                    advice: madvise(*hint),
                    advance: advance.then_some(flen),
                });
            }
            Op::Munmap(Munmap { name }) => {
                let (region, _) = self.region(name, at)?;
                self.out.push(Instr::Munmap { region });
            }
            Op::Free(Free { name }) => {
                let (region, _) = self.region(name, at)?;
                self.out.push(Instr::Free { region });
            }
            Op::Touch(Touch {
                regions,
                pattern,
                count,
                write,
                cpu,
                theta,
                rate,
                write_fraction,
            }) => {
                let mut idx = Vec::new();
                let mut pages = 0;
                for r in regions {
                    let (i, p) = self.region(r, at)?;
                    idx.push(i);
                    pages = if pages == 0 { p } else { pages.min(p) };
                }
                if idx.is_empty() {
                    return Err(format!("{at}: touch needs at least one region"));
                }
                let (zipf, count, interval_ns) =
                    self.access(*pattern, pages, *count, *theta, *rate);
                self.out.push(Instr::Touch(Rc::new(Access {
                    regions: idx,
                    space: 0,
                    offset: 0,
                    pages,
                    pattern: *pattern,
                    count,
                    write: *write,
                    cpu_ns: progress::per_frame(cpu.ns(), self.scale),
                    zipf,
                    interval_ns,
                    advice: Default::default(),
                    sync: false,
                    bytes: PAGE_BYTES * self.scale,
                    write_fraction: *write_fraction,
                    buffer: None,
                    drop_behind: 0,
                })));
            }
            Op::Read(Read {
                cpu,
                hint,
                buffer,
                write,
                ..
            }) => {
                let mut a = self.file_access(op, progress::per_frame(cpu.ns(), self.scale), at)?;
                a.advice = madvise(*hint);
                a.write = *write;
                if let Some(name) = buffer {
                    a.buffer = Some(self.region(name, at)?.0);
                }
                self.out.push(Instr::Read(Rc::new(a)));
            }
            Op::Write(Write {
                cpu,
                sync,
                bytes,
                drop_behind,
                ..
            }) => {
                let mut a = self.file_access(op, 0, at)?;
                a.write = true;
                a.sync = *sync;
                if let Some(seg) = drop_behind {
                    let frame = PAGE_BYTES * self.scale;
                    a.drop_behind = seg.bytes() / frame;
                    if seg.bytes() % frame != 0 || a.pages % a.drop_behind.max(1) != 0 {
                        return Err(format!(
                            "{at}: drop_behind {seg} must be whole frames ({}) that divide the \
                             {} written into equal segments",
                            crate::scenario::Size(frame),
                            crate::scenario::Size(a.pages * frame)
                        ));
                    }
                }
                if let Some(b) = bytes {
                    a.bytes = b.bytes().clamp(1, PAGE_BYTES * self.scale);
                }
                // `cpu` is per 4 KiB page the write covers.
                a.cpu_ns = progress::per_frame(cpu.ns(), a.bytes.div_ceil(PAGE_BYTES));
                self.out.push(Instr::Write(Rc::new(a)));
            }
            Op::Replay(r) => self.replay(r, at)?,
            Op::Sleep(Sleep { duration }) => self.out.push(Instr::Sleep { ns: duration.ns() }),
            Op::ScanInactiveFile(_) => self.out.push(Instr::ScanInactiveFile),
            Op::DropCaches(_) => self.out.push(Instr::DropCaches),
            Op::Truncate(Truncate { file }) => {
                let space = self.file(file, at)?;
                self.out.push(Instr::Truncate { space });
            }
            Op::Mark(Mark { name }) => self.out.push(Instr::Mark { name: name.clone() }),
            Op::MemoryReclaim(MemoryReclaim {
                memcg,
                amount,
                swappiness,
            }) => {
                let id = self
                    .memcgs
                    .get(memcg)
                    .copied()
                    .ok_or_else(|| format!("{at}: unknown memcg {memcg:?}"))?;
                if *swappiness == Some(crate::scenario::ops::SWAPPINESS_MAX)
                    && !self.anon_only_reclaim
                {
                    return Err(format!(
                        "{at}: memory_reclaim swappiness = \"max\" needs a kernel with \
                         swappiness_anon_only (6.16+); {} refuses it (-EINVAL)",
                        self.preset
                    ));
                }
                self.out.push(Instr::MemoryReclaim {
                    memcg: id,
                    bytes: amount.bytes(),
                    swappiness: *swappiness,
                });
            }
            Op::Loop(Loop {
                count,
                duration,
                record,
                body,
            }) => {
                let start = self.out.len();
                self.out.push(Instr::LoopStart {
                    end: 0,
                    count: *count,
                    duration: duration.map(|d| d.ns()),
                    record: *record,
                });
                self.paths.push(at.to_string());
                let outer = std::mem::replace(&mut self.reference.in_loop, true);
                self.ops(body, &format!("{at}.body"))?;
                self.reference.in_loop = outer;
                let end = self.out.len() + 1;
                self.out.push(Instr::LoopEnd { start });
                if let Instr::LoopStart { end: e, .. } = &mut self.out[start] {
                    *e = end;
                }
            }
        }
        self.paths.resize(self.out.len(), at.to_string());
        Ok(())
    }

    /// The common part of read and write ops: the file's page range and the access pattern.
    fn file_access(&self, op: &Op, cpu_ns: u64, at: &str) -> Result<Access, String> {
        let (Op::Read(Read {
            file,
            pattern,
            offset,
            size,
            count,
            theta,
            rate,
            ..
        })
        | Op::Write(Write {
            file,
            pattern,
            offset,
            size,
            count,
            theta,
            rate,
            ..
        })) = op
        else {
            return Err(format!("{at}: not a read or write"));
        };
        let space = self.file(file, at)?;
        let (offset, pages) =
            self.file_range(space, offset.bytes(), size.map(|s| s.bytes()), at)?;
        let (zipf, count, interval_ns) = self.access(*pattern, pages, *count, *theta, *rate);
        Ok(Access {
            regions: Vec::new(),
            space,
            offset,
            pages,
            pattern: *pattern,
            count,
            write: false,
            cpu_ns,
            zipf,
            interval_ns,
            advice: Default::default(),
            sync: false,
            bytes: PAGE_BYTES * self.scale,
            write_fraction: 0.0,
            buffer: None,
            drop_behind: 0,
        })
    }

    /// A replay: the trace the shell supplied, read through once here (every record checked,
    /// each object given its page), and the access its requests make.
    fn replay(&mut self, r: &crate::scenario::ops::Replay, at: &str) -> Result<(), String> {
        use crate::scenario::trace::{scan, TraceReader};
        let source = self.traces.get(&r.trace).cloned().ok_or_else(|| {
            format!(
                "{at}.trace: trace {:?} was not supplied (the CLI reads it relative to the \
                 scenario file; the page asks for the file)",
                r.trace
            )
        })?;
        let cpu_ns = progress::per_frame(r.cpu.ns(), self.scale);
        let (regions, space, offset, pages) = match (&r.file, &r.region) {
            (Some(file), _) => {
                let space = self.file(file, at)?;
                let (offset, pages) = self.file_range(space, 0, None, at)?;
                (Vec::new(), space, offset, pages)
            }
            (None, Some(region)) => {
                let (i, pages) = self.region(region, at)?;
                (vec![i], 0, 0, pages)
            }
            (None, None) => return Err(format!("{at}: a replay needs file or region")),
        };
        let mut reader = TraceReader::new(&r.trace, source.clone(), r.format)
            .map_err(|e| format!("{at}: {e}"))?;
        let found = scan(&mut reader, pages).map_err(|e| format!("{at}: {e}"))?;
        if let (Some(region), true) = (&r.region, found.writes > 0) {
            if !self.writable.contains(&regions[0]) {
                return Err(format!(
                    "{at}.region: trace {:?} has {} write requests, and region {region:?} is \
                     mapped without write permission; map it with prot = \"rw\"",
                    r.trace, found.writes
                ));
            }
        }
        let access = Access {
            regions,
            space,
            offset,
            pages,
            pattern: Pattern::Random,
            count: Some(r.count.unwrap_or(u64::MAX)),
            write: false,
            cpu_ns,
            zipf: None,
            interval_ns: 0,
            advice: madvise(r.hint),
            sync: false,
            bytes: PAGE_BYTES * self.scale,
            write_fraction: 0.0,
            buffer: None,
            drop_behind: 0,
        };
        let reference = if r.reference {
            Some(Rc::new(self.reference_spec(r, &mut reader, &found, at)?))
        } else {
            None
        };
        let spec = crate::sim::replay::ReplaySpec {
            reference,
            name: r.trace.clone(),
            source,
            format: r.format,
            pages: Rc::new(found.pages),
            touch: r.region.is_some(),
            pace: r.pace,
            speed: r.speed,
            unit_ns: r.time_unit.ns(),
        };
        self.out.push(Instr::Replay {
            access: Rc::new(access),
            spec: Rc::new(spec),
        });
        Ok(())
    }

    /// A replay's reference policies: their size (the task's memcg's memory.max, one object a
    /// page) and, for OPT, each request's next request: the oracleGeneral trace's own fields,
    /// checked against its ids as `reclaim mrc` does, or computed for a CSV trace (8 bytes a
    /// request).
    fn reference_spec(
        &mut self,
        r: &crate::scenario::ops::Replay,
        reader: &mut crate::scenario::trace::TraceReader,
        found: &crate::scenario::trace::TraceScan,
        at: &str,
    ) -> Result<crate::sim::replay::ReferenceSpec, String> {
        let at = format!("{at}.reference");
        let pages = reference_limit(self.mm, &self.reference).map_err(|e| format!("{at}: {e}"))?;
        let refs = &mut self.reference;
        if refs.in_loop || refs.clients > 1 || refs.used || r.count.is_some() {
            return Err(format!(
                "{at}: the reference policies follow one pass of the whole trace by one task: \
                 not in a loop, not with clients, not with count, one such replay a task"
            ));
        }
        refs.used = true;
        let next = match r.format {
            crate::scenario::trace::TraceFormat::OracleGeneral => {
                crate::reference::check_next(reader, &found.pages)
                    .map_err(|e| format!("{at}: trace {:?}: {e}", r.trace))?;
                None
            }
            crate::scenario::trace::TraceFormat::Csv => Some(Rc::new(
                crate::reference::next_requests(reader, &found.pages)
                    .map_err(|e| format!("{at}: {e}"))?,
            )),
        };
        Ok(crate::sim::replay::ReferenceSpec { pages, next })
    }

    fn file_range(
        &self,
        space: u32,
        offset: u64,
        size: Option<u64>,
        at: &str,
    ) -> Result<(u64, u64), String> {
        let flen = self.mm.space_len(space);
        let off = offset / (PAGE_BYTES * self.scale);
        let pages = match size {
            Some(s) => self.frames(s),
            None => flen.saturating_sub(off),
        };
        if off + pages > flen || pages == 0 {
            return Err(format!("{at}: range lies outside the file"));
        }
        Ok((off, pages))
    }
}

/// The pages a task's reference policies hold: the tightest memory.max from its memcg up to
/// the root (the kernel charges up the whole path, `page_counter_try_charge` as of v6.1, so
/// each limit on it caps the task's page cache). Refused when another task is charged under
/// one of those limits (a replica, a task in the same memcg, or one beside it under a parent's
/// limit): the kernel's cache there is shared, while the reference follows this task's
/// requests alone.
/// One reference over the tasks' merged requests is no answer: OPT needs each request's next
/// use in the merged order, which the run's own IO waits decide (they differ by variant), so
/// it cannot be known before the run, as the reference needs it.
fn reference_limit(mm: &Mm, r: &Reference<'_>) -> Result<u64, String> {
    let list = &mm.memcgs.list;
    let path = |mut m: u16| {
        let mut out = Vec::new();
        while m != 0 {
            out.push(m);
            m = list[m as usize].parent.unwrap_or(0);
        }
        out
    };
    let limits: Vec<u16> = path(r.memcg)
        .into_iter()
        .filter(|&m| list[m as usize].max != UNLIMITED)
        .collect();
    let Some(pages) = limits.iter().map(|&m| list[m as usize].max).min() else {
        let e = "the reference policies hold as many objects as the task's memcg memory.max \
                 holds pages; put the task in a memcg with memory.max";
        return Err(e.to_string());
    };
    for &limit in &limits {
        let other = (0..r.tasks.len())
            .filter(|&j| j != r.task)
            .find(|&j| r.charged[j].is_some_and(|m| path(m).contains(&limit)));
        if let Some(j) = other {
            return Err(format!(
                "the reference policies hold the {} pages memcg {:?} allows (memory.max), but \
                 task {:?} is charged under that limit too: the kernel's cache there is shared, \
                 so its misses and the reference's of this task's requests would not compare; \
                 give task {:?} a memcg of its own with memory.max (and no other task under a \
                 limit above it), or drop reference",
                list[limit as usize].max,
                list[limit as usize].name,
                r.tasks[j].1.name,
                r.tasks[r.task].1.name,
            ));
        }
    }
    Ok(pages)
}

/// Does a program create a shared anon (shmem) region, at any depth of loops?
fn has_shared_anon(ops: &[Op]) -> bool {
    ops.iter().any(|op| match op {
        Op::Anon(Anon { shared, .. }) => *shared,
        Op::Loop(Loop { body, .. }) => has_shared_anon(body),
        _ => false,
    })
}

/// The model's form of a mapping's or a read's advice.
fn madvise(h: crate::scenario::Hint) -> crate::mm::mm_types::Madvise {
    use crate::mm::mm_types::Madvise;
    use crate::scenario::Hint;
    match h {
        Hint::Normal => Madvise::Normal,
        Hint::Sequential => Madvise::Sequential,
        Hint::Random => Madvise::Random,
        Hint::Noreuse => Madvise::Noreuse,
    }
}

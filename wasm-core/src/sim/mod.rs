//! The simulation: virtual time in nanoseconds, the event queue, tasks running their programs
//! (the interpreter), CPUs, and the building of a simulation from a scenario. It drives the
//! kernel model (`crate::mm`) and knows nothing of LRU lists beyond what the model reports;
//! the `Simulation` API is what the CLI, the wasm facade and the tests drive.
pub mod events;
pub mod replay;
pub mod stats;
pub mod workloads;

mod build;
mod guard;
pub use guard::{CpuLimit, RunError, MAX_STALLED_EVENTS};
// The per-client random stream, shared with `reclaim kernel`'s guest runner and the anchors
// of benches/anchors.rs (native only).
#[cfg(not(target_arch = "wasm32"))]
pub use build::task_rng;
mod interp;

use std::collections::BTreeMap;

use crate::mm::mm_types::*;
use crate::mm::mmzone::{Mm, Wakeup};
#[cfg(test)]
use crate::mm::vmstat::C;
use crate::mm::vmstat::{
    Counters, COUNTER_NAMES, NR_COUNTERS, PROACTIVE_COUNTER_NAMES, RFC2016_COUNTER_NAMES,
};
use events::{Event, EventQueue};

use crate::report::{OomKill, RunReport, TaskReport};
use crate::scenario::Scenario;
use crate::sim::workloads::{Task, TaskState};
use stats::LatencyStats;

pub use crate::views::series::Sample;

/// A running simulation of one scenario under one kernel variant.
#[derive(Clone)]
pub struct Simulation {
    pub(crate) mm: Mm,
    /// Virtual time's queue; the model's wakeups join it in the order it asked for them.
    pub(crate) events: EventQueue,
    pub(crate) tasks: Vec<Task>,
    /// Names of the task specs (clients of a spec are aggregated in reports).
    pub(crate) spec_names: Vec<String>,
    pub(crate) scenario_title: String,
    pub(crate) variant: String,
    pub(crate) preset: String,
    pub(crate) end_ns: u64,
    pub(crate) sample_ns: u64,
    pub(crate) measure_from: Option<String>,
    /// Counter values when each mark was first reached.
    pub(crate) marks: BTreeMap<String, (u64, Counters)>,
    pub(crate) series: Vec<Sample>,
    pub(crate) oom_kills: Vec<OomKill>,
    /// Virtual time reached.
    pub(crate) now: u64,
    /// When the latest task exit or OOM kill happened: a task runs ahead of the event clock
    /// up to the next event, so the run's end is this when it is later than the last event.
    pub(crate) last_exit_ns: u64,
    /// Shared anon (shmem) spaces by name.
    pub(crate) shared_spaces: BTreeMap<String, u32>,
    /// Application buffer pools, by the anon space that holds them.
    pub(crate) pools: BTreeMap<u32, crate::sim::workloads::bufpool::BufferPool>,
    /// How the kernel goes on from the page fault of the access that is about to wait.
    pub(crate) fault_wait: Option<crate::mm::memory::FaultWait>,
    /// The access that is about to wait sleeps on a lock (a truncate's inode lock): not IO
    /// wait.
    pub(crate) lock_wait: bool,
    /// The running access took a write fault through a shared file mapping: once it is done
    /// the task goes through `balance_dirty_pages_ratelimited` (`balance_after_write`).
    pub(crate) write_notified: bool,
    /// Per address space, the next page of a `sweep` access, shared by every task that
    /// sweeps it (grown as spaces are swept).
    pub(crate) sweep_cursors: Vec<u64>,
    /// Check invariants after every event (tests).
    pub check_invariants: bool,
    /// CPUs shared by the tasks and kswapd (`machine.cpus`); None: a CPU each.
    pub(crate) cpus: Option<u32>,
    /// Tasks before this index are over (see `all_tasks_finished`).
    pub(crate) first_live: std::cell::Cell<usize>,
    /// Per task spec, the scenario path of the op of each instruction (for error messages).
    pub(crate) op_paths: Vec<Vec<String>>,
    /// The progress guard and the CPU limit (`guard.rs`).
    pub(crate) guard: guard::Guard,
    /// Per task, the mapping and page of the random touch it makes when it runs next, worked
    /// out when it parked (its lines were in cache then): `prefetch_next` reads this instead
    /// of the task, its program and its access, a chain of cache misses with many tasks
    /// taking turns (S003). A hint only (x86-64), empty elsewhere.
    pub(crate) next_touch: Vec<Option<(Vma, u64)>>,
    /// A task's program replays a trace (set by the build, so that each frame's view need not
    /// scan the programs).
    pub(crate) replays: bool,
}

/// Events one `step` processes at most (see [`Simulation::step`]).
pub const STEP_EVENTS: u64 = 1 << 18;

impl Simulation {
    /// Build a simulation of `scenario` under the variant named `variant`.
    pub fn new(scenario: &Scenario, variant: &str) -> Result<Simulation, String> {
        build::build(scenario, variant)
    }

    /// The tiny built-in scenario: 16 MiB, one task touching 24 MiB of anon in a loop.
    pub fn demo() -> Simulation {
        let text = include_str!("demo.toml");
        let scn = crate::scenario::parse(text).expect("built-in demo scenario parses");
        Simulation::new(&scn, "linux-6.1").expect("built-in demo scenario builds")
    }

    /// Queue `e` at `t`, after the wakeups the model asked for so far (which keep their order).
    #[inline]
    pub(crate) fn schedule(&mut self, t: u64, e: Event) {
        self.take_wakeups();
        self.events.push(t, e);
    }

    /// Move the model's wakeups into the queue, in the order it asked for them.
    #[inline]
    fn take_wakeups(&mut self) {
        // Most events ask for none: keep the common case a length check.
        if !self.mm.wakeups.is_empty() {
            self.queue_wakeups();
        }
    }

    #[inline(never)]
    fn queue_wakeups(&mut self) {
        for &(t, w) in &self.mm.wakeups {
            self.events.push(t, Event::Kernel(w));
        }
        self.mm.wakeups.clear();
    }

    /// When the next event fires, counting the wakeups not yet queued.
    #[inline]
    pub(crate) fn next_event_time(&self) -> Option<u64> {
        if self.mm.wakeups.is_empty() {
            return self.events.peek_time();
        }
        let asked = self.mm.wakeups.iter().map(|&(t, _)| t).min();
        match (self.events.peek_time(), asked) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn pop_event(&mut self) -> Option<(u64, Event)> {
        self.take_wakeups();
        self.events.pop()
    }

    /// Advance virtual time by `ns` (or to the end of the run), processing about
    /// [`STEP_EVENTS`] events at most: a caller that must stay responsive (the page's worker)
    /// gets control back in bounded time, short of the target when the run is that busy. It
    /// stops between two instants only, so the state is exactly `run_until(now_ns())`'s, and
    /// the results are the same.
    pub fn step(&mut self, ns: u64) {
        let target = self.now.saturating_add(ns);
        self.run_events(target, STEP_EVENTS);
    }

    /// Run to the end of the scenario and report.
    pub fn run_to_end(&mut self) -> RunReport {
        self.run_until(u64::MAX);
        self.report()
    }

    /// Process every event up to virtual time `t` (capped at the run's duration).
    pub fn run_until(&mut self, t: u64) {
        self.run_events(t, u64::MAX);
    }

    /// Process events up to virtual time `t`, `max_events` of them and then the rest of the
    /// same instant (validation bounds what one instant holds); virtual time moves to `t`
    /// only when every event before it was processed.
    pub fn run_events(&mut self, t: u64, max_events: u64) {
        if self.guard.error.is_some() {
            return;
        }
        let t = t.min(self.end_ns);
        let mut budget = max_events;
        let mut last = None;
        while let Some(et) = self.next_event_time() {
            if et > t {
                break;
            }
            if budget == 0 && last.is_some_and(|l| et > l) {
                return;
            }
            budget = budget.saturating_sub(1);
            last = Some(et);
            let (et, ev) = self.pop_event().unwrap();
            self.prefetch_next();
            self.mm.now = et;
            self.now = self.now.max(et);
            if !self.guard_event(et, ev) {
                self.finish();
                return;
            }
            self.dispatch(et, ev);
            if self.guard.error.is_some() {
                self.finish();
                return;
            }
            if self.check_invariants {
                if let Err(e) = self.mm.check_invariants() {
                    panic!("invariant violated at t={et} after {ev:?}: {e}");
                }
            }
            if self.all_tasks_finished() {
                self.now = self.now.max(et).max(self.last_exit_ns);
                self.finish();
                return;
            }
        }
        self.now = self.now.max(t);
        if self.now >= self.end_ns {
            self.finish();
        }
    }

    /// When the next event is a task's single-region random touch, ask the CPU for the cache
    /// lines its page access will read while this event runs: with many tasks taking turns
    /// (S003 at 128 memcgs) each access's PTE copy and page slot are cache misses in a chain
    /// of dependent loads. A hint only: the page was drawn on a copy of the task's generator
    /// when it parked (`note_next_touch`).
    #[inline]
    fn prefetch_next(&self) {
        if !cfg!(target_arch = "x86_64") {
            return;
        }
        let Some(Event::Task(j)) = self.events.peek() else {
            return;
        };
        if let Some(Some((r, page))) = self.next_touch.get(j as usize) {
            self.mm.prefetch_pte(r, *page);
        }
    }

    /// Task `ti` parks: note the page of the access it will make next when that is a
    /// single-region random touch (see `next_touch`).
    #[inline]
    pub(crate) fn note_next_touch(&mut self, ti: usize) {
        use crate::scenario::Pattern;
        use crate::sim::workloads::Instr;
        if !cfg!(target_arch = "x86_64") {
            return;
        }
        let t = &self.tasks[ti];
        let next = match t.prog.get(t.pc) {
            Some(Instr::Touch(a))
                if a.regions.len() == 1 && a.pattern == Pattern::Random && t.pending.is_none() =>
            {
                t.regions
                    .get(a.regions[0])
                    .map(|r| (*r, t.rng.clone().below(a.pages)))
            }
            _ => None,
        };
        if self.next_touch.len() <= ti {
            self.next_touch.resize(self.tasks.len().max(ti + 1), None);
        }
        self.next_touch[ti] = next;
    }

    fn finish(&mut self) {
        self.end_ns = self.now;
        if self.series.last().is_none_or(|s| s.t_ns < self.now) {
            self.take_sample(self.now);
        }
    }

    fn dispatch(&mut self, t: u64, ev: Event) {
        match ev {
            Event::Task(i) => {
                let task = &mut self.tasks[i as usize];
                if task.state.is_over() {
                    return;
                }
                task.clock = task.clock.max(t);
                task.state = TaskState::Runnable;
                self.run_task(i as usize);
            }
            Event::Kernel(Wakeup::Io(id)) => self.mm.complete_io(id),
            Event::Kernel(Wakeup::Kswapd) => {
                let mut k = std::mem::take(&mut self.mm.kswapd);
                let step = self.mm.kswapd_step(&mut k);
                self.mm.kswapd = k;
                if let Some(time) = step.cpu {
                    self.kswapd_steals_cpu(time - self.mm.kswapd.tag_sleep_ns.min(time));
                }
                if step.out_of_memory {
                    self.oom_kill(t);
                }
                match step.cpu {
                    Some(cpu) => self.schedule(t + cpu, Event::Kernel(Wakeup::Kswapd)),
                    None => {
                        self.mm.kswapd.sleeping = true;
                        self.mm.kswapd.slept_at = t;
                    }
                }
            }
            Event::Kernel(Wakeup::Flusher) => self.mm.wb_workfn(t),
            Event::Sample => {
                self.take_sample(t);
                let next = t.checked_add(self.sample_ns);
                if let Some(next) = next.filter(|&n| n <= self.end_ns) {
                    if !self.all_tasks_finished() {
                        self.schedule(next, Event::Sample);
                    }
                }
            }
        }
    }

    /// With `machine.cpus` set, kswapd's CPU time is taken from the tasks when they keep every
    /// CPU busy: the scheduler shares the CPUs fairly (CFS), so R >= C busy tasks each lose
    /// kswapd's time / R; with fewer busy tasks than CPUs kswapd runs on an idle CPU. A task
    /// wants a CPU during kswapd's run [now, now + cpu) unless it is blocked (on IO, the dirty
    /// throttle, a sleep) past its end. (A rate-limited task's idle gaps count as busy.)
    fn kswapd_steals_cpu(&mut self, cpu: u64) {
        let Some(cpus) = self.cpus else {
            return;
        };
        let end = self.now + cpu;
        let busy = move |t: &Task| {
            matches!(t.state, TaskState::Runnable | TaskState::Waiting) && t.clock < end
        };
        let r = self.tasks.iter().filter(|t| busy(t)).count() as u64;
        if r == 0 || r < cpus as u64 {
            return;
        }
        let share = cpu.div_ceil(r);
        for t in self.tasks.iter_mut().filter(|t| busy(t)) {
            t.clock += share;
        }
    }

    /// Checked after every event, so it must not scan every task each time: tasks never come
    /// back once over, so the scan resumes from the first task found still running.
    fn all_tasks_finished(&self) -> bool {
        let mut i = self.first_live.get();
        while self.tasks.get(i).is_some_and(|t| t.state.is_over()) {
            i += 1;
        }
        self.first_live.set(i);
        i >= self.tasks.len()
    }

    /// Has the run ended (duration reached or every task done)?
    pub fn finished(&self) -> bool {
        self.now >= self.end_ns || self.all_tasks_finished() || self.guard.error.is_some()
    }

    fn take_sample(&mut self, t: u64) {
        self.series.push(Sample::of(&self.mm, t));
    }

    // ---- read-only views -------------------------------------------------------------------

    pub fn now_ns(&self) -> u64 {
        self.now
    }
    pub fn end_ns(&self) -> u64 {
        self.end_ns
    }
    pub fn scale(&self) -> u64 {
        self.mm.scale
    }
    pub fn counter_names(&self) -> Vec<String> {
        COUNTER_NAMES.iter().map(|s| s.to_string()).collect()
    }
    /// Counter values in pages, in `counter_names` order.
    pub fn counter_values(&self) -> Vec<f64> {
        self.mm
            .counters
            .0
            .iter()
            .map(|&v| (v * self.mm.scale) as f64)
            .collect()
    }
    /// Counters in pages by name.
    pub fn counters(&self) -> BTreeMap<String, u64> {
        to_map(&self.mm.counters, self.mm.scale, &self.mm.flags)
    }
    /// List sizes in pages: inactive_anon, active_anon, inactive_file, active_file,
    /// unevictable, free.
    pub fn lru_sizes(&self) -> [u64; 6] {
        let mut out = [0; 6];
        for (l, o) in out.iter_mut().enumerate().take(NR_LRU_LISTS) {
            *o = self.mm.lru_size(l) * self.mm.scale;
        }
        out[5] = self.mm.nr_free() * self.mm.scale;
        out
    }
    pub fn series(&self) -> &[Sample] {
        &self.series
    }
    /// Check the engine's structural invariants now.
    pub fn invariants(&self) -> Result<(), String> {
        self.mm.check_invariants()
    }
    /// Record page moves (for the animation), keeping at most `capacity` between drains.
    pub fn set_move_trace(&mut self, capacity: usize) {
        self.mm.trace.moves.enabled = capacity > 0;
        self.mm.trace.moves.capacity = capacity;
    }
    /// Take the recorded moves (list ids as the model holds them).
    pub fn drain_moves(&mut self) -> Vec<crate::mm::mmzone::TracedMove> {
        std::mem::take(&mut self.mm.trace.moves.moves)
    }
    /// The frames of each list from head to tail (`views::lru::list_frames`; O(frames)).
    pub fn list_frames(&self, lru: usize) -> Vec<u32> {
        crate::views::lru::list_frames(&self.mm, lru)
    }
    /// Per frame: the list it is on (LRU index 0..4, or 250 free), MGLRU frames by the classic
    /// list they count as (`views::lru::frame_lists`).
    pub fn frame_lists(&self) -> std::borrow::Cow<'_, [u8]> {
        crate::views::lru::frame_lists(&self.mm)
    }
    /// The state of the run for the page (`views::info::FrameView`), taking the moves recorded
    /// since the last call.
    pub fn frame_view(&mut self, cells: u32, max_moves: usize) -> crate::views::info::FrameView {
        let moves = self.drain_moves();
        let mut view = crate::views::info::FrameView::of(
            &self.mm,
            self.now,
            self.finished(),
            &moves,
            cells,
            max_moves,
        );
        view.replay = self.replay_view();
        view
    }
    /// The run's constants for the page (`views::info::RunInfo`), with its kernel as the
    /// caller resolved it.
    pub fn run_info(&self, kernel: crate::views::info::RunKernel) -> crate::views::info::RunInfo {
        let names = self.memcg_names();
        crate::views::info::RunInfo {
            variant: self.variant.clone(),
            preset: self.preset.clone(),
            scale: self.mm.scale,
            frames: self.mm.totalram_frames(),
            end_ns: self.end_ns,
            kernel,
            memcg_names: (names.len() > 1).then_some(names),
        }
    }
    /// The generations view of lruvec `lv` (`views::GensView`); None when it does not exist.
    pub fn lru_gen_view(&self, lv: usize) -> Option<crate::views::GensView> {
        crate::views::GensView::of(&self.mm, lv)
    }
    /// Per frame: the address space it holds (u32::MAX when free).
    pub fn frame_spaces(&self) -> &[u32] {
        crate::views::lru::frame_spaces(&self.mm)
    }
    /// Names of the address spaces (`views::lru::space_names`).
    pub fn space_names(&self) -> Vec<String> {
        crate::views::lru::space_names(&self.mm)
    }
    /// Per address space: (name, resident pages, swapped pages) (`views::lru::space_usage`).
    pub fn space_usage(&self) -> Vec<(String, u64, u64)> {
        crate::views::lru::space_usage(&self.mm)
    }
    /// Dirty and writeback file pages, and the background and dirty thresholds (pages).
    pub fn dirty_state(&self) -> (u64, u64, u64, u64) {
        let (bg, th) = self.mm.dirty_thresholds();
        let s = self.mm.scale;
        (
            self.mm.wb.nr_dirty * s,
            self.mm.wb.nr_writeback * s,
            bg * s,
            th * s,
        )
    }
    /// Per device: name and its IO statistics (requests, pages, busy time).
    pub fn device_stats(&self) -> Vec<(String, crate::devices::DeviceStats)> {
        self.mm
            .devices
            .iter()
            .map(|d| (d.name.clone(), d.stats.clone()))
            .collect()
    }

    /// Names of the memcgs by id ("/" is the root), for the memcg views.
    pub fn memcg_names(&self) -> Vec<String> {
        self.mm.memcgs.list.iter().map(|m| m.name.clone()).collect()
    }
    /// Pages asked of memory.reclaim so far, summed over the memcgs written to. A write counts
    /// once it is over (`memory_reclaim` accounts it then), as `RunReport::reclaim_requested_pages`.
    pub fn reclaim_requested_pages(&self) -> u64 {
        crate::views::reclaim_requested_pages(&self.mm)
    }
    /// A per-memcg frame count summed over all memcgs, in pages.
    fn memcg_total_pages(&self, field: impl Fn(&crate::mm::memcg::Memcg) -> u64) -> u64 {
        self.mm.memcgs.list.iter().map(field).sum::<u64>() * self.mm.scale
    }
    /// The memcg LRU view (`views::MemcgLruView`).
    pub fn memcg_lru_view(&self) -> crate::views::MemcgLruView {
        crate::views::MemcgLruView::of(&self.mm)
    }
    /// Whether the multi-gen LRU runs in this variant.
    pub fn lru_gen(&self) -> bool {
        self.mm.flags.lru_gen
    }
    /// Switch the multi-gen LRU on or off now, like writing /sys/kernel/mm/lru_gen/enabled.
    pub fn set_lru_gen(&mut self, enabled: bool) {
        self.mm.lru_gen_change_state(enabled);
    }
    /// The swappiness the kernel is running with.
    /// The running kernel's behaviour flags (its preset's, with the scenario's overrides).
    pub fn flags(&self) -> crate::variant::Flags {
        self.mm.flags
    }
    pub fn swappiness(&self) -> u32 {
        self.mm.swappiness
    }
    /// How often get_scan_count chose SCAN_EQUAL, SCAN_FRACT, SCAN_FILE, SCAN_ANON.
    pub fn balance_histogram(&self) -> [u64; 4] {
        self.mm.trace.balance_hist
    }
    /// The balance view (`views::BalanceView`).
    pub fn balance_view(&self) -> crate::views::BalanceView {
        crate::views::BalanceView::of(&self.mm)
    }
    /// The refault-distance view (`views::RefaultView`).
    pub fn refault_view(&self) -> crate::views::RefaultView {
        crate::views::RefaultView::of(&self.mm)
    }
    /// anon_cost and file_cost of the root lruvec.
    pub fn costs(&self) -> (u64, u64) {
        (self.mm.lruvecs[0].anon_cost, self.mm.lruvecs[0].file_cost)
    }
    pub fn watermarks(&self) -> (u64, u64, u64) {
        let w = self.mm.wmark;
        (
            w.min * self.mm.scale,
            w.low * self.mm.scale,
            w.high * self.mm.scale,
        )
    }

    /// A metric of the run now (`scenario::expect`), for a lesson step's facts: counters over
    /// the whole run so far, task and run figures of the report so far, and the live `list.*`
    /// and `balance.*` figures. None when a term has no value.
    pub fn live_metric(&self, metric: &str) -> Option<f64> {
        use crate::scenario::expect::{terms, Term, LIVE_BALANCES, LIVE_LISTS};
        let report = self.report();
        let view = crate::views::BalanceView::of(&self.mm);
        let sizes = crate::views::lru::ListSizes::of(&self.mm);
        let mut total = 0.0;
        for t in terms(metric).ok()? {
            total += match t {
                Term::Counter(c) => *report.counters.get(c).unwrap_or(&0) as f64,
                Term::Task(task, field) => crate::report::task_metric(&report, task, field)?,
                Term::Run(name) => crate::report::run_metric(&report, name)?,
                Term::Live(l) => {
                    if let Some(name) = l.strip_prefix("replay.") {
                        self.replay_figure(name)?
                    } else if let Some(list) = l.strip_prefix("list.") {
                        LIVE_LISTS.contains(&list).then_some(())?;
                        sizes.by_name(list)? as f64
                    } else if let Some(branch) = l.strip_prefix("balance.last.") {
                        let last = view.last.map(|d| serde_json::to_value(d.balance).ok());
                        let name = last.flatten().and_then(|v| v.as_str().map(str::to_string));
                        (name.as_deref() == Some(branch)) as u8 as f64
                    } else if let Some(reason) = l.strip_prefix("balance.reason.") {
                        let last = view.last.map(|d| serde_json::to_value(d.reason).ok());
                        let name = last.flatten().and_then(|v| v.as_str().map(str::to_string));
                        (name.as_deref() == Some(reason)) as u8 as f64
                    } else {
                        let b = l.strip_prefix("balance.")?;
                        let i = LIVE_BALANCES.iter().position(|x| *x == b)?;
                        view.decisions[i] as f64
                    }
                }
            };
        }
        Some(total)
    }

    /// When the measured window (`run.measure_from`) starts: 0 without one, None until its
    /// mark is reached.
    pub(crate) fn measure_t0(&self) -> Option<u64> {
        match &self.measure_from {
            None => Some(0),
            Some(m) => self.marks.get(m).map(|(t0, _)| *t0),
        }
    }

    /// The run's report (valid at any time; final after `run_to_end`).
    pub fn report(&self) -> RunReport {
        let scale = self.mm.scale;
        let flags = self.mm.flags;
        let counters = to_map(&self.mm.counters, scale, &flags);
        let (measured, measure_t0) =
            match self.measure_from.as_ref().and_then(|m| self.marks.get(m)) {
                Some((t0, base)) => {
                    let mut d = Counters::default();
                    for i in 0..NR_COUNTERS {
                        d.0[i] = self.mm.counters.0[i] - base.0[i];
                    }
                    for i in 0..RFC2016_COUNTER_NAMES.len() {
                        d.1[i] = self.mm.counters.1[i] - base.1[i];
                    }
                    for i in 0..PROACTIVE_COUNTER_NAMES.len() {
                        d.2[i] = self.mm.counters.2[i] - base.2[i];
                    }
                    (to_map(&d, scale, &flags), *t0)
                }
                None => (counters.clone(), 0),
            };
        let mut tasks = Vec::new();
        for (si, name) in self.spec_names.iter().enumerate() {
            let clients: Vec<&Task> = self.tasks.iter().filter(|t| t.spec == si).collect();
            let first = clients[0];
            let rounds_s = if first.rounds_ns.is_empty() {
                None
            } else {
                Some(first.rounds_ns.iter().map(|&r| r as f64 / 1e9).collect())
            };
            let mut lat = LatencyStats::default();
            let mut any_ops = false;
            for c in &clients {
                lat.merge(&c.ops_measured);
                any_ops |= c.ops_total > 0;
                for &(end, l) in &c.ops_pending {
                    if end >= measure_t0 {
                        lat.record(l);
                    }
                }
            }
            let nops = lat.count();
            let span = self.now.saturating_sub(measure_t0).max(1);
            let ops_per_s = any_ops.then(|| nops as f64 / (span as f64 / 1e9));
            let latency_ms = any_ops.then(|| lat.percentiles());
            let merged = |f: fn(&Task) -> &LatencyStats| {
                let mut s = LatencyStats::default();
                clients.iter().for_each(|c| s.merge(f(c)));
                (!s.is_empty()).then(|| s.percentiles())
            };
            let alloc_stall_ms = merged(|c| &c.alloc_stalls_ns);
            let io_wait_ms = merged(|c| &c.io_waits_ns);
            let dirty_throttle_ms = merged(|c| &c.throttle_waits_ns);
            tasks.push(TaskReport {
                name: name.clone(),
                rounds_s,
                ops_per_s,
                latency_ms,
                alloc_stall_ms,
                io_wait_ms,
                dirty_throttle_ms,
                major_faults: clients.iter().map(|c| c.major_faults).sum::<u64>() * scale,
                killed: clients.iter().any(|c| c.state == TaskState::Killed),
            });
        }
        let requested = self.mm.memcgs.list.iter().any(|m| m.reclaim_requested > 0);
        RunReport {
            scenario: self.scenario_title.clone(),
            variant: self.variant.clone(),
            preset: self.preset.clone(),
            swappiness: self.mm.swappiness,
            virtual_s: self.now as f64 / 1e9,
            counters,
            measured,
            tasks,
            oom_kills: self.oom_kills.clone(),
            memcgs: self.memcg_reports(),
            reclaim_requested_pages: requested.then(|| self.reclaim_requested_pages()),
            reclaim_reclaimed_pages: requested
                .then(|| self.memcg_total_pages(|m| m.reclaim_reclaimed)),
        }
    }

    /// memory.stat and memory.events of every memcg, in pages (empty without memcgs).
    fn memcg_reports(&self) -> Vec<crate::report::MemcgReport> {
        let mc = &self.mm.memcgs;
        if mc.only_root() {
            return Vec::new();
        }
        let scale = self.mm.scale;
        (0..mc.len() as u16)
            .map(|id| {
                let m = &mc.list[id as usize];
                let stat = mc.stat_hier(id);
                let mut map: BTreeMap<String, u64> = crate::mm::memcg::MEMCG_STAT_ITEMS
                    .iter()
                    .map(|&c| (COUNTER_NAMES[c as usize].to_string(), stat.get(c) * scale))
                    .collect();
                let get = |c: crate::mm::vmstat::C| stat.get(c) * scale;
                use crate::mm::vmstat::C;
                // 6.15+: memory.stat's pgscan / pgsteal include the proactive items.
                use crate::mm::vmstat::Proactive as P;
                let (scan_p, steal_p) = if self.mm.flags.proactive_counters {
                    let (a, b) = (
                        stat.get_proactive(P::pgscan_proactive) * scale,
                        stat.get_proactive(P::pgsteal_proactive) * scale,
                    );
                    map.insert("pgscan_proactive".into(), a);
                    map.insert("pgsteal_proactive".into(), b);
                    (a, b)
                } else {
                    (0, 0)
                };
                map.insert(
                    "pgscan".into(),
                    get(C::pgscan_kswapd) + get(C::pgscan_direct) + scan_p,
                );
                map.insert(
                    "pgsteal".into(),
                    get(C::pgsteal_kswapd) + get(C::pgsteal_direct) + steal_p,
                );
                let events = crate::mm::memcg::MEMCG_EVENT_NAMES
                    .iter()
                    .zip(mc.events_hier(id))
                    .map(|(n, v)| (n.to_string(), v))
                    .collect();
                crate::report::MemcgReport {
                    name: m.name.clone(),
                    parent: m.parent.map(|p| mc.list[p as usize].name.clone()),
                    current_pages: m.usage * scale,
                    events,
                    stat: map,
                }
            })
            .collect()
    }
}

/// Counters by name, in pages; the 2016 series' and the proactive items only for a kernel
/// that has them.
fn to_map(c: &Counters, scale: u64, flags: &crate::variant::Flags) -> BTreeMap<String, u64> {
    let mut m: BTreeMap<String, u64> = COUNTER_NAMES
        .iter()
        .zip(c.0.iter())
        .map(|(n, v)| (n.to_string(), v * scale))
        .collect();
    if flags.rfc2016_refault_cost {
        for (n, v) in RFC2016_COUNTER_NAMES.iter().zip(c.1.iter()) {
            m.insert(n.to_string(), v * scale);
        }
    }
    if flags.proactive_counters {
        for (n, v) in PROACTIVE_COUNTER_NAMES.iter().zip(c.2.iter()) {
            m.insert(n.to_string(), v * scale);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Zipf touch's draw made ahead (`DrawAhead`) is taken only by its op and from its
    /// generator state: a stale one leaves the run as it was; a matching one is taken and
    /// changes the run, so the first two checks would see a stale one taken.
    #[test]
    fn a_draw_made_ahead_is_taken_only_by_its_op_from_its_generator_state() {
        let text = r#"
title = "draw ahead"
seed = 3
[machine]
ram = "64MiB"
[[devices]]
name = "d"
kind = "nvme"
[[files]]
name = "f"
size = "256MiB"
device = "d"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "t"
program = [
  { op = "mmap", name = "m", file = "f", prot = "r", hint = "random" },
  { op = "touch", regions = ["m"], pattern = "zipf", theta = 0.9, count = 20000 },
]
[run]
duration = "1000s"
"#;
        let scn = crate::scenario::parse(text).unwrap();
        // Run until the task is parked in the middle of its touch, change what it drew
        // ahead (`tamper` sees the generator's state, where its next new draw starts: with no
        // write coin a retry draws nothing), run to the end.
        let run = |tamper: &dyn Fn(u64) -> Option<workloads::DrawAhead>| {
            let mut s = Simulation::new(&scn, "v").unwrap();
            while s.tasks[0].progress < 1000 {
                s.step(1_000_000);
            }
            assert!(s.tasks[0].progress < 20000);
            let t = &mut s.tasks[0];
            t.ahead = tamper(t.rng.state());
            s.run_to_end()
        };
        let base = run(&|_| None);
        // Made for the touch (pc 1) or another op, from a state, drawing page 0 and leaving
        // the generator where it was.
        let wrong = |pc, before| {
            Some(workloads::DrawAhead {
                pc,
                before,
                after: before,
                page: 0,
            })
        };
        assert_eq!(run(&|state| wrong(1, state ^ 1)), base);
        assert_eq!(run(&|state| wrong(0, state)), base);
        assert_ne!(run(&|state| wrong(1, state)), base);
    }

    /// 1 GiB of RAM, two 64 MiB files f and g on a disk, and a task that dirties `count` pages
    /// of f (`pattern`: "random" or "seq") with write() and then sleeps; far below the
    /// background threshold, the pages are written back together once they expire (30 s).
    fn dirty_pages(pattern: &str, count: u32) -> Simulation {
        dirty_pages_with(&format!(
            r#"{{ op = "write", file = "f", pattern = "{pattern}", count = {count} }},"#
        ))
    }

    /// The same machine with the write ops given.
    fn dirty_pages_with(writes: &str) -> Simulation {
        let text = format!(
            r#"
title = "flusher"
[machine]
ram = "1GiB"
[[devices]]
name = "d"
kind = "hdd"
[[files]]
name = "f"
size = "64MiB"
device = "d"
[[files]]
name = "g"
size = "64MiB"
device = "d"
[[variants]]
name = "v"
preset = "linux-6.1"
[[tasks]]
name = "t"
program = [
  {writes}
  {{ op = "sleep", duration = "600s" }},
]
[run]
duration = "300s"
"#
        );
        let mut s = Simulation::new(&crate::scenario::parse(&text).unwrap(), "v").unwrap();
        s.check_invariants = true;
        s
    }

    /// Run to the end; the most write requests the disk had in flight at once.
    fn most_write_requests_in_flight(s: &mut Simulation) -> usize {
        let mut most = 0;
        while s.next_event_time().is_some_and(|t| t < s.end_ns) {
            let t = s.next_event_time().unwrap();
            s.run_until(t);
            let now = s.mm.now;
            let in_flight = s.mm.devices[0]
                .write_tags
                .iter()
                .filter(|r| r.0 > now)
                .count();
            most = most.max(in_flight);
        }
        most
    }

    #[test]
    fn the_flusher_goes_on_to_the_next_chunk_without_waiting_for_the_last() {
        // 2,048 contiguous pages: two chunks of 1,024, each 7 requests of up to 168 pages. The
        // second goes out while the first is still on the disk.
        let mut s = dirty_pages("seq", 2048);
        assert_eq!(most_write_requests_in_flight(&mut s), 14);
        assert_eq!(
            s.mm.wb.nr_dirty + s.mm.wb.nr_writeback,
            0,
            "all written back"
        );
    }

    #[test]
    fn pages_waiting_for_a_request_tag_stay_dirty_and_a_rewrite_costs_no_second_write() {
        let pgpgout = |s: &Simulation| s.mm.counters.0[C::pgpgout as usize];
        let mut control = dirty_pages("random", 2000);
        control.run_to_end();
        let mut s = dirty_pages("random", 2000);
        while s.mm.wb.flusher_pending.is_empty() {
            let t = s
                .next_event_time()
                .expect("the flusher sleeps for a tag at some point");
            s.run_until(t);
        }
        let pending = s.mm.wb.flusher_pending.clone();
        assert!(
            pending.len() > 100,
            "{} pages wait for a tag",
            pending.len()
        );
        for &(f, _, _) in &pending {
            assert!(s.mm.frames.has(f, PG_DIRTY) && !s.mm.frames.has(f, PG_WRITEBACK));
            // What a write() to the page does to its state.
            s.mm.mark_file_dirty(f);
        }
        s.run_to_end();
        assert_eq!(pgpgout(&s), pgpgout(&control), "each page written once");
    }

    #[test]
    fn a_long_run_is_cut_into_requests_each_of_which_waits_for_a_tag() {
        // One chunk: scattered pages of f, then a 600-page run of g, which sorts after them.
        // The run's 4 requests each wait for a tag; taken at once they would overfill the
        // queue the scattered ones left at 63.
        let mut s = dirty_pages_with(
            r#"{ op = "write", file = "f", pattern = "random", count = 424 },
  { op = "write", file = "g", pattern = "seq", count = 600 },"#,
        );
        assert_eq!(most_write_requests_in_flight(&mut s), 64);
        assert_eq!(
            s.mm.wb.nr_dirty + s.mm.wb.nr_writeback,
            0,
            "all written back"
        );
    }

    #[test]
    fn the_flusher_sleeps_for_a_request_tag_when_the_disk_queue_is_full() {
        let mut s = dirty_pages("random", 2000);
        let most = most_write_requests_in_flight(&mut s);
        // Expired after 30 s, the 2,000 scattered pages are written as they free tags: the
        // queue fills (64 requests) and never holds more.
        assert_eq!(most, 64);
        assert_eq!(
            s.mm.wb.nr_dirty + s.mm.wb.nr_writeback,
            0,
            "all written back"
        );
        assert!(s.mm.wb.flusher_pending.is_empty());
        let st = &s.mm.devices[0].stats;
        assert!(st.writes > 1500 && st.pages_written > st.writes, "{st:?}");
    }
}

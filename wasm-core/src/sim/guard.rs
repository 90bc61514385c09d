//! Guards of a run against input that would hold the machine running it (issue #49), both
//! independent of the scenario checks: the progress guard ends a run whose virtual time stops
//! advancing, and an optional CPU-time limit ends a run that has used more CPU than its
//! caller allows. Either ends the run with an error (`Simulation::error`) naming the task and
//! the op. The core reads no clock of its own: the shells (CLI, Python, sweeps) pass one.
use std::time::Duration;

use super::events::Event;
use super::Simulation;
use crate::mm::mmzone::Wakeup;
use crate::report::RunReport;
use crate::sim::workloads::Instr;

/// The progress guard's N: a run in which virtual time does not advance over this many
/// consecutive events ends with an error. An event here is one the queue dispatches at the
/// instant of the one before, or an iteration of a task's loop that takes no virtual time.
/// The resource budget lets one counted loop of a valid scenario make up to
/// `MAX_FREE_ACCESSES` (2^24) iterations at one instant, so N is four times that (~1 s of CPU
/// natively before the guard ends a stalled run: 80 M empty iterations took 1.6 s). The
/// longest such run of any shipped scenario (`Simulation::longest_stall`, tests/golden.rs) is
/// 1,032 events.
pub const MAX_STALLED_EVENTS: u64 = 1 << 26;

/// Events or loop iterations between two readings of the CPU clock (a reading costs ~50 ns).
const CPU_CHECK_EVERY: u32 = 4096;

/// Accesses of one op between two readings of the CPU clock (a mask on the op's progress).
pub(crate) const CPU_CHECK_ACCESSES: u64 = (1 << 16) - 1;

/// A limit on the CPU time one run may use, read from the caller's clock (the CPU time of the
/// thread that runs the simulation, for instance).
#[derive(Clone, Copy, Debug)]
pub struct CpuLimit {
    pub max: Duration,
    pub clock: fn() -> Duration,
}

/// Why a run ended early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The progress guard: virtual time stopped advancing.
    Stalled(String),
    /// The caller's CPU-time limit was reached.
    CpuLimit(String),
    /// A replayed trace could not be read on (its source changed after the build read it).
    Trace(String),
}

impl RunError {
    pub fn message(&self) -> &str {
        match self {
            RunError::Stalled(m) | RunError::CpuLimit(m) | RunError::Trace(m) => m,
        }
    }
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// The guards' state.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    /// The instant of the last event dispatched.
    at: u64,
    /// Events since virtual time last advanced.
    stalled: u64,
    /// The longest such run so far, before the current one.
    longest: u64,
    limit: u64,
    cpu: Option<(CpuLimit, Duration)>,
    countdown: u32,
    pub(crate) error: Option<RunError>,
}

impl Default for Guard {
    fn default() -> Self {
        Guard {
            // No event yet: the first is at a new instant.
            at: u64::MAX,
            stalled: 0,
            longest: 0,
            limit: MAX_STALLED_EVENTS,
            cpu: None,
            countdown: CPU_CHECK_EVERY,
            error: None,
        }
    }
}

impl Simulation {
    /// Why the run ended early (the progress guard or the CPU limit), if it did.
    pub fn error(&self) -> Option<&str> {
        self.guard.error.as_ref().map(RunError::message)
    }

    /// Run to the end and report, or say why the run ended early.
    pub fn try_run_to_end(&mut self) -> Result<RunReport, RunError> {
        let report = self.run_to_end();
        match &self.guard.error {
            Some(e) => Err(e.clone()),
            None => Ok(report),
        }
    }

    /// End the run with an error once it has used `limit.max` of `limit.clock`'s time,
    /// counted from now.
    pub fn set_cpu_limit(&mut self, limit: CpuLimit) {
        self.guard.cpu = Some((limit, (limit.clock)()));
    }

    /// The progress guard's N ([`MAX_STALLED_EVENTS`]); tests lower it.
    pub fn set_stall_limit(&mut self, events: u64) {
        self.guard.limit = events.max(1);
    }

    /// The most consecutive events so far at which virtual time did not advance.
    pub fn longest_stall(&self) -> u64 {
        self.guard.longest.max(self.guard.stalled)
    }

    /// Before event `ev` at `t` is dispatched: count it, and say whether the run may go on.
    #[inline]
    pub(crate) fn guard_event(&mut self, t: u64, ev: Event) -> bool {
        if t != self.guard.at {
            self.guard.at = t;
            self.guard.longest = self.guard.longest.max(self.guard.stalled);
            self.guard.stalled = 0;
        } else {
            self.guard.stalled += 1;
            if self.guard.stalled >= self.guard.limit {
                let who = match ev {
                    Event::Task(i) => self.task_op(i as usize),
                    Event::Kernel(Wakeup::Kswapd) => "kswapd".into(),
                    Event::Kernel(Wakeup::Flusher) => "the flusher".into(),
                    Event::Kernel(Wakeup::Io(_)) => "an IO completion".into(),
                    Event::Sample => "the sampler".into(),
                };
                self.stall(who);
                return false;
            }
        }
        self.cpu_tick(|s| match ev {
            Event::Task(i) => s.task_op(i as usize),
            _ => "the kernel".into(),
        })
    }

    /// After an iteration of task `ti`'s loop: count it if it took no virtual time, and say
    /// whether the run may go on.
    #[inline]
    pub(crate) fn guard_iteration(&mut self, ti: usize, took: u64) -> bool {
        if took > 0 {
            self.guard.longest = self.guard.longest.max(self.guard.stalled);
            self.guard.stalled = 0;
        } else {
            self.guard.stalled += 1;
            if self.guard.stalled >= self.guard.limit {
                let who = self.task_op(ti);
                self.stall(who);
                return false;
            }
        }
        self.cpu_tick(|s| s.task_op(ti))
    }

    /// Every [`CPU_CHECK_ACCESSES`] + 1 accesses of task `ti`'s op: whether the run may go on.
    #[cold]
    pub(crate) fn guard_accesses(&mut self, ti: usize) -> bool {
        self.guard.countdown = 1;
        self.cpu_tick(|s| s.task_op(ti))
    }

    #[inline]
    fn cpu_tick(&mut self, who: impl FnOnce(&Simulation) -> String) -> bool {
        self.guard.countdown -= 1;
        if self.guard.countdown > 0 {
            return true;
        }
        self.guard.countdown = CPU_CHECK_EVERY;
        let Some((limit, start)) = self.guard.cpu else {
            return true;
        };
        if (limit.clock)().saturating_sub(start) <= limit.max {
            return true;
        }
        let who = who(self);
        self.guard.error = Some(RunError::CpuLimit(format!(
            "the run reached its CPU time limit of {} s at virtual time {} s, in {who}",
            limit.max.as_secs_f64(),
            self.now as f64 / 1e9,
        )));
        false
    }

    fn stall(&mut self, who: String) {
        self.guard.error = Some(RunError::Stalled(format!(
            "virtual time stopped advancing at {} s: {} consecutive events at one instant \
             (MAX_STALLED_EVENTS, see docs/scenarios.md, resource budget), in {who}",
            self.now as f64 / 1e9,
            self.guard.stalled,
        )));
    }

    /// End the run: task `ti`'s replayed trace failed to read (`message` names the record).
    pub(crate) fn trace_failed(&mut self, ti: usize, message: String) {
        let who = self.task_op(ti);
        self.guard.error = Some(RunError::Trace(format!("{message}, in {who}")));
    }

    /// "task NAME, op PATH (KIND)" for task `ti` where it stands.
    fn task_op(&self, ti: usize) -> String {
        let t = &self.tasks[ti];
        let path = self
            .op_paths
            .get(t.spec)
            .and_then(|p| p.get(t.pc))
            .map_or("(its end)", String::as_str);
        let kind = match t.prog.get(t.pc) {
            Some(Instr::LoopStart { .. } | Instr::LoopEnd { .. }) => "loop",
            Some(Instr::Touch(_)) => "touch",
            Some(Instr::Read(_)) => "read",
            Some(Instr::Write(_)) => "write",
            Some(Instr::Replay { .. }) => "replay",
            Some(Instr::Sleep { .. }) => "sleep",
            Some(_) => "op",
            None => "exit",
        };
        format!("task {:?}, op {path} ({kind})", t.name)
    }
}

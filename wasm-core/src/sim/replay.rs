//! A task replaying an access trace (the `replay` op, issue #47): the trace is read one request
//! ahead, each request paced and mapped onto its object's page, and the page accessed by the
//! interpreter's read or touch path (`interp.rs`), so the kernel rules of the access are mm's.
//! Whether the page was in the page cache when the request came is its hit or miss.
use std::rc::Rc;
use std::sync::Arc;

use super::Simulation;
use crate::mm::memory::VmFault;
use crate::scenario::ops::Pace;
use crate::scenario::trace::{IdMap, Request, TraceFormat, TraceReader, TraceSource};

/// A compiled replay: the trace and how its requests become accesses.
#[derive(Clone)]
pub struct ReplaySpec {
    pub name: String,
    pub source: Arc<dyn TraceSource>,
    pub format: TraceFormat,
    /// Object id -> page of the file or region (in order of first appearance; made by the
    /// build's scan, which also checked every record).
    pub pages: Rc<IdMap<u32>>,
    /// Through a mapping (touches) rather than read()s.
    pub touch: bool,
    pub pace: Pace,
    pub speed: f64,
    pub unit_ns: u64,
    /// Plain LRU and OPT run beside it (the op's `reference`).
    pub reference: Option<Rc<ReferenceSpec>>,
}

/// The reference policies of a replay: how many objects they hold, and each request's next
/// request where the trace does not carry it (CSV).
#[derive(Debug)]
pub struct ReferenceSpec {
    pub pages: u64,
    pub next: Option<Rc<Vec<u64>>>,
}

/// Plain LRU and Belady's OPT (`crate::reference`, as the curve's columns) fed the requests the
/// task replayed so far: what they would have missed of the same requests at the same size,
/// and what the kernel missed of them (the side the differences compare).
#[derive(Debug, Clone)]
pub struct References {
    lru: crate::reference::LruCache,
    opt: crate::reference::OptCache,
    pub requests: u64,
    pub misses: u64,
    pub lru_misses: u64,
    pub opt_misses: u64,
}

/// The replays' figures summed over the tasks: every replay's requests and misses, and over
/// the replays with `reference` only, the same requests' kernel, LRU and OPT misses.
#[derive(Debug, Clone, Copy, Default)]
struct Figures {
    requests: u64,
    misses: u64,
    reference: Option<ReferenceFigures>,
}

/// The replays with `reference`: the kernel's, LRU's and OPT's misses of their requests.
#[derive(Debug, Clone, Copy, Default)]
struct ReferenceFigures {
    misses: u64,
    lru_misses: u64,
    opt_misses: u64,
}

impl std::fmt::Debug for ReplaySpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplaySpec")
            .field("name", &self.name)
            .field("objects", &self.pages.len())
            .finish()
    }
}

/// Where a task's replay stands.
#[derive(Clone)]
pub struct ReplayCursor {
    /// The instruction it belongs to.
    pub pc: usize,
    pub reader: TraceReader,
    /// The next request, read ahead for its time.
    pub next: Option<Request>,
    /// The request being accessed writes.
    pub write: bool,
    /// The first request's timestamp.
    pub t0: Option<u64>,
}

/// What a task's replays did: requests, the misses among them (the page was not in the page
/// cache when the request came), and the writes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ReplayStats {
    pub requests: u64,
    pub misses: u64,
    pub writes: u64,
}

/// What the next access of a replay is.
pub(crate) enum Next {
    /// The trace is done.
    End,
    /// A request is ready, not before this time.
    At(u64),
}

impl Simulation {
    /// Read task `ti`'s next request ahead (unless one is waiting already); its earliest time.
    pub(crate) fn replay_peek(&mut self, ti: usize, r: &ReplaySpec) -> Result<Next, String> {
        let t = &mut self.tasks[ti];
        let pc = t.pc;
        let cur = match &mut t.replay {
            Some(c) if c.pc == pc => c,
            slot => {
                let reader = TraceReader::new(&r.name, r.source.clone(), r.format)?;
                slot.insert(Box::new(ReplayCursor {
                    pc,
                    reader,
                    next: None,
                    write: false,
                    t0: None,
                }))
            }
        };
        if cur.next.is_none() {
            match cur.reader.next_request()? {
                Some(q) => cur.next = Some(q),
                None => {
                    // Done: the next run of the op (a loop) starts the trace again.
                    t.replay = None;
                    return Ok(Next::End);
                }
            }
        }
        let q = cur.next.expect("read ahead");
        let t0 = *cur.t0.get_or_insert(q.time);
        Ok(Next::At(match r.pace {
            Pace::Asap => 0,
            Pace::Recorded => {
                let dt = q.time.saturating_sub(t0) as f64 * r.unit_ns as f64 / r.speed;
                t.op_start.saturating_add(dt as u64)
            }
        }))
    }

    /// Take task `ti`'s request read ahead: its page in the op's range, counted as a hit or a
    /// miss by the page cache as it is now. `region`: the mapping a touch replay goes through.
    pub(crate) fn replay_take(
        &mut self,
        ti: usize,
        r: &ReplaySpec,
        space: u32,
        offset: u64,
        region: Option<crate::mm::mm_types::Vma>,
    ) -> u64 {
        let t = &mut self.tasks[ti];
        let cur = t.replay.as_mut().expect("a request read ahead");
        let q = cur.next.take().expect("a request read ahead");
        cur.write = q.write;
        // Every id is in the map: the build's scan read the same bytes.
        let page = u64::from(r.pages.get(&q.id).copied().unwrap_or(0));
        let (sp, idx) = match region {
            Some(vma) => {
                let vmf = VmFault::of(&vma, page);
                (vmf.space, vmf.pgoff)
            }
            None => (space, offset + page),
        };
        let hit = self.mm.filemap_cached(sp, idx);
        if let Some(rs) = &r.reference {
            let objects = r.pages.len();
            let refs = self.tasks[ti].references.get_or_insert_with(|| {
                Box::new(References {
                    lru: crate::reference::LruCache::new(objects, rs.pages),
                    opt: crate::reference::OptCache::new(objects, rs.pages),
                    requests: 0,
                    misses: 0,
                    lru_misses: 0,
                    opt_misses: 0,
                })
            });
            let o = page as u32;
            let next = match &rs.next {
                Some(n) => n[refs.requests as usize],
                None => q.next.unwrap_or(u64::MAX),
            };
            refs.requests += 1;
            refs.misses += u64::from(!hit);
            refs.lru_misses += u64::from(!refs.lru.access(o));
            refs.opt_misses += u64::from(!refs.opt.access(o, next));
        }
        let s = &mut self.tasks[ti].replay_stats;
        s.requests += 1;
        s.misses += u64::from(!hit);
        s.writes += u64::from(q.write);
        page
    }

    /// Whether task `ti`'s current replayed request writes.
    pub(crate) fn replay_writes(&self, ti: usize) -> bool {
        self.tasks[ti].replay.as_ref().is_some_and(|c| c.write)
    }

    /// The replays' figures so far (one pass over the tasks); the reference's are None while
    /// no replay with `reference` has made a request.
    fn figures(&self) -> Figures {
        let mut f = Figures::default();
        for t in &self.tasks {
            f.requests += t.replay_stats.requests;
            f.misses += t.replay_stats.misses;
            if let Some(r) = t.references.as_deref() {
                let o = f.reference.get_or_insert_with(Default::default);
                o.misses += r.misses;
                o.lru_misses += r.lru_misses;
                o.opt_misses += r.opt_misses;
            }
        }
        f
    }

    /// A replay figure of a lesson fact (`replay.NAME`, scenario/expect.rs `LIVE_REPLAY`); None
    /// for the reference policies' figures while there are none. The differences set the
    /// reference against the kernel's misses of the same requests: those of the replays with
    /// `reference`, not every replay's.
    pub(crate) fn replay_figure(&self, name: &str) -> Option<f64> {
        let f = self.figures();
        let refs = f.reference;
        let signed = |a: u64, b: u64| a as f64 - b as f64;
        Some(match name {
            "requests" => f.requests as f64,
            "misses" => f.misses as f64,
            "lru_misses" => refs?.lru_misses as f64,
            "opt_misses" => refs?.opt_misses as f64,
            "lru_minus_misses" => signed(refs?.lru_misses, refs?.misses),
            "misses_minus_opt" => signed(refs?.misses, refs?.opt_misses),
            _ => return None,
        })
    }

    /// The replays' figures for the page's frame (None: the run replays no trace).
    pub(crate) fn replay_view(&self) -> Option<crate::views::info::ReplayView> {
        if !self.replays {
            return None;
        }
        let f = self.figures();
        Some(crate::views::info::ReplayView {
            requests: f.requests,
            misses: f.misses,
            lru_misses: f.reference.map(|r| r.lru_misses),
            opt_misses: f.reference.map(|r| r.opt_misses),
        })
    }

    /// Task `name`'s replay counts (clients summed; zero when it replayed nothing).
    pub fn replay_stats_of(&self, name: &str) -> ReplayStats {
        self.replay_stats()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
            .unwrap_or_default()
    }

    /// Each task spec's replay counts, by task name (clients summed), for the specs that
    /// replayed a trace.
    pub fn replay_stats(&self) -> Vec<(String, ReplayStats)> {
        let mut out: Vec<(String, ReplayStats)> = Vec::new();
        for t in &self.tasks {
            if t.replay_stats == ReplayStats::default() {
                continue;
            }
            let name = &self.spec_names[t.spec];
            let s = match out.iter_mut().find(|(n, _)| n == name) {
                Some((_, s)) => s,
                None => {
                    out.push((name.clone(), ReplayStats::default()));
                    &mut out.last_mut().unwrap().1
                }
            };
            s.requests += t.replay_stats.requests;
            s.misses += t.replay_stats.misses;
            s.writes += t.replay_stats.writes;
        }
        out
    }
}

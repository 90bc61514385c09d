//! The event queue of virtual time: events fire in time order, and events of the same time in
//! the order they were queued.
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::mm::mmzone::Wakeup;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// A task continues its program.
    Task(u32),
    /// A wakeup the kernel model asked for (IO completion, kswapd, the flushers).
    Kernel(Wakeup),
    /// Take a time-series sample.
    Sample,
}

#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<(u64, u64, Event)>>,
    seq: u64,
}

impl EventQueue {
    pub fn push(&mut self, t: u64, e: Event) {
        self.seq += 1;
        self.heap.push(Reverse((t, self.seq, e)));
    }
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse((t, _, _))| *t)
    }
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.heap.pop().map(|Reverse((t, _, e))| (t, e))
    }
}

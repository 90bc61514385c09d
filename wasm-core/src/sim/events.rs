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

/// A queued event. The heap orders by time, then queue order (`seq`), both in one 128-bit key
/// (time above, seq below), so that a sift compares two integers without a branch between them;
/// the event itself never takes part in the order.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u128,
    e: Event,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    #[inline]
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.key.cmp(&o.key)
    }
}

#[derive(Clone, Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
}

impl EventQueue {
    #[inline]
    pub fn push(&mut self, t: u64, e: Event) {
        self.seq += 1;
        self.heap.push(Reverse(Entry {
            key: (t as u128) << 64 | self.seq as u128,
            e,
        }));
    }
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|Reverse(x)| (x.key >> 64) as u64)
    }
    /// The earliest event, left queued.
    #[inline]
    pub fn peek(&self) -> Option<Event> {
        self.heap.peek().map(|Reverse(x)| x.e)
    }
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        self.heap
            .pop()
            .map(|Reverse(x)| ((x.key >> 64) as u64, x.e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Time order first, queue order among equal times, across the whole range of times.
    #[test]
    fn pops_in_time_then_queue_order() {
        let mut q = EventQueue::default();
        let times = [5, u64::MAX, 0, 5, u64::MAX - 1, 0, 1 << 63, 5];
        for (i, &t) in times.iter().enumerate() {
            q.push(t, Event::Task(i as u32));
        }
        assert_eq!(q.peek_time(), Some(0));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let want: Vec<_> = [2, 5, 0, 3, 7, 6, 4, 1]
            .iter()
            .map(|&i| (times[i], Event::Task(i as u32)))
            .collect();
        assert_eq!(order, want);
        assert_eq!(q.peek_time(), None);
    }
}

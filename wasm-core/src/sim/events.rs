//! The event queue of virtual time: events fire in time order, and events of the same time in
//! the order they were queued.
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

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

/// How many of `run`'s latest events a push may move to the heap to join `run` itself.
const FAR: usize = 2;

/// Two sorted stores whose union is the queue: `run`, a FIFO of events each queued later (in
/// key order) than every event already in it, and a heap for the rest. The earliest event is
/// the earlier of their fronts, so the order is the one the heap alone would give. Most events
/// go to `run` at O(1): a rate-limited task that parks after its access is due after every
/// other task's next access (S003: 128 tasks take turns, one event per access; the heap's
/// sifts were 22% of the run). An event later than all of `run` but its last `FAR` (the
/// sampler's next, a sleeper's wakeup far ahead) moves those to the heap and joins `run`, else
/// one far event would send every later push to the heap.
///
/// The earliest key is kept beside them (`first`), updated on each push and pop: the event loop
/// asks for the next event's time several times an event (the loop's test, the task's limit, the
/// prefetch), and a field read there replaced comparing the two fronts each time.
#[derive(Clone, Debug)]
pub struct EventQueue {
    run: VecDeque<Entry>,
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
    /// The earliest entry's key, or `EMPTY` (no entry has it: its seq would be u64::MAX).
    first: u128,
    /// The earliest entry's event (meaningful when `first` is not `EMPTY`).
    first_e: Event,
}

const EMPTY: u128 = u128::MAX;

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue {
            run: VecDeque::new(),
            heap: BinaryHeap::new(),
            seq: 0,
            first: EMPTY,
            first_e: Event::Sample,
        }
    }
}

impl EventQueue {
    #[inline]
    pub fn push(&mut self, t: u64, e: Event) {
        self.seq += 1;
        let x = Entry {
            key: (t as u128) << 64 | self.seq as u128,
            e,
        };
        // Later than all but the last `FAR` of `run`: those (a sample or a sleep far ahead)
        // move to the heap, so that they do not send every event after them there.
        let n = self.run.len();
        let fits = |k: usize| n <= k || self.run[n - 1 - k].key < x.key;
        if let Some(k) = (0..=FAR).find(|&k| fits(k)) {
            for _ in 0..k {
                let far = self.run.pop_back().expect("k < n");
                self.heap.push(Reverse(far));
            }
            self.run.push_back(x);
        } else {
            self.heap.push(Reverse(x));
        }
        if x.key < self.first {
            self.first = x.key;
            self.first_e = x.e;
        }
    }

    /// The earliest entry, and whether it is `run`'s front (else the heap's top).
    #[inline]
    fn front(&self) -> Option<(&Entry, bool)> {
        match (self.run.front(), self.heap.peek()) {
            (Some(a), Some(Reverse(b))) if b.key < a.key => Some((b, false)),
            (Some(a), _) => Some((a, true)),
            (None, Some(Reverse(b))) => Some((b, false)),
            (None, None) => None,
        }
    }

    #[inline]
    pub fn peek_time(&self) -> Option<u64> {
        (self.first != EMPTY).then_some((self.first >> 64) as u64)
    }
    /// The earliest event, left queued.
    #[inline]
    pub fn peek(&self) -> Option<Event> {
        (self.first != EMPTY).then_some(self.first_e)
    }
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, Event)> {
        if self.first == EMPTY {
            return None;
        }
        let x = if self.run.front().is_some_and(|a| a.key == self.first) {
            self.run.pop_front()
        } else {
            self.heap.pop().map(|Reverse(x)| x)
        }?;
        debug_assert_eq!(x.key, self.first);
        (self.first, self.first_e) = self
            .front()
            .map_or((EMPTY, Event::Sample), |(y, _)| (y.key, y.e));
        Some(((x.key >> 64) as u64, x.e))
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

    /// Pushes and pops interleaved, times in order (the FIFO's case), repeated and out of
    /// order (the heap's), and moving between the two: every pop is the earliest of what is
    /// queued, ties in queue order, as a sorted list of (time, queue order) says.
    #[test]
    fn interleaved_pushes_and_pops_come_out_in_time_then_queue_order() {
        let mut q = EventQueue::default();
        let mut want: Vec<(u64, u32)> = Vec::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut now = 0u64;
        for i in 0..20_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly one late event after each pop; sometimes an early, an equal or a burst.
            let t = match x % 8 {
                0 => now,
                1 => now + x % 5,
                2 | 3 => now + 1000 + (x >> 8) % 50,
                _ => now + 1000 + i as u64 % 7,
            };
            q.push(t, Event::Task(i));
            want.push((t, i));
            if x % 3 != 0 {
                let i = (0..want.len()).min_by_key(|&k| want[k]).unwrap();
                let (t, e) = want.remove(i);
                assert_eq!(q.peek_time(), Some(t));
                assert_eq!(q.peek(), Some(Event::Task(e)));
                assert_eq!(q.pop(), Some((t, Event::Task(e))));
                now = t;
            }
        }
        want.sort();
        let rest: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let want: Vec<_> = want.into_iter().map(|(t, e)| (t, Event::Task(e))).collect();
        assert_eq!(rest, want);
    }
}

//! The reference policies a replayed trace is measured against (issue #47): plain LRU and
//! Belady's MIN (OPT) over whole objects, one page each, fed one request at a time, and the
//! next-request indices MIN reads. Below both the simulation (a replay's live `reference`) and
//! the miss-ratio curve (`crate::mrc`'s columns), which therefore count misses by the same code.
//!
//! - plain LRU: a miss inserts at the head and evicts the tail when full;
//! - Belady's MIN: a miss evicts the cached object whose next request is furthest (none at
//!   all: furthest of all) and then inserts, never bypassing the cache: the policy
//!   libCacheSim's `Belady` implements (evict before insert), by the same next-request indices
//!   (oracleGeneral: the file's own, checked by [`check_next`]; CSV: [`next_requests`]).
use std::collections::BTreeSet;

use crate::scenario::trace::{IdMap, TraceReader};

/// Plain LRU holding `size` objects, fed one request at a time: a miss inserts at the head and
/// evicts the tail when full (memory: two links an object). The curve's column and a replay's
/// live reference (`replay.lru_misses`) are both this.
#[derive(Debug, Clone)]
pub struct LruCache {
    size: u64,
    prev: Vec<u32>,
    next: Vec<u32>,
    cached: Vec<bool>,
    head: u32,
    tail: u32,
    len: u64,
}

impl LruCache {
    const NIL: u32 = u32::MAX;

    /// An empty cache of `size` objects over `objects` distinct objects (numbered 0..objects).
    pub fn new(objects: usize, size: u64) -> LruCache {
        LruCache {
            size,
            prev: vec![Self::NIL; objects],
            next: vec![Self::NIL; objects],
            cached: vec![false; objects],
            head: Self::NIL,
            tail: Self::NIL,
            len: 0,
        }
    }

    /// Request object `o`; whether it hit.
    pub fn access(&mut self, o: u32) -> bool {
        const NIL: u32 = LruCache::NIL;
        let oi = o as usize;
        let hit = self.cached[oi];
        if hit {
            if self.head == o {
                return true;
            }
            // Unlink, then to the head.
            let (p, nx) = (self.prev[oi], self.next[oi]);
            self.next[p as usize] = nx;
            if nx == NIL {
                self.tail = p;
            } else {
                self.prev[nx as usize] = p;
            }
        } else {
            if self.len == self.size {
                let victim = self.tail;
                self.tail = self.prev[victim as usize];
                if self.tail == NIL {
                    self.head = NIL;
                } else {
                    self.next[self.tail as usize] = NIL;
                }
                self.cached[victim as usize] = false;
                self.len -= 1;
            }
            self.cached[oi] = true;
            self.len += 1;
        }
        self.prev[oi] = NIL;
        self.next[oi] = self.head;
        if self.head != NIL {
            self.prev[self.head as usize] = o;
        }
        self.head = o;
        if self.tail == NIL {
            self.tail = o;
        }
        hit
    }
}

/// Check an oracleGeneral trace's next-access fields against its ids (OPT uses the fields, as
/// libCacheSim does): each must name the index of the object's next request, counted from 0
/// or from 1 (libCacheSim's own traces) throughout, or -1 when there is none. Streaming; memory:
/// one claim an object.
pub fn check_next(reader: &mut TraceReader, pages: &IdMap<u32>) -> Result<(), String> {
    const NONE: u64 = u64::MAX;
    // Per object: (the claim of its last request, that request's record number).
    let mut claim = vec![(NONE, 0u64); pages.len()];
    let mut base: Option<u64> = None;
    let mut i = 0u64;
    reader.rewind();
    let wrong = |record: u64, said: u64, at: Option<u64>| {
        let comes = at.map_or("never comes".to_string(), |a| format!("is request {a}"));
        format!(
            "record {record}: its next-access field says {said}, but the object's next \
             request {comes} (counted from 0): OPT reads the field, as libCacheSim does; \
             fix the trace, or give it as CSV, whose next requests are computed"
        )
    };
    while let Some(q) = reader.next_request()? {
        let o = *pages
            .get(&q.id)
            .ok_or("the trace changed since it was scanned")? as usize;
        let (said, record) = claim[o];
        if said != NONE || record > 0 {
            if said == NONE {
                return Err(wrong(record, u64::MAX, Some(i))
                    .replace(&format!("says {}", u64::MAX), "says -1 (none)"));
            }
            let b = *base.get_or_insert(said.wrapping_sub(i));
            if said.wrapping_sub(i) != b || b > 1 {
                return Err(wrong(record, said, Some(i)));
            }
        }
        claim[o] = (q.next.unwrap_or(NONE), reader.records());
        i += 1;
    }
    if let Some((said, record)) = claim.iter().find(|c| c.0 != NONE) {
        return Err(wrong(*record, *said, None));
    }
    Ok(())
}

/// Each request's next request index (u64::MAX: none), computed from the ids, for traces that
/// do not carry it (8 bytes a request, plus 4 while it is made).
pub fn next_requests(reader: &mut TraceReader, pages: &IdMap<u32>) -> Result<Vec<u64>, String> {
    let mut objs = Vec::new();
    reader.rewind();
    while let Some(q) = reader.next_request()? {
        objs.push(
            *pages
                .get(&q.id)
                .ok_or("the trace changed since it was scanned")?,
        );
    }
    let mut later = vec![u64::MAX; pages.len()];
    let mut next = vec![0u64; objs.len()];
    for i in (0..objs.len()).rev() {
        let o = objs[i] as usize;
        next[i] = later[o];
        later[o] = i as u64;
    }
    Ok(next)
}

/// Belady's MIN holding `size` objects, fed one request at a time with the index of the
/// object's next request (u64::MAX: none): a miss evicts the cached object whose next request
/// is furthest, then inserts (memory: the cached objects, and one index an object).
#[derive(Debug, Clone)]
pub struct OptCache {
    size: u64,
    when: Vec<u64>,
    cached: Vec<bool>,
    /// (next request, object): the last is evicted.
    queue: BTreeSet<(u64, u32)>,
}

impl OptCache {
    pub fn new(objects: usize, size: u64) -> OptCache {
        OptCache {
            size,
            when: vec![u64::MAX; objects],
            cached: vec![false; objects],
            queue: BTreeSet::new(),
        }
    }

    /// Request object `o`, whose next request is `next`; whether it hit.
    pub fn access(&mut self, o: u32, next: u64) -> bool {
        let oi = o as usize;
        let hit = self.cached[oi];
        if hit {
            self.queue.remove(&(self.when[oi], o));
        } else {
            if self.queue.len() as u64 == self.size {
                let (_, victim) = self.queue.pop_last().expect("a full cache");
                self.cached[victim as usize] = false;
            }
            self.cached[oi] = true;
        }
        self.when[oi] = next;
        self.queue.insert((next, o));
        hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::trace::TraceFormat;
    use std::sync::Arc;

    fn oracle(recs: &[(u64, i64)]) -> TraceReader {
        let mut b = Vec::new();
        for &(id, next) in recs {
            b.extend_from_slice(&0u32.to_le_bytes());
            b.extend_from_slice(&id.to_le_bytes());
            b.extend_from_slice(&1u32.to_le_bytes());
            b.extend_from_slice(&next.to_le_bytes());
        }
        TraceReader::new("t", Arc::new(b), TraceFormat::OracleGeneral).unwrap()
    }

    #[test]
    fn next_access_fields_are_checked_against_the_ids() {
        let check = |recs: &[(u64, i64)]| {
            let mut r = oracle(recs);
            let f = crate::scenario::trace::scan(&mut r, u32::MAX as u64).unwrap();
            check_next(&mut r, &f.pages)
        };
        // Counted from 0, and from 1 as libCacheSim writes them.
        check(&[(7, 2), (8, -1), (7, -1)]).unwrap();
        check(&[(7, 3), (8, -1), (7, -1)]).unwrap();
        let e = check(&[(7, -1), (8, -1), (7, -1)]).unwrap_err();
        assert!(e.contains("record 1: its next-access field says -1 (none), but the object's next request is request 2"), "{e}");
        let e = check(&[(7, 2), (8, 2), (7, -1)]).unwrap_err();
        assert!(
            e.contains(
                "record 2: its next-access field says 2, but the object's next request never comes"
            ),
            "{e}"
        );
        // Counted from 1 at first (3 for request 2), then from 0 (4 for request 4).
        let e = check(&[(7, 3), (8, -1), (7, 4), (9, -1), (7, -1)]).unwrap_err();
        assert!(e.contains("record 3: its next-access field says 4, but the object's next request is request 4"), "{e}");
    }
}

//! Access traces a `replay` op plays (issue #47): the two formats, read as a stream.
//!
//! A trace is untrusted input, like the scenario that names it. The engine never opens a file:
//! the shell supplies each trace the scenario names as a [`TraceSource`] (the CLI a file next
//! to the scenario, read in place with `pread`; the page the bytes of a dropped file), and the
//! reader pulls [`CHUNK`] bytes at a time from it, so its memory is constant in the trace's
//! length. A source longer than the budget's `trace_bytes` is refused before a byte is read
//! ([`Traces::insert`]); a bad record is an error naming its number (1-based) and, for CSV,
//! its line.
//!
//! Formats (docs/scenarios.md, "Traces"):
//! - `oracleGeneral`: libCacheSim's header-less binary, 24-byte little-endian records
//!   `u32 time, u64 id, u32 size, i64 next access` (the index of the object's next request,
//!   -1 for none).
//! - `csv`: text lines `time,id,size[,op]` (decimal integers; op `r`/`read`/`get` or
//!   `w`/`write`/`set`, default read), an optional header line whose first field is `time`,
//!   blank lines ignored, at most [`MAX_LINE`] bytes a line.
//!
//! A request of size 0 is skipped, as libCacheSim's readers skip them by default.
use std::collections::BTreeMap;
use std::sync::Arc;

use super::Budget;

/// Bytes pulled from the source at a time.
pub const CHUNK: usize = 64 << 10;
/// The longest CSV line accepted.
pub const MAX_LINE: usize = 4096;
/// Bytes of one oracleGeneral record.
pub const ORACLE_RECORD: u64 = 24;

/// The trace formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum TraceFormat {
    #[serde(rename = "oracleGeneral")]
    OracleGeneral,
    #[serde(rename = "csv")]
    Csv,
}

/// Where a trace's bytes come from: read at an offset, never as a whole.
pub trait TraceSource: Send + Sync {
    /// The trace's length in bytes.
    fn len(&self) -> u64;
    /// Fill `buf` from byte `offset` on; returns the bytes read (0 only at the end).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, String>;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Bytes already in memory (the page's dropped file, tests).
impl TraceSource for Vec<u8> {
    fn len(&self) -> u64 {
        self.as_slice().len() as u64
    }
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<usize, String> {
        let start = offset.min(self.as_slice().len() as u64) as usize;
        let n = buf.len().min(self.as_slice().len() - start);
        buf[..n].copy_from_slice(&self[start..start + n]);
        Ok(n)
    }
}

/// The traces a shell supplied, by the name the scenario's ops use.
#[derive(Clone, Default)]
pub struct Traces(BTreeMap<String, Arc<dyn TraceSource>>);

impl std::fmt::Debug for Traces {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.0.iter().map(|(k, v)| (k, v.len())))
            .finish()
    }
}

impl Traces {
    /// Supply trace `name`; refused, unread, when it is longer than the budget allows.
    pub fn insert(
        &mut self,
        name: &str,
        source: Arc<dyn TraceSource>,
        budget: &Budget,
    ) -> Result<(), String> {
        check_len(name, source.len(), budget)?;
        self.0.insert(name.to_string(), source);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&Arc<dyn TraceSource>> {
        self.0.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }
}

/// Refuse trace `name` of `len` bytes when it is longer than the budget allows.
pub fn check_len(name: &str, len: u64, budget: &Budget) -> Result<(), String> {
    if len > budget.trace_bytes {
        return Err(format!(
            "trace {name:?} is {len} bytes; the limit is {} (MAX_TRACE_BYTES, see \
             docs/scenarios.md, resource budget; the CLI's --no-budget lifts it)",
            budget.trace_bytes
        ));
    }
    Ok(())
}

/// One request of a trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub time: u64,
    pub id: u64,
    pub size: u64,
    /// oracleGeneral: the index of the object's next request as the file gives it (None:
    /// never again); CSV: None.
    pub next: Option<u64>,
    pub write: bool,
}

/// A streaming reader over a source.
#[derive(Clone)]
pub struct TraceReader {
    src: Arc<dyn TraceSource>,
    format: TraceFormat,
    name: String,
    /// Bytes of the source consumed into `buf` so far.
    pos: u64,
    buf: Vec<u8>,
    /// The unread part of `buf`.
    at: usize,
    /// Records read so far (CSV: lines, blank ones and the header included).
    record: u64,
}

impl TraceReader {
    /// A reader of `src` in `format`; `name` is what errors call it. An oracleGeneral trace
    /// whose length is not whole records is refused here, before anything is read.
    pub fn new(
        name: &str,
        src: Arc<dyn TraceSource>,
        format: TraceFormat,
    ) -> Result<TraceReader, String> {
        if format == TraceFormat::OracleGeneral && src.len() % ORACLE_RECORD != 0 {
            return Err(format!(
                "trace {name:?}: {} bytes is not a whole number of 24-byte oracleGeneral \
                 records: record {} is cut short after {} bytes",
                src.len(),
                src.len() / ORACLE_RECORD + 1,
                src.len() % ORACLE_RECORD
            ));
        }
        Ok(TraceReader {
            src,
            format,
            name: name.to_string(),
            pos: 0,
            buf: Vec::new(),
            at: 0,
            record: 0,
        })
    }

    /// Back to the first request.
    pub fn rewind(&mut self) {
        self.pos = 0;
        self.buf.clear();
        self.at = 0;
        self.record = 0;
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.record
    }

    /// Make at least `want` unread bytes available if the source has them; returns how many
    /// there are.
    fn fill(&mut self, want: usize) -> Result<usize, String> {
        if self.buf.len() - self.at >= want {
            return Ok(self.buf.len() - self.at);
        }
        self.buf.drain(..self.at);
        self.at = 0;
        let have = self.buf.len();
        let target = CHUNK.max(want);
        self.buf.resize(target, 0);
        let mut filled = have;
        while filled < target {
            let n = self
                .src
                .read_at(self.pos, &mut self.buf[filled..])
                .map_err(|e| format!("trace {:?}: {e}", self.name))?;
            if n == 0 {
                break;
            }
            filled += n;
            self.pos += n as u64;
        }
        self.buf.truncate(filled);
        Ok(filled)
    }

    /// The next request, None at the end.
    pub fn next_request(&mut self) -> Result<Option<Request>, String> {
        loop {
            let r = match self.format {
                TraceFormat::OracleGeneral => self.oracle()?,
                TraceFormat::Csv => self.csv()?,
            };
            match r {
                Some(r) if r.size == 0 => continue,
                other => return Ok(other),
            }
        }
    }

    fn oracle(&mut self) -> Result<Option<Request>, String> {
        let n = ORACLE_RECORD as usize;
        let have = self.fill(n)?;
        if have == 0 {
            return Ok(None);
        }
        self.record += 1;
        if have < n {
            // The source shrank after `new` measured it.
            return Err(format!(
                "trace {:?}: record {} is cut short after {have} bytes",
                self.name, self.record
            ));
        }
        let b = &self.buf[self.at..self.at + n];
        self.at += n;
        let time = u32::from_le_bytes(b[0..4].try_into().unwrap()) as u64;
        let id = u64::from_le_bytes(b[4..12].try_into().unwrap());
        let size = u32::from_le_bytes(b[12..16].try_into().unwrap()) as u64;
        let next = i64::from_le_bytes(b[16..24].try_into().unwrap());
        let next = match next {
            -1 => None,
            n if n >= 0 => Some(n as u64),
            n => {
                return Err(format!(
                    "trace {:?}: record {} (byte {}): next access {n} is neither -1 (none) \
                     nor a request index >= 0",
                    self.name,
                    self.record,
                    (self.record - 1) * ORACLE_RECORD
                ))
            }
        };
        Ok(Some(Request {
            time,
            id,
            size,
            next,
            write: false,
        }))
    }

    fn csv(&mut self) -> Result<Option<Request>, String> {
        loop {
            let have = self.fill(MAX_LINE + 1)?;
            if have == 0 {
                return Ok(None);
            }
            let rest = &self.buf[self.at..];
            let (line, used) = match rest.iter().position(|&c| c == b'\n') {
                Some(i) => (&rest[..i], i + 1),
                None if have > MAX_LINE => {
                    return Err(format!(
                        "trace {:?}: line {} is longer than {MAX_LINE} bytes",
                        self.name,
                        self.record + 1
                    ))
                }
                None => (rest, rest.len()),
            };
            if line.len() > MAX_LINE {
                return Err(format!(
                    "trace {:?}: line {} is longer than {MAX_LINE} bytes",
                    self.name,
                    self.record + 1
                ));
            }
            self.record += 1;
            let line = line.to_vec();
            self.at += used;
            let text = std::str::from_utf8(&line)
                .map_err(|_| self.csv_error("is not UTF-8 text"))?
                .trim();
            if text.is_empty() {
                continue;
            }
            let fields: Vec<&str> = text.split(',').map(str::trim).collect();
            if self.record == 1 && fields[0].eq_ignore_ascii_case("time") {
                continue;
            }
            if !(3..=4).contains(&fields.len()) {
                return Err(self.csv_error(&format!(
                    "has {} fields; a request is time,id,size[,op]",
                    fields.len()
                )));
            }
            let num = |i: usize, what: &str| -> Result<u64, String> {
                fields[i].parse::<u64>().map_err(|_| {
                    self.csv_error(&format!(
                        "field {} ({what}) is {:?}, not a whole number 0..2^64",
                        i + 1,
                        fields[i]
                    ))
                })
            };
            let (time, id, size) = (num(0, "time")?, num(1, "id")?, num(2, "size")?);
            let write = match fields.get(3).map(|s| s.to_ascii_lowercase()) {
                None => false,
                Some(op) => match op.as_str() {
                    "" | "r" | "read" | "get" => false,
                    "w" | "write" | "set" => true,
                    _ => {
                        return Err(self.csv_error(&format!(
                            "op {:?} is not one of r, read, get, w, write, set",
                            fields[3]
                        )))
                    }
                },
            };
            return Ok(Some(Request {
                time,
                id,
                size,
                next: None,
                write,
            }));
        }
    }

    fn csv_error(&self, what: &str) -> String {
        format!("trace {:?}: line {} {what}", self.name, self.record)
    }
}

/// A hasher for object ids (already well spread or dense): the same on every platform and in
/// every run, unlike std's seeded one, and cheap.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        // SplitMix64's finalizer: block numbers are dense, so spread their bits.
        let mut z = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map keyed by object id.
pub type IdMap<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<IdHasher>>;

/// What one pass over a trace found: its requests, and each distinct object's page (the
/// order of first appearance), refused past `max_objects`.
#[derive(Debug, Clone)]
pub struct TraceScan {
    pub requests: u64,
    pub writes: u64,
    pub first_time: u64,
    pub last_time: u64,
    /// Object id -> its page, 0.. in the order objects first appear.
    pub pages: IdMap<u32>,
}

/// Read the whole trace once (memory: the distinct objects, at most `max_objects`).
pub fn scan(reader: &mut TraceReader, max_objects: u64) -> Result<TraceScan, String> {
    scan_objects(reader, max_objects)?.map_err(|past| {
        format!(
            "trace {:?}: record {} brings object {} past the {} pages the replay \
             maps objects onto (one page an object): give the file more pages",
            reader.name,
            past.record,
            past.objects + 1,
            max_objects
        )
    })
}

/// Where a trace first has more distinct objects than a scan allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PastObjects {
    /// The record (CSV: line) that brings the first object too many.
    pub record: u64,
    /// The objects before it.
    pub objects: u64,
}

/// [`scan`], with the trace's first object past `max_objects` given back to the caller to
/// name (the reader stops there) rather than as the build's message.
pub fn scan_objects(
    reader: &mut TraceReader,
    max_objects: u64,
) -> Result<Result<TraceScan, PastObjects>, String> {
    reader.rewind();
    let mut s = TraceScan {
        requests: 0,
        writes: 0,
        first_time: 0,
        last_time: 0,
        pages: IdMap::default(),
    };
    while let Some(r) = reader.next_request()? {
        if s.requests == 0 {
            s.first_time = r.time;
        }
        s.last_time = r.time;
        s.requests += 1;
        s.writes += u64::from(r.write);
        let n = s.pages.len() as u64;
        if !s.pages.contains_key(&r.id) {
            if n >= max_objects.min(u32::MAX as u64) {
                return Ok(Err(PastObjects {
                    record: reader.record,
                    objects: n,
                }));
            }
            s.pages.insert(r.id, n as u32);
        }
    }
    reader.rewind();
    Ok(Ok(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oracle(recs: &[(u32, u64, u32, i64)]) -> Vec<u8> {
        let mut b = Vec::new();
        for &(t, id, sz, nx) in recs {
            b.extend_from_slice(&t.to_le_bytes());
            b.extend_from_slice(&id.to_le_bytes());
            b.extend_from_slice(&sz.to_le_bytes());
            b.extend_from_slice(&nx.to_le_bytes());
        }
        b
    }

    fn all(name: &str, bytes: Vec<u8>, f: TraceFormat) -> Result<Vec<Request>, String> {
        let mut r = TraceReader::new(name, Arc::new(bytes), f)?;
        let mut out = Vec::new();
        while let Some(q) = r.next_request()? {
            out.push(q);
        }
        Ok(out)
    }

    #[test]
    fn oracle_general_records_decode_and_size_zero_is_skipped() {
        let b = oracle(&[(5, 42, 512, 2), (6, 7, 0, -1), (7, 42, 4096, -1)]);
        let r = all("t", b, TraceFormat::OracleGeneral).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(
            r[0],
            Request {
                time: 5,
                id: 42,
                size: 512,
                next: Some(2),
                write: false
            }
        );
        assert_eq!((r[1].time, r[1].next), (7, None));
    }

    #[test]
    fn a_cut_oracle_record_and_a_bad_next_name_the_record() {
        let mut b = oracle(&[(1, 1, 1, -1), (2, 2, 2, -1)]);
        b.truncate(30);
        let e = TraceReader::new("t", Arc::new(b), TraceFormat::OracleGeneral)
            .err()
            .unwrap();
        assert!(e.contains("record 2 is cut short after 6 bytes"), "{e}");
        let b = oracle(&[(1, 1, 1, -1), (2, 2, 2, -7)]);
        let e = all("t", b, TraceFormat::OracleGeneral).unwrap_err();
        assert!(e.contains("record 2 (byte 24): next access -7"), "{e}");
    }

    #[test]
    fn records_across_chunk_boundaries_read_whole() {
        // More than one chunk of records, none of which is aligned to a chunk.
        let n = CHUNK as u64 / ORACLE_RECORD * 3 + 5;
        let recs: Vec<_> = (0..n).map(|i| (i as u32, i * 3, 1, -1)).collect();
        let r = all("t", oracle(&recs), TraceFormat::OracleGeneral).unwrap();
        assert_eq!(r.len() as u64, n);
        assert!(r.iter().enumerate().all(|(i, q)| q.id == i as u64 * 3));
        let text: String = (0..20_000)
            .map(|i| format!("{i},{},4096,w\n", i % 97))
            .collect();
        let r = all("c", text.into_bytes(), TraceFormat::Csv).unwrap();
        assert_eq!(r.len(), 20_000);
        assert!(r
            .iter()
            .enumerate()
            .all(|(i, q)| q.id == i as u64 % 97 && q.write));
    }

    #[test]
    fn csv_with_and_without_header_ops_and_errors_by_line() {
        let r = all(
            "c",
            b"time,id,size,op\n1,10,4096,r\n\n2,11,100,W\n3,10,5,get\n".to_vec(),
            TraceFormat::Csv,
        )
        .unwrap();
        assert_eq!(
            r.iter().map(|q| (q.id, q.write)).collect::<Vec<_>>(),
            [(10, false), (11, true), (10, false)]
        );
        let r = all("c", b"1,10,4096\n2,11,1".to_vec(), TraceFormat::Csv).unwrap();
        assert_eq!(r.len(), 2);
        let e = all("c", b"1,10,4096\n2,x,1\n".to_vec(), TraceFormat::Csv).unwrap_err();
        assert!(e.contains("line 2 field 2 (id) is \"x\""), "{e}");
        let e = all("c", b"1,10\n".to_vec(), TraceFormat::Csv).unwrap_err();
        assert!(e.contains("line 1 has 2 fields"), "{e}");
        let e = all("c", b"1,10,1,delete\n".to_vec(), TraceFormat::Csv).unwrap_err();
        assert!(e.contains("line 1 op \"delete\""), "{e}");
        let long = format!("1,2,{}\n", "9".repeat(MAX_LINE));
        let e = all("c", long.into_bytes(), TraceFormat::Csv).unwrap_err();
        assert!(e.contains("line 1 is longer than 4096 bytes"), "{e}");
    }

    #[test]
    fn a_trace_over_the_budget_is_refused_unread() {
        struct Unreadable(u64);
        impl TraceSource for Unreadable {
            fn len(&self) -> u64 {
                self.0
            }
            fn read_at(&self, _: u64, _: &mut [u8]) -> Result<usize, String> {
                panic!("read before the budget check")
            }
        }
        let budget = Budget::DEFAULT;
        let mut t = Traces::default();
        let e = t
            .insert("big", Arc::new(Unreadable(budget.trace_bytes + 1)), &budget)
            .unwrap_err();
        assert!(
            e.contains("trace \"big\" is") && e.contains("MAX_TRACE_BYTES"),
            "{e}"
        );
        t.insert("ok", Arc::new(Unreadable(24)), &budget).unwrap();
        assert_eq!(t.names().collect::<Vec<_>>(), ["ok"]);
    }

    #[test]
    fn scan_numbers_objects_in_order_and_refuses_too_many() {
        let b = oracle(&[(1, 9, 1, -1), (2, 3, 1, -1), (3, 9, 1, -1), (4, 5, 1, -1)]);
        let mut r = TraceReader::new("t", Arc::new(b), TraceFormat::OracleGeneral).unwrap();
        let s = scan(&mut r, 3).unwrap();
        assert_eq!(
            (s.requests, s.pages[&9], s.pages[&3], s.pages[&5]),
            (4, 0, 1, 2)
        );
        let e = scan(&mut r, 2).unwrap_err();
        assert!(
            e.contains("record 4 brings object 3 past the 2 pages"),
            "{e}"
        );
    }
}

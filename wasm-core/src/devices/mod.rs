//! Storage devices as queue models: a serialized media/bus resource (seek + transfer) plus a
//! per-request access latency that overlaps across `parallelism` requests in flight.
//!
//! Physical defaults (the same for every kernel variant; a scenario may override them):
//! - HDD, 7200 rpm: ~8.5 ms average seek + 4.17 ms half-rotation per random IO, ~150 MB/s
//!   sequential (typical 3.5" desktop drive datasheets, e.g. WD Blue / Seagate Barracuda);
//!   one head, so requests are serialized. The 8.5 ms is the datasheet average over random
//!   positions on the whole disk. When a scenario states the disk's `capacity`, the seek
//!   depends on the distance the head travels instead (see `Device::positioning_ns`): data
//!   packed in a few GB of a large disk is reached with short seeks.
//! - SATA SSD: ~100 us read / ~30 us write latency, ~520 MB/s (SATA 3 limit), NCQ depth 32.
//! - NVMe: ~20 us read / ~15 us write latency, ~3.2 GB/s (PCIe 3.0 x4 drives), 64 in flight.
//! - zram: synchronous compression in the faulting/reclaiming CPU: ~3 us to compress and ~1 us
//!   to decompress a 4 KiB page (lzo-rle figures from zram benchmarks), ratio ~2.5.
//! - pmem: ~0.3 us read / ~1 us write latency, ~6 GB/s read (Optane DC PMM datasheets).
//! - ramdisk: memory copy, ~0.5 us per 4 KiB page.
//!
//! The host side of the queue (the block layer's request tags) is finite too: a writer that
//! finds `nr_requests` requests in flight sleeps in `blk_mq_get_tag` until one completes.
//! Reclaim writes scattered pages, one segment each, so a request carries at most
//! `max_segments` pages; the cap is kept in pages, nr_requests x max_segments, an upper bound
//! that assumes consecutive swap slots merge into full requests:
//! - HDD and SATA SSD (AHCI, mq-deadline): nr_requests 64 (twice the NCQ depth of 32) x 168
//!   segments (AHCI_MAX_SG) = 10,752 pages (42 MiB).
//! - NVMe (no scheduler): nr_requests 1023 (the default io_queue_depth less one) x 127 segments
//!   (NVME_MAX_SEGS in 5.x and early 6.x) = 129,921 pages (~508 MiB): one hardware queue, as a
//!   single reclaimer uses the queue of its CPU.
//!
//! The flushers' writeback takes tags by request: each request (a run of pages contiguous on
//! the device, split at `max_segments` pages) holds one of the nr_requests tags until it
//! completes, and the flusher sleeps when none is free (`Device::write_tag_wait`), so a chunk
//! of scattered dirty blocks goes to the device 64 requests at a time instead of all at once.
//! Reclaim's own writes wait on the page total above; they hold tags too, so the flushers
//! find fewer free.
//!
//! Not modelled: the throttles in front of the tags that some versions add (mq-deadline's
//! async_depth of 3/4 of nr_requests from 5.14, writeback throttling by blk-wbt).
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::{Deserialize, Serialize};

pub const PAGE_BYTES: u64 = 4096;
/// 7200 rpm: one revolution takes 8.33 ms; a random request waits half of it on average.
const HDD_HALF_ROTATION_NS: u64 = 4_170_000;
/// Track-to-track seek of a desktop drive (~1 ms read, datasheets of the drives above).
const HDD_TRACK_TO_TRACK_NS: u64 = 1_000_000;

/// The kinds of storage a scenario can name (`[[devices]] kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DeviceKind {
    Hdd,
    Ssd,
    Nvme,
    Zram,
    Pmem,
    Ramdisk,
}

#[derive(Debug, Clone)]
pub struct Device {
    pub name: String,
    pub kind: DeviceKind,
    /// Rotational: a request not contiguous with the previous one pays `seek_ns` (the average
    /// positioning time: seek + half a rotation).
    pub seek_ns: u64,
    /// Rotational, when known: the disk's size in pages; positioning then depends on distance.
    pub capacity_pages: u64,
    pub read_latency_ns: u64,
    pub write_latency_ns: u64,
    pub bytes_per_s: u64,
    pub parallelism: u32,
    /// Synchronous devices (zram, ramdisk, pmem) complete in the submitting context.
    pub synchronous: bool,
    pub compression_ratio: f64,
    /// When the serialized resource is free again.
    busy_until: u64,
    /// LBA (in pages) right after the last request: the head position of a disk.
    next_lba: u64,
    /// Completion times of the requests in flight, for the parallelism limit.
    in_flight: Vec<u64>,
    /// Host request queue capacity for writes, in 4 KiB pages (0: unlimited).
    pub write_queue_pages: u64,
    /// Writes queued or in service: (completion time, pages), and their page total.
    queued_writes: BinaryHeap<Reverse<(u64, u64)>>,
    queued_write_pages: u64,
    /// Pages one request can carry (max_segments; 0 for synchronous devices).
    pub max_request_pages: u64,
    /// Completion times of the write requests in flight, one entry per tag held.
    pub(crate) write_tags: BinaryHeap<Reverse<u64>>,
    /// The last write request: (its end on the device, its pages, its completion), for
    /// back-merges.
    last_write: (u64, u64, u64),
    pub stats: DeviceStats,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceStats {
    pub reads: u64,
    pub writes: u64,
    pub pages_read: u64,
    pub pages_written: u64,
    pub busy_ns: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoDir {
    Read,
    Write,
}

impl Device {
    /// The queue's rotational flag (`blk_queue_nonrot` false): a disk with a seek.
    pub fn rotational(&self) -> bool {
        self.kind == DeviceKind::Hdd
    }

    pub fn default_for(name: &str, kind: DeviceKind) -> Device {
        let (seek, rl, wl, bw, par, sync, ratio) = match kind {
            DeviceKind::Hdd => (12_670_000, 0, 0, 150_000_000, 1, false, 1.0),
            DeviceKind::Ssd => (0, 100_000, 30_000, 520_000_000, 32, false, 1.0),
            DeviceKind::Nvme => (0, 20_000, 15_000, 3_200_000_000, 64, false, 1.0),
            DeviceKind::Zram => (0, 1_000, 3_000, u64::MAX / 4, 1, true, 2.5),
            DeviceKind::Pmem => (0, 300, 1_000, 6_000_000_000, 8, true, 1.0),
            DeviceKind::Ramdisk => (0, 500, 500, u64::MAX / 4, 1, true, 1.0),
        };
        let (nr_requests, max_request_pages) = match kind {
            DeviceKind::Hdd | DeviceKind::Ssd => (64, 168),
            DeviceKind::Nvme => (1023, 127),
            // Synchronous: the writer itself does the work, nothing queues.
            DeviceKind::Zram | DeviceKind::Pmem | DeviceKind::Ramdisk => (0, 0),
        };
        Device {
            name: name.to_string(),
            kind,
            seek_ns: seek,
            capacity_pages: 0,
            read_latency_ns: rl,
            write_latency_ns: wl,
            bytes_per_s: bw,
            parallelism: par,
            synchronous: sync,
            compression_ratio: ratio,
            busy_until: 0,
            next_lba: u64::MAX,
            in_flight: Vec::new(),
            write_queue_pages: nr_requests * max_request_pages,
            queued_writes: BinaryHeap::new(),
            queued_write_pages: 0,
            max_request_pages,
            write_tags: BinaryHeap::new(),
            last_write: (u64::MAX, 0, 0),
            stats: DeviceStats::default(),
        }
    }

    /// Time to position the head for a request at `lba` that does not continue the previous
    /// one. Without a stated capacity: the average `seek_ns`. With it, Ruemmler & Wilkes'
    /// disk model ("An introduction to disk drive modeling", IEEE Computer 1994): half a
    /// rotation on average (4.17 ms at 7200 rpm) plus a seek that grows with the square root
    /// of the distance, from the track-to-track time (~1 ms, drive datasheets) at the shortest,
    /// scaled so that the mean over uniformly random start and end points (E[sqrt(d)] = 8/15
    /// of the full stroke's) is the datasheet average seek — the same 8.5 ms as without a
    /// capacity when requests are spread over the whole disk.
    fn positioning_ns(&self, lba: u64) -> u64 {
        if self.capacity_pages == 0 || self.next_lba == u64::MAX {
            return self.seek_ns;
        }
        let rotation = HDD_HALF_ROTATION_NS.min(self.seek_ns);
        let avg_seek = self.seek_ns - rotation;
        let t2t = HDD_TRACK_TO_TRACK_NS.min(avg_seek);
        let dist = lba.abs_diff(self.next_lba).min(self.capacity_pages);
        // sqrt(dist / capacity) in 1/2^20 units, in integers (bit-identical everywhere).
        let frac = crate::math::int_sqrt(
            ((dist as u128) << 40).div_ceil(self.capacity_pages as u128) as u64,
        );
        let full_stroke_extra = (avg_seek - t2t) as u128 * 15 / 8;
        rotation + t2t + ((full_stroke_extra * frac as u128) >> 20) as u64
    }

    fn transfer_ns(&self, pages: u64) -> u64 {
        let bytes = pages * PAGE_BYTES;
        ((bytes as u128 * 1_000_000_000u128) / self.bytes_per_s as u128) as u64
    }

    /// `blk_mq_get_tag` for a write of `pages` pages at `now`: when the queue cannot take it,
    /// the time at which enough queued writes have completed (the writer sleeps until then);
    /// None when it goes straight in.
    pub fn write_queue_wait(&mut self, now: u64, pages: u64) -> Option<u64> {
        self.retire_writes(now);
        if self.write_queue_pages == 0 || self.queued_write_pages + pages <= self.write_queue_pages
        {
            return None;
        }
        let mut until = now;
        while self.queued_write_pages + pages > self.write_queue_pages {
            let Some(Reverse((done, n))) = self.queued_writes.pop() else {
                break;
            };
            self.queued_write_pages -= n;
            until = until.max(done);
        }
        Some(until)
    }

    /// The flushers' `blk_mq_get_tag`: None when a tag is free for the next request at `now`,
    /// else the time the earliest write request in flight completes and frees one. The number
    /// of tags is the queue's capacity over a full request's pages (64 on SATA, 1023 on NVMe).
    pub fn write_tag_wait(&mut self, now: u64) -> Option<u64> {
        self.retire_tags(now);
        if self.max_request_pages == 0 || self.write_queue_pages == 0 {
            return None;
        }
        let tags = (self.write_queue_pages / self.max_request_pages).max(1) as usize;
        if self.write_tags.len() < tags {
            return None;
        }
        self.write_tags.peek().map(|&Reverse(done)| done)
    }

    /// Take the tags of a write of `pages` pages at `lba` completing at `done`: one per
    /// `max_request_pages`, none for a page that back-merges into the previous request
    /// (contiguous, still in flight, with room), as reclaim's single-page swap writes to
    /// consecutive slots do in its plug. A merged request frees its tag when its first part
    /// completes: a disk serves the merged pages back to back, so that is early by at most the
    /// merged pages' transfer time (~4.5 ms for 168 pages at 150 MB/s).
    fn take_write_tags(&mut self, now: u64, lba: u64, pages: u64, done: u64) {
        if self.max_request_pages == 0 {
            return;
        }
        self.retire_tags(now);
        let (end, in_request, in_flight_until) = self.last_write;
        if lba == end && in_flight_until > now && in_request + pages <= self.max_request_pages {
            self.last_write = (lba + pages, in_request + pages, done);
            return;
        }
        let requests = pages.div_ceil(self.max_request_pages);
        for _ in 0..requests {
            self.write_tags.push(Reverse(done));
        }
        let last_request = pages - (requests - 1) * self.max_request_pages;
        self.last_write = (lba + pages, last_request, done);
    }

    /// Free the tags of the write requests completed by `now`.
    fn retire_tags(&mut self, now: u64) {
        while self.write_tags.peek().is_some_and(|&Reverse(d)| d <= now) {
            self.write_tags.pop();
        }
    }

    fn retire_writes(&mut self, now: u64) {
        while let Some(&Reverse((done, n))) = self.queued_writes.peek() {
            if done > now {
                break;
            }
            self.queued_writes.pop();
            self.queued_write_pages -= n;
        }
    }

    /// Submit a request of `pages` pages at `lba` (in pages) at time `now`; returns its
    /// completion time. For synchronous devices the caller charges the time to its CPU.
    pub fn submit(&mut self, now: u64, lba: u64, pages: u64, dir: IoDir) -> u64 {
        let pages = pages.max(1);
        match dir {
            IoDir::Read => {
                self.stats.reads += 1;
                self.stats.pages_read += pages;
            }
            IoDir::Write => {
                self.stats.writes += 1;
                self.stats.pages_written += pages;
            }
        }
        let latency = match dir {
            IoDir::Read => self.read_latency_ns,
            IoDir::Write => self.write_latency_ns,
        };
        if self.synchronous {
            let t = latency
                .saturating_mul(pages)
                .saturating_add(self.transfer_ns(pages));
            self.stats.busy_ns += t;
            return now.saturating_add(t);
        }
        // Queue depth: wait for the earliest request in flight when all slots are taken.
        self.in_flight.retain(|&c| c > now);
        let mut start = now;
        if self.in_flight.len() >= self.parallelism as usize {
            let earliest = *self.in_flight.iter().min().unwrap();
            start = start.max(earliest);
            if let Some(pos) = self.in_flight.iter().position(|&c| c == earliest) {
                self.in_flight.swap_remove(pos);
            }
        }
        let positioning = if self.seek_ns > 0 && lba != self.next_lba {
            self.positioning_ns(lba)
        } else {
            0
        };
        let serial_start = start.max(self.busy_until);
        let serial = positioning + self.transfer_ns(pages);
        self.busy_until = serial_start.saturating_add(serial);
        self.stats.busy_ns += serial;
        self.next_lba = lba + pages;
        let done = self.busy_until.max(start.saturating_add(latency));
        self.in_flight.push(done);
        if dir == IoDir::Write && self.write_queue_pages > 0 {
            // Writers that never wait (O_DSYNC writes) must not let the queue grow without end.
            self.retire_writes(now);
            self.queued_writes.push(Reverse((done, pages)));
            self.queued_write_pages += pages;
            self.take_write_tags(now, lba, pages, done);
        }
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hdd_random_reads_pay_a_seek_sequential_do_not() {
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        let t1 = d.submit(0, 1000, 1, IoDir::Read);
        assert!(t1 >= 12_000_000, "random read {t1}");
        let t2 = d.submit(t1, 1001, 1, IoDir::Read);
        assert!(t2 - t1 < 100_000, "sequential read {}", t2 - t1);
        // 150 MB/s: 128 KiB takes ~0.87 ms.
        let t3 = d.submit(t2, 1002, 32, IoDir::Read);
        assert!((t3 - t2).abs_diff(873_813) < 1000);
    }

    #[test]
    fn hdd_with_a_capacity_seeks_by_distance() {
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        // Without a capacity every non-contiguous request pays the average positioning.
        d.submit(0, 0, 1, IoDir::Read);
        let t = d.busy_until;
        assert_eq!(
            d.submit(t, 2, 1, IoDir::Read) - t,
            d.seek_ns + d.transfer_ns(1)
        );
        // 1 TB: a short hop costs half a rotation plus about a track-to-track seek...
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        d.capacity_pages = 1_000_000_000_000 / PAGE_BYTES;
        d.next_lba = 0;
        let near = d.positioning_ns(256);
        assert!((5_170_000..5_300_000).contains(&near), "near {near}");
        // ...the full stroke ~15 ms + rotation, and the mean over random pairs is the average.
        let far = d.positioning_ns(d.capacity_pages);
        assert!((19_000_000..19_400_000).contains(&far), "far {far}");
        let mut rng = crate::rng::Rng::new(1);
        let n = 20_000u64;
        let mut sum = 0u64;
        for _ in 0..n {
            d.next_lba = rng.below(d.capacity_pages);
            sum += d.positioning_ns(rng.below(d.capacity_pages));
        }
        let mean = sum / n;
        assert!(
            mean.abs_diff(d.seek_ns) < d.seek_ns / 50,
            "mean {mean} vs {}",
            d.seek_ns
        );
    }

    #[test]
    fn a_full_write_queue_makes_the_writer_wait_for_the_oldest_writes() {
        assert_eq!(
            Device::default_for("ssd", DeviceKind::Ssd).write_queue_pages,
            64 * 168
        );
        // A disk serializes its writes, so each completes at a time of its own.
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        d.write_queue_pages = 4;
        let mut done = Vec::new();
        for lba in 0..4 {
            assert_eq!(d.write_queue_wait(0, 1), None, "room for write {lba}");
            done.push(d.submit(0, lba, 1, IoDir::Write));
        }
        assert!(done.windows(2).all(|w| w[0] < w[1]));
        // Full: a one-page write waits for the first completion, a two-page one for two.
        assert_eq!(d.write_queue_wait(0, 1), Some(done[0]));
        d.submit(done[0], 4, 1, IoDir::Write);
        assert_eq!(d.write_queue_wait(done[0], 2), Some(done[2]));
        // Reads do not take write slots, and once the writes are over there is room again.
        d.submit(done[2], 100, 8, IoDir::Read);
        assert_eq!(d.write_queue_wait(u64::MAX / 2, 4), None);
        // Synchronous devices never queue.
        let mut z = Device::default_for("zram", DeviceKind::Zram);
        for lba in 0..100_000 {
            z.submit(0, lba, 1, IoDir::Write);
        }
        assert_eq!(z.write_queue_wait(0, 1), None);
    }

    #[test]
    fn write_requests_hold_tags_and_contiguous_pages_merge_into_one() {
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        assert_eq!((d.write_queue_pages / d.max_request_pages), 64);
        // 64 scattered one-page writes take the 64 tags; the next waits for the first.
        let done: Vec<u64> = (0..64)
            .map(|i| {
                assert_eq!(d.write_tag_wait(0), None, "tag {i}");
                d.submit(0, i * 1000, 1, IoDir::Write)
            })
            .collect();
        assert_eq!(d.write_tag_wait(0), Some(done[0]));
        assert_eq!(d.write_tag_wait(done[0]), None);
        // Pages contiguous with the last request merge into it while it is in flight and has
        // room (168 pages), without a tag of their own; a request of 400 pages takes 3.
        let mut d = Device::default_for("disk", DeviceKind::Hdd);
        d.submit(0, 10, 1, IoDir::Write);
        for lba in 11..178 {
            d.submit(0, lba, 1, IoDir::Write);
        }
        assert_eq!(
            d.write_tags.len(),
            1,
            "168 contiguous pages are one request"
        );
        d.submit(0, 178, 1, IoDir::Write);
        assert_eq!(d.write_tags.len(), 2, "the 169th starts a new one");
        d.submit(0, 5000, 400, IoDir::Write);
        assert_eq!(d.write_tags.len(), 5);
        // Reads take no write tag; synchronous devices have none.
        d.submit(0, 9000, 8, IoDir::Read);
        assert_eq!(d.write_tags.len(), 5);
        let mut z = Device::default_for("zram", DeviceKind::Zram);
        for lba in 0..1000 {
            z.submit(0, lba * 7, 1, IoDir::Write);
        }
        assert_eq!(z.write_tag_wait(0), None);
    }

    #[test]
    fn ssd_overlaps_latency_across_requests() {
        let mut d = Device::default_for("ssd", DeviceKind::Ssd);
        let a = d.submit(0, 5, 1, IoDir::Read);
        let b = d.submit(0, 900, 1, IoDir::Read);
        assert!(a >= 100_000 && b >= 100_000);
        // The second overlaps the first: it does not wait a full latency more.
        assert!(b < a + 20_000);
    }

    #[test]
    fn queue_depth_limits_parallelism() {
        let mut d = Device::default_for("ssd", DeviceKind::Ssd);
        d.parallelism = 1;
        let a = d.submit(0, 5, 1, IoDir::Read);
        let b = d.submit(0, 900, 1, IoDir::Read);
        assert!(b >= a + 100_000);
    }

    #[test]
    fn zram_is_synchronous_cpu_time() {
        let mut d = Device::default_for("zram", DeviceKind::Zram);
        assert!(d.synchronous);
        assert_eq!(d.submit(10, 0, 1, IoDir::Write), 10 + 3_000);
    }
}

//! Latency statistics of the simulated tasks in constant memory.
//!
//! A run records one latency per op, per stalled allocation and per page access that waited
//! for IO: tens of millions in a long run. Keeping them all made memory grow with the run's
//! length; a high-dynamic-range histogram keeps the percentiles within [`RELATIVE_ERROR`] in a
//! few tens of KiB, and the mean exact.
use crate::report::Percentiles;
use hdrhistogram::Histogram;

/// Significant decimal digits the histogram keeps: buckets are at most 1/128 of their value
/// wide, and a percentile is reported as the middle of its bucket.
const SIGFIG: u8 = 2;
/// How far a reported percentile may be from the exact one, relative to it (the bound stated
/// in the JSON contract, docs/cli.md).
pub const RELATIVE_ERROR: f64 = 0.005;

/// Latencies in ns: count, exact sum, and a histogram made on the first record.
#[derive(Clone, Default)]
pub struct LatencyStats {
    hist: Option<Box<Histogram<u64>>>,
    sum: u128,
}

impl LatencyStats {
    pub fn record(&mut self, ns: u64) {
        let h = self.hist.get_or_insert_with(|| {
            Box::new(Histogram::new(SIGFIG).expect("2 significant digits is a valid precision"))
        });
        // Auto-resizing: the range grows to take any value (`saturating_record` would clamp
        // to the current range instead).
        if h.record(ns).is_err() {
            h.saturating_record(ns);
        }
        self.sum += ns as u128;
    }

    pub fn count(&self) -> u64 {
        self.hist.as_ref().map_or(0, |h| h.len())
    }

    pub fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// Add another's records to these.
    pub fn merge(&mut self, other: &LatencyStats) {
        if let Some(o) = &other.hist {
            match &mut self.hist {
                Some(h) => h
                    .add(o.as_ref())
                    .expect("auto-resizing histograms always merge"),
                None => self.hist = Some(o.clone()),
            }
            self.sum += other.sum;
        }
    }

    /// p50, p95, p99 (nearest rank, within [`RELATIVE_ERROR`]) and the exact mean, in ms.
    pub fn percentiles(&self) -> Percentiles {
        let n = self.count();
        let Some(h) = self.hist.as_ref().filter(|_| n > 0) else {
            return Percentiles {
                p50: 0.0,
                p95: 0.0,
                p99: 0.0,
                mean: 0.0,
                count: 0,
            };
        };
        let at = |q: f64| h.median_equivalent(h.value_at_quantile(q)) as f64 / 1e6;
        Percentiles {
            p50: at(0.50),
            p95: at(0.95),
            p99: at(0.99),
            mean: self.sum as f64 / n as f64 / 1e6,
            count: n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exact nearest-rank percentile of a sorted slice, in ms.
    fn exact(v: &[u64], p: f64) -> f64 {
        let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
        v[rank.clamp(1, v.len()) - 1] as f64 / 1e6
    }

    #[test]
    fn percentiles_are_within_the_stated_error_and_the_mean_is_exact() {
        // Latencies over six decades, as a run mixes page-cache hits and disk seeks.
        let mut rng = crate::rng::Rng::new(7);
        let mut v: Vec<u64> = (0..100_000)
            .map(|_| 10u64.pow(3 + (rng.next_u64() % 6) as u32) + rng.next_u64() % 1_000_000)
            .collect();
        let mut s = LatencyStats::default();
        for &x in &v {
            s.record(x);
        }
        v.sort_unstable();
        let p = s.percentiles();
        for (got, q) in [(p.p50, 50.0), (p.p95, 95.0), (p.p99, 99.0)] {
            let want = exact(&v, q);
            assert!(
                (got - want).abs() <= want * RELATIVE_ERROR,
                "p{q}: {got} vs {want}"
            );
        }
        let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64 / 1e6;
        assert!(
            (p.mean - mean).abs() <= mean * 1e-12,
            "{} vs {mean}",
            p.mean
        );
        assert_eq!(p.count, 100_000);
    }

    #[test]
    fn memory_does_not_grow_with_the_number_of_records() {
        let mut s = LatencyStats::default();
        s.record(5_000_000);
        let before = s.hist.as_ref().unwrap().distinct_values();
        for i in 0..1_000_000u64 {
            s.record(1_000_000 + (i % 9_000_000));
        }
        let h = s.hist.as_ref().unwrap();
        assert_eq!(
            h.distinct_values(),
            before,
            "the histogram's buckets did not grow"
        );
        assert_eq!(s.count(), 1_000_001);
    }

    #[test]
    fn merged_stats_equal_one_stats_of_everything() {
        let (mut a, mut b, mut all) = Default::default();
        for x in 0..5000u64 {
            let ns = x * x * 31;
            if x % 3 == 0 {
                LatencyStats::record(&mut a, ns)
            } else {
                LatencyStats::record(&mut b, ns)
            }
            LatencyStats::record(&mut all, ns);
        }
        let mut m: LatencyStats = LatencyStats::default();
        m.merge(&a);
        m.merge(&b);
        assert_eq!(m.percentiles(), LatencyStats::percentiles(&all));
    }
}

//! Deterministic random numbers: the same seed gives the same stream natively and in wasm.
//!
//! SplitMix64 (Steele, Lea, Flood 2014) for integers; Zipf sampling through a precomputed
//! CDF built with `libm` (not the platform's libm) so floating point results are bit-identical
//! on every target.

#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n (n > 0), by multiply-shift (Lemire), no division.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
    /// Uniform in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// Zipf(theta) over 0..n: rank r has weight 1/(r+1)^theta. Ranks are scattered over the range
/// by a fixed permutation so hot pages are not all adjacent.
#[derive(Debug, Clone)]
pub struct Zipf {
    cdf: Vec<f64>,
    n: u64,
    buckets: u64,
}

impl Zipf {
    /// At most this many CDF buckets; within a bucket ranks are uniform.
    const MAX_BUCKETS: u64 = 1 << 16;

    pub fn new(n: u64, theta: f64) -> Zipf {
        let n = n.max(1);
        let buckets = n.min(Self::MAX_BUCKETS);
        let mut cdf = Vec::with_capacity(buckets as usize);
        let mut acc = 0.0;
        for b in 0..buckets {
            // Weight of bucket b: integral of x^-theta over its rank range (exact enough, smooth).
            let lo = (b * n / buckets) as f64 + 1.0;
            let hi = ((b + 1) * n / buckets) as f64 + 1.0;
            let w = if (theta - 1.0).abs() < 1e-9 {
                libm::log(hi) - libm::log(lo)
            } else {
                (libm::pow(hi, 1.0 - theta) - libm::pow(lo, 1.0 - theta)) / (1.0 - theta)
            };
            acc += w;
            cdf.push(acc);
        }
        for c in cdf.iter_mut() {
            *c /= acc;
        }
        Zipf { cdf, n, buckets }
    }

    pub fn sample(&self, rng: &mut Rng) -> u64 {
        let u = rng.unit();
        let b = self
            .cdf
            .partition_point(|&c| c <= u)
            .min(self.buckets as usize - 1) as u64;
        let lo = b * self.n / self.buckets;
        let hi = ((b + 1) * self.n / self.buckets).max(lo + 1);
        let rank = lo + rng.below(hi - lo);
        scatter(rank, self.n)
    }
}

/// A fixed bijection on 0..n mixing ranks over the range (multiplication by an odd constant
/// modulo the next power of two, cycle-walked back into range).
fn scatter(rank: u64, n: u64) -> u64 {
    if n <= 2 {
        return rank;
    }
    let m = n.next_power_of_two();
    let mut x = rank;
    loop {
        x = (x
            .wrapping_mul(0x9E37_79B9_7F4A_7C15 | 1)
            .wrapping_add(0x632B_E5AB))
            & (m - 1);
        if x < n {
            return x;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn below_is_in_range_and_deterministic() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        for _ in 0..1000 {
            let x = a.below(10);
            assert!(x < 10);
            assert_eq!(x, b.below(10));
        }
    }
    #[test]
    fn zipf_is_skewed_and_in_range() {
        let z = Zipf::new(10_000, 1.0);
        let mut r = Rng::new(1);
        let mut counts = std::collections::HashMap::new();
        for _ in 0..100_000 {
            let x = z.sample(&mut r);
            assert!(x < 10_000);
            *counts.entry(x).or_insert(0u32) += 1;
        }
        let mut v: Vec<u32> = counts.values().copied().collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        // The hottest 1% of pages take far more than 1% of accesses.
        let top: u32 = v.iter().take(100).sum();
        assert!(top > 30_000, "top 1% got {top}");
    }
    #[test]
    fn scatter_is_a_bijection() {
        let n = 1000;
        let mut seen = vec![false; n as usize];
        for r in 0..n {
            let x = scatter(r, n) as usize;
            assert!(!seen[x]);
            seen[x] = true;
        }
    }
}

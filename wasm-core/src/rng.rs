//! Deterministic random numbers: the same seed gives the same stream natively and in wasm.
//!
//! SplitMix64 (Steele, Lea, Flood 2014) for integers; Zipf sampling through a precomputed
//! alias table (Vose 1991) built with `libm` (not the platform's libm) and IEEE arithmetic only,
//! so the table and every sample are bit-identical on every target.

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
    /// The generator's position: two generators in the same state draw the same numbers.
    #[inline]
    pub(crate) fn state(&self) -> u64 {
        self.0
    }
    /// Move to a position `state` returned.
    #[inline]
    pub(crate) fn set_state(&mut self, state: u64) {
        self.0 = state;
    }
    /// Uniform in 0..n (n > 0), by multiply-shift (Lemire), no division.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        mul_hi(self.next_u64(), n)
    }
    /// Uniform in [0, 1).
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The high 64 bits of x·n. wasm32 has no 64x64->128 multiply: a `u128` product there is a
/// call to compiler-rt's `__multi3`, and a loop of draws took 1.9x native's time in V8 (issue
/// #28). For n < 2^32 the same bits come from two 64-bit products of x's halves:
/// x·n = 2^32·(x_hi·n) + x_lo·n, and x_hi·n + (x_lo·n >> 32) cannot overflow.
#[inline(always)]
fn mul_hi(x: u64, n: u64) -> u64 {
    if cfg!(target_arch = "wasm32") && n >> 32 == 0 {
        mul_hi_halves(x, n)
    } else {
        ((x as u128 * n as u128) >> 64) as u64
    }
}

/// `mul_hi` for n < 2^32 in 64-bit arithmetic (the wasm32 path; tested natively).
#[inline(always)]
fn mul_hi_halves(x: u64, n: u64) -> u64 {
    debug_assert!(n >> 32 == 0);
    ((x >> 32) * n + (((x & 0xFFFF_FFFF) * n) >> 32)) >> 32
}

/// Zipf(theta) over 0..n: rank r has weight 1/(r+1)^theta. Ranks are scattered over the range
/// by a fixed permutation so hot pages are not all adjacent.
///
/// Ranks are grouped in at most `MAX_BUCKETS` buckets (uniform within a bucket); a bucket is
/// drawn in O(1) by Walker's alias method with Vose's construction: one uniform draw picks a
/// column and, from the same 64 bits, a coin against the column's threshold (a binary search of
/// the CDF cost ~20% of a Zipf-heavy run, issue #28).
#[derive(Debug, Clone)]
pub struct Zipf {
    /// Per column: keep the column when the coin is below this (a probability in 2^-64 units).
    keep: Vec<u64>,
    /// Per column: the bucket taken otherwise.
    alias: Vec<u32>,
    n: u64,
    buckets: u64,
}

impl Zipf {
    /// At most this many buckets; within a bucket ranks are uniform.
    const MAX_BUCKETS: u64 = 1 << 16;

    pub fn new(n: u64, theta: f64) -> Zipf {
        let n = n.max(1);
        let buckets = n.min(Self::MAX_BUCKETS);
        let weights = Self::bucket_weights(n, buckets, theta);
        let (keep, alias) = alias_table(&weights);
        Zipf {
            keep,
            alias,
            n,
            buckets,
        }
    }

    /// Relative weight of each bucket: the integral of x^-theta over its rank range (exact
    /// enough, smooth). The antiderivative is taken once per bucket edge: a bucket's upper
    /// edge is the next one's lower edge.
    fn bucket_weights(n: u64, buckets: u64, theta: f64) -> Vec<f64> {
        let log = (theta - 1.0).abs() < 1e-9;
        let antiderivative = |x: f64| {
            if log {
                libm::log(x)
            } else {
                libm::pow(x, 1.0 - theta)
            }
        };
        let edges: Vec<f64> = (0..=buckets)
            .map(|b| antiderivative((b * n / buckets) as f64 + 1.0))
            .collect();
        let scale = if log { 1.0 } else { 1.0 - theta };
        edges.windows(2).map(|w| (w[1] - w[0]) / scale).collect()
    }

    /// The first rank of bucket `b`, b·n/buckets, without dividing: there is either one rank
    /// a bucket or MAX_BUCKETS buckets, a power of two (without its two divisions a sample,
    /// the reclaim-heavy MGLRU Zipf bench runs ~3% faster, issue #28).
    #[inline]
    fn bucket_start(&self, b: u64) -> u64 {
        if self.buckets == self.n {
            b
        } else {
            (b * self.n) >> Self::MAX_BUCKETS.trailing_zeros()
        }
    }

    /// The high half of x·buckets is the column, the low half a uniform coin. With a power of
    /// two of buckets (always, past MAX_BUCKETS ranks) both are shifts of x: no product.
    #[inline]
    fn column(&self, x: u64) -> (usize, u64) {
        if self.buckets.is_power_of_two() {
            let k = self.buckets.trailing_zeros();
            (x.checked_shr(64 - k).unwrap_or(0) as usize, x << k)
        } else {
            (
                mul_hi(x, self.buckets) as usize,
                x.wrapping_mul(self.buckets),
            )
        }
    }

    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        let (col, coin) = self.column(rng.next_u64());
        let b = if coin < self.keep[col] {
            col as u64
        } else {
            self.alias[col] as u64
        };
        let lo = self.bucket_start(b);
        let hi = self.bucket_start(b + 1).max(lo + 1);
        let rank = lo + rng.below(hi - lo);
        scatter(rank, self.n)
    }
}

/// Vose's alias table for `weights` (not all zero): column i keeps itself with probability
/// keep[i] / 2^64 and gives way to alias[i] otherwise, so that each index is drawn in
/// proportion to its weight.
fn alias_table(weights: &[f64]) -> (Vec<u64>, Vec<u32>) {
    let k = weights.len();
    let total: f64 = weights.iter().sum();
    // Scaled so that the mean column holds 1.0.
    let mut p: Vec<f64> = weights.iter().map(|w| w * k as f64 / total).collect();
    let mut alias: Vec<u32> = (0..k as u32).collect();
    let (mut small, mut large): (Vec<u32>, Vec<u32>) =
        (0..k as u32).partition(|&i| p[i as usize] < 1.0);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        alias[s as usize] = l;
        // The large column gives what the small one lacks.
        p[l as usize] = (p[l as usize] + p[s as usize]) - 1.0;
        if p[l as usize] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // Whatever is left is 1.0 up to rounding: those columns keep themselves always.
    for &i in large.iter().chain(small.iter()) {
        p[i as usize] = 1.0;
    }
    let keep = p
        .iter()
        .map(|&q| {
            if q >= 1.0 {
                u64::MAX
            } else {
                (q * 18_446_744_073_709_551_616.0) as u64
            }
        })
        .collect();
    (keep, alias)
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

    fn product(x: u64, n: u64) -> (u64, u64) {
        let p = x as u128 * n as u128;
        ((p >> 64) as u64, p as u64)
    }

    /// wasm32's path gives the 128-bit product's high half for every n below 2^32, so a run
    /// draws the same numbers on both targets.
    #[test]
    fn mul_hi_halves_is_the_products_high_half() {
        let edges = [0, 1, 2, 0xFFFF_FFFF, 0x1_0000_0000, u64::MAX - 1, u64::MAX];
        let ns = [
            1,
            2,
            3,
            16,
            25_600,
            65_536,
            1_000_003,
            0x8000_0000,
            0xFFFF_FFFF,
        ];
        let mut r = Rng::new(3);
        for &n in &ns {
            for x in edges.into_iter().chain((0..10_000).map(|_| r.next_u64())) {
                assert_eq!(mul_hi_halves(x, n), product(x, n).0, "x={x:#x} n={n}");
            }
        }
    }

    /// The Zipf column and coin by shifts equal the product's halves, for one bucket and for
    /// MAX_BUCKETS; with another count the product is taken.
    #[test]
    fn zipf_column_is_the_products_halves() {
        let mut r = Rng::new(5);
        for (n, buckets) in [(1, 1), (1 << 20, Zipf::MAX_BUCKETS), (25_600, 25_600)] {
            let z = Zipf::new(n, 0.9);
            assert_eq!(z.buckets, buckets);
            for x in [0, 1, u64::MAX]
                .into_iter()
                .chain((0..10_000).map(|_| r.next_u64()))
            {
                let (hi, lo) = product(x, buckets);
                assert_eq!(z.column(x), (hi as usize, lo), "n={n} x={x:#x}");
            }
        }
    }

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
    /// The alias table gives each bucket exactly its share: the mass of column b kept plus what
    /// other columns hand to b equals b's weight (to rounding).
    #[test]
    fn alias_table_reproduces_the_weights() {
        for (n, theta) in [
            (1u64, 0.9),
            (7, 0.5),
            (1000, 0.9),
            (1 << 20, 0.9),
            (300_000, 1.0),
        ] {
            let buckets = n.min(Zipf::MAX_BUCKETS);
            let w = Zipf::bucket_weights(n, buckets, theta);
            let total: f64 = w.iter().sum();
            let (keep, alias) = alias_table(&w);
            let k = w.len() as f64;
            let mut mass = vec![0.0f64; w.len()];
            for i in 0..w.len() {
                let q = keep[i] as f64 / 18_446_744_073_709_551_616.0;
                mass[i] += q / k;
                mass[alias[i] as usize] += (1.0 - q) / k;
            }
            for (b, (&m, &wb)) in mass.iter().zip(&w).enumerate() {
                let want = wb / total;
                assert!(
                    (m - want).abs() <= 1e-12 + want * 1e-9,
                    "n {n} theta {theta} bucket {b}: {m} vs {want}"
                );
            }
        }
    }
    /// Sampled frequencies of single ranks follow 1/(r+1)^theta (n small: a bucket per rank).
    #[test]
    fn zipf_samples_follow_the_law() {
        let (n, theta, draws) = (100u64, 0.9, 2_000_000u32);
        let z = Zipf::new(n, theta);
        let mut r = Rng::new(5);
        let mut counts = vec![0u32; n as usize];
        for _ in 0..draws {
            counts[z.sample(&mut r) as usize] += 1;
        }
        let norm: f64 = (1..=n).map(|r| libm::pow(r as f64, -theta)).sum();
        for rank in [0u64, 1, 9, 99] {
            // Bucket rank's weight is the integral over [rank+1, rank+2): its probability.
            let w = Zipf::bucket_weights(n, n, theta);
            let p = w[rank as usize] / w.iter().sum::<f64>();
            let got = counts[scatter(rank, n) as usize] as f64 / draws as f64;
            let sd = (p * (1.0 - p) / draws as f64).sqrt();
            assert!((got - p).abs() < 5.0 * sd, "rank {rank}: {got} vs {p}");
            // And the integral stays near the discrete law's 1/(r+1)^theta.
            let discrete = libm::pow(rank as f64 + 1.0, -theta) / norm;
            assert!(
                (p - discrete).abs() / discrete < 0.5,
                "rank {rank}: {p} vs {discrete}"
            );
        }
    }
    #[test]
    fn bucket_start_is_the_division() {
        for n in [
            1u64,
            2,
            1000,
            65_535,
            65_536,
            65_537,
            100_003,
            1 << 20,
            3_000_001,
        ] {
            let z = Zipf::new(n, 0.9);
            for b in 0..=z.buckets {
                assert_eq!(z.bucket_start(b), b * n / z.buckets, "n {n} bucket {b}");
            }
        }
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

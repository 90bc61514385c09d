//! Zone watermarks (mm/page_alloc.c `__setup_per_zone_wmarks`, `calculate_min_free_kbytes`,
//! as in 5.x-6.x), for one node with one zone.

/// min/low/high in frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Watermarks {
    pub min: u64,
    pub low: u64,
    pub high: u64,
}

/// Integer square root (`int_sqrt`).
pub fn int_sqrt(x: u64) -> u64 {
    if x < 2 {
        return x;
    }
    let mut r = (x as f64).sqrt() as u64;
    while r * r > x {
        r -= 1;
    }
    while (r + 1) * (r + 1) <= x {
        r += 1;
    }
    r
}

/// `init_per_zone_wmark_min`: sqrt(lowmem_kbytes * 16), clamped to [128, 262144] kB.
/// Abstracted: the upper bound was 65536 kB until "mm/page_alloc: increase default
/// min_free_kbytes bound" (posted February 2020, merged for 5.7 or 5.8); every preset uses the
/// newer bound, so older presets differ from their kernel above 256 GiB of RAM.
pub fn default_min_free_kbytes(ram_pages: u64) -> u64 {
    let kb = ram_pages * 4;
    int_sqrt(kb * 16).clamp(128, 262_144)
}

impl Watermarks {
    /// `__setup_per_zone_wmarks` for a single zone of `ram_pages` pages:
    /// min = min_free_kbytes in pages; from 4.6 gap = max(min/4, managed * scale_factor /
    /// 10000), low = min + gap, high = low + gap; before (`watermark_scale_factor` is `None`),
    /// low = min + min/4 and high = min + min/2. In frames of `scale` pages (rounded up).
    pub fn compute(
        ram_pages: u64,
        min_free_kbytes: u64,
        watermark_scale_factor: Option<u32>,
        scale: u64,
    ) -> Watermarks {
        let min = min_free_kbytes / 4;
        let (low, high) = match watermark_scale_factor {
            Some(f) => {
                let gap = (min / 4).max(ram_pages.saturating_mul(f as u64) / 10_000);
                (min + gap, min + 2 * gap)
            }
            // <= 4.5: low = min + min/4, high = min + min/2.
            None => (min + min / 4, min + min / 2),
        };
        let fr = |p: u64| p.div_ceil(scale);
        Watermarks {
            min: fr(min),
            low: fr(low),
            high: fr(high),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn two_gigabyte_machine_matches_the_kernel_formula() {
        let pages = 2u64 << 18; // 2 GiB
        let mfk = default_min_free_kbytes(pages);
        assert_eq!(mfk, int_sqrt(2 * 1024 * 1024 * 16)); // 5792 kB
        let w = Watermarks::compute(pages, mfk, Some(10), 1);
        assert_eq!(w.min, 5792 / 4); // 1448 pages
        let gap = (pages * 10 / 10_000).max(w.min / 4); // 524
        assert_eq!((w.low, w.high), (w.min + gap, w.min + 2 * gap));
    }
    #[test]
    fn before_4_6_the_gaps_are_a_quarter_of_min() {
        // 4 GiB: min_free_kbytes = int_sqrt(4 Mi kB * 16) = 8192 kB, min = 2048 pages.
        let pages = 4u64 << 18;
        let mfk = default_min_free_kbytes(pages);
        assert_eq!(mfk, 8192);
        let old = Watermarks::compute(pages, mfk, None, 1);
        assert_eq!((old.min, old.low, old.high), (2048, 2560, 3072));
        // From 4.6 the default factor 10 gives 1048 pages, more than min/4 = 512.
        let new = Watermarks::compute(pages, mfk, Some(10), 1);
        assert_eq!((new.min, new.low, new.high), (2048, 3096, 4144));
        // high is min + min/2, not min + 2 * (min/4): 1032 kB gives min 258, high 387.
        assert_eq!(
            Watermarks::compute(pages, 1032, None, 1),
            Watermarks {
                min: 258,
                low: 322,
                high: 387
            }
        );
        // On a small machine min/4 is the larger gap either way: 64 MiB, min = 256 pages.
        let small = 16u64 << 10;
        let mfk = default_min_free_kbytes(small);
        assert_eq!(
            Watermarks::compute(small, mfk, None, 1),
            Watermarks::compute(small, mfk, Some(10), 1)
        );
    }
    #[test]
    fn int_sqrt_is_floor() {
        for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 10, 100, 99, 1 << 40] {
            let r = int_sqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x);
        }
    }
}

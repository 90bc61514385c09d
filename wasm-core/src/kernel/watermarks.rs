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

/// `calculate_min_free_kbytes`: sqrt(lowmem_kbytes * 16), clamped to [128, 262144] kB
/// (the 5.8+ upper clamp; it only matters above ~4 TB of RAM).
pub fn default_min_free_kbytes(ram_pages: u64) -> u64 {
    let kb = ram_pages * 4;
    int_sqrt(kb * 16).clamp(128, 262_144)
}

impl Watermarks {
    /// `__setup_per_zone_wmarks` for a single zone of `ram_pages` pages:
    /// min = min_free_kbytes in pages; gap = max(min/4, managed * scale_factor / 10000);
    /// low = min + gap; high = low + gap. Converted to frames of `scale` pages (rounded up).
    pub fn compute(
        ram_pages: u64,
        min_free_kbytes: u64,
        watermark_scale_factor: u32,
        scale: u64,
    ) -> Watermarks {
        let min = min_free_kbytes / 4;
        let gap = (min / 4).max(ram_pages * watermark_scale_factor as u64 / 10_000);
        let low = min + gap;
        let high = low + gap;
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
        let w = Watermarks::compute(pages, mfk, 10, 1);
        assert_eq!(w.min, 5792 / 4); // 1448 pages
        let gap = (pages * 10 / 10_000).max(w.min / 4); // 524
        assert_eq!((w.low, w.high), (w.min + gap, w.min + 2 * gap));
    }
    #[test]
    fn int_sqrt_is_floor() {
        for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 10, 100, 99, 1 << 40] {
            let r = int_sqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x);
        }
    }
}

//! Integer helpers the kernel keeps in lib/ (lib/math/int_sqrt.c), shared by the model (mm/)
//! and the devices.

/// `int_sqrt`: the floor of the square root, in integers (bit-identical everywhere).
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

/// The full 128-bit product of two u64s as (high, low) halves — exact on every target.
///
/// wasm32 has no 64x64→128 multiply, so a `u128` product there is a call to the compiler's
/// `__multi3` (2.4% of a wasm reclaim run, issue #28); four 32-bit partial products inline
/// instead. Native targets keep the one-instruction `u128` product.
#[inline]
pub fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    #[cfg(target_arch = "wasm32")]
    {
        mul_wide_limbs(a, b)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let p = a as u128 * b as u128;
        ((p >> 64) as u64, p as u64)
    }
}

/// Schoolbook multiplication in 32-bit limbs; what `mul_wide` runs in wasm.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline]
fn mul_wide_limbs(a: u64, b: u64) -> (u64, u64) {
    let (a_lo, a_hi) = (a & 0xffff_ffff, a >> 32);
    let (b_lo, b_hi) = (b & 0xffff_ffff, b >> 32);
    let (ll, lh, hl, hh) = (a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi);
    // The middle column: three terms below 2^32 each, so no overflow.
    let mid = (ll >> 32) + (lh & 0xffff_ffff) + (hl & 0xffff_ffff);
    let hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    (hi, (mid << 32) | (ll & 0xffff_ffff))
}

/// `a * b / d` (d > 0) without losing the product's high bits, as the kernel's
/// `mul_u64_u64_div_u64` (include/linux/math64.h): in u64 when the product fits — nearly
/// always — and in u128 (a compiler call in wasm) only when it does not. Same result either way.
#[inline]
pub fn mul_div(a: u64, b: u64, d: u64) -> u64 {
    match a.checked_mul(b) {
        Some(p) => p / d,
        None => ((a as u128 * b as u128) / d as u128) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limb product is what the wasm build runs; check it natively against u128, with the
    /// edges where a carry crosses a limb.
    #[test]
    fn mul_wide_is_exact() {
        let edges = [
            0u64,
            1,
            2,
            0xffff_ffff,
            0x1_0000_0000,
            u64::MAX,
            u64::MAX - 1,
            0x9E37_79B9_7F4A_7C15,
        ];
        let mut rng = crate::rng::Rng::new(7);
        let mut pairs: Vec<(u64, u64)> = edges
            .iter()
            .flat_map(|&a| edges.iter().map(move |&b| (a, b)))
            .collect();
        pairs.extend((0..10_000).map(|_| (rng.next_u64(), rng.next_u64())));
        for (a, b) in pairs {
            let p = a as u128 * b as u128;
            let want = ((p >> 64) as u64, p as u64);
            assert_eq!(mul_wide(a, b), want, "{a} * {b}");
            assert_eq!(mul_wide_limbs(a, b), want, "limbs {a} * {b}");
        }
    }

    #[test]
    fn mul_div_matches_u128() {
        let mut rng = crate::rng::Rng::new(9);
        for i in 0..10_000u64 {
            // Half the pairs overflow u64, half do not.
            let a = rng.next_u64() >> (i % 2 * 40);
            let b = rng.next_u64() >> 24;
            let d = rng.next_u64() >> (i % 3 * 20) | 1;
            assert_eq!(
                mul_div(a, b, d),
                ((a as u128 * b as u128) / d as u128) as u64
            );
        }
    }

    #[test]
    fn int_sqrt_is_floor() {
        for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 10, 100, 99, 1 << 40] {
            let r = int_sqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x);
        }
    }
}

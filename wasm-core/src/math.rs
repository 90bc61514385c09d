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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_sqrt_is_floor() {
        for x in [0u64, 1, 2, 3, 4, 15, 16, 17, 10, 100, 99, 1 << 40] {
            let r = int_sqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x);
        }
    }
}

//! Sizes and durations with units, as people write them in scenario files.
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A size in bytes. Accepts "2GiB", "200MB", "4KiB", "512B", "1.5GiB" or a plain integer (bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Size(pub u64);

/// The longest duration a scenario may write, 2^60 ns (~36.5 years): any clock plus a few such
/// durations stays within 64 bits.
pub const MAX_DURATION_NS: u64 = 1 << 60;

/// A duration in nanoseconds. Accepts "10s", "5ms", "250us", "100ns", "2min" or a plain number (seconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Duration(pub u64);

impl Size {
    pub fn bytes(self) -> u64 {
        self.0
    }
    /// Parse a size with a unit; the error says what is allowed.
    pub fn parse(s: &str) -> Result<Size, String> {
        let (num, unit) = split_number(s)?;
        let mult: f64 = match unit {
            "" | "B" => 1.0,
            "K" | "KB" | "kB" => 1e3,
            "KiB" | "k" => 1024.0,
            "M" | "MB" => 1e6,
            "MiB" => 1048576.0,
            "G" | "GB" => 1e9,
            "GiB" => 1073741824.0,
            "T" | "TB" => 1e12,
            "TiB" => 1099511627776.0,
            _ => {
                return Err(format!(
                "unknown size unit {unit:?} in {s:?}; use B, KB, KiB, MB, MiB, GB, GiB, TB or TiB"
            ))
            }
        };
        let v = num * mult;
        if !(0.0..1.8e19).contains(&v) {
            return Err(format!("size {s:?} is out of range"));
        }
        Ok(Size(v.round() as u64))
    }
}

impl Duration {
    pub const fn from_ns(ns: u64) -> Duration {
        Duration(ns)
    }
    pub fn ns(self) -> u64 {
        self.0
    }
    pub fn secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn parse(s: &str) -> Result<Duration, String> {
        let (num, unit) = split_number(s)?;
        let mult: f64 = match unit {
            "ns" => 1.0,
            "us" | "µs" => 1e3,
            "ms" => 1e6,
            "" | "s" => 1e9,
            "min" => 60e9,
            "h" => 3600e9,
            _ => {
                return Err(format!(
                    "unknown time unit {unit:?} in {s:?}; use ns, us, ms, s, min or h"
                ))
            }
        };
        let v = num * mult;
        if !(0.0..=MAX_DURATION_NS as f64).contains(&v) {
            return Err(format!(
                "duration {s:?} is out of range (at most 2^60 ns, about 36 years)"
            ));
        }
        Ok(Duration(v.round() as u64))
    }
}

fn split_number(s: &str) -> Result<(f64, &str), String> {
    let t = s.trim();
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_'))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let (n, u) = t.split_at(end);
    let n: String = n.chars().filter(|c| *c != '_').collect();
    let num: f64 = n
        .parse()
        .map_err(|_| format!("expected a number with a unit, got {s:?}"))?;
    if !num.is_finite() {
        return Err(format!("expected a finite number, got {s:?}"));
    }
    Ok((num, u.trim()))
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= 1 << 30 && b % (1 << 20) == 0 {
            write!(f, "{}MiB", b >> 20)
        } else if b % 1024 == 0 && b > 0 {
            write!(f, "{}KiB", b >> 10)
        } else {
            write!(f, "{b}B")
        }
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}ns", self.0)
    }
}

struct NumOrStr<T>(std::marker::PhantomData<T>);

macro_rules! unit_serde {
    ($t:ident, $expect:expr, $from_int:expr, $from_float:expr) => {
        impl<'de> de::Visitor<'de> for NumOrStr<$t> {
            type Value = $t;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str($expect)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<$t, E> {
                $t::parse(v).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<$t, E> {
                if v < 0 {
                    return Err(E::custom(format!("must not be negative, got {v}")));
                }
                self.visit_u64(v as u64)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<$t, E> {
                $from_int(v).ok_or_else(|| E::custom(format!("{v} is out of range")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<$t, E> {
                if !(v >= 0.0 && v.is_finite()) {
                    return Err(E::custom(format!(
                        "must be a non-negative finite number, got {v}"
                    )));
                }
                $from_float(v).ok_or_else(|| E::custom(format!("{v} is out of range")))
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                d.deserialize_any(NumOrStr::<$t>(std::marker::PhantomData))
            }
        }
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(&self.to_string())
            }
        }
    };
}

// Numbers that do not fit are errors, as in `parse`: a silent saturation to u64::MAX would
// turn a typo into a 584-year run.
unit_serde!(
    Size,
    "a size such as \"2GiB\", \"200MB\" or a byte count",
    |v: u64| Some(Size(v)),
    |v: f64| in_u64_range(v.round()).map(Size)
);
unit_serde!(
    Duration,
    "a duration such as \"10s\", \"5ms\", \"250us\" or a number of seconds",
    |v: u64| v
        .checked_mul(1_000_000_000)
        .filter(|&ns| ns <= MAX_DURATION_NS)
        .map(Duration),
    |v: f64| in_u64_range((v * 1e9).round())
        .filter(|&ns| ns <= MAX_DURATION_NS)
        .map(Duration)
);

/// `v` as u64 when it is a finite value in 0..=u64::MAX (the same bound as `parse`).
fn in_u64_range(v: f64) -> Option<u64> {
    (0.0..1.8e19).contains(&v).then_some(v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn sizes_with_units() {
        assert_eq!(Size::parse("2GiB").unwrap().0, 2 << 30);
        assert_eq!(Size::parse("200MB").unwrap().0, 200_000_000);
        assert_eq!(Size::parse("1.5KiB").unwrap().0, 1536);
        assert_eq!(Size::parse("4096").unwrap().0, 4096);
        assert!(Size::parse("12 parsecs")
            .unwrap_err()
            .contains("unknown size unit"));
        assert!(Size::parse("GiB").is_err());
    }
    #[test]
    fn durations_with_units() {
        assert_eq!(Duration::parse("10s").unwrap().0, 10_000_000_000);
        assert_eq!(Duration::parse("250us").unwrap().0, 250_000);
        assert_eq!(Duration::parse("1.5").unwrap().0, 1_500_000_000);
        assert!(Duration::parse("5 fortnights").is_err());
    }
    #[test]
    fn plain_numbers_out_of_range_are_errors() {
        use serde::de::{value::Error, IntoDeserializer};
        let secs = |v: u64| Duration::deserialize(IntoDeserializer::<Error>::into_deserializer(v));
        assert_eq!(secs(2).unwrap().0, 2_000_000_000);
        assert!(secs(u64::MAX / 10)
            .unwrap_err()
            .to_string()
            .contains("out of range"));
        let float_secs =
            |v: f64| Duration::deserialize(IntoDeserializer::<Error>::into_deserializer(v));
        assert!(float_secs(1e30).is_err());
        let bytes = |v: f64| Size::deserialize(IntoDeserializer::<Error>::into_deserializer(v));
        assert_eq!(bytes(1.5).unwrap().0, 2);
        assert!(bytes(1e30).is_err());
    }
}

//! Numbers from the command line (`tinh match`, `tinh genopenings`), each within its range:
//! a value outside it, or not a number, is a one-line error naming the flag and the range.

use crate::search::MAX_TIME_MS;
use std::fmt::Display;
use std::str::FromStr;

/// `v` parsed as a number in `lo..=hi`, or a one-line error naming `what` and the range.
pub fn in_range<T>(what: &str, v: &str, lo: T, hi: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    match v.parse::<T>() {
        Ok(n) if lo <= n && n <= hi => Ok(n),
        Ok(_) => Err(format!("{what}: {v} is out of range {lo}..={hi}")),
        Err(_) => Err(format!(
            "{what}: '{v}' is not a number (expected {lo}..={hi})"
        )),
    }
}

/// `v` parsed as a number of at least `lo` (the type's maximum above).
pub fn at_least<T>(what: &str, v: &str, lo: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    match v.parse::<T>() {
        Ok(n) if lo <= n => Ok(n),
        Ok(_) => Err(format!("{what}: {v} is out of range (at least {lo})")),
        Err(_) => Err(format!("{what}: '{v}' is not a number (at least {lo})")),
    }
}

/// Seconds (as cutechess writes them: `0.5`, `10`) to milliseconds, `lo_ms..=MAX_TIME_MS`.
pub fn seconds_ms(what: &str, v: &str, lo_ms: u64) -> Result<u64, String> {
    let max_s = (MAX_TIME_MS / 1000) as f64;
    let s: f64 = in_range(what, v, 0.0, max_s)?;
    let ms = (s * 1000.0).round() as u64;
    if ms < lo_ms {
        return Err(format!("{what}: {v} s is less than {lo_ms} ms"));
    }
    Ok(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_inside_pass_and_outside_say_the_range() {
        assert_eq!(in_range("--games", "5", 1u32, 10), Ok(5));
        assert_eq!(
            in_range("--games", "0", 1u32, 10),
            Err("--games: 0 is out of range 1..=10".to_string())
        );
        assert_eq!(
            in_range("--games", "-1", 1u32, 10),
            Err("--games: '-1' is not a number (expected 1..=10)".to_string())
        );
        assert!(in_range("--x", "nan", 0.0, 1.0).is_err());
        assert_eq!(at_least("--nodes", "7", 1u64), Ok(7));
        assert!(at_least("--nodes", "0", 1u64).is_err());
        assert_eq!(seconds_ms("--st", "0.5", 1), Ok(500));
        assert!(seconds_ms("--st", "0.0001", 1).is_err());
        assert!(seconds_ms("--st", "86401", 1).is_err());
    }
}

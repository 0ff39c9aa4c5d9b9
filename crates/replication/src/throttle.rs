//! Repeating log lines at most once per interval, saying how many were held back: a
//! condition that lasts (a member that needs SST, a peer that refuses connections) is
//! reported, not repeated every round.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Per-key rate limit for log lines.
pub struct Throttle {
    interval: Duration,
    last: HashMap<String, (Instant, u64)>,
}

impl Throttle {
    /// At most one line per key and `interval`.
    pub fn new(interval: Duration) -> Throttle {
        Throttle {
            interval,
            last: HashMap::new(),
        }
    }

    /// Some(lines held back since the last one) when a line for `key` may be logged now.
    pub fn allow(&mut self, key: &str) -> Option<u64> {
        self.allow_at(key, Instant::now())
    }

    fn allow_at(&mut self, key: &str, now: Instant) -> Option<u64> {
        match self.last.get_mut(key) {
            Some((at, held)) if now.duration_since(*at) < self.interval => {
                *held += 1;
                None
            }
            Some((at, held)) => {
                let n = *held;
                *at = now;
                *held = 0;
                Some(n)
            }
            None => {
                self.last.insert(key.to_string(), (now, 0));
                Some(0)
            }
        }
    }
}

/// ` (repeated N times since)` for a count of held-back lines, or nothing.
pub fn repeated(held: u64) -> String {
    if held == 0 {
        String::new()
    } else {
        format!(" (repeated {held} times since the last report)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_interval_with_the_count_held_back() {
        let mut t = Throttle::new(Duration::from_secs(10));
        let t0 = Instant::now();
        assert_eq!(t.allow_at("a", t0), Some(0));
        assert_eq!(t.allow_at("a", t0 + Duration::from_secs(1)), None);
        assert_eq!(t.allow_at("b", t0 + Duration::from_secs(1)), Some(0));
        assert_eq!(t.allow_at("a", t0 + Duration::from_secs(2)), None);
        assert_eq!(t.allow_at("a", t0 + Duration::from_secs(11)), Some(2));
        assert_eq!(t.allow_at("a", t0 + Duration::from_secs(12)), None);
        assert_eq!(repeated(2), " (repeated 2 times since the last report)");
    }
}

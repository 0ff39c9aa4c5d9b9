//! MariaDB's IPv4 address functions: `INET_ATON(s)`, the number of a dotted address, and
//! `INET_NTOA(n)`, the dotted address of a number. `INET_ATON` parses as MariaDB does:
//! each part at most 255, a short address (`1.2.3`) puts its last part in the low byte,
//! more than four parts keep shifting, anything else (an empty string, a trailing dot, a
//! letter) is NULL.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};

use super::math::{num, Num};
use super::{text_of, PURE};

/// `INET_ATON(s)`, or None where MariaDB gives NULL.
fn aton(s: &str) -> Option<u64> {
    let (mut result, mut part, mut dots) = (0u64, 0u64, 0u32);
    if s.is_empty() || s.ends_with('.') {
        return None;
    }
    for c in s.bytes() {
        match c {
            b'0'..=b'9' => {
                part = part * 10 + u64::from(c - b'0');
                if part > 255 {
                    return None;
                }
            }
            b'.' => {
                dots += 1;
                result = (result << 8) + part;
                part = 0;
            }
            _ => return None,
        }
    }
    if (1..=2).contains(&dots) {
        result <<= 8 * (3 - dots);
    }
    Some((result << 8) + part)
}

/// `INET_NTOA(n)`: None outside 0..=2^32-1.
fn ntoa(n: i64) -> Option<String> {
    let n = u32::try_from(n).ok()?;
    Some(std::net::Ipv4Addr::from(n).to_string())
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("inet_aton", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            v => aton(&text_of(v)).map(|n| n as i64),
        })
    })?;
    c.create_scalar_function("inet_ntoa", 1, PURE, |ctx| {
        Ok(num(ctx, 0).map(Num::int).and_then(ntoa))
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_as_mariadb() {
        // Values from MariaDB 10.11.
        assert_eq!(aton("192.168.0.1"), Some(3_232_235_521));
        assert_eq!(aton("1.2.3"), Some(16_908_291));
        assert_eq!(aton("1.2.3.4.5"), Some(4_328_719_365));
        assert_eq!(aton("5"), Some(5));
        assert_eq!(aton("122.256"), None);
        assert_eq!(aton("122.226."), None);
        assert_eq!(aton(""), None);
        assert_eq!(aton("1.a"), None);
        assert_eq!(ntoa(3_232_235_521).as_deref(), Some("192.168.0.1"));
        assert_eq!(ntoa(-1), None);
        assert_eq!(ntoa(4_294_967_296), None);
    }
}

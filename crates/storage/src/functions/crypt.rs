//! MariaDB's password hashes, `PASSWORD(str)` (`*` and the hex of SHA1(SHA1(str))) and
//! `OLD_PASSWORD(str)` (the pre-4.1 hash), and `ENCODE(str, key)` / `DECODE(crypt, key)`:
//! the old reversible cipher (`SQL_CRYPT`). The key is hashed as the pre-4.1 password hash (spaces and tabs skipped)
//! into the seeds of MariaDB's small random generator, which shuffles a 256-byte
//! substitution table and then yields a running XOR shift per byte. Reproduced exactly, so
//! that data encoded by MariaDB decodes here and the other way round.

use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::{bytes_of, PURE};

/// MariaDB's `my_rnd` generator.
struct Rnd {
    seed1: u64,
    seed2: u64,
}

const RND_MAX: u64 = 0x3FFF_FFFF;

impl Rnd {
    fn new(seed1: u64, seed2: u64) -> Rnd {
        Rnd {
            seed1: seed1 % RND_MAX,
            seed2: seed2 % RND_MAX,
        }
    }

    /// The next value in [0, 1), scaled to a byte as SQL_CRYPT does.
    fn next_byte(&mut self) -> u8 {
        self.seed1 = (self.seed1 * 3 + self.seed2) % RND_MAX;
        self.seed2 = (self.seed1 + self.seed2 + 33) % RND_MAX;
        (self.seed1 as f64 / RND_MAX as f64 * 255.0) as u8
    }
}

/// The pre-4.1 password hash (`hash_password`): two 31-bit seeds.
fn hash_password(key: &[u8]) -> (u64, u64) {
    let (mut nr, mut add, mut nr2) = (1_345_345_333u64, 7u64, 0x1234_5671u64);
    for &c in key.iter().filter(|c| **c != b' ' && **c != b'\t') {
        let tmp = c as u64;
        nr ^= (((nr & 63) + add).wrapping_mul(tmp)).wrapping_add(nr << 8);
        nr2 = nr2.wrapping_add((nr2 << 8) ^ nr);
        add += tmp;
    }
    let low31 = (1u64 << 31) - 1;
    (nr & low31, nr2 & low31)
}

/// One SQL_CRYPT state for a key.
struct SqlCrypt {
    rnd: Rnd,
    encode: [u8; 256],
    decode: [u8; 256],
    shift: u8,
}

impl SqlCrypt {
    fn new(key: &[u8]) -> SqlCrypt {
        let (s1, s2) = hash_password(key);
        let mut rnd = Rnd::new(s1, s2);
        let mut decode: [u8; 256] = std::array::from_fn(|i| i as u8);
        for i in 0..256 {
            let idx = rnd.next_byte() as usize;
            decode.swap(idx, i);
        }
        let mut encode = [0u8; 256];
        for (i, d) in decode.iter().enumerate() {
            encode[*d as usize] = i as u8;
        }
        SqlCrypt {
            rnd,
            encode,
            decode,
            shift: 0,
        }
    }

    fn encode(&mut self, data: &[u8]) -> Vec<u8> {
        data.iter()
            .map(|&b| {
                self.shift ^= self.rnd.next_byte();
                let out = self.encode[b as usize] ^ self.shift;
                self.shift ^= b;
                out
            })
            .collect()
    }

    fn decode(&mut self, data: &[u8]) -> Vec<u8> {
        data.iter()
            .map(|&b| {
                self.shift ^= self.rnd.next_byte();
                let out = self.decode[(b ^ self.shift) as usize];
                self.shift ^= out;
                out
            })
            .collect()
    }
}

/// `PASSWORD(s)`: the 4.1 hash, `*` and 40 upper-case hex digits; empty for an empty
/// string and for NULL, as in MariaDB.
fn password(s: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    if s.is_empty() {
        return String::new();
    }
    let twice = Sha1::digest(Sha1::digest(s));
    std::iter::once("*".to_string())
        .chain(twice.iter().map(|b| format!("{b:02X}")))
        .collect()
}

/// `OLD_PASSWORD(s)`: the pre-4.1 hash, its two seeds as 16 hex digits.
fn old_password(s: &[u8]) -> String {
    if s.is_empty() {
        return String::new();
    }
    let (a, b) = hash_password(s);
    format!("{a:08x}{b:08x}")
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("password", 1, PURE, |ctx| {
        Ok(password(&bytes_of(ctx.get_raw(0))))
    })?;
    c.create_scalar_function("old_password", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            v => Some(old_password(&bytes_of(v))),
        })
    })?;
    for (name, encoding) in [("encode", true), ("decode", false)] {
        c.create_scalar_function(name, 2, PURE, move |ctx| {
            let (data, key) = match (ctx.get_raw(0), ctx.get_raw(1)) {
                (ValueRef::Null, _) | (_, ValueRef::Null) => return Ok(None),
                (d, k) => (bytes_of(d), bytes_of(k)),
            };
            let mut crypt = SqlCrypt::new(&key);
            if encoding {
                return Ok(Some(Value::Blob(crypt.encode(&data))));
            }
            // Decoded text compares with text, as MariaDB's binary string does.
            Ok(Some(match String::from_utf8(crypt.decode(&data)) {
                Ok(text) => Value::Text(text),
                Err(e) => Value::Blob(e.into_bytes()),
            }))
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_mariadb_and_round_trips() {
        // Values from MariaDB 10.11: HEX(ENCODE('abcdef', 'monty')), ...
        let hex = |v: Vec<u8>| v.iter().map(|b| format!("{b:02X}")).collect::<String>();
        assert_eq!(
            hex(SqlCrypt::new(b"monty").encode(b"abcdef")),
            "99F751CDF08B"
        );
        assert_eq!(
            hex(SqlCrypt::new(b"pass word").encode(b"hello world")),
            "9B29A61D1D073EC2C24BDF"
        );
        assert_eq!(hex(SqlCrypt::new(b"").encode(b"abc")), "C45BFA");
        let secret = SqlCrypt::new(b"k").encode(b"some text");
        assert_eq!(
            password(b"my_pw"),
            "*F305E8EC27734F687F2EB6EC03CF0F7AF27C18E1"
        );
        assert_eq!(password(b""), "");
        assert_eq!(old_password(b"abc"), "7cd2b5942be28759");
        assert_eq!(SqlCrypt::new(b"k").decode(&secret), b"some text");
    }
}

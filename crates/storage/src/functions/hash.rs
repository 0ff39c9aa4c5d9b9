//! MySQL's digest functions: `MD5`, `SHA2(s, bits)` and `CRC32` (`SHA1` is in `mod.rs`).
//!
//! Digests are lower-case hex text, as in MariaDB; `SHA2` takes 224, 256 (or 0), 384 or 512
//! bits and gives NULL for any other length; `CRC32` is the unsigned IEEE checksum and
//! `CRC32C` the Castagnoli one, each optionally continuing a previous checksum.

use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use sha2::Digest;

use super::{bytes_of, hex, PURE};

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("md5", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            v => Some(hex(&md5::Md5::digest(bytes_of(v)))),
        })
    })?;
    c.create_scalar_function("sha2", 2, PURE, |ctx| {
        let data = match ctx.get_raw(0) {
            ValueRef::Null => return Ok(None),
            v => bytes_of(v),
        };
        let bits = super::math::num(ctx, 1).map_or(0, |n| n.int());
        Ok(match bits {
            224 => Some(hex(&sha2::Sha224::digest(data))),
            0 | 256 => Some(hex(&sha2::Sha256::digest(data))),
            384 => Some(hex(&sha2::Sha384::digest(data))),
            512 => Some(hex(&sha2::Sha512::digest(data))),
            _ => None,
        })
    })?;
    for (name, castagnoli) in [("crc32", false), ("crc32c", true)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| {
            // CRC32([previous crc, ] s): the checksum of s, continuing the previous one.
            let (init, data) = match ctx.len() {
                1 => (Some(0), ctx.get_raw(0)),
                2 => (
                    super::math::num(ctx, 0).map(|n| n.int() as u64 as u32),
                    ctx.get_raw(1),
                ),
                _ => {
                    return Err(rusqlite::Error::UserFunctionError(
                        format!(
                            "Incorrect parameter count in the call to native function '{name}'"
                        )
                        .into(),
                    ))
                }
            };
            let (Some(init), false) = (init, matches!(data, ValueRef::Null)) else {
                return Ok(None);
            };
            let data = bytes_of(data);
            Ok(Some(if castagnoli {
                crc32c(init, &data)
            } else {
                let mut h = crc32fast::Hasher::new_with_initial(init);
                h.update(&data);
                h.finalize()
            } as i64))
        })?;
    }
    Ok(())
}

/// CRC-32C (Castagnoli), continuing from the checksum `init`.
fn crc32c(init: u32, data: &[u8]) -> u32 {
    let mut crc = !init;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0x82F6_3B78
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    #[test]
    fn crc32c_is_castagnoli() {
        assert_eq!(super::crc32c(0, b"123456789"), 3_808_858_755);
        assert_eq!(
            super::crc32c(super::crc32c(0, b"My"), b"SQL"),
            1_398_257_063
        );
    }
}

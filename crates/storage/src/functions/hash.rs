//! MySQL's digest functions: `MD5`, `SHA2(s, bits)` and `CRC32` (`SHA1` is in `mod.rs`).
//!
//! Digests are lower-case hex text, as in MariaDB; `SHA2` takes 224, 256 (or 0), 384 or 512
//! bits and gives NULL for any other length; `CRC32` is the unsigned IEEE checksum.

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
    c.create_scalar_function("crc32", 1, PURE, |ctx| {
        Ok(match ctx.get_raw(0) {
            ValueRef::Null => None,
            v => Some(crc32fast::hash(&bytes_of(v)) as i64),
        })
    })?;
    Ok(())
}

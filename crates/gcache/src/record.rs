//! The on-disk record of one log entry, and the segment header.
//!
//! A segment file is `TGC1` + u32 format version, then records:
//! `u32 len | u32 crc32(body) | body`, body = `u64 index | u64 term | u8 kind |
//! u64 appended_ms | u32 data_len | data | u32 ctx_len | context`, little endian.
//! Decoding checks every length against what is present, so a torn or damaged record is
//! reported, never trusted.

use crate::{EntryKind, LogEntry};

/// Magic and version at the start of every segment.
pub const HEADER: [u8; 8] = [b'T', b'G', b'C', b'1', 1, 0, 0, 0];
/// Bytes before a record's body.
pub const PREFIX: usize = 8;
/// Largest record body accepted when reading (a write-set is bounded well below this).
pub const MAX_BODY: usize = 1 << 30;

/// Bytes of the fixed fields of a body (everything but data and context).
const FIXED: usize = 8 + 8 + 1 + 8 + 4 + 4;

/// The body length of `e`'s record.
pub fn body_len(e: &LogEntry) -> usize {
    FIXED + e.data.len() + e.context.len()
}

/// Appends the record for `e` to `out` (its body must be at most [`MAX_BODY`]).
pub fn encode(e: &LogEntry, appended_ms: u64, out: &mut Vec<u8>) {
    let body_len = body_len(e);
    let start = out.len();
    out.extend_from_slice(&(body_len as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&e.index.to_le_bytes());
    out.extend_from_slice(&e.term.to_le_bytes());
    out.push(e.kind as u8);
    out.extend_from_slice(&appended_ms.to_le_bytes());
    out.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
    out.extend_from_slice(&e.data);
    out.extend_from_slice(&(e.context.len() as u32).to_le_bytes());
    out.extend_from_slice(&e.context);
    let crc = crc32fast::hash(&out[start + PREFIX..]);
    out[start + 4..start + 8].copy_from_slice(&crc.to_le_bytes());
}

/// A decoded record with its appended time.
pub struct Decoded {
    /// The entry.
    pub entry: LogEntry,
    /// When it was appended (unix ms).
    pub appended_ms: u64,
}

/// Reads the record prefix: (body length, crc), or why it is not one.
pub fn prefix(b: &[u8]) -> Result<(usize, u32), &'static str> {
    if b.len() < PREFIX {
        return Err("short record header");
    }
    let len = u32::from_le_bytes(b[0..4].try_into().unwrap()) as usize;
    if !(FIXED..=MAX_BODY).contains(&len) {
        return Err("bad record length");
    }
    Ok((len, u32::from_le_bytes(b[4..8].try_into().unwrap())))
}

/// Decodes a record body whose CRC is `crc`.
pub fn decode(body: &[u8], crc: u32) -> Result<Decoded, &'static str> {
    if crc32fast::hash(body) != crc {
        return Err("checksum mismatch");
    }
    let u64_at = |o: usize| u64::from_le_bytes(body[o..o + 8].try_into().unwrap());
    let u32_at = |o: usize| u32::from_le_bytes(body[o..o + 4].try_into().unwrap()) as usize;
    let kind = match body[16] {
        0 => EntryKind::Normal,
        1 => EntryKind::ConfChange,
        2 => EntryKind::ConfChangeV2,
        _ => return Err("bad entry kind"),
    };
    let dlen = u32_at(25);
    if 29 + dlen + 4 > body.len() {
        return Err("bad data length");
    }
    let clen = u32_at(29 + dlen);
    if 33 + dlen + clen != body.len() {
        return Err("bad context length");
    }
    Ok(Decoded {
        entry: LogEntry {
            index: u64_at(0),
            term: u64_at(8),
            kind,
            data: body[29..29 + dlen].to_vec(),
            context: body[33 + dlen..].to_vec(),
        },
        appended_ms: u64_at(17),
    })
}

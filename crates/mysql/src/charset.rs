//! The connection's character sets, as MariaDB applies them to the bytes on the wire.
//!
//! tutti keeps text as UTF-8 and speaks it unless the client asks for a single-byte set
//! (latin1, cp1251, koi8r, ...): by the collation in its handshake, or with `SET NAMES` /
//! `SET character_set_client`. The input guard decodes each statement's text from
//! `character_set_client` before opensrv reads it (opensrv wants UTF-8); the shim encodes
//! text results to `character_set_results` and labels their columns so. Bytes that are no
//! text in a UTF-8 client set are refused with MariaDB's 1300 instead of ending the
//! connection (opensrv reports them as an I/O error). Multi-byte sets other than UTF-8
//! (gbk, sjis, ...) are spoken as UTF-8 (see docs/compatibility.md).

use std::borrow::Cow;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use tutti_wsrep::charsets::SingleByte;
use tutti_wsrep::Value;

use crate::values::{BINARY, UTF8MB4_GENERAL_CI};

/// What the guard and the shim of one connection share.
#[derive(Clone, Default)]
pub struct Charsets {
    /// The client's single-byte set, as its code + 1 (0: UTF-8).
    client: Arc<AtomicU8>,
    /// The collation id of the client's handshake (0 before it).
    handshake: Arc<AtomicU8>,
}

/// The character set a handshake collation id names, when tutti speaks it differently
/// from its default (utf8mb4).
pub fn handshake_charset(collation: u8) -> Option<&'static str> {
    match collation {
        33 | 83 | 192..=215 => Some("utf8mb3"),
        63 => Some("binary"),
        id => SingleByte::of_collation(id).map(SingleByte::name),
    }
}

impl Charsets {
    /// Notes the collation a handshake response names (its byte 8, after the capability
    /// flags and the packet size), once.
    pub(crate) fn note_handshake(&self, payload: &[u8]) {
        const PROTOCOL_41: u8 = 0x02; // CLIENT_PROTOCOL_41 is bit 9: byte 1, bit 1
        if payload.len() >= 32 && payload[1] & PROTOCOL_41 != 0 {
            let first = self.handshake.compare_exchange(
                0,
                payload[8],
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            // The first statement comes before the session that applies it exists.
            if let (Ok(_), Some(charset)) = (first, self.requested()) {
                self.set_client(charset);
            }
        }
    }

    /// The character set the client's handshake asked for, if tutti must apply it.
    pub(crate) fn requested(&self) -> Option<&'static str> {
        handshake_charset(self.handshake.load(Ordering::Relaxed))
    }

    /// Follows the session's `character_set_client`.
    pub(crate) fn set_client(&self, charset: &str) {
        let code = SingleByte::named(charset).map_or(0, |s| s.code() + 1);
        self.client.store(code, Ordering::Relaxed);
    }

    /// A statement's text as UTF-8 bytes; Err with the (at most three) bytes from the first
    /// one that starts no UTF-8 character.
    pub(crate) fn decode<'a>(&self, text: &'a [u8]) -> Result<Cow<'a, [u8]>, Vec<u8>> {
        if text.is_ascii() {
            return Ok(Cow::Borrowed(text));
        }
        let code = self.client.load(Ordering::Relaxed);
        if let Some(set) = code.checked_sub(1).and_then(SingleByte::from_code) {
            return Ok(Cow::Owned(set.decode(text).into_bytes()));
        }
        match std::str::from_utf8(text) {
            Ok(_) => Ok(Cow::Borrowed(text)),
            Err(e) => {
                let at = e.valid_up_to();
                Err(text[at..text.len().min(at + 3)].to_vec())
            }
        }
    }
}

/// How text results are sent: `character_set_results`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Results {
    /// The single-byte set text is encoded in (None: sent as stored, UTF-8).
    pub set: Option<SingleByte>,
    /// The collation id text columns are labelled with.
    pub label: u16,
    /// The most bytes a character takes (column lengths count them).
    pub max_bytes: u32,
}

impl Results {
    /// For a `character_set_results` (None: NULL, text is sent as stored).
    pub fn of(charset: Option<&str>) -> Results {
        let utf8mb4 = Results {
            set: None,
            label: UTF8MB4_GENERAL_CI,
            max_bytes: 4,
        };
        let Some(charset) = charset else {
            return utf8mb4;
        };
        if let Some(set) = SingleByte::named(charset) {
            let label = u16::from(set.collation_id());
            return Results {
                set: Some(set),
                label,
                max_bytes: 1,
            };
        }
        let (label, max_bytes) = match charset.to_ascii_lowercase().as_str() {
            "utf8mb3" | "utf8" => (33, 3),
            "binary" => (BINARY, 1),
            _ => return utf8mb4,
        };
        Results {
            set: None,
            label,
            max_bytes,
        }
    }

    /// A text cell's bytes in a single-byte set (None: sent as it is).
    pub fn encoded(&self, v: &Value) -> Option<Value> {
        match (v, self.set) {
            (Value::Text(t), Some(set)) if !t.is_ascii() => Some(Value::Blob(set.encode(t))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_decode_from_the_client_charset() {
        let c = Charsets::default();
        assert_eq!(c.decode(b"select 1").unwrap(), &b"select 1"[..]);
        assert_eq!(c.decode("é".as_bytes()).unwrap(), "é".as_bytes());
        assert_eq!(c.decode(b"caf\xE9 ok").unwrap_err(), b"\xE9 o");
        c.set_client("latin1");
        assert_eq!(c.decode(b"caf\xE9").unwrap(), "café".as_bytes());
        c.set_client("koi8r");
        assert_eq!(c.decode(b"\xC1\xC2").unwrap(), "аб".as_bytes());
        c.set_client("utf8mb4");
        assert!(c.decode(b"\xE9").is_err());
    }

    #[test]
    fn handshake_collations_name_their_charset() {
        let c = Charsets::default();
        assert_eq!(c.requested(), None);
        let mut response = vec![0u8; 32];
        response[1] = 0x02;
        response[8] = 8; // latin1_swedish_ci
        c.note_handshake(&response);
        response[8] = 33;
        c.note_handshake(&response); // only the first one counts
        assert_eq!(c.requested(), Some("latin1"));
        assert_eq!(c.decode(b"\xE9").unwrap(), "é".as_bytes());
        assert_eq!(handshake_charset(45), None);
        assert_eq!(handshake_charset(33), Some("utf8mb3"));
        assert_eq!(handshake_charset(51), Some("cp1251"));
    }

    #[test]
    fn results_are_labelled_with_their_set() {
        let latin1 = Results::of(Some("latin1"));
        assert_eq!((latin1.label, latin1.max_bytes), (8, 1));
        assert_eq!(
            latin1.encoded(&Value::Text("é".into())),
            Some(Value::Blob(vec![0xE9]))
        );
        assert_eq!(latin1.encoded(&Value::Text("e".into())), None);
        assert_eq!(Results::of(Some("utf8mb3")).label, 33);
        assert_eq!(Results::of(None), Results::of(Some("utf8mb4")));
    }
}

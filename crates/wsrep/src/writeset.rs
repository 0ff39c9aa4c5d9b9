//! Write-sets: what a transaction replicates.
//!
//! A write-set carries the transaction's row changes (a SQLite session changeset) or a
//! schema change, the certification keys derived from them, the origin node and transaction
//! id (so a retry across leader changes is recognised and never applied twice), and
//! `last_seen`: the seqno of the state the transaction executed on. Certification fails the
//! write-set if any of its keys was written by a write-set ordered after `last_seen`.

use crate::codec::{Decoder, Encoder};
use crate::{Ddl, NodeId, Seqno, Value, WsrepError};

/// A transaction id, unique per origin node across restarts.
pub type TrxId = u64;

const FORMAT_VERSION: u8 = 1;

/// Certification keys: 64-bit hashes of rows and tables a write-set touches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CertKeys {
    /// Rows (primary and unique keys) the write-set changes.
    pub exclusive: Vec<u64>,
    /// Rows the write-set depends on without changing them (foreign-key parents).
    pub shared: Vec<u64>,
    /// Tables touched, so a schema change ordered after `last_seen` fails the write-set.
    pub tables: Vec<u64>,
}

impl CertKeys {
    /// True when there is nothing to certify.
    pub fn is_empty(&self) -> bool {
        self.exclusive.is_empty() && self.shared.is_empty() && self.tables.is_empty()
    }
}

/// What applying the write-set does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Row changes: a SQLite session changeset.
    Rows(Vec<u8>),
    /// A schema change, executed in total order.
    Ddl(Ddl),
}

/// One transaction's replicated effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteSet {
    /// The node the transaction ran on.
    pub origin: NodeId,
    /// The transaction id on its origin.
    pub trx_id: TrxId,
    /// The seqno of the state the transaction executed on.
    pub last_seen: Seqno,
    /// Keys for certification.
    pub keys: CertKeys,
    /// The effect.
    pub action: Action,
}

impl WriteSet {
    /// The binary form (versioned).
    pub fn encode(&self) -> Vec<u8> {
        let body = match &self.action {
            Action::Rows(c) => c.len(),
            Action::Ddl(_) => 256,
        };
        let mut e = Encoder::with_capacity(64 + body + 8 * self.keys.exclusive.len());
        self.encode_into(&mut e);
        e.finish()
    }

    /// Appends the binary form to an encoder.
    pub fn encode_into(&self, e: &mut Encoder) {
        e.u8(FORMAT_VERSION)
            .u64(self.origin)
            .u64(self.trx_id)
            .u64(self.last_seen);
        e.u64s(&self.keys.exclusive)
            .u64s(&self.keys.shared)
            .u64s(&self.keys.tables);
        match &self.action {
            Action::Rows(c) => {
                e.u8(1).bytes(c);
            }
            Action::Ddl(d) => {
                e.u8(2);
                d.encode(e);
            }
        }
    }

    /// Reads the binary form, rejecting unknown versions and trailing bytes.
    pub fn decode(b: &[u8]) -> Result<WriteSet, WsrepError> {
        let mut d = Decoder::new(b, "write-set");
        let ws = Self::decode_from(&mut d)?;
        d.finish()?;
        Ok(ws)
    }

    /// Reads the binary form from a decoder.
    pub fn decode_from(d: &mut Decoder<'_>) -> Result<WriteSet, WsrepError> {
        let v = d.u8()?;
        if v != FORMAT_VERSION {
            return Err(WsrepError::Invalid {
                what: "write-set version",
                value: v as u64,
            });
        }
        let origin = d.u64()?;
        let trx_id = d.u64()?;
        let last_seen = d.u64()?;
        let keys = CertKeys {
            exclusive: d.u64s()?,
            shared: d.u64s()?,
            tables: d.u64s()?,
        };
        let action = match d.u8()? {
            1 => Action::Rows(d.bytes()?.to_vec()),
            2 => Action::Ddl(Ddl::decode(d)?),
            t => {
                return Err(WsrepError::Invalid {
                    what: "write-set action",
                    value: t as u64,
                })
            }
        };
        Ok(WriteSet {
            origin,
            trx_id,
            last_seen,
            keys,
            action,
        })
    }

    /// Size of the row changes (0 for DDL), for status counters.
    pub fn payload_len(&self) -> usize {
        match &self.action {
            Action::Rows(c) => c.len(),
            Action::Ddl(_) => 0,
        }
    }
}

/// Stable 64-bit FNV-1a hash of a key: a namespace (table, index) and values.
///
/// Stable across builds and platforms, so every node computes the same keys. Text is folded
/// to ASCII lower case because tutti's text columns compare case-insensitively, like
/// MySQL's default collation: 'a' and 'A' are the same key. A collision can only cause a
/// needless certification failure, never a missed conflict.
pub fn hash_key(namespace: &str, values: &[&Value]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= *b as u64;
            h = h.wrapping_mul(PRIME);
        }
    };
    eat(namespace.as_bytes());
    for v in values {
        match v {
            Value::Null => eat(&[0]),
            Value::Int(i) => {
                eat(&[1]);
                eat(&i.to_le_bytes());
            }
            Value::Real(r) => {
                // An integral real equals the integer in SQLite comparisons.
                if r.fract() == 0.0 && r.abs() < 9.0e15 {
                    eat(&[1]);
                    eat(&(*r as i64).to_le_bytes());
                } else {
                    eat(&[2]);
                    eat(&r.to_le_bytes());
                }
            }
            Value::Text(s) => {
                eat(&[3]);
                eat(&(s.len() as u64).to_le_bytes());
                eat(s.to_ascii_lowercase().as_bytes());
            }
            Value::Blob(b) => {
                eat(&[4]);
                eat(&(b.len() as u64).to_le_bytes());
                eat(b);
            }
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WriteSet {
        WriteSet {
            origin: 3,
            trx_id: 99,
            last_seen: 1234,
            keys: CertKeys {
                exclusive: vec![1, 2],
                shared: vec![3],
                tables: vec![4],
            },
            action: Action::Rows(vec![0xde, 0xad]),
        }
    }

    #[test]
    fn round_trip() {
        let ws = sample();
        assert_eq!(WriteSet::decode(&ws.encode()).unwrap(), ws);
        let ddl = WriteSet {
            action: Action::Ddl(Ddl::Schema {
                database: "db".into(),
                statements: vec!["CREATE TABLE x(a)".into()],
            }),
            ..sample()
        };
        assert_eq!(WriteSet::decode(&ddl.encode()).unwrap(), ddl);
        for change in [
            Ddl::CreateDatabase {
                name: "db".into(),
                if_not_exists: true,
                collation: None,
            },
            Ddl::CreateDatabase {
                name: "db".into(),
                if_not_exists: false,
                collation: Some("utf8mb4_unicode_ci".into()),
            },
            Ddl::AlterDatabase {
                name: "db".into(),
                collation: "latin1_swedish_ci".into(),
            },
        ] {
            let ws = WriteSet {
                action: Action::Ddl(change),
                ..sample()
            };
            assert_eq!(WriteSet::decode(&ws.encode()).unwrap(), ws);
        }
    }

    #[test]
    fn damaged_input_is_an_error() {
        let b = sample().encode();
        for cut in 0..b.len() {
            assert!(WriteSet::decode(&b[..cut]).is_err());
        }
        let mut bad = b.clone();
        bad[0] = 9;
        assert!(WriteSet::decode(&bad).is_err());
        let mut long = b;
        long.push(0);
        assert!(WriteSet::decode(&long).is_err());
    }

    #[test]
    fn keys_are_stable_and_case_folded() {
        let a = hash_key("db.t", &[&Value::Int(1)]);
        assert_eq!(a, hash_key("db.t", &[&Value::Int(1)]));
        assert_ne!(a, hash_key("db.u", &[&Value::Int(1)]));
        assert_ne!(a, hash_key("db.t", &[&Value::Int(2)]));
        assert_eq!(hash_key("db.t", &[&Value::Real(1.0)]), a);
        assert_eq!(
            hash_key("t", &[&Value::Text("Abc".into())]),
            hash_key("t", &[&Value::Text("aBC".into())])
        );
        // Value boundaries matter: ("ab","c") is not ("a","bc").
        let ab_c = hash_key("t", &[&Value::Text("ab".into()), &Value::Text("c".into())]);
        let a_bc = hash_key("t", &[&Value::Text("a".into()), &Value::Text("bc".into())]);
        assert_ne!(ab_c, a_bc);
    }
}

//! The replicated log entry: an ordered write-set with its certification verdict.
//!
//! The leader certifies and writes the verdict into the entry, so every node obeys the
//! same verdict and no node needs the certification index to apply. A failed write-set is
//! still logged (keys and changes stripped) so its origin learns the outcome from the log
//! itself, whatever happens to the leader.

use crate::certification::Verdict;
use tutti_wsrep::codec::{Decoder, Encoder};
use tutti_wsrep::{Action, CertKeys, NodeId, WriteSet, WsrepError};

const VERSION: u8 = 1;

/// One entry of the replicated log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// An ordered write-set and the leader's verdict on it.
    WriteSet {
        /// Apply or not.
        verdict: Verdict,
        /// The write-set (only origin, trx id and last_seen when it failed).
        ws: WriteSet,
    },
    /// Nothing to apply (an empty Raft entry, a membership change, ...).
    Noop,
    /// `pc.bootstrap`: from here on the voters are exactly these (a surviving minority made
    /// itself the primary component). A node replaying the log adopts this configuration.
    Bootstrap {
        /// The voters.
        voters: Vec<NodeId>,
    },
}

impl Entry {
    /// The entry for a certified write-set; a failed one keeps only its identity.
    pub fn certified(verdict: Verdict, ws: WriteSet) -> Entry {
        let ws = match verdict {
            Verdict::Pass => ws,
            Verdict::Fail => WriteSet {
                keys: CertKeys::default(),
                action: Action::Rows(Vec::new()),
                ..ws
            },
        };
        Entry::WriteSet { verdict, ws }
    }

    /// The binary form.
    pub fn encode(&self) -> Vec<u8> {
        let mut e = Encoder::with_capacity(64);
        e.u8(VERSION);
        match self {
            Entry::WriteSet { verdict, ws } => {
                e.u8(1).u8(matches!(verdict, Verdict::Pass) as u8);
                ws.encode_into(&mut e);
            }
            Entry::Noop => {
                e.u8(0);
            }
            Entry::Bootstrap { voters } => {
                e.u8(2).u64s(voters);
            }
        }
        e.finish()
    }

    /// Reads the binary form.
    pub fn decode(b: &[u8]) -> Result<Entry, WsrepError> {
        let mut d = Decoder::new(b, "log entry");
        let v = d.u8()?;
        if v != VERSION {
            return Err(WsrepError::Invalid {
                what: "log entry version",
                value: v as u64,
            });
        }
        let entry = match d.u8()? {
            0 => Entry::Noop,
            1 => {
                let verdict = if d.u8()? == 1 {
                    Verdict::Pass
                } else {
                    Verdict::Fail
                };
                Entry::WriteSet {
                    verdict,
                    ws: WriteSet::decode_from(&mut d)?,
                }
            }
            2 => Entry::Bootstrap { voters: d.u64s()? },
            t => {
                return Err(WsrepError::Invalid {
                    what: "log entry kind",
                    value: t as u64,
                })
            }
        };
        d.finish()?;
        Ok(entry)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_entries_are_stripped_and_round_trip() {
        let ws = WriteSet {
            origin: 1,
            trx_id: 2,
            last_seen: 3,
            keys: CertKeys {
                exclusive: vec![1],
                shared: vec![],
                tables: vec![2],
            },
            action: Action::Rows(vec![1, 2, 3]),
        };
        let pass = Entry::certified(Verdict::Pass, ws.clone());
        assert_eq!(Entry::decode(&pass.encode()).unwrap(), pass);
        let fail = Entry::certified(Verdict::Fail, ws);
        let Entry::WriteSet { ws: stripped, .. } = &fail else {
            panic!()
        };
        assert!(stripped.keys.is_empty() && stripped.payload_len() == 0);
        assert_eq!(Entry::decode(&fail.encode()).unwrap(), fail);
        assert_eq!(Entry::decode(&Entry::Noop.encode()).unwrap(), Entry::Noop);
        let b = Entry::Bootstrap { voters: vec![3] };
        assert_eq!(Entry::decode(&b.encode()).unwrap(), b);
        assert!(Entry::decode(&[9, 9]).is_err());
    }
}

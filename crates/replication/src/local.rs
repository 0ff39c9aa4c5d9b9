//! Total order for a cluster of one node: a local sequencer.
//!
//! Certifies each write-set against the index and gives it the next seqno, under one lock,
//! and hands it to the applier in that order. This is exactly what the Raft leader does,
//! minus the log and the network.

use crossbeam_channel::Sender;
use tutti_wsrep::{Seqno, WriteSet};

use crate::applier::Committed;
use crate::certification::{CertIndex, Verdict};
use crate::entry::Entry;

/// The single-node orderer.
pub struct LocalOrder {
    next: Seqno,
    cert: CertIndex,
}

impl LocalOrder {
    /// Starts after the last applied seqno.
    pub fn new(applied: Seqno, cert_window: usize) -> LocalOrder {
        LocalOrder {
            next: applied + 1,
            cert: CertIndex::new(applied, cert_window),
        }
    }

    /// Certifies and orders one write-set; returns its seqno and verdict.
    pub fn submit(&mut self, ws: WriteSet, applier: &Sender<Committed>) -> (Seqno, Verdict) {
        let verdict = self.cert.certify(&ws);
        let seqno = self.next;
        self.next += 1;
        if verdict == Verdict::Pass {
            self.cert.record(seqno, &ws);
        }
        let _ = applier.send(Committed {
            seqno,
            entry: Entry::certified(verdict, ws),
        });
        (seqno, verdict)
    }

    /// The last seqno handed out.
    pub fn last(&self) -> Seqno {
        self.next - 1
    }
}

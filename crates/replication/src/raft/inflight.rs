//! Write-sets and causal reads on their way to the leader, and the leader's side:
//! certification at append and de-duplication of retries.
//!
//! The origin keeps a write-set until its entry commits and sends it again to whoever
//! leads: every [`RETRY_TICKS`](super::core::RETRY_TICKS), and at once when a new leader
//! becomes known (so a leader change costs one election, not an election plus a retry
//! period). Causal reads (ReadIndex) are asked again the same way: raft-rs drops a read
//! request when there is no leader to forward it to.

use raft::eraftpb::EntryType;
use raft::GetEntriesContext;
use tutti_wsrep::{NodeId, Seqno, TrxId, WriteSet};

use super::core::{RaftCore, RETRY_TICKS};
use super::wire::PeerMsg;
use crate::certification::{CertIndex, Verdict};
use crate::entry::Entry;

/// A local write-set waiting for its entry to commit.
pub(super) struct InFlight {
    pub bytes: Vec<u8>,
    pub ws: WriteSet,
    pub sent_tick: u64,
    pub expires_tick: u64,
}

impl RaftCore {
    /// Re-sends write-sets unanswered for a retry period; forgets expired ones.
    pub(super) fn resend_due(&mut self) {
        let now = self.ticks;
        self.inflight.retain(|_, f| f.expires_tick > now);
        let due: Vec<TrxId> = self
            .inflight
            .iter()
            .filter(|(_, f)| now - f.sent_tick >= RETRY_TICKS)
            .map(|(t, _)| *t)
            .collect();
        for trx in due {
            self.send_inflight(trx);
        }
        self.ask_reads_again();
    }

    /// Re-sends everything waiting for an answer (a new leader is known).
    pub(super) fn resend_all(&mut self) {
        let all: Vec<TrxId> = self.inflight.keys().copied().collect();
        for trx in all {
            self.send_inflight(trx);
        }
        self.ask_reads_again();
    }

    pub(super) fn send_inflight(&mut self, trx: TrxId) {
        let now = self.ticks;
        let Some(f) = self.inflight.get_mut(&trx) else {
            return;
        };
        f.sent_tick = now;
        let (ws, bytes) = (f.ws.clone(), f.bytes.clone());
        if self.is_leader() {
            self.propose_write_set(ws);
        } else if let Some(l) = self.member(self.leader()) {
            self.pending.messages.push((l, PeerMsg::Submit(bytes)));
        }
    }

    /// A write-set forwarded by a peer: certify it if leading, else pass it on.
    pub(super) fn on_submit(&mut self, from: NodeId, bytes: Vec<u8>) {
        match WriteSet::decode(&bytes) {
            Ok(ws) => {
                if self.is_leader() {
                    self.propose_write_set(ws);
                } else if let Some(l) = self.member(self.leader()) {
                    self.pending.messages.push((l, PeerMsg::Submit(bytes)));
                }
            }
            Err(e) => tracing::warn!(
                "peer {} sent an undecodable write-set: {e}",
                self.name_of(from)
            ),
        }
    }

    /// Leader: certify and append one write-set (unless it is already in the log).
    fn propose_write_set(&mut self, ws: WriteSet) {
        if self.leaving {
            return;
        }
        // Rebuild first: a new term's index (and its memory of what the log already
        // holds) must see a write-set re-sent to the new leader as a duplicate.
        self.ensure_cert_index();
        let id = (ws.origin, ws.trx_id);
        if self.dedup.contains_key(&id) {
            return;
        }
        let Some((_, cert)) = self.cert.as_mut() else {
            return;
        };
        let verdict = cert.certify(&ws);
        let index = self.raw.raft.raft_log.last_index() + 1;
        let data = Entry::certified(verdict, ws.clone()).encode();
        if let Err(e) = self.raw.propose(Vec::new(), data) {
            tracing::debug!("write-set {}:{} not proposed: {e}", ws.origin, ws.trx_id);
            return;
        }
        if self.raw.raft.raft_log.last_index() != index {
            return;
        }
        if verdict == Verdict::Pass {
            if let Some((_, cert)) = self.cert.as_mut() {
                cert.record(index, &ws);
            }
        }
        self.remember(id, index);
    }

    fn remember(&mut self, id: (NodeId, TrxId), index: Seqno) {
        self.dedup.insert(id, index);
        self.dedup_order.push_back(id);
        while self.dedup_order.len() > self.cfg.cert_window {
            if let Some(old) = self.dedup_order.pop_front() {
                self.dedup.remove(&old);
            }
        }
    }

    /// Rebuilds the certification index from the log when this node starts a new term
    /// as leader.
    fn ensure_cert_index(&mut self) {
        let term = self.term();
        if self.cert.as_ref().is_some_and(|(t, _)| *t == term) {
            return;
        }
        let log = &self.raw.raft.raft_log;
        let last = log.last_index();
        let from = log
            .first_index()
            .max(last.saturating_sub(self.cfg.cert_window as u64) + 1);
        let mut cert = CertIndex::new(from - 1, self.cfg.cert_window);
        self.dedup.clear();
        self.dedup_order.clear();
        let mut lo = from;
        while lo <= last {
            let batch = match log.slice(lo, last + 1, 8 << 20, GetEntriesContext::empty(false)) {
                Ok(b) if !b.is_empty() => b,
                Ok(_) => break,
                Err(e) => {
                    tracing::error!("cannot read the log to rebuild certification: {e}");
                    return;
                }
            };
            lo = batch.last().map(|e| e.index + 1).unwrap_or(last + 1);
            for e in batch {
                if e.get_entry_type() != EntryType::EntryNormal || e.data.is_empty() {
                    continue;
                }
                if let Ok(Entry::WriteSet { verdict, ws }) = Entry::decode(&e.data) {
                    if verdict == Verdict::Pass {
                        cert.record(e.index, &ws);
                    }
                    self.dedup.insert((ws.origin, ws.trx_id), e.index);
                    self.dedup_order.push_back((ws.origin, ws.trx_id));
                }
            }
        }
        tracing::debug!("certification index rebuilt from entries {from}..={last}");
        self.cert = Some((term, cert));
    }

    /// Asks for the commit index to wait for before a causal read.
    pub fn read_index(&mut self, request: u64) {
        self.pending_reads.push(request);
        self.raw.read_index(request.to_le_bytes().to_vec());
    }

    /// Forgets a causal read whose caller stopped waiting.
    pub fn forget_read(&mut self, request: u64) {
        self.pending_reads.retain(|r| *r != request);
    }

    fn ask_reads_again(&mut self) {
        if self.leader() == 0 {
            return;
        }
        for r in self.pending_reads.clone() {
            self.raw.read_index(r.to_le_bytes().to_vec());
        }
    }
}

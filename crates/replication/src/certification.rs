//! Certification: first committer wins, row by row. Pure data, no I/O.
//!
//! The leader keeps, for every key, the seqno of the last write-set that wrote it
//! (exclusive) or depended on it (shared, e.g. a foreign-key parent), and for every table
//! the seqno of the last schema change. A write-set that executed on the state at
//! `last_seen` fails if any of its keys was touched by a write-set ordered after
//! `last_seen`: it did not see that change. Exclusive conflicts with exclusive and shared;
//! shared conflicts only with exclusive. Schema changes (TOI) always pass and fail every
//! later write-set that touched their tables on an older state.
//!
//! The index forgets write-sets older than a window; a write-set whose `last_seen` is
//! older than what the index still knows fails (it is too old to be checked).

use std::collections::{HashMap, VecDeque};
use tutti_wsrep::{Action, CertKeys, Seqno, WriteSet};

/// The verdict recorded in the log for every ordered write-set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Apply it.
    Pass,
    /// Do not apply it; its origin reports a deadlock error to the client.
    Fail,
}

/// The certification index.
#[derive(Debug)]
pub struct CertIndex {
    exclusive: HashMap<u64, Seqno>,
    shared: HashMap<u64, Seqno>,
    tables: HashMap<u64, Seqno>,
    /// Write-sets recorded, oldest first, with their keys (for forgetting them).
    history: VecDeque<(Seqno, CertKeys)>,
    /// Keys of write-sets at or below this seqno were forgotten.
    forgotten: Seqno,
    window: usize,
}

impl CertIndex {
    /// An empty index remembering at most `window` write-sets; everything at or below
    /// `start` counts as already forgotten (e.g. the log position at startup).
    pub fn new(start: Seqno, window: usize) -> CertIndex {
        CertIndex {
            exclusive: HashMap::new(),
            shared: HashMap::new(),
            tables: HashMap::new(),
            history: VecDeque::new(),
            forgotten: start,
            window: window.max(1),
        }
    }

    /// Decides whether `ws` may commit.
    pub fn certify(&self, ws: &WriteSet) -> Verdict {
        if matches!(ws.action, Action::Ddl(_)) {
            return Verdict::Pass;
        }
        if ws.last_seen < self.forgotten {
            return Verdict::Fail;
        }
        let after = |m: &HashMap<u64, Seqno>, k: &u64| m.get(k).is_some_and(|s| *s > ws.last_seen);
        let conflict = ws
            .keys
            .exclusive
            .iter()
            .any(|k| after(&self.exclusive, k) || after(&self.shared, k))
            || ws.keys.shared.iter().any(|k| after(&self.exclusive, k))
            || ws.keys.tables.iter().any(|t| after(&self.tables, t));
        if conflict {
            Verdict::Fail
        } else {
            Verdict::Pass
        }
    }

    /// Records a write-set that passed, at its seqno (seqnos must increase).
    pub fn record(&mut self, seqno: Seqno, ws: &WriteSet) {
        let is_ddl = matches!(ws.action, Action::Ddl(_));
        for k in &ws.keys.exclusive {
            self.exclusive.insert(*k, seqno);
        }
        for k in &ws.keys.shared {
            self.shared.insert(*k, seqno);
        }
        let tables = if is_ddl {
            ws.keys.tables.clone()
        } else {
            Vec::new()
        };
        for t in &tables {
            self.tables.insert(*t, seqno);
        }
        let keys = CertKeys {
            exclusive: ws.keys.exclusive.clone(),
            shared: ws.keys.shared.clone(),
            tables,
        };
        self.history.push_back((seqno, keys));
        while self.history.len() > self.window {
            self.forget_oldest();
        }
    }

    /// Forgets everything at or below `seqno` (e.g. when every node has applied it).
    pub fn forget_through(&mut self, seqno: Seqno) {
        while self.history.front().is_some_and(|h| h.0 <= seqno) {
            self.forget_oldest();
        }
        self.forgotten = self.forgotten.max(seqno);
    }

    fn forget_oldest(&mut self) {
        let Some((seqno, keys)) = self.history.pop_front() else {
            return;
        };
        let drop_if = |m: &mut HashMap<u64, Seqno>, ks: &[u64]| {
            for k in ks {
                if m.get(k) == Some(&seqno) {
                    m.remove(k);
                }
            }
        };
        drop_if(&mut self.exclusive, &keys.exclusive);
        drop_if(&mut self.shared, &keys.shared);
        drop_if(&mut self.tables, &keys.tables);
        self.forgotten = self.forgotten.max(seqno);
    }

    /// Number of write-sets remembered.
    pub fn len(&self) -> usize {
        self.history.len()
    }

    /// True when nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tutti_wsrep::Ddl;

    fn ws(last_seen: Seqno, ex: &[u64], sh: &[u64], tables: &[u64]) -> WriteSet {
        WriteSet {
            origin: 1,
            trx_id: 1,
            last_seen,
            keys: CertKeys {
                exclusive: ex.to_vec(),
                shared: sh.to_vec(),
                tables: tables.to_vec(),
            },
            action: Action::Rows(vec![]),
        }
    }

    fn ddl(tables: &[u64]) -> WriteSet {
        WriteSet {
            action: Action::Ddl(Ddl::CreateDatabase {
                name: "x".into(),
                if_not_exists: true,
                collation: None,
            }),
            ..ws(0, &[], &[], tables)
        }
    }

    #[test]
    fn first_committer_wins_per_row() {
        let mut c = CertIndex::new(0, 100);
        let a = ws(0, &[1], &[], &[9]);
        assert_eq!(c.certify(&a), Verdict::Pass);
        c.record(1, &a);
        // Same row, did not see seqno 1: fails. Saw it: passes.
        assert_eq!(c.certify(&ws(0, &[1], &[], &[9])), Verdict::Fail);
        assert_eq!(c.certify(&ws(1, &[1], &[], &[9])), Verdict::Pass);
        // Different row on the same table: passes.
        assert_eq!(c.certify(&ws(0, &[2], &[], &[9])), Verdict::Pass);
    }

    #[test]
    fn shared_keys_conflict_only_with_exclusive() {
        let mut c = CertIndex::new(0, 100);
        c.record(1, &ws(0, &[], &[7], &[])); // child insert referencing parent 7
        assert_eq!(
            c.certify(&ws(0, &[], &[7], &[])),
            Verdict::Pass,
            "two children of one parent"
        );
        assert_eq!(
            c.certify(&ws(0, &[7], &[], &[])),
            Verdict::Fail,
            "parent changed under a new child"
        );
        c.record(2, &ws(1, &[7], &[], &[])); // parent deleted
        assert_eq!(
            c.certify(&ws(1, &[], &[7], &[])),
            Verdict::Fail,
            "child of a changed parent"
        );
    }

    #[test]
    fn schema_change_fails_older_writes_on_its_tables() {
        let mut c = CertIndex::new(0, 100);
        let d = ddl(&[42]);
        assert_eq!(c.certify(&d), Verdict::Pass);
        c.record(5, &d);
        assert_eq!(c.certify(&ws(4, &[1], &[], &[42])), Verdict::Fail);
        assert_eq!(c.certify(&ws(5, &[1], &[], &[42])), Verdict::Pass);
        assert_eq!(c.certify(&ws(4, &[1], &[], &[43])), Verdict::Pass);
        assert_eq!(c.certify(&ddl(&[42])), Verdict::Pass, "TOI always passes");
    }

    #[test]
    fn forgetting_fails_too_old_write_sets_only() {
        let mut c = CertIndex::new(0, 2);
        for s in 1..=3 {
            c.record(s, &ws(s - 1, &[s], &[], &[]));
        }
        assert_eq!(c.len(), 2);
        assert_eq!(
            c.certify(&ws(0, &[100], &[], &[])),
            Verdict::Fail,
            "older than the window"
        );
        assert_eq!(c.certify(&ws(1, &[100], &[], &[])), Verdict::Pass);
        assert_eq!(c.certify(&ws(1, &[2], &[], &[])), Verdict::Fail);
        c.forget_through(3);
        assert!(c.is_empty());
        assert_eq!(c.certify(&ws(3, &[2], &[], &[])), Verdict::Pass);
        assert_eq!(c.certify(&ws(2, &[2], &[], &[])), Verdict::Fail);
    }
}

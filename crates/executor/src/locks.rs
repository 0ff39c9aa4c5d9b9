//! Row locks between the transactions of one node, as InnoDB would hold them.
//!
//! Write statements run optimistically and are rolled back right away, so two local
//! transactions could both change a row and one would fail certification at COMMIT. To
//! behave like a MySQL server instead, a transaction takes exclusive locks on the rows it
//! changed (their certification keys) and shared locks on the rows it depends on (foreign
//! key parents, and its tables), holds them until it ends, and a second transaction that
//! wants a held row waits, then re-runs its statement on the newer state. Waits form a
//! wait-for graph; a cycle is a deadlock and the requester gets MySQL error 1213.
//!
//! Ordered write-sets from the cluster take no locks: they *BF-abort* (brute-force abort,
//! Galera's term) the local transactions holding rows they change, which releases those
//! locks at once; the victim learns at its next statement or COMMIT.
//!
//! This is a pure data structure plus a condition variable; no I/O.

use parking_lot::{Condvar, Mutex};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use tutti_wsrep::{CertKeys, Seqno, TrxId};

/// How many recently ordered write-sets [`LockManager::touched_since`] remembers.
const RECENT: usize = 65_536;

/// Lock mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Many holders (rows depended on, tables written).
    Shared,
    /// One holder (rows written).
    Exclusive,
}

/// Why a lock was not granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockError {
    /// Waiting would close a cycle in the wait-for graph.
    Deadlock,
    /// The wait exceeded the timeout.
    Timeout,
    /// The transaction was BF-aborted by an ordered write-set.
    Aborted,
}

#[derive(Default, Debug)]
struct Entry {
    exclusive: Option<TrxId>,
    shared: Vec<TrxId>,
}

impl Entry {
    fn conflicts(&self, trx: TrxId, mode: Mode) -> Option<TrxId> {
        if let Some(h) = self.exclusive.filter(|h| *h != trx) {
            return Some(h);
        }
        match mode {
            Mode::Exclusive => self.shared.iter().copied().find(|h| *h != trx),
            Mode::Shared => None,
        }
    }
}

#[derive(Default, Debug)]
struct State {
    entries: HashMap<u64, Entry>,
    held: HashMap<TrxId, Vec<u64>>,
    waits_for: HashMap<TrxId, TrxId>,
    aborted: HashSet<TrxId>,
}

impl State {
    fn first_conflict(&self, trx: TrxId, keys: &[(u64, Mode)]) -> Option<TrxId> {
        keys.iter()
            .find_map(|(k, m)| self.entries.get(k).and_then(|e| e.conflicts(trx, *m)))
    }

    fn would_deadlock(&self, trx: TrxId, mut holder: TrxId) -> bool {
        for _ in 0..=self.waits_for.len() {
            if holder == trx {
                return true;
            }
            match self.waits_for.get(&holder) {
                Some(next) => holder = *next,
                None => return false,
            }
        }
        true
    }

    fn grant(&mut self, trx: TrxId, keys: &[(u64, Mode)]) {
        for (k, m) in keys {
            let e = self.entries.entry(*k).or_default();
            let already =
                e.exclusive == Some(trx) || (*m == Mode::Shared && e.shared.contains(&trx));
            if already {
                continue;
            }
            match m {
                Mode::Exclusive => {
                    e.shared.retain(|h| *h != trx);
                    e.exclusive = Some(trx);
                }
                Mode::Shared => e.shared.push(trx),
            }
            self.held.entry(trx).or_default().push(*k);
        }
    }

    fn release(&mut self, trx: TrxId) {
        for k in self.held.remove(&trx).unwrap_or_default() {
            if let Some(e) = self.entries.get_mut(&k) {
                if e.exclusive == Some(trx) {
                    e.exclusive = None;
                }
                e.shared.retain(|h| *h != trx);
                if e.exclusive.is_none() && e.shared.is_empty() {
                    self.entries.remove(&k);
                }
            }
        }
        self.waits_for.remove(&trx);
    }
}

/// The keys of recently ordered write-sets, to tell whether a statement's rows changed
/// between its execution and the moment its locks were granted.
#[derive(Default)]
struct Recent {
    /// (seqno, keys it changed or depended on, how many of them it changed: the first n).
    entries: std::collections::VecDeque<(Seqno, Vec<u64>, usize)>,
    /// Everything at or below this was forgotten.
    forgotten: Seqno,
    /// The last seqno that wrote to each table (by table key).
    tables: std::collections::HashMap<u64, Seqno>,
}

/// The lock table of one node.
#[derive(Default)]
pub struct LockManager {
    state: Mutex<State>,
    cond: Condvar,
    recent: Mutex<Recent>,
}

impl LockManager {
    /// Acquires every key (all or none), waiting up to `timeout` for holders to finish.
    /// Returns whether it had to wait (then the caller re-runs its statement).
    pub fn acquire(
        &self,
        trx: TrxId,
        keys: &[(u64, Mode)],
        timeout: Duration,
    ) -> Result<bool, LockError> {
        let deadline = Instant::now() + timeout;
        let mut waited = false;
        let mut st = self.state.lock();
        loop {
            if st.aborted.contains(&trx) {
                st.waits_for.remove(&trx);
                return Err(LockError::Aborted);
            }
            let Some(holder) = st.first_conflict(trx, keys) else {
                st.grant(trx, keys);
                st.waits_for.remove(&trx);
                return Ok(waited);
            };
            if st.would_deadlock(trx, holder) {
                let key = keys.iter().find(|(k, m)| {
                    st.entries
                        .get(k)
                        .and_then(|e| e.conflicts(trx, *m))
                        .is_some()
                });
                tracing::debug!(
                    "deadlock: trx {trx} wants {key:?} held by {holder}; waits {:?}",
                    st.waits_for
                );
                st.waits_for.remove(&trx);
                return Err(LockError::Deadlock);
            }
            st.waits_for.insert(trx, holder);
            waited = true;
            if self.cond.wait_until(&mut st, deadline).timed_out()
                && st.first_conflict(trx, keys).is_some()
            {
                st.waits_for.remove(&trx);
                return Err(LockError::Timeout);
            }
        }
    }

    /// Releases every lock of a finished transaction and forgets its abort flag.
    pub fn release(&self, trx: TrxId) {
        let mut st = self.state.lock();
        st.release(trx);
        st.aborted.remove(&trx);
        drop(st);
        self.cond.notify_all();
    }

    /// BF-aborts the holders that conflict with an ordered write-set: holders of its
    /// exclusive keys, exclusive holders of its shared keys, and every holder of
    /// `tables` (a schema change). `except` is the write-set's own local transaction.
    /// Returns the victims; their locks are released at once.
    pub fn bf_abort(
        &self,
        exclusive: &[u64],
        shared: &[u64],
        tables: &[u64],
        except: Option<TrxId>,
    ) -> Vec<TrxId> {
        let mut st = self.state.lock();
        let mut victims: Vec<TrxId> = Vec::new();
        let mut add = |h: TrxId| {
            if Some(h) != except && !victims.contains(&h) {
                victims.push(h);
            }
        };
        for k in exclusive.iter().chain(tables) {
            if let Some(e) = st.entries.get(k) {
                e.exclusive
                    .into_iter()
                    .chain(e.shared.iter().copied())
                    .for_each(&mut add);
            }
        }
        for k in shared {
            if let Some(h) = st.entries.get(k).and_then(|e| e.exclusive) {
                add(h);
            }
        }
        for v in &victims {
            st.release(*v);
            st.aborted.insert(*v);
        }
        drop(st);
        if !victims.is_empty() {
            self.cond.notify_all();
        }
        victims
    }

    /// True if the transaction was BF-aborted and has not been released since.
    pub fn is_aborted(&self, trx: TrxId) -> bool {
        self.state.lock().aborted.contains(&trx)
    }

    /// Records the keys of a write-set ordered at `seqno` (before it is applied): its row
    /// keys, or for a schema change (`ddl`) its table keys.
    pub fn record_ordered(&self, seqno: Seqno, keys: &CertKeys, ddl: bool) {
        let mut r = self.recent.lock();
        for t in &keys.tables {
            r.tables.insert(*t, seqno);
        }
        let (all, changed) = if ddl {
            (keys.tables.clone(), 0)
        } else {
            let all: Vec<u64> = keys.exclusive.iter().chain(&keys.shared).copied().collect();
            (all, keys.exclusive.len())
        };
        r.entries.push_back((seqno, all, changed));
        while r.entries.len() > RECENT {
            if let Some((s, _, _)) = r.entries.pop_front() {
                r.forgotten = r.forgotten.max(s);
            }
        }
    }

    /// True if a write-set ordered after `since` changed one of `keys` (or if that is no
    /// longer known): snapshot isolation's test for a transaction whose read view is
    /// `since`.
    pub fn changed_since(&self, since: Seqno, keys: &[u64]) -> bool {
        self.any_since(since, |ks, changed| {
            ks[..changed].iter().any(|k| keys.contains(k))
        })
    }

    /// True if a recorded write-set ordered after `since` matches `f(its keys, how many of
    /// them it changed)`, or if what came after `since` is no longer known.
    fn any_since(&self, since: Seqno, f: impl Fn(&[u64], usize) -> bool) -> bool {
        let r = self.recent.lock();
        if since < r.forgotten {
            return true;
        }
        r.entries
            .iter()
            .rev()
            .take_while(|(s, _, _)| *s > since)
            .any(|(_, ks, n)| f(ks, *n))
    }

    /// True if any write-set was ordered after `since`.
    pub fn anything_since(&self, since: Seqno) -> bool {
        let r = self.recent.lock();
        since < r.forgotten || r.entries.back().is_some_and(|(s, _, _)| *s > since)
    }

    /// True if a write-set ordered after `since` wrote to the table with this key.
    pub fn table_written_since(&self, since: Seqno, table: u64) -> bool {
        self.recent
            .lock()
            .tables
            .get(&table)
            .is_some_and(|s| *s > since)
    }

    /// True if a write-set ordered after `since` touched one of `keys` (or if that is no
    /// longer known): a statement executed on the state at `since` must run again.
    pub fn touched_since(&self, since: Seqno, keys: &[(u64, Mode)]) -> bool {
        self.any_since(since, |ks, _| {
            ks.iter().any(|k| keys.iter().any(|(x, _)| x == k))
        })
    }

    /// Number of transactions waiting for a lock.
    pub fn waiting(&self) -> usize {
        self.state.lock().waits_for.len()
    }

    /// Number of keys locked (for status).
    pub fn locked_keys(&self) -> usize {
        self.state.lock().entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    const T: Duration = Duration::from_secs(5);
    const X: Mode = Mode::Exclusive;
    const S: Mode = Mode::Shared;

    #[test]
    fn exclusive_excludes_and_shared_shares() {
        let m = LockManager::default();
        assert_eq!(m.acquire(1, &[(10, X), (20, S)], T), Ok(false));
        assert_eq!(m.acquire(2, &[(20, S)], T), Ok(false), "shared with shared");
        assert_eq!(
            m.acquire(2, &[(10, X)], Duration::from_millis(20)),
            Err(LockError::Timeout)
        );
        assert_eq!(
            m.acquire(3, &[(20, X)], Duration::from_millis(20)),
            Err(LockError::Timeout)
        );
        assert_eq!(
            m.acquire(1, &[(10, X), (20, S)], T),
            Ok(false),
            "re-acquire is free"
        );
        m.release(1);
        assert_eq!(m.acquire(2, &[(10, X)], T), Ok(false));
        m.release(2);
        assert_eq!(m.locked_keys(), 0);
    }

    #[test]
    fn a_waiter_is_granted_when_the_holder_ends() {
        let m = Arc::new(LockManager::default());
        m.acquire(1, &[(10, X)], T).unwrap();
        let m2 = m.clone();
        let waiter = std::thread::spawn(move || m2.acquire(2, &[(10, X)], T));
        // The waiter is blocked until 1 releases: wait until it is registered.
        while m.state.lock().waits_for.get(&2) != Some(&1) {
            std::thread::yield_now();
        }
        m.release(1);
        assert_eq!(waiter.join().unwrap(), Ok(true), "it waited");
    }

    #[test]
    fn cycles_are_deadlocks() {
        let m = Arc::new(LockManager::default());
        m.acquire(1, &[(10, X)], T).unwrap();
        m.acquire(2, &[(20, X)], T).unwrap();
        let m2 = m.clone();
        let t1 = std::thread::spawn(move || m2.acquire(1, &[(20, X)], T));
        while m.state.lock().waits_for.get(&1) != Some(&2) {
            std::thread::yield_now();
        }
        assert_eq!(m.acquire(2, &[(10, X)], T), Err(LockError::Deadlock));
        m.release(2); // the victim rolls back
        assert_eq!(t1.join().unwrap(), Ok(true));
    }

    #[test]
    fn bf_abort_releases_victims_and_spares_the_writer() {
        let m = LockManager::default();
        m.acquire(1, &[(10, X)], T).unwrap();
        m.acquire(2, &[(20, S), (99, S)], T).unwrap();
        m.acquire(3, &[(30, X), (99, S)], T).unwrap();
        // A write-set of local trx 3 changing 10 and depending on 20: 1 is aborted, 2 not.
        assert_eq!(m.bf_abort(&[10, 30], &[20], &[], Some(3)), vec![1]);
        assert!(m.is_aborted(1) && !m.is_aborted(2) && !m.is_aborted(3));
        assert_eq!(m.acquire(1, &[(11, X)], T), Err(LockError::Aborted));
        assert_eq!(
            m.acquire(4, &[(10, X)], T),
            Ok(false),
            "victim's locks are gone"
        );
        // A schema change on table 99 aborts everyone writing it.
        let mut v = m.bf_abort(&[], &[], &[99], None);
        v.sort();
        assert_eq!(v, vec![2, 3]);
        m.release(1);
        assert!(!m.is_aborted(1));
    }
}

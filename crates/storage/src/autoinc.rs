//! AUTO_INCREMENT ids, handed out as InnoDB does (`innodb_autoinc_lock_mode = 1`,
//! "consecutive", MariaDB's default), through the SQL function `tutti_autoinc(x)`.
//!
//! Every value of a table's AUTO_INCREMENT column goes through `tutti_autoinc(x)`: it
//! returns x when x is a real id, or the next id when x is NULL or 0. The ids follow this
//! node's `auto_increment_offset` / `auto_increment_increment` (the Galera scheme: node i
//! of n generates ids ≡ i mod n, so nodes inserting at once never pick the same id).
//!
//! InnoDB's rules, which applications and MariaDB's tests see as the ids' gaps:
//!
//! * **Reservation.** The first generated id of a statement reserves an interval: as many
//!   ids as the `VALUES` list has rows, or for `INSERT … SELECT` (from its own table too)
//!   1, then 2, 4, 8, … ids each time the interval runs out. When an explicit id
//!   moved past the interval, the next one reserves as many ids as rows are left. Reserved
//!   ids are spent even when the statement fails or its transaction rolls back: the next
//!   statement starts after them.
//! * **Explicit ids.** An explicit id at or past the next one moves the next one past it.
//! * **Restore.** A row that `INSERT IGNORE` skips, or that `ON DUPLICATE KEY UPDATE`
//!   turns into an update, gives its id back to the next row of the statement; an
//!   explicit id of such a row does not move the counter. `tutti_autoinc` learns whether
//!   the previous row was inserted from SQLite's last inserted rowid (the AUTO_INCREMENT
//!   column is the rowid), which is exact only when SQLite inserts each `VALUES` row
//!   before computing the next (no subquery in the rows): the SQL front-end asks for
//!   restoring only then ([`IdPlan::restore`]).
//!
//! The largest reserved id per table lives in memory ([`AutoInc::prepare`] starts past
//! it) until a schema change folds it into `sqlite_sequence` ([`AutoInc::fold`]), which
//! DROP TABLE and TRUNCATE then clear and ALTER TABLE carries over, as InnoDB's counter
//! goes. A restart forgets ids that were only reserved, as MariaDB before 10.2.4 did.

use parking_lot::Mutex;
use rusqlite::functions::FunctionFlags;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Result};
use std::collections::HashMap;
use std::sync::Arc;

/// How many ids a statement reserves when it needs one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reserve {
    /// One at a time: no id is spent unused.
    Each,
    /// All rows of a `VALUES` list at once.
    Rows(u64),
    /// 1, 2, 4, … (up to 65536) ids, each time the last interval runs out.
    Doubling,
}

/// The AUTO_INCREMENT behaviour of one INSERT or REPLACE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdPlan {
    /// Its reservation.
    pub reserve: Reserve,
    /// A row that is not inserted gives its id back (see the module doc).
    pub restore: bool,
}

/// The generator of one connection (the writer's, or a session's for its temporary
/// tables).
#[derive(Default, Debug)]
pub struct AutoInc {
    state: Mutex<State>,
}

#[derive(Default, Debug)]
struct State {
    /// Per table, the largest id reserved and not yet folded into `sqlite_sequence`.
    reserved: HashMap<String, i64>,
    statement: Statement,
}

/// The generator's state during one statement, named after MySQL's handler fields.
#[derive(Debug)]
struct Statement {
    /// The table, when its reservations are remembered.
    table: Option<String>,
    grid: Grid,
    plan: IdPlan,
    /// The largest id in use or reserved (InnoDB's counter is one past it).
    floor: i64,
    /// The next id to hand out (0: none yet), and the last id of its interval.
    next: i64,
    interval_end: i64,
    intervals: u32,
    /// Rows the reservations are still meant for (InnoDB's `trx->n_autoinc_rows`),
    /// counted down as rows are written; and the rows seen so far.
    remaining: u64,
    rows: u64,
    /// The previous row's id, until the next call learns whether it was inserted.
    pending: Option<Pending>,
    first: Option<i64>,
}

impl Default for Statement {
    fn default() -> Statement {
        Statement {
            table: None,
            grid: Grid::new(1, 1),
            plan: IdPlan {
                reserve: Reserve::Each,
                restore: false,
            },
            floor: 0,
            next: 0,
            interval_end: 0,
            intervals: 0,
            remaining: 0,
            rows: 0,
            pending: None,
            first: None,
        }
    }
}

/// What to undo when the previous row turns out not to be inserted.
#[derive(Debug, Clone, Copy)]
struct Pending {
    id: i64,
    next: i64,
    floor: i64,
}

/// The ids ≡ offset (mod increment) this node may generate.
#[derive(Debug, Clone, Copy)]
struct Grid {
    offset: i64,
    increment: i64,
}

impl Grid {
    fn new(offset: u64, increment: u64) -> Grid {
        let increment = increment.clamp(1, 65535) as i64;
        let offset = ((offset.max(1) as i64 - 1) % increment) + 1;
        Grid { offset, increment }
    }

    /// The smallest id of the grid above `floor`.
    fn after(self, floor: i64) -> i64 {
        if floor < self.offset {
            self.offset
        } else {
            let steps = (floor - self.offset) / self.increment + 1;
            self.offset
                .saturating_add(steps.saturating_mul(self.increment))
        }
    }
}

/// The largest interval a reservation takes (MySQL's `AUTO_INC_DEFAULT_NB_MAX`).
const MAX_INTERVAL: u64 = 65536;

impl AutoInc {
    /// Arms the generator for one statement on `table`, whose largest id in use is
    /// `max_existing`. `remember` keeps the reservations past the statement (not for the
    /// invisible key of a table without PRIMARY KEY, whose ids nobody sees).
    pub fn prepare(
        &self,
        table: &str,
        remember: bool,
        max_existing: i64,
        (offset, increment): (u64, u64),
        plan: IdPlan,
    ) {
        let mut s = self.state.lock();
        let reserved = s.reserved.get(table).copied().unwrap_or(0);
        s.statement = Statement {
            table: remember.then(|| table.to_string()),
            grid: Grid::new(offset, increment),
            plan,
            floor: max_existing.max(reserved),
            ..Statement::default()
        };
    }

    /// The first id generated by the last statement (its LAST_INSERT_ID), if any.
    pub fn first_generated(&self) -> Option<i64> {
        self.state.lock().statement.first
    }

    /// The largest id reserved for `table` and not yet in its `sqlite_sequence` row.
    pub fn reserved(&self, table: &str) -> Option<i64> {
        self.state.lock().reserved.get(table).copied()
    }

    /// Writes the remembered reservations into `<schema>.sqlite_sequence` (before a schema
    /// change, in its transaction) and forgets them.
    pub fn fold(&self, c: &Connection, schema: &str) -> Result<()> {
        let reserved = std::mem::take(&mut self.state.lock().reserved);
        if reserved.is_empty() {
            return Ok(()); // most schema changes: nothing to write
        }
        // A rolled-back CREATE TEMPORARY TABLE takes `temp.sqlite_sequence` with it.
        let sequence: bool = c.query_row(
            &format!(
                "SELECT EXISTS (SELECT 1 FROM {schema}.sqlite_schema \
                 WHERE type = 'table' AND name = 'sqlite_sequence')"
            ),
            [],
            |r| r.get(0),
        )?;
        if !sequence {
            return Ok(());
        }
        for (table, id) in reserved {
            c.execute(
                &format!("UPDATE {schema}.sqlite_sequence SET seq = max(seq, ?2) WHERE name = ?1"),
                rusqlite::params![table, id],
            )?;
            c.execute(
                &format!(
                    "INSERT INTO {schema}.sqlite_sequence (name, seq) SELECT ?1, ?2 \
                     WHERE NOT EXISTS (SELECT 1 FROM {schema}.sqlite_sequence WHERE name = ?1) \
                     AND EXISTS (SELECT 1 FROM {schema}.sqlite_schema \
                                 WHERE type = 'table' AND name = ?1)"
                ),
                rusqlite::params![table, id],
            )?;
        }
        Ok(())
    }

    /// The id of one row: `explicit` when it is a real id, else the next one.
    /// `last_inserted` is the connection's last inserted rowid, asked only to restore.
    fn next(&self, explicit: Option<i64>, last_inserted: impl FnOnce() -> i64) -> i64 {
        let mut s = self.state.lock();
        let State {
            reserved,
            statement: st,
        } = &mut *s;
        if let Some(p) = st.pending.take() {
            if last_inserted() != p.id {
                st.next = p.next;
                st.floor = p.floor;
            }
        }
        if st.rows > 0 {
            st.remaining = st.remaining.saturating_sub(1); // the previous row was written
        }
        st.rows += 1;
        let id = match explicit {
            Some(v) => {
                let undo = Pending {
                    id: v,
                    next: st.next,
                    floor: st.floor,
                };
                if st.next != 0 && v >= st.next {
                    st.next = st.grid.after(v);
                }
                st.floor = st.floor.max(v);
                st.pending = st.plan.restore.then_some(undo);
                return v;
            }
            None => {
                if st.next == 0 || st.next > st.interval_end {
                    st.reserve_interval();
                    if let Some(t) = &st.table {
                        let r = reserved.entry(t.clone()).or_default();
                        *r = (*r).max(st.interval_end);
                    }
                }
                st.next
            }
        };
        let before = st.next;
        st.next = id.saturating_add(st.grid.increment);
        st.first.get_or_insert(id);
        st.pending = st.plan.restore.then_some(Pending {
            id,
            next: before,
            floor: st.floor,
        });
        id
    }
}

impl Statement {
    /// Takes the next interval of ids past everything in use or reserved.
    fn reserve_interval(&mut self) {
        if self.remaining == 0 {
            self.remaining = match (self.plan.reserve, self.intervals) {
                (Reserve::Each, _) => 1,
                (Reserve::Rows(n), 0) => n.max(1),
                (_, k) => 1u64 << k.min(16),
            };
        }
        let count = self.remaining.min(MAX_INTERVAL) as i64;
        let first = self.grid.after(self.floor);
        self.interval_end = first.saturating_add((count - 1).saturating_mul(self.grid.increment));
        self.floor = self.interval_end;
        self.next = first;
        self.intervals += 1;
    }
}

/// Readers cannot write, but must know the function so INSERTs can be prepared on them.
pub(crate) fn register_reader_stub(c: &Connection) -> Result<()> {
    c.create_scalar_function(
        "tutti_autoinc",
        1,
        FunctionFlags::SQLITE_UTF8,
        |_| -> Result<i64> {
            Err(rusqlite::Error::UserFunctionError(
                "tutti_autoinc runs on the writer only".into(),
            ))
        },
    )
}

/// `tutti_autoinc()` with its state (the writer's, or a session's for its temporary tables).
pub(crate) fn register(c: &Connection, autoinc: Arc<AutoInc>) -> Result<()> {
    c.create_scalar_function("tutti_autoinc", 1, FunctionFlags::SQLITE_UTF8, move |ctx| {
        let explicit = match ctx.get_raw(0) {
            ValueRef::Integer(0) | ValueRef::Null | ValueRef::Blob(_) => None,
            ValueRef::Integer(i) => Some(i),
            ValueRef::Real(0.0) => None,
            ValueRef::Real(r) => Some(r as i64),
            ValueRef::Text(t) => std::str::from_utf8(t)
                .ok()
                .and_then(|s| s.trim().parse::<i64>().ok())
                .filter(|i| *i != 0),
        };
        // SAFETY: the handle only reads the last inserted rowid, on the calling thread.
        let last_inserted = || unsafe { ctx.get_connection() }.map_or(0, |c| c.last_insert_rowid());
        Ok(autoinc.next(explicit, last_inserted))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EACH: IdPlan = IdPlan {
        reserve: Reserve::Each,
        restore: false,
    };

    fn plan(reserve: Reserve, restore: bool) -> IdPlan {
        IdPlan { reserve, restore }
    }

    /// Ids for rows given as (explicit id, inserted?), as `tutti_autoinc` sees them.
    fn run(a: &AutoInc, rows: &[(Option<i64>, bool)]) -> Vec<i64> {
        let mut last = 0;
        let mut out = Vec::new();
        for (explicit, inserted) in rows {
            let id = a.next(*explicit, || last);
            if *inserted {
                last = id;
            }
            out.push(id);
        }
        out
    }

    #[test]
    fn ids_follow_offset_and_increment() {
        let a = AutoInc::default();
        a.prepare("t", true, 0, (1, 1), EACH);
        assert_eq!(run(&a, &[(None, true), (None, true)]), [1, 2]);
        assert_eq!(a.first_generated(), Some(1));
        a.prepare("t", true, 10, (2, 3), EACH); // node 2 of 3: 2, 5, 8, 11, ...
        assert_eq!(run(&a, &[(None, true), (None, true)]), [11, 14]);
        a.prepare("u", true, 0, (3, 3), EACH);
        assert_eq!(
            run(&a, &[(None, true), (Some(100), true), (None, true)]),
            [3, 100, 102]
        );
        a.prepare("v", true, 5, (1, 1), EACH);
        assert_eq!(a.first_generated(), None);
    }

    #[test]
    fn a_statement_spends_the_ids_it_reserved() {
        // MariaDB: a failed 2-row INSERT spends 1 and 2; so does the next; then 5.
        let a = AutoInc::default();
        for first in [1, 3] {
            a.prepare("t", true, 0, (1, 1), plan(Reserve::Rows(2), false));
            assert_eq!(run(&a, &[(None, true), (None, false)]), [first, first + 1]);
        }
        a.prepare("t", true, 0, (1, 1), plan(Reserve::Rows(1), false));
        assert_eq!(run(&a, &[(None, true)]), [5]);
        // INSERT ... SELECT of 5 rows reserves 1, 2, then 4 ids: the next statement gets 13.
        a.prepare("t", true, 5, (1, 1), plan(Reserve::Doubling, false));
        assert_eq!(run(&a, &[(None, true); 5]), [6, 7, 8, 9, 10]);
        a.prepare("t", true, 10, (1, 1), EACH);
        assert_eq!(run(&a, &[(None, true)]), [13]);
        assert_eq!(a.reserved("t"), Some(13));
        // An invisible key's ids are not remembered.
        a.prepare("h", false, 0, (1, 1), plan(Reserve::Rows(9), false));
        run(&a, &[(None, true)]);
        assert_eq!(a.reserved("h"), None);
    }

    #[test]
    fn rows_not_inserted_give_their_id_back() {
        // INSERT IGNORE of (NULL,10),(NULL,20),(NULL,dup),(NULL,dup),(NULL,dup),(NULL,90)
        // after ids 1..3: 4, 5, then 6 three times until 90 takes it; the next is 10.
        let a = AutoInc::default();
        a.prepare("t", true, 3, (1, 1), plan(Reserve::Rows(6), true));
        let rows = [true, true, false, false, false, true].map(|ok| (None, ok));
        assert_eq!(run(&a, &rows), [4, 5, 6, 6, 6, 6]);
        // (NULL,130),(NULL,140),(500,dup),(550,dup),(450,dup),(NULL,150): 10, 11, 12.
        a.prepare("t", true, 6, (1, 1), plan(Reserve::Rows(6), true));
        let rows = [
            (None, true),
            (None, true),
            (Some(500), false),
            (Some(550), false),
            (Some(450), false),
            (None, true),
        ];
        assert_eq!(run(&a, &rows), [10, 11, 500, 550, 450, 12]);
        a.prepare("t", true, 12, (1, 1), EACH);
        assert_eq!(run(&a, &[(None, true)]), [16]);
        // An explicit id that is inserted moves the next one past it; the id after it
        // reserves the one row left.
        a.prepare("t", true, 16, (1, 1), plan(Reserve::Rows(3), true));
        let rows = [(None, true), (Some(50), true), (None, true)];
        assert_eq!(run(&a, &rows), [17, 50, 51]);
        assert_eq!(a.reserved("t"), Some(51));
    }

    #[test]
    fn fold_writes_reservations_into_sqlite_sequence() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT);
             CREATE TABLE u (id INTEGER PRIMARY KEY AUTOINCREMENT);
             INSERT INTO u VALUES (2);",
        )
        .unwrap();
        let a = AutoInc::default();
        for (table, rows) in [("t", 3), ("u", 4), ("gone", 1)] {
            a.prepare(table, true, 0, (1, 1), plan(Reserve::Rows(rows), false));
            run(&a, &[(None, false)]);
        }
        a.fold(&c, "main").unwrap();
        let seq = |t: &str| -> Option<i64> {
            c.query_row(
                "SELECT seq FROM sqlite_sequence WHERE name = ?1",
                [t],
                |r| r.get(0),
            )
            .ok()
        };
        assert_eq!((seq("t"), seq("u"), seq("gone")), (Some(3), Some(4), None));
        assert_eq!(a.reserved("t"), None);
        // A schema without any AUTOINCREMENT table (the temporary one was rolled back).
        a.prepare("x", true, 0, (1, 1), plan(Reserve::Rows(2), false));
        run(&a, &[(None, false)]);
        a.fold(&c, "temp").unwrap();
        assert_eq!(a.reserved("x"), None);
    }
}

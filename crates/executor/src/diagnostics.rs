//! The session's diagnostics area: the conditions of the latest statement, as `SHOW
//! WARNINGS`, `SHOW ERRORS`, `@@warning_count` and `@@error_count` report them.
//!
//! A statement's warnings and notes are raised while it runs (tutti's SQL functions record
//! them on the statement's thread, see `tutti_storage::raise`), its error by the protocol
//! layer, which knows MySQL's code. As in MariaDB, a statement that raises nothing and
//! uses no table (`SELECT 1`, `SET`, the diagnostic statements themselves) leaves the
//! previous statement's conditions in place; any other replaces them.

use tutti_sql::{QueryKind, Show, Stmt};
use tutti_storage::{Condition, Level};
use tutti_wsrep::Value;

use crate::result::{Column, ResultSet};

/// The conditions of the latest statement that had or cleared any.
#[derive(Default)]
pub(crate) struct Diagnostics {
    /// Kept conditions (at most `tutti_storage::MAX_KEPT`).
    conditions: Vec<Condition>,
    /// All conditions raised, kept or not (`@@warning_count`).
    count: usize,
    /// The current statement has replaced the conditions (its error adds to them).
    current: bool,
    /// Nesting of statements run by statements (`EXECUTE`, `SET STATEMENT ... FOR`):
    /// only the outermost collects.
    depth: usize,
    /// Conditions raised by each statement of the latest request (the OK packets' counts).
    per_statement: Vec<u16>,
}

impl Diagnostics {
    /// A client request starts.
    pub fn start_request(&mut self) {
        self.per_statement.clear();
    }

    /// The request's next statement starts (it has not replaced the conditions yet).
    pub fn next_statement(&mut self) {
        self.current = false;
    }

    /// The statement runs once more (after this node caught up with the cluster): its
    /// first run's count goes.
    pub fn retry(&mut self) {
        self.per_statement.pop();
        self.current = false;
    }

    /// A statement starts running.
    pub fn enter(&mut self) {
        if self.depth == 0 {
            tutti_storage::clear_conditions();
        }
        self.depth += 1;
    }

    /// A statement ran: what it raised replaces the previous conditions unless it raised
    /// nothing and `keeps` them.
    pub fn leave(&mut self, keeps: bool) {
        self.depth = self.depth.saturating_sub(1);
        if self.depth > 0 {
            return;
        }
        let (raised, count) = tutti_storage::take_conditions();
        if count > 0 || !keeps {
            self.conditions = raised;
            self.count = count;
            self.current = true;
        }
        self.per_statement
            .push(u16::try_from(count).unwrap_or(u16::MAX));
    }

    /// The statement failed with MySQL error `code`.
    pub fn error(&mut self, code: u16, message: &str) {
        if !self.current {
            self.conditions.clear();
            self.count = 0;
        }
        self.count += 1;
        if self.conditions.len() < tutti_storage::MAX_KEPT {
            self.conditions.push(Condition {
                level: Level::Error,
                code,
                message: message.to_string(),
            });
        }
        self.current = false;
    }

    /// Conditions raised by each statement of the latest request.
    pub fn per_statement(&self) -> &[u16] {
        &self.per_statement
    }

    /// `@@warning_count`: all conditions, errors included.
    pub fn warning_count(&self) -> usize {
        self.count
    }

    /// `@@error_count`.
    pub fn error_count(&self) -> usize {
        self.errors().count()
    }

    fn errors(&self) -> impl Iterator<Item = &Condition> {
        self.conditions.iter().filter(|c| c.level == Level::Error)
    }

    /// `SHOW WARNINGS` (every condition) or `SHOW ERRORS`.
    pub fn show(&self, errors_only: bool) -> ResultSet {
        let list: Vec<&Condition> = if errors_only {
            self.errors().collect()
        } else {
            self.conditions.iter().collect()
        };
        let rows = list
            .into_iter()
            .map(|c| {
                vec![
                    Value::Text(c.level.word().into()),
                    Value::Int(i64::from(c.code)),
                    Value::Text(c.message.clone()),
                ]
            })
            .collect();
        let mut code = Column::int("Code");
        code.unsigned = true;
        ResultSet {
            columns: vec![Column::text("Level"), code, Column::text("Message")],
            rows,
        }
    }
}

/// `CREATE TABLE IF NOT EXISTS` of a table that exists: MariaDB's note 1050.
pub(crate) fn note_table_exists(table: &tutti_sql::TableName) {
    let message = format!("Table '{}' already exists", table.table);
    tutti_storage::raise(Level::Note, 1050, message);
}

/// True for a statement that leaves the previous conditions in place when it raises
/// none: it uses no table.
pub(crate) fn keeps(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Show(s) => matches!(s, Show::Warnings | Show::Errors | Show::Count { .. }),
        Stmt::Query(q) => {
            q.kind == QueryKind::Select && q.reads.as_ref().is_some_and(|r| r.is_empty())
        }
        Stmt::Set(_)
        | Stmt::Begin { .. }
        | Stmt::Commit
        | Stmt::Rollback
        | Stmt::Use(_)
        | Stmt::Do(_)
        | Stmt::Noop(_) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_replaces_the_conditions_unless_it_keeps_them_and_raised_none() {
        let mut d = Diagnostics::default();
        d.start_request();
        d.enter();
        tutti_storage::warn(1365, "Division by 0");
        d.leave(true);
        assert_eq!((d.warning_count(), d.per_statement()), (1, &[1u16][..]));
        // SELECT 1: nothing raised, kept
        d.start_request();
        d.enter();
        d.leave(true);
        assert_eq!((d.warning_count(), d.per_statement()), (1, &[0u16][..]));
        // a statement using a table clears
        d.start_request();
        d.enter();
        d.leave(false);
        assert_eq!(d.warning_count(), 0);
        // nested statements: the outer one collects once
        d.start_request();
        d.enter();
        d.enter();
        tutti_storage::warn(1265, "Data truncated for column 'a' at row 1");
        d.leave(false);
        d.leave(false);
        assert_eq!((d.warning_count(), d.per_statement()), (1, &[1u16][..]));
        // an error adds to what its statement raised, else replaces
        d.error(1062, "Duplicate entry '1' for key 'PRIMARY'");
        assert_eq!((d.warning_count(), d.error_count()), (2, 1));
        d.start_request();
        d.next_statement();
        d.error(1064, "You have an error in your SQL syntax");
        assert_eq!((d.warning_count(), d.error_count()), (1, 1));
        assert_eq!(d.show(true).rows[0][1], Value::Int(1064));
    }
}

//! Schema changes, replicated as statements and executed in total order (TOI).
//!
//! The SQL front-end translates MySQL DDL into SQLite statements *before* replication, with
//! every name already resolved, so each node executes byte-identical statements at the same
//! place in the order and reaches the same schema (or the same error) deterministically.

use crate::codec::{Decoder, Encoder};
use crate::WsrepError;

/// One schema change, ready to execute on any node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ddl {
    /// `CREATE DATABASE [IF NOT EXISTS] name [CHARACTER SET cs] [COLLATE c]`.
    CreateDatabase {
        /// The database name.
        name: String,
        /// Succeed silently when it exists.
        if_not_exists: bool,
        /// Its default collation (MariaDB's name; None: the server's, utf8mb4_general_ci).
        collation: Option<String>,
    },
    /// `ALTER DATABASE name [CHARACTER SET cs] [COLLATE c]`: its default collation.
    AlterDatabase {
        /// The database name.
        name: String,
        /// The new default collation (MariaDB's name).
        collation: String,
    },
    /// `DROP DATABASE [IF EXISTS] name`: drops every table of the database too.
    DropDatabase {
        /// The database name.
        name: String,
        /// Succeed silently when it does not exist.
        if_exists: bool,
    },
    /// Table-level DDL as SQLite statements, run in one transaction in order.
    Schema {
        /// The database the statements live in; it must exist when they run.
        database: String,
        /// The SQLite statements (CREATE/DROP/ALTER TABLE, CREATE/DROP INDEX, ...).
        statements: Vec<String>,
    },
}

impl Ddl {
    /// Appends the binary form.
    pub fn encode(&self, e: &mut Encoder) {
        match self {
            Ddl::CreateDatabase {
                name,
                if_not_exists,
                collation: None,
            } => {
                e.u8(1).str(name).u8(*if_not_exists as u8);
            }
            Ddl::CreateDatabase {
                name,
                if_not_exists,
                collation: Some(collation),
            } => {
                e.u8(4).str(name).u8(*if_not_exists as u8).str(collation);
            }
            Ddl::AlterDatabase { name, collation } => {
                e.u8(5).str(name).str(collation);
            }
            Ddl::DropDatabase { name, if_exists } => {
                e.u8(2).str(name).u8(*if_exists as u8);
            }
            Ddl::Schema {
                database,
                statements,
            } => {
                e.u8(3).str(database).strs(statements);
            }
        }
    }

    /// Reads the binary form.
    pub fn decode(d: &mut Decoder<'_>) -> Result<Ddl, WsrepError> {
        Ok(match d.u8()? {
            1 => Ddl::CreateDatabase {
                name: d.str()?,
                if_not_exists: d.u8()? != 0,
                collation: None,
            },
            4 => Ddl::CreateDatabase {
                name: d.str()?,
                if_not_exists: d.u8()? != 0,
                collation: Some(d.str()?),
            },
            5 => Ddl::AlterDatabase {
                name: d.str()?,
                collation: d.str()?,
            },
            2 => Ddl::DropDatabase {
                name: d.str()?,
                if_exists: d.u8()? != 0,
            },
            3 => Ddl::Schema {
                database: d.str()?,
                statements: d.strs()?,
            },
            t => {
                return Err(WsrepError::Invalid {
                    what: "ddl tag",
                    value: t as u64,
                })
            }
        })
    }

    /// The database this change concerns.
    pub fn database(&self) -> &str {
        match self {
            Ddl::CreateDatabase { name, .. }
            | Ddl::DropDatabase { name, .. }
            | Ddl::AlterDatabase { name, .. } => name,
            Ddl::Schema { database, .. } => database,
        }
    }
}

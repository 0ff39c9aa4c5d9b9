//! `CREATE TABLE` → one replicated [`Ddl::Schema`]: the SQLite `CREATE TABLE` followed by one
//! `CREATE [UNIQUE] INDEX "db.t.name"` per MySQL key.
//!
//! * tutti replicates rows by primary key. A PRIMARY KEY's columns are made NOT NULL and
//!   it is declared as a table constraint `PRIMARY KEY ("a", "b")`. A table without one is
//!   keyed by SQLite's rowid, its invisible key ([`crate::INVISIBLE_KEY`]) — unless the
//!   global `innodb_force_primary_key` is ON (MariaDB's switch, PXC's strict mode), which
//!   refuses it with `SqlError::NoPrimaryKey` (1173).
//! * AUTO_INCREMENT is allowed only on the single-column integer PRIMARY KEY, which is then
//!   declared exactly `INTEGER` — SQLite's rowid alias, which is how tutti recognises the
//!   AUTO_INCREMENT column later. Conversely an integer primary key without AUTO_INCREMENT
//!   is never declared exactly `INTEGER` (it becomes `INT`).
//! * `KEY`/`INDEX`/`UNIQUE` (inline or as constraints) become separate indexes named
//!   `"db.t.<mysql name>"`; unnamed ones get MySQL's default name (first column, `_2`, ...).
//!   A FOREIGN KEY gets an index on its columns too, as in MySQL, unless an index already
//!   starts with them; the constraint itself becomes a SQLite FOREIGN KEY to the resolved
//!   parent table. CHECK constraints are kept (NOT ENFORCED ones dropped).
//! * `CREATE OR REPLACE TABLE` drops the table first, in the same schema change.
//! * Table options (ENGINE, CHARSET, COLLATE, COMMENT, ROW_FORMAT, ...) are ignored, except
//!   that a case-sensitive default COLLATE makes text columns binary and `AUTO_INCREMENT=n`
//!   sets the first id (a `sqlite_sequence` row of n − 1).
//! * FULLTEXT/SPATIAL keys, partitioning and temporary tables are refused; `CREATE TABLE
//!   ... SELECT` is `create_select`, `CREATE TABLE ... LIKE` [`Stmt::CreateLike`] (the
//!   executor copies the source's SQLite definition).

use sqlparser::ast::{CreateTable, CreateTableOptions, SqlOption, TableConstraint};

use crate::columns::{
    check_sql, column, default_index_name, index_sql, key_parts, text_collation, ColumnOut,
    KeyPart, GENERAL_CI,
};
use crate::dispatch::Res;
use crate::names::{quote_literal, quote_str, resolve};
use crate::{DdlStmt, Env, SqlError, Stmt, TableName};
use tutti_wsrep::Ddl;

/// An index to create after the table.
struct Key {
    name: Option<String>,
    unique: bool,
    parts: Vec<KeyPart>,
    /// The index MySQL adds for a FOREIGN KEY (skipped when another index covers it).
    implicit: bool,
}

/// Translates `CREATE TABLE`.
pub(crate) fn create_table(env: &dyn Env, ct: CreateTable) -> Res<Stmt> {
    let mut engine = DEFAULT_ENGINE;
    for o in option_list(&ct.table_options) {
        if let SqlOption::NamedParenthesizedList(l) = o {
            if let Some(e) = l.name.as_ref().filter(|_| l.key.value == "ENGINE") {
                engine = engine_name(&e.value)?;
            }
        }
    }
    if let Some(
        sqlparser::ast::CreateTableLikeKind::Plain(like)
        | sqlparser::ast::CreateTableLikeKind::Parenthesized(like),
    ) = &ct.like
    {
        let table = resolve(env, &ct.name)?;
        let source = resolve(env, &like.name)?;
        if !env.database_exists(&table.db) {
            return Err(SqlError::UnknownDatabase(table.db.clone()).into());
        }
        if env.table(&source).is_none() {
            return Err(SqlError::NoSuchTable(source.to_string()).into());
        }
        return Ok(Stmt::CreateLike {
            table,
            source,
            if_not_exists: ct.if_not_exists,
            temporary: ct.temporary,
        });
    }
    if ct.clone.is_some() {
        return Err(SqlError::Unsupported("CREATE TABLE ... CLONE".into()).into());
    }
    if ct.partition_by.is_some() {
        return Err(SqlError::Unsupported("partitioned tables".into()).into());
    }
    let table = resolve(env, &ct.name)?;
    if !env.database_exists(&table.db) {
        return Err(SqlError::UnknownDatabase(table.db.clone()).into());
    }
    // A temporary table may hide a table of the same name, and a table be created under one.
    let exists = if ct.temporary {
        env.is_temporary(&table)
    } else {
        let sequence = crate::sequences::is_sequence(&table.table);
        if sequence && !ct.if_not_exists {
            return Err(SqlError::TableExists(table.table.clone()).into());
        }
        sequence || env.table(&table).is_some() && !env.is_temporary(&table)
    };
    if ct.if_not_exists && exists {
        let note = crate::Note {
            code: TABLE_EXISTS,
            message: format!("Table '{}' already exists", table.table),
            warning: false,
        };
        let noop = Stmt::Noop(format!("CREATE TABLE IF NOT EXISTS {table}"));
        return Ok(noop.noted(vec![note]));
    }
    let mut table_charset = TableCharset::of(&ct.table_options)?;
    if table_charset.charset.is_none() && table_charset.collation.is_none() {
        table_charset.collation = env.database_collation(&table.db);
    }
    let default_collation = table_charset.text_collation();
    let default_charset = table_charset.single_byte();
    let mut columns: Vec<ColumnOut> = ct
        .columns
        .iter()
        .map(|c| {
            column(
                env,
                c,
                default_collation,
                default_charset.as_deref(),
                table_charset.mbmaxlen(),
            )
        })
        .collect::<Result<_, _>>()?;
    let notes: Vec<crate::Note> = columns.iter().flat_map(|c| c.notes.clone()).collect();

    let mut pk: Option<Vec<KeyPart>> = None;
    let mut keys: Vec<Key> = Vec::new();
    let mut constraints: Vec<String> = Vec::new();
    let set_pk = |parts: Vec<KeyPart>, pk: &mut Option<Vec<KeyPart>>| {
        if pk.replace(parts).is_some() {
            Err(SqlError::MultiplePrimaryKey)
        } else {
            Ok(())
        }
    };
    for c in &mut columns {
        if c.primary_key {
            set_pk(vec![(c.name.clone(), false)], &mut pk)?;
        }
        if c.unique {
            keys.push(Key {
                name: Some(c.name.clone()),
                unique: true,
                parts: vec![(c.name.clone(), false)],
                implicit: false,
            });
        }
        constraints.append(&mut c.checks);
    }
    for tc in &ct.constraints {
        match tc {
            TableConstraint::PrimaryKey(p) => set_pk(key_parts(&p.columns)?, &mut pk)?,
            TableConstraint::Unique(u) => keys.push(Key {
                name: u
                    .index_name
                    .as_ref()
                    .or(u.name.as_ref())
                    .map(|i| i.value.clone()),
                unique: true,
                parts: key_parts(&u.columns)?,
                implicit: false,
            }),
            TableConstraint::Index(i) => keys.push(Key {
                name: i.name.as_ref().map(|i| i.value.clone()),
                unique: false,
                parts: key_parts(&i.columns)?,
                implicit: false,
            }),
            TableConstraint::ForeignKey(_) if ct.temporary => {
                let name = format!("`{}`.`{}`", table.db, table.table);
                return Err(SqlError::TemporaryForeignKey(name).into());
            }
            TableConstraint::ForeignKey(fk) => {
                let parent = resolve_parent(env, &table, &fk.foreign_table)?;
                if parent != table {
                    if let Some(info) = env.table(&parent) {
                        check_parent_key(&info, fk)?;
                    }
                }
                constraints.push(foreign_key_sql(fk, &parent));
                let parts: Vec<KeyPart> = fk
                    .columns
                    .iter()
                    .map(|c| (c.value.clone(), false))
                    .collect();
                keys.push(Key {
                    name: fk
                        .index_name
                        .as_ref()
                        .or(fk.name.as_ref())
                        .map(|i| i.value.clone()),
                    unique: false,
                    parts,
                    implicit: true,
                });
            }
            TableConstraint::Check(c) => {
                if c.enforced != Some(false) {
                    constraints.push(check_sql(env, c.name.as_ref(), &c.expr)?);
                }
            }
            TableConstraint::FulltextOrSpatial(f) => {
                let kind = if f.fulltext { "FULLTEXT" } else { "SPATIAL" };
                return Err(SqlError::Unsupported(format!("{kind} indexes")).into());
            }
            other => return Err(SqlError::Unsupported(format!("the constraint {other}")).into()),
        }
    }
    let pk = match pk {
        Some(pk) => pk,
        None if force_primary_key(env) => {
            return Err(SqlError::NoPrimaryKey(table.to_string()).into())
        }
        None if columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(crate::INVISIBLE_KEY)) =>
        {
            return Err(SqlError::Unsupported(format!(
                "a column named {} in a table without PRIMARY KEY",
                crate::INVISIBLE_KEY
            ))
            .into())
        }
        None => Vec::new(),
    };
    apply_primary_key(&mut columns, &pk)?;

    let mut body: Vec<String> = columns.iter().map(ColumnOut::sql).collect();
    let pk_cols: Vec<String> = pk
        .iter()
        .map(|(c, desc)| {
            if *desc {
                format!("{} DESC", quote_str(c))
            } else {
                quote_str(c)
            }
        })
        .collect();
    if !columns.iter().any(|c| c.autoinc) && !pk.is_empty() {
        body.push(format!("PRIMARY KEY ({})", pk_cols.join(", ")));
    }
    body.extend(constraints);
    body.extend(table_charset.mark());
    body.extend(crate::column_marks::engine_mark(engine));
    let mut statements = vec![format!(
        "CREATE TABLE {}{} ({})",
        if ct.if_not_exists {
            "IF NOT EXISTS "
        } else {
            ""
        },
        quote_str(&table.sqlite_name()),
        body.join(", ")
    )];
    statements.extend(index_statements(&table, keys, &pk, ct.if_not_exists)?);
    let first_id = first_id(&ct.table_options).filter(|_| columns.iter().any(|c| c.autoinc));
    let schema = if ct.temporary { "temp" } else { "main" };
    let counter = first_id.map(|n| {
        format!(
            "INSERT INTO {schema}.sqlite_sequence (name, seq) VALUES ({}, {})",
            quote_literal(&table.sqlite_name()),
            n.saturating_sub(1).min(i64::MAX as u64)
        )
    });
    if ct.temporary {
        let mut statements = crate::temporary_statements(&statements)?;
        statements.extend(counter);
        if ct.or_replace {
            let drop = format!(
                "DROP TABLE IF EXISTS temp.{}",
                quote_str(&table.sqlite_name())
            );
            statements.insert(0, drop);
        }
        let temp = Stmt::Temporary(crate::TempDdl {
            statements,
            tables: vec![table],
            then: None,
            records: crate::DdlRecords::None,
        });
        return Ok(temp.noted(notes));
    }
    statements.extend(counter);
    if ct.or_replace {
        // CREATE OR REPLACE TABLE: MariaDB drops the table first.
        statements.insert(
            0,
            format!("DROP TABLE IF EXISTS {}", quote_str(&table.sqlite_name())),
        );
    }
    Ok(Stmt::Ddl(DdlStmt {
        ddl: Ddl::Schema {
            database: table.db.clone(),
            statements,
        },
        tables: vec![table],
        records: crate::DdlRecords::None,
    })
    .noted(notes))
}

/// MySQL's code for a table that exists (`ER_TABLE_EXISTS_ERROR`).
const TABLE_EXISTS: u16 = 1050;

/// True when the global `innodb_force_primary_key` refuses tables without a PRIMARY KEY.
pub(crate) fn force_primary_key(env: &dyn Env) -> bool {
    matches!(
        env.system_variable(crate::VarScope::Global, "innodb_force_primary_key"),
        Some(crate::Value::Int(v)) if v != 0
    )
}

fn option_list(options: &CreateTableOptions) -> &[SqlOption] {
    match options {
        CreateTableOptions::Plain(o)
        | CreateTableOptions::With(o)
        | CreateTableOptions::Options(o)
        | CreateTableOptions::TableProperties(o) => o,
        CreateTableOptions::None => &[],
    }
}

/// The engine of a table that names none (`default_storage_engine`).
pub(crate) const DEFAULT_ENGINE: &str = "InnoDB";

/// `ENGINE = e`, as MariaDB names it (`HEAP` is `MEMORY`): every table is tutti's
/// replicated table, which stores and reads rows as the engines that keep them do
/// (InnoDB, MyISAM, Aria, MEMORY, CSV); the name is recorded for SHOW CREATE TABLE and
/// AUTO_INCREMENT (see `column_marks::engine_mark`). The engines whose tables read other
/// tables or nothing (MERGE, SEQUENCE, ...) are refused rather than turned into an
/// ordinary table that answers differently; other names are unknown (1286).
pub(crate) fn engine_name(name: &str) -> Result<&'static str, SqlError> {
    const STORING: [&str; 5] = [DEFAULT_ENGINE, "MyISAM", "Aria", "MEMORY", "CSV"];
    const OTHERS: [&str; 4] = ["MRG_MyISAM", "MERGE", "SEQUENCE", "PERFORMANCE_SCHEMA"];
    let name = if name.eq_ignore_ascii_case("HEAP") {
        "MEMORY"
    } else {
        name
    };
    let known = |list: &[&'static str]| list.iter().find(|e| e.eq_ignore_ascii_case(name)).copied();
    if let Some(e) = known(&STORING) {
        Ok(e)
    } else if known(&OTHERS).is_some() {
        Err(SqlError::Unsupported(format!("the {name} storage engine")))
    } else {
        Err(SqlError::UnknownStorageEngine(name.to_string()))
    }
}

/// Whether a table of `engine` hands out AUTO_INCREMENT ids one at a time: MyISAM, Aria
/// and MEMORY lock the table for an INSERT and take each id as the row is written, where
/// InnoDB reserves intervals (see `tutti_storage`'s `autoinc`).
pub(crate) fn ids_one_at_a_time(engine: &str) -> bool {
    ["MyISAM", "Aria", "MEMORY"].contains(&engine)
}

/// The table option `AUTO_INCREMENT = n`: the first id the table hands out (MySQL takes
/// n = 0 as 1).
fn first_id(options: &CreateTableOptions) -> Option<u64> {
    option_list(options).iter().find_map(|o| match o {
        SqlOption::KeyValue { key, value } if key.value.eq_ignore_ascii_case("AUTO_INCREMENT") => {
            value.to_string().parse::<u64>().ok().filter(|n| *n > 1)
        }
        _ => None,
    })
}

/// The table options `[DEFAULT] CHARSET=cs` and `[DEFAULT] COLLATE=c`, unquoted.
struct TableCharset {
    charset: Option<String>,
    collation: Option<String>,
}

impl TableCharset {
    /// The options of `options`, checked (1115, 1273, 1253).
    fn of(options: &CreateTableOptions) -> Result<TableCharset, SqlError> {
        let mut out = TableCharset {
            charset: None,
            collation: None,
        };
        for o in option_list(options) {
            if let SqlOption::KeyValue { key, value } = o {
                let k = key.value.to_ascii_uppercase();
                let v = value.to_string().trim_matches(['\'', '"']).to_string();
                if k.ends_with("COLLATE") {
                    out.collation = Some(v);
                } else if k.ends_with("CHARSET") || k.ends_with("CHARACTER SET") {
                    out.charset = Some(v);
                }
            }
        }
        crate::charset_names::declared(out.charset.as_deref(), out.collation.as_deref())?;
        Ok(out)
    }

    /// The SQLite collation of the table's text columns (see `columns::text_collation`):
    /// the COLLATE's, else the character set's default one's, else general_ci.
    fn text_collation(&self) -> Option<&'static str> {
        match (&self.collation, &self.charset) {
            (Some(c), _) | (None, Some(c)) => text_collation(c),
            (None, None) => Some(GENERAL_CI),
        }
    }

    /// The most bytes a character takes in the table's default character set.
    fn mbmaxlen(&self) -> u64 {
        match (&self.collation, &self.charset) {
            (Some(c), _) | (None, Some(c)) => crate::columns::mbmaxlen(c),
            (None, None) => 4,
        }
    }

    /// The table's default collation when it belongs to a single-byte character set (see
    /// `columns::single_byte_collation`).
    fn single_byte(&self) -> Option<String> {
        crate::columns::single_byte_collation(self.collation.as_deref(), self.charset.as_deref())
    }

    /// The constraint that records the default collation (see
    /// `column_marks::default_collation_mark`), so that SHOW CREATE TABLE shows it and
    /// ALTER TABLE gives it to the columns it adds.
    fn mark(&self) -> Option<String> {
        let collation = match (&self.collation, &self.charset) {
            (Some(c), _) => c.clone(),
            (None, Some(cs)) => crate::derivation::default_collation(cs),
            (None, None) => return None,
        };
        crate::column_marks::default_collation_mark(&collation)
    }
}

/// The PK columns become NOT NULL; AUTO_INCREMENT must be the single-column integer PK and
/// is declared `INTEGER`; other single-column integer PKs must not be exactly `INTEGER`.
fn apply_primary_key(columns: &mut [ColumnOut], pk: &[KeyPart]) -> Result<(), SqlError> {
    for (name, _) in pk {
        match columns
            .iter_mut()
            .find(|c| c.name.eq_ignore_ascii_case(name))
        {
            Some(c) => c.not_null = true,
            None => return Err(SqlError::KeyColumnMissing(name.clone())),
        }
    }
    for c in columns.iter_mut() {
        let single_pk = matches!(pk, [(n, false)] if n.eq_ignore_ascii_case(&c.name));
        crate::columns::key_column_type(c, single_pk)?;
    }
    Ok(())
}

/// SQLite enforces a FOREIGN KEY only against its parent's PRIMARY KEY or a UNIQUE key (any
/// other parent makes every later write fail with "foreign key mismatch"); MariaDB also
/// accepts a plain index, which tutti refuses here with a clear error.
fn check_parent_key(
    parent: &crate::TableInfo,
    fk: &sqlparser::ast::ForeignKeyConstraint,
) -> Result<(), SqlError> {
    let referred: Vec<&str> = fk
        .referred_columns
        .iter()
        .map(|c| c.value.as_str())
        .collect();
    let same = |key: &[String]| {
        key.len() == referred.len()
            && key
                .iter()
                .all(|k| referred.iter().any(|r| r.eq_ignore_ascii_case(k)))
    };
    let mut pk: Vec<&crate::ColumnInfo> = parent.columns.iter().filter(|c| c.pk > 0).collect();
    pk.sort_by_key(|c| c.pk);
    let pk: Vec<String> = pk.into_iter().map(|c| c.name.clone()).collect();
    let keyed = referred.is_empty()
        || same(&pk)
        || parent.indexes.iter().any(|i| i.unique && same(&i.columns));
    if keyed {
        Ok(())
    } else {
        Err(SqlError::Unsupported(format!(
            "a FOREIGN KEY referencing {}, which is not a PRIMARY KEY or UNIQUE key of {}",
            referred.join(", "),
            parent.name
        )))
    }
}

fn resolve_parent(
    env: &dyn Env,
    child: &TableName,
    name: &sqlparser::ast::ObjectName,
) -> Result<TableName, SqlError> {
    match crate::names::parts(name)?.as_slice() {
        [t] => Ok(TableName::new(child.db.clone(), t.value.clone())),
        _ => resolve(env, name),
    }
}

/// `[CONSTRAINT "n"] FOREIGN KEY ("a") REFERENCES "db.p" ("x") [ON DELETE ..] [ON UPDATE ..]`.
pub(crate) fn foreign_key_sql(
    fk: &sqlparser::ast::ForeignKeyConstraint,
    parent: &TableName,
) -> String {
    let cols = |c: &[sqlparser::ast::Ident]| {
        c.iter()
            .map(|i| quote_str(&i.value))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut s = String::new();
    if let Some(n) = &fk.name {
        s.push_str(&format!("CONSTRAINT {} ", quote_str(&n.value)));
    }
    s.push_str(&format!(
        "FOREIGN KEY ({}) REFERENCES {}",
        cols(&fk.columns),
        quote_str(&parent.sqlite_name())
    ));
    if !fk.referred_columns.is_empty() {
        s.push_str(&format!(" ({})", cols(&fk.referred_columns)));
    }
    if let Some(a) = &fk.on_delete {
        s.push_str(&format!(" ON DELETE {a}"));
    }
    if let Some(a) = &fk.on_update {
        s.push_str(&format!(" ON UPDATE {a}"));
    }
    // Checked at the end of each statement and each applied changeset, not per row (a
    // changeset lists rows by table, so a child may come before its new parent).
    s.push_str(" DEFERRABLE INITIALLY DEFERRED");
    s
}

/// Names the keys (MySQL defaults for unnamed ones) and builds their CREATE INDEX statements.
fn index_statements(
    table: &TableName,
    keys: Vec<Key>,
    pk: &[KeyPart],
    if_not_exists: bool,
) -> Result<Vec<String>, SqlError> {
    let mut taken: Vec<String> = vec!["PRIMARY".into()];
    let mut made: Vec<Vec<KeyPart>> = vec![pk.to_vec()];
    let mut out = Vec::new();
    let (explicit, implicit): (Vec<Key>, Vec<Key>) = keys.into_iter().partition(|k| !k.implicit);
    for key in explicit.into_iter().chain(implicit) {
        let covered = made.iter().any(|m| {
            m.len() >= key.parts.len()
                && m.iter()
                    .zip(&key.parts)
                    .all(|(a, b)| a.0.eq_ignore_ascii_case(&b.0))
        });
        if key.implicit && covered {
            continue;
        }
        let name = match key.name {
            Some(n) if taken.iter().any(|t| t.eq_ignore_ascii_case(&n)) => {
                return Err(SqlError::DuplicateKeyName(n));
            }
            Some(n) => n,
            None => {
                let first = key.parts.first().map(|p| p.0.clone()).unwrap_or_default();
                default_index_name(&first, &taken)
            }
        };
        out.push(index_sql(
            table,
            &name,
            key.unique,
            &key.parts,
            if_not_exists,
        ));
        taken.push(name);
        made.push(key.parts);
    }
    Ok(out)
}

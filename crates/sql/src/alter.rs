//! `ALTER TABLE t op[, op...]` → one [`Ddl::Schema`] holding a SQLite statement per operation.
//!
//! Supported: `ADD [COLUMN] def [FIRST | AFTER c]` (the position is ignored: SQLite appends),
//! `ADD [COLUMN] (def, ...)`, `DROP [COLUMN] c` (single-column indexes on it are dropped
//! first, as MySQL does), `RENAME COLUMN a TO b`, `CHANGE [COLUMN] a b
//! <same type>` (a rename), `MODIFY`/`CHANGE` that change nothing, `RENAME [TO | AS] n`,
//! `ADD [UNIQUE] INDEX|KEY [name] (cols)`, `DROP INDEX|KEY name`, `RENAME INDEX|KEY a TO b`,
//! and table options (ENGINE, CHARSET, COLLATE, COMMENT, ROW_FORMAT, ALGORITHM, LOCK, CONVERT
//! TO CHARACTER SET), which are accepted and ignored — an ALTER made only of those is
//! [`Stmt::Noop`]. `DROP PRIMARY KEY` is `SqlError::NoPrimaryKey`. Everything SQLite's ALTER
//! TABLE cannot do (type changes, adding PRIMARY KEY / UNIQUE / AUTO_INCREMENT columns,
//! foreign keys, defaults, AUTO_INCREMENT=n) is refused with the operation named. A CHANGE or
//! MODIFY compares the new type and nullability with the catalog; a different DEFAULT in it
//! is ignored.

use sqlparser::ast::{AlterTableOperation, ColumnDef, RenameTableNameKind, TableConstraint};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Token;

use crate::columns::{column, default_index_name, index_sql, key_parts, KeyPart};
use crate::cursor::Cursor;
use crate::ddl::{drop_index_sql, rename_table_sql};
use crate::dispatch::{Res, StmtInfo};
use crate::names::{quote_str, resolve};
use crate::{DdlStmt, SqlError, Stmt, TableInfo, TableName};
use tutti_wsrep::Ddl;

/// Table options accepted and ignored (each takes `[=] value`).
const IGNORED_OPTIONS: [&str; 12] = [
    "ENGINE",
    "CHARSET",
    "COLLATE",
    "COMMENT",
    "ROW_FORMAT",
    "ALGORITHM",
    "LOCK",
    "KEY_BLOCK_SIZE",
    "STATS_PERSISTENT",
    "STATS_AUTO_RECALC",
    "STATS_SAMPLE_PAGES",
    "PACK_KEYS",
];

fn unsupported(what: &str) -> SqlError {
    SqlError::Unsupported(format!("ALTER TABLE ... {what}"))
}

/// The state of one ALTER TABLE translation.
struct Alter<'a> {
    info: &'a StmtInfo<'a>,
    table: TableName,
    catalog: Option<Option<TableInfo>>,
    statements: Vec<String>,
    tables: Vec<TableName>,
    new_indexes: Vec<String>,
}

impl Alter<'_> {
    fn catalog(&mut self) -> Result<&TableInfo, SqlError> {
        let env = self.info.env;
        let table = &self.table;
        self.catalog
            .get_or_insert_with(|| env.table(table))
            .as_ref()
            .ok_or_else(|| SqlError::NoSuchTable(table.to_string()))
    }

    fn alter_prefix(&self) -> String {
        format!("ALTER TABLE {}", quote_str(&self.table.sqlite_name()))
    }
}

/// Translates `ALTER TABLE ...`.
pub(crate) fn alter_table(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    p.next_token(); // ALTER
    p.next_token(); // TABLE
    let table = resolve(info.env, &p.parse_object_name(false)?)?;
    let mut a = Alter {
        info,
        tables: vec![table.clone()],
        table,
        catalog: None,
        statements: vec![],
        new_indexes: vec![],
    };
    loop {
        operation(p, &mut a)?;
        if !p.eat(&Token::Comma) {
            break;
        }
    }
    p.expect_end()?;
    if a.statements.is_empty() {
        return Ok(Stmt::Noop(info.text().to_string()));
    }
    Ok(Stmt::Ddl(DdlStmt {
        ddl: Ddl::Schema {
            database: a.table.db.clone(),
            statements: a.statements,
        },
        tables: a.tables,
    }))
}

fn operation(p: &mut Parser<'_>, a: &mut Alter<'_>) -> Res<()> {
    p.eat_word("DEFAULT");
    if let Some(w) = p
        .peek_word(0)
        .filter(|w| IGNORED_OPTIONS.contains(&w.as_str()))
    {
        if w != "LOCK" || !p.peek_is(1, "TABLES") {
            p.next_token();
            p.eat(&Token::Eq);
            p.next_token();
            return Ok(());
        }
    }
    if p.eat_words(&["CHARACTER", "SET"]) {
        p.eat(&Token::Eq);
        p.next_token();
        return Ok(());
    }
    if p.eat_words(&["CONVERT", "TO"]) {
        if !(p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET")) {
            return p
                .expected_ref("CHARACTER SET", p.peek_token_ref())
                .map_err(Into::into);
        }
        p.next_token();
        if p.eat_word("COLLATE") {
            p.next_token();
        }
        return Ok(());
    }
    // InnoDB keeps rows in primary-key order and has no switchable indexes: MariaDB accepts
    // these and changes nothing (with a note), so does tutti.
    if p.eat_words(&["ENABLE", "KEYS"]) || p.eat_words(&["DISABLE", "KEYS"]) {
        a.catalog()?;
        return Ok(());
    }
    if p.eat_words(&["ORDER", "BY"]) {
        a.catalog()?;
        p.parse_comma_separated(Parser::parse_order_by_expr)?;
        return Ok(());
    }
    if p.peek_is(0, "AUTO_INCREMENT") {
        return Err(unsupported("AUTO_INCREMENT = n").into());
    }
    if p.peek_is(0, "DROP") && (p.peek_is(1, "INDEX") || p.peek_is(1, "KEY")) {
        p.next_token();
        p.next_token();
        let name = p.parse_identifier()?.value;
        let sql = drop_index_sql(a.info.env, &a.table, &name)?;
        a.statements.push(sql);
        return Ok(());
    }
    if p.peek_is(0, "RENAME") && (p.peek_is(1, "INDEX") || p.peek_is(1, "KEY")) {
        p.next_token();
        p.next_token();
        let old = p.parse_identifier()?.value;
        if !p.eat_word("TO") {
            return p.expected_ref("TO", p.peek_token_ref()).map_err(Into::into);
        }
        let new = p.parse_identifier()?.value;
        return rename_index(a, &old, &new).map_err(Into::into);
    }
    if p.peek_is(0, "ADD")
        && (matches!(p.peek_nth_token_ref(1).token, Token::LParen)
            || (p.peek_is(1, "COLUMN") && matches!(p.peek_nth_token_ref(2).token, Token::LParen)))
    {
        p.next_token();
        p.eat_word("COLUMN");
        p.next_token(); // (
        let defs = p.parse_comma_separated(Parser::parse_column_def)?;
        p.expect_token(&Token::RParen)?;
        for d in &defs {
            add_column(a, d)?;
        }
        return Ok(());
    }
    let op = p.parse_alter_table_operation()?;
    apply(a, op).map_err(Into::into)
}

fn apply(a: &mut Alter<'_>, op: AlterTableOperation) -> Result<(), SqlError> {
    use AlterTableOperation as Op;
    match op {
        Op::AddColumn { column_def, .. } => add_column(a, &column_def),
        Op::DropColumn {
            column_names,
            if_exists,
            ..
        } => {
            if if_exists {
                return Err(unsupported("DROP COLUMN IF EXISTS"));
            }
            for c in column_names {
                drop_column(a, &c.value)?;
            }
            Ok(())
        }
        Op::RenameColumn {
            old_column_name,
            new_column_name,
        } => {
            rename_column(a, &old_column_name.value, &new_column_name.value);
            Ok(())
        }
        Op::ChangeColumn {
            old_name,
            new_name,
            data_type,
            options,
            ..
        } => {
            let def = ColumnDef {
                name: new_name,
                data_type,
                options: to_defs(options),
            };
            change_column(a, &old_name.value, &def, "CHANGE COLUMN")
        }
        Op::ModifyColumn {
            col_name,
            data_type,
            options,
            ..
        } => {
            let def = ColumnDef {
                name: col_name.clone(),
                data_type,
                options: to_defs(options),
            };
            change_column(a, &col_name.value, &def, "MODIFY COLUMN")
        }
        Op::RenameTable { table_name } => {
            let name = match table_name {
                RenameTableNameKind::As(n) | RenameTableNameKind::To(n) => n,
            };
            let new = resolve(a.info.env, &name)?;
            a.statements
                .extend(rename_table_sql(a.info.env, &a.table, &new));
            a.tables.push(new.clone());
            a.table = new;
            a.catalog = None;
            Ok(())
        }
        Op::AddConstraint { constraint, .. } => add_constraint(a, constraint),
        Op::DropPrimaryKey { .. } => Err(SqlError::NoPrimaryKey(a.table.to_string())),
        Op::DropIndex { name } => {
            let sql = drop_index_sql(a.info.env, &a.table, &name.value)?;
            a.statements.push(sql);
            Ok(())
        }
        Op::DropForeignKey { .. } => Err(unsupported("DROP FOREIGN KEY")),
        Op::DropConstraint { .. } => Err(unsupported("DROP CONSTRAINT")),
        Op::AlterColumn { .. } => Err(unsupported("ALTER COLUMN")),
        Op::AutoIncrement { .. } => Err(unsupported("AUTO_INCREMENT = n")),
        Op::Algorithm { .. } | Op::Lock { .. } => Ok(()),
        other => Err(unsupported(&other.to_string())),
    }
}

fn to_defs(options: Vec<sqlparser::ast::ColumnOption>) -> Vec<sqlparser::ast::ColumnOptionDef> {
    options
        .into_iter()
        .map(|option| sqlparser::ast::ColumnOptionDef { name: None, option })
        .collect()
}

fn add_column(a: &mut Alter<'_>, def: &ColumnDef) -> Result<(), SqlError> {
    let c = column(a.info.env, def, false)?;
    if c.primary_key {
        return Err(unsupported("ADD COLUMN ... PRIMARY KEY"));
    }
    if c.unique {
        return Err(unsupported("ADD COLUMN ... UNIQUE"));
    }
    if c.autoinc {
        return Err(unsupported("ADD COLUMN ... AUTO_INCREMENT"));
    }
    a.statements
        .push(format!("{} ADD COLUMN {}", a.alter_prefix(), c.sql()));
    Ok(())
}

/// `DROP COLUMN c`: SQLite refuses to drop an indexed column, so single-column indexes on it
/// are dropped first (as MySQL does); a multi-column index on it is refused.
fn drop_column(a: &mut Alter<'_>, name: &str) -> Result<(), SqlError> {
    let table = a.table.to_string();
    let indexes = match a.catalog() {
        Ok(info) => info.indexes.clone(),
        Err(_) => vec![],
    };
    for i in indexes
        .iter()
        .filter(|i| i.columns.iter().any(|c| c.eq_ignore_ascii_case(name)))
    {
        if i.columns.len() > 1 || i.name.eq_ignore_ascii_case("PRIMARY") {
            return Err(unsupported(&format!(
                "DROP COLUMN {name}, which is part of the index {} of {table}",
                i.name
            )));
        }
        a.statements
            .push(format!("DROP INDEX {}", quote_str(&i.sqlite_name)));
    }
    a.statements.push(format!(
        "{} DROP COLUMN {}",
        a.alter_prefix(),
        quote_str(name)
    ));
    Ok(())
}

fn rename_column(a: &mut Alter<'_>, old: &str, new: &str) {
    let sql = format!(
        "{} RENAME COLUMN {} TO {}",
        a.alter_prefix(),
        quote_str(old),
        quote_str(new)
    );
    a.statements.push(sql);
}

/// Declared types that mean the same to tutti.
fn same_type(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        let s = s.to_ascii_uppercase();
        if s == "INTEGER" {
            "INT".to_string()
        } else {
            s
        }
    };
    norm(a) == norm(b)
}

/// CHANGE/MODIFY: only a rename (same type and nullability) is possible in SQLite.
fn change_column(
    a: &mut Alter<'_>,
    old: &str,
    def: &ColumnDef,
    what: &str,
) -> Result<(), SqlError> {
    let new = column(a.info.env, def, false)?;
    let table = a.table.to_string();
    let existing = a
        .catalog()?
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(old))
        .cloned()
        .ok_or_else(|| SqlError::WrongArguments(format!("Unknown column '{old}' in '{table}'")))?;
    let is_autoinc = a
        .catalog()?
        .autoinc
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case(old));
    let type_ok = same_type(&existing.decl_type, &new.mapped.decl)
        || (is_autoinc && new.autoinc && new.mapped.integer);
    let not_null_ok = existing.not_null == (new.not_null || existing.pk > 0);
    if !type_ok || !not_null_ok || (new.autoinc && !is_autoinc) {
        return Err(unsupported(&format!(
            "{what} that changes the column definition"
        )));
    }
    if !existing.name.eq(&new.name) {
        rename_column(a, &existing.name, &new.name);
    }
    Ok(())
}

fn add_constraint(a: &mut Alter<'_>, constraint: TableConstraint) -> Result<(), SqlError> {
    let (name, unique, parts): (Option<String>, bool, Vec<KeyPart>) = match constraint {
        TableConstraint::Index(i) => (i.name.map(|n| n.value), false, key_parts(&i.columns)?),
        TableConstraint::Unique(u) => (
            u.index_name.or(u.name).map(|n| n.value),
            true,
            key_parts(&u.columns)?,
        ),
        TableConstraint::PrimaryKey(_) => return Err(unsupported("ADD PRIMARY KEY")),
        TableConstraint::ForeignKey(_) => return Err(unsupported("ADD FOREIGN KEY")),
        TableConstraint::Check(_) => return Err(unsupported("ADD CHECK")),
        TableConstraint::FulltextOrSpatial(f) => {
            let kind = if f.fulltext { "FULLTEXT" } else { "SPATIAL" };
            return Err(SqlError::Unsupported(format!("{kind} indexes")));
        }
        other => return Err(unsupported(&format!("ADD {other}"))),
    };
    let name = match name {
        Some(n) => n,
        None => {
            let mut taken: Vec<String> = a.new_indexes.clone();
            if let Ok(info) = a.catalog() {
                taken.extend(info.indexes.iter().map(|i| i.name.clone()));
            }
            default_index_name(
                parts.first().map(|p| p.0.as_str()).unwrap_or_default(),
                &taken,
            )
        }
    };
    a.statements
        .push(index_sql(&a.table, &name, unique, &parts, false));
    a.new_indexes.push(name);
    Ok(())
}

/// `RENAME INDEX a TO b`: SQLite cannot rename an index, so it is re-created.
fn rename_index(a: &mut Alter<'_>, old: &str, new: &str) -> Result<(), SqlError> {
    let drop = drop_index_sql(a.info.env, &a.table, old)?;
    let info = a.catalog()?;
    let index = info
        .indexes
        .iter()
        .find(|i| i.name.eq_ignore_ascii_case(old))
        .cloned();
    let Some(index) = index else {
        return Err(SqlError::NoSuchIndex(old.to_string()));
    };
    let parts: Vec<KeyPart> = index.columns.iter().map(|c| (c.clone(), false)).collect();
    a.statements.push(drop);
    a.statements
        .push(index_sql(&a.table, new, index.unique, &parts, false));
    Ok(())
}

//! `ALTER TABLE t op[, op...]` → one [`Ddl::Schema`] holding a SQLite statement per operation.
//!
//! Supported: `ADD [COLUMN] [IF NOT EXISTS] def [FIRST | AFTER c]`, `ADD [COLUMN] (def,
//! ...)`, `DROP [COLUMN] [IF EXISTS] c` (it leaves its indexes, as in MySQL), `RENAME COLUMN
//! a TO b`, `CHANGE [COLUMN] a b def [FIRST | AFTER c]`, `MODIFY [COLUMN] a def [FIRST |
//! AFTER c]`, `ALTER [COLUMN] c SET DEFAULT v | DROP DEFAULT`, `RENAME [TO | AS] n`, `ADD
//! [UNIQUE] INDEX|KEY [name] (cols)`, `DROP INDEX|KEY name`, `RENAME INDEX|KEY a TO b`,
//! `AUTO_INCREMENT [=] n`, and table options (ENGINE, CHARSET, COLLATE, COMMENT, ROW_FORMAT,
//! ALGORITHM, LOCK, MAX_ROWS, CHECKSUM, ..., CONVERT TO CHARACTER SET, FORCE), which are
//! accepted and ignored — an ALTER made only of those, or of nothing, is [`Stmt::Noop`].
//! `ALTER TABLE IF EXISTS` of a missing table does nothing; `DROP INDEX IF EXISTS` of a
//! missing index is a note. Other operations with MariaDB's `IF [NOT] EXISTS` (`ADD KEY IF
//! NOT EXISTS`, `CHANGE COLUMN IF EXISTS`, `RENAME KEY IF EXISTS`, ...) note what they skip.
//! `ADD PRIMARY KEY` and `DROP PRIMARY KEY` rebuild the table (without one it is keyed by
//! its invisible key; `DROP PRIMARY KEY` is `SqlError::NoPrimaryKey` when
//! `innodb_force_primary_key` is ON). A dropped column leaves the primary key too.
//!
//! What SQLite's ALTER TABLE does itself (add a column at the end, drop one, renames,
//! indexes) is one statement each; anything else makes the whole ALTER a table rebuild
//! ([`crate::rebuild`]), whose model every operation updates. Still refused, with the
//! operation named: adding AUTO_INCREMENT columns, foreign keys, CHECK constraints.

use sqlparser::ast::{AlterTableOperation, ColumnDef, RenameTableNameKind, TableConstraint};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use crate::ast_build::{func, number, string};
use crate::columns::{
    column, default_index_name, index_sql, key_parts, typed_default, ColumnOut, KeyPart,
};
use crate::cursor::Cursor;
use crate::ddl::{drop_index_sql, rename_table_sql};
use crate::dispatch::{Res, StmtInfo};
use crate::names::{quote_str, quoted, resolve};
use crate::rebuild::{self, Placement, Rebuild};
use crate::typing::NumType;
use crate::{DdlRecords, Note, SqlError, Stmt, TableInfo, TableName};

/// Table options accepted and ignored (each takes `[=] value`).
const IGNORED_OPTIONS: [&str; 17] = [
    "ENGINE",
    "COMMENT",
    "ROW_FORMAT",
    "ALGORITHM",
    "LOCK",
    "KEY_BLOCK_SIZE",
    "STATS_PERSISTENT",
    "STATS_AUTO_RECALC",
    "STATS_SAMPLE_PAGES",
    "PACK_KEYS",
    "MAX_ROWS",
    "MIN_ROWS",
    "AVG_ROW_LENGTH",
    "CHECKSUM",
    "PAGE_CHECKSUM",
    "TRANSACTIONAL",
    "DELAY_KEY_WRITE",
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
    /// The table as the operations so far leave it (None: the table does not exist).
    model: Option<Rebuild>,
    /// An operation needs the table rebuilt: the model's statements replace `statements`.
    rebuild: bool,
    /// Statements that follow either way (the AUTO_INCREMENT counter).
    after: Vec<String>,
    /// MariaDB copies the table for this ALTER (see `DdlRecords::Copied`).
    copies_rows: bool,
    /// An operation other than a rename: MariaDB's OK packet counts records.
    counts_records: bool,
    /// The ALTER drops the PRIMARY KEY: one it adds then replaces it in place.
    primary_dropped: bool,
    /// MariaDB's notes: an `IF [NOT] EXISTS` that skipped, an option InnoDB lacks.
    notes: Vec<Note>,
}

impl Alter<'_> {
    fn note(&mut self, code: u16, message: String) {
        self.notes.push(Note {
            code,
            message,
            warning: false,
        });
    }

    fn catalog(&mut self) -> Result<&TableInfo, SqlError> {
        let env = self.info.env;
        let table = &self.table;
        self.catalog
            .get_or_insert_with(|| env.table(table))
            .as_ref()
            .ok_or_else(|| SqlError::NoSuchTable(table.to_string()))
    }

    /// The SQLite collation of a text column the ALTER adds or redefines without one: the
    /// table's default (see `column_marks::table_collation`).
    fn default_collation(&mut self) -> Result<Option<&'static str>, SqlError> {
        let recorded = crate::column_marks::table_collation(&self.catalog()?.create_sql);
        Ok(recorded.map_or(Some(crate::columns::GENERAL_CI), |c| {
            crate::columns::text_collation(&c)
        }))
    }

    /// The most bytes a character takes in the table's default character set.
    fn mbmaxlen(&mut self) -> Result<u64, SqlError> {
        let recorded = crate::column_marks::table_collation(&self.catalog()?.create_sql);
        Ok(recorded.map_or(4, |c| crate::columns::mbmaxlen(&c)))
    }

    fn alter_prefix(&self) -> String {
        format!("ALTER TABLE {}", quote_str(&self.table.sqlite_name()))
    }

    fn model(&mut self) -> Result<&mut Rebuild, SqlError> {
        let table = self.table.to_string();
        self.model.as_mut().ok_or(SqlError::NoSuchTable(table))
    }

    /// A column's current definition: (name in the definition, SQLite text).
    fn definition(&mut self, name: &str) -> Result<(String, String), SqlError> {
        let table = self.table.table.clone();
        self.model()?
            .definition(name)
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .ok_or_else(|| SqlError::UnknownColumn {
                column: name.to_string(),
                table,
            })
    }

    /// The declared type the catalog knows for a column of the table.
    fn declared_type(&mut self, column: &str) -> Option<String> {
        let t = self.catalog().ok()?;
        let c = t.columns.iter().find(|c| c.name == column)?;
        Some(c.decl_type.clone())
    }

    /// The operation needs the table rebuilt.
    fn needs_rebuild(&mut self) -> Result<&mut Rebuild, SqlError> {
        self.rebuild = true;
        self.model()
    }
}

/// Translates `ALTER TABLE ...`.
pub(crate) fn alter_table(p: &mut Parser<'_>, info: &StmtInfo<'_>) -> Res<Stmt> {
    p.next_token(); // ALTER
    p.next_token(); // TABLE
    let if_exists = p.eat_words(&["IF", "EXISTS"]);
    let table = resolve(info.env, &p.parse_object_name(false)?)?;
    let model = match info.env.table(&table) {
        Some(t) => Some(Rebuild::of(&t)?),
        None if if_exists => {
            let message = format!("Table '{}' doesn't exist", table);
            let note = Note {
                code: 1146,
                message,
                warning: false,
            };
            return Ok(Stmt::Noop(info.text().to_string()).noted(vec![note]));
        }
        None => None,
    };
    let mut a = Alter {
        info,
        tables: vec![table.clone()],
        table,
        catalog: None,
        statements: vec![],
        new_indexes: vec![],
        model,
        rebuild: false,
        after: vec![],
        copies_rows: false,
        counts_records: false,
        primary_dropped: false,
        notes: vec![],
    };
    // `ALTER TABLE t` alone changes nothing (nor does FORCE, a rebuild, here).
    if matches!(p.peek_token_ref().token, Token::EOF) {
        a.catalog()?;
        a.counts_records = true;
    }
    while !matches!(p.peek_token_ref().token, Token::EOF) {
        a.counts_records |= counts_records(p);
        operation(p, &mut a)?;
        if !p.eat(&Token::Comma) {
            break;
        }
    }
    p.expect_end()?;
    if a.rebuild {
        let target = a.table.clone();
        a.statements = a.model()?.statements(&target)?;
    }
    a.statements.append(&mut a.after);
    if a.statements.is_empty() {
        let stmt = if a.counts_records {
            Stmt::Unaltered(a.table)
        } else {
            Stmt::Noop(info.text().to_string())
        };
        return Ok(stmt.noted(a.notes));
    }
    let ddl = crate::temporary::ddl_for(
        info.env,
        a.table.db.clone(),
        a.statements,
        a.tables,
        match (a.copies_rows, a.counts_records) {
            (true, _) => DdlRecords::Copied,
            (false, true) => DdlRecords::InPlace,
            (false, false) => DdlRecords::None,
        },
    )?;
    Ok(ddl.noted(a.notes))
}

/// Whether MariaDB's OK packet counts records for the next operation: all but renaming
/// the table and DISABLE|ENABLE KEYS.
fn counts_records(p: &Parser<'_>) -> bool {
    let renames =
        p.peek_is(0, "RENAME") && !["COLUMN", "INDEX", "KEY"].iter().any(|w| p.peek_is(1, w));
    let keys = (p.peek_is(0, "DISABLE") || p.peek_is(0, "ENABLE")) && p.peek_is(1, "KEYS");
    !(renames || keys)
}

fn operation(p: &mut Parser<'_>, a: &mut Alter<'_>) -> Res<()> {
    if let Some(conditional) = conditional_operation(p) {
        return conditional_apply(conditional, a);
    }
    p.eat_word("DEFAULT");
    if let Some(w) = p
        .peek_word(0)
        .filter(|w| IGNORED_OPTIONS.contains(&w.as_str()))
    {
        if w != "LOCK" || !p.peek_is(1, "TABLES") {
            p.next_token();
            p.eat(&Token::Eq);
            let value = p.next_token();
            if w == "ENGINE" {
                let name = match value.token {
                    Token::Word(w) => w.value,
                    Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => s,
                    t => t.to_string(),
                };
                return engine(a, crate::create_table::engine_name(&name)?).map_err(Into::into);
            }
            return Ok(());
        }
    }
    if p.eat_words(&["CONVERT", "TO"]) {
        if !(p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET")) {
            return p
                .expected_ref("CHARACTER SET", p.peek_token_ref())
                .map_err(Into::into);
        }
        let collation = named_collation(p, true)?;
        return convert_to(a, &collation).map_err(Into::into);
    }
    let charset = p.eat_words(&["CHARACTER", "SET"]) || p.eat_word("CHARSET");
    if charset || p.peek_is(0, "COLLATE") {
        let collation = named_collation(p, charset)?;
        return default_collation(a, &collation).map_err(Into::into);
    }
    // InnoDB keeps rows in primary-key order and has no switchable indexes: MariaDB accepts
    // these and changes nothing (ENABLE with a note), so does tutti.
    if p.eat_words(&["DISABLE", "KEYS"]) {
        a.catalog()?;
        return Ok(());
    }
    if p.eat_words(&["ENABLE", "KEYS"]) {
        a.catalog()?;
        let (db, t) = (&a.table.db, &a.table.table);
        let what =
            format!("Storage engine InnoDB of the table `{db}`.`{t}` doesn't have this option");
        a.note(1031, what);
        return Ok(());
    }
    if p.eat_words(&["ORDER", "BY"]) {
        a.catalog()?;
        p.parse_comma_separated(Parser::parse_order_by_expr)?;
        return Ok(());
    }
    if p.eat_word("AUTO_INCREMENT") {
        p.eat(&Token::Eq);
        let n = p.parse_literal_uint()?;
        return auto_increment(a, n).map_err(Into::into);
    }
    if p.eat_word("FORCE") {
        a.catalog()?;
        return Ok(());
    }
    if p.peek_is(0, "DROP") && (p.peek_is(1, "INDEX") || p.peek_is(1, "KEY")) {
        p.next_token();
        p.next_token();
        let if_exists = p.eat_words(&["IF", "EXISTS"]);
        let name = p.parse_identifier()?.value;
        let known = a
            .model()?
            .indexes
            .iter()
            .any(|i| i.name.eq_ignore_ascii_case(&name));
        if if_exists && !known {
            a.note(
                1091,
                format!("Can't DROP INDEX `{name}`; check that it exists"),
            );
            return Ok(());
        }
        return drop_index(a, &name).map_err(Into::into);
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
            add_column(a, d, Placement::Last)?;
        }
        return Ok(());
    }
    // `ADD [COLUMN] IF NOT EXISTS c ...` (MariaDB): a column already there is left alone.
    if p.peek_is(0, "ADD") {
        let at = if p.peek_is(1, "COLUMN") { 2 } else { 1 };
        if p.peek_is(at, "IF") && p.peek_is(at + 1, "NOT") && p.peek_is(at + 2, "EXISTS") {
            for _ in 0..at + 3 {
                p.next_token();
            }
            let def = p.parse_column_def()?;
            let position = column_position(p)?;
            if a.model()?.has_column(&def.name.value) {
                a.note(1060, format!("Duplicate column name '{}'", def.name.value));
                return Ok(());
            }
            return add_column(a, &def, position).map_err(Into::into);
        }
    }
    let op = p.parse_alter_table_operation()?;
    apply(a, op).map_err(Into::into)
}

/// The collation `[=] cs [[DEFAULT] COLLATE [=] c]` (after `CHARACTER SET`, when `charset`)
/// or `COLLATE [=] c` names: `c`, else `cs`'s default collation.
fn named_collation(p: &mut Parser<'_>, charset: bool) -> Res<String> {
    let value = |p: &mut Parser<'_>| {
        p.eat(&Token::Eq);
        match p.next_token().token {
            Token::Word(w) => w.value,
            Token::SingleQuotedString(s) | Token::DoubleQuotedString(s) => s,
            t => t.to_string(),
        }
    };
    let set = charset.then(|| value(p));
    let mut collation = None;
    if p.peek_is(0, "COLLATE") || p.peek_is(0, "DEFAULT") && p.peek_is(1, "COLLATE") {
        p.eat_word("DEFAULT");
        p.next_token();
        collation = Some(value(p));
    }
    match crate::charset_names::declared(set.as_deref(), collation.as_deref())? {
        Some(c) => Ok(c),
        None => p
            .expected_ref("COLLATE", p.peek_token_ref())
            .map_err(Into::into),
    }
}

/// `ALTER TABLE t [DEFAULT] CHARACTER SET cs [COLLATE c]` / `COLLATE c`: the collation of
/// the columns it adds later (and SHOW CREATE TABLE's); the table is rebuilt to record it
/// (see `column_marks::table_collation`), unless it is unchanged.
fn default_collation(a: &mut Alter<'_>, collation: &str) -> Result<(), SqlError> {
    let mark = crate::column_marks::default_collation_mark(collation);
    let current = crate::column_marks::table_collation(&a.catalog()?.create_sql);
    let wanted = mark
        .as_deref()
        .and_then(crate::column_marks::table_collation);
    if current != wanted {
        a.model()?.set_default_collation(mark);
        a.rebuild = true;
    }
    Ok(())
}

/// `ALTER TABLE t ENGINE = e`: the table is rebuilt to record another engine (see
/// `column_marks::engine_mark`), counting its rows as MariaDB's copy does; the same
/// engine changes nothing.
fn engine(a: &mut Alter<'_>, engine: &str) -> Result<(), SqlError> {
    let current = crate::column_marks::table_engine(&a.catalog()?.create_sql);
    if current != engine {
        a.model()?
            .set_engine(crate::column_marks::engine_mark(engine));
        a.rebuild = true;
        a.copies_rows = true; // MariaDB copies the rows into the other engine
    }
    Ok(())
}

/// `ALTER TABLE t CONVERT TO CHARACTER SET cs [COLLATE c]`: every text column and the
/// table's default take the collation. tutti keeps the text as UTF-8 whatever the set (see
/// `columns`): a single-byte set is marked on each column, as CREATE TABLE marks it.
fn convert_to(a: &mut Alter<'_>, collation: &str) -> Result<(), SqlError> {
    let Some(sqlite) = crate::columns::text_collation(collation) else {
        return Err(unsupported("CONVERT TO CHARACTER SET binary"));
    };
    let single_byte = crate::columns::single_byte_collation(Some(collation), None);
    let mark = single_byte.as_deref().map(crate::column_marks::charset);
    default_collation(a, collation)?;
    let converted = a.model()?.convert_text(sqlite, mark.as_deref());
    a.rebuild |= converted.collation || converted.charset;
    a.copies_rows |= converted.charset;
    Ok(())
}

/// An operation with MariaDB's `IF [NOT] EXISTS` after its first words (`ADD KEY IF NOT
/// EXISTS k (a)`, `CHANGE COLUMN IF EXISTS a b INT`, ...), which sqlparser does not parse.
struct Conditional {
    /// The operation's tokens without `IF [NOT] EXISTS`.
    tokens: Vec<TokenWithSpan>,
    /// Where the words were: the object's name follows.
    at: usize,
}

/// Takes the next operation off `p` if it is one (see [`Conditional`]). `ADD [COLUMN] IF
/// NOT EXISTS`, `DROP [COLUMN|INDEX|KEY] IF EXISTS` are parsed where they are handled.
fn conditional_operation(p: &mut Parser<'_>) -> Option<Conditional> {
    let words: Vec<String> = (0..6).map(|k| p.peek_word(k).unwrap_or_default()).collect();
    let first = words[0].as_str();
    let handled_elsewhere =
        matches!(first, "DROP") || (first == "ADD" && (words[1] == "COLUMN" || words[1] == "IF"));
    if handled_elsewhere {
        return None;
    }
    let at = (1..4).find(|&k| words[k] == "IF")?;
    let len = if words[at + 1] == "NOT" && words[at + 2] == "EXISTS" {
        3
    } else if words[at + 1] == "EXISTS" {
        2
    } else {
        return None;
    };
    let mut tokens = Vec::new();
    let mut depth = 0;
    loop {
        let t = p.peek_token_ref().clone();
        match t.token {
            Token::EOF => break,
            Token::Comma if depth == 0 => break,
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            _ => {}
        }
        tokens.push(t);
        p.next_token();
    }
    tokens.drain(at..at + len);
    Some(Conditional { tokens, at })
}

/// Applies a [`Conditional`] operation, or notes MariaDB's reason to skip it.
fn conditional_apply(c: Conditional, a: &mut Alter<'_>) -> Res<()> {
    let word = |k: usize| match c.tokens.get(k).map(|t| &t.token) {
        Some(Token::Word(w)) => w.value.clone(),
        _ => String::new(),
    };
    let upper = |k: usize| word(k).to_ascii_uppercase();
    let name = word(c.at);
    let model = a.model()?;
    let has_index = model
        .indexes
        .iter()
        .any(|i| i.name.eq_ignore_ascii_case(&name));
    let has_column = model.has_column(&name);
    let table = a.table.table.clone();
    let skip = match (upper(0).as_str(), upper(c.at - 1).as_str()) {
        ("ADD", "KEY" | "INDEX") if has_index => {
            Some((1061, format!("Duplicate key name '{name}'")))
        }
        ("ALTER" | "CHANGE" | "MODIFY", _) if !has_column => {
            Some((1054, format!("Unknown column '{name}' in '{table}'")))
        }
        ("RENAME", "KEY" | "INDEX") if !has_index => Some((
            1176,
            format!("Key '{name}' doesn't exist in table '{table}'"),
        )),
        _ => None,
    };
    if let Some((code, message)) = skip {
        a.note(code, message);
        return Ok(());
    }
    let mut tokens = c.tokens;
    tokens.push(TokenWithSpan::wrap(Token::EOF));
    let mut p = Parser::new(&crate::lexer::DIALECT).with_tokens_with_locations(tokens);
    operation(&mut p, a)?;
    p.expect_end().map_err(Into::into)
}

fn apply(a: &mut Alter<'_>, op: AlterTableOperation) -> Result<(), SqlError> {
    use AlterTableOperation as Op;
    match op {
        Op::AddColumn {
            column_def,
            column_position,
            ..
        } => add_column(
            a,
            &column_def,
            column_position.map_or(Placement::Last, Into::into),
        ),
        Op::DropColumn {
            column_names,
            if_exists,
            ..
        } => {
            for c in column_names {
                if if_exists && !a.model()?.has_column(&c.value) {
                    let what = format!("Can't DROP COLUMN `{}`; check that it exists", c.value);
                    a.note(1091, what);
                    continue;
                }
                drop_column(a, &c.value)?;
            }
            Ok(())
        }
        Op::RenameColumn {
            old_column_name,
            new_column_name,
        } => rename_column(a, &old_column_name.value, &new_column_name.value),
        Op::ChangeColumn {
            old_name,
            new_name,
            data_type,
            options,
            column_position,
        } => {
            let def = ColumnDef {
                name: new_name,
                data_type,
                options: to_defs(options),
            };
            change_column(a, &old_name.value, &def, column_position.map(Into::into))
        }
        Op::ModifyColumn {
            col_name,
            data_type,
            options,
            column_position,
        } => {
            let def = ColumnDef {
                name: col_name.clone(),
                data_type,
                options: to_defs(options),
            };
            change_column(a, &col_name.value, &def, column_position.map(Into::into))
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
        Op::DropPrimaryKey { .. } => {
            if crate::create_table::force_primary_key(a.info.env) {
                return Err(SqlError::NoPrimaryKey(a.table.to_string()));
            }
            a.copies_rows = true;
            a.primary_dropped = true;
            a.needs_rebuild()?.drop_primary_key()
        }
        Op::DropIndex { name } => drop_index(a, &name.value),
        Op::DropForeignKey { .. } => Err(unsupported("DROP FOREIGN KEY")),
        Op::DropConstraint { .. } => Err(unsupported("DROP CONSTRAINT")),
        Op::AlterColumn { column_name, op } => {
            use sqlparser::ast::AlterColumnOperation as A;
            match op {
                A::SetDefault { value } => alter_default(a, &column_name.value, Some(&value)),
                A::DropDefault => alter_default(a, &column_name.value, None),
                other => Err(unsupported(&format!("ALTER COLUMN ... {other}"))),
            }
        }
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

/// `[FIRST | AFTER c]` after a column definition.
fn column_position(p: &mut Parser<'_>) -> Res<Placement> {
    if p.eat_word("FIRST") {
        return Ok(Placement::First);
    }
    if p.eat_word("AFTER") {
        return Ok(Placement::After(p.parse_identifier()?.value));
    }
    Ok(Placement::Last)
}

fn add_column(a: &mut Alter<'_>, def: &ColumnDef, position: Placement) -> Result<(), SqlError> {
    let collation = a.default_collation()?;
    let mut c = column(a.info.env, def, collation, None, a.mbmaxlen()?)?;
    a.notes.append(&mut c.notes);
    if c.primary_key {
        return Err(unsupported("ADD COLUMN ... PRIMARY KEY"));
    }
    if c.autoinc {
        return Err(unsupported("ADD COLUMN ... AUTO_INCREMENT"));
    }
    let unique = std::mem::take(&mut c.unique);
    // Existing rows get the DEFAULT; a NOT NULL column without one gets MariaDB's implicit
    // default, which SQLite's ADD COLUMN cannot give.
    let mut fill = (c.not_null && c.default.is_none()).then(|| implicit_default(a, &c));
    // A DEFAULT CURRENT_TIMESTAMP is no constant, which SQLite's ADD COLUMN refuses: the
    // rebuild gives existing rows the statement's time.
    if let Some(now) = c
        .default
        .as_deref()
        .and_then(|d| crate::columns::current_timestamp_fill(d, a.info.env))
    {
        fill = Some(now);
    }
    // An ENUM's member check is a table constraint (where SHOW CREATE TABLE reads it),
    // which only a rebuild can add.
    if fill.is_some() || position != Placement::Last || !c.checks.is_empty() {
        a.needs_rebuild()?;
    }
    a.statements
        .push(format!("{} ADD COLUMN {}", a.alter_prefix(), c.sql()));
    a.model()?.add(&c, fill, &position)?;
    if unique {
        add_index(a, None, true, vec![(c.name.clone(), false)]);
    }
    Ok(())
}

/// The value MariaDB gives existing rows for a new NOT NULL column without DEFAULT: zero,
/// the empty string, the first ENUM member, the zero date — as the column stores it.
fn implicit_default(a: &Alter<'_>, c: &ColumnOut) -> sqlparser::ast::Expr {
    let decl = rebuild::declared_type(c).to_ascii_uppercase();
    let base = decl.split(['(', ' ']).next().unwrap_or_default();
    let value = match base {
        "ENUM" => string(
            c.mapped
                .enum_values
                .as_ref()
                .and_then(|v| v.first())
                .cloned()
                .unwrap_or_default(),
        ),
        "DATE" => string("0000-00-00"),
        "DATETIME" | "TIMESTAMP" => string("0000-00-00 00:00:00"),
        "TIME" => string("00:00:00"),
        _ if c.mapped.text_like || base.contains("BINARY") || base.contains("BLOB") => string(""),
        _ => number("0"),
    };
    let table = rebuild::column_table(&a.table, &c.name, &decl);
    crate::stored::assigned(&table, &c.name, value, false)
}

/// `DROP COLUMN c`: SQLite refuses to drop an indexed column, so single-column indexes on it
/// are dropped first (as MySQL does); a column of a multi-column index is dropped by a
/// rebuild, which leaves the index without it.
fn drop_column(a: &mut Alter<'_>, name: &str) -> Result<(), SqlError> {
    a.model()?.drop(name)?;
    let indexes = match a.catalog() {
        Ok(info) => info.indexes.clone(),
        Err(_) => vec![],
    };
    for i in indexes
        .iter()
        .filter(|i| i.columns.iter().any(|c| c.eq_ignore_ascii_case(name)))
    {
        if i.name.eq_ignore_ascii_case("PRIMARY") {
            // the key loses the column (the whole key when it was its only one)
            a.needs_rebuild()?;
            continue;
        }
        if i.columns.len() > 1 {
            a.needs_rebuild()?;
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

fn rename_column(a: &mut Alter<'_>, old: &str, new: &str) -> Result<(), SqlError> {
    if a.model()?.rename(old, new)? {
        a.needs_rebuild()?;
    }
    let sql = format!(
        "{} RENAME COLUMN {} TO {}",
        a.alter_prefix(),
        quote_str(old),
        quote_str(new)
    );
    a.statements.push(sql);
    Ok(())
}

/// CHANGE/MODIFY: a rename when the definition stays the same (SQLite renames in place),
/// otherwise a rebuild that copies the values through the new definition.
fn change_column(
    a: &mut Alter<'_>,
    old: &str,
    def: &ColumnDef,
    position: Option<Placement>,
) -> Result<(), SqlError> {
    let (def_name, old_sql) = a.definition(old)?;
    // Written with the name the column has in the definition; a rename follows.
    let final_name = def.name.value.clone();
    let mut def = def.clone();
    def.name = sqlparser::ast::Ident::new(&def_name);
    let collation = a.default_collation()?;
    let mut new = column(a.info.env, &def, collation, None, a.mbmaxlen()?)?;
    a.notes.append(&mut new.notes);
    let pk = primary_key(a);
    let in_pk = pk.iter().any(|c| c.eq_ignore_ascii_case(&def_name));
    let single_pk = matches!(pk.as_slice(), [c] if c.eq_ignore_ascii_case(&def_name));
    let was_autoinc = rebuild::is_autoinc_sql(&old_sql);
    if in_pk {
        new.not_null = true;
    }
    if new.primary_key && !single_pk {
        return Err(unsupported("MODIFY/CHANGE ... PRIMARY KEY"));
    }
    new.primary_key = false;
    crate::columns::key_column_type(&mut new, single_pk)?;
    let unique = std::mem::take(&mut new.unique);
    let mut inline = new.clone();
    inline.checks.clear();
    // The ENUM member check lives among the table constraints: any change to it rebuilds.
    let same = inline.sql() == old_sql && new.checks.is_empty();
    if !same || position.is_some() {
        let old_type = match rebuild::is_autoinc_sql(&old_sql) {
            true => crate::columns::autoinc_declared_type(&old_sql).map(str::to_string),
            false => a.declared_type(&def_name),
        };
        let old_check = a.model()?.enum_check(&def_name).map(str::to_string);
        let in_place = old_type.as_deref().is_some_and(|t| {
            rebuild::type_changes_in_place(
                (t, old_check.as_deref()),
                (
                    rebuild::declared_type(&new),
                    new.checks.first().map(String::as_str),
                ),
            )
        });
        a.copies_rows |= !in_place;
        let model = a.needs_rebuild()?;
        if new.autoinc && !was_autoinc {
            model.make_autoinc(&def_name);
        } else if was_autoinc && !new.autoinc {
            model.drop_autoinc(&def_name);
        }
        let decl = rebuild::declared_type(&new).to_string();
        let mut table = rebuild::column_table(&a.table, &def_name, &decl);
        // An ENUM's members are read from its member check.
        table.create_sql = new.checks.join(", ");
        let strict = crate::stored::strict_mode(a.info.env);
        let mut source = sqlparser::ast::Expr::Identifier(quoted(&def_name));
        if old_type.as_deref().is_some_and(crate::big_unsigned::decl) {
            // A BIGINT UNSIGNED's value, not its stored form (see `big_unsigned`).
            source = func(crate::big_unsigned::VALUE, vec![source]);
        }
        if let (Some(check), NumType::Int | NumType::Decimal | NumType::Double) =
            (&old_check, crate::typing::decl_type(&decl))
        {
            // An ENUM becomes a number by its index (a SET by its bits), as MariaDB copies it.
            let members = rebuild::check_members(check);
            source = if old_type.as_deref() == Some(crate::SET_DECL) {
                crate::enums::bits_of(source, &members)
            } else {
                crate::enums::index_of(source, &members)
            };
        }
        let mut convert = crate::stored::copied(
            &table,
            &def_name,
            source,
            strict,
            old_type.as_deref().unwrap_or_default(),
        );
        if new.not_null && !strict {
            // Outside strict mode a NULL becomes the implicit default, as in MariaDB.
            convert = func("coalesce", vec![convert, implicit_default(a, &new)]);
        }
        // A change in place keeps the values (an ENUM's invalid '' included), as MariaDB's.
        let convert = (!in_place || new.not_null).then_some(convert);
        a.model()?.redefine(old, &new, convert, position.as_ref())?;
    }
    if !final_name.eq(old) {
        rename_column(a, old, &final_name)?;
    }
    if unique {
        add_index(a, None, true, vec![(final_name, false)]);
    }
    Ok(())
}

/// The table's PRIMARY KEY columns.
fn primary_key(a: &mut Alter<'_>) -> Vec<String> {
    a.model().map(|m| m.primary_key()).unwrap_or_default()
}

/// `ALTER COLUMN c SET DEFAULT v | DROP DEFAULT`: a rebuild (SQLite cannot change a
/// DEFAULT in place).
fn alter_default(
    a: &mut Alter<'_>,
    name: &str,
    value: Option<&sqlparser::ast::Expr>,
) -> Result<(), SqlError> {
    let (def_name, sql) = a.definition(name)?;
    let decl = a.declared_type(&def_name).unwrap_or_default();
    let default = match value {
        Some(e) => Some(
            typed_default(&def_name, &decl, a.info.env, e).map_err(|e| e.in_column(&def_name))?,
        ),
        None => None,
    };
    let sql = rebuild::with_default(&sql, default.as_deref());
    a.needs_rebuild()?.set_definition(name, sql)
}

fn drop_index(a: &mut Alter<'_>, name: &str) -> Result<(), SqlError> {
    let sql = drop_index_sql(a.info.env, &a.table, name)?;
    a.statements.push(sql);
    a.model()?
        .indexes
        .retain(|i| !i.name.eq_ignore_ascii_case(name));
    Ok(())
}

/// Adds an index (named as MySQL names an unnamed one).
fn add_index(a: &mut Alter<'_>, name: Option<String>, unique: bool, parts: Vec<KeyPart>) {
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
    if let Some(m) = a.model.as_mut() {
        m.indexes.push(rebuild::Index {
            name: name.clone(),
            unique,
            columns: parts.iter().map(|p| p.0.clone()).collect(),
        });
    }
    a.new_indexes.push(name);
}

/// `AUTO_INCREMENT = n`: the next id is n, or past the largest id in use (as InnoDB).
/// A table without AUTO_INCREMENT column ignores it.
fn auto_increment(a: &mut Alter<'_>, n: u64) -> Result<(), SqlError> {
    let Some(col) = a
        .catalog()?
        .autoinc
        .clone()
        .filter(|c| c != crate::INVISIBLE_KEY)
    else {
        return Ok(());
    };
    let table = a.table.sqlite_name();
    let name = crate::names::quote_literal(&table);
    let seq = format!(
        "max({}, coalesce((SELECT max({}) FROM {}), 0))",
        n.saturating_sub(1).min(i64::MAX as u64),
        quote_str(&col),
        quote_str(&table)
    );
    a.after.push(format!(
        "UPDATE sqlite_sequence SET seq = {seq} WHERE name = {name}"
    ));
    a.after.push(format!(
        "INSERT INTO sqlite_sequence (name, seq) SELECT {name}, {seq} \
         WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = {name})"
    ));
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
        TableConstraint::PrimaryKey(pk) => {
            let parts = key_parts(&pk.columns)?;
            let columns: Vec<String> = parts.into_iter().map(|(c, _)| c).collect();
            // InnoDB swaps one primary key for another in place
            a.copies_rows = !a.primary_dropped;
            return a.needs_rebuild()?.add_primary_key(&columns);
        }
        TableConstraint::ForeignKey(_) => return Err(unsupported("ADD FOREIGN KEY")),
        TableConstraint::Check(_) => return Err(unsupported("ADD CHECK")),
        TableConstraint::FulltextOrSpatial(f) => {
            let kind = if f.fulltext { "FULLTEXT" } else { "SPATIAL" };
            return Err(SqlError::Unsupported(format!("{kind} indexes")));
        }
        other => return Err(unsupported(&format!("ADD {other}"))),
    };
    add_index(a, name, unique, parts);
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
    for i in &mut a.model()?.indexes {
        if i.name.eq_ignore_ascii_case(old) {
            i.name = new.to_string();
        }
    }
    Ok(())
}

//! `SHOW CREATE TABLE`, `SHOW [FULL] COLUMNS`/`DESCRIBE` and `SHOW INDEX` as MariaDB 10.11
//! prints them, so that dumps, schema diff tools and ORMs that read them see MariaDB's text:
//! integer display widths (`int(11)`, `bigint(20) unsigned`), `DEFAULT NULL` on nullable
//! columns, `timestamp NULL`, ENUM members, `current_timestamp()`, `b'101'`, keys in
//! MariaDB's order (PRIMARY, UNIQUE over NOT NULL columns, other UNIQUE, plain keys),
//! foreign keys named `<table>_ibfk_<n>`, CHECK constraints, the table options.
//!
//! The facts come from the catalog and from the table's definition as SQLite keeps it
//! ([`Definition`]): the collation of each text column (`COLLATE tutti_general_ci`,
//! `tutti_unicode_ci`, ...; none or `tutti_bin`: `utf8mb4_bin`) and the table's default
//! collation, the CHECK constraints and ENUM members. What SQLite does not keep is
//! not shown: key prefix lengths, column comments, FOREIGN KEY names, SET members.

use std::sync::Arc;

use rusqlite::Connection;
use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};
use tutti_sql::{
    ColumnInfo, DecimalType, IndexInfo, SqlMode, TableInfo, TableName, ENUM_CHECK_SUFFIX,
};
use tutti_wsrep::Value;

use crate::catalog::TableMeta;
use crate::result::{Column, ResultSet};
use crate::session::Session;
use crate::ExecError;

fn text(s: impl Into<String>) -> Value {
    Value::Text(s.into())
}

/// A CHECK constraint: its name (None when unnamed) and its expression in MySQL's quoting.
struct Check {
    name: Option<String>,
    expr: String,
}

/// What SQLite's `CREATE TABLE` text adds to the catalog.
#[derive(Default)]
pub(crate) struct Definition {
    /// Columns declared with one of tutti's case-insensitive collations, with it (the
    /// other text columns are `utf8mb4_bin`).
    pub(crate) collated: Vec<(String, String)>,
    /// The table's default collation (MariaDB's name).
    collation: String,
    /// The storage engine it declares (MariaDB's name).
    engine: &'static str,
    /// Columns declared in a single-byte character set, with its collation.
    single_byte: Vec<(String, String)>,
    /// CHECK constraints in declaration order, ENUM member checks included.
    checks: Vec<Check>,
    /// The names of the FOREIGN KEY constraints in declaration order (None: unnamed).
    foreign_keys: Vec<Option<String>>,
    /// ENUM members by column, from the member checks (`"c" IN ('a', 'b')`).
    enums: Vec<(String, Vec<String>)>,
    /// The ZEROFILL columns.
    zerofill: Vec<String>,
    /// Expression DEFAULTs by column, as MariaDB prints them.
    shown_defaults: Vec<(String, String)>,
}

impl Definition {
    /// Reads the definition of a table from its SQLite `CREATE TABLE` text.
    pub(crate) fn parse(sql: &str) -> Definition {
        let mut def = Definition {
            zerofill: tutti_sql::zerofill_columns(sql),
            shown_defaults: tutti_sql::shown_defaults(sql),
            collation: tutti_sql::table_collation(sql)
                .unwrap_or_else(|| "utf8mb4_general_ci".into()),
            engine: tutti_sql::table_engine(sql),
            single_byte: tutti_sql::charset_columns(sql),
            ..Definition::default()
        };
        let Ok(tokens) = Tokenizer::new(&SQLiteDialect {}, sql).tokenize() else {
            return def;
        };
        let Some(open) = tokens.iter().position(|t| *t == Token::LParen) else {
            return def;
        };
        for element in elements(&tokens[open + 1..]) {
            def.read_element(&element);
        }
        def
    }

    /// One column definition or table constraint (whitespace removed).
    fn read_element(&mut self, e: &[&Token]) {
        let keyword = |i: usize| match e.get(i) {
            Some(Token::Word(w)) => w.keyword,
            _ => Keyword::NoKeyword,
        };
        match keyword(0) {
            Keyword::CONSTRAINT if keyword(2) == Keyword::CHECK => {
                let name = word(e.get(1));
                if let Some(column) = name
                    .as_deref()
                    .and_then(|n| n.strip_suffix(ENUM_CHECK_SUFFIX))
                {
                    let members = tutti_sql::enum_check_members(e[3..].iter().copied());
                    self.enums.push((column.to_string(), members));
                }
                self.checks.push(Check {
                    name,
                    expr: check_expr(&e[3..]),
                })
            }
            Keyword::CHECK => self.checks.push(Check {
                name: None,
                expr: check_expr(&e[1..]),
            }),
            Keyword::CONSTRAINT if keyword(2) == Keyword::FOREIGN => {
                self.foreign_keys.push(word(e.get(1)))
            }
            Keyword::FOREIGN => self.foreign_keys.push(None),
            Keyword::PRIMARY | Keyword::UNIQUE | Keyword::CONSTRAINT => {}
            _ => {
                let collated = (1..e.len()).find_map(|i| {
                    (keyword(i) == Keyword::COLLATE)
                        .then(|| word(e.get(i + 1)))
                        .flatten()
                        .filter(|c| tutti_sql::is_ci_collation(c))
                });
                if let (Some(collation), Some(name)) = (collated, word(e.first())) {
                    self.collated.push((name, collation));
                }
            }
        }
    }

    /// The SQLite collation of case-insensitive text column `column` (None: exact).
    pub(crate) fn collation_of(&self, column: &str) -> Option<&str> {
        self.collated
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, collation)| collation.as_str())
    }

    /// The members of an ENUM column.
    pub(crate) fn enum_members(&self, column: &str) -> Option<&[String]> {
        self.enums
            .iter()
            .find(|(c, _)| c == column)
            .map(|(_, m)| m.as_slice())
    }

    /// A column's type as `SHOW CREATE TABLE` shows it (`int(5) unsigned zerofill`).
    pub(crate) fn mysql_type(&self, c: &ColumnInfo) -> String {
        let shown = display_type(&c.decl_type, self.enum_members(&c.name));
        if self.zerofill.contains(&c.name) {
            format!("{shown} zerofill")
        } else {
            shown
        }
    }
}

/// The value of an identifier token.
fn word(t: Option<&&Token>) -> Option<String> {
    match t {
        Some(Token::Word(w)) => Some(w.value.clone()),
        _ => None,
    }
}

/// Splits the tokens after the opening parenthesis of `CREATE TABLE` at top-level commas,
/// up to the closing parenthesis; whitespace and comments are dropped.
fn elements(tokens: &[Token]) -> Vec<Vec<&Token>> {
    let mut out = vec![vec![]];
    let mut depth = 0usize;
    for t in tokens {
        match t {
            Token::Whitespace(_) => continue,
            Token::Comma if depth == 0 => {
                out.push(vec![]);
                continue;
            }
            Token::LParen => depth += 1,
            Token::RParen if depth == 0 => break,
            Token::RParen => depth -= 1,
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(t);
        }
    }
    out
}

/// A CHECK's parenthesised expression as MariaDB prints it: identifiers in backticks,
/// keywords in lower case, no space inside parentheses, around commas or before a
/// function's `(`.
fn check_expr(tokens: &[&Token]) -> String {
    let mut out = String::new();
    let mut prev: Option<&Token> = None;
    for t in tokens {
        let function_call = matches!((prev, t), (Some(Token::Word(w)), Token::LParen)
            if w.quote_style.is_none() && !is_operator_word(w));
        let glue = function_call
            || matches!(prev, None | Some(Token::LParen) | Some(Token::Comma))
            || matches!(t, Token::RParen | Token::Comma);
        if !glue {
            out.push(' ');
        }
        match t {
            Token::Word(w) if w.quote_style.is_some() => out.push_str(&format!("`{}`", w.value)),
            Token::Word(w) if w.keyword != Keyword::NoKeyword => {
                out.push_str(&w.value.to_ascii_lowercase())
            }
            t => out.push_str(&t.to_string()),
        }
        prev = Some(t);
    }
    out
}

/// Keywords that are operators, followed by a parenthesised operand (`x IN (1, 2)`).
fn is_operator_word(w: &sqlparser::tokenizer::Word) -> bool {
    matches!(
        w.keyword,
        Keyword::IN
            | Keyword::AND
            | Keyword::OR
            | Keyword::NOT
            | Keyword::IS
            | Keyword::LIKE
            | Keyword::BETWEEN
    )
}

/// MariaDB's name of a column type (`int(11)`, `bigint(20) unsigned`, `decimal(10,2)`,
/// `enum('a','b')`, `set('a','b')`, `year(4)`, `longtext` for JSON).
pub(crate) fn display_type(decl: &str, members: Option<&[String]>) -> String {
    let d = crate::show::lowercase_decl(decl);
    let unsigned = d.contains(" unsigned");
    let base_len = d.find(['(', ' ']).unwrap_or(d.len());
    let (base, rest) = d.split_at(base_len);
    let width = rest
        .trim_start_matches(" unsigned")
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .map(|(w, _)| w.to_string());
    let int = |name: &str, signed: u32, unsigned_width: u32| {
        let w = width
            .clone()
            .unwrap_or_else(|| (if unsigned { unsigned_width } else { signed }).to_string());
        format!("{name}({w}){}", if unsigned { " unsigned" } else { "" })
    };
    match base {
        "tinyint" => int("tinyint", 4, 3),
        "smallint" => int("smallint", 6, 5),
        "mediumint" => int("mediumint", 9, 8),
        "int" | "integer" => int("int", 11, 10),
        "bigint" => int("bigint", 20, 20),
        "year" => "year(4)".into(),
        "json" => "longtext".into(),
        "real" | "double" | "float" => match tutti_sql::RealType::of_decl(decl) {
            Some(t) => t.display(),
            None => d,
        },
        "char" | "binary" if width.is_none() => format!("{base}(1)"),
        "decimal" => match DecimalType::of_decl(decl) {
            Some(t) => format!(
                "decimal({},{}){}",
                t.precision,
                t.scale,
                if unsigned { " unsigned" } else { "" }
            ),
            None => d,
        },
        "enum" | "set" => {
            let quoted: Vec<String> = members
                .unwrap_or_default()
                .iter()
                .map(|m| format!("'{}'", m.replace('\'', "''")))
                .collect();
            format!("{base}({})", quoted.join(","))
        }
        _ => d,
    }
}

/// True for the types that carry a collation.
pub(crate) fn is_text(decl: &str) -> bool {
    let d = decl.to_ascii_lowercase();
    let base = d.split(['(', ' ']).next().unwrap_or("");
    matches!(
        base,
        "char" | "varchar" | "tinytext" | "text" | "mediumtext" | "longtext" | "enum" | "set"
    )
}

/// The fractional-second digits of a temporal type (`datetime(3)` → 3).
fn fsp(decl: &str) -> Option<u32> {
    let d = decl.to_ascii_lowercase();
    let base = d.split('(').next().unwrap_or("");
    if !matches!(base, "datetime" | "timestamp" | "time") {
        return None;
    }
    Some(
        d.split_once('(')
            .and_then(|(_, r)| r.trim_end_matches(')').parse().ok())
            .unwrap_or(0),
    )
}

/// A column's default as MariaDB shows it in `SHOW CREATE TABLE` (None: no DEFAULT clause).
pub(crate) fn default_clause(c: &ColumnInfo) -> Option<String> {
    let Some(d) = c.default.as_deref() else {
        return (!c.not_null && c.pk == 0).then(|| "NULL".into());
    };
    let column_fsp = fsp(&c.decl_type).unwrap_or(0);
    if let Some(p) = tutti_sql::current_timestamp_precision(d, column_fsp) {
        return Some(match p {
            0 => "current_timestamp()".into(),
            n => format!("current_timestamp({n})"),
        });
    }
    let decl = c.decl_type.to_ascii_lowercase();
    if decl.starts_with("bit") {
        if let Some(v) = bit_value(d) {
            return Some(format!("b'{v:b}'"));
        }
    }
    if decl.starts_with("bigint") && decl.contains(" unsigned") {
        // Above 2^63 − 1 it is stored as its bytes (see storage's `big_unsigned`).
        if let Some(v) = bit_value(d).filter(|_| d.starts_with(['X', 'x'])) {
            return Some(v.to_string());
        }
    }
    let unquoted = d.trim_matches('\'');
    let numeric = DecimalType::of_decl(&c.decl_type).is_some()
        || matches!(
            decl.split(['(', ' ']).next(),
            Some("tinyint" | "smallint" | "mediumint" | "int" | "integer" | "bigint")
        );
    if numeric && unquoted.parse::<f64>().is_ok() {
        return Some(unquoted.to_string());
    }
    if decl.starts_with("double") || decl.starts_with("float") || decl.starts_with("real") {
        if let Ok(f) = d.trim_matches('\'').parse::<f64>() {
            return Some(if f.fract() == 0.0 && f.abs() < 1e15 {
                format!("{}", f as i64)
            } else {
                format!("{f}")
            });
        }
    }
    if decl.starts_with("timestamp") {
        // Stored in UTC: shown in the session's time zone.
        let local = d
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .and_then(tutti_storage::timestamp_in_session);
        if let Some(local) = local {
            return Some(format!("'{local}'"));
        }
    }
    Some(d.to_string())
}

/// The value of a BIT default: stored as the number (`5`), or as `X'05'` by tables created
/// before BIT columns held numbers.
fn bit_value(d: &str) -> Option<u64> {
    match d.strip_prefix(['X', 'x']) {
        Some(hex) => u64::from_str_radix(hex.trim_matches('\''), 16).ok(),
        None => d.parse().ok(),
    }
}

/// A column's default clause as DESCRIBE shows it: strings without quotes, NULL as NULL.
fn default_value(clause: Option<String>) -> Value {
    match clause.as_deref() {
        None | Some("NULL") => Value::Null,
        Some(d) => match d.strip_prefix('\'').and_then(|d| d.strip_suffix('\'')) {
            Some(s) => text(s.replace("''", "'")),
            None => text(d),
        },
    }
}

/// A table's catalog entry and SQLite definition.
struct Table {
    name: TableName,
    meta: Arc<TableMeta>,
    def: Definition,
    /// One of the session's temporary tables.
    temporary: bool,
    /// The session's `sql_mode` (quotes and options shown).
    mode: SqlMode,
    /// The `ON UPDATE CURRENT_TIMESTAMP(n)` columns and their n.
    on_update: Vec<(String, u32)>,
}

impl Table {
    fn load(s: &Session, t: &TableName) -> Result<Table, ExecError> {
        if let Some(meta) = s.temporary(t) {
            return Ok(Table {
                name: t.clone(),
                def: Definition::parse(&meta.info.create_sql),
                meta: meta.clone(),
                temporary: true,
                mode: SqlMode::of(s),
                on_update: tutti_sql::on_update_columns(&meta.info.create_sql),
            });
        }
        let meta = s
            .exec
            .catalog
            .table(&s.exec.storage, &t.sqlite_name())?
            .ok_or_else(|| ExecError::NoSuchTable(t.to_string()))?;
        let sql = s
            .exec
            .catalog
            .create_sql(&s.exec.storage, &t.sqlite_name())?;
        Ok(Table {
            name: t.clone(),
            def: Definition::parse(sql.as_deref().unwrap_or("")),
            temporary: false,
            mode: SqlMode::of(s),
            on_update: tutti_sql::on_update_columns(&meta.info.create_sql),
            meta,
        })
    }

    fn column(&self, name: &str) -> Option<&ColumnInfo> {
        self.meta.info.columns.iter().find(|c| c.name == name)
    }

    fn not_null(c: &ColumnInfo) -> bool {
        c.not_null || c.pk > 0
    }

    /// Column `c`'s DEFAULT clause: an expression as it was written (MariaDB's print of it).
    fn default_clause(&self, c: &ColumnInfo) -> Option<String> {
        let shown = self.def.shown_defaults.iter().find(|(n, _)| *n == c.name);
        shown.map(|(_, d)| d.clone()).or_else(|| default_clause(c))
    }

    fn column_type(&self, c: &ColumnInfo) -> String {
        self.def.mysql_type(c)
    }

    /// The MariaDB collation of a text or JSON column (a JSON column is `utf8mb4_bin` until
    /// `CONVERT TO CHARACTER SET` gives it another, as in MariaDB).
    fn text_collation(&self, c: &ColumnInfo) -> String {
        let single_byte = self
            .def
            .single_byte
            .iter()
            .find(|(name, _)| *name == c.name);
        if let Some((_, collation)) = single_byte {
            return collation.clone();
        }
        match self.def.collation_of(&c.name) {
            Some(collation) if !Self::is_json(c) || collation != tutti_sql::GENERAL_CI => {
                tutti_sql::mysql_collation(collation).to_string()
            }
            _ => "utf8mb4_bin".to_string(),
        }
    }

    fn is_json(c: &ColumnInfo) -> bool {
        c.decl_type.eq_ignore_ascii_case("JSON TEXT")
    }

    fn collation(&self, c: &ColumnInfo) -> Value {
        if Self::is_json(c) || is_text(&c.decl_type) {
            text(self.text_collation(c))
        } else {
            Value::Null
        }
    }

    /// Indexes in MariaDB's order: PRIMARY, UNIQUE over NOT NULL columns, other UNIQUE,
    /// the rest; each group in creation order.
    fn indexes(&self) -> Vec<&IndexInfo> {
        let rank = |i: &IndexInfo| match (i.name.as_str(), i.unique) {
            ("PRIMARY", _) => 0,
            (_, true)
                if i.columns
                    .iter()
                    .all(|c| self.column(c).is_some_and(Self::not_null)) =>
            {
                1
            }
            (_, true) => 2,
            _ => 3,
        };
        let mut list: Vec<&IndexInfo> = self.meta.info.indexes.iter().collect();
        list.sort_by_key(|i| rank(i));
        list
    }

    fn is_autoinc(&self, c: &ColumnInfo) -> bool {
        !self.meta.info.has_invisible_key() && self.meta.info.autoinc.as_deref() == Some(&c.name)
    }

    /// One column line of `SHOW CREATE TABLE`.
    fn column_line(&self, c: &ColumnInfo) -> String {
        let mut l = format!("  `{}` {}", c.name, self.column_type(c));
        if Self::is_json(c) || is_text(&c.decl_type) {
            let collation = self.text_collation(c);
            if collation != self.def.collation {
                let charset = tutti_sql::charset_of(&collation);
                l.push_str(&format!(" CHARACTER SET {charset} COLLATE {collation}"));
            }
        }
        let timestamp = c.decl_type.to_ascii_lowercase().starts_with("timestamp");
        if Self::not_null(c) {
            l.push_str(" NOT NULL");
        } else if timestamp {
            l.push_str(" NULL");
        }
        if let Some(d) = self.default_clause(c) {
            l.push_str(&format!(" DEFAULT {d}"));
        }
        match self.on_update.iter().find(|(name, _)| *name == c.name) {
            Some((_, 0)) => l.push_str(" ON UPDATE current_timestamp()"),
            Some((_, fsp)) => l.push_str(&format!(" ON UPDATE current_timestamp({fsp})")),
            None => {}
        }
        if self.is_autoinc(c) && !self.mode.has("NO_FIELD_OPTIONS") {
            l.push_str(" AUTO_INCREMENT");
        }
        if Self::is_json(c) {
            l.push_str(&format!(" CHECK (json_valid(`{}`))", c.name));
        }
        l
    }
}

/// A definition with its `` `identifiers` `` quoted `"identifiers"`, as MariaDB shows it
/// under `ANSI_QUOTES`; string literals (`'a``b'`, `'it''s'`) are left alone.
fn ansi_quoted(ddl: &str) -> String {
    let mut out = String::with_capacity(ddl.len());
    let mut chars = ddl.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                out.push(c);
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '\'' if chars.peek() == Some(&'\'') => out.extend(chars.next()),
                        '\'' => break,
                        _ => {}
                    }
                }
            }
            '`' => {
                out.push('"');
                while let Some(c) = chars.next() {
                    match c {
                        '`' if chars.peek() == Some(&'`') => {
                            chars.next();
                            out.push('`');
                        }
                        '`' => break,
                        '"' => out.push_str("\"\""),
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            c => out.push(c),
        }
    }
    out
}

fn quote_list(cols: &[String]) -> String {
    cols.iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(",")
}

/// `SHOW CREATE TABLE`.
/// The view `t`, if it is one (a missing table is 1146).
pub(crate) fn view(s: &Session, t: &TableName) -> Result<Option<TableInfo>, ExecError> {
    if s.temporary(t).is_some() {
        return Ok(None);
    }
    let meta = s
        .exec
        .catalog
        .table(&s.exec.storage, &t.sqlite_name())?
        .ok_or_else(|| ExecError::NoSuchTable(t.to_string()))?;
    Ok(meta.info.is_view().then(|| meta.info.clone()))
}

/// `SHOW CREATE VIEW` (and `SHOW CREATE TABLE` of a view): MariaDB's text of it.
pub(crate) fn create_view(s: &Session, view: &TableInfo) -> Result<ResultSet, ExecError> {
    let shown = tutti_sql::show_create_view(s, view)?;
    Ok(ResultSet {
        columns: vec![
            Column::text("View"),
            Column::text("Create View"),
            Column::text("character_set_client"),
            Column::text("collation_connection"),
        ],
        rows: vec![vec![
            text(&view.name.table),
            text(shown.create),
            text(shown.charset),
            text(shown.collation),
        ]],
    })
}

pub(crate) fn create_table(s: &Session, t: &TableName) -> Result<ResultSet, ExecError> {
    let table = Table::load(s, t)?;
    let mut lines: Vec<String> = table
        .meta
        .info
        .columns
        .iter()
        .map(|c| table.column_line(c))
        .collect();
    for i in table.indexes() {
        lines.push(match (i.name.as_str(), i.unique) {
            ("PRIMARY", _) => format!("  PRIMARY KEY ({})", quote_list(&i.columns)),
            (n, true) => format!("  UNIQUE KEY `{n}` ({})", quote_list(&i.columns)),
            (n, false) => format!("  KEY `{n}` ({})", quote_list(&i.columns)),
        });
    }
    let reader = s.conn_for(t)?;
    lines.extend(foreign_key_lines(&reader, &table)?);
    let mut unnamed = 0;
    for c in &table.def.checks {
        let name = match &c.name {
            Some(n)
                if n.strip_suffix(ENUM_CHECK_SUFFIX)
                    .is_some_and(|c| table.column(c).is_some())
                    || tutti_sql::is_table_mark(n) =>
            {
                continue
            }
            Some(n) => n.clone(),
            None => {
                unnamed += 1;
                format!("CONSTRAINT_{unnamed}")
            }
        };
        lines.push(format!("  CONSTRAINT `{name}` CHECK {}", c.expr));
    }
    let reserved = s.autoinc_for(t).reserved(&t.sqlite_name());
    let auto_increment = match next_autoinc(&reader, &table, reserved)? {
        Some(n) if n > 1 => format!(" AUTO_INCREMENT={n}"),
        _ => String::new(),
    };
    // MariaDB shows no table options in the modes of other databases either.
    let foreign = ["ANSI", "POSTGRESQL", "MSSQL", "DB2", "MAXDB"];
    let options = if table.mode.has("NO_TABLE_OPTIONS") || foreign.iter().any(|m| table.mode.has(m))
    {
        String::new()
    } else {
        // Aria tables show their default page checksums.
        let aria = if table.def.engine == "Aria" {
            " PAGE_CHECKSUM=1"
        } else {
            ""
        };
        format!(
            " ENGINE={}{auto_increment} DEFAULT CHARSET=utf8mb4 COLLATE={}{aria}",
            table.def.engine, table.def.collation
        )
    };
    let ddl = format!(
        "CREATE {}TABLE `{}` (\n{}\n){options}",
        if table.temporary { "TEMPORARY " } else { "" },
        t.table,
        lines.join(",\n")
    );
    let ddl = if table.mode.has("ANSI_QUOTES") {
        ansi_quoted(&ddl)
    } else {
        ddl
    };
    Ok(ResultSet {
        columns: vec![Column::text("Table"), Column::text("Create Table")],
        rows: vec![vec![text(&t.table), text(ddl)]],
    })
}

/// The next AUTO_INCREMENT value: past the largest id used (SQLite's `sqlite_sequence`
/// keeps it) and the largest this node reserved (`reserved`).
fn next_autoinc(
    reader: &Connection,
    table: &Table,
    reserved: Option<i64>,
) -> Result<Option<i64>, ExecError> {
    if !table.meta.info.columns.iter().any(|c| table.is_autoinc(c)) {
        return Ok(None);
    }
    let seq: Option<i64> = reader
        .prepare_cached("SELECT seq FROM sqlite_sequence WHERE name = ?1")?
        .query_row([table.name.sqlite_name()], |r| r.get(0))
        .ok();
    Ok(seq.max(reserved).map(|n| n + 1))
}

/// `CONSTRAINT `name` FOREIGN KEY ...` lines, sorted by name as MariaDB lists them; an
/// unnamed one is `<table>_ibfk_<n>`.
fn foreign_key_lines(reader: &Connection, table: &Table) -> Result<Vec<String>, ExecError> {
    let mut stmt = reader.prepare_cached(
        "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete \
         FROM pragma_foreign_key_list(?1) ORDER BY id DESC, seq",
    )?;
    type Row = (i64, String, String, Option<String>, String, String);
    let rows: Vec<Row> = stmt
        .query_map([table.name.sqlite_name()], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
            ))
        })?
        .collect::<Result<_, _>>()?;
    let mut lines = Vec::new();
    let mut unnamed = 0;
    for (n, group) in rows.chunk_by(|a, b| a.0 == b.0).enumerate() {
        let name = match table.def.foreign_keys.get(n).cloned().flatten() {
            Some(name) => name,
            None => {
                unnamed += 1;
                format!("{}_ibfk_{unnamed}", table.name.table)
            }
        };
        let (_, parent, _, _, on_update, on_delete) = &group[0];
        let from: Vec<String> = group.iter().map(|r| r.2.clone()).collect();
        let to: Vec<String> = group.iter().filter_map(|r| r.3.clone()).collect();
        let parent = TableName::from_sqlite_name(parent)
            .map(|p| match p.db == table.name.db {
                true => format!("`{}`", p.table),
                false => format!("`{}`.`{}`", p.db, p.table),
            })
            .unwrap_or_else(|| format!("`{parent}`"));
        let mut l = format!(
            "  CONSTRAINT `{name}` FOREIGN KEY ({}) REFERENCES {parent} ({})",
            quote_list(&from),
            quote_list(&to)
        );
        for (what, action) in [("DELETE", on_delete), ("UPDATE", on_update)] {
            if !matches!(action.as_str(), "NO ACTION" | "RESTRICT") {
                l.push_str(&format!(" ON {what} {action}"));
            }
        }
        lines.push(l);
    }
    lines.sort();
    Ok(lines)
}

/// `SHOW [FULL] COLUMNS` / `DESCRIBE`.
pub(crate) fn columns(s: &Session, t: &TableName, full: bool) -> Result<ResultSet, ExecError> {
    let table = Table::load(s, t)?;
    let typed = table
        .meta
        .info
        .is_view()
        .then(|| tutti_sql::typed_view(&table.meta.info, s))
        .flatten();
    let info = typed.as_ref().map_or(&table.meta.info, |v| &v.info);
    let members = |i: usize| typed.as_ref().and_then(|v| v.members[i].as_deref());
    let key_of = |col: &str| {
        if info.columns.iter().any(|c| c.pk > 0 && c.name == col) {
            "PRI"
        } else if info
            .indexes
            .iter()
            .any(|i| i.unique && i.columns.len() == 1 && i.columns[0] == col)
        {
            "UNI"
        } else if info
            .indexes
            .iter()
            .any(|i| i.columns.first().is_some_and(|c| c == col))
        {
            "MUL"
        } else {
            ""
        }
    };
    let rows = info
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let on_update = table.on_update.iter().find(|(name, _)| *name == c.name);
            let extra = match on_update {
                _ if table.is_autoinc(c) => "auto_increment".to_string(),
                Some((_, 0)) => "on update current_timestamp()".to_string(),
                Some((_, fsp)) => format!("on update current_timestamp({fsp})"),
                None => String::new(),
            };
            let null = if Table::not_null(c) { "NO" } else { "YES" };
            let ty = match &c.computed {
                // MariaDB keeps a view's computed times in their pre-10.0 form, and says so.
                Some(t)
                    if ["datetime", "timestamp", "time"]
                        .contains(&t.split('(').next().unwrap_or(t)) =>
                {
                    format!("{t} /* mariadb-5.3 */")
                }
                Some(t) => t.clone(),
                None => match members(i) {
                    Some(m) => display_type(&c.decl_type, Some(m)),
                    None => table.column_type(c),
                },
            };
            let mut row = vec![text(&c.name), text(ty)];
            if full {
                row.push(table.collation(c));
            }
            row.extend([
                text(null),
                text(key_of(&c.name)),
                default_value(table.default_clause(c)),
                text(&extra),
            ]);
            if full {
                row.extend([text("select,insert,update,references"), text("")]);
            }
            row
        })
        .collect();
    let mut columns = vec![Column::text("Field"), Column::text_blob("Type")];
    if full {
        columns.push(Column::text("Collation"));
    }
    columns.extend([
        Column::text("Null"),
        Column::text("Key"),
        Column::text_blob("Default"),
        Column::text("Extra"),
    ]);
    if full {
        columns.extend([Column::text("Privileges"), Column::text("Comment")]);
    }
    Ok(ResultSet { columns, rows })
}

/// `SHOW INDEX`. Cardinality is the table's row count (MariaDB shows InnoDB's estimate).
pub(crate) fn index(s: &Session, t: &TableName) -> Result<ResultSet, ExecError> {
    let table = Table::load(s, t)?;
    let count: i64 = s.conn_for(t)?.query_row(
        &format!(
            "SELECT COUNT(*) FROM {}",
            tutti_sql::quote_ident(&t.sqlite_name())
        ),
        [],
        |r| r.get(0),
    )?;
    let mut rows = Vec::new();
    for i in table.indexes() {
        for (n, c) in i.columns.iter().enumerate() {
            let nullable = table.column(c).is_some_and(|c| !Table::not_null(c));
            rows.push(vec![
                text(&t.table),
                Value::Int(if i.unique { 0 } else { 1 }),
                text(&i.name),
                Value::Int(n as i64 + 1),
                text(c),
                text("A"),
                Value::Int(count),
                Value::Null,
                Value::Null,
                text(if nullable { "YES" } else { "" }),
                text("BTREE"),
                text(""),
                text(""),
                text("NO"),
            ]);
        }
    }
    let ints = ["Non_unique", "Seq_in_index", "Cardinality", "Sub_part"];
    let columns = [
        "Table",
        "Non_unique",
        "Key_name",
        "Seq_in_index",
        "Column_name",
        "Collation",
        "Cardinality",
        "Sub_part",
        "Packed",
        "Null",
        "Index_type",
        "Comment",
        "Index_comment",
        "Ignored",
    ]
    .iter()
    .map(|n| match ints.contains(n) {
        true => Column::int(*n),
        false => Column::text(*n),
    })
    .collect();
    Ok(ResultSet { columns, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_as_mariadb_names_them() {
        for (decl, shown) in [
            ("INT", "int(11)"),
            ("INTEGER", "int(11)"),
            ("INT UNSIGNED", "int(10) unsigned"),
            ("BIGINT UNSIGNED", "bigint(20) unsigned"),
            ("TINYINT(1)", "tinyint(1)"),
            ("INT(3)", "int(3)"),
            ("INT UNSIGNED(5)", "int(5) unsigned"),
            ("SMALLINT", "smallint(6)"),
            ("MEDIUMINT UNSIGNED", "mediumint(8) unsigned"),
            ("DECIMAL TEXT(10,2)", "decimal(10,2)"),
            ("YEAR", "year(4)"),
            ("JSON TEXT", "longtext"),
            ("VARCHAR(10)", "varchar(10)"),
            ("CHAR", "char(1)"),
            ("DATETIME(3)", "datetime(3)"),
        ] {
            assert_eq!(display_type(decl, None), shown, "{decl}");
        }
        let members = ["a".to_string(), "it's".to_string()];
        assert_eq!(display_type("ENUM", Some(&members)), "enum('a','it''s')");
    }

    #[test]
    fn definition_gives_collations_checks_and_enum_members() {
        let def = Definition::parse(
            "CREATE TABLE \"d.t\" (\"id\" INTEGER /*tutti:type BIGINT*/ NOT NULL PRIMARY KEY \
             AUTOINCREMENT, \"a\" INT, \"c\" VARCHAR(10), \"e\" ENUM NOT NULL COLLATE \
             tutti_general_ci, CHECK (\"a\" > 1), CONSTRAINT \"e enum\" CHECK (\"e\" IN ('p', \
             'q')), CONSTRAINT \"kk\" CHECK (json_valid(\"c\") AND \"a\" IN (1, 2)))",
        );
        assert_eq!(
            def.collated,
            vec![("e".to_string(), "tutti_general_ci".to_string())]
        );
        let checks: Vec<(Option<&str>, &str)> = def
            .checks
            .iter()
            .map(|c| (c.name.as_deref(), c.expr.as_str()))
            .collect();
        assert_eq!(
            checks,
            vec![
                (None, "(`a` > 1)"),
                (Some("e enum"), "(`e` in ('p','q'))"),
                (Some("kk"), "(json_valid(`c`) and `a` in (1,2))"),
            ]
        );
        assert_eq!(
            def.enum_members("e"),
            Some(&["p".to_string(), "q".to_string()][..])
        );
    }

    #[test]
    fn defaults_as_mariadb_prints_them() {
        let col = |decl: &str, default: Option<&str>, not_null: bool| ColumnInfo {
            name: "c".into(),
            decl_type: decl.into(),
            not_null,
            pk: 0,
            default: default.map(str::to_string),
            computed: None,
        };
        assert_eq!(
            default_clause(&col("INT", None, false)).as_deref(),
            Some("NULL")
        );
        assert_eq!(default_clause(&col("INT", None, true)), None);
        assert_eq!(
            default_clause(&col("DATETIME(3)", Some("CURRENT_TIMESTAMP"), false)).as_deref(),
            Some("current_timestamp(3)")
        );
        assert_eq!(
            default_clause(&col("BIT(3)", Some("X'05'"), false)).as_deref(),
            Some("b'101'")
        );
        assert_eq!(
            default_clause(&col("DOUBLE", Some("1e3"), false)).as_deref(),
            Some("1000")
        );
        assert_eq!(
            default_clause(&col("DECIMAL TEXT(10,2)", Some("'1.50'"), false)).as_deref(),
            Some("1.50")
        );
        assert_eq!(
            default_clause(&col("INTEGER", Some("'0'"), true)).as_deref(),
            Some("0")
        );
        assert_eq!(
            default_value(default_clause(&col("CHAR(3)", Some("'it''s'"), false))),
            text("it's")
        );
        assert_eq!(
            default_value(default_clause(&col("CHAR(3)", None, false))),
            Value::Null
        );
    }
}

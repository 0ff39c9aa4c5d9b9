//! Column and index definitions as SQLite text, shared by CREATE TABLE, ALTER TABLE and
//! CREATE INDEX.
//!
//! A column becomes `"name" TYPE [NOT NULL] [DEFAULT d] [COLLATE tutti_general_ci] [CHECK (...)]`:
//!
//! * the type as `types_map` gives it (the caller fixes AUTO_INCREMENT to `INTEGER`);
//! * TIME columns get `COLLATE tutti_time` (durations, not texts, in order);
//! * text-like columns get `COLLATE tutti_general_ci` — MySQL's default collation is
//!   case-, accent- and trailing-space-insensitive — unless their own or the table's
//!   collation is a `*_bin`/`*_cs` one (`tutti_bin`), `CHARACTER SET binary` (none), a
//!   Unicode one (`tutti_unicode_ci`, `tutti_unicode_520_ci`) or a single-byte set's
//!   (`tutti_latin1_swedish_ci`, ..., see [`text_collation`]); other CHARACTER SET/COLLATE
//!   clauses are dropped;
//! * DEFAULT keeps literals; `CURRENT_TIMESTAMP[(n)]`/`NOW()` of a DATETIME or TIMESTAMP
//!   column → `(tutti_current_timestamp(p, fsp, utc))`, of other columns
//!   `CURRENT_TIMESTAMP`; any other expression as `DEFAULT (<expr>)`;
//! * `ON UPDATE CURRENT_TIMESTAMP[(n)]` and `ZEROFILL` are kept as comments (see
//!   `column_marks`); `COMMENT` is dropped;
//! * ENUM adds `CONSTRAINT "col enum" CHECK ("col" IN ('a', 'b'))` (NULL passes unless NOT
//!   NULL), SET `CONSTRAINT "col enum" CHECK (tutti_set_valid("col", 'a', 'b'))`: the
//!   member check, which also keeps the members;
//! * generated columns, `SERIAL DEFAULT VALUE`, SRID and similar are refused.
//!
//! Index key parts keep their order and direction; prefix lengths (`c(10)`) are dropped;
//! functional key parts are refused.

use sqlparser::ast::{
    ColumnDef, ColumnOption, DataType, Expr, Ident, IndexColumn, OrderBySort, UnaryOperator,
    Value as SqlValue,
};
use sqlparser::tokenizer::Token;

use tutti_wsrep::charsets::Collation;

use crate::literals::rewrite_value;
use crate::names::quote_str;
use crate::rewrite::Rewriter;
use crate::string_lengths::Fitted;
use crate::types_map::{map_type, MappedType};
use crate::{Env, SqlError, TableName, Value};

/// A translated column definition.
#[derive(Debug, Clone)]
pub(crate) struct ColumnOut {
    /// Column name.
    pub name: String,
    /// Its type.
    pub mapped: MappedType,
    /// NOT NULL.
    pub not_null: bool,
    /// The DEFAULT clause's value, as SQLite text.
    pub default: Option<String>,
    /// The SQLite collation of a text column ([`GENERAL_CI`], [`BIN_PAD`]); None: bytes.
    pub collation: Option<&'static str>,
    /// AUTO_INCREMENT was given.
    pub autoinc: bool,
    /// The MySQL type of the AUTO_INCREMENT column, whose SQLite type must be exactly
    /// `INTEGER` (see [`AUTOINC_TYPE_MARK`]).
    pub autoinc_type: Option<String>,
    /// Inline PRIMARY KEY.
    pub primary_key: bool,
    /// Inline UNIQUE.
    pub unique: bool,
    /// CHECK constraints (inline, and the ENUM member check), as SQLite text.
    pub checks: Vec<String>,
    /// `ON UPDATE CURRENT_TIMESTAMP(n)`: n (see `on_update`).
    pub on_update: Option<u32>,
    /// `ZEROFILL` (see `column_marks`).
    pub zerofill: bool,
    /// The collation of the single-byte character set a text column is declared in (see
    /// `column_marks`).
    pub single_byte_collation: Option<String>,
    /// MariaDB's notes on the definition (a VARCHAR too long made a TEXT).
    pub notes: Vec<crate::Note>,
}

impl ColumnOut {
    /// The SQLite column definition.
    pub fn sql(&self) -> String {
        let mut s = format!("{} {}", quote_str(&self.name), self.mapped.decl);
        if let Some(t) = &self.autoinc_type {
            s.push_str(&format!(" /*{AUTOINC_TYPE_MARK}{t}*/"));
        }
        if let Some(fsp) = self.on_update {
            s.push(' ');
            s.push_str(&crate::on_update::mark(fsp));
        }
        if self.zerofill {
            s.push(' ');
            s.push_str(&crate::column_marks::zerofill());
        }
        if let Some(c) = &self.single_byte_collation {
            s.push(' ');
            s.push_str(&crate::column_marks::charset(c));
        }
        if self.not_null {
            s.push_str(" NOT NULL");
        }
        if self.autoinc {
            // AUTOINCREMENT keeps the largest id ever used (sqlite_sequence, updated by
            // every insert, replicated ones included): ids are never reused, as in MySQL 8.
            s.push_str(" PRIMARY KEY AUTOINCREMENT");
        }
        if let Some(d) = &self.default {
            s.push_str(" DEFAULT ");
            s.push_str(d);
        }
        if let Some(c) = self.collation {
            s.push_str(" COLLATE ");
            s.push_str(c);
        } else if self.mapped.decimal.is_some() {
            s.push_str(" COLLATE ");
            s.push_str(crate::decimal::COLLATION);
        } else if self.mapped.decl == "TIME" || self.mapped.decl.starts_with("TIME(") {
            s.push_str(" COLLATE ");
            s.push_str(TIME_ORDER);
        }
        for c in &self.checks {
            s.push(' ');
            s.push_str(c);
        }
        s
    }
}

/// The AUTO_INCREMENT column is SQLite's rowid alias, declared exactly `INTEGER`; its MySQL
/// type (`BIGINT UNSIGNED`, `INT`, ...) follows in a comment starting with this mark, which
/// SQLite keeps in `sqlite_schema` (read back by [`autoinc_declared_type`]).
pub const AUTOINC_TYPE_MARK: &str = "tutti:type ";

/// The MySQL type of the AUTO_INCREMENT column recorded in a table's SQLite definition.
pub fn autoinc_declared_type(create_sql: &str) -> Option<&str> {
    let start = create_sql.find(&format!("/*{AUTOINC_TYPE_MARK}"))? + 2 + AUTOINC_TYPE_MARK.len();
    let len = create_sql[start..].find("*/")?;
    Some(&create_sql[start..start + len])
}

/// The SQLite type of a column that is (`single_pk`) or is not the table's only PRIMARY KEY
/// column: the AUTO_INCREMENT column becomes SQLite's `INTEGER` (the rowid, its MySQL type
/// kept in `autoinc_type`); any other single key column must not be declared `INTEGER`,
/// which would make it the rowid.
pub(crate) fn key_column_type(c: &mut ColumnOut, single_pk: bool) -> Result<(), SqlError> {
    if c.autoinc {
        if !(single_pk && c.mapped.integer) {
            return Err(SqlError::Unsupported(
                "AUTO_INCREMENT on a column that is not the single-column integer PRIMARY KEY"
                    .into(),
            ));
        }
        c.autoinc_type = Some(std::mem::replace(&mut c.mapped.decl, "INTEGER".into()));
    } else if single_pk && c.mapped.decl == "INTEGER" {
        c.mapped.decl = "INT".into();
    }
    Ok(())
}

/// The storage function a SET column's member check calls.
pub(crate) const SET_CHECK_FUNCTION: &str = "tutti_set_valid";

/// The name of an ENUM (or SET) column's member check is the column's name and this
/// suffix, so that its failure reads as MySQL's (1265 "Data truncated for column"), not as
/// a CHECK's.
pub const ENUM_CHECK_SUFFIX: &str = " enum";

/// The collation of TIME columns and casts: compared as durations (storage's `time_order`).
pub(crate) const TIME_ORDER: &str = "tutti_time";

/// The SQLite collation of case-insensitive text (MariaDB's default, `utf8mb4_general_ci`:
/// case- and accent-insensitive, trailing spaces ignored), registered by storage.
pub const GENERAL_CI: &str = "tutti_general_ci";

/// The SQLite collation of case-sensitive text that ignores trailing spaces (MariaDB's
/// `_bin` and `_cs` collations, which are PAD SPACE), registered by storage.
pub(crate) const BIN_PAD: &str = "tutti_bin";

/// True for a MySQL collation or charset that compares case-sensitively.
pub(crate) fn is_binary_collation(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "binary" || n.ends_with("_bin") || n.ends_with("_cs")
}

/// The SQLite collation of MariaDB's `utf8mb4_unicode_ci` (UCA 4.0.0), registered by storage.
pub(crate) const UNICODE_CI: &str = "tutti_unicode_ci";

/// The SQLite collation of MariaDB's `utf8mb4_unicode_520_ci` (UCA 5.2.0), registered by
/// storage.
pub(crate) const UNICODE_520_CI: &str = "tutti_unicode_520_ci";

/// The SQLite collation of text in a MySQL collation or charset: [`UNICODE_CI`] and
/// [`UNICODE_520_CI`] for the Unicode ones of the UTF-8 sets (`utf8mb4_unicode_ci`,
/// `utf8mb3_unicode_520_ci`, their NO PAD forms), a single-byte set's own
/// (`tutti_latin1_swedish_ci`, see `tutti_wsrep::charsets::Collation`) for its
/// case-insensitive ones (and the set's default), [`GENERAL_CI`] for the other
/// case-insensitive ones (and a charset's default), [`BIN_PAD`] for `_bin`/`_cs`, None
/// (bytes, trailing spaces included) for the `binary` charset and `_nopad_bin`.
pub(crate) fn text_collation(name: &str) -> Option<&'static str> {
    let n = name.trim_matches(['\'', '"', '`']).to_ascii_lowercase();
    let unicode = n.starts_with("utf8")
        || n.starts_with("ucs2")
        || n.starts_with("utf16")
        || n.starts_with("utf32");
    if n == "binary" || n.ends_with("_nopad_bin") {
        None
    } else if is_binary_collation(&n) {
        Some(BIN_PAD)
    } else if unicode && (n.ends_with("_unicode_520_ci") || n.ends_with("_unicode_520_nopad_ci")) {
        Some(UNICODE_520_CI)
    } else if unicode && (n.ends_with("_unicode_ci") || n.ends_with("_unicode_nopad_ci")) {
        Some(UNICODE_CI)
    } else {
        let named = if n.contains('_') {
            n
        } else {
            crate::derivation::default_collation(&n)
        };
        Some(Collation::named(&named).map_or(GENERAL_CI, Collation::sqlite_name))
    }
}

/// The MariaDB collation of text in SQLite collation `sqlite` (the inverse of
/// [`text_collation`] for UTF-8 text): `utf8mb4_general_ci`, `utf8mb4_unicode_ci`, ...;
/// `utf8mb4_bin` for the others.
pub fn mysql_collation(sqlite: &str) -> &'static str {
    match sqlite.to_ascii_lowercase().as_str() {
        s if s == GENERAL_CI => "utf8mb4_general_ci",
        s if s == UNICODE_CI => "utf8mb4_unicode_ci",
        s if s == UNICODE_520_CI => "utf8mb4_unicode_520_ci",
        s => Collation::registered_as(s).map_or("utf8mb4_bin", Collation::name),
    }
}

/// Whether SQLite collation `name` is one of tutti's case-insensitive text collations.
pub fn is_ci_collation(name: &str) -> bool {
    [GENERAL_CI, UNICODE_CI, UNICODE_520_CI]
        .iter()
        .any(|c| name.eq_ignore_ascii_case(c))
        || Collation::registered_as(name).is_some()
}

/// The collation a `COLLATE`/`CHARACTER SET` pair names (the set's default collation
/// without `COLLATE`), when its set is a single-byte one (latin1, koi8r, ...).
pub(crate) fn single_byte_collation(
    collation: Option<&str>,
    charset: Option<&str>,
) -> Option<String> {
    let collation = match (collation, charset) {
        (Some(c), _) => c.to_ascii_lowercase(),
        (None, Some(cs)) => crate::derivation::default_collation(cs),
        (None, None) => return None,
    };
    let set = collation.split('_').next().unwrap_or_default();
    tutti_wsrep::charsets::SingleByte::named(set).map(|_| collation)
}

/// The most bytes a character takes in the character set of MySQL collation or character
/// set `name` (utf8mb4 for a name tutti does not know).
pub(crate) fn mbmaxlen(name: &str) -> u64 {
    let name = name.to_ascii_lowercase();
    let set = name.split('_').next().unwrap_or_default();
    match set {
        "utf8mb3" | "utf8" => 3,
        "ucs2" => 2,
        "binary" => 1,
        _ if tutti_wsrep::charsets::SingleByte::named(set).is_some() => 1,
        _ => 4,
    }
}

/// Translates one column definition. `default_collation`: the table's default, as
/// [`text_collation`] gives it; `default_charset`: the table's MySQL default collation when
/// it is one of a single-byte set (see [`single_byte_collation`]); `table_mbmaxlen`: the
/// most bytes a character takes in the table's default character set.
pub(crate) fn column(
    env: &dyn Env,
    def: &ColumnDef,
    default_collation: Option<&'static str>,
    default_charset: Option<&str>,
    table_mbmaxlen: u64,
) -> Result<ColumnOut, SqlError> {
    if matches!(def.data_type, DataType::Bit(Some(n)) if n > 64) {
        return Err(SqlError::TooBigDisplayWidth {
            column: def.name.value.clone(),
            max: 64,
        });
    }
    let mapped = map_type(&def.data_type).map_err(|e| e.in_column(&def.name.value))?;
    let mut out = ColumnOut {
        name: def.name.value.clone(),
        collation: default_collation.filter(|_| mapped.text_like),
        mapped,
        not_null: false,
        default: None,
        autoinc: false,
        autoinc_type: None,
        primary_key: false,
        unique: false,
        checks: vec![],
        on_update: None,
        zerofill: false,
        single_byte_collation: None,
        notes: Vec::new(),
    };
    let (mut declared_charset, mut declared_collation) = (None, None);
    for opt in &def.options {
        match &opt.option {
            ColumnOption::Null => out.not_null = false,
            ColumnOption::NotNull => out.not_null = true,
            ColumnOption::Default(e) => {
                out.default = Some(
                    typed_default(&out.name, &out.mapped.decl, env, e)
                        .map_err(|e| e.in_column(&out.name))?,
                )
            }
            ColumnOption::PrimaryKey(_) => out.primary_key = true,
            ColumnOption::Unique(_) => out.unique = true,
            ColumnOption::Check(c) => {
                if c.enforced != Some(false) {
                    out.checks.push(check_sql(
                        env,
                        opt.name.as_ref().or(c.name.as_ref()),
                        &c.expr,
                    )?);
                }
            }
            ColumnOption::DialectSpecific(tokens) => match tokens.as_slice() {
                [Token::Word(w)] if w.value.eq_ignore_ascii_case("AUTO_INCREMENT") => {
                    out.autoinc = true
                }
                [Token::Word(w)] if w.value == crate::dialect::ZEROFILL => out.zerofill = true,
                _ => {
                    let text: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
                    return Err(SqlError::Unsupported(format!(
                        "the column option {}",
                        text.join(" ")
                    )));
                }
            },
            // A character set without COLLATE takes its own default collation, not the
            // table's.
            ColumnOption::CharacterSet(cs) => {
                out.collation = text_collation(&cs.to_string()).filter(|_| out.mapped.text_like);
                declared_charset = Some(cs.to_string());
            }
            ColumnOption::Collation(c) => {
                out.collation = text_collation(&c.to_string()).filter(|_| out.mapped.text_like);
                declared_collation = Some(c.to_string());
            }
            ColumnOption::Comment(_) => {}
            ColumnOption::OnUpdate(x) => {
                out.on_update = Some(crate::on_update::fsp(&out.name, &def.data_type, x)?)
            }
            // MySQL parses and ignores column-level REFERENCES.
            ColumnOption::ForeignKey(_) => {}
            ColumnOption::Generated { .. }
            | ColumnOption::Alias(_)
            | ColumnOption::Materialized(_) => {
                return Err(SqlError::Unsupported("generated columns".into()));
            }
            other => return Err(SqlError::Unsupported(format!("the column option {other}"))),
        }
    }
    crate::charset_names::declared(declared_charset.as_deref(), declared_collation.as_deref())?;
    let mbmaxlen = match declared_collation.as_ref().or(declared_charset.as_ref()) {
        _ if !out.mapped.text_like => 1,
        Some(name) => mbmaxlen(name),
        None => table_mbmaxlen,
    };
    match crate::string_lengths::fit(
        &def.data_type,
        &out.name,
        mbmaxlen,
        crate::stored::strict_mode(env),
    )? {
        Fitted::Kept => {}
        Fitted::Became(decl, note) => {
            out.mapped.decl = decl.to_string();
            out.notes.extend(note);
        }
    }
    if out.mapped.text_like {
        out.single_byte_collation = match (declared_collation, declared_charset) {
            (None, None) => default_charset.map(str::to_string),
            (c, cs) => single_byte_collation(c.as_deref(), cs.as_deref()),
        };
    }
    if let Some(values) = out.mapped.enum_values.take() {
        let set = out.mapped.decl == crate::SET_DECL;
        let rules = MemberRules {
            set,
            strict: crate::stored::strict_mode(env),
            collation: out.collation,
        };
        let values = checked_members(values, &rules, &out.name)?;
        let list: Vec<String> = values
            .iter()
            .map(|v| format!("'{}'", v.replace('\'', "''")))
            .collect();
        let column = quote_str(&out.name);
        let list = list.join(", ");
        let check = if set {
            format!("{SET_CHECK_FUNCTION}({column}, {list})")
        } else {
            // The empty string is the value of an invalid one, stored outside strict mode.
            format!("{column} IN ({list}) OR {column} = ''")
        };
        out.checks.push(format!(
            "CONSTRAINT {} CHECK ({check})",
            quote_str(&format!("{}{ENUM_CHECK_SUFFIX}", out.name)),
        ));
        out.mapped.enum_values = Some(values);
    }
    Ok(out)
}

/// The most members a SET has (one bit each in 64).
const MAX_SET_MEMBERS: usize = 64;

/// What an ENUM's or SET's members must follow.
struct MemberRules {
    /// A SET, not an ENUM.
    set: bool,
    /// Strict mode: a duplicate is an error (a note outside it, which tutti leaves out).
    strict: bool,
    /// The column's collation (None: binary).
    collation: Option<&'static str>,
}

/// An ENUM's or SET's members as MariaDB keeps them: trailing spaces cut (but for binary
/// strings), each distinct under the column's collation (1291 in strict mode), a SET's
/// without commas (1367) and at most 64 distinct ones (1097).
fn checked_members(
    values: Vec<String>,
    rules: &MemberRules,
    column: &str,
) -> Result<Vec<String>, SqlError> {
    let set = rules.set;
    let kind = if set { "SET" } else { "ENUM" };
    let members: Vec<String> = match rules.collation {
        Some(_) => values
            .into_iter()
            .map(|v| v.trim_end_matches(' ').to_string())
            .collect(),
        None => values,
    };
    let key = |m: &str| {
        if rules.collation.is_some_and(is_ci_collation) {
            m.to_lowercase()
        } else {
            m.to_string()
        }
    };
    for (i, m) in members.iter().enumerate() {
        let duplicate = members[..i].iter().find(|e| key(e) == key(m));
        if let (Some(earlier), true) = (duplicate, rules.strict) {
            return Err(SqlError::DuplicatedMember {
                column: column.to_string(),
                member: earlier.clone(),
                kind,
            });
        }
        if set && m.contains(',') {
            return Err(SqlError::IllegalSetMember(m.clone()));
        }
    }
    let mut distinct: Vec<String> = members.iter().map(|m| key(m)).collect();
    distinct.sort();
    distinct.dedup();
    if set && distinct.len() > MAX_SET_MEMBERS {
        return Err(SqlError::TooManySetMembers(column.to_string()));
    }
    Ok(members)
}

/// The SQLite function of a DATETIME or TIMESTAMP column's `DEFAULT CURRENT_TIMESTAMP(p)`
/// (storage's `timestamps`): SQLite's own `CURRENT_TIMESTAMP` has no fraction digits and
/// no session clock, and a TIMESTAMP's is stored in UTC.
const CURRENT_TIMESTAMP_DEFAULT: &str = "tutti_current_timestamp";

/// `CURRENT_TIMESTAMP[(p)]`, `NOW([p])` or a synonym: `Some(p)` (None when not given).
fn current_timestamp_call(e: &Expr) -> Option<Option<u32>> {
    let Expr::Function(f) = e else { return None };
    let name = f.name.to_string().to_ascii_uppercase();
    if !matches!(
        name.as_str(),
        "CURRENT_TIMESTAMP" | "NOW" | "LOCALTIME" | "LOCALTIMESTAMP"
    ) {
        return None;
    }
    match crate::typing::args(f).as_slice() {
        [] => Some(None),
        [Expr::Value(v)] => match &v.value {
            SqlValue::Number(n, _) => n.parse().ok().map(Some),
            _ => None,
        },
        _ => None,
    }
}

/// A DATETIME or TIMESTAMP column's `DEFAULT CURRENT_TIMESTAMP[(p)]` as SQLite text: the
/// precision is the column's when not given and at most the column's (as MariaDB keeps it).
fn current_timestamp_default(decl: &str, e: &Expr) -> Option<String> {
    let precision = current_timestamp_call(e)?;
    let (kind, fsp) = crate::stored::temporal_of(decl)?;
    let utc = match kind {
        "timestamp" => 1,
        "datetime" => 0,
        _ => return None,
    };
    let p = precision.unwrap_or(fsp).min(fsp);
    Some(format!("({CURRENT_TIMESTAMP_DEFAULT}({p}, {fsp}, {utc}))"))
}

/// The precision of a DEFAULT's SQLite text if it is `CURRENT_TIMESTAMP(p)` (see
/// [`current_timestamp_default`]); `CURRENT_TIMESTAMP` of tables written before is the
/// column's `fsp`.
pub fn current_timestamp_precision(default: &str, fsp: u32) -> Option<u32> {
    if default.eq_ignore_ascii_case("CURRENT_TIMESTAMP") {
        return Some(fsp);
    }
    let args = default
        .trim_start_matches('(')
        .strip_prefix(CURRENT_TIMESTAMP_DEFAULT)?
        .trim_start_matches('(');
    args.split(',').next()?.trim().parse().ok()
}

/// A DEFAULT's `CURRENT_TIMESTAMP(p)` (see [`current_timestamp_default`]) as the value a
/// statement gives (`VALUES (DEFAULT)`, `DEFAULT(c)`): `NOW(p)`, the session's time, which
/// a write to a TIMESTAMP column stores in UTC. None for other DEFAULTs.
pub(crate) fn current_timestamp_value(default: &str) -> Option<Expr> {
    if default.eq_ignore_ascii_case("CURRENT_TIMESTAMP") {
        return None; // SQLite's own: parsed as MySQL's, `NOW()`
    }
    let p = current_timestamp_precision(default, 0)?;
    Some(crate::ast_build::func(
        "NOW",
        vec![crate::ast_build::number(p.to_string())],
    ))
}

/// The value a DEFAULT `CURRENT_TIMESTAMP(p)` gives the rows a new column is added to:
/// the statement's time, fixed when it is translated (every node applies the same value).
pub(crate) fn current_timestamp_fill(default: &str, env: &dyn Env) -> Option<Expr> {
    let Expr::Function(mut f) = current_timestamp_call_text(default)? else {
        return None;
    };
    if let sqlparser::ast::FunctionArguments::List(l) = &mut f.args {
        let clock = crate::timestamps::session_clock_micros(env);
        let offset = crate::timestamps::zone_offset(env);
        for n in [clock, offset] {
            let n = crate::ast_build::number(n.to_string());
            l.args.push(sqlparser::ast::FunctionArg::Unnamed(n.into()));
        }
    }
    Some(Expr::Function(f))
}

/// A DEFAULT's SQLite text `tutti_current_timestamp(p, fsp, utc)` parsed.
fn current_timestamp_call_text(default: &str) -> Option<Expr> {
    let text = default.trim_start_matches('(').trim_end_matches(')');
    if !text.starts_with(CURRENT_TIMESTAMP_DEFAULT) {
        return None;
    }
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let mut parser = sqlparser::parser::Parser::new(&dialect)
        .try_with_sql(&format!("{text})"))
        .ok()?;
    parser.parse_expr().ok()
}

/// A DEFAULT value as SQLite text, for a column of SQLite declared type `decl`.
pub(crate) fn typed_default(
    column: &str,
    decl: &str,
    env: &dyn Env,
    e: &Expr,
) -> Result<String, SqlError> {
    // `DEFAULT (1.5)` is `DEFAULT 1.5`
    let mut inner = e;
    while let Expr::Nested(x) = inner {
        inner = x;
    }
    let literal = |x: &Expr| match x {
        Expr::Value(_) => true,
        Expr::UnaryOp { expr, .. } => matches!(expr.as_ref(), Expr::Value(_)),
        _ => false,
    };
    let e = if literal(inner) { inner } else { e };
    if let Some(now) = current_timestamp_default(decl, e) {
        return Ok(now);
    }
    if let Some(stored) = temporal_default(decl, env, e) {
        return stored;
    }
    if let Some(x) = expression(e) {
        return expression_default(column, decl, env, x);
    }
    if let Some(rounded) = rounded_integer_default(decl, e) {
        return Ok(rounded);
    }
    match crate::decimal::DecimalType::of_decl(decl) {
        Some(ty) => decimal_default(ty, env, e),
        None if decl.starts_with("BIT(") => bit_default(env, e),
        None if crate::big_unsigned::decl(decl) => match crate::big_unsigned::default(e) {
            Some(stored) => stored,
            None => default_sql(env, e),
        },
        None if crate::timestamps::decl(decl) => {
            let sql = default_sql(env, e)?;
            let offset = crate::timestamps::zone_offset(env);
            Ok(crate::timestamps::literal_in_utc(&sql, offset).unwrap_or(sql))
        }
        None => default_sql(env, e),
    }
}

/// A DATE/DATETIME/TIMESTAMP/TIME column's literal DEFAULT as the column stores it (`0` is
/// `'0000-00-00'`, `'2001-1-1'` of a DATETIME `'2001-01-01 00:00:00'`, a TIMESTAMP's in the
/// session's zone); one the column cannot hold is 1067, as in MariaDB in every `sql_mode`.
/// None for other columns and defaults, or where the environment cannot convert.
fn temporal_default(decl: &str, env: &dyn Env, e: &Expr) -> Option<Result<String, SqlError>> {
    let (kind, fsp) = crate::stored::temporal_of(decl)?;
    let value = match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => number_value(n)?,
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => {
                Value::Text(s.clone())
            }
            _ => return None,
        },
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => match expr.as_ref() {
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) => number_value(&format!("-{n}"))?,
                _ => return None,
            },
            _ => return None,
        },
        _ => return None,
    };
    let timestamp = kind == "timestamp";
    let read_as = if timestamp { "datetime" } else { kind };
    let Some(text) = env.temporal_default(&value, read_as, fsp)? else {
        return Some(Err(SqlError::InvalidDefault(String::new())));
    };
    let stored = format!("'{text}'");
    if !timestamp {
        return Some(Ok(stored));
    }
    let utc = crate::timestamps::literal_in_utc(&stored, crate::timestamps::zone_offset(env))
        .unwrap_or(stored);
    Some(match crate::timestamps::fits(&utc) {
        true => Ok(utc),
        false => Err(SqlError::InvalidDefault(String::new())),
    })
}

/// A numeric literal as the value SQLite would bind: an integer, else a double.
fn number_value(n: &str) -> Option<Value> {
    match n.parse::<i64>() {
        Ok(i) => Some(Value::Int(i)),
        Err(_) => n.parse::<f64>().ok().map(Value::Real),
    }
}

/// A DEFAULT value as SQLite text.
pub(crate) fn default_sql(env: &dyn Env, e: &Expr) -> Result<String, SqlError> {
    match e {
        Expr::Value(v) => Ok(match rewrite_value(&v.value) {
            Some(r) => r.to_string(),
            None => v.to_string(),
        }),
        Expr::UnaryOp { expr, .. } if matches!(expr.as_ref(), Expr::Value(v) if matches!(v.value, SqlValue::Number(..))) => {
            Ok(e.to_string())
        }
        Expr::Function(f) => {
            let name = f.name.to_string().to_ascii_uppercase();
            match name.as_str() {
                "CURRENT_TIMESTAMP" | "NOW" | "LOCALTIME" | "LOCALTIMESTAMP" => {
                    Ok("CURRENT_TIMESTAMP".into())
                }
                "CURRENT_DATE" | "CURDATE" => Ok("CURRENT_DATE".into()),
                "CURRENT_TIME" | "CURTIME" => Ok("CURRENT_TIME".into()),
                _ => rewritten_default(env, e),
            }
        }
        Expr::Nested(inner) => rewritten_default(env, inner),
        _ => rewritten_default(env, e),
    }
}

/// A DECIMAL column's DEFAULT: a numeric literal as the column stores it (`'-1.50'`).
fn decimal_default(
    ty: crate::decimal::DecimalType,
    env: &dyn Env,
    e: &Expr,
) -> Result<String, SqlError> {
    let literal = match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => Some(n.clone()),
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => Some(s.clone()),
            _ => None,
        },
        Expr::UnaryOp { op, expr } => match expr.as_ref() {
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) => Some(format!("{op}{n}")),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    match literal {
        Some(text) => match ty.literal(text.trim()) {
            Some(canonical) => Ok(format!("'{canonical}'")),
            None => Err(SqlError::InvalidDefault(String::new())),
        },
        None => default_sql(env, e),
    }
}

/// A BIT column's DEFAULT: a constant as the number the column stores (`b'101'` is 5).
fn bit_default(env: &dyn Env, e: &Expr) -> Result<String, SqlError> {
    if let Expr::Value(v) = e {
        if let SqlValue::SingleQuotedByteStringLiteral(b) = &v.value {
            let digits = if b.is_empty() { "0" } else { b.as_str() };
            return match u64::from_str_radix(digits, 2)
                .ok()
                .and_then(|v| i64::try_from(v).ok())
            {
                Some(v) => Ok(v.to_string()),
                None => Err(SqlError::InvalidDefault(String::new())),
            };
        }
    }
    let bits = match crate::literals::const_value(e) {
        Some(Value::Null) => return Ok("NULL".into()),
        Some(Value::Int(i)) if i >= 0 => Some(i),
        Some(Value::Blob(b)) if b.len() <= 8 => {
            i64::try_from(b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x))).ok()
        }
        Some(_) => return Err(SqlError::InvalidDefault(String::new())),
        None => None,
    };
    match bits {
        Some(v) => Ok(v.to_string()),
        None => default_sql(env, e),
    }
}

/// An integer column's DEFAULT that is a number with a fraction, rounded as MariaDB rounds
/// it (half away from zero: `1.5` is 2, `-2.5` is -3); None for other defaults.
fn rounded_integer_default(decl: &str, e: &Expr) -> Option<String> {
    let base = decl.split(['(', ' ']).next()?.to_ascii_uppercase();
    let integer = [
        "TINYINT",
        "SMALLINT",
        "MEDIUMINT",
        "INT",
        "INTEGER",
        "BIGINT",
    ];
    if !integer.contains(&base.as_str()) {
        return None;
    }
    let (negative, text) = match e {
        Expr::Value(v) => (false, &v.value),
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => match expr.as_ref() {
            Expr::Value(v) => (true, &v.value),
            _ => return None,
        },
        _ => return None,
    };
    let SqlValue::Number(n, _) = text else {
        return None;
    };
    let value: i128 = if n.contains(['e', 'E']) {
        let f = n.parse::<f64>().ok()?.round();
        if f.abs() >= 1e18 {
            return None;
        }
        f as i128
    } else {
        let (whole, fraction) = n.split_once('.')?;
        let whole: i128 = if whole.is_empty() {
            0
        } else {
            whole.parse().ok()?
        };
        whole + i128::from(fraction.as_bytes().first().is_some_and(|d| *d >= b'5'))
    };
    Some(if negative && value != 0 {
        format!("-{value}")
    } else {
        value.to_string()
    })
}

/// A DEFAULT expression in SQLite's terms, in parentheses.
fn rewritten_default(env: &dyn Env, e: &Expr) -> Result<String, SqlError> {
    let mut e = e.clone();
    Rewriter::new(env).expr(&mut e)?;
    Ok(format!("({e})"))
}

/// The expression of a DEFAULT that is one (not a literal, not the current date or time).
fn expression(e: &Expr) -> Option<&Expr> {
    let now = |f: &sqlparser::ast::Function| {
        let name = f.name.to_string().to_ascii_uppercase();
        ["CURRENT_TIMESTAMP", "NOW", "LOCALTIME", "LOCALTIMESTAMP"].contains(&name.as_str())
    };
    match e {
        Expr::Nested(inner) => Some(inner),
        Expr::Value(_) => None,
        Expr::UnaryOp { expr, .. } if matches!(expr.as_ref(), Expr::Value(_)) => None,
        Expr::Function(f) if now(f) => None,
        e => Some(e),
    }
}

/// An expression DEFAULT: its value as column `column` (declared `decl`) stores it (a
/// DECIMAL's scale, an integer's rounding, a string's length), and its MySQL text as
/// MariaDB prints it in a mark (see `column_marks::shown_default`).
fn expression_default(
    column: &str,
    decl: &str,
    env: &dyn Env,
    e: &Expr,
) -> Result<String, SqlError> {
    let mut rewritten = e.clone();
    Rewriter::new(env).expr(&mut rewritten)?;
    let table = crate::rebuild::column_table(&crate::TableName::new("", ""), column, decl);
    let stored =
        crate::stored::assigned(&table, column, rewritten, crate::stored::strict_mode(env));
    let printed = crate::view_text::expression(env, e)?;
    let shown = match e {
        Expr::Function(_) => printed,
        _ => format!("({printed})"),
    };
    Ok(format!(
        "({stored}) {}",
        crate::column_marks::shown_default(&shown)
    ))
}

/// `[CONSTRAINT "name"] CHECK (<expr>)`.
pub(crate) fn check_sql(env: &dyn Env, name: Option<&Ident>, e: &Expr) -> Result<String, SqlError> {
    let mut e = e.clone();
    Rewriter::new(env).expr(&mut e)?;
    let e = match e {
        Expr::Nested(inner) => *inner,
        e => e,
    };
    Ok(match name {
        Some(n) => format!("CONSTRAINT {} CHECK ({e})", quote_str(&n.value)),
        None => format!("CHECK ({e})"),
    })
}

/// One index key part: column name and descending flag.
pub(crate) type KeyPart = (String, bool);

/// The key parts of an index definition.
pub(crate) fn key_parts(cols: &[IndexColumn]) -> Result<Vec<KeyPart>, SqlError> {
    cols.iter()
        .map(|c| {
            let desc = matches!(c.column.options.sort, Some(OrderBySort::Desc));
            let name = match &c.column.expr {
                Expr::Identifier(i) => i.value.clone(),
                // A prefix length `c(10)` parses as a call.
                Expr::Function(f) if f.name.0.len() == 1 => {
                    f.name.to_string().trim_matches('`').to_string()
                }
                other => {
                    return Err(SqlError::Unsupported(format!(
                        "the functional key part {other}"
                    )))
                }
            };
            Ok((name, desc))
        })
        .collect()
}

/// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "db.t.name" ON "db.t" ("a", "b" DESC)`.
pub(crate) fn index_sql(
    table: &TableName,
    name: &str,
    unique: bool,
    parts: &[KeyPart],
    if_not_exists: bool,
) -> String {
    let cols: Vec<String> = parts
        .iter()
        .map(|(c, desc)| {
            if *desc {
                format!("{} DESC", quote_str(c))
            } else {
                quote_str(c)
            }
        })
        .collect();
    format!(
        "CREATE {}INDEX {}{} ON {} ({})",
        if unique { "UNIQUE " } else { "" },
        if if_not_exists { "IF NOT EXISTS " } else { "" },
        quote_str(&crate::names::index_sqlite_name(table, name)),
        quote_str(&table.sqlite_name()),
        cols.join(", ")
    )
}

/// MySQL's name for an unnamed index: its first column, then `_2`, `_3`, ... on clashes.
pub(crate) fn default_index_name(first_column: &str, taken: &[String]) -> String {
    let clash = |n: &str| taken.iter().any(|t| t.eq_ignore_ascii_case(n));
    if !clash(first_column) && !first_column.eq_ignore_ascii_case("PRIMARY") {
        return first_column.to_string();
    }
    (2..)
        .map(|i| format!("{first_column}_{i}"))
        .find(|n| !clash(n))
        .unwrap_or_default()
}

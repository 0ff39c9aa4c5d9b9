//! Values as their columns store them, in MariaDB's strict mode: every value an INSERT,
//! REPLACE, UPDATE or upsert writes goes through its column's store function (registered by
//! storage), which gives the value MariaDB stores or MariaDB's error:
//!
//! * DECIMAL: `tutti_dec_store(v, p, s, 'column', row)` (see `decimal`; `tutti_udec_store`
//!   for DECIMAL UNSIGNED, which refuses negative values); integers:
//!   `tutti_int_store(v, min, max, 'column', row)` — rounded as MariaDB rounds, refused
//!   (1264, 1265, 1366) when it does not fit or is no number. The AUTO_INCREMENT column is
//!   left to `autoinc`. BIGINT UNSIGNED holds 0..2^64-1, see `big_unsigned` (its `max` is
//!   passed as −1).
//! * FLOAT/DOUBLE: `tutti_real_store(v, m, d, flags, 'column', row)` — the number as the
//!   type holds it (see `real`: FLOAT(M,D)'s rounding and range, a FLOAT's single precision,
//!   UNSIGNED), 1264 out of range, 1265/1366 for a string that is not a number.
//! * CHAR/VARCHAR/TEXT/BINARY/VARBINARY/BLOB: `tutti_str_store(v, max, flags, 'column', row)`
//!   — longer than the column is 1406; a CHAR loses its trailing spaces; a BINARY(n) is
//!   padded with zero bytes to n; a column of a single-byte set refuses characters the set
//!   lacks (1366).
//! * BIT(n): `tutti_bit_store(v, n, 'column', row)` — the number (a string by its bytes),
//!   1406 when it has more than n bits.
//! * DATE/DATETIME/TIMESTAMP/TIME/YEAR: `tutti_temporal_store(v, kind, fsp, 'column', row)`
//!   — MySQL's spellings become the canonical text (`20000101` → `2000-01-01`), impossible
//!   values are 1292.
//!
//! * `VALUES` rows: each value is wrapped in place (with its row number for the message).
//! * `INSERT ... SELECT`: the SELECT's items are wrapped in place; a source whose items do
//!   not match the columns one to one (`*`, UNION, ...) becomes a CTE whose columns are,
//!   `WITH "tutti_src"("c1", ..) AS (query) SELECT f("c1") AS "c1", .. FROM "tutti_src"`.
//! * `SET col = v` (UPDATE, ON DUPLICATE KEY UPDATE): the value is wrapped.

use crate::big_unsigned;
use crate::modes::SqlMode;
use sqlparser::ast::{
    Expr, Ident, Insert, Query, SelectItem, SetExpr, UnaryOperator, Value as SqlValue,
};
use tutti_wsrep::charsets::SingleByte;

use crate::ast_build::{func, number, query, select, string};
use crate::decimal::DecimalType;
use crate::names::quoted;
use crate::real::RealType;
use crate::TableInfo;

/// How a column stores values.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Storage {
    /// DECIMAL(p, s), and whether UNSIGNED.
    Decimal(DecimalType, bool),
    /// An integer type: its range.
    Integer(i64, i64),
    /// FLOAT, DOUBLE, REAL.
    Real(RealType),
    /// A string type: its length limit and `tutti_str_store` flags.
    Text(u64, i64),
    /// A temporal type: its `tutti_temporal_store` kind and fraction digits.
    Temporal(&'static str, u32),
    /// BIT(n): its width.
    Bit(u64),
    /// ENUM: its members.
    Enum(Members),
    /// SET: its members.
    Set(Members),
}

/// An ENUM's or SET's members, as its store function gets them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Members {
    /// One argument each.
    Listed(Vec<String>),
    /// One argument for all: `(SELECT m FROM cte)`, a CTE of the statement holding them
    /// packed (see [`shared_members`]).
    Shared(Box<Expr>),
}

impl Members {
    fn args(&self) -> Vec<Expr> {
        match self {
            Members::Listed(m) => m.iter().map(string).collect(),
            Members::Shared(read) => vec![(**read).clone()],
        }
    }
}

/// The column of a CTE of shared members.
const MEMBER: &str = "m";
/// A multi-row VALUES whose rows would list more members than this in all reads them from
/// a CTE instead, listed once: `INSERT … VALUES` of thousands of rows into an ENUM of
/// thousands of members would otherwise make a statement of millions of expressions.
const MOST_LISTED: usize = 512;

/// `tutti_str_store` flag: the limit counts bytes.
const BYTES: i64 = 1;
/// `tutti_str_store` flag: a CHAR (trailing spaces dropped).
const CHAR: i64 = 2;
/// `tutti_str_store` flag: a BINARY(n) (padded with zero bytes to n).
const PAD: i64 = 4;
/// `tutti_str_store` flag: a text column (a binary string that is UTF-8 becomes text).
const TEXT: i64 = 8;
/// `tutti_str_store` flag: a column of a single-byte character set, whose code
/// (`SingleByte::code`) follows from bit [`SET_SHIFT`] on (a character the set lacks is
/// refused, as MariaDB cannot convert it).
const SINGLE_BYTE: i64 = 16;
const SET_SHIFT: u32 = 8;

/// The string or temporal storage of a declared type (`VARCHAR(10)`, `DATETIME(3)`, ...).
fn text_or_temporal(decl: &str) -> Option<Storage> {
    let d = decl.to_ascii_uppercase();
    let base = d.split(['(', ' ']).next()?;
    let length = || -> Option<u64> {
        let inner = d.split_once('(')?.1.split_once(')')?.0;
        inner.trim().parse().ok()
    };
    let text = |max: Option<u64>, flags| max.map(|m| Storage::Text(m, flags));
    match base {
        "CHAR" | "CHARACTER" => text(length().or(Some(1)), CHAR | TEXT),
        "VARCHAR" | "NVARCHAR" => text(length(), TEXT),
        "BINARY" => text(length().or(Some(1)), BYTES | PAD),
        "VARBINARY" => text(length(), BYTES),
        "TINYTEXT" => text(Some(255), BYTES | TEXT),
        "TINYBLOB" => text(Some(255), BYTES),
        "TEXT" => text(Some(65_535), BYTES | TEXT),
        "BLOB" => text(Some(65_535), BYTES),
        "MEDIUMTEXT" => text(Some(16_777_215), BYTES | TEXT),
        "MEDIUMBLOB" => text(Some(16_777_215), BYTES),
        "DATE" => Some(Storage::Temporal("date", 0)),
        "DATETIME" => Some(Storage::Temporal("datetime", length().unwrap_or(0) as u32)),
        "TIMESTAMP" => Some(Storage::Temporal("timestamp", length().unwrap_or(0) as u32)),
        "TIME" => Some(Storage::Temporal("time", length().unwrap_or(0) as u32)),
        "YEAR" => Some(Storage::Temporal("year", 0)),
        "FLOAT" | "DOUBLE" | "REAL" => RealType::of_decl(&d).map(Storage::Real),
        "BIT" => Some(Storage::Bit(length().unwrap_or(1))),
        _ => None,
    }
}

/// The range of an integer declared type (`INT`, `SMALLINT UNSIGNED`, `TINYINT(1)`, ...).
fn integer_range(decl: &str) -> Option<(i64, i64)> {
    let d = decl.to_ascii_uppercase();
    let unsigned = d.contains(" UNSIGNED");
    let base = d.split(['(', ' ']).next()?;
    let bits = match base {
        "TINYINT" => 8,
        "SMALLINT" => 16,
        "MEDIUMINT" => 24,
        "INT" | "INTEGER" => 32,
        "BIGINT" => 64,
        _ => return None,
    };
    Some(match (bits, unsigned) {
        (64, false) => (i64::MIN, i64::MAX),
        (64, true) => (0, crate::big_unsigned::STORE_MAX),
        (b, false) => (-(1i64 << (b - 1)), (1i64 << (b - 1)) - 1),
        (b, true) => (0, (1i64 << b) - 1),
    })
}

/// The `tutti_temporal_store` kind and fraction digits of a temporal declared type.
pub(crate) fn temporal_of(decl: &str) -> Option<(&'static str, u32)> {
    match text_or_temporal(decl)? {
        Storage::Temporal(kind, fsp) if kind != "year" => Some((kind, fsp)),
        _ => None,
    }
}

/// How a table's column stores values, if it is a column tutti checks.
fn storage_of(table: &TableInfo, column: &str) -> Option<Storage> {
    let c = table
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(column))?;
    if table.autoinc.as_deref() == Some(c.name.as_str()) {
        return None;
    }
    if let Some(ty) = DecimalType::of_decl(&c.decl_type) {
        let unsigned = crate::decimal::unsigned_decl(&c.decl_type);
        return Some(Storage::Decimal(ty, unsigned));
    }
    if c.decl_type.to_ascii_uppercase().starts_with("ENUM") {
        return table
            .enum_members(&c.name)
            .map(|m| Storage::Enum(Members::Listed(m)));
    }
    if c.decl_type == crate::SET_DECL {
        return table
            .enum_members(&c.name)
            .map(|m| Storage::Set(Members::Listed(m)));
    }
    integer_range(&c.decl_type)
        .map(|(min, max)| Storage::Integer(min, max))
        .or_else(|| text_or_temporal(&c.decl_type).map(|s| in_charset(s, table, &c.name)))
}

/// The single-byte character set of `tutti_str_store` flags, if any.
fn single_byte_set(flags: i64) -> Option<SingleByte> {
    (flags & SINGLE_BYTE != 0).then(|| SingleByte::from_code((flags >> SET_SHIFT) as u8))?
}

/// A text column's storage with the single-byte character set it is declared in, if any.
fn in_charset(s: Storage, table: &TableInfo, column: &str) -> Storage {
    let Storage::Text(max, flags) = s else {
        return s;
    };
    let set = (flags & TEXT != 0)
        .then(|| crate::column_marks::declared_collation(&table.create_sql, column))
        .flatten()
        .and_then(|c| SingleByte::named(c.split('_').next()?));
    match set {
        Some(set) => Storage::Text(
            max,
            flags | SINGLE_BYTE | i64::from(set.code()) << SET_SHIFT,
        ),
        None => s,
    }
}

/// MariaDB's implicit default of a NOT NULL column declared without DEFAULT, which an
/// INSERT that omits the column stores outside strict mode: 0 for a number or BIT, the zero
/// of a temporal type, `''` for other strings, each through `tutti_implicit_default`, which
/// warns 1364 once per statement; an ENUM's first member, without a warning.
pub(crate) fn implicit_default(table: &TableInfo, column: &str) -> Expr {
    let value = match storage_of(table, column) {
        Some(Storage::Enum(Members::Listed(m))) if !m.is_empty() => return string(&m[0]),
        Some(
            Storage::Decimal(..)
            | Storage::Integer(..)
            | Storage::Real(_)
            | Storage::Bit(_)
            | Storage::Temporal("year", _),
        ) => number("0"),
        Some(Storage::Temporal("date", _)) => string("0000-00-00"),
        Some(Storage::Temporal("time", _)) => string("00:00:00"),
        Some(Storage::Temporal(..)) => string("0000-00-00 00:00:00"),
        _ => string(""),
    };
    func("tutti_implicit_default", vec![value, string(column)])
}

/// True when `value` is known to fit as it is: NULL, an integer literal in range, a short
/// string for a string column, or the row an upsert proposed for this very column
/// (`excluded."c"`, already stored once).
fn fits(kind: &Storage, value: &Expr, column: &str) -> bool {
    let literal = |e: &Expr, negate: bool| match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Null => true,
            SqlValue::SingleQuotedString(t) => match *kind {
                Storage::Text(max, flags) => {
                    let n = if flags & BYTES != 0 {
                        t.len()
                    } else {
                        t.chars().count()
                    };
                    n as u64 <= max
                        && !(flags & CHAR != 0 && t.ends_with(' '))
                        && !(flags & PAD != 0 && (n as u64) < max)
                        && single_byte_set(flags)
                            .is_none_or(|set| t.chars().all(|c| set.contains(c)))
                }
                _ => false,
            },
            // A column's DEFAULT, printed verbatim: valid since CREATE TABLE.
            SqlValue::Number(n, _) if n.starts_with('\'') => true,
            SqlValue::Number(n, _) => match (kind.clone(), n.parse::<i64>()) {
                (Storage::Integer(min, max), Ok(i)) => {
                    let max = if max == big_unsigned::STORE_MAX {
                        i64::MAX
                    } else {
                        max
                    };
                    let i = if negate { i.checked_neg() } else { Some(i) };
                    i.is_some_and(|i| (min..=max).contains(&i))
                }
                _ => false,
            },
            _ => false,
        },
        _ => false,
    };
    match value {
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => literal(expr, true),
        // A BIGINT UNSIGNED's is read as its value (see `big_unsigned`) and stored again,
        // a TIMESTAMP's may be read in the session's zone (see `timestamps`).
        Expr::CompoundIdentifier(ids) => {
            ids.len() == 2
                && ids[0].value == "excluded"
                && ids[1].value.eq_ignore_ascii_case(column)
                && !matches!(
                    kind,
                    Storage::Integer(_, big_unsigned::STORE_MAX)
                        | Storage::Temporal("timestamp", _)
                )
        }
        e => literal(e, false),
    }
}

/// Whether the session's `sql_mode` is strict (`STRICT_TRANS_TABLES`, `STRICT_ALL_TABLES`,
/// or `TRADITIONAL`, which includes them): then a value that does not fit its column is an
/// error; otherwise it is adjusted (clamped, cut, zeroed), as MariaDB does.
pub(crate) fn strict_mode(env: &dyn crate::Env) -> bool {
    let mode = SqlMode::of(env);
    !mode.is_known() || mode.has("STRICT_TRANS_TABLES") || mode.has("STRICT_ALL_TABLES")
}

/// Which zero dates the session's `sql_mode` forbids: [`NO_ZERO_IN_DATE`] (a zero month or
/// day) and [`NO_ZERO_DATE`] (`0000-00-00`); TRADITIONAL sets both.
pub(crate) fn zero_date_flags(env: &dyn crate::Env) -> u32 {
    let mode = SqlMode::of(env);
    let mut flags = 0;
    if mode.has("NO_ZERO_IN_DATE") {
        flags |= NO_ZERO_IN_DATE;
    }
    if mode.has("NO_ZERO_DATE") {
        flags |= NO_ZERO_DATE;
    }
    flags
}

/// Flag of [`zero_date_flags`]: no zero month or day.
pub(crate) const NO_ZERO_IN_DATE: u32 = 1;
/// Flag of [`zero_date_flags`]: no `0000-00-00`.
pub(crate) const NO_ZERO_DATE: u32 = 2;

/// `value` wrapped in the column's store function (unless it is known to fit); outside
/// `strict` mode with the trailing `0` that makes the function adjust instead of refuse.
fn store(kind: Storage, value: Expr, qualified: &str, row: usize, strict: bool) -> Expr {
    let mode = if strict { None } else { Some("0") };
    store_as(kind, value, qualified, row, mode)
}

/// `CAST(x AS DOUBLE(M,D))`: the double rounded to D decimals and kept within M digits, as a
/// DOUBLE(M,D) column stores it outside strict mode (warning 1264 when clamped).
pub(crate) fn double_cast(value: Expr, m: u32, d: u32) -> Expr {
    let ty = crate::real::RealType {
        single: false,
        shape: Some((m, d)),
        unsigned: false,
    };
    let value = crate::ast_build::cast(value, sqlparser::ast::DataType::Real);
    store(Storage::Real(ty), value, "cast", 1, false)
}

/// A hex or bit literal of more than eight bytes.
fn long_hex(e: &Expr) -> bool {
    matches!(e, Expr::Value(v) if match &v.value {
        SqlValue::HexStringLiteral(h) => h.len() > 16,
        SqlValue::SingleQuotedByteStringLiteral(b) => b.len() > 64,
        _ => false,
    })
}

/// [`store`] with the store function's mode argument (none: strict).
fn store_as(
    kind: Storage,
    mut value: Expr,
    qualified: &str,
    row: usize,
    mode: Option<&str>,
) -> Expr {
    if matches!(
        kind,
        Storage::Integer(..) | Storage::Decimal(..) | Storage::Real(_)
    ) {
        // `0x41` and `b'101'` are numbers to a numeric column; one of more than eight
        // bytes is out of an integer column's range, however many of them are zeros (MariaDB's
        // `Item_hex_constant::save_in_field`).
        if matches!(kind, Storage::Integer(..)) && long_hex(&value) {
            value = number("18446744073709551616");
        }
        crate::typing::numeric(&mut value);
    }
    let column = qualified
        .rsplit('.')
        .next()
        .unwrap_or(qualified)
        .trim_matches('`');
    if fits(&kind, &value, column) {
        return value;
    }
    let (name, value, type_args) = match kind {
        Storage::Decimal(ty, unsigned) => (
            if unsigned {
                "tutti_udec_store"
            } else {
                "tutti_dec_store"
            },
            crate::typing::operand(value),
            vec![
                number(ty.precision.to_string()),
                number(ty.scale.to_string()),
            ],
        ),
        Storage::Integer(min, max) => (
            "tutti_int_store",
            crate::typing::operand(value),
            vec![number(min.to_string()), number(max.to_string())],
        ),
        Storage::Real(ty) => {
            let (m, d) = ty.shape.unwrap_or((0, 0));
            let flags = u8::from(ty.single) | u8::from(ty.unsigned) << 1;
            (
                "tutti_real_store",
                crate::typing::operand(value),
                vec![
                    number(m.to_string()),
                    number(d.to_string()),
                    number(flags.to_string()),
                ],
            )
        }
        Storage::Text(max, flags) => (
            "tutti_str_store",
            literal_spelling(&value).map_or(value, string),
            vec![number(max.to_string()), number(flags.to_string())],
        ),
        Storage::Temporal(kind, fsp) => (
            "tutti_temporal_store",
            crate::typing::operand(value),
            vec![string(kind), number(fsp.to_string())],
        ),
        Storage::Bit(width) => (BIT_STORE, value, vec![number(width.to_string())]),
        Storage::Enum(members) => ("tutti_enum_store", value, members.args()),
        Storage::Set(members) => ("tutti_set_store", value, members.args()),
    };
    let mut args = vec![value];
    args.extend(type_args);
    args.extend([string(qualified), number(row.to_string())]);
    args.extend(mode.map(number));
    func(name, args)
}

/// The text MariaDB stores in a string column for a bare integer or decimal literal: its
/// digits as written, trailing zeros kept (`1.50`, `-0.10`, `.5` → `0.5`). None for other
/// values (an approximate literal such as `1e1` is a double, spelled by the store function).
fn literal_spelling(value: &Expr) -> Option<String> {
    let (sign, literal) = match value {
        Expr::UnaryOp {
            op: UnaryOperator::Minus,
            expr,
        } => ("-", &**expr),
        e => ("", e),
    };
    let Expr::Value(v) = literal else {
        return None;
    };
    let SqlValue::Number(n, _) = &v.value else {
        return None;
    };
    if !n.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let (whole, fraction) = n
        .split_once('.')
        .map_or((n.as_str(), None), |(w, f)| (w, Some(f)));
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    let digits = match fraction {
        Some(f) if !f.is_empty() => format!("{whole}.{f}"),
        _ => whole.to_string(),
    };
    let zero = digits.bytes().all(|b| b == b'0' || b == b'.');
    Some(if zero {
        digits
    } else {
        format!("{sign}{digits}")
    })
}

/// The store function of a BIT column (the value's bytes for a string).
const BIT_STORE: &str = "tutti_bit_store";

/// `tutti_bit_store(x, ...)` of a DECIMAL `x` → `tutti_bit_store_dec(x, ...)`: a DECIMAL is
/// text to SQLite, but MariaDB stores its number, not its bytes.
pub(crate) fn bit_store_of_decimal(f: &sqlparser::ast::Function) -> Option<Expr> {
    let name = f.name.to_string();
    (name == BIT_STORE).then(|| {
        let mut g = f.clone();
        g.name = sqlparser::ast::ObjectName::from(vec![Ident::new(format!("{BIT_STORE}_dec"))]);
        Expr::Function(g)
    })
}

/// A column as MariaDB's messages name it: `` `db`.`t`.`c` ``.
fn qualified(table: &TableInfo, column: &str) -> String {
    format!("`{}`.`{}`.`{column}`", table.name.db, table.name.table)
}

/// The value assigned to `column`, as the column stores it.
/// Outside strict mode a NULL into a NOT NULL column is its implicit default, as in MariaDB
/// (SQLite's `UPDATE OR IGNORE` would skip the row).
pub(crate) fn assigned(table: &TableInfo, column: &str, value: Expr, strict: bool) -> Expr {
    let decimal = match &value {
        Expr::Identifier(i) => table.columns.iter().any(|c| {
            c.name.eq_ignore_ascii_case(&i.value)
                && crate::typing::decl_type(&c.decl_type) == crate::typing::NumType::Decimal
        }),
        _ => false,
    };
    let value = match storage_of(table, column) {
        Some(kind) => {
            let value = enum_of_decimal(&kind, value, decimal);
            store(kind, value, &qualified(table, column), 1, strict)
        }
        None => value,
    };
    if strict {
        value
    } else {
        not_null(table, column, value, 1)
    }
}

/// A column's value as an ALTER TABLE's copy stores it into the column's new type: in
/// strict mode with the errors of MariaDB's copy (mode 2: a string that is not a number
/// is 1292 "Truncated incorrect INTEGER value"; a string too long is 1265 when the column
/// keeps its string type (`same_type`: VARCHAR to a shorter VARCHAR), 1406 otherwise).
/// `old_type` is the column's declared type before.
pub(crate) fn copied(
    table: &TableInfo,
    column: &str,
    value: Expr,
    strict: bool,
    old_type: &str,
) -> Expr {
    let Some(kind) = storage_of(table, column) else {
        return value;
    };
    let old_base = crate::rebuild::base_type(old_type);
    let same_type = table
        .columns
        .first()
        .is_some_and(|c| crate::rebuild::base_type(&c.decl_type) == old_base);
    let mode = match &kind {
        _ if !strict => "0",
        Storage::Text(..) if !same_type => "1",
        _ => "2",
    };
    let value = match kind {
        // MariaDB's copy takes a whole DECIMAL as an index (a SET's bits); a fraction is
        // 1265.
        Storage::Enum(_) | Storage::Set(_)
            if crate::typing::decl_type(old_type) == crate::typing::NumType::Decimal =>
        {
            let int =
                crate::ast_build::cast(value.clone(), sqlparser::ast::DataType::Integer(None));
            let whole = Expr::BinaryOp {
                left: Box::new(crate::ast_build::cast(
                    value.clone(),
                    sqlparser::ast::DataType::Real,
                )),
                op: sqlparser::ast::BinaryOperator::Eq,
                right: Box::new(int.clone()),
            };
            func("iif", vec![whole, int, value])
        }
        _ => value,
    };
    let stored = store_as(kind, value, &qualified(table, column), 1, Some(mode));
    match &stored {
        Expr::Function(f)
            if crate::typing::decl_type(old_type) == crate::typing::NumType::Decimal =>
        {
            bit_store_of_decimal(f).unwrap_or(stored)
        }
        _ => stored,
    }
}

/// A DECIMAL (`decimal`: DECIMAL text to SQLite) written into an ENUM or SET column: its
/// double, which the ENUM takes as an index (the SET as bits), as MariaDB's
/// `Field_str::store_decimal` does.
fn enum_of_decimal(kind: &Storage, value: Expr, decimal: bool) -> Expr {
    match kind {
        Storage::Enum(_) | Storage::Set(_) if decimal => {
            crate::ast_build::cast(value, sqlparser::ast::DataType::Real)
        }
        _ => value,
    }
}

/// With `INSERT IGNORE`, or in a non-strict `sql_mode` for several rows, a NULL written
/// into a NOT NULL column is its type's implicit default (0, '', the zero date), with MariaDB's
/// warning 1048: `tutti_not_null(v, default, 'column', row)`. The AUTO_INCREMENT column
/// is left alone (a NULL there asks for an id).
fn not_null(table: &TableInfo, column: &str, value: Expr, row: usize) -> Expr {
    let Some(c) = table
        .columns
        .iter()
        .find(|c| c.name.eq_ignore_ascii_case(column) && c.not_null)
    else {
        return value;
    };
    let literal = matches!(&value, Expr::Value(v) if v.value != SqlValue::Null);
    if literal || table.autoinc.as_deref() == Some(c.name.as_str()) {
        return value;
    }
    let decl = c.decl_type.to_ascii_uppercase();
    let base = decl.split(['(', ' ']).next().unwrap_or_default();
    let default = match base {
        "DATE" => string("0000-00-00"),
        "DATETIME" | "TIMESTAMP" => string("0000-00-00 00:00:00"),
        "TIME" => string("00:00:00"),
        _ if integer_range(&decl).is_some()
            || DecimalType::of_decl(&decl).is_some()
            || matches!(base, "FLOAT" | "DOUBLE" | "REAL" | "BIT" | "YEAR") =>
        {
            number("0")
        }
        _ => string(""),
    };
    func(
        "tutti_not_null",
        vec![value, default, string(&c.name), number(row.to_string())],
    )
}

/// `(SELECT m FROM cte)`: the packed members a CTE of [`shared_members`] holds.
fn read_members(cte: &str) -> Expr {
    let text = format!("(SELECT {MEMBER} FROM {cte})");
    let dialect = sqlparser::dialect::MySqlDialect {};
    sqlparser::parser::Parser::new(&dialect)
        .try_with_sql(&text)
        .and_then(|mut p| p.parse_expr())
        .expect("a subquery of names tutti chose")
}

/// The ENUM and SET columns of a multi-row VALUES that would list too many members (see
/// [`MOST_LISTED`]) read them from a CTE added to the query, `tutti_members_i(m)`, whose
/// one value packs them (NUL-separated bytes).
fn shared_members(src: &mut sqlparser::ast::Query, types: &mut [Option<Storage>]) {
    let SetExpr::Values(v) = src.body.as_ref() else {
        return;
    };
    let rows = v.rows.len();
    if rows < 2 || src.with.is_some() {
        return;
    }
    let mut ctes = Vec::new();
    for (i, kind) in types.iter_mut().enumerate() {
        let Some(Storage::Enum(members) | Storage::Set(members)) = kind else {
            continue;
        };
        let Members::Listed(listed) = &*members else {
            continue;
        };
        if rows.saturating_mul(listed.len()) <= MOST_LISTED {
            continue;
        }
        let name = format!("tutti_members_{i}");
        let packed = crate::literals::blob(listed.join("\0").as_bytes());
        let body = select(vec![SelectItem::UnnamedExpr(packed)], vec![], None);
        ctes.push(sqlparser::ast::Cte {
            alias: sqlparser::ast::TableAlias {
                explicit: false,
                name: Ident::new(&name),
                columns: vec![sqlparser::ast::TableAliasColumnDef {
                    name: Ident::new(MEMBER),
                    data_type: None,
                }],
                at: None,
            },
            query: Box::new(query(SetExpr::Select(Box::new(body)))),
            from: None,
            materialized: None,
            closing_paren_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        });
        *members = Members::Shared(Box::new(read_members(&name)));
    }
    if !ctes.is_empty() {
        src.with = Some(sqlparser::ast::With {
            with_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
            recursive: false,
            cte_tables: ctes,
        });
    }
}

/// Wraps the values an INSERT writes into checked columns. `columns`: the column list
/// (empty: all columns, in order).
pub(crate) fn insert(
    ins: &mut Insert,
    columns: &[Ident],
    table: &TableInfo,
    strict: bool,
    ignore: bool,
) {
    let names: Vec<String> = if columns.is_empty() {
        table.columns.iter().map(|c| c.name.clone()).collect()
    } else {
        columns.iter().map(|c| c.value.clone()).collect()
    };
    let mut types: Vec<Option<Storage>> = names.iter().map(|n| storage_of(table, n)).collect();
    if types.iter().all(Option::is_none) {
        return;
    }
    let Some(src) = ins.source.as_mut() else {
        return;
    };
    shared_members(src, &mut types);
    if let SetExpr::Values(v) = src.body.as_mut() {
        // A single row outside strict mode still fails on a NULL (1048), unless IGNORE.
        let guard = ignore || !strict && v.rows.len() > 1;
        for (row, values) in v.rows.iter_mut().enumerate() {
            for (i, e) in values.content.iter_mut().enumerate() {
                let mut value = std::mem::replace(e, crate::ast_build::null());
                if let Some(Some(kind)) = types.get(i) {
                    let column = qualified(table, &names[i]);
                    value = store(kind.clone(), value, &column, row + 1, strict);
                }
                *e = if guard {
                    not_null(table, &names[i], value, row + 1)
                } else {
                    value
                };
            }
        }
        return;
    }
    let plain_names = names;
    let names: Vec<String> = plain_names.iter().map(|n| qualified(table, n)).collect();
    if let SetExpr::Select(sel) = src.body.as_mut() {
        let plain = |i: &SelectItem| {
            matches!(
                i,
                SelectItem::UnnamedExpr(_) | SelectItem::ExprWithAlias { .. }
            )
        };
        if sel.projection.len() == names.len() && sel.projection.iter().all(plain) {
            for (i, item) in sel.projection.iter_mut().enumerate() {
                let Some(kind) = types[i].clone() else {
                    continue;
                };
                let (value, alias) =
                    match std::mem::replace(item, SelectItem::Wildcard(Default::default())) {
                        SelectItem::UnnamedExpr(e) => (e, quoted(format!("c{}", i + 1))),
                        SelectItem::ExprWithAlias { expr, alias } => (expr, alias),
                        _ => unreachable!("checked above"),
                    };
                let mut expr = store(kind, value, &names[i], 1, strict);
                if !strict {
                    expr = not_null(table, &plain_names[i], expr, 1);
                }
                *item = SelectItem::ExprWithAlias { expr, alias };
            }
            return;
        }
    }
    let inner = std::mem::replace(src.as_mut(), crate::ast_build::values(vec![]));
    **src = through_cte(inner, &names, &types, strict);
}

/// `WITH tutti_src(c1, .., cn) AS (inner) SELECT <ci stored> AS ci, .. FROM tutti_src`.
fn through_cte(inner: Query, names: &[String], types: &[Option<Storage>], strict: bool) -> Query {
    let cols: Vec<String> = (1..=names.len()).map(|i| format!("c{i}")).collect();
    let projection = cols
        .iter()
        .zip(types.iter().zip(names))
        .map(|(c, (ty, name))| {
            let e = Expr::Identifier(quoted(c.clone()));
            SelectItem::ExprWithAlias {
                expr: match ty {
                    Some(kind) => store(kind.clone(), e, name, 1, strict),
                    None => e,
                },
                alias: quoted(c.clone()),
            }
        })
        .collect();
    crate::ast_build::through_named("tutti_src", &cols, inner, projection)
}

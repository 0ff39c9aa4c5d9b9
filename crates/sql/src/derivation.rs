//! MariaDB's `COLLATION(x)`, `CHARSET(x)` and `COERCIBILITY(x)`: the collation of an
//! expression's value and how strongly it holds it (its *derivation*: 0 explicit `COLLATE`,
//! 2 a column, 3 a system constant, 4 a literal, 5 a number, 6 NULL). Both follow from
//! the expression alone, as MariaDB's items derive them, so they are computed when the
//! statement is translated and replace the call by a constant.
//!
//! Literals take the connection's collation (`collation_connection`) or their introducer's
//! (`_latin2'a'`); columns the collation tutti stores them in (text in `utf8mb4_general_ci`
//! unless declared `_bin`, JSON in `utf8mb4_bin`, binary strings `binary`); numbers and
//! temporal values are `binary` with derivation 5. String functions combine their string
//! arguments by MariaDB's rules (`DTCollation::aggregate`): the stronger derivation wins, a
//! binary string wins at equal strength, a Unicode set takes in what it can convert, ASCII
//! text goes anywhere. What the rules cannot place (a subquery, a column of a derived
//! table) is refused rather than guessed.

use std::ops::ControlFlow;

use sqlparser::ast::{
    CastKind, DataType, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments,
    Value as SqlValue,
};
use sqlparser::tokenizer::{Token, Tokenizer};

use tutti_wsrep::charsets::SingleByte;

use crate::ast_build::{nested, number, string};
use crate::typing::{args, decl_of, function_name, Scopes};
use crate::{Env, SqlError, Value, VarScope};

/// How strongly a value holds its collation (MariaDB's `Derivation`, lower is stronger).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Derivation {
    Explicit = 0,
    None = 1,
    Implicit = 2,
    SysConst = 3,
    Coercible = 4,
    Numeric = 5,
    Ignorable = 6,
}

/// An expression's collation, its derivation, and whether it holds ASCII only.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Derived {
    collation: String,
    derivation: Derivation,
    ascii: bool,
}

const BINARY: &str = "binary";
/// The collation of system constants (`USER()`, `@@version`) and of these functions' results.
const SYSTEM: &str = "utf8mb3_general_ci";

impl Derived {
    fn new(collation: &str, derivation: Derivation) -> Derived {
        Derived {
            collation: collation.to_ascii_lowercase(),
            derivation,
            ascii: false,
        }
    }

    fn numeric() -> Derived {
        Derived::new(BINARY, Derivation::Numeric)
    }

    fn charset(&self) -> &str {
        charset_of(&self.collation)
    }

    fn is_binary(&self) -> bool {
        self.collation == BINARY
    }

    fn unicode(&self) -> bool {
        self.charset().starts_with("utf") || self.charset() == "ucs2"
    }

    /// Takes more than one byte for some characters (MariaDB's `use_mb`).
    fn multi_byte(&self) -> bool {
        self.unicode()
            || matches!(
                self.charset(),
                "big5" | "sjis" | "ujis" | "gbk" | "gb2312" | "cp932" | "eucjpms" | "euckr"
            )
    }

    /// Holds characters outside the Basic Multilingual Plane (4-byte UTF-8, UTF-16/32).
    fn supplementary(&self) -> bool {
        matches!(self.charset(), "utf8mb4" | "utf16" | "utf16le" | "utf32")
    }

    /// `left_is_superset`: `self` can hold `other`'s characters at their strengths.
    fn superset_of(&self, other: &Derived) -> bool {
        let (l, r) = (self.derivation, other.derivation);
        if self.unicode()
            && (l < r
                || (l == r
                    && (!other.unicode() || (self.supplementary() && !other.supplementary()))))
        {
            return true;
        }
        other.ascii && (l < r || (l == r && !self.ascii))
    }

    /// MariaDB's `DTCollation::aggregate` of two operands' collations.
    fn aggregate(self, other: Derived) -> Derived {
        let ascii = self.ascii && other.ascii;
        let pick = |d: Derived| Derived { ascii, ..d };
        if self.charset() != other.charset() {
            return pick(if self.is_binary() {
                if self.derivation <= other.derivation {
                    self
                } else {
                    other
                }
            } else if other.is_binary() {
                if other.derivation <= self.derivation {
                    other
                } else {
                    self
                }
            } else if self.superset_of(&other) {
                self
            } else if other.superset_of(&self) {
                other
            } else if self.derivation < Derivation::SysConst
                && other.derivation >= Derivation::SysConst
            {
                self
            } else if other.derivation < Derivation::SysConst
                && self.derivation >= Derivation::SysConst
            {
                other
            } else {
                // An illegal mix of collations.
                Derived::new(BINARY, Derivation::None)
            });
        }
        pick(match self.derivation.cmp(&other.derivation) {
            std::cmp::Ordering::Less => self,
            std::cmp::Ordering::Greater => other,
            _ if self.collation == other.collation => self,
            _ if self.derivation == Derivation::Explicit => Derived::new(BINARY, Derivation::None),
            _ if self.collation.ends_with("_bin") => self,
            _ if other.collation.ends_with("_bin") => other,
            _ => Derived::new(&format!("{}_bin", self.charset()), Derivation::None),
        })
    }
}

/// The character set of a collation (`latin2_general_ci` → `latin2`).
pub fn charset_of(collation: &str) -> &str {
    collation.split('_').next().unwrap_or(collation)
}

/// A character set's default collation, as MariaDB names it (`utf8` is `utf8mb3`).
pub fn default_collation(charset: &str) -> String {
    match tutti_wsrep::charsets::CharsetName::find(charset) {
        Some(set) => set.default_collation.to_string(),
        None => format!("{}_general_ci", charset.to_ascii_lowercase()),
    }
}

/// What the derivation rules need besides the expression.
struct Context<'a> {
    scopes: &'a Scopes,
    env: &'a dyn Env,
    /// `collation_connection`: string literals' collation.
    connection: &'a str,
}

/// `COLLATION(x)`, `CHARSET(x)` or `COERCIBILITY(x)` as a constant; None for other
/// expressions.
pub(crate) fn constant(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Result<Option<Expr>, SqlError> {
    let Expr::Function(f) = e else {
        return Ok(None);
    };
    let name = function_name(f);
    if !matches!(name.as_str(), "collation" | "charset" | "coercibility") {
        return Ok(None);
    }
    let args = args(f);
    let [arg] = args.as_slice() else {
        return Ok(None);
    };
    let d = derived(arg, scopes, env).ok_or_else(|| {
        SqlError::Unsupported(format!(
            "{}() of this expression",
            name.to_ascii_uppercase()
        ))
    })?;
    let value = match name.as_str() {
        "collation" => string(&d.collation),
        "charset" => string(d.charset()),
        _ => number((d.derivation as u8).to_string()),
    };
    // An aggregate stays in the query, which it makes a grouped one (one row, or none).
    Ok(Some(if has_aggregate(arg) {
        let is_null = Expr::IsNull(Box::new(nested((*arg).clone())));
        crate::ast_build::case_when(is_null, value.clone(), value)
    } else {
        value
    }))
}

/// The SQLite collation a computed string that MariaDB groups and sorts
/// case-insensitively is given where SQLite would compare its bytes: its collation is a
/// `_ci` one, as `LOWER(col)` or `CONCAT(col, '!')` of a default column is, and `DISTINCT`,
/// `GROUP BY` and `ORDER BY` give it `COLLATE tutti_general_ci` (or the Unicode collation
/// it derives from). A column carries its collation in SQLite already, as does an explicit
/// `COLLATE`; a binary or `_bin` value, a number, and what the rules cannot place get None.
pub(crate) fn grouping_collation(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<&'static str> {
    let mut inner = e;
    while let Expr::Nested(x) = inner {
        inner = x;
    }
    if matches!(
        inner,
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) | Expr::Collate { .. } | Expr::Value(_)
    ) {
        return None;
    }
    derived(e, scopes, env)
        .filter(|d| d.derivation != Derivation::Numeric && d.collation.ends_with("_ci"))
        .and_then(|d| crate::columns::text_collation(&d.collation))
}

/// `COUNT(DISTINCT x)`, `GROUP_CONCAT(DISTINCT x)`, … (in MySQL form) of a computed string
/// `x`: `x COLLATE c` in the collation it groups in, which SQLite's DISTINCT then uses (it
/// gives a function's result none: `COUNT(DISTINCT LOWER(c))` counted `abc` and `abc `
/// apart). A column's own collation already applies.
pub(crate) fn collate_distinct_arguments(f: &mut Function, scopes: &Scopes, env: &dyn Env) {
    let FunctionArguments::List(list) = &mut f.args else {
        return;
    };
    if list.duplicate_treatment != Some(sqlparser::ast::DuplicateTreatment::Distinct) {
        return;
    }
    for arg in &mut list.args {
        let FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) = arg else {
            continue;
        };
        if let Some(c) = grouping_collation(x, scopes, env) {
            let collation = crate::columns::mysql_collation(c);
            crate::typing::collate_in(x, collation);
        }
    }
}

/// Whether `e`'s value is in a single-byte character set (latin1, binary, ...), where
/// MariaDB's string functions take their single-byte paths.
pub(crate) fn single_byte(e: &Expr, scopes: &Scopes, env: &dyn Env) -> bool {
    derived(e, scopes, env).is_some_and(|d| !d.multi_byte())
}

/// The single-byte character set of `e`'s text (a latin1 connection's literal, say), which
/// tutti holds as UTF-8 and MariaDB's byte functions read as that set's bytes.
pub(crate) fn single_byte_set(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<SingleByte> {
    derived(e, scopes, env).and_then(|d| SingleByte::named(d.charset()))
}

/// The character set `x COLLATE c` finds `e` (in MySQL form) in: a number's or temporal
/// value's is the connection's; None for NULL, an illegal mix, and what the rules cannot
/// place.
pub(crate) fn text_charset(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<String> {
    let d = derived(e, scopes, env)?;
    match d.derivation {
        Derivation::Ignorable | Derivation::None => None,
        Derivation::Numeric => Some(charset_of(&connection_collation(env)).to_string()),
        _ => Some(d.charset().to_string()),
    }
}

/// The SQLite collation a string expression `e` (in MySQL form) compares in: its derived
/// collation's (None: bytes, or not placed).
pub(crate) fn sqlite_collation(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<&'static str> {
    derived(e, scopes, env)
        .filter(|d| d.derivation != Derivation::Numeric)
        .and_then(|d| crate::columns::text_collation(&d.collation))
}

/// `e`'s collation and derivation in the session `env` (None: the rules cannot place it).
fn derived(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Option<Derived> {
    let connection = connection_collation(env);
    let cx = Context {
        scopes,
        env,
        connection: &connection,
    };
    cx.of(e)
}

/// `collation_connection`, the collation of string literals.
pub(crate) fn connection_collation(env: &dyn Env) -> String {
    match env.system_variable(VarScope::Session, "collation_connection") {
        Some(Value::Text(c)) => c,
        _ => "utf8mb4_general_ci".into(),
    }
}

/// Whether the connection's character set is `binary` (`SET NAMES binary`): a
/// `CAST(x AS CHAR(n))` is then a binary string, zero-padded to `n` bytes.
pub(crate) fn binary_connection(env: &dyn Env) -> bool {
    connection_collation(env) == BINARY
}

fn has_aggregate(e: &Expr) -> bool {
    sqlparser::ast::visit_expressions(e, |e| match e {
        Expr::Function(f) if crate::having::is_aggregate(f) => ControlFlow::Break(()),
        _ => ControlFlow::Continue(()),
    })
    .is_break()
}

/// Functions that make a string in the connection's collation out of other values.
const CONNECTION_STRINGS: &[&str] = &[
    "hex",
    "bin",
    "oct",
    "conv",
    "format",
    "dayname",
    "monthname",
    "date_format",
    "time_format",
    "md5",
    "sha",
    "sha1",
    "sha2",
    "to_base64",
    "inet_ntoa",
    "password",
    "old_password",
    "space",
    "json_array",
    "json_object",
    "json_quote",
    "json_type",
    "json_keys",
    "json_set",
    "json_insert",
    "json_replace",
    "json_remove",
    "json_merge",
    "json_merge_patch",
    "json_merge_preserve",
    "json_array_append",
    "json_array_insert",
    "json_compact",
    "json_detailed",
    "json_loose",
    "json_search",
];

/// Functions whose result is a binary string.
const BINARY_STRINGS: &[&str] = &[
    "char",
    "unhex",
    "compress",
    "uncompress",
    "encode",
    "decode",
    "aes_encrypt",
    "aes_decrypt",
    "weight_string",
    "random_bytes",
    "from_base64",
];

/// System constants.
const SYSTEM_STRINGS: &[&str] = &[
    "user",
    "current_user",
    "session_user",
    "system_user",
    "database",
    "schema",
    "version",
];

/// String functions: their result combines their string arguments' collations (the
/// number is how many leading arguments are not strings: counts, positions, conditions).
const COMBINING: &[(&str, usize)] = &[
    ("concat", 0),
    ("concat_ws", 0),
    ("lcase", 0),
    ("lower", 0),
    ("ucase", 0),
    ("upper", 0),
    ("left", 0),
    ("right", 0),
    ("substring", 0),
    ("substr", 0),
    ("mid", 0),
    ("substring_index", 0),
    ("lpad", 0),
    ("rpad", 0),
    ("ltrim", 0),
    ("rtrim", 0),
    ("trim", 0),
    ("replace", 0),
    ("insert", 0),
    ("repeat", 0),
    ("reverse", 0),
    ("quote", 0),
    ("soundex", 0),
    ("elt", 1),
    ("make_set", 1),
    ("export_set", 1),
    ("group_concat", 0),
    ("json_extract", 0),
    ("json_value", 0),
    ("json_query", 0),
];

/// Functions whose result is one of their arguments: a string when one is.
const CHOOSING: &[(&str, usize)] = &[
    ("max", 0),
    ("min", 0),
    ("if", 1),
    ("ifnull", 0),
    ("nvl", 0),
    ("coalesce", 0),
    ("greatest", 0),
    ("least", 0),
];

impl Context<'_> {
    /// The canonical name of collation `name` given to `e` (`'a' COLLATE uca1400_ai_ci` is
    /// `utf8mb4_uca1400_ai_ci`); a name MariaDB does not know stays as written.
    fn collated(&self, e: &Expr, name: &str) -> String {
        let set = match self.of(e) {
            Some(d) if d.derivation < Derivation::Numeric => d.charset().to_string(),
            _ => charset_of(self.connection).to_string(),
        };
        crate::charset_names::collation_in(name, &set)
            .or_else(|_| crate::charset_names::collation_alone(name))
            .unwrap_or_else(|_| name.trim_matches(['`', '\'', '"']).to_string())
    }

    fn of(&self, e: &Expr) -> Option<Derived> {
        Some(match e {
            Expr::Nested(x) => self.of(x)?,
            Expr::Value(v) => self.literal(&v.value),
            Expr::TypedString { .. } | Expr::Interval(_) => Derived::numeric(),
            Expr::Prefixed { prefix, value } => {
                let mut d = self.of(value)?;
                d.collation = default_collation(prefix.value.trim_start_matches('_'));
                d
            }
            Expr::Collate { expr, collation } => Derived::new(
                &self.collated(expr, &collation.to_string()),
                Derivation::Explicit,
            ),
            Expr::Identifier(i) if i.quote_style.is_none() && i.value.starts_with("@@") => {
                Derived::new(SYSTEM, Derivation::SysConst)
            }
            // A user variable: a string has the connection's collation.
            Expr::Identifier(i) if i.quote_style.is_none() && i.value.starts_with('@') => {
                match self.env.user_variable(&i.value[1..]) {
                    crate::UserValue::Plain(Value::Text(_)) => {
                        Derived::new(self.connection, Derivation::Implicit)
                    }
                    _ => Derived::new(BINARY, Derivation::Implicit),
                }
            }
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => self.column(e)?,
            Expr::Cast {
                kind: CastKind::Cast | CastKind::TryCast | CastKind::SafeCast,
                data_type,
                ..
            } => self.cast(data_type),
            Expr::Convert {
                charset: Some(cs), ..
            } => Derived::new(&default_collation(&cs.to_string()), Derivation::Implicit),
            Expr::Convert {
                data_type: Some(t), ..
            } => self.cast(t),
            Expr::Substring { expr, .. } => self.combined([expr.as_ref()])?,
            Expr::Trim { expr, .. } => self.combined([expr.as_ref()])?,
            Expr::Case {
                conditions,
                else_result,
                ..
            } => self.chosen(crate::typing::case_results(conditions, else_result))?,
            Expr::Function(f) => self.function(f)?,
            Expr::Subquery(_) => return None,
            _ => Derived::numeric(),
        })
    }

    fn literal(&self, v: &SqlValue) -> Derived {
        match v {
            SqlValue::Null => Derived::new(BINARY, Derivation::Ignorable),
            SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => Derived {
                ascii: s.is_ascii(),
                ..Derived::new(self.connection, Derivation::Coercible)
            },
            SqlValue::NationalStringLiteral(s) => Derived {
                ascii: s.is_ascii(),
                ..Derived::new(SYSTEM, Derivation::Coercible)
            },
            SqlValue::HexStringLiteral(_) | SqlValue::SingleQuotedByteStringLiteral(_) => {
                Derived::new(BINARY, Derivation::Coercible)
            }
            _ => Derived::numeric(),
        }
    }

    fn column(&self, e: &Expr) -> Option<Derived> {
        let decl = decl_of(e, self.scopes)?.to_ascii_lowercase();
        let owned = crate::typing::owned_column_of(e, self.scopes);
        if let Some((table, column)) = owned {
            let declared = crate::column_marks::declared_collation(&table.create_sql, &column.name);
            if let Some(collation) = declared {
                return Some(Derived::new(&collation, Derivation::Implicit));
            }
        }
        let of_view = owned
            .filter(|(t, _)| t.is_view())
            .map(|(view, column)| crate::view_columns::collation(view, &column.name, self.env));
        if let Some(Some(c)) = &of_view {
            // (a view's computed string has no declared type)
            let collation = crate::columns::mysql_collation(c);
            return Some(Derived::new(collation, Derivation::Implicit));
        }
        let declared = || {
            of_view
                .flatten()
                .or_else(|| column_collation(e, self.scopes))
        };
        let base = decl.split(['(', ' ']).next().unwrap_or("");
        let collation = match base {
            "char" | "varchar" | "tinytext" | "text" | "mediumtext" | "longtext" | "enum"
            | "set" => declared().map_or("utf8mb4_bin", |c| crate::columns::mysql_collation(&c)),
            "json" => "utf8mb4_bin",
            "binary" | "varbinary" | "tinyblob" | "blob" | "mediumblob" | "longblob" => BINARY,
            _ => return Some(Derived::numeric()),
        };
        Some(Derived::new(collation, Derivation::Implicit))
    }

    fn cast(&self, t: &DataType) -> Derived {
        match t {
            DataType::Char(_)
            | DataType::Character(_)
            | DataType::Varchar(_)
            | DataType::CharacterVarying(_)
            | DataType::Nvarchar(_)
            | DataType::Text
            | DataType::String(_) => Derived::new(self.connection, Derivation::Implicit),
            DataType::Binary(_) | DataType::Varbinary(_) | DataType::Blob(_) | DataType::Bytea => {
                Derived::new(BINARY, Derivation::Implicit)
            }
            DataType::JSON => Derived::new("utf8mb4_bin", Derivation::Implicit),
            _ => Derived::numeric(),
        }
    }

    fn function(&self, f: &Function) -> Option<Derived> {
        let name = function_name(f);
        let args = args(f);
        let skip = |list: &[(&str, usize)]| {
            list.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, skip)| args.iter().skip(*skip).copied())
        };
        if let Some(strings) = skip(COMBINING) {
            return self.combined(strings);
        }
        if let Some(values) = skip(CHOOSING) {
            return self.chosen(values);
        }
        Some(match name.as_str() {
            "nullif" => self.chosen(args.first().copied())?,
            "json_unquote" => Derived::new("utf8mb4_bin", Derivation::Coercible),
            // Its value is a string MariaDB derives as a number in latin1.
            "uuid" => Derived::new("latin1_swedish_ci", Derivation::Numeric),
            "charset" | "collation" => Derived::new(SYSTEM, Derivation::Coercible),
            // MariaDB makes CHR's string in the current database's collation.
            "chr" => match self
                .env
                .system_variable(VarScope::Session, "collation_database")
            {
                Some(Value::Text(c)) => Derived::new(&c, Derivation::Coercible),
                _ => Derived::new(self.connection, Derivation::Coercible),
            },
            n if CONNECTION_STRINGS.contains(&n) => {
                Derived::new(self.connection, Derivation::Coercible)
            }
            n if BINARY_STRINGS.contains(&n) => Derived::new(BINARY, Derivation::Coercible),
            n if SYSTEM_STRINGS.contains(&n) => Derived::new(SYSTEM, Derivation::SysConst),
            _ => Derived::numeric(),
        })
    }

    /// An argument of a string function: a number becomes a string in the connection's
    /// collation.
    fn as_string(&self, e: &Expr) -> Option<Derived> {
        let d = self.of(e)?;
        Some(if d.derivation == Derivation::Numeric {
            Derived {
                ascii: true,
                ..Derived::new(self.connection, Derivation::Numeric)
            }
        } else {
            d
        })
    }

    /// A string function's result: its arguments' collations combined, at least as strong
    /// as a literal (`CONCAT(1, 2)` is coercible).
    fn combined<'e>(&self, strings: impl IntoIterator<Item = &'e Expr>) -> Option<Derived> {
        let mut out: Option<Derived> = None;
        for e in strings {
            let d = self.as_string(e)?;
            out = Some(match out {
                None => d,
                Some(acc) => acc.aggregate(d),
            });
        }
        let mut d = out.unwrap_or_else(|| Derived::new(self.connection, Derivation::Coercible));
        if d.derivation == Derivation::Numeric {
            d.derivation = Derivation::Coercible;
        }
        Some(d)
    }

    /// A result that is one of the values: a number when all are, else their strings
    /// combined (NULLs aside).
    fn chosen<'e>(&self, values: impl IntoIterator<Item = &'e Expr>) -> Option<Derived> {
        let values: Vec<&Expr> = values.into_iter().collect();
        let derived = values
            .iter()
            .map(|e| self.of(e))
            .collect::<Option<Vec<Derived>>>()?;
        let present: Vec<&Derived> = derived
            .iter()
            .filter(|d| d.derivation != Derivation::Ignorable)
            .collect();
        if present.is_empty() {
            return Some(Derived::new(BINARY, Derivation::Ignorable));
        }
        if present.iter().all(|d| d.derivation == Derivation::Numeric) {
            return Some(Derived::numeric());
        }
        let mut out: Option<Derived> = None;
        for e in values {
            let d = self.as_string(e)?;
            out = Some(match out {
                None => d,
                Some(acc) => acc.aggregate(d),
            });
        }
        out
    }
}

/// The SQLite collation a column reference's column is declared with (`tutti_general_ci`,
/// `tutti_bin`, ...); None for another expression or a column declared without one.
pub(crate) fn column_collation(e: &Expr, scopes: &Scopes) -> Option<String> {
    let (table, column) = crate::typing::owned_column_of(e, scopes)?;
    declared_column_collation(&table.create_sql, &column.name)
}

/// The SQLite collation column `column` is declared with in the `CREATE TABLE`
/// `create_sql`.
pub(crate) fn declared_column_collation(create_sql: &str, column: &str) -> Option<String> {
    let dialect = sqlparser::dialect::SQLiteDialect {};
    let tokens = Tokenizer::new(&dialect, create_sql).tokenize().ok()?;
    let mut depth = 0;
    let mut element_start = true;
    let mut in_column = false;
    let mut after_collate = false;
    for t in tokens {
        match &t {
            Token::LParen if depth == 0 => {
                depth = 1;
                continue;
            }
            Token::LParen => depth += 1,
            Token::RParen => depth -= 1,
            Token::Comma if depth == 1 => {
                element_start = true;
                in_column = false;
                continue;
            }
            Token::Whitespace(_) => continue,
            Token::Word(w) if depth == 1 && element_start => {
                in_column = w.value.eq_ignore_ascii_case(column);
            }
            Token::Word(w) if in_column && after_collate => return Some(w.value.clone()),
            Token::Word(w) if in_column && depth == 1 => {
                after_collate = w.value.eq_ignore_ascii_case("COLLATE");
            }
            _ => {}
        }
        if depth >= 1 {
            element_start = false;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(collation: &str, derivation: Derivation) -> Derived {
        Derived::new(collation, derivation)
    }

    #[test]
    fn aggregates_as_mariadb() {
        use Derivation::*;
        let ascii = |mut x: Derived| {
            x.ascii = true;
            x
        };
        // CONCAT(latin1 column, 'a'): the column is stronger, and ASCII converts.
        let l = d("latin1_swedish_ci", Implicit);
        assert_eq!(
            l.clone()
                .aggregate(ascii(d("utf8mb4_general_ci", Coercible)))
                .collation,
            "latin1_swedish_ci"
        );
        // CONCAT(_latin2'a', 'b'): Unicode takes in latin2 at equal strength.
        let r = ascii(d("latin2_general_ci", Coercible))
            .aggregate(ascii(d("utf8mb4_general_ci", Coercible)));
        assert_eq!(r.collation, "utf8mb4_general_ci");
        // A binary string wins at equal strength.
        let r = d("utf8mb4_general_ci", Implicit).aggregate(d(BINARY, Implicit));
        assert_eq!(r.collation, BINARY);
        // NULL gives way.
        let r = d(BINARY, Ignorable).aggregate(d("utf8mb4_general_ci", Coercible));
        assert_eq!(
            (r.collation.as_str(), r.derivation),
            ("utf8mb4_general_ci", Coercible)
        );
        // Same character set: _bin wins at equal strength, COLLATE always.
        let r = d("utf8mb4_general_ci", Implicit).aggregate(d("utf8mb4_bin", Implicit));
        assert_eq!(r.collation, "utf8mb4_bin");
        let r = d("utf8mb4_bin", Implicit).aggregate(d("utf8mb4_unicode_ci", Explicit));
        assert_eq!(
            (r.collation.as_str(), r.derivation),
            ("utf8mb4_unicode_ci", Explicit)
        );
    }

    #[test]
    fn default_collations() {
        assert_eq!(default_collation("latin1"), "latin1_swedish_ci");
        assert_eq!(default_collation("UTF8MB4"), "utf8mb4_general_ci");
        assert_eq!(default_collation("utf8"), "utf8mb3_general_ci");
        assert_eq!(default_collation("binary"), "binary");
        assert_eq!(charset_of("utf8mb3_general_ci"), "utf8mb3");
    }
}

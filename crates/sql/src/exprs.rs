//! Expression rewriting, one node at a time (called bottom-up by the AST walk in
//! [`crate::rewrite`], so a node's children are already in SQLite form).
//!
//! * Column references print double-quoted; `db.t.col` becomes `"t"."col"` (tables in FROM
//!   are aliased by their own name, see `rewrite`).
//! * Session values are substituted as literals (and mark the query volatile): `@@x`,
//!   `@@session.x`, `@@global.x`, `@@local.x` (from `Env::system_variable`), `@x`
//!   (`Env::user_variable`) and the session functions `DATABASE()`, `USER()`,
//!   `LAST_INSERT_ID()`, ... (`Env::session_function`).
//! * MySQL syntax that is not a function call becomes SQLite syntax: `DIV`, `/` (always a
//!   real division in MySQL, integer division in SQLite for two integers), `<=>`, `XOR`,
//!   `^`, `%`/`MOD` (→ `mod()`, which keeps fractions), `REGEXP`/`RLIKE` (SQLite's
//!   `x REGEXP y` calls the `regexp(y, x)` function tutti registers), `CAST`/`CONVERT` target
//!   types, `COLLATE`, `EXTRACT`, `POSITION`, `SUBSTRING(x FROM a FOR b)`, `TRIM(LEADING ..)`,
//!   `GROUP_CONCAT(.. SEPARATOR s)`, date arithmetic (see `dates`), `CURRENT_TIMESTAMP` →
//!   `NOW()`, `CURRENT_DATE` → `CURDATE()`, `CURRENT_TIME` → `CURTIME()`, `INSERT(s, p, n, t)`
//!   → `tutti_insert(..)` (INSERT is an SQLite keyword), typed literals `DATE '..'` → `'..'`
//!   (but `TIME '..'` moved by date arithmetic becomes a TIME cast, see `dates`),
//!   and literals (see `literals`). `BINARY x` compared with something becomes
//!   `x COLLATE BINARY` (a BLOB never equals a TEXT in SQLite).
//! * Every other function keeps its name: tutti registers MySQL-compatible functions on each
//!   SQLite connection.

use sqlparser::ast::{
    BinaryLength, BinaryOperator, CeilFloorKind, CharacterLength, DataType, DateTimeField,
    ExactNumberInfo, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause,
    FunctionArguments, Ident, ObjectName, ObjectNamePart, TrimWhereField, UnaryOperator,
    Value as SqlValue,
};

use crate::ast_build::{binop, cast, func, nested, number, string};
use crate::literals::{introduced, rewrite_value, value_expr};
use crate::names::quote;
use crate::typing::{self, Scopes};
use crate::{dates, Env, SqlError, VarScope};
use tutti_wsrep::charsets::SingleByte;

/// `LAST_INSERT_ID(x)` sets the session's last insert id as `@v := x` sets a variable
/// (`tutti_set_var`), under this name, which the executor takes for the session's
/// `LAST_INSERT_ID()` (the leading space keeps it apart from user variables).
pub const LAST_INSERT_ID_VAR: &str = " last_insert_id";

/// MariaDB's default `group_concat_max_len`.
const GROUP_CONCAT_MAX_LEN: i64 = 1_048_576;

/// Session functions MySQL evaluates per connection, by lower-case name.
const SESSION_FUNCTIONS: [&str; 11] = [
    "database",
    "schema",
    "last_insert_id",
    "connection_id",
    "user",
    "current_user",
    "session_user",
    "system_user",
    "version",
    "row_count",
    "found_rows",
];

/// What expression rewriting needs: the session, and a flag set when values were substituted.
pub(crate) struct ExprCtx<'a> {
    /// The session and catalog.
    pub env: &'a dyn Env,
    /// Set when a session value was substituted.
    pub volatile: bool,
    /// The tables in scope, for the numeric types of columns (see `typing`).
    pub scopes: Scopes,
    /// The statement assigns user variables (`@v := x`): reads of `@v` see them.
    pub assigning: bool,
    /// TIMESTAMP columns are read in the session's zone (see `timestamps`).
    pub zoned_timestamps: bool,
}

/// `tutti_stored_form(c)`: the column `c` as stored, not read as a value (a statement
/// tutti writes itself compares or keeps stored values: see `on_update`); the rewrite
/// leaves only `c`.
pub(crate) const STORED_FORM: &str = "tutti_stored_form";

impl ExprCtx<'_> {
    /// Rewrites one node whose children are already rewritten.
    pub fn rewrite(&mut self, e: &mut Expr) -> Result<(), SqlError> {
        if let Expr::Function(f) = e {
            // Compared without allocating: every function passes here.
            let name = f.name.0.as_slice();
            if matches!(name, [ObjectNamePart::Identifier(i)] if i.value == STORED_FORM) {
                if let Some(mut c) = typing::args(f).first().map(|c| (*c).clone()) {
                    crate::big_unsigned::unwrap(&mut c);
                    *e = c;
                    return Ok(());
                }
            }
        }
        if crate::big_unsigned::stored_form(e) {
            return Ok(());
        }
        match e {
            Expr::Case {
                conditions,
                else_result,
                ..
            } => typing::temporal_results(
                conditions
                    .iter_mut()
                    .map(|c| &mut c.result)
                    .chain(else_result.as_deref_mut()),
                &self.scopes,
            ),
            Expr::Function(f) => {
                let named = |n: &str| matches!(f.name.0.as_slice(), [ObjectNamePart::Identifier(i)] if i.value.eq_ignore_ascii_case(n));
                let skip = if named("if") {
                    Some(1)
                } else if ["ifnull", "coalesce", "nvl"].into_iter().any(named) {
                    Some(0)
                } else {
                    None
                };
                if let Some(skip) = skip {
                    typing::temporal_results(typing::args_from(f, skip), &self.scopes);
                }
            }
            _ => {}
        }
        let replacement = match e {
            Expr::Identifier(id) => self.identifier(id)?,
            Expr::CompoundIdentifier(ids) => self.compound(ids)?,
            Expr::Value(v) => rewrite_value(&v.value).or_else(|| typing::big_literal(&v.value)),
            Expr::Function(f) => {
                if typing::string_function(f) {
                    typing::args_from(f, 0).for_each(typing::as_string);
                }
                row_arguments(f)?;
                numeric_arguments(f, &self.scopes);
                decimal_dates(f, crate::stored::zero_date_flags(self.env), &self.scopes);
                self.column_strings(f);
                if let Some(found) = crate::enums::find_in_set_column(f, &self.scopes) {
                    *e = found;
                    return Ok(());
                }
                match self.function(f)? {
                    Some(r) => Some(r),
                    None => temporal_rounding(f, &self.scopes)
                        .or_else(|| typing::function(f, &self.scopes)),
                }
            }
            Expr::BinaryOp {
                left,
                op: BinaryOperator::StringConcat,
                right,
            } => {
                // `||` under PIPES_AS_CONCAT (see `lexer`) is MySQL's CONCAT.
                let mut concat = func("CONCAT", vec![take_box(left), take_box(right)]);
                self.rewrite(&mut concat)?;
                Some(concat)
            }
            Expr::BinaryOp { left, op, right } => {
                if crate::ast_build::is_comparison(op) || *op == BinaryOperator::Spaceship {
                    compared_casts([&mut **left, &mut **right]);
                }
                typing::binary_operands(left, op, right, &self.scopes);
                match typing::binary(left, op, right, &self.scopes) {
                    Some(exact) => Some(exact),
                    None => binary(take(e), &self.scopes)?,
                }
            }
            Expr::UnaryOp {
                op: UnaryOperator::Minus,
                expr,
            } => {
                typing::numeric(expr);
                typing::temporal_as_number(expr, &self.scopes);
                let exact = typing::negate(expr, &self.scopes);
                if exact.is_none() && expr.to_string().starts_with('-') {
                    // `- -1` must not print as `--1`, a comment to SQLite.
                    **expr = nested(take_box(expr));
                }
                exact
            }
            Expr::UnaryOp {
                op: UnaryOperator::Plus,
                expr,
            } => {
                typing::numeric(expr);
                None
            }
            Expr::UnaryOp {
                op: UnaryOperator::BitwiseNot,
                expr,
            } => {
                typing::numeric(expr);
                Some(func(
                    "tutti_bitop",
                    vec![string("~"), take_box(expr), number("0")],
                ))
            }
            Expr::Floor {
                expr,
                field: CeilFloorKind::DateTimeField(DateTimeField::NoDateTime),
            } => floor_or_ceiling("floor", expr, &self.scopes),
            Expr::Ceil {
                expr,
                field: CeilFloorKind::DateTimeField(DateTimeField::NoDateTime),
            } => floor_or_ceiling("ceil", expr, &self.scopes),
            Expr::InList {
                expr,
                list,
                negated,
            } if list.len() == 1 && !matches!(list[0], Expr::Tuple(_)) => {
                // `x IN (y)` is `x = y` in MySQL, compared the same way.
                let op = if *negated {
                    BinaryOperator::NotEq
                } else {
                    BinaryOperator::Eq
                };
                let mut eq = Expr::BinaryOp {
                    left: Box::new(take_box(expr)),
                    op,
                    right: Box::new(list.pop().expect("one item")),
                };
                self.rewrite(&mut eq)?;
                Some(nested(eq))
            }
            Expr::InList {
                expr,
                list,
                negated,
            } => {
                compared_casts(std::iter::once(&mut **expr).chain(list.iter_mut()));
                for item in list.iter_mut() {
                    typing::comparison_operands(item, expr, &self.scopes);
                }
                let operands = std::iter::once(&mut **expr).chain(list.iter_mut());
                typing::temporal_operands(operands, &self.scopes);
                let operands = std::iter::once(&mut **expr).chain(list.iter_mut());
                typing::year_operands(operands, &self.scopes);
                if let Some(first) = list.first() {
                    typing::comparison_operands(expr, first, &self.scopes);
                }
                typing::in_list(expr, list, *negated, &self.scopes)
            }
            Expr::InSubquery { expr, subquery, .. } => {
                typing::in_decimal_subquery(expr, subquery, &self.scopes);
                typing::in_subquery_collation(expr, subquery, &self.scopes);
                None
            }
            Expr::Between {
                expr,
                low,
                high,
                negated,
            } => {
                compared_casts([&mut **expr, &mut **low, &mut **high]);
                for bound in [&mut **low, &mut **high] {
                    typing::comparison_operands(bound, expr, &self.scopes);
                }
                typing::comparison_operands(expr, low, &self.scopes);
                for bound in [&mut **low, &mut **high] {
                    typing::widen_dates(expr, bound, &self.scopes);
                }
                let operands = [&mut **expr, &mut **low, &mut **high];
                typing::temporal_operands(operands.into_iter(), &self.scopes);
                let operands = [&mut **expr, &mut **low, &mut **high];
                typing::year_operands(operands.into_iter(), &self.scopes);
                typing::between_operands(expr, low, high, &self.scopes);
                typing::between_collation(expr, low, high, &self.scopes);
                typing::between(expr, low, high, *negated, &self.scopes)
            }
            Expr::Like {
                negated,
                expr,
                pattern,
                escape_char,
                any: false,
            } => {
                self.empty_escape(escape_char)?;
                collated_like(*negated, expr, pattern, escape_char, &self.scopes)
            }
            Expr::IsNull(x) => typing::zero_date_is_null(x, &self.scopes),
            Expr::RLike {
                negated,
                expr,
                pattern,
                regexp,
            } => {
                *regexp = true;
                binary_regexp(*negated, expr, pattern, &self.scopes)
            }
            Expr::Cast {
                expr, data_type, ..
            } => Some(cast_to(take_box(expr), data_type, self.env, &self.scopes)?),
            Expr::Convert {
                expr,
                data_type,
                charset,
                ..
            } => {
                if let Some(set) = charset {
                    crate::charset_names::charset_named(&set.to_string())?;
                }
                let x = match data_type {
                    Some(ty) => cast_to(take_box(expr), ty, self.env, &self.scopes)?,
                    None => take_box(expr),
                };
                // `CAST(x AS CHAR CHARACTER SET cs)` too: the characters cs lacks are '?'
                Some(converted(x, charset.as_ref(), &self.scopes))
            }
            Expr::Collate { collation, .. } => {
                *collation = sqlite_collation(&collation.to_string());
                None
            }
            Expr::Prefixed { prefix, value } => {
                let client = self
                    .env
                    .system_variable(VarScope::Session, "character_set_client");
                let client = match client {
                    Some(crate::Value::Text(c)) => SingleByte::named(&c),
                    _ => None,
                };
                introduced(&prefix.value, value, client)?
            }
            Expr::TypedString(t) => Some(typed_literal(t)),
            Expr::Extract { field, expr, .. } => Some(dates::extract(field, take_box(expr))?),
            Expr::Position { expr, r#in } => {
                let mut instr = func("instr", vec![take_box(r#in), take_box(expr)]);
                if let Expr::Function(f) = &mut instr {
                    self.function(f)?;
                }
                Some(instr)
            }
            Expr::Substring {
                special,
                shorthand,
                substring_from,
                substring_for,
                ..
            } => {
                crate::temporal_numbers::substring_bounds(
                    substring_from.as_deref_mut(),
                    substring_for.as_deref_mut(),
                    &self.scopes,
                );
                *special = true;
                *shorthand = false;
                None
            }
            Expr::Trim {
                trim_where,
                trim_what,
                expr,
                ..
            } => {
                let (name, mode) = match trim_where {
                    Some(TrimWhereField::Leading) => ("ltrim", "LEADING"),
                    Some(TrimWhereField::Trailing) => ("rtrim", "TRAILING"),
                    _ => ("trim", "BOTH"),
                };
                let mut trimmed = take_box(expr);
                if typing::type_of(&trimmed, &self.scopes) == typing::NumType::Double {
                    // A DOUBLE as MariaDB spells it (`1`, not SQLite's `1.0`).
                    trimmed = func("concat", vec![trimmed]);
                }
                Some(match trim_what.take() {
                    // MySQL removes the whole string, not any of its characters as SQLite
                    Some(what) => func("tutti_trim", vec![trimmed, *what, string(mode)]),
                    None => func(name, vec![trimmed]),
                })
            }
            Expr::MatchAgainst { .. } => {
                return Err(SqlError::Unsupported(
                    "MATCH ... AGAINST (full-text search)".into(),
                ))
            }
            Expr::MemberOf(_) => return Err(SqlError::Unsupported("MEMBER OF".into())),
            _ => None,
        };
        if let Some(r) = replacement {
            *e = r;
        }
        Ok(())
    }

    /// String functions see a BIT column's bytes, not its number (`CONCAT(b)`, `CRC32(b)`),
    /// and a FLOAT column's text as MariaDB shows it (see `typing::real_as_text`).
    fn column_strings(&self, f: &mut Function) {
        const BYTEWISE: [&str; 11] = [
            "concat",
            "concat_ws",
            "crc32",
            "crc32c",
            "length",
            "md5",
            "octet_length",
            "sha",
            "sha1",
            "sha2",
            "to_base64",
        ];
        // Functions whose first argument is read as a string.
        const STRING_FIRST: [&str; 23] = [
            "char_length",
            "character_length",
            "lcase",
            "left",
            "lower",
            "lpad",
            "ltrim",
            "mid",
            "quote",
            "repeat",
            "replace",
            "reverse",
            "right",
            "rpad",
            "rtrim",
            "substr",
            "substring",
            "substring_index",
            SUBSTRING_INDEX_SB,
            "ucase",
            "upper",
            "instr",
            "insert",
        ];
        let name = f.name.to_string().to_ascii_lowercase();
        let FunctionArguments::List(l) = &mut f.args else {
            return;
        };
        let string_args = match name.as_str() {
            n if BYTEWISE.contains(&n) => l.args.len(),
            n if STRING_FIRST.contains(&n) => 1,
            _ => 0,
        };
        // SQLite's own string functions would spell a DOUBLE `1.0`: MariaDB's `1` instead.
        let sqlite_builtin = matches!(name.as_str(), "ltrim" | "rtrim" | "trim" | "replace");
        for a in l.args.iter_mut().take(string_args) {
            if let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = a {
                if let Some(text) = typing::decimal_literal_text(e) {
                    *e = text;
                } else if let Some(text) = typing::real_as_text(e, &self.scopes) {
                    *e = text;
                } else if sqlite_builtin
                    && typing::type_of(e, &self.scopes) == typing::NumType::Double
                {
                    *e = func(
                        "concat",
                        vec![std::mem::replace(e, crate::ast_build::null())],
                    );
                }
            }
        }
        if !BYTEWISE.contains(&name.as_str()) {
            return;
        }
        for a in &mut l.args {
            if let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = a {
                if let Some(width) = typing::bit_width(e, &self.scopes) {
                    let col = std::mem::replace(e, crate::ast_build::null());
                    *e = func("tutti_bit_bytes", vec![col, number(width.to_string())]);
                }
            }
        }
    }

    fn identifier(&mut self, id: &mut Ident) -> Result<Option<Expr>, SqlError> {
        if id.quote_style.is_none() {
            if let Some(name) = id.value.strip_prefix("@@") {
                return self.system_variable(VarScope::Session, name).map(Some);
            }
            if let Some(name) = id.value.strip_prefix('@') {
                self.volatile = true;
                let name = name.to_ascii_lowercase();
                let v = self.env.user_variable(&name);
                if self.assigning {
                    // Earlier rows of this statement may have assigned it.
                    return Ok(Some(crate::user_vars::read_assigned(&name, &v)));
                }
                return Ok(Some(crate::user_vars::read(&v)));
            }
            if id.value.eq_ignore_ascii_case("CURRENT_USER") {
                return Ok(self.session_function("current_user"));
            }
        }
        quote(id);
        Ok(self.column_value(None, id))
    }

    /// A column reference read as a value, if its stored form is no value (see
    /// `big_unsigned` and `timestamps`).
    fn column_value(&self, qualifier: Option<&Ident>, name: &Ident) -> Option<Expr> {
        crate::big_unsigned::named_column_value(qualifier, name, &self.scopes).or_else(|| {
            self.zoned_timestamps
                .then(|| crate::timestamps::named_column_value(qualifier, name, &self.scopes))
                .flatten()
        })
    }

    fn compound(&mut self, ids: &mut Vec<Ident>) -> Result<Option<Expr>, SqlError> {
        if ids[0].quote_style.is_none() && ids[0].value.starts_with("@@") {
            let first = ids[0].value[2..].to_ascii_lowercase();
            let rest = ids[1..]
                .iter()
                .map(|i| i.value.as_str())
                .collect::<Vec<_>>()
                .join(".");
            let (scope, name) = match first.as_str() {
                "session" | "local" => (VarScope::Session, rest),
                "global" => (VarScope::Global, rest),
                _ => (VarScope::Session, format!("{first}.{rest}")),
            };
            return self.system_variable(scope, &name).map(Some);
        }
        if ids.len() == 3 {
            ids.remove(0);
        }
        ids.iter_mut().for_each(quote);
        Ok(match ids.as_slice() {
            [q, name] => self.column_value(Some(q), name),
            _ => None,
        })
    }

    fn system_variable(&mut self, scope: VarScope, name: &str) -> Result<Expr, SqlError> {
        let name = name.to_ascii_lowercase();
        self.volatile = true;
        match self.env.system_variable(scope, &name) {
            Some(v) => Ok(value_expr(&v)),
            None => Err(SqlError::UnknownSystemVariable(name)),
        }
    }

    /// `ESCAPE ''` is MariaDB's default escape character `\`, and error 1210 under
    /// `NO_BACKSLASH_ESCAPES`.
    fn empty_escape(&self, escape: &mut Option<Box<Expr>>) -> Result<(), SqlError> {
        let Some(e) = escape else { return Ok(()) };
        let empty = SqlValue::SingleQuotedString(String::new());
        if !matches!(&**e, Expr::Value(v) if v.value == empty) {
            return Ok(());
        }
        if crate::modes::SqlMode::of(self.env).has("NO_BACKSLASH_ESCAPES") {
            return Err(SqlError::WrongArguments(
                "Incorrect arguments to ESCAPE".into(),
            ));
        }
        **e = string("\\");
        Ok(())
    }

    /// The session's `group_concat_max_len` when it is not the default (1 MiB; so views,
    /// which take no session values, keep GROUP_CONCAT whole).
    fn group_concat_max_len(&mut self) -> Option<Expr> {
        let max = self
            .env
            .system_variable(VarScope::Session, "group_concat_max_len")
            .filter(|m| *m != crate::Value::Int(GROUP_CONCAT_MAX_LEN))?;
        self.volatile = true;
        Some(value_expr(&max))
    }

    fn session_function(&mut self, name: &str) -> Option<Expr> {
        let v = self.env.session_function(name)?;
        self.volatile = true;
        if name == "last_insert_id" && self.assigning {
            // An earlier `LAST_INSERT_ID(x)` of this statement may have set it.
            return Some(func(
                "tutti_get_var",
                vec![string(LAST_INSERT_ID_VAR), value_expr(&v)],
            ));
        }
        Some(value_expr(&v))
    }

    /// `NULLIF(x, y)` → `CASE WHEN x = y THEN NULL ELSE x END`, as MariaDB defines it: the
    /// comparison is MySQL's `x = y` (by number for a YEAR and a number, by the collation
    /// for strings), not SQLite's.
    fn nullif(&mut self, x: Expr, y: Expr) -> Result<Expr, SqlError> {
        let mut equal = binop(
            nested(x.clone()),
            sqlparser::ast::BinaryOperator::Eq,
            nested(y),
        );
        self.rewrite(&mut equal)?;
        Ok(crate::ast_build::case_when(
            equal,
            crate::ast_build::null(),
            x,
        ))
    }

    fn function(&mut self, f: &mut Function) -> Result<Option<Expr>, SqlError> {
        let [part] = f.name.0.as_slice() else {
            return Ok(None);
        };
        let Some(name) = part.as_ident().filter(|i| i.quote_style.is_none()) else {
            return Ok(None);
        };
        let lname = name.value.to_ascii_lowercase();
        let no_args = match &f.args {
            FunctionArguments::None => true,
            FunctionArguments::List(l) => l.args.is_empty() && l.clauses.is_empty(),
            FunctionArguments::Subquery(_) => false,
        };
        typing::range_frame_key(f, &self.scopes);
        if no_args && f.over.is_none() && SESSION_FUNCTIONS.contains(&lname.as_str()) {
            if let Some(e) = self.session_function(&lname) {
                return Ok(Some(e));
            }
        }
        dates::time_args_as_today(f, &lname, &self.scopes);
        if lname == "unix_timestamp" {
            unix_timestamp_of_column(f, &self.scopes);
        }
        if lname == "nullif" {
            if let [x, y] = typing::args(f).as_slice() {
                return self.nullif((*x).clone(), (*y).clone()).map(Some);
            }
        }
        if lname == "last_insert_id" {
            if let FunctionArguments::List(l) = &f.args {
                if let [FunctionArg::Unnamed(FunctionArgExpr::Expr(x))] = l.args.as_slice() {
                    // Returns x as an integer and makes it the session's last insert id.
                    let value = cast(x.clone(), sqlparser::ast::DataType::Integer(None));
                    return Ok(Some(func(
                        "tutti_set_var",
                        vec![string(LAST_INSERT_ID_VAR), value],
                    )));
                }
            }
        }
        let rename = match lname.as_str() {
            "current_timestamp" | "localtime" | "localtimestamp" => Some("NOW"),
            "current_date" => Some("CURDATE"),
            "current_time" => Some("CURTIME"),
            // INSERT is a keyword in SQLite; tutti registers MySQL's INSERT() under this name.
            "insert" => Some("tutti_insert"),
            // Oracle's names MariaDB also takes.
            "nvl" => Some("IFNULL"),
            "lengthb" => Some("LENGTH"),
            _ => None,
        };
        if let Some(new) = rename {
            f.name = ObjectName::from(vec![Ident::new(new)]);
            if matches!(f.args, FunctionArguments::None) {
                f.args = FunctionArguments::List(sqlparser::ast::FunctionArgumentList {
                    duplicate_treatment: None,
                    args: vec![],
                    clauses: vec![],
                });
            }
            return Ok(None);
        }
        match lname.as_str() {
            "json_arrayagg" => {
                let mut max_len = self.group_concat_max_len();
                if let FunctionArguments::List(list) = &mut f.args {
                    sorted_distinct(list);
                    // `LIMIT n` → a second argument, the number of values kept (NULL for
                    // all when the session's length limit follows). SQLite's DISTINCT
                    // aggregates take one argument: with DISTINCT the limit is refused and
                    // the length not cut.
                    let limit = take_limit(list);
                    if list.duplicate_treatment.is_some() {
                        if limit.is_some() {
                            return Err(SqlError::Unsupported(
                                "JSON_ARRAYAGG(DISTINCT ... LIMIT ...)".into(),
                            ));
                        }
                        max_len = None;
                    }
                    let limit = match (limit, &max_len) {
                        (None, Some(_)) => Some(crate::ast_build::null()),
                        (limit, _) => limit,
                    };
                    for arg in limit.into_iter().chain(max_len) {
                        list.args
                            .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(arg)));
                    }
                }
                Ok(None)
            }
            "group_concat" => {
                group_concat(f)?;
                // The result is cut to @@group_concat_max_len bytes, as in MariaDB.
                Ok(self
                    .group_concat_max_len()
                    .map(|max| func("tutti_cut_bytes", vec![Expr::Function(f.clone()), max])))
            }
            "str_to_date" => {
                // The zero dates the session's mode forbids give NULL (third argument); 4
                // when the format is no constant: the result is then a DATETIME(6).
                let constant = typing::args(f)
                    .get(1)
                    .is_some_and(|format| crate::typing::literal_format(format).is_some());
                let flags = crate::stored::zero_date_flags(self.env) | if constant { 0 } else { 4 };
                if let (FunctionArguments::List(list), true) = (&mut f.args, flags != 0) {
                    list.args
                        .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(number(
                            flags.to_string(),
                        ))));
                }
                Ok(None)
            }
            "date_add" | "adddate" | "date_sub" | "subdate" => dates::date_function(
                f,
                matches!(lname.as_str(), "date_sub" | "subdate"),
                &self.scopes,
            ),
            "timestampadd" => timestamp_add(f, &self.scopes),
            "addtime" | "subtime" => {
                dates::add_time_to_date(f, &self.scopes);
                Ok(dates::six_fraction_digits(f, &self.scopes))
            }
            "time" | "sec_to_time" | "timediff" => Ok(dates::six_fraction_digits(f, &self.scopes)),
            "date_format" => Ok(dates::date_format_of_time(f, &self.scopes)),
            "timestampdiff" => Ok(unit_argument(f, &lname)),
            // SQLite has no ISNULL() and wants two arguments to COALESCE.
            "isnull" => Ok(only_argument(f).map(|a| Expr::IsNull(Box::new(nested(a))))),
            "coalesce" => Ok(only_argument(f).map(nested)),
            "nvl2" => Ok(nvl2(f)),
            "name_const" => name_const(f).map(Some),
            "row" => Ok(row_constructor(f)),
            "tutti_default" => column_default(f, &self.scopes).map(Some),
            "tutti_set_var" => Ok(crate::user_vars::assignment(f, &self.scopes)),
            "least" | "greatest" => {
                // A DATE/DATETIME/TIME argument makes the strings among the others values of
                // its type (`LEAST(DATE'2001-01-01', '01-01-02')` compares dates).
                if let FunctionArguments::List(list) = &mut f.args {
                    let operands = list.args.iter_mut().filter_map(|a| match a {
                        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                        _ => None,
                    });
                    typing::temporal_operands(operands, &self.scopes);
                }
                Ok(typing::min_max(f, &lname, &self.scopes))
            }
            "locate" | "instr" | "field" => {
                // A case-sensitive argument (`'b' COLLATE latin1_bin`) makes the search exact.
                if typing::args(f)
                    .iter()
                    .any(|a| typing::case_sensitive(a, &self.scopes))
                {
                    f.name = ObjectName::from(vec![Ident::new(format!("tutti_{lname}_cs"))]);
                }
                Ok(None)
            }
            _ => Ok(None),
        }
    }
}

/// `UNIX_TIMESTAMP(c)` of a DATETIME or TIMESTAMP column → `UNIX_TIMESTAMP(c, fsp,
/// timestamp)`: MariaDB shows the column's fraction digits, and a TIMESTAMP's zero value
/// is 0 (a DATETIME's is NULL).
fn unix_timestamp_of_column(f: &mut Function, scopes: &Scopes) {
    let FunctionArguments::List(l) = &mut f.args else {
        return;
    };
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(x))] = l.args.as_slice() else {
        return;
    };
    let (timestamp, fsp) = match typing::temporal_kind(x, scopes) {
        Some(("timestamp", fsp)) => ("1", fsp),
        Some(("datetime", fsp)) => ("0", fsp),
        _ => return,
    };
    for extra in [number(fsp.to_string()), number(timestamp)] {
        l.args
            .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(extra)));
    }
}

/// A function of the client's given a row value (`FROM_DAYS(ROW(1, 1))`): MariaDB's 4079.
fn row_arguments(f: &Function) -> Result<(), SqlError> {
    let FunctionArguments::List(list) = &f.args else {
        return Ok(());
    };
    let row = list.args.iter().any(|a| {
        matches!(
            a,
            FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Tuple(_)))
        )
    });
    let name = f.name.to_string().to_ascii_lowercase();
    if row && !name.starts_with("tutti_") {
        return Err(SqlError::RowArgument(name));
    }
    Ok(())
}

/// `DEFAULT(col)` (`tutti_default`, see `spellings`): the column's default, 0 for the
/// AUTO_INCREMENT column, NULL for a nullable column without one, else MySQL's 1364.
fn column_default(f: &mut Function, scopes: &Scopes) -> Result<Expr, SqlError> {
    let arg = only_argument(f);
    let Some((table, column)) = arg.and_then(|a| typing::referenced_column(&a, scopes)) else {
        return Err(SqlError::Unsupported(
            "DEFAULT() of anything but a column".into(),
        ));
    };
    let parsed = |sql: &str| {
        sqlparser::parser::Parser::new(&crate::lexer::DIALECT)
            .try_with_sql(sql)
            .and_then(|mut p| p.parse_expr())
            .map_err(|_| SqlError::Unsupported(format!("DEFAULT() of the column {}", column.name)))
    };
    match &column.default {
        Some(sql) => match crate::columns::current_timestamp_value(sql) {
            Some(now) => Ok(now),
            None => parsed(sql).map(nested),
        },
        None if table.autoinc.as_deref() == Some(column.name.as_str()) => Ok(number("0")),
        None if column.not_null => Err(SqlError::NoDefault(column.name.clone())),
        None => Ok(Expr::value(SqlValue::Null)),
    }
}

/// `TIMESTAMPDIFF(unit, a, b)` → `tutti_timestampdiff('UNIT', a, b)`: the unit word
/// (parsed as a column name) becomes text, `SQL_TSI_` prefix dropped.
fn unit_argument(f: &mut Function, name: &str) -> Option<Expr> {
    let word = unit_word(f)?;
    let FunctionArguments::List(l) = &mut f.args else {
        return None;
    };
    let word = word.to_ascii_uppercase();
    let word = word.strip_prefix("SQL_TSI_").unwrap_or(&word).to_string();
    l.args[0] = FunctionArg::Unnamed(FunctionArgExpr::Expr(string(word)));
    f.name = ObjectName::from(vec![Ident::new(format!("tutti_{name}"))]);
    None
}

/// `ROW(a, b)`: MySQL's row constructor, SQLite's row value `(a, b)`.
fn row_constructor(f: &mut Function) -> Option<Expr> {
    let FunctionArguments::List(l) = &mut f.args else {
        return None;
    };
    let plain = |a: &FunctionArg| matches!(a, FunctionArg::Unnamed(FunctionArgExpr::Expr(_)));
    if l.args.len() < 2 || !l.clauses.is_empty() || !l.args.iter().all(plain) {
        return None;
    }
    let items = l.args.iter_mut().filter_map(|a| match a {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(take(e)),
        _ => None,
    });
    Some(Expr::Tuple(items.collect()))
}

/// `TIMESTAMPADD(unit, n, d)`: see `dates`.
fn timestamp_add(f: &mut Function, scopes: &Scopes) -> Result<Option<Expr>, SqlError> {
    let Some(word) = unit_word(f) else {
        return Ok(None);
    };
    let FunctionArguments::List(l) = &mut f.args else {
        return Ok(None);
    };
    let mut plain = l.args[1..].iter_mut().filter_map(|a| match a {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(take(e)),
        _ => None,
    });
    let (Some(n), Some(d)) = (plain.next(), plain.next()) else {
        return Ok(None);
    };
    dates::timestamp_add(&word, n, d, scopes).map(Some)
}

/// The unit word of a three-argument `TIMESTAMPDIFF` / `TIMESTAMPADD` call.
fn unit_word(f: &Function) -> Option<String> {
    let FunctionArguments::List(l) = &f.args else {
        return None;
    };
    match l.args.as_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Identifier(unit))), _, _] => {
            Some(unit.value.clone())
        }
        _ => None,
    }
}

/// The argument of a call with exactly one plain argument.
fn only_argument(f: &mut Function) -> Option<Expr> {
    let FunctionArguments::List(l) = &mut f.args else {
        return None;
    };
    match l.args.as_mut_slice() {
        [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))] if l.clauses.is_empty() => Some(take(e)),
        _ => None,
    }
}

/// `NVL2(x, a, b)`: `a` when x is not NULL, else `b`.
fn nvl2(f: &mut Function) -> Option<Expr> {
    let FunctionArguments::List(l) = &mut f.args else {
        return None;
    };
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(x)), FunctionArg::Unnamed(FunctionArgExpr::Expr(a)), FunctionArg::Unnamed(FunctionArgExpr::Expr(b))] =
        l.args.as_mut_slice()
    else {
        return None;
    };
    Some(Expr::Case {
        case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        operand: None,
        conditions: vec![sqlparser::ast::CaseWhen {
            condition: Expr::IsNotNull(Box::new(nested(take(x)))),
            result: take(a),
        }],
        else_result: Some(Box::new(take(b))),
    })
}

/// `NAME_CONST(name, value)`: the value (the result column is named by `item_names`). Both
/// must be constants, as in MariaDB (1210 otherwise).
fn name_const(f: &mut Function) -> Result<Expr, SqlError> {
    let incorrect = || SqlError::WrongArguments("Incorrect arguments to NAME_CONST".into());
    let FunctionArguments::List(l) = &mut f.args else {
        return Err(incorrect());
    };
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(name)), FunctionArg::Unnamed(FunctionArgExpr::Expr(value))] =
        l.args.as_mut_slice()
    else {
        return Err(incorrect());
    };
    let constant = |e: &Expr| match e {
        Expr::Value(_) | Expr::TypedString { .. } => true,
        Expr::UnaryOp { expr, .. } => matches!(expr.as_ref(), Expr::Value(_)),
        Expr::Cast { expr, .. } => matches!(expr.as_ref(), Expr::Value(_)),
        _ => false,
    };
    if !matches!(name, Expr::Value(_)) || !constant(value) {
        return Err(incorrect());
    }
    Ok(take(value))
}

/// Moves an expression out, leaving NULL behind.
fn take(e: &mut Expr) -> Expr {
    std::mem::replace(e, Expr::value(SqlValue::Null))
}

fn take_box(e: &mut Box<Expr>) -> Expr {
    take(e.as_mut())
}

/// Binary operators MySQL and SQLite spell differently.
fn binary(e: Expr, scopes: &Scopes) -> Result<Option<Expr>, SqlError> {
    let Expr::BinaryOp { left, op, right } = e else {
        return Ok(Some(e));
    };
    let (l, r) = (*left, *right);
    Ok(Some(match op {
        BinaryOperator::MyIntegerDivide => cast(
            nested(binop(nested(l), BinaryOperator::Divide, nested(r))),
            DataType::Integer(None),
        ),
        BinaryOperator::Divide => binop(
            binop(nested(l), BinaryOperator::Multiply, number("1.0")),
            BinaryOperator::Divide,
            nested(r),
        ),
        // SQLite's % truncates REALs to integers; MySQL's keeps the fraction (7.5 % 2 = 1.5).
        BinaryOperator::Modulo => func("mod", vec![l, r]),
        BinaryOperator::Spaceship => {
            Expr::IsNotDistinctFrom(Box::new(nested(l)), Box::new(nested(r)))
        }
        BinaryOperator::Xor => {
            let truth = |x| nested(binop(nested(x), BinaryOperator::NotEq, number("0")));
            binop(truth(l), BinaryOperator::NotEq, truth(r))
        }
        // MySQL's bit operators work on unsigned 64-bit values (`~0`, `1 << 63`).
        BinaryOperator::BitwiseXor
        | BinaryOperator::BitwiseOr
        | BinaryOperator::BitwiseAnd
        | BinaryOperator::PGBitwiseShiftLeft
        | BinaryOperator::PGBitwiseShiftRight => {
            let symbol = match op {
                BinaryOperator::BitwiseXor => "^",
                BinaryOperator::BitwiseOr => "|",
                BinaryOperator::BitwiseAnd => "&",
                BinaryOperator::PGBitwiseShiftLeft => "<<",
                _ => ">>",
            };
            func("tutti_bitop", vec![string(symbol), l, r])
        }
        BinaryOperator::Plus | BinaryOperator::Minus => {
            let subtract = op == BinaryOperator::Minus;
            match (l, r) {
                (base, Expr::Interval(i)) => dates::add_interval(base, &i, subtract, scopes)?,
                (Expr::Interval(i), base) if !subtract => {
                    dates::add_interval(base, &i, false, scopes)?
                }
                (l, r) => binop(l, op, r),
            }
        }
        op => binop(l, op, r),
    }))
}

/// Top-down part of the rewrite, before the children are visited: quantified comparisons
/// (`x > ALL (subquery)`) become what SQLite has (`quantified`); `BINARY x` compared with
/// something compares case-sensitively instead (`x COLLATE BINARY`), because a BLOB never
/// equals a TEXT in SQLite.
/// `SUBSTRING_INDEX` of a string in a single-byte character set (latin1, binary).
pub(crate) const SUBSTRING_INDEX_SB: &str = "tutti_substring_index_sb";

/// `SUBSTRING_INDEX` of a single-byte string → [`SUBSTRING_INDEX_SB`], which takes a
/// negative count from the right as MariaDB's single-byte path does; decided before the
/// arguments' introducers and conversions are rewritten away.
pub(crate) fn single_byte_search(e: &mut Expr, scopes: &Scopes, env: &dyn Env) {
    if let Expr::Function(f) = e {
        let name = typing::function_name(f);
        if name == "substring_index"
            && crate::derivation::single_byte(&Expr::Function(f.clone()), scopes, env)
        {
            f.name = ObjectName::from(vec![Ident::new(SUBSTRING_INDEX_SB)]);
        } else if BYTE_READERS.contains(&name.as_str()) {
            charset_bytes(f, scopes, env);
        }
    }
}

/// Functions whose result depends on a string argument's bytes (unlike `CONCAT`, which
/// only passes them on).
const BYTE_READERS: [&str; 10] = [
    "bit_length",
    "crc32",
    "hex",
    "length",
    "md5",
    "octet_length",
    "sha",
    "sha1",
    "sha2",
    "to_base64",
];

/// A byte function's argument in a single-byte character set → `tutti_charset_bytes(x,
/// 'latin1')`: MariaDB reads its bytes in that set (`LENGTH('é')` is 1 on a latin1
/// connection), where tutti holds UTF-8.
fn charset_bytes(f: &mut Function, scopes: &Scopes, env: &dyn Env) {
    if let FunctionArguments::List(l) = &mut f.args {
        if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(x))) = l.args.first_mut() {
            if let Some(set) = crate::derivation::single_byte_set(x, scopes, env) {
                let arg = std::mem::replace(x, crate::ast_build::null());
                *x = func("tutti_charset_bytes", vec![arg, string(set.name())]);
            }
        }
    }
}

pub(crate) fn pre_rewrite(e: &mut Expr, scopes: &Scopes) {
    simple_case_as_searched(e);
    crate::quantified::quantified(e);
    crate::json_types::mark_values(e, scopes);
    dates::time_literal_bases(e);
    if let Some(name) = assigned_variable(e) {
        // `@v := x` → `tutti_set_var('v', x)` (see tutti_storage's `variables`).
        let Expr::BinaryOp { right, .. } = e else {
            unreachable!("an assignment")
        };
        let value = take_box(right);
        *e = func("tutti_set_var", vec![string(&name), value]);
        return;
    }
    if let Expr::BinaryOp { left, op, right } = e {
        if crate::ast_build::is_comparison(op) {
            for side in [left, right] {
                if let Expr::Cast {
                    expr,
                    data_type: DataType::Binary(None),
                    ..
                } = side.as_mut()
                {
                    let inner = take_box(expr);
                    **side = Expr::Collate {
                        expr: Box::new(nested(inner)),
                        collation: ObjectName::from(vec![Ident::new("BINARY")]),
                    };
                }
            }
        }
    }
}

/// `CASE x WHEN v THEN r ...` → `CASE WHEN x = v THEN r ...` when evaluating `x` once per
/// WHEN changes nothing (no volatile function, subquery or variable in it): MySQL compares
/// `x` with each `v` as `x = v` does (numbers, DECIMALs such as `AVG(c)`, ENUM indexes,
/// temporal values, collations), which SQLite's own CASE comparison would not.
fn simple_case_as_searched(e: &mut Expr) {
    /// Functions whose value changes between calls, or that act.
    const VOLATILE: &[&str] = &[
        "rand",
        "uuid",
        "uuid_short",
        "sys_guid",
        "sysdate",
        "random_bytes",
        "sleep",
        "benchmark",
        "get_lock",
        "release_lock",
        "release_all_locks",
        "last_insert_id",
        "nextval",
        "setval",
        "lastval",
    ];
    fn plain(e: &Expr) -> bool {
        let mut repeatable = true;
        let _ = sqlparser::ast::visit_expressions(e, |x| {
            repeatable &= match x {
                Expr::Function(f) => !VOLATILE.contains(&typing::function_name(f).as_str()),
                Expr::Subquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => false,
                Expr::Identifier(i) => !i.value.starts_with('@'),
                Expr::BinaryOp {
                    op: BinaryOperator::Assignment,
                    ..
                } => false,
                _ => true,
            };
            std::ops::ControlFlow::<()>::Continue(())
        });
        repeatable
    }
    let Expr::Case {
        operand,
        conditions,
        ..
    } = e
    else {
        return;
    };
    if !operand.as_deref().is_some_and(plain) {
        return;
    }
    let x = operand.take().expect("a plain operand");
    for c in conditions {
        let v = std::mem::replace(&mut c.condition, crate::ast_build::null());
        let v = if plain(&v) { v } else { nested(v) };
        c.condition = binop(*x.clone(), BinaryOperator::Eq, v);
    }
}

/// Whether `e` is `LAST_INSERT_ID(x)`, which sets the session's last insert id.
pub(crate) fn sets_last_insert_id(e: &Expr) -> bool {
    // Called for every expression of every statement: no allocation.
    let Expr::Function(f) = e else {
        return false;
    };
    let named = matches!(f.name.0.as_slice(),
        [part] if part.as_ident().is_some_and(|i| i.value.eq_ignore_ascii_case("last_insert_id")));
    named && matches!(&f.args, FunctionArguments::List(l) if l.args.len() == 1)
}

/// The user variable `@v := x` assigns (lower case), if `e` is such an assignment.
pub(crate) fn assigned_variable(e: &Expr) -> Option<String> {
    match e {
        Expr::BinaryOp {
            left,
            op: BinaryOperator::Assignment,
            ..
        } => match left.as_ref() {
            Expr::Identifier(id) if id.quote_style.is_none() && !id.value.starts_with("@@") => {
                id.value.strip_prefix('@').map(str::to_ascii_lowercase)
            }
            _ => None,
        },
        _ => None,
    }
}

/// The SQLite collation for a MySQL one (see `columns::text_collation`; BINARY for the
/// `binary` charset).
pub(crate) fn sqlite_collation(mysql: &str) -> ObjectName {
    ObjectName::from(vec![Ident::new(crate::connection_collation::sqlite_of(
        mysql,
    ))])
}

/// `x LIKE p` matched in its operands' collation: with a binary operand or in a `_bin`
/// collation `tutti_like_bin(x, p, escape)` (exact, where SQLite's `like()`, which storage
/// replaces by MariaDB's, folds case), in a Unicode collation `tutti_like_uca(x, p, escape,
/// uca_520)` (each character by its UCA weights), in a single-byte set's
/// `tutti_like_single_byte(x, p, escape, collation)`; None: left to `like()` (general_ci).
/// Number literals are matched as written (see `typing::like_operand`).
fn collated_like(
    negated: bool,
    x: &mut Box<Expr>,
    pattern: &mut Box<Expr>,
    escape: &mut Option<Box<Expr>>,
    scopes: &Scopes,
) -> Option<Expr> {
    typing::like_operand(x);
    typing::like_operand(pattern);
    let collation = like_collation(x, pattern, scopes);
    let (function, collation) = if typing::case_sensitive(x, scopes)
        || typing::case_sensitive(pattern, scopes)
        || collation
            .as_deref()
            .is_some_and(crate::connection_collation::compares_bytes)
    {
        ("tutti_like_bin", None)
    } else {
        match own_like_collation(&collation?)? {
            LikeCollation::Unicode(which) => ("tutti_like_uca", Some(number(which.to_string()))),
            LikeCollation::SingleByte(name) => ("tutti_like_single_byte", Some(string(&name))),
        }
    };
    let escape = escape.take().map_or_else(|| string("\\"), |e| *e);
    let mut args = vec![take_box(x), take_box(pattern), escape];
    args.extend(collation);
    Some(not_if(negated, func(function, args)))
}

/// A collation `LIKE` matches in by its own weights.
enum LikeCollation {
    /// 0 `utf8mb4_unicode_ci`, 1 `utf8mb4_unicode_520_ci`.
    Unicode(usize),
    /// A single-byte character set's, by its SQLite name (`tutti_latin1_swedish_ci`).
    SingleByte(String),
}

/// The SQLite collation `x LIKE p` matches in: an explicit COLLATE decides, else either
/// operand's column, else the connection's where neither reads a column; None for
/// general_ci (a computed string of a column, say).
fn like_collation(x: &Expr, pattern: &Expr, scopes: &Scopes) -> Option<String> {
    let collation = |e: &Expr| match typing::unnested(e) {
        Expr::Collate { collation, .. } => Some(collation.to_string()),
        e => crate::derivation::column_collation(e, scopes),
    };
    let explicit = |e: &Expr| matches!(typing::unnested(e), Expr::Collate { .. });
    match [pattern, x].into_iter().find(|e| explicit(e)) {
        Some(e) => collation(e),
        None => [x, pattern].into_iter().find_map(collation).or_else(|| {
            (!typing::reads_column(x) && !typing::reads_column(pattern))
                .then(|| crate::connection_collation::sqlite().to_string())
        }),
    }
}

/// The collation LIKE matches in by its own weights, from its SQLite name.
fn own_like_collation(c: &str) -> Option<LikeCollation> {
    let unicode = [crate::columns::UNICODE_CI, crate::columns::UNICODE_520_CI]
        .iter()
        .position(|u| c.eq_ignore_ascii_case(u));
    match unicode {
        Some(which) => Some(LikeCollation::Unicode(which)),
        None => tutti_wsrep::charsets::Collation::registered_as(c)
            .map(|s| LikeCollation::SingleByte(s.sqlite_name().to_string())),
    }
}

/// `NOT (e)` when `negated`, else `e`.
fn not_if(negated: bool, e: Expr) -> Expr {
    if negated {
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr: Box::new(nested(e)),
        }
    } else {
        e
    }
}

/// `x REGEXP p` with a binary operand (`_bin` collation, binary string) →
/// `tutti_regexp_cs(p, x)`, which matches case-sensitively; None: left to `regexp()`.
fn binary_regexp(
    negated: bool,
    x: &mut Box<Expr>,
    pattern: &mut Box<Expr>,
    scopes: &Scopes,
) -> Option<Expr> {
    if !typing::case_sensitive(x, scopes) && !typing::case_sensitive(pattern, scopes) {
        return None;
    }
    let matched = func("tutti_regexp_cs", vec![take_box(pattern), take_box(x)]);
    Some(not_if(negated, matched))
}

/// `CAST(x AS type)` for a MySQL target type.
/// `DATE '..'`, `TIME '..'`, `TIMESTAMP '..'` → `tutti_temporal_literal('..', kind)`: the
/// canonical value (error 1525 when it is none, as in MariaDB), known to be temporal where
/// that matters (`CAST(DATE '2001-02-03' AS UNSIGNED)` is 20010203); other typed literals
/// are their value.
fn typed_literal(t: &sqlparser::ast::TypedString) -> Expr {
    let kind = match t.data_type {
        DataType::Date => "date",
        DataType::Time(..) => "time",
        DataType::Timestamp(..) | DataType::Datetime(_) => "datetime",
        _ => return rewrite_value(&t.value.value).unwrap_or_else(|| Expr::Value(t.value.clone())),
    };
    match &t.value.value {
        SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => time_ordered(
            func("tutti_temporal_literal", vec![string(s), string(kind)]),
            kind,
        ),
        _ => rewrite_value(&t.value.value).unwrap_or_else(|| Expr::Value(t.value.clone())),
    }
}

/// MySQL's numeric functions read hex and bit literals as numbers (`ROUND(0x41)` is 65; see
/// `typing::numeric`); string functions (`HEX`, `CONCAT`, ...) read their bytes.
fn numeric_arguments(f: &mut Function, scopes: &Scopes) {
    const NUMERIC: [&str; 35] = [
        "abs",
        "acos",
        "asin",
        "atan",
        "atan2",
        "avg",
        "bit_and",
        "bit_count",
        "bit_or",
        "bit_xor",
        "ceil",
        "ceiling",
        "char",
        "cos",
        "cot",
        "degrees",
        "exp",
        "floor",
        "ln",
        "log",
        "log10",
        "log2",
        "mod",
        "pow",
        "power",
        "radians",
        "round",
        "sign",
        "sin",
        "sqrt",
        "std",
        "stddev",
        "sum",
        "tan",
        "truncate",
    ];
    let name = f.name.to_string().to_ascii_lowercase();
    crate::temporal_numbers::count_arguments(&name, f, scopes);
    if NUMERIC.contains(&name.as_str()) || crate::having::DEVIATIONS.contains(&name.as_str()) {
        typing::numeric_args(f, 0);
        if let FunctionArguments::List(l) = &mut f.args {
            for a in &mut l.args {
                if let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = a {
                    typing::enum_as_number(e, scopes);
                    crate::temporal_numbers::numeric_argument(&name, e, scopes);
                }
            }
        }
    } else if name == "hex" {
        // A DECIMAL is hexed as a number, not as the text tutti holds it in.
        if let FunctionArguments::List(l) = &f.args {
            if let [FunctionArg::Unnamed(FunctionArgExpr::Expr(e))] = l.args.as_slice() {
                if typing::type_of(e, scopes) == typing::NumType::Decimal {
                    f.name = ObjectName::from(vec![Ident::new("tutti_hex_number")]);
                }
            }
        }
    } else if name == "format" {
        if let FunctionArguments::List(l) = &mut f.args {
            if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(e))) = l.args.first_mut() {
                // A DECIMAL literal as its digits (formatted exactly), a temporal value
                // as its number (`20191231`).
                typing::numeric(e);
                typing::temporal_as_number(e, scopes);
                if typing::type_of(e, scopes) == typing::NumType::Decimal {
                    *e = typing::operand(std::mem::replace(e, crate::ast_build::null()));
                    f.name = ObjectName::from(vec![Ident::new("tutti_dec_format")]);
                }
            }
        }
    }
}

/// `CONVERT(x USING cs)`: to a UTF-8 character set, binary data and numbers become text as
/// MariaDB converts them (`tutti_convert_utf8`, `CHAR(.. USING cs)` all or nothing); text
/// is UTF-8 already (a column keeps its index), though 4-byte characters have no utf8mb3
/// form. To a single-byte set, text loses the characters the set lacks (`?` instead,
/// `tutti_charset_text`). Other character sets keep the value (tutti holds text as UTF-8).
fn converted(x: Expr, charset: Option<&ObjectName>, scopes: &Scopes) -> Expr {
    let charset = charset.map(|c| c.to_string().to_ascii_lowercase());
    let name = match charset.as_deref() {
        Some("utf8" | "utf8mb3") => "utf8mb3",
        Some("utf8mb4") => "utf8mb4",
        Some(set) if tutti_wsrep::charsets::SingleByte::named(set).is_some() => {
            return func("tutti_charset_text", vec![x, string(set)]);
        }
        _ => return x,
    };
    let text =
        typing::type_of(&x, scopes) == typing::NumType::Str && !typing::is_binary_value(&x, scopes);
    if text && name == "utf8mb4" {
        return x;
    }
    let whole = matches!(&x, Expr::Function(f) if f.name.to_string().eq_ignore_ascii_case("char"));
    func(
        "tutti_convert_utf8",
        vec![x, string(name), number(if whole { "1" } else { "0" })],
    )
}

/// `FLOOR(x)` or `CEIL(x)` (`name`): of a hex or bit literal, an ENUM or a temporal value
/// as its number, of a TIME or DATETIME as one, of a DECIMAL exact.
fn floor_or_ceiling(name: &str, x: &mut Expr, scopes: &Scopes) -> Option<Expr> {
    typing::numeric(x);
    typing::enum_as_number(x, scopes);
    crate::temporal_numbers::numeric_argument(name, x, scopes);
    crate::temporal_numbers::rounded(name, x, None, scopes)
        .or_else(|| typing::rounding(name, x, scopes))
}

/// `ROUND(x[, places])`, `TRUNCATE(x, places)`, `CEILING(x)` of a TIME or DATETIME `x`
/// (see `temporal_numbers`).
fn temporal_rounding(f: &Function, scopes: &Scopes) -> Option<Expr> {
    let name = f.name.to_string().to_ascii_lowercase();
    if !matches!(
        name.as_str(),
        "round" | "truncate" | "ceiling" | "floor" | "ceil"
    ) || f.over.is_some()
    {
        return None;
    }
    let a = typing::args(f);
    crate::temporal_numbers::rounded(&name, a.first()?, a.get(1).copied(), scopes)
}

/// The date functions read a DECIMAL argument as a number (`DATE(10101.0)` is 2001-01-01),
/// from all its digits: it is cast to a DATETIME(6) first, where SQLite would hand them its
/// text (read as a string: `'10101'` is 2010-10-01).
fn decimal_dates(f: &mut Function, zero_dates: u32, scopes: &Scopes) {
    const DATE_READERS: [&str; 17] = [
        "date",
        "year",
        "month",
        "day",
        "dayofmonth",
        "dayofweek",
        "dayofyear",
        "weekday",
        "week",
        "yearweek",
        "to_days",
        "to_seconds",
        "dayname",
        "monthname",
        "quarter",
        "last_day",
        "weekofyear",
    ];
    let name = f.name.to_string().to_ascii_lowercase();
    if !DATE_READERS.contains(&name.as_str()) {
        return;
    }
    let FunctionArguments::List(l) = &mut f.args else {
        return;
    };
    if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(e))) = l.args.first_mut() {
        if typing::type_of(e, scopes) == typing::NumType::Decimal {
            let x = typing::operand(std::mem::replace(e, crate::ast_build::null()));
            *e = cast_temporal(x, "datetime", Some(6), zero_dates | DECIMAL_DIGITS);
        }
    }
}

fn cast_to(mut x: Expr, ty: &DataType, env: &dyn Env, scopes: &Scopes) -> Result<Expr, SqlError> {
    use DataType as T;
    let fractional_target = matches!(
        ty,
        T::Decimal(_)
            | T::Numeric(_)
            | T::Dec(_)
            | T::Double(_)
            | T::DoublePrecision
            | T::Float(_)
            | T::Real
    );
    let numeric_target = fractional_target
        || matches!(
            ty,
            T::Signed
                | T::SignedInteger
                | T::Unsigned
                | T::UnsignedInteger
                | T::Int(_)
                | T::Integer(_)
                | T::BigInt(_)
                | T::IntUnsigned(_)
                | T::IntegerUnsigned(_)
                | T::BigIntUnsigned(_)
        );
    // A JSON value is read as a number for DECIMAL and DOUBLE targets only: an integer or
    // temporal cast reads its text (`CAST(JSON_EXTRACT('{"x":"7"}', '$.x') AS SIGNED)` is 0).
    let json_text = typing::json_value(&x) && !fractional_target;
    if matches!(
        ty,
        T::Char(_) | T::Character(_) | T::Varchar(_) | T::Binary(_) | T::Varbinary(_) | T::Text
    ) {
        typing::as_string(&mut x);
    } else if !json_text {
        typing::numeric(&mut x);
    }
    if numeric_target {
        typing::enum_as_number(&mut x, scopes);
    }
    let zero_dates = crate::stored::zero_date_flags(env);
    // A length cuts the string to that many characters (bytes for BINARY, which also pads
    // with zero bytes, as CHAR does under `SET NAMES binary`), as MariaDB does.
    match ty {
        T::Char(Some(n)) | T::Character(Some(n)) | T::Varchar(Some(n)) | T::Nvarchar(Some(n)) => {
            if let CharacterLength::IntegerLength { length, .. } = n {
                let cast = if crate::derivation::binary_connection(env) {
                    "tutti_cast_binary"
                } else {
                    "tutti_cast_char"
                };
                return Ok(func(cast, vec![x, number(length.to_string())]));
            }
        }
        T::Binary(Some(n)) | T::Varbinary(Some(BinaryLength::IntegerLength { length: n })) => {
            return Ok(func("tutti_cast_binary", vec![x, number(n.to_string())]));
        }
        _ => {}
    }
    if matches!(
        ty,
        T::Char(None) | T::Character(None) | T::Varchar(None) | T::Text
    ) {
        if let Some(text) = typing::real_as_text(&x, scopes) {
            x = text;
        } else if typing::type_of(&x, scopes) == typing::NumType::Double {
            // SQLite would spell a REAL its own way (`1.0e+40`).
            x = func("tutti_real_text", vec![x, number("0"), number("-1")]);
        }
    }
    let target = match ty {
        T::Signed | T::SignedInteger | T::Int(_) | T::Integer(_) | T::BigInt(_) => {
            return Ok(typing::cast_int(x, false, scopes))
        }
        T::Unsigned
        | T::UnsignedInteger
        | T::IntUnsigned(_)
        | T::IntegerUnsigned(_)
        | T::BigIntUnsigned(_) => return Ok(typing::cast_int(x, true, scopes)),
        T::Char(_)
        | T::Character(_)
        | T::Varchar(_)
        | T::Nvarchar(_)
        | T::CharacterVarying(_)
        | T::CharVarying(_)
        | T::Text
        | T::JSON => T::Text,
        T::Decimal(info) | T::Numeric(info) | T::Dec(info) => {
            return typing::cast_decimal(x, info, scopes)
        }
        T::Double(info @ ExactNumberInfo::PrecisionAndScale(m, d)) => {
            // MariaDB bounds M and D as for a DECIMAL (1425, 1426, 1427).
            crate::decimal::DecimalType::of_info(info).map_err(|e| e.in_cast(&x.to_string()))?;
            let (m, d) = (u32::try_from(*m), u32::try_from(*d));
            if let (Ok(m), Ok(d)) = (m, d) {
                return Ok(crate::stored::double_cast(x, m, d));
            }
            T::Real
        }
        // (The targets MariaDB's CAST lacks are refused on the tokens: see `cast_targets`;
        // tutti's own casts are to REAL.)
        T::Float(_) | T::Float4 => {
            // The double as a FLOAT holds it, within FLOAT's range (note 1264 beyond).
            return Ok(func(typing::FLOAT_CAST, vec![cast(x, T::Real)]));
        }
        T::Double(_) | T::DoublePrecision | T::Real | T::Float8 => T::Real,
        T::Binary(_) | T::Varbinary(_) | T::Blob(_) => T::Blob(None),
        T::Date | T::Datetime(_) | T::Timestamp(..) => {
            // A DECIMAL is read as a number from all its digits (`20010203101112.121314`),
            // which its REAL would lose: its text, flagged as a number's.
            let (x, flags) = match typing::type_of(&x, scopes) {
                typing::NumType::Decimal => (typing::operand(x), zero_dates | DECIMAL_DIGITS),
                _ => (on_today(x, scopes), zero_dates),
            };
            let (kind, fsp) = match ty {
                T::Datetime(fsp) | T::Timestamp(fsp, _) => ("datetime", *fsp),
                _ => ("date", None),
            };
            return Ok(cast_temporal(x, kind, fsp, flags));
        }
        T::Time(fsp, _) => return Ok(cast_temporal(x, "time", *fsp, 0)),
        T::Custom(name, _) if name.to_string().eq_ignore_ascii_case("YEAR") => T::Integer(None),
        other => return Err(SqlError::Unsupported(format!("CAST to {other}"))),
    };
    Ok(cast(x, target))
}

/// A TIME cast to a DATE or DATETIME is that time on the current day (`CAST(TIME'26:00:00'
/// AS DATE)` is tomorrow), as MariaDB reads it; anything else is read as it is.
fn on_today(x: Expr, scopes: &Scopes) -> Expr {
    if dates::is_time(&x, scopes) {
        func("tutti_time_today", vec![x])
    } else {
        x
    }
}

/// The flag of `tutti_cast_temporal`'s last argument (beside the zero-date flags) that says
/// `x` is a DECIMAL's digits, to be read as a number.
const DECIMAL_DIGITS: u32 = 4;

/// `tutti_cast_temporal(x, kind, fsp, flags)`: MariaDB's reading of `x` as a DATE,
/// DATETIME or TIME (NULL when it is none, or a zero date `sql_mode` forbids).
fn cast_temporal(x: Expr, kind: &str, fsp: Option<u64>, zero_dates: u32) -> Expr {
    let fsp = number(fsp.unwrap_or(0).min(6).to_string());
    let zero_dates = number(zero_dates.to_string());
    time_ordered(
        func(
            "tutti_cast_temporal",
            vec![x, string(kind), fsp, zero_dates],
        ),
        kind,
    )
}

/// The flag of `tutti_cast_temporal`'s last argument that says its value is compared: there
/// MariaDB reads `x` loosely, an impossible day kept (`2008-02-30`) and anything else the
/// zero value with warning 1292, so `CAST('NULL' AS DATE) < '2008-01-01'` is 1 (NULL alone).
const COMPARED: u32 = 8;

/// Marks the temporal CASTs among a comparison's operands ([`COMPARED`]).
fn compared_casts<'a>(operands: impl IntoIterator<Item = &'a mut Expr>) {
    for operand in operands {
        let mut e = operand;
        while let Expr::Nested(x) | Expr::Collate { expr: x, .. } = e {
            e = x;
        }
        let Expr::Function(f) = e else { continue };
        if typing::function_name(f) != "tutti_cast_temporal" {
            continue;
        }
        let FunctionArguments::List(list) = &mut f.args else {
            continue;
        };
        if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(flags))) = list.args.get_mut(3) {
            let old: u32 = flags.to_string().parse().unwrap_or(0);
            *flags = number((old | COMPARED).to_string());
        }
    }
}

/// A TIME value compared and sorted as a duration (`COLLATE tutti_time`); others as they are.
fn time_ordered(e: Expr, kind: &str) -> Expr {
    if kind != "time" {
        return e;
    }
    Expr::Collate {
        expr: Box::new(e),
        collation: ObjectName::from(vec![Ident::new(crate::columns::TIME_ORDER)]),
    }
}

/// `GROUP_CONCAT([DISTINCT] a[, b...] [ORDER BY ..] [SEPARATOR s])` →
/// `group_concat([DISTINCT] a_or_concat[, s] [ORDER BY ..])`.
fn group_concat(f: &mut Function) -> Result<(), SqlError> {
    let FunctionArguments::List(list) = &mut f.args else {
        return Ok(());
    };
    let mut separator = None;
    list.clauses.retain(|c| match c {
        FunctionArgumentClause::Separator(v) => {
            separator = Some(v.value.clone());
            false
        }
        _ => true,
    });
    // `ORDER BY 2` sorts by the second argument, as in MariaDB.
    let args: Vec<Expr> = list
        .args
        .iter()
        .filter_map(|a| match a {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e.clone()),
            _ => None,
        })
        .collect();
    for clause in &mut list.clauses {
        if let FunctionArgumentClause::OrderBy(keys) = clause {
            for key in keys {
                let position = match &key.expr {
                    Expr::Value(v) => match &v.value {
                        SqlValue::Number(n, _) => n.parse::<usize>().ok(),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(n) = position {
                    key.expr = n
                        .checked_sub(1)
                        .and_then(|i| args.get(i))
                        .ok_or_else(|| SqlError::UnknownColumn {
                            column: n.to_string(),
                            table: "ORDER BY".into(),
                        })?
                        .clone();
                }
            }
        }
    }
    if list.args.len() > 1 {
        let parts: Vec<Expr> = list
            .args
            .drain(..)
            .filter_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect();
        list.args
            .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(func(
                "CONCAT", parts,
            ))));
    }
    let separator = separator.unwrap_or(SqlValue::SingleQuotedString(",".into()));
    let is_comma = matches!(&separator, SqlValue::SingleQuotedString(s) if s == ",");
    if list.duplicate_treatment.is_some() && !is_comma {
        // SQLite's DISTINCT aggregates take exactly one argument.
        return Err(SqlError::Unsupported(
            "GROUP_CONCAT(DISTINCT ... SEPARATOR ...)".into(),
        ));
    }
    let ordered = list
        .clauses
        .iter()
        .any(|c| matches!(c, FunctionArgumentClause::OrderBy(_)));
    if list.duplicate_treatment.is_some() && f.over.is_some() {
        return Err(SqlError::Unsupported(
            "GROUP_CONCAT(DISTINCT ...) as a window function".into(),
        ));
    }
    if ordered && f.over.is_none() {
        // Ties come out in reverse arrival order in MariaDB (see storage's aggregate.rs).
        for clause in &mut list.clauses {
            if let FunctionArgumentClause::OrderBy(keys) = clause {
                keys.push(sqlparser::ast::OrderByExpr {
                    expr: func("tutti_arrival", vec![]),
                    options: sqlparser::ast::OrderByOptions {
                        sort: Some(sqlparser::ast::OrderBySort::Desc),
                        nulls_first: None,
                    },
                    with_fill: None,
                });
            }
        }
    }
    sorted_distinct(list);
    let limit = take_limit(list);
    if limit.is_some() && list.duplicate_treatment.is_some() {
        return Err(SqlError::Unsupported(
            "GROUP_CONCAT(DISTINCT ... LIMIT ...)".into(),
        ));
    }
    if !is_comma || limit.is_some() {
        let sep = rewrite_value(&separator).unwrap_or_else(|| Expr::value(separator));
        list.args
            .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(sep)));
    }
    let name = match limit {
        // SQLite's group_concat has no LIMIT: tutti's aggregate keeps n values (after the
        // first `off`, from `LIMIT (off, n)`, see `spellings`).
        Some(limit) => {
            let (mut count, mut offset) = match limit {
                Expr::Tuple(mut pair) if pair.len() == 2 => {
                    let count = pair.pop().expect("two items");
                    (count, pair.pop())
                }
                n => (n, None),
            };
            crate::limit_params::aggregate(&mut count);
            offset.iter_mut().for_each(crate::limit_params::aggregate);
            list.args
                .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(count)));
            if let Some(offset) = offset {
                list.args
                    .push(FunctionArg::Unnamed(FunctionArgExpr::Expr(offset)));
            }
            "tutti_group_concat_limit"
        }
        None => "group_concat",
    };
    f.name = ObjectName::from(vec![Ident::new(name)]);
    Ok(())
}

/// `agg(DISTINCT e)` without `ORDER BY` → `agg(DISTINCT e ORDER BY e)`: MariaDB keeps
/// DISTINCT values in a sorted tree, so they come out in order; of values that tie (`'z'`,
/// `'Z'`) the tree keeps the first, so ties are sorted by arrival.
fn sorted_distinct(list: &mut sqlparser::ast::FunctionArgumentList) {
    let ordered = list
        .clauses
        .iter()
        .any(|c| matches!(c, FunctionArgumentClause::OrderBy(_)));
    if list.duplicate_treatment.is_none() || ordered {
        return;
    }
    if let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(e))) = list.args.first() {
        let key = |expr: Expr| sqlparser::ast::OrderByExpr {
            expr,
            options: Default::default(),
            with_fill: None,
        };
        list.clauses.push(FunctionArgumentClause::OrderBy(vec![
            key(e.clone()),
            key(func("tutti_arrival", vec![])),
        ]));
    }
}

/// Takes the `LIMIT n` clause out of an aggregate's arguments.
fn take_limit(list: &mut sqlparser::ast::FunctionArgumentList) -> Option<Expr> {
    let i = list
        .clauses
        .iter()
        .position(|c| matches!(c, FunctionArgumentClause::Limit(_)))?;
    match list.clauses.remove(i) {
        FunctionArgumentClause::Limit(n) => Some(n),
        _ => None,
    }
}

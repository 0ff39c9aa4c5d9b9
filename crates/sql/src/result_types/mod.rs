//! The column types MariaDB gives a query's result columns, derived from the expressions as
//! MariaDB derives them (its `Item` lengths, decimals, signedness and nullability), for the
//! columns `CREATE TABLE ... SELECT` creates.
//!
//! A column read as is keeps its definition (type, NOT NULL, DEFAULT). A computed column
//! gets MariaDB's type for its expression: literals by their spelling (`1` → `int(1)`,
//! `00.50` → `decimal(4,2)`, `'abc'` → `varchar(3)`), integer arithmetic by precision (`a+1`
//! over an `int(11)` → `bigint(12)`), DECIMAL arithmetic by MySQL's precision and scale
//! rules (`/` adds `div_precision_increment` = 4 digits), CAST by its target, aggregates
//! (`COUNT` → `bigint(21)`, `SUM` → 22 more digits, `AVG` → 4 more), IFNULL/COALESCE/IF/
//! CASE/GREATEST by MariaDB's type aggregation, and the common string and date functions.
//! NOT NULL follows MariaDB's nullability (`1+a` is NOT NULL when `a` is; `a/2`, `CONCAT(a)`
//! and casts to strings or dates never are).
//!
//! What is not covered here (a subquery, a column of a derived table, most functions) is
//! left unknown, and the executor falls back to a type that holds the values; the executor
//! also checks that the values fit the type given here before using it.

use sqlparser::ast::{
    BinaryOperator, CastKind, DataType, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArguments, JoinConstraint, SelectItem, SelectItemQualifiedWildcardKind, TableFactor,
    TableWithJoins, UnaryOperator, Value as SqlValue,
};

use crate::decimal::DecimalType;
use crate::typing::{Scope, Scopes};
use crate::{ColumnInfo, TableInfo};

mod temporal;
mod window;

/// MariaDB's `div_precision_increment` default: digits a division adds to the scale.
const DIV_PRECISION_INCREMENT: u32 = 4;
/// Strings longer than this many characters become TEXT/BLOB columns.
const VARCHAR_LIMIT: u32 = 512;
/// DECIMAL's most digits and most fraction digits.
const MAX_PRECISION: u32 = 65;
const MAX_SCALE: u32 = 38;
/// Bytes per character of the default character set (utf8mb4).
const MBMAXLEN: u32 = 4;

/// The type of one result column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultType {
    /// A table column read as is: its definition is copied.
    Column {
        /// The column.
        column: ColumnInfo,
        /// It is the table's AUTO_INCREMENT column (copied as `NOT NULL DEFAULT 0`).
        autoinc: bool,
        /// An ENUM or SET column's members.
        members: Option<Vec<String>>,
        /// Its DEFAULT when an expression, as MariaDB prints it (see
        /// `column_marks::shown_default`).
        shown_default: Option<String>,
    },
    /// A computed value.
    Computed {
        /// Its MySQL type (`bigint(12)`, `decimal(14,4)`, `varchar(11)`).
        mysql_type: String,
        /// It is never NULL (the column is created NOT NULL).
        not_null: bool,
    },
}

impl ResultType {
    /// Table `t`'s column `c` read as it is (a view's or derived table's computed column:
    /// its expression's type).
    fn of_column(t: &TableInfo, c: &ColumnInfo) -> ResultType {
        if let Some(mysql_type) = &c.computed {
            return ResultType::Computed {
                mysql_type: mysql_type.clone(),
                not_null: c.not_null,
            };
        }
        ResultType::Column {
            column: c.clone(),
            autoinc: t.autoinc.as_deref() == Some(c.name.as_str()),
            members: crate::has_members(&c.decl_type)
                .then(|| t.enum_members(&c.name))
                .flatten(),
            shown_default: crate::shown_defaults(&t.create_sql)
                .into_iter()
                .find(|(name, _)| *name == c.name)
                .map(|(_, d)| d),
        }
    }
}

/// Whether a select list has a computed item (not a column) and no `*`, so that its items
/// are the result's columns one for one.
pub(crate) fn computes(items: &[SelectItem]) -> bool {
    let computed = |item: &SelectItem| match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
            !matches!(unnest(e), Expr::Identifier(_) | Expr::CompoundIdentifier(_))
        }
        _ => false,
    };
    let wildcard = |item: &SelectItem| {
        !matches!(
            item,
            SelectItem::UnnamedExpr(_) | SelectItem::ExprWithAlias { .. }
        )
    };
    items.iter().any(computed) && !items.iter().any(wildcard)
}

/// The computed dates, times, DECIMALs and fixed-decimal DOUBLEs among result `types`, by
/// position.
pub(crate) fn computed_types(types: &[Option<ResultType>]) -> Vec<(usize, crate::ComputedType)> {
    use crate::ComputedType as T;
    let numbers = |t: &str| -> Vec<u8> {
        let inner = t.split_once('(').and_then(|(_, d)| d.split(')').next());
        inner
            .map(|d| d.split(',').filter_map(|n| n.trim().parse().ok()).collect())
            .unwrap_or_default()
    };
    let of = |t: &str| -> Option<T> {
        let name = t.split('(').next()?;
        let fsp = numbers(t).first().copied().unwrap_or(0);
        Some(match name {
            "date" => T::Date,
            "datetime" => T::Datetime(fsp),
            "timestamp" => T::Timestamp(fsp),
            "time" => T::Time(fsp),
            "double" => match numbers(t)[..] {
                [length, decimals] => T::Double { length, decimals },
                _ => return None,
            },
            "decimal" => match numbers(t)[..] {
                [precision, scale] => T::Decimal {
                    precision,
                    scale,
                    unsigned: t.ends_with("unsigned"),
                },
                _ => return None,
            },
            _ => return None,
        })
    };
    types
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match t {
            Some(ResultType::Computed { mysql_type, .. }) => Some((i, of(mysql_type)?)),
            _ => None,
        })
        .collect()
}

/// The result types of a select list (None where unknown), `*` expanded; empty when a `*`
/// cannot be expanded (a FROM item that is not a known table, a join that merges columns).
pub(crate) fn of_projection(
    items: &[SelectItem],
    from: &[TableWithJoins],
    scopes: &Scopes,
) -> Vec<Option<ResultType>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                out.push(of_expr(e, scopes));
            }
            wildcard => {
                let Some(columns) = wildcard_columns(wildcard, from, scopes) else {
                    return Vec::new();
                };
                out.extend(
                    columns
                        .into_iter()
                        .map(|(t, c)| Some(ResultType::of_column(t, c))),
                );
            }
        }
    }
    out
}

/// The columns a `*` or `t.*` item of a SELECT stands for, in order; None when it cannot be
/// expanded (see `of_projection`) or the item is no wildcard.
pub(crate) fn wildcard_columns<'a>(
    item: &SelectItem,
    from: &[TableWithJoins],
    scopes: &'a Scopes,
) -> Option<Vec<(&'a TableInfo, &'a ColumnInfo)>> {
    let qualifier = match item {
        SelectItem::Wildcard(_) => None,
        SelectItem::QualifiedWildcard(SelectItemQualifiedWildcardKind::ObjectName(n), _) => {
            n.0.last()
                .and_then(|p| p.as_ident())
                .map(|i| i.value.clone())
        }
        _ => return None,
    };
    let tables = plain_tables(from, scopes)?;
    Some(
        tables
            .iter()
            .filter(|t| qualifier.as_ref().is_none_or(|q| *q == t.alias))
            .flat_map(|t| t.table.columns.iter().map(move |c| (&t.table, c)))
            .collect(),
    )
}

/// The tables of a FROM clause in order, when each item is a table in scope and no join
/// merges columns (`USING`, `NATURAL`).
fn plain_tables<'a>(from: &[TableWithJoins], scopes: &'a Scopes) -> Option<&'a [Scope]> {
    let scope = scopes.last()?;
    let mut count = 0;
    for twj in from {
        if !matches!(twj.relation, TableFactor::Table { .. }) {
            return None;
        }
        count += 1;
        for j in &twj.joins {
            let merging = match crate::natural::constraint(&j.join_operator) {
                Some(c) => matches!(c, JoinConstraint::Using(_) | JoinConstraint::Natural),
                None => true,
            };
            if merging || !matches!(j.relation, TableFactor::Table { .. }) {
                return None;
            }
            count += 1;
        }
    }
    (count == scope.len()).then_some(scope.as_slice())
}

/// The scale of an exact (integer or DECIMAL) expression; None for other types.
pub(crate) fn exact_scale(e: &Expr, scopes: &Scopes) -> Option<u32> {
    Infer { scopes }.expr(e)?.exact().map(|(_, scale)| scale)
}

/// A number as MariaDB's type aggregation tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Numeric {
    /// An integer or DECIMAL, with its scale.
    Exact(u32),
    /// A DOUBLE.
    Double,
    /// A FLOAT (MariaDB shows it with its own digits: left alone).
    Float,
    /// The NULL literal (of no type).
    Null,
}

/// What kind of number `e` is; None for other types and when not known.
pub(crate) fn numeric(e: &Expr, scopes: &Scopes) -> Option<Numeric> {
    let t = Infer { scopes }.expr(e)?;
    match t.class {
        Class::Int(_) | Class::Decimal => Some(Numeric::Exact(t.scale_of())),
        Class::Double => Some(Numeric::Double),
        Class::Float => Some(Numeric::Float),
        Class::Null => Some(Numeric::Null),
        _ => None,
    }
}

/// The result type of one expression.
fn of_expr(e: &Expr, scopes: &Scopes) -> Option<ResultType> {
    if let Some((table, column)) = column(unnest(e), scopes) {
        return Some(ResultType::of_column(table, column));
    }
    let t = Infer { scopes }.expr(e)?;
    Some(ResultType::Computed {
        mysql_type: t.mysql_type()?,
        not_null: !t.nullable,
    })
}

fn unnest(mut e: &Expr) -> &Expr {
    while let Expr::Nested(inner) = e {
        e = inner;
    }
    e
}

/// The second argument of `f` when it is a literal integer (`ROUND(x, -2)`).
fn literal_places(f: &Function) -> Option<i128> {
    let FunctionArguments::List(l) = &f.args else {
        return None;
    };
    let Some(FunctionArg::Unnamed(FunctionArgExpr::Expr(e))) = l.args.get(1) else {
        return None;
    };
    let (negative, e) = match unnest(e) {
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } => (true, unnest(expr)),
        e => (false, e),
    };
    match e {
        Expr::Value(v) => match &v.value {
            SqlValue::Number(n, _) => {
                let n: i128 = n.parse().ok()?;
                Some(if negative { -n } else { n })
            }
            _ => None,
        },
        _ => None,
    }
}

/// The table column `e` names, and whether it is its table's AUTO_INCREMENT column.
fn column<'a>(e: &Expr, scopes: &'a Scopes) -> Option<(&'a TableInfo, &'a ColumnInfo)> {
    let (qualifier, name) = match e {
        Expr::Identifier(i) => (None, &i.value),
        Expr::CompoundIdentifier(ids) if ids.len() == 2 => (Some(&ids[0].value), &ids[1].value),
        _ => return None,
    };
    let scope = scopes.last()?;
    let mut found = scope.iter().filter_map(|s| {
        if qualifier.is_some_and(|q| *q != s.alias) {
            return None;
        }
        let c = s
            .table
            .columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))?;
        Some((&s.table, c))
    });
    let first = found.next()?;
    found.next().is_none().then_some(first)
}

/// The kinds of values MariaDB's type aggregation tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// An integer type (`tinyint` .. `bigint`, by its rank 1..5).
    Int(u8),
    Decimal,
    Double,
    Float,
    /// Characters.
    Str,
    /// Bytes.
    Bin,
    /// Characters of a TEXT column (aggregated and passed on, it stays a TEXT type).
    Text,
    /// Bytes of a BLOB column.
    Blob,
    Date,
    Datetime,
    Timestamp,
    Time,
    Year,
    /// The NULL literal.
    Null,
}

const INT_NAMES: [&str; 5] = ["tinyint", "smallint", "mediumint", "int", "bigint"];
const INT_RANK: u8 = 4;
const BIGINT_RANK: u8 = 5;

/// What MariaDB knows of an expression's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty {
    class: Class,
    /// Integers: display length (digits and sign); DECIMAL: precision; strings: characters
    /// (bytes for `Bin`); temporal: fraction digits.
    len: u32,
    /// DECIMAL: scale. Integers: digits (precision).
    scale: u32,
    unsigned: bool,
    nullable: bool,
}

impl Ty {
    fn new(class: Class, len: u32, scale: u32, nullable: bool) -> Ty {
        Ty {
            class,
            len,
            scale,
            unsigned: false,
            nullable,
        }
    }

    /// An integer computed with `digits` digits: `int` below 10 characters, else `bigint`.
    fn computed_int(digits: u32, unsigned: bool, nullable: bool) -> Ty {
        let len = digits + u32::from(!unsigned);
        let rank = if len < 10 { INT_RANK } else { BIGINT_RANK };
        Ty {
            class: Class::Int(rank),
            len,
            scale: digits,
            unsigned,
            nullable,
        }
    }

    fn decimal(precision: u32, scale: u32, nullable: bool) -> Ty {
        let scale = scale.min(MAX_SCALE);
        Ty::new(
            Class::Decimal,
            precision.clamp(scale.max(1), MAX_PRECISION),
            scale,
            nullable,
        )
    }

    fn boolean(nullable: bool) -> Ty {
        Ty::computed_int(1, false, nullable).with_len(1)
    }

    fn with_len(mut self, len: u32) -> Ty {
        self.len = len;
        self
    }

    fn nullable(mut self, nullable: bool) -> Ty {
        self.nullable = nullable;
        self
    }

    fn bigint(mut self) -> Ty {
        self.class = Class::Int(BIGINT_RANK);
        self
    }

    /// Fraction digits (0 for integers).
    fn scale_of(&self) -> u32 {
        match self.class {
            Class::Decimal => self.scale,
            _ => 0,
        }
    }

    /// Digits before the point (integers and DECIMALs).
    fn int_digits(&self) -> u32 {
        match self.class {
            Class::Int(_) => self.scale,
            _ => self.len - self.scale,
        }
    }

    /// As a DECIMAL (precision, scale), for integers and DECIMALs.
    fn exact(&self) -> Option<(u32, u32)> {
        match self.class {
            Class::Int(_) => Some((self.scale, 0)),
            Class::Decimal => Some((self.len, self.scale)),
            _ => None,
        }
    }

    /// The characters its values print as (MariaDB's `max_char_length`).
    fn char_len(&self) -> u32 {
        match self.class {
            Class::Int(_) | Class::Str | Class::Bin | Class::Text | Class::Blob => self.len,
            Class::Decimal => self.len + u32::from(self.scale > 0) + u32::from(!self.unsigned),
            Class::Double => 22,
            Class::Float => 12,
            Class::Date => 10,
            Class::Datetime | Class::Timestamp => 19 + self.fraction(),
            Class::Time => 10 + self.fraction(),
            Class::Year => 4,
            Class::Null => 0,
        }
    }

    fn fraction(&self) -> u32 {
        if self.len > 0 {
            self.len + 1
        } else {
            0
        }
    }

    fn is_number(&self) -> bool {
        matches!(
            self.class,
            Class::Int(_) | Class::Decimal | Class::Double | Class::Float
        )
    }

    fn is_temporal(&self) -> bool {
        matches!(
            self.class,
            Class::Date | Class::Datetime | Class::Timestamp | Class::Time
        )
    }

    /// The column type MariaDB creates for it.
    fn mysql_type(&self) -> Option<String> {
        let fsp = |name: &str| match self.len {
            0 => name.to_string(),
            n => format!("{name}({n})"),
        };
        let unsigned = if self.unsigned { " unsigned" } else { "" };
        Some(match self.class {
            Class::Int(rank) => format!(
                "{}({}){unsigned}",
                INT_NAMES[usize::from(rank - 1)],
                self.len
            ),
            Class::Decimal => format!("decimal({},{}){unsigned}", self.len, self.scale),
            Class::Double if self.scale > 0 => format!("double({},{})", self.len, self.scale),
            Class::Double => "double".into(),
            Class::Float => "float".into(),
            Class::Str if self.len <= VARCHAR_LIMIT => format!("varchar({})", self.len),
            Class::Str => blob_type("text", self.len.saturating_mul(MBMAXLEN)),
            Class::Bin if self.len <= VARCHAR_LIMIT => format!("varbinary({})", self.len),
            Class::Bin | Class::Blob => blob_type("blob", self.len),
            Class::Text => blob_type("text", self.len.saturating_mul(MBMAXLEN)),
            Class::Date => "date".into(),
            Class::Datetime => fsp("datetime"),
            Class::Timestamp => fsp("timestamp"),
            Class::Time => fsp("time"),
            Class::Year => "year(4)".into(),
            Class::Null => "binary(0)".into(),
        })
    }

    /// A column's type as an operand.
    fn of_column(c: &ColumnInfo) -> Option<Ty> {
        let d = c.decl_type.to_ascii_lowercase();
        let nullable = !c.not_null;
        let unsigned = d.contains("unsigned");
        let name = d.split(['(', ' ']).next().unwrap_or("");
        let arg = || -> Option<u32> {
            d.split_once('(')?
                .1
                .split([')', ','])
                .next()?
                .trim()
                .parse()
                .ok()
        };
        if let Some(dec) = DecimalType::of_decl(&c.decl_type) {
            let mut t = Ty::decimal(dec.precision, dec.scale, nullable);
            t.unsigned = unsigned;
            return Some(t);
        }
        let int = |rank: u8, signed_len: u32| {
            // a display width does not change what MariaDB computes with the column
            let len = signed_len - u32::from(unsigned && rank != BIGINT_RANK);
            Ty {
                class: Class::Int(rank),
                len,
                scale: len - u32::from(!unsigned),
                unsigned,
                nullable,
            }
        };
        Some(match name {
            "tinyint" => int(1, 4),
            "smallint" => int(2, 6),
            "mediumint" => int(3, 9),
            "int" | "integer" => int(INT_RANK, 11),
            "bigint" => int(BIGINT_RANK, 20),
            "double" | "real" => Ty::new(Class::Double, 0, 0, nullable),
            "float" => Ty::new(Class::Float, 0, 0, nullable),
            "char" | "varchar" => Ty::new(Class::Str, arg().unwrap_or(1), 0, nullable),
            // MariaDB counts a TEXT's length in characters as its length in bytes
            "tinytext" => Ty::new(Class::Text, 255, 0, nullable),
            "text" => Ty::new(Class::Text, 65_535, 0, nullable),
            "mediumtext" => Ty::new(Class::Text, 16_777_215, 0, nullable),
            "longtext" => Ty::new(Class::Text, u32::MAX, 0, nullable),
            "tinyblob" => Ty::new(Class::Blob, 255, 0, nullable),
            "blob" => Ty::new(Class::Blob, 65_535, 0, nullable),
            "mediumblob" => Ty::new(Class::Blob, 16_777_215, 0, nullable),
            "longblob" => Ty::new(Class::Blob, u32::MAX, 0, nullable),
            "binary" | "varbinary" => Ty::new(Class::Bin, arg().unwrap_or(1), 0, nullable),
            "date" => Ty::new(Class::Date, 0, 0, nullable),
            "datetime" => Ty::new(Class::Datetime, arg().unwrap_or(0), 0, nullable),
            "timestamp" => Ty::new(Class::Timestamp, arg().unwrap_or(0), 0, nullable),
            "time" => Ty::new(Class::Time, arg().unwrap_or(0), 0, nullable),
            "year" => Ty::new(Class::Year, 0, 0, nullable),
            _ => return None,
        })
    }
}

/// The TEXT or BLOB type that holds `bytes`.
fn blob_type(family: &str, bytes: u32) -> String {
    let size = match bytes {
        0..=255 => "tiny",
        256..=65_535 => "",
        65_536..=16_777_215 => "medium",
        _ => "long",
    };
    format!("{size}{family}")
}

/// MariaDB's type aggregation (IFNULL, COALESCE, IF, CASE, GREATEST): None when the mix is
/// not one derived here.
fn aggregate(types: &[Ty]) -> Option<Ty> {
    let known: Vec<&Ty> = types.iter().filter(|t| t.class != Class::Null).collect();
    let nullable = types.iter().any(|t| t.nullable);
    let Some(first) = known.first() else {
        return Some(Ty::new(Class::Null, 0, 0, true));
    };
    let all = |f: &dyn Fn(&Ty) -> bool| known.iter().all(|t| f(t));
    if all(&|t| matches!(t.class, Class::Int(_))) {
        let rank = known
            .iter()
            .map(|t| match t.class {
                Class::Int(r) => r,
                _ => 0,
            })
            .max()?;
        let unsigned = all(&|t| t.unsigned);
        let digits = known.iter().map(|t| t.scale).max()?;
        return Some(Ty {
            class: Class::Int(rank),
            len: digits + u32::from(!unsigned),
            scale: digits,
            unsigned,
            nullable,
        });
    }
    if all(&|t| t.exact().is_some()) {
        let int = known.iter().map(|t| t.int_digits()).max()?;
        let scale = known.iter().map(|t| t.scale_of()).max()?;
        return Some(Ty::decimal(int + scale, scale, nullable));
    }
    if all(&|t| t.is_number()) {
        let class = if all(&|t| t.class == Class::Float) {
            Class::Float
        } else {
            Class::Double
        };
        return Some(Ty::new(class, 0, 0, nullable));
    }
    if all(&|t| t.is_temporal()) {
        let class = if all(&|t| t.class == first.class) {
            first.class
        } else if all(&|t| matches!(t.class, Class::Date | Class::Datetime)) {
            Class::Datetime
        } else {
            return None;
        };
        let fsp = known.iter().map(|t| t.len).max()?;
        return Some(Ty::new(class, fsp, 0, nullable));
    }
    let binary = |t: &Ty| matches!(t.class, Class::Bin | Class::Blob);
    if !known.iter().any(|t| binary(t) || t.class == Class::Year)
        && known
            .iter()
            .any(|t| matches!(t.class, Class::Str | Class::Text))
    {
        let len = known.iter().map(|t| t.char_len()).max()?;
        let class = if known.iter().any(|t| t.class == Class::Text) {
            Class::Text
        } else {
            Class::Str
        };
        return Some(Ty::new(class, len, 0, nullable));
    }
    None
}

struct Infer<'a> {
    scopes: &'a Scopes,
}

impl Infer<'_> {
    fn expr(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Nested(inner) => self.expr(inner),
            // an exact value tutti computes (`typing::collated`)
            Expr::Collate { expr, collation }
                if collation.to_string() == crate::decimal::COLLATION =>
            {
                self.expr(expr)
            }
            Expr::Function(f)
                if [
                    crate::big_unsigned::VALUE,
                    crate::timestamps::READ,
                    crate::typing::SHOWN,
                    crate::typing::HELD_DOUBLE,
                ]
                .contains(&crate::typing::function_name(f).as_str()) =>
            {
                self.expr(crate::typing::args(f).first()?)
            }
            Expr::Function(f) if exact_operator(f).is_some() => {
                let [l, r] = crate::typing::args(f)[..] else {
                    return None;
                };
                arithmetic(&self.operand(l)?, &exact_operator(f)?, &self.operand(r)?)
            }
            Expr::Function(f) if crate::typing::function_name(f) == "tutti_dec_cast" => {
                // `tutti_dec_cast(x, p, s)`: CAST(x AS DECIMAL(p,s)) (`typing`).
                let [x, p, s] = crate::typing::args(f)[..] else {
                    return None;
                };
                let number = |e: &Expr| match e {
                    Expr::Value(v) => match &v.value {
                        SqlValue::Number(n, _) => n.parse().ok(),
                        _ => None,
                    },
                    _ => None,
                };
                Some(Ty::decimal(
                    number(p)?,
                    number(s)?,
                    self.operand(x)?.nullable,
                ))
            }
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => {
                Ty::of_column(column(e, self.scopes)?.1)
            }
            Expr::Value(v) => literal(&v.value),
            // `TIME'10:00:00.25'`: its kind, with the digits written.
            Expr::TypedString(t) => {
                let digits = match &t.value.value {
                    SqlValue::SingleQuotedString(s) => text_fraction_digits(s),
                    _ => return None,
                };
                Some(match t.data_type {
                    DataType::Date => Ty::new(Class::Date, 0, 0, false),
                    DataType::Time(..) => Ty::new(Class::Time, digits, 0, false),
                    DataType::Timestamp(..) | DataType::Datetime(_) => {
                        Ty::new(Class::Datetime, digits, 0, false)
                    }
                    _ => return None,
                })
            }
            Expr::UnaryOp { op, expr } => self.unary(op, expr),
            Expr::BinaryOp { left, op, right } => self.binary(left, op, right),
            Expr::IsNull(_) | Expr::IsNotNull(_) => Some(Ty::boolean(false)),
            Expr::IsTrue(x) | Expr::IsFalse(x) | Expr::IsNotTrue(x) | Expr::IsNotFalse(x) => {
                self.expr(x).map(|_| Ty::boolean(false))
            }
            Expr::InList { expr, list, .. } => {
                let mut nullable = self.expr(expr)?.nullable;
                for x in list {
                    nullable |= self.expr(x)?.nullable;
                }
                Some(Ty::boolean(nullable))
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                let nullable = [expr, low, high]
                    .iter()
                    .map(|x| self.expr(x).map(|t| t.nullable))
                    .collect::<Option<Vec<_>>>()?;
                Some(Ty::boolean(nullable.contains(&true)))
            }
            Expr::Like { expr, pattern, .. } => {
                let nullable = self.expr(expr)?.nullable || self.expr(pattern)?.nullable;
                Some(Ty::boolean(nullable))
            }
            Expr::Cast {
                kind: CastKind::Cast,
                expr,
                data_type,
                ..
            } => self.cast(expr, data_type),
            Expr::Convert {
                expr,
                data_type: Some(data_type),
                charset: None,
                ..
            } => self.cast(expr, data_type),
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                if let Some(o) = operand {
                    self.expr(o)?;
                }
                let mut results = Vec::new();
                for w in conditions {
                    self.expr(&w.condition)?;
                    results.push(self.expr(&w.result)?);
                }
                match else_result {
                    Some(e) => results.push(self.expr(e)?),
                    None => results.push(Ty::new(Class::Null, 0, 0, true)),
                }
                aggregate(&results)
            }
            Expr::Function(f) => self.function(f),
            _ => None,
        }
    }

    /// An operand of tutti's exact arithmetic: a string there is a DECIMAL literal's text
    /// (`typing::operand`).
    fn operand(&self, e: &Expr) -> Option<Ty> {
        match e {
            Expr::Value(v) => match &v.value {
                SqlValue::SingleQuotedString(s) => literal(&SqlValue::Number(s.clone(), false)),
                _ => self.expr(e),
            },
            _ => self.expr(e),
        }
    }

    fn unary(&self, op: &UnaryOperator, x: &Expr) -> Option<Ty> {
        let t = self.expr(x)?;
        match op {
            UnaryOperator::Plus => Some(t),
            UnaryOperator::Not => Some(Ty::boolean(t.nullable)),
            UnaryOperator::Minus => match t.class {
                Class::Int(_) if is_literal(x) && t.len < 10 => Some(Ty {
                    len: t.len + 1,
                    ..t
                }),
                Class::Int(_) => Some(Ty::computed_int(t.len, false, t.nullable)),
                Class::Decimal => Some(Ty {
                    unsigned: false,
                    ..t
                }),
                Class::Double | Class::Float => Some(Ty::new(Class::Double, 0, 0, t.nullable)),
                _ => None,
            },
            UnaryOperator::BitwiseNot => Some(unsigned_bits(t.nullable)),
            _ => None,
        }
    }

    fn binary(&self, l: &Expr, op: &BinaryOperator, r: &Expr) -> Option<Ty> {
        use BinaryOperator as B;
        match (l, op, r) {
            (x, B::Plus | B::Minus, Expr::Interval(i)) | (Expr::Interval(i), B::Plus, x) => {
                return self.shifted(x, i)
            }
            _ => {}
        }
        let (a, b) = (self.expr(l)?, self.expr(r)?);
        let nullable = a.nullable || b.nullable;
        match op {
            B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::And | B::Or | B::Xor => {
                Some(Ty::boolean(nullable))
            }
            B::Spaceship => Some(Ty::boolean(false)),
            B::BitwiseAnd
            | B::BitwiseOr
            | B::BitwiseXor
            | B::PGBitwiseShiftLeft
            | B::PGBitwiseShiftRight => Some(unsigned_bits(nullable)),
            B::Plus | B::Minus | B::Multiply | B::Divide | B::Modulo | B::MyIntegerDivide => {
                arithmetic(&a, op, &b)
            }
            _ => None,
        }
    }

    fn cast(&self, x: &Expr, to: &DataType) -> Option<Ty> {
        use DataType as T;
        let t = self.expr(x)?;
        Some(match to {
            T::Unsigned | T::UnsignedInteger | T::BigIntUnsigned(_) | T::IntUnsigned(_) => {
                match (x, t.class) {
                    (Expr::Value(_), Class::Int(_)) if !t.unsigned => Ty {
                        unsigned: true,
                        ..t
                    },
                    _ => Ty {
                        class: Class::Int(BIGINT_RANK),
                        len: 20,
                        scale: 20,
                        unsigned: true,
                        nullable: t.nullable,
                    },
                }
            }
            T::Signed | T::SignedInteger | T::BigInt(_) | T::Int(_) | T::Integer(_) => {
                let len = match t.class {
                    Class::Int(_) => t.scale + 1,
                    Class::Decimal => t.char_len(),
                    _ => return None,
                };
                Ty::computed_int(len - 1, false, t.nullable)
            }
            T::Decimal(info) | T::Numeric(info) | T::Dec(info) => {
                let (p, s) = match info {
                    sqlparser::ast::ExactNumberInfo::None => (10, 0),
                    sqlparser::ast::ExactNumberInfo::Precision(p) => (*p as u32, 0),
                    sqlparser::ast::ExactNumberInfo::PrecisionAndScale(p, s) => {
                        (*p as u32, *s as u32)
                    }
                };
                Ty::decimal(p, s, t.nullable)
            }
            // DOUBLE(M,D): D decimals in M digits (DOUBLE(0,0) MariaDB shows in 10).
            T::Double(sqlparser::ast::ExactNumberInfo::PrecisionAndScale(m, d)) => {
                let m = if *m == 0 { 10 } else { *m as u32 };
                Ty::new(Class::Double, m, *d as u32, true)
            }
            T::Double(_) | T::DoublePrecision => Ty::new(Class::Double, 0, 0, true),
            T::Float(_) => Ty::new(Class::Float, 0, 0, true),
            T::Char(len) | T::Varchar(len) => {
                let n = match len {
                    Some(sqlparser::ast::CharacterLength::IntegerLength { length, .. }) => {
                        *length as u32
                    }
                    _ if matches!(t.class, Class::Bin | Class::Blob) => return None,
                    _ => t.char_len(),
                };
                Ty::new(Class::Str, n, 0, true)
            }
            T::Binary(len) => {
                let n = match len {
                    Some(n) => *n as u32,
                    None if matches!(t.class, Class::Str | Class::Text) => {
                        t.len.saturating_mul(MBMAXLEN)
                    }
                    None => t.char_len(),
                };
                Ty::new(Class::Bin, n, 0, true)
            }
            T::Date => Ty::new(Class::Date, 0, 0, true),
            T::Datetime(fsp) => Ty::new(Class::Datetime, fsp.unwrap_or(0) as u32, 0, true),
            T::Time(fsp, _) => Ty::new(Class::Time, fsp.unwrap_or(0) as u32, 0, true),
            _ => return None,
        })
    }

    fn args(&self, f: &Function) -> Option<Vec<Ty>> {
        match &f.args {
            FunctionArguments::None => Some(vec![]),
            FunctionArguments::List(l) if l.clauses.is_empty() => l
                .args
                .iter()
                .map(|a| match a {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => self.expr(e),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// `STD(x)`, `VARIANCE(x)` and their synonyms, DOUBLEs (`Item_sum_variance`): of an
    /// exact `x` with `div_precision_increment` more decimals and `2 × precision + 4`
    /// digits (`STD(decimal(10,2))` is `double(26,6)`), of a FLOAT(M,D) or DOUBLE(M,D) with
    /// D + 4 decimals and 13 more digits than decimals, else a plain DOUBLE.
    fn deviation(&self, f: &Function, x: Ty) -> Option<Ty> {
        let double = |len, scale| Some(Ty::new(Class::Double, len, scale, true));
        if let Some((precision, scale)) = x.exact() {
            let scale = (scale + DIV_PRECISION_INCREMENT).min(30);
            // the sign and the point
            return double(2 * precision + DIV_PRECISION_INCREMENT + 2, scale);
        }
        match self.fixed_real(f) {
            Some((_, d)) => double(13 + d + 4, (d + 4).min(30)),
            None => double(0, 0),
        }
    }

    /// The `(M, D)` of a FLOAT(M,D) or DOUBLE(M,D) column that is `f`'s only argument.
    fn fixed_real(&self, f: &Function) -> Option<(u32, u32)> {
        let [arg] = crate::typing::args(f)[..] else {
            return None;
        };
        let decl = crate::typing::decl_of(arg, self.scopes)?;
        crate::real::RealType::of_decl(decl)?.shape
    }

    fn function(&self, f: &Function) -> Option<Ty> {
        let name = f.name.to_string().to_ascii_lowercase();
        if f.filter.is_some() {
            return None;
        }
        if f.over.is_some() {
            return self.window(&name, f);
        }
        if name == "count" {
            return Some(Ty::computed_int(21, false, false).with_len(21));
        }
        if name == "format" {
            return self.format(f);
        }
        if let Some(t) = self.date_arithmetic(&name, f) {
            return Some(t);
        }
        let args = self.args(f)?;
        let one = || match args.as_slice() {
            [t] => Some(*t),
            _ => None,
        };
        let fsp = || -> Option<u32> {
            match &f.args {
                FunctionArguments::List(l) => match l.args.as_slice() {
                    [] => Some(0),
                    [FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(v)))] => {
                        match &v.value {
                            SqlValue::Number(n, _) => n.parse().ok(),
                            _ => None,
                        }
                    }
                    _ => None,
                },
                _ => Some(0),
            }
        };
        match name.as_str() {
            // A count of seconds with its argument's fraction digits: a BIGINT without,
            // else a DECIMAL (`UNIX_TIMESTAMP(datetime(3))` is `decimal(19,3)`).
            "time_to_sec" | "unix_timestamp" => {
                let digits = match (args.first(), crate::typing::args(f).first()) {
                    (None, _) => 0,
                    (_, Some(Expr::Value(v))) => match &v.value {
                        SqlValue::SingleQuotedString(s) => text_fraction_digits(s),
                        _ => args[0].exact()?.1.min(6),
                    },
                    (Some(t), _) if matches!(t.class, Class::Int(_) | Class::Date) => 0,
                    (Some(t), _) if t.is_temporal() => t.len,
                    _ => return None,
                };
                let nullable = !args.is_empty();
                Some(match digits {
                    0 => Ty::computed_int(16, false, nullable),
                    d => Ty::decimal(16 + d, d, nullable),
                })
            }
            "sum" => {
                let t = one()?;
                Some(match (t.exact(), self.fixed_real(f)) {
                    (Some((p, s)), _) => Ty::decimal(p + 22, s, true),
                    // MariaDB's `float_length`: DBL_DIG + 2 + D
                    (None, Some((_, d))) => Ty::new(Class::Double, 17 + d, d, true),
                    (None, None) if t.is_number() => Ty::new(Class::Double, 0, 0, true),
                    (None, None) => return None,
                })
            }
            name if crate::having::DEVIATIONS.contains(&name) => self.deviation(f, one()?),
            "avg" => {
                let t = one()?;
                let more = DIV_PRECISION_INCREMENT;
                Some(match (t.exact(), self.fixed_real(f)) {
                    (Some((p, s)), _) => Ty::decimal(p + more, s + more, true),
                    (None, Some((m, d))) => Ty::new(Class::Double, m + more, d + more, true),
                    (None, None) if t.is_number() => Ty::new(Class::Double, 0, 0, true),
                    (None, None) => return None,
                })
            }
            // MIN/MAX of a NOT NULL non-integer is shown without a DEFAULT clause: not
            // derived
            "min" | "max" => one()
                .filter(|t| t.nullable || matches!(t.class, Class::Int(_)))
                .map(|t| t.nullable(true)),
            "ifnull" | "nvl" => match args.as_slice() {
                [a, b] => aggregate(&args).map(|t| t.nullable(a.nullable && b.nullable)),
                _ => None,
            },
            "coalesce" => aggregate(&args).map(|t| t.nullable(args.iter().all(|a| a.nullable))),
            "if" => match args.as_slice() {
                [_, a, b] => aggregate(&[*a, *b]),
                _ => None,
            },
            "nullif" => match args.as_slice() {
                [a, _] => Some(a.nullable(true)),
                _ => None,
            },
            "greatest" | "least" => self.temporal_extreme(&args).or_else(|| aggregate(&args)),
            // a temporal value as a number (`typing::temporal_as_number`): its digits and
            // fraction digits
            "tutti_temporal_number" => {
                let t = one().filter(Ty::is_temporal)?;
                let digits = match t.class {
                    Class::Date => 8,
                    Class::Time => 7,
                    _ => 14,
                };
                Some(Ty::decimal(digits + t.len, t.len, t.nullable))
            }
            "round" | "truncate" => {
                let a = args.first().filter(|a| a.class == Class::Decimal)?;
                let (p, s) = a.exact()?;
                // A constant number of places is the scale; a computed one keeps the
                // argument's (MariaDB's `Item_func_round::fix_arg_decimal`).
                let scale = match (args.len(), literal_places(f)) {
                    (1, _) => 0,
                    (_, Some(n)) => n.clamp(0, i128::from(MAX_SCALE)) as u32,
                    _ => s,
                };
                // Rounding away digits can carry into a new one.
                let carry = u32::from(name == "round" && scale < s);
                let nullable = args.iter().any(|t| t.nullable);
                Some(Ty::decimal(p - s + carry + scale, scale, nullable))
            }
            "concat" => {
                if args
                    .iter()
                    .any(|t| matches!(t.class, Class::Bin | Class::Blob))
                {
                    return None;
                }
                let len = args.iter().map(|t| t.char_len()).sum();
                Some(Ty::new(Class::Str, len, 0, true))
            }
            "upper" | "lower" | "ucase" | "lcase" => {
                let t = one().filter(|t| matches!(t.class, Class::Str | Class::Text))?;
                Some(t)
            }
            "length" | "char_length" | "character_length" | "octet_length" => Some(Ty {
                class: Class::Int(INT_RANK),
                len: 10,
                scale: 10,
                unsigned: false,
                nullable: one()?.nullable,
            }),
            "md5" => Some(Ty::new(Class::Str, 32, 0, one()?.nullable)),
            "sha1" | "sha" => Some(Ty::new(Class::Str, 40, 0, one()?.nullable)),
            "abs" => {
                let t = one()?;
                match t.class {
                    Class::Int(_) => {
                        Some(Ty::computed_int(t.len, false, t.nullable).with_len(t.len))
                    }
                    Class::Decimal => Some(t),
                    Class::Double | Class::Float => Some(Ty::new(Class::Double, 0, 0, t.nullable)),
                    _ => None,
                }
            }
            "now" | "current_timestamp" | "localtime" | "localtimestamp" | "sysdate"
            | "utc_timestamp" => Some(Ty::new(Class::Datetime, fsp()?, 0, false)),
            "curdate" | "current_date" | "utc_date" => Some(Ty::new(Class::Date, 0, 0, false)),
            "curtime" | "current_time" | "utc_time" => Some(Ty::new(Class::Time, fsp()?, 0, false)),
            _ => self.temporal_function(&name, f, &args),
        }
    }
}

impl Infer<'_> {
    /// `FORMAT(x, d[, locale])` is a string as long as MariaDB's `Item_func_format` makes
    /// it: the integer digits of `x`'s type (and its sign) with thousands separators, the
    /// point, `d` decimals (38 when `d` is not a constant), and one digit more when
    /// rounding to `d` decimals can carry (`FORMAT(9.9, 0)` is '10').
    fn format(&self, f: &Function) -> Option<Ty> {
        let FunctionArguments::List(l) = &f.args else {
            return None;
        };
        let exprs: Vec<&Expr> = l
            .args
            .iter()
            .map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let (x, d) = match exprs.as_slice() {
            [x, d] | [x, d, _] => (*x, *d),
            _ => return None,
        };
        let bit_width = column(x, self.scopes).and_then(|(_, c)| {
            let d = c.decl_type.to_ascii_lowercase();
            d.strip_prefix("bit(")?
                .strip_suffix(')')?
                .parse::<u32>()
                .ok()
        });
        let (int_digits, decimals) = match bit_width {
            Some(n) => {
                let largest = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
                (largest.to_string().len() as u32 + 1, 0)
            }
            None => {
                let t = self.expr(x)?;
                match t.class {
                    Class::Int(rank) => ([4, 4, 6, 9, 11, 20][usize::from(rank.min(5))], 0),
                    Class::Decimal => (t.len - t.scale + 1, t.scale),
                    Class::Float => (FLT_DIGITS, NOT_FIXED_DEC),
                    Class::Double | Class::Str | Class::Text => (DBL_DIGITS, NOT_FIXED_DEC),
                    _ => return None,
                }
            }
        };
        let constant = match unnest(d) {
            Expr::Value(v) => match &v.value {
                SqlValue::Number(n, _) => n.parse::<u32>().ok(),
                _ => None,
            },
            _ => None,
        };
        let (dec, carry) = match constant {
            Some(n) => (n.min(FORMAT_MAX_DECIMALS), n < decimals),
            None => (FORMAT_MAX_DECIMALS, decimals > 0),
        };
        let len = int_digits + (int_digits - 1) / 3 + u32::from(dec > 0) + dec + u32::from(carry);
        Some(Ty::new(Class::Str, len, 0, true))
    }
}

/// `FORMAT`'s most decimals.
const FORMAT_MAX_DECIMALS: u32 = 38;
/// The decimals of a DOUBLE or FLOAT whose decimals are not fixed (MariaDB's
/// `NOT_FIXED_DEC`).
const NOT_FIXED_DEC: u32 = 39;
/// The integer digits (with the sign) MariaDB counts for a DOUBLE and for a FLOAT.
const DBL_DIGITS: u32 = 310;
const FLT_DIGITS: u32 = 40;

/// `~x`, `x & y`, ...: `bigint(21) unsigned`.
fn unsigned_bits(nullable: bool) -> Ty {
    Ty {
        class: Class::Int(BIGINT_RANK),
        len: 21,
        scale: 21,
        unsigned: true,
        nullable,
    }
}

/// The fraction digits a temporal string shows (`'0:30:47.25'` two), at most 6.
pub(crate) fn text_fraction_digits(s: &str) -> u32 {
    match s.trim().rsplit_once('.') {
        Some((_, tail)) => tail.bytes().take_while(u8::is_ascii_digit).count().min(6) as u32,
        None => 0,
    }
}

/// The operator tutti's exact arithmetic stands for (`typing::binary` wrote `a / b` of
/// DECIMALs as `tutti_dec_div(a, b)`).
fn exact_operator(f: &Function) -> Option<BinaryOperator> {
    Some(match crate::typing::function_name(f).as_str() {
        "tutti_dec_add" => BinaryOperator::Plus,
        "tutti_dec_sub" => BinaryOperator::Minus,
        "tutti_dec_mul" => BinaryOperator::Multiply,
        "tutti_dec_div" => BinaryOperator::Divide,
        "tutti_dec_mod" => BinaryOperator::Modulo,
        _ => return None,
    })
}

fn is_literal(e: &Expr) -> bool {
    matches!(unnest(e), Expr::Value(_))
}

/// `+ - * / % DIV` of two typed operands.
fn arithmetic(a: &Ty, op: &BinaryOperator, b: &Ty) -> Option<Ty> {
    use BinaryOperator as B;
    let nullable = a.nullable || b.nullable;
    if a.class == Class::Null || b.class == Class::Null {
        return None;
    }
    if matches!(op, B::MyIntegerDivide) {
        let (p, _) = a.exact()?;
        b.exact()?;
        return Some(Ty::computed_int(p, false, true).with_len(p).bigint());
    }
    // A character string is read as a double (`c + 0`, `c / c` of a CHAR column).
    let string = |t: &Ty| matches!(t.class, Class::Str | Class::Text);
    if string(a) && (string(b) || b.is_number()) || a.is_number() && string(b) {
        let nullable = nullable || matches!(op, B::Divide | B::Modulo);
        return Some(Ty::new(Class::Double, 0, 0, nullable));
    }
    if !a.is_number() || !b.is_number() {
        return None;
    }
    if matches!(op, B::Modulo) {
        return match (a.class, b.class, a.exact(), b.exact()) {
            (Class::Int(_), Class::Int(_), _, _) => {
                let len = a.len.max(b.len);
                Some(Ty::computed_int(len, false, true).with_len(len).bigint())
            }
            (_, _, Some((p1, s1)), Some((p2, s2))) => {
                let scale = s1.max(s2);
                Some(Ty::decimal((p1 - s1).max(p2 - s2) + scale, scale, true))
            }
            _ => Some(Ty::new(Class::Double, 0, 0, true)),
        };
    }
    let (Some((p1, s1)), Some((p2, s2))) = (a.exact(), b.exact()) else {
        return Some(Ty::new(
            Class::Double,
            0,
            0,
            nullable || matches!(op, B::Divide),
        ));
    };
    let ints = s1 == 0 && s2 == 0 && matches!((a.class, b.class), (Class::Int(_), Class::Int(_)));
    match op {
        B::Plus | B::Minus if ints => Some(Ty::computed_int(
            p1.max(p2) + 1,
            a.unsigned || b.unsigned,
            nullable,
        )),
        B::Multiply if ints => Some(Ty::computed_int(
            p1 + p2,
            a.unsigned || b.unsigned,
            nullable,
        )),
        B::Plus | B::Minus => {
            let scale = s1.max(s2);
            Some(Ty::decimal(
                (p1 - s1).max(p2 - s2) + 1 + scale,
                scale,
                nullable,
            ))
        }
        B::Multiply => Some(Ty::decimal(p1 + p2, s1 + s2, nullable)),
        B::Divide => {
            let scale = s1 + DIV_PRECISION_INCREMENT;
            Some(Ty::decimal(p1 - s1 + s2 + scale, scale, true))
        }
        _ => None,
    }
}

/// A literal's type, from its spelling.
fn literal(v: &SqlValue) -> Option<Ty> {
    Some(match v {
        SqlValue::Number(n, _) if n.contains(['e', 'E']) => Ty::new(Class::Double, 0, 0, false),
        SqlValue::Number(n, _) => match crate::decimal::bounded_literal(n).split_once('.') {
            Some((int, frac)) => {
                let p = (int.len() + frac.len()) as u32;
                Ty::decimal(p, frac.len() as u32, false)
            }
            None => {
                let digits = n.len() as u32;
                match n.parse::<u64>() {
                    Ok(v) if v <= i32::MAX as u64 => Ty {
                        class: Class::Int(INT_RANK),
                        len: digits,
                        scale: digits,
                        unsigned: false,
                        nullable: false,
                    },
                    Ok(v) if v <= i64::MAX as u64 => Ty {
                        class: Class::Int(BIGINT_RANK),
                        len: digits,
                        scale: digits,
                        unsigned: false,
                        nullable: false,
                    },
                    Ok(_) => return None,
                    Err(_) => Ty::decimal(digits, 0, false),
                }
            }
        },
        SqlValue::SingleQuotedString(s) | SqlValue::DoubleQuotedString(s) => {
            Ty::new(Class::Str, s.chars().count() as u32, 0, false)
        }
        SqlValue::Boolean(_) => Ty::boolean(false),
        SqlValue::Null => Ty::new(Class::Null, 0, 0, true),
        _ => return None,
    })
}

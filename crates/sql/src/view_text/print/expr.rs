//! Expressions as MariaDB prints them: operators by precedence, NOT folded, canonical
//! function names, literals with MariaDB's escapes (see the parent module's rules).

use sqlparser::ast::{
    BinaryOperator as Op, CastKind, DataType, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArgumentClause, FunctionArguments, LimitClause, OrderBySort, Query, SelectItem,
    SetExpr, UnaryOperator, Value, ValueWithSpan, WindowType,
};

use super::Printer;
use crate::SqlError;

/// MariaDB's operator precedences (`enum precedence`).
pub(super) mod prec {
    pub const LOWEST: u8 = 0;
    pub const OR: u8 = 1;
    pub const XOR: u8 = 2;
    pub const AND: u8 = 3;
    pub const BETWEEN: u8 = 5;
    pub const CMP: u8 = 6;
    pub const BITOR: u8 = 7;
    pub const BITAND: u8 = 8;
    pub const SHIFT: u8 = 9;
    pub const ADD: u8 = 10;
    pub const MUL: u8 = 11;
    pub const BITXOR: u8 = 12;
    pub const NEG: u8 = 13;
    pub const BANG: u8 = 14;
    pub const COLLATE: u8 = 15;
    pub const HIGHEST: u8 = 17;
}

/// A binary operator's text and precedence.
fn operator(op: &Op) -> Option<(&'static str, u8)> {
    Some(match op {
        Op::Or => ("or", prec::OR),
        Op::Xor => ("xor", prec::XOR),
        Op::And => ("and", prec::AND),
        Op::Eq => ("=", prec::CMP),
        Op::NotEq => ("<>", prec::CMP),
        Op::Lt => ("<", prec::CMP),
        Op::LtEq => ("<=", prec::CMP),
        Op::Gt => (">", prec::CMP),
        Op::GtEq => (">=", prec::CMP),
        Op::Spaceship => ("<=>", prec::CMP),
        Op::BitwiseOr => ("|", prec::BITOR),
        Op::BitwiseAnd => ("&", prec::BITAND),
        Op::PGBitwiseShiftLeft => ("<<", prec::SHIFT),
        Op::PGBitwiseShiftRight => (">>", prec::SHIFT),
        Op::Plus => ("+", prec::ADD),
        Op::Minus => ("-", prec::ADD),
        Op::Multiply => ("*", prec::MUL),
        Op::Divide => ("/", prec::MUL),
        Op::MyIntegerDivide => ("DIV", prec::MUL),
        Op::Modulo => ("MOD", prec::MUL),
        Op::BitwiseXor => ("^", prec::BITXOR),
        Op::StringConcat => ("or", prec::OR),
        _ => return None,
    })
}

/// The comparison that is true where `op` is false (NOT folds into it).
fn negated(op: &Op) -> Option<Op> {
    Some(match op {
        Op::Eq => Op::NotEq,
        Op::NotEq => Op::Eq,
        Op::Lt => Op::GtEq,
        Op::GtEq => Op::Lt,
        Op::Gt => Op::LtEq,
        Op::LtEq => Op::Gt,
        _ => return None,
    })
}

/// The precedence of an expression as MariaDB prints it.
fn precedence(e: &Expr) -> u8 {
    match e {
        Expr::BinaryOp { op, right, .. } => match (op, right.as_ref()) {
            (Op::Plus | Op::Minus, Expr::Interval(_)) => prec::ADD,
            _ => operator(op).map_or(prec::HIGHEST, |(_, p)| p),
        },
        Expr::Nested(inner) => precedence(inner),
        Expr::UnaryOp { op, expr } => match op {
            // as `not` prints it
            UnaryOperator::Not => match unnest(expr) {
                Expr::BinaryOp { op, .. } if negated(op).is_some() => prec::CMP,
                Expr::Identifier(_) | Expr::CompoundIdentifier(_) => prec::CMP,
                Expr::Like { .. } | Expr::InList { .. } | Expr::InSubquery { .. } => prec::CMP,
                Expr::Between { .. } => prec::BETWEEN,
                _ => prec::BANG,
            },
            UnaryOperator::Minus | UnaryOperator::BitwiseNot => prec::NEG,
            _ => prec::HIGHEST,
        },
        Expr::Between { .. } | Expr::Case { .. } => prec::BETWEEN,
        Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsTrue(_)
        | Expr::IsNotTrue(_)
        | Expr::IsFalse(_)
        | Expr::IsNotFalse(_)
        | Expr::Like { .. }
        | Expr::RLike { .. }
        | Expr::InList { .. }
        | Expr::InSubquery { .. }
        | Expr::AnyOp { .. }
        | Expr::AllOp { .. } => prec::CMP,
        Expr::Collate { .. } => prec::COLLATE,
        _ => prec::HIGHEST,
    }
}

fn unnest(e: &Expr) -> &Expr {
    match e {
        Expr::Nested(inner) => unnest(inner),
        e => e,
    }
}

/// A string literal as MariaDB prints it.
fn string(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            '\u{1a}' => out.push_str("\\Z"),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// MariaDB's name for a function (lower case), where it prints another than the one
/// written.
fn function_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "substring" | "mid" => "substr",
        "upper" => "ucase",
        "lower" => "lcase",
        "length" => "octet_length",
        "character_length" => "char_length",
        "now" | "localtime" | "localtimestamp" => "current_timestamp",
        "current_date" => "curdate",
        "current_time" => "curtime",
        "stddev" | "stddev_pop" => "std",
        "var_pop" => "variance",
        "power" => "pow",
        "schema" => "database",
        "day" => "dayofmonth",
        "ceil" => "ceiling",
        // tutti's respellings (see `spellings`)
        "tutti_default" => "default",
        "tutti_interval" => "interval",
        _ => return lower,
    }
    .to_string()
}

/// The `DATE_ADD`-like functions MariaDB prints as `a + interval n unit`.
fn interval_function(name: &str) -> Option<&'static str> {
    match name.to_ascii_lowercase().as_str() {
        "date_add" | "adddate" => Some("+"),
        "date_sub" | "subdate" => Some("-"),
        _ => None,
    }
}

impl Printer<'_> {
    /// `e`, in parentheses when its precedence is below `parent`'s.
    pub(super) fn expr(&mut self, e: &Expr, parent: u8) -> Result<(), SqlError> {
        let parens = precedence(e) < parent;
        if parens {
            self.push("(");
        }
        self.bare(e)?;
        if parens {
            self.push(")");
        }
        Ok(())
    }

    pub(super) fn bare(&mut self, e: &Expr) -> Result<(), SqlError> {
        match e {
            Expr::Identifier(i) => self.column(std::slice::from_ref(i)),
            Expr::CompoundIdentifier(ids) => self.column(ids),
            Expr::Nested(inner) => self.bare(inner)?,
            Expr::Value(v) => self.value(&v.value),
            Expr::BinaryOp { left, op, right } => self.binary(left, op, right)?,
            Expr::UnaryOp { op, expr } => self.unary(*op, expr)?,
            Expr::IsNull(x) => self.postfix(x, " is null")?,
            Expr::IsNotNull(x) => self.postfix(x, " is not null")?,
            Expr::IsTrue(x) => self.postfix(x, " is true")?,
            Expr::IsNotTrue(x) => self.postfix(x, " is not true")?,
            Expr::IsFalse(x) => self.postfix(x, " is false")?,
            Expr::IsNotFalse(x) => self.postfix(x, " is not false")?,
            Expr::Between {
                expr,
                negated,
                low,
                high,
            } => {
                self.expr(expr, prec::BETWEEN + 1)?;
                self.push(if *negated {
                    " not between "
                } else {
                    " between "
                });
                self.expr(low, prec::BETWEEN + 1)?;
                self.push(" and ");
                self.expr(high, prec::BETWEEN + 1)?;
            }
            Expr::InList {
                expr,
                list,
                negated,
            } if list.len() == 1 => {
                let op = if *negated { Op::NotEq } else { Op::Eq };
                self.binary(expr, &op, &list[0])?;
            }
            Expr::InList {
                expr,
                list,
                negated,
            } => {
                self.expr(expr, prec::CMP + 1)?;
                self.push(if *negated { " not in (" } else { " in (" });
                self.list(list)?;
                self.push(")");
            }
            Expr::InSubquery {
                expr,
                subquery,
                negated,
            } => {
                self.expr(expr, prec::CMP + 1)?;
                self.push(if *negated { " not in " } else { " in " });
                self.subquery(subquery)?;
            }
            Expr::AnyOp {
                left,
                compare_op,
                right,
                ..
            }
            | Expr::AllOp {
                left,
                compare_op,
                right,
            } => {
                let all = matches!(e, Expr::AllOp { .. });
                let (op, _) = operator(compare_op).unwrap_or(("=", prec::CMP));
                self.expr(left, prec::CMP + 1)?;
                let text = match (all, compare_op) {
                    (false, Op::Eq) => " in ".to_string(),
                    (false, _) => format!(" {op} any "),
                    (true, _) => format!(" {op} all "),
                };
                self.push(&text);
                match unnest(right) {
                    Expr::Subquery(q) => self.subquery(q)?,
                    other => self.expr(other, prec::HIGHEST)?,
                }
            }
            Expr::Like {
                negated,
                expr,
                pattern,
                escape_char,
                ..
            } => {
                self.expr(expr, prec::CMP)?;
                self.push(if *negated { "  not like " } else { " like " });
                self.expr(pattern, prec::CMP + 1)?;
                if let Some(esc) = escape_char {
                    self.push(" escape ");
                    self.expr(esc, prec::HIGHEST)?;
                }
            }
            Expr::RLike {
                negated,
                expr,
                pattern,
                ..
            } => {
                if *negated {
                    self.push("!(");
                }
                self.expr(expr, prec::CMP)?;
                self.push(" regexp ");
                self.expr(pattern, prec::CMP + 1)?;
                if *negated {
                    self.push(")");
                }
            }
            Expr::Exists { subquery, negated } => {
                if *negated {
                    self.push("!");
                }
                self.push("exists");
                let mut q = subquery.as_ref().clone();
                if let SetExpr::Select(s) = q.body.as_mut() {
                    s.projection = vec![SelectItem::UnnamedExpr(Expr::value(Value::Number(
                        "1".into(),
                        false,
                    )))];
                }
                if q.limit_clause.is_none() {
                    q.limit_clause = Some(LimitClause::LimitOffset {
                        limit: Some(Expr::value(Value::Number("1".into(), false))),
                        offset: None,
                        limit_by: vec![],
                    });
                }
                self.subquery(&q)?;
            }
            Expr::Subquery(q) => self.subquery(q)?,
            Expr::Tuple(list) => {
                self.push("(");
                self.list(list)?;
                self.push(")");
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                self.push("case ");
                if let Some(o) = operand {
                    self.expr(o, prec::LOWEST)?;
                    self.push(" ");
                }
                for w in conditions {
                    self.push("when ");
                    self.expr(&w.condition, prec::LOWEST)?;
                    self.push(" then ");
                    self.expr(&w.result, prec::LOWEST)?;
                    self.push(" ");
                }
                if let Some(e) = else_result {
                    self.push("else ");
                    self.expr(e, prec::LOWEST)?;
                    self.push(" ");
                }
                self.push("end");
            }
            Expr::Collate { expr, collation } => {
                self.expr(expr, prec::COLLATE)?;
                self.push(&format!(" collate {collation}"));
            }
            Expr::Cast {
                kind: CastKind::Cast | CastKind::DoubleColon,
                expr,
                data_type,
                ..
            } => {
                self.push("cast(");
                self.expr(expr, prec::LOWEST)?;
                self.push(&format!(" as {})", self.cast_type(data_type)));
            }
            Expr::Convert {
                expr,
                data_type: Some(data_type),
                charset: None,
                ..
            } => {
                self.push("cast(");
                self.expr(expr, prec::LOWEST)?;
                self.push(&format!(" as {})", self.cast_type(data_type)));
            }
            Expr::Convert {
                expr,
                data_type: None,
                charset: Some(cs),
                ..
            } => {
                self.push("convert(");
                self.expr(expr, prec::LOWEST)?;
                self.push(&format!(" using {cs})"));
            }
            Expr::Extract { field, expr, .. } => {
                self.push(&format!(
                    "extract({} from ",
                    field.to_string().to_ascii_lowercase()
                ));
                self.expr(expr, prec::LOWEST)?;
                self.push(")");
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                self.push("substr(");
                self.expr(expr, prec::LOWEST)?;
                for e in [substring_from, substring_for].into_iter().flatten() {
                    self.push(",");
                    self.expr(e, prec::LOWEST)?;
                }
                self.push(")");
            }
            Expr::Trim {
                trim_where,
                trim_what,
                expr,
                ..
            } => {
                let name = match trim_where {
                    Some(sqlparser::ast::TrimWhereField::Leading) => "ltrim",
                    Some(sqlparser::ast::TrimWhereField::Trailing) => "rtrim",
                    _ => "trim",
                };
                match trim_what {
                    None => {
                        self.push(&format!("{name}("));
                        self.expr(expr, prec::LOWEST)?;
                    }
                    Some(what) => {
                        let place = trim_where
                            .as_ref()
                            .map_or("both".to_string(), |w| w.to_string().to_ascii_lowercase());
                        self.push(&format!("trim({place} "));
                        self.expr(what, prec::LOWEST)?;
                        self.push(" from ");
                        self.expr(expr, prec::LOWEST)?;
                    }
                }
                self.push(")");
            }
            Expr::Ceil { expr, .. } => self.call("ceiling", &[expr.as_ref()])?,
            Expr::Floor { expr, .. } => self.call("floor", &[expr.as_ref()])?,
            Expr::Position { expr, r#in } => {
                self.call("locate", &[expr.as_ref(), r#in.as_ref()])?
            }
            Expr::Interval(i) => {
                self.push("interval ");
                self.expr(&i.value, prec::HIGHEST)?;
                if let Some(f) = &i.leading_field {
                    self.push(&format!(" {}", f.to_string().to_ascii_lowercase()));
                }
            }
            Expr::TypedString(t) => {
                let kind = t.data_type.to_string().to_ascii_uppercase();
                let value = match &t.value.value {
                    Value::SingleQuotedString(s) | Value::DoubleQuotedString(s) => s.clone(),
                    other => other.to_string(),
                };
                self.push(&format!("{kind}{}", string(&value)));
            }
            Expr::Prefixed { prefix, value } => {
                self.push(&prefix.value.to_ascii_lowercase());
                self.bare(value)?;
            }
            Expr::Function(f) => self.function(f)?,
            other => {
                return Err(SqlError::Unsupported(format!(
                    "SHOW CREATE VIEW of a view with {other}"
                )))
            }
        }
        Ok(())
    }

    pub(super) fn list(&mut self, list: &[Expr]) -> Result<(), SqlError> {
        for (i, e) in list.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.expr(e, prec::LOWEST)?;
        }
        Ok(())
    }

    pub(super) fn call(&mut self, name: &str, args: &[&Expr]) -> Result<(), SqlError> {
        self.push(name);
        self.push("(");
        for (i, e) in args.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.expr(e, prec::LOWEST)?;
        }
        self.push(")");
        Ok(())
    }

    pub(super) fn postfix(&mut self, x: &Expr, text: &str) -> Result<(), SqlError> {
        self.expr(x, prec::CMP)?;
        self.push(text);
        Ok(())
    }

    /// A subquery in an expression (its items carry only the names the user gave them).
    pub(super) fn subquery(&mut self, q: &Query) -> Result<(), SqlError> {
        self.nested(q, Vec::new(), true)
    }

    /// A query in parentheses whose items `column_list` names (see `bare_items`).
    pub(super) fn nested(
        &mut self,
        q: &Query,
        column_list: Vec<String>,
        bare: bool,
    ) -> Result<(), SqlError> {
        let top = !column_list.is_empty();
        let outer_list = std::mem::replace(&mut self.column_list, column_list);
        let outer_bare = std::mem::replace(&mut self.bare_items, bare);
        self.push("(");
        let result = self.query(q, top);
        self.push(")");
        self.column_list = outer_list;
        self.bare_items = outer_bare;
        result
    }

    pub(super) fn value(&mut self, v: &Value) {
        let text = match v {
            Value::Number(n, _) => match n.strip_prefix('.') {
                Some(rest) => format!("0.{rest}"),
                None => n.clone(),
            },
            Value::SingleQuotedString(s)
            | Value::DoubleQuotedString(s)
            | Value::NationalStringLiteral(s) => string(s),
            Value::HexStringLiteral(h) => format!("X'{h}'"),
            Value::Boolean(b) => if *b { "1" } else { "0" }.to_string(),
            Value::Null => "NULL".to_string(),
            other => other.to_string(),
        };
        self.push(&text);
    }

    pub(super) fn binary(&mut self, left: &Expr, op: &Op, right: &Expr) -> Result<(), SqlError> {
        // `INTERVAL n unit + d` prints as `d + interval n unit`
        if let (Op::Plus, Expr::Interval(_)) = (op, unnest(left)) {
            return self.binary(right, op, left);
        }
        let Some((text, p)) = operator(op) else {
            return Err(SqlError::Unsupported(format!(
                "SHOW CREATE VIEW of a view with the operator {op}"
            )));
        };
        // AND and OR lists are flat: no parentheses for an operand of the same kind
        let right_parent = if matches!(op, Op::And | Op::Or) {
            p
        } else {
            p + 1
        };
        let boolean = matches!(op, Op::And | Op::Or);
        self.operand(left, p, boolean)?;
        self.push(&format!(" {text} "));
        self.operand(right, right_parent, boolean)
    }

    /// An operand; a bare column under AND / OR is a truth test, `col <> 0`.
    pub(super) fn operand(&mut self, e: &Expr, parent: u8, boolean: bool) -> Result<(), SqlError> {
        if boolean && matches!(unnest(e), Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
            self.bare(unnest(e))?;
            self.push(" <> 0");
            return Ok(());
        }
        self.expr(e, parent)
    }

    pub(super) fn unary(&mut self, op: UnaryOperator, x: &Expr) -> Result<(), SqlError> {
        match op {
            UnaryOperator::Not => self.not(x),
            UnaryOperator::Minus => match unnest(x) {
                Expr::Value(ValueWithSpan {
                    value: Value::Number(n, _),
                    ..
                }) => {
                    match n.strip_prefix('-') {
                        Some(positive) => self.push(positive),
                        None => self.push(&format!("-{n}")),
                    }
                    Ok(())
                }
                Expr::UnaryOp {
                    op: UnaryOperator::Minus,
                    expr,
                } => self.expr(expr, prec::NEG),
                _ => {
                    self.push("-");
                    self.expr(x, prec::NEG)
                }
            },
            UnaryOperator::Plus => self.expr(x, prec::NEG),
            UnaryOperator::BitwiseNot => {
                self.push("~");
                self.expr(x, prec::NEG)
            }
            other => Err(SqlError::Unsupported(format!(
                "SHOW CREATE VIEW of a view with {other}"
            ))),
        }
    }

    /// NOT folds into what it negates where MariaDB folds it.
    pub(super) fn not(&mut self, x: &Expr) -> Result<(), SqlError> {
        match unnest(x) {
            Expr::BinaryOp { left, op, right } if negated(op).is_some() => {
                let op = negated(op).unwrap_or(Op::Eq);
                self.binary(left, &op, right)
            }
            e @ (Expr::Identifier(_) | Expr::CompoundIdentifier(_)) => {
                self.bare(e)?;
                self.push(" = 0");
                Ok(())
            }
            Expr::Like {
                negated: false,
                any,
                expr,
                pattern,
                escape_char,
            } => self.bare(&Expr::Like {
                negated: true,
                any: *any,
                expr: expr.clone(),
                pattern: pattern.clone(),
                escape_char: escape_char.clone(),
            }),
            Expr::Between {
                expr,
                negated: false,
                low,
                high,
            } => self.bare(&Expr::Between {
                expr: expr.clone(),
                negated: true,
                low: low.clone(),
                high: high.clone(),
            }),
            Expr::InList {
                expr,
                list,
                negated: false,
            } => self.bare(&Expr::InList {
                expr: expr.clone(),
                list: list.clone(),
                negated: true,
            }),
            e => {
                self.push("!");
                self.expr(e, prec::BANG)
            }
        }
    }

    pub(super) fn cast_type(&self, t: &DataType) -> String {
        let charset = || match self
            .env
            .system_variable(crate::VarScope::Session, "character_set_connection")
        {
            Some(crate::Value::Text(cs)) => cs,
            _ => "utf8mb4".to_string(),
        };
        let length = |n: &Option<sqlparser::ast::CharacterLength>| match n {
            Some(sqlparser::ast::CharacterLength::IntegerLength { length, .. }) => {
                format!("({length})")
            }
            _ => String::new(),
        };
        match t {
            DataType::Char(n) | DataType::Character(n) | DataType::Varchar(n) => {
                format!("char{} charset {}", length(n), charset())
            }
            DataType::Binary(n) => match n {
                Some(n) => format!("char({n}) charset binary"),
                None => "char charset binary".into(),
            },
            DataType::Signed | DataType::SignedInteger => "signed".into(),
            DataType::Unsigned | DataType::UnsignedInteger => "unsigned".into(),
            other => other.to_string().to_ascii_lowercase().replace(", ", ","),
        }
    }

    pub(super) fn function(&mut self, f: &Function) -> Result<(), SqlError> {
        let written = f.name.to_string();
        let name = function_name(&written);
        let FunctionArguments::List(list) = &f.args else {
            // `CURRENT_DATE`, `NOW` without parentheses
            self.push(&format!("{name}()"));
            return Ok(());
        };
        let args: Vec<&FunctionArg> = list.args.iter().collect();
        let exprs: Vec<Option<&Expr>> = args
            .iter()
            .map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect();
        if let (Some(sign), [Some(date), Some(interval)]) =
            (interval_function(&written), exprs.as_slice())
        {
            self.expr(date, prec::ADD)?;
            self.push(&format!(" {sign} "));
            return self.expr(interval, prec::ADD + 1);
        }
        if let ("date" | "time" | "datetime", [Some(x)]) = (name.as_str(), exprs.as_slice()) {
            self.push("cast(");
            self.expr(x, prec::LOWEST)?;
            self.push(&format!(" as {name})"));
            return self.over(f);
        }
        if name == "mod" {
            if let [Some(a), Some(b)] = exprs.as_slice() {
                return self.binary(a, &Op::Modulo, b);
            }
        }
        if name == "count"
            && matches!(
                args.as_slice(),
                [FunctionArg::Unnamed(FunctionArgExpr::Wildcard)]
            )
        {
            self.push("count(0)");
            return self.over(f);
        }
        self.push(&name);
        self.push("(");
        if let Some(sqlparser::ast::DuplicateTreatment::Distinct) = list.duplicate_treatment {
            self.push("distinct ");
        }
        let unit_first = matches!(name.as_str(), "timestampdiff" | "timestampadd");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Identifier(unit)))
                    if unit_first && i == 0 =>
                {
                    self.push(&unit.value.to_ascii_uppercase())
                }
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => self.expr(e, prec::LOWEST)?,
                other => {
                    return Err(SqlError::Unsupported(format!(
                        "SHOW CREATE VIEW of a view with {other}"
                    )))
                }
            }
        }
        let group_concat = name == "group_concat";
        let mut separator = None;
        for c in &list.clauses {
            match c {
                FunctionArgumentClause::OrderBy(order) => {
                    self.push(" order by ");
                    for (i, o) in order.iter().enumerate() {
                        if i > 0 {
                            self.push(",");
                        }
                        self.expr(&o.expr, prec::LOWEST)?;
                        self.push(if matches!(o.options.sort, Some(OrderBySort::Desc)) {
                            " DESC"
                        } else {
                            " ASC"
                        });
                    }
                }
                FunctionArgumentClause::Separator(s) => separator = Some(s.value.clone()),
                FunctionArgumentClause::Limit(l) => {
                    self.push(" limit ");
                    self.expr(l, prec::LOWEST)?;
                }
                _ => {}
            }
        }
        if group_concat {
            let sep = match separator {
                Some(Value::SingleQuotedString(s) | Value::DoubleQuotedString(s)) => s,
                _ => ",".to_string(),
            };
            self.push(&format!(" separator {}", string(&sep)));
        }
        self.push(")");
        self.over(f)
    }

    /// A window function's `over ( ...)`.
    pub(super) fn over(&mut self, f: &Function) -> Result<(), SqlError> {
        let Some(WindowType::WindowSpec(spec)) = &f.over else {
            return Ok(());
        };
        self.push(" over (");
        if !spec.partition_by.is_empty() {
            self.push(" partition by ");
            self.list(&spec.partition_by)?;
        }
        if !spec.order_by.is_empty() {
            self.push(" order by ");
            for (i, o) in spec.order_by.iter().enumerate() {
                if i > 0 {
                    self.push(",");
                }
                self.expr(&o.expr, prec::LOWEST)?;
                if matches!(o.options.sort, Some(OrderBySort::Desc)) {
                    self.push(" desc");
                }
            }
        }
        self.push(")");
        Ok(())
    }
}

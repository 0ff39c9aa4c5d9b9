//! Printing a view's query as MariaDB prints a parsed one (see the module above).
//!
//! The rules, read off MariaDB 10.11's output:
//! * A select item is `expr AS `name``, items joined by `,` alone; a subquery in an
//!   expression prints its items bare.
//! * A column is qualified by its table's alias or name (with the database in the
//!   non-compact form); `*` and `t.*` are expanded; a name the tables lack (an alias in
//!   HAVING) prints as itself; an alias in ORDER BY / GROUP BY prints its expression.
//! * Tables: `` `t` ``, `` `t` `a` ``, derived `(select ...) `d``; every join (a comma too)
//!   nests as `(left join right on(cond))`, RIGHT JOIN becomes a LEFT JOIN of the swapped
//!   sides, USING / NATURAL become the `on(...)` they mean.
//! * Operators: lower-case words and spaces around; parentheses only where precedence needs
//!   them (the right operand of a same-precedence operator gets them); NOT folds into the
//!   comparison it negates; `= ANY` is `in`; EXISTS selects `1` with `limit 1`.
//! * Functions: lower case, MariaDB's canonical names (`ucase`, `substr`, `count(0)`,
//!   `current_timestamp()`), DATE_ADD as `+ interval`, arguments joined by `,`.
//! * Literals as written, strings in single quotes with MariaDB's escapes, TRUE as 1.

use sqlparser::ast::{
    BinaryOperator as Op, CastKind, DataType, Distinct, Expr, Function, FunctionArg,
    FunctionArgExpr, FunctionArgumentClause, FunctionArguments, GroupByExpr, Join, JoinConstraint,
    JoinOperator, LimitClause, LockType, NonBlock, ObjectName, OrderByExpr, OrderByKind,
    OrderBySort, Query, Select, SelectItem, SetExpr, SetOperator, SetQuantifier, TableFactor,
    TableIndexHintType, TableWithJoins, UnaryOperator, Value, WindowType,
};
use sqlparser::parser::Parser;

use super::Definition;
use crate::names::resolve_parts;
use crate::{Env, SqlError, TableName};

/// `` `name` `` with backticks doubled.
pub(crate) fn ident(name: &str) -> String {
    format!("`{}`", name.replace('`', "``"))
}

/// The view's query printed (see the module doc).
pub(crate) fn query(
    env: &dyn Env,
    view_db: &str,
    compact: bool,
    def: &Definition,
) -> Result<String, SqlError> {
    let q = Parser::new(&crate::lexer::DIALECT)
        .try_with_sql(&def.query)
        .and_then(|mut p| p.parse_query())
        .map_err(|e| SqlError::Unsupported(format!("SHOW CREATE VIEW of this view ({e})")))?;
    let mut p = Printer {
        env,
        view_db: view_db.to_string(),
        compact,
        scopes: Vec::new(),
        ctes: Vec::new(),
        out: String::new(),
        column_list: def.columns.clone(),
        bare_items: false,
    };
    p.query(&q, true)?;
    Ok(p.out)
}

/// A table in scope.
#[derive(Clone, Debug)]
struct Scoped {
    /// The name columns are qualified with in the query (alias or table name).
    name: String,
    /// How a column's qualifier prints.
    qualifier: String,
    columns: Vec<String>,
}

/// A CTE in scope: its name and columns.
type Cte = (String, Vec<String>);

struct Printer<'a> {
    env: &'a dyn Env,
    view_db: String,
    compact: bool,
    /// Tables in scope, innermost select last.
    scopes: Vec<Vec<Scoped>>,
    ctes: Vec<Cte>,
    out: String,
    /// The view's column list, which names the top-level items.
    column_list: Vec<String>,
    /// The select being printed is a subquery in an expression: only the names the user
    /// gave its items print.
    bare_items: bool,
}

/// MariaDB's operator precedences (`enum precedence`).
mod prec {
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
            UnaryOperator::Not => match expr.as_ref() {
                Expr::BinaryOp { op, .. } if negated(op).is_some() => prec::CMP,
                Expr::Identifier(_) | Expr::CompoundIdentifier(_) => prec::CMP,
                Expr::Like { .. } | Expr::InList { .. } | Expr::InSubquery { .. } => prec::CMP,
                Expr::Between { .. } => prec::BETWEEN,
                Expr::Nested(_) => precedence(&Expr::UnaryOp {
                    op: *op,
                    expr: Box::new(unnest(expr).clone()),
                }),
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
        "lcase" | "ucase" => return lower,
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
    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    // ---- queries ----

    fn query(&mut self, q: &Query, top: bool) -> Result<(), SqlError> {
        let ctes_before = self.ctes.len();
        if let Some(with) = &q.with {
            self.push(if with.recursive {
                "with recursive "
            } else {
                "with "
            });
            for (i, cte) in with.cte_tables.iter().enumerate() {
                if i > 0 {
                    self.push(", ");
                }
                let name = cte.alias.name.value.clone();
                self.push(&name);
                let mut columns: Vec<String> = cte
                    .alias
                    .columns
                    .iter()
                    .map(|c| c.name.value.clone())
                    .collect();
                if !columns.is_empty() {
                    let list: Vec<String> = columns.iter().map(|c| ident(c)).collect();
                    self.push(&format!("({})", list.join(",")));
                }
                self.push(" as ");
                if with.recursive {
                    self.ctes.push((name.clone(), columns.clone()));
                }
                // a column list names the CTE's items
                self.nested(&cte.query, columns.clone(), false)?;
                if columns.is_empty() {
                    columns = self.output_names(&cte.query)?;
                }
                if !with.recursive {
                    self.ctes.push((name, columns));
                }
            }
        }
        self.set_expr(&q.body, top, &q.body)?;
        if let Some(order) = &q.order_by {
            if let OrderByKind::Expressions(list) = &order.kind {
                // ORDER BY of a union names the union's columns, unqualified
                let single = match q.body.as_ref() {
                    SetExpr::Select(s) => Some(s.as_ref()),
                    _ => None,
                };
                self.order_by(list, single)?;
            }
        }
        if let Some(limit) = &q.limit_clause {
            self.limit(limit)?;
        }
        for lock in &q.locks {
            self.push(match lock.lock_type {
                LockType::Update => " for update",
                LockType::Share => " lock in share mode",
            });
            if let Some(NonBlock::SkipLocked) = lock.nonblock {
                self.push(" skip locked");
            } else if let Some(NonBlock::Nowait) = lock.nonblock {
                self.push(" nowait");
            }
        }
        self.ctes.truncate(ctes_before);
        Ok(())
    }

    fn set_expr(&mut self, body: &SetExpr, top: bool, whole: &SetExpr) -> Result<(), SqlError> {
        match body {
            SetExpr::Select(s) => self.select(s, top, std::ptr::eq(body, whole)),
            SetExpr::Query(q) => {
                self.push("(");
                self.query(q, top)?;
                self.push(")");
                Ok(())
            }
            SetExpr::SetOperation {
                left,
                op,
                set_quantifier,
                right,
            } => {
                self.set_expr(left, top, whole)?;
                self.push(match op {
                    SetOperator::Union => " union ",
                    SetOperator::Except | SetOperator::Minus => " except ",
                    SetOperator::Intersect => " intersect ",
                });
                if matches!(set_quantifier, SetQuantifier::All) {
                    self.push("all ");
                }
                self.set_expr(right, top, whole)
            }
            other => Err(SqlError::Unsupported(format!(
                "SHOW CREATE VIEW of a view over {other}"
            ))),
        }
    }

    /// The names of a query's result columns (its first select's aliases).
    fn output_names(&mut self, q: &Query) -> Result<Vec<String>, SqlError> {
        let mut body = q.body.as_ref();
        loop {
            match body {
                SetExpr::Select(s) => {
                    let scope = self.scope_of_from(&s.from)?;
                    let mut names = Vec::new();
                    for item in &s.projection {
                        match item {
                            SelectItem::ExprWithAlias { alias, .. } => {
                                names.push(alias.value.clone())
                            }
                            SelectItem::UnnamedExpr(e) => {
                                names.push(crate::item_names::column_name(e, None))
                            }
                            SelectItem::QualifiedWildcard(..) | SelectItem::Wildcard(_) => {
                                self.scopes.push(scope.clone());
                                let expanded = self.expand(item);
                                self.scopes.pop();
                                names.extend(expanded?.into_iter().filter_map(|(_, n)| n));
                            }
                            SelectItem::ExprWithAliases { .. } => {}
                        }
                    }
                    return Ok(names);
                }
                SetExpr::Query(q) => body = q.body.as_ref(),
                SetExpr::SetOperation { left, .. } => body = left.as_ref(),
                _ => return Ok(Vec::new()),
            }
        }
    }

    fn select(&mut self, s: &Select, top: bool, single: bool) -> Result<(), SqlError> {
        let scope = self.scope_of_from(&s.from)?;
        self.scopes.push(scope);
        let result = self.select_in_scope(s, top, single);
        self.scopes.pop();
        result
    }

    fn select_in_scope(&mut self, s: &Select, top: bool, _single: bool) -> Result<(), SqlError> {
        self.push("select ");
        if let Some(Distinct::Distinct) = s.distinct {
            self.push("distinct ");
        }
        let mut position = 0;
        for item in &s.projection {
            for (expr, name) in self.expand(item)? {
                if position > 0 {
                    self.push(",");
                }
                let name = match self.column_list.get(position) {
                    Some(listed) if top => Some(listed.clone()),
                    _ => name,
                };
                self.expr(&expr, prec::LOWEST)?;
                if let Some(name) = name {
                    self.push(&format!(" AS {}", ident(&name)));
                }
                position += 1;
            }
        }
        let from: Vec<TableWithJoins> = s
            .from
            .iter()
            .filter(|t| !matches!(&t.relation, TableFactor::Table { name, .. } if is_dual(name) && t.joins.is_empty()))
            .cloned()
            .collect();
        let clauses = s.selection.is_some()
            || !matches!(&s.group_by, GroupByExpr::Expressions(e, _) if e.is_empty())
            || s.having.is_some();
        if from.is_empty() {
            if clauses {
                self.push(" from DUAL ");
            }
        } else {
            self.push(" from ");
            self.from(&from)?;
        }
        if let Some(w) = &s.selection {
            self.push(" where ");
            self.operand(w, prec::LOWEST, true)?;
        }
        if let GroupByExpr::Expressions(list, modifiers) = &s.group_by {
            if !list.is_empty() {
                self.push(" group by ");
                for (i, e) in list.iter().enumerate() {
                    if i > 0 {
                        self.push(",");
                    }
                    let e = self.alias_target(e, s).unwrap_or(e).clone();
                    self.expr(&e, prec::LOWEST)?;
                }
                if !modifiers.is_empty() {
                    self.push(" with rollup");
                }
            }
        }
        if let Some(h) = &s.having {
            self.push(" having ");
            let h = having_aliases(h, s, self, top);
            self.operand(&h, prec::LOWEST, true)?;
        }
        Ok(())
    }

    /// The select item an ORDER BY / GROUP BY name refers to, when it is an alias (not a
    /// column of the tables).
    fn alias_target<'s>(&self, e: &Expr, s: &'s Select) -> Option<&'s Expr> {
        let Expr::Identifier(name) = e else {
            return None;
        };
        if self.resolve(None, &name.value).is_some() {
            return None;
        }
        s.projection.iter().find_map(|item| match item {
            SelectItem::ExprWithAlias { expr, alias }
                if alias.value.eq_ignore_ascii_case(&name.value) =>
            {
                Some(expr)
            }
            _ => None,
        })
    }

    fn order_by(&mut self, list: &[OrderByExpr], s: Option<&Select>) -> Result<(), SqlError> {
        self.push(" order by ");
        if let Some(s) = s {
            let scope = self.scope_of_from(&s.from)?;
            self.scopes.push(scope);
        }
        for (i, o) in list.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            let e = s
                .and_then(|s| self.alias_target(&o.expr, s))
                .unwrap_or(&o.expr)
                .clone();
            self.expr(&e, prec::LOWEST)?;
            if matches!(o.options.sort, Some(OrderBySort::Desc)) {
                self.push(" desc");
            }
        }
        if s.is_some() {
            self.scopes.pop();
        }
        Ok(())
    }

    fn limit(&mut self, limit: &LimitClause) -> Result<(), SqlError> {
        let (offset, count) = match limit {
            LimitClause::LimitOffset { limit, offset, .. } => {
                (offset.as_ref().map(|o| &o.value), limit.as_ref())
            }
            LimitClause::OffsetCommaLimit { offset, limit } => (Some(offset), Some(limit)),
        };
        let Some(count) = count else { return Ok(()) };
        self.push(" limit ");
        if let Some(offset) = offset {
            self.expr(offset, prec::LOWEST)?;
            self.push(",");
        }
        self.expr(count, prec::LOWEST)
    }

    // ---- tables ----

    /// The tables a FROM clause puts in scope, in order.
    fn scope_of_from(&mut self, from: &[TableWithJoins]) -> Result<Vec<Scoped>, SqlError> {
        let mut out = Vec::new();
        for twj in from {
            self.factor_scope(&twj.relation, &mut out)?;
            for j in &twj.joins {
                self.factor_scope(&j.relation, &mut out)?;
            }
        }
        Ok(out)
    }

    fn factor_scope(&mut self, tf: &TableFactor, out: &mut Vec<Scoped>) -> Result<(), SqlError> {
        match tf {
            TableFactor::Table { name, .. } if is_dual(name) => {}
            TableFactor::Table { name, alias, .. } => {
                let alias = alias.as_ref().map(|a| a.name.value.clone());
                if let Some((cte, columns)) = self.cte(name) {
                    let name = alias.unwrap_or(cte);
                    out.push(Scoped {
                        qualifier: ident(&name),
                        name,
                        columns,
                    });
                    return Ok(());
                }
                let table = self.table_name(name)?;
                let columns = self
                    .env
                    .table(&table)
                    .map(|t| t.columns.iter().map(|c| c.name.clone()).collect())
                    .unwrap_or_default();
                let (name, qualifier) = match alias {
                    Some(a) => (a.clone(), ident(&a)),
                    None => (table.table.clone(), self.table_text(&table, name)),
                };
                out.push(Scoped {
                    name,
                    qualifier,
                    columns,
                });
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let name = alias
                    .as_ref()
                    .map(|a| a.name.value.clone())
                    .unwrap_or_default();
                let columns = self.output_names(subquery)?;
                out.push(Scoped {
                    qualifier: ident(&name),
                    name,
                    columns,
                });
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                self.factor_scope(&table_with_joins.relation, out)?;
                for j in &table_with_joins.joins {
                    self.factor_scope(&j.relation, out)?;
                }
            }
            other => {
                return Err(SqlError::Unsupported(format!(
                    "SHOW CREATE VIEW of a view over {other}"
                )))
            }
        }
        Ok(())
    }

    fn cte(&self, name: &ObjectName) -> Option<Cte> {
        let [part] = name.0.as_slice() else {
            return None;
        };
        let n = part.as_ident()?.value.as_str();
        self.ctes
            .iter()
            .rev()
            .find(|(c, _)| c.eq_ignore_ascii_case(n))
            .cloned()
    }

    fn table_name(&self, name: &ObjectName) -> Result<TableName, SqlError> {
        let parts: Vec<_> = name.0.iter().filter_map(|p| p.as_ident()).collect();
        let mut t = resolve_parts(self.env, &parts)?;
        if parts.len() == 1 {
            // an unqualified name in a view is in the view's database
            t.db = self.view_db.clone();
        }
        Ok(t)
    }

    /// A table as a FROM clause or a column's qualifier prints it (`written`: as the query
    /// names it; a database written there is kept).
    fn table_text(&self, t: &TableName, written: &ObjectName) -> String {
        if self.compact && t.db == self.view_db && written.0.len() == 1 {
            ident(&t.table)
        } else {
            format!("{}.{}", ident(&t.db), ident(&t.table))
        }
    }

    fn from(&mut self, from: &[TableWithJoins]) -> Result<(), SqlError> {
        // a comma is a join: the list nests like one
        let mut text = String::new();
        for (i, twj) in from.iter().enumerate() {
            let (t, _) = self.joined(twj)?;
            text = match i {
                0 => t,
                _ => format!("({text} join {t})"),
            };
        }
        self.push(&text);
        Ok(())
    }

    /// A table and its joins: the text and the tables in it.
    fn joined(&mut self, twj: &TableWithJoins) -> Result<(String, Vec<Scoped>), SqlError> {
        let (mut text, mut tables) = self.factor(&twj.relation)?;
        for j in &twj.joins {
            let (right, right_tables) = self.factor(&j.relation)?;
            text = self.join(text, &tables, right, &right_tables, j)?;
            tables.extend(right_tables);
        }
        Ok((text, tables))
    }

    fn join(
        &mut self,
        left: String,
        left_tables: &[Scoped],
        right: String,
        right_tables: &[Scoped],
        j: &Join,
    ) -> Result<String, SqlError> {
        let (word, constraint, swap) = match &j.join_operator {
            JoinOperator::Join(c) | JoinOperator::Inner(c) | JoinOperator::CrossJoin(c) => {
                ("join", c, false)
            }
            JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => ("left join", c, false),
            JoinOperator::Right(c) | JoinOperator::RightOuter(c) => ("left join", c, true),
            JoinOperator::StraightJoin(c) => ("straight_join", c, false),
            other => {
                return Err(SqlError::Unsupported(format!(
                    "SHOW CREATE VIEW of a view with {other:?}"
                )))
            }
        };
        let on = match constraint {
            JoinConstraint::On(e) => {
                let mut all = left_tables.to_vec();
                all.extend(right_tables.iter().cloned());
                Some(self.scoped_text(all, e)?)
            }
            JoinConstraint::Using(cols) => {
                let names: Vec<String> = cols.iter().map(|c| c.to_string()).collect();
                Some(using_condition(&names, left_tables, right_tables))
            }
            JoinConstraint::Natural => {
                let common: Vec<String> = left_tables
                    .iter()
                    .flat_map(|t| t.columns.clone())
                    .filter(|c| {
                        right_tables
                            .iter()
                            .any(|t| t.columns.iter().any(|r| r.eq_ignore_ascii_case(c)))
                    })
                    .collect();
                Some(using_condition(&common, left_tables, right_tables))
            }
            JoinConstraint::None => None,
        };
        let (a, b) = if swap { (right, left) } else { (left, right) };
        Ok(match on {
            Some(on) => format!("({a} {word} {b} on({on}))"),
            None => format!("({a} {word} {b})"),
        })
    }

    /// `e` printed with `tables` as the innermost scope.
    fn scoped_text(&mut self, tables: Vec<Scoped>, e: &Expr) -> Result<String, SqlError> {
        let saved = std::mem::take(&mut self.out);
        self.scopes.push(tables);
        let result = self.expr(e, prec::LOWEST);
        self.scopes.pop();
        let text = std::mem::replace(&mut self.out, saved);
        result.map(|()| text)
    }

    fn factor(&mut self, tf: &TableFactor) -> Result<(String, Vec<Scoped>), SqlError> {
        let mut tables = Vec::new();
        self.factor_scope(tf, &mut tables)?;
        let text = match tf {
            TableFactor::Table {
                name,
                alias,
                index_hints,
                ..
            } => {
                let mut text = match self.cte(name) {
                    Some((cte, _)) => ident(&cte),
                    None => self.table_text(&self.table_name(name)?, name),
                };
                if let Some(a) = alias {
                    text.push(' ');
                    text.push_str(&ident(&a.name.value));
                }
                for h in index_hints {
                    let kind = match h.hint_type {
                        TableIndexHintType::Use => "USE",
                        TableIndexHintType::Ignore => "IGNORE",
                        TableIndexHintType::Force => "FORCE",
                    };
                    // one hint per index, as MariaDB keeps them
                    if h.index_names.is_empty() {
                        text.push_str(&format!(" {kind} INDEX ()"));
                    }
                    for n in &h.index_names {
                        let name = match n.value.to_ascii_uppercase().as_str() {
                            "PRIMARY" => "PRIMARY".to_string(),
                            _ => ident(&n.value),
                        };
                        text.push_str(&format!(" {kind} INDEX ({name})"));
                    }
                }
                text
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let saved = std::mem::take(&mut self.out);
                let scopes = std::mem::take(&mut self.scopes);
                let result = self.nested(subquery, Vec::new(), false);
                self.scopes = scopes;
                let mut text = std::mem::replace(&mut self.out, saved);
                result?;
                if let Some(a) = alias {
                    text.push(' ');
                    text.push_str(&ident(&a.name.value));
                }
                text
            }
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => self.joined(table_with_joins)?.0,
            _ => unreachable!("factor_scope refused it"),
        };
        Ok((text, tables))
    }

    // ---- select items ----

    /// A select item as (expression, name) pairs: `*` expands to the columns in scope. A
    /// name the user did not give is left out in a subquery (see `bare_items`).
    fn expand(&self, item: &SelectItem) -> Result<Vec<(Expr, Option<String>)>, SqlError> {
        let scope = self.scopes.last().cloned().unwrap_or_default();
        let generated = |name: String| (!self.bare_items).then_some(name);
        let columns = |t: &Scoped| -> Vec<(Expr, Option<String>)> {
            t.columns
                .iter()
                .map(|c| {
                    let e = Expr::CompoundIdentifier(vec![
                        sqlparser::ast::Ident::new(&t.name),
                        sqlparser::ast::Ident::new(c),
                    ]);
                    (e, generated(c.clone()))
                })
                .collect()
        };
        Ok(match item {
            SelectItem::ExprWithAlias { expr, alias } => {
                vec![(expr.clone(), Some(alias.value.clone()))]
            }
            SelectItem::UnnamedExpr(e) => {
                vec![(
                    e.clone(),
                    generated(crate::item_names::column_name(e, None)),
                )]
            }
            SelectItem::Wildcard(_) => scope.iter().flat_map(columns).collect(),
            SelectItem::QualifiedWildcard(kind, _) => {
                let q = match kind {
                    sqlparser::ast::SelectItemQualifiedWildcardKind::ObjectName(n) => {
                        n.0.last()
                            .and_then(|p| p.as_ident())
                            .map(|i| i.value.clone())
                            .unwrap_or_default()
                    }
                    sqlparser::ast::SelectItemQualifiedWildcardKind::Expr(e) => e.to_string(),
                };
                scope
                    .iter()
                    .filter(|t| t.name.eq_ignore_ascii_case(&q))
                    .flat_map(columns)
                    .collect()
            }
            SelectItem::ExprWithAliases { .. } => {
                return Err(SqlError::Unsupported(
                    "SHOW CREATE VIEW of a view with several aliases for an item".into(),
                ))
            }
        })
    }

    // ---- expressions ----

    /// The table a column belongs to: (its qualifier text, the column's declared name).
    fn resolve(&self, qualifier: Option<&str>, column: &str) -> Option<(String, String)> {
        for scope in self.scopes.iter().rev() {
            for t in scope {
                if qualifier.is_some_and(|q| !q.eq_ignore_ascii_case(&t.name)) {
                    continue;
                }
                if let Some(c) = t.columns.iter().find(|c| c.eq_ignore_ascii_case(column)) {
                    return Some((t.qualifier.clone(), c.clone()));
                }
            }
        }
        None
    }

    fn column(&mut self, parts: &[sqlparser::ast::Ident]) {
        let names: Vec<&str> = parts.iter().map(|i| i.value.as_str()).collect();
        let text = match names.as_slice() {
            [c] => match self.resolve(None, c) {
                Some((q, c)) => format!("{q}.{}", ident(&c)),
                None => ident(c),
            },
            [t, c] => match self.resolve(Some(t), c) {
                Some((q, c)) => format!("{q}.{}", ident(&c)),
                None => format!("{}.{}", ident(t), ident(c)),
            },
            _ => names.iter().map(|n| ident(n)).collect::<Vec<_>>().join("."),
        };
        self.push(&text);
    }

    /// `e`, in parentheses when its precedence is below `parent`'s.
    fn expr(&mut self, e: &Expr, parent: u8) -> Result<(), SqlError> {
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

    fn bare(&mut self, e: &Expr) -> Result<(), SqlError> {
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

    fn list(&mut self, list: &[Expr]) -> Result<(), SqlError> {
        for (i, e) in list.iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.expr(e, prec::LOWEST)?;
        }
        Ok(())
    }

    fn call(&mut self, name: &str, args: &[&Expr]) -> Result<(), SqlError> {
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

    fn postfix(&mut self, x: &Expr, text: &str) -> Result<(), SqlError> {
        self.expr(x, prec::CMP)?;
        self.push(text);
        Ok(())
    }

    /// A subquery in an expression (its items carry only the names the user gave them).
    fn subquery(&mut self, q: &Query) -> Result<(), SqlError> {
        self.nested(q, Vec::new(), true)
    }

    /// A query in parentheses whose items `column_list` names (see `bare_items`).
    fn nested(&mut self, q: &Query, column_list: Vec<String>, bare: bool) -> Result<(), SqlError> {
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

    fn value(&mut self, v: &Value) {
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

    fn binary(&mut self, left: &Expr, op: &Op, right: &Expr) -> Result<(), SqlError> {
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
    fn operand(&mut self, e: &Expr, parent: u8, boolean: bool) -> Result<(), SqlError> {
        if boolean && matches!(unnest(e), Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
            self.bare(unnest(e))?;
            self.push(" <> 0");
            return Ok(());
        }
        self.expr(e, parent)
    }

    fn unary(&mut self, op: UnaryOperator, x: &Expr) -> Result<(), SqlError> {
        match op {
            UnaryOperator::Not => self.not(x),
            UnaryOperator::Minus => match unnest(x) {
                Expr::Value(v) if matches!(v.value, Value::Number(..)) => {
                    let Value::Number(n, _) = &v.value else {
                        unreachable!()
                    };
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
    fn not(&mut self, x: &Expr) -> Result<(), SqlError> {
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

    fn cast_type(&self, t: &DataType) -> String {
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

    fn function(&mut self, f: &Function) -> Result<(), SqlError> {
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
    fn over(&mut self, f: &Function) -> Result<(), SqlError> {
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

/// `DUAL`, the table of a FROM that names none.
fn is_dual(name: &ObjectName) -> bool {
    matches!(name.0.as_slice(), [part] if part.as_ident().is_some_and(|i| i.quote_style.is_none() && i.value.eq_ignore_ascii_case("dual")))
}

/// `USING (a, b)` as the condition it means: each column of the left tables equal to the
/// right tables' one.
fn using_condition(columns: &[String], left: &[Scoped], right: &[Scoped]) -> String {
    let side = |tables: &[Scoped], c: &str| {
        tables
            .iter()
            .find(|t| t.columns.iter().any(|x| x.eq_ignore_ascii_case(c)))
            .map_or_else(|| ident(c), |t| format!("{}.{}", t.qualifier, ident(c)))
    };
    columns
        .iter()
        .map(|c| format!("{} = {}", side(left, c), side(right, c)))
        .collect::<Vec<_>>()
        .join(" and ")
}

/// HAVING names a select item by its alias (when the tables have no such column): it
/// prints as the bare alias, as MariaDB prints it.
/// prints as the item's name (from the view's column list at the top level).
fn having_aliases(h: &Expr, s: &Select, p: &Printer<'_>, top: bool) -> Expr {
    let mut h = h.clone();
    let _ = sqlparser::ast::visit_expressions_mut(&mut h, |e| {
        if let Expr::Identifier(i) = e {
            let position = s.projection.iter().position(|item| {
                matches!(item, SelectItem::ExprWithAlias { alias, .. } if alias.value.eq_ignore_ascii_case(&i.value))
            });
            if let Some(k) = position.filter(|_| p.resolve(None, &i.value).is_none()) {
                if let Some(listed) = p.column_list.get(k).filter(|_| top) {
                    i.value = listed.clone();
                }
                i.quote_style = Some('`');
            }
        }
        std::ops::ControlFlow::<()>::Continue(())
    });
    h
}

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
    Distinct, Expr, GroupByExpr, Join, JoinConstraint, JoinOperator, LimitClause, LockType,
    NonBlock, ObjectName, OrderByExpr, OrderByKind, OrderBySort, Query, Select, SelectItem,
    SetExpr, SetOperator, SetQuantifier, TableFactor, TableIndexHintType, TableWithJoins,
};
use sqlparser::parser::Parser;

mod expr;

use expr::prec;

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

/// Expression `e`, outside any query (a column's DEFAULT), as MariaDB prints it.
pub(crate) fn expression(env: &dyn Env, e: &sqlparser::ast::Expr) -> Result<String, SqlError> {
    let mut p = Printer {
        env,
        view_db: String::new(),
        compact: true,
        scopes: Vec::new(),
        ctes: Vec::new(),
        out: String::new(),
        column_list: Vec::new(),
        bare_items: false,
    };
    p.bare(e)?;
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
        self.set_expr(&q.body, top)?;
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

    fn set_expr(&mut self, body: &SetExpr, top: bool) -> Result<(), SqlError> {
        match body {
            SetExpr::Select(s) => self.select(s, top),
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
                self.set_expr(left, top)?;
                self.push(match op {
                    SetOperator::Union => " union ",
                    SetOperator::Except | SetOperator::Minus => " except ",
                    SetOperator::Intersect => " intersect ",
                });
                if matches!(set_quantifier, SetQuantifier::All) {
                    self.push("all ");
                }
                self.set_expr(right, top)
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

    fn select(&mut self, s: &Select, top: bool) -> Result<(), SqlError> {
        let scope = self.scope_of_from(&s.from)?;
        self.scopes.push(scope);
        let result = self.select_in_scope(s, top);
        self.scopes.pop();
        result
    }

    fn select_in_scope(&mut self, s: &Select, top: bool) -> Result<(), SqlError> {
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

//! The AST walk that turns a parsed MySQL query (or the query parts of a DML statement) into
//! SQLite: one pass over the tree with sqlparser's `VisitorMut`.
//!
//! * Queries: parenthesized operands of UNION/INTERSECT/EXCEPT are unwrapped or turned into
//!   `SELECT * FROM (...)` (SQLite wants simple SELECTs there), `UNION DISTINCT` → `UNION`,
//!   locking clauses (`FOR UPDATE`, `FOR SHARE`) are removed and remembered, CTE names are
//!   tracked so they are never resolved as tables, `VALUE`/`ROW(...)` → `VALUES (...)`.
//! * SELECTs: MySQL modifiers (`SQL_NO_CACHE`, `SQL_CALC_FOUND_ROWS`, `HIGH_PRIORITY`,
//!   `STRAIGHT_JOIN`, ...) are dropped, `FROM DUAL` disappears, `SELECT ... INTO` and
//!   `WITH ROLLUP` are refused. Every projection item that is not a plain column gets an
//!   alias holding MySQL's column name for it (the expression as written, the value for a
//!   string literal), so rewriting (`@@version_comment` → `'tutti'`) never changes what the
//!   client sees as the column name.
//! * Tables: `t` → `"db.t" AS "t"` (alias = the MySQL table name unless the user gave one),
//!   so `t.col` and `db.t.col` (→ `"t"."col"`) keep working. Index hints are dropped.
//! * Expressions: see `exprs`; scalar subqueries: see `subquery`.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, JoinConstraint, JoinOperator, ObjectName, ObjectNamePart, OrderByKind, Query, Select,
    SelectItem, SelectItemQualifiedWildcardKind, SetExpr, SetQuantifier, Statement, TableAlias,
    TableFactor, TableWithJoins, Value as SqlValue, VisitMut, VisitorMut,
};

use crate::ast_build::select_star_from;
use crate::exprs::{pre_rewrite, ExprCtx};
use crate::item_names;
use crate::names::{parts, quote, quoted, resolve_parts, sqlite_object};
use crate::result_types::{self, ResultType};
use crate::syntax::Source;
use crate::typing::Scope;
use crate::{Env, SqlError, TableInfo, TableName};
use sqlparser::tokenizer::Location;

/// An expression's position in its list and the SQLite collation it is given.
type Collated = (usize, &'static str);

/// Rewrites queries and expressions in place; see the module docs.
pub(crate) struct Rewriter<'a> {
    /// Expression rewriting state (the session, the volatile flag).
    pub ex: ExprCtx<'a>,
    /// CTE names in scope, one list per enclosing query (lower case).
    ctes: Vec<Vec<String>>,
    /// The typed columns of non-recursive CTEs, by lower-case name (see `derived`).
    cte_scopes: std::collections::HashMap<String, Scope>,
    /// The locking clause removed (`FOR UPDATE`, `FOR SHARE`), if any.
    pub lock: Option<crate::locking::LockSpec>,
    /// Tables and views named that the catalog knows (resolved).
    pub(crate) tables: Vec<TableName>,
    /// The first object named that the catalog does not know.
    unknown_object: Option<TableName>,
    /// WITH clauses already rewritten, put back after their query's visit (one per query).
    withs: Vec<Option<sqlparser::ast::With>>,
    /// Nesting of the query being visited (1: the statement's own query).
    depth: usize,
    /// The statement's own query is one SELECT (no UNION, whose members' values are
    /// compared with each other).
    single_select: bool,
    /// The statement's result columns keep a BIGINT UNSIGNED's stored form (see
    /// [`Rewriter::stored_results`]).
    stored_results: bool,
    /// Computed string result columns carry their collation (see
    /// [`Rewriter::collated_results`]).
    collated_results: bool,
    /// The result columns of the statement's query that are computed DECIMALs (set by its
    /// first SELECT).
    pub decimal_columns: Option<Vec<String>>,
    /// The result columns that are doubles with fixed decimals (see `typing::fixed_real_sum`).
    pub fixed_decimals: Vec<(String, u8)>,
    /// The types of the statement's computed result columns that SQLite's values do not
    /// tell (see `Query::computed_types`).
    pub computed_types: Vec<(usize, crate::ComputedType)>,
    /// The client's text and where the statement ends in it, for result column names.
    source: Option<(&'a Source<'a>, Location)>,
    /// MariaDB's types of the statement's result columns (set by its first SELECT when
    /// [`Rewriter::with_result_types`] asked for them).
    pub result_types: Option<Vec<Option<ResultType>>>,
    derive_types: bool,
    /// Per SELECT being visited (innermost last): its DISTINCT items and its GROUP BY
    /// expressions that MariaDB groups case-insensitively (see
    /// `derivation::grouping_collation`), collated once the SELECT is rewritten.
    grouped_ci: Vec<(Vec<Collated>, Vec<Collated>)>,
    /// Per query being visited (innermost last): its ORDER BY expressions that MariaDB
    /// sorts case-insensitively, collated once they are rewritten.
    ordered_ci: Vec<Vec<Collated>>,
    /// The FLOAT columns of the statement's UNION, if it is one (see `union_floats`).
    union_floats: crate::union_floats::UnionFloats,
    /// The scales of the statement's UNION's DECIMAL columns (see `union_decimals`).
    union_scales: Vec<Option<crate::union_decimals::Shown>>,
    /// Per derived table being visited (innermost last): its UNION's DECIMAL scales.
    derived_scales: Vec<Vec<Option<crate::union_decimals::Shown>>>,
}

fn flow(r: Result<(), SqlError>) -> ControlFlow<SqlError> {
    match r {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => ControlFlow::Break(e),
    }
}

/// True when a node assigns a user variable somewhere (`@v := x`).
fn assigns<V: sqlparser::ast::Visit>(node: &V) -> bool {
    sqlparser::ast::visit_expressions(node, |e| {
        if crate::exprs::assigned_variable(e).is_some() || crate::exprs::sets_last_insert_id(e) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_break()
}

fn result(c: ControlFlow<SqlError>) -> Result<(), SqlError> {
    match c {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(e) => Err(e),
    }
}

impl<'a> Rewriter<'a> {
    /// A rewriter for one statement.
    pub fn new(env: &'a dyn Env) -> Self {
        Rewriter {
            ex: ExprCtx {
                env,
                volatile: false,
                scopes: Vec::new(),
                assigning: false,
                zoned_timestamps: crate::timestamps::zoned_session(env),
            },
            ctes: Vec::new(),
            cte_scopes: Default::default(),
            lock: None,
            tables: Vec::new(),
            unknown_object: None,
            withs: Vec::new(),
            depth: 0,
            single_select: false,
            stored_results: false,
            collated_results: false,
            decimal_columns: None,
            fixed_decimals: Vec::new(),
            computed_types: Vec::new(),
            source: None,
            result_types: None,
            derive_types: false,
            grouped_ci: Vec::new(),
            ordered_ci: Vec::new(),
            union_floats: Default::default(),
            union_scales: Vec::new(),
            derived_scales: Vec::new(),
        }
    }

    /// Rewrites a whole statement.
    pub fn statement(&mut self, s: &mut Statement) -> Result<(), SqlError> {
        self.ex.assigning |= assigns(&*s);
        let _collation = crate::connection_collation::Scope::enter(self.ex.env);
        result(s.visit(self))
    }

    /// Rewrites a query.
    pub fn query(&mut self, q: &mut Query) -> Result<(), SqlError> {
        self.ex.assigning |= assigns(&*q);
        let _collation = crate::connection_collation::Scope::enter(self.ex.env);
        result(q.visit(self))
    }

    /// Rewrites an expression (and any subqueries in it).
    pub fn expr(&mut self, e: &mut Expr) -> Result<(), SqlError> {
        self.ex.assigning |= assigns(&*e);
        let _collation = crate::connection_collation::Scope::enter(self.ex.env);
        result(e.visit(self))
    }

    /// Names result columns after the client's text `src` (see `item_names`).
    pub fn with_source(mut self, (src, end): (&'a Source<'a>, Location)) -> Self {
        self.source = Some((src, end));
        self
    }

    /// The statement's result columns that read a BIGINT UNSIGNED column keep its stored
    /// form (see `big_unsigned`): for the client, the executor decodes them by their
    /// declared type; for a view, the queries over it read them as a table's columns.
    pub fn stored_results(mut self) -> Self {
        self.stored_results = true;
        self
    }

    /// The statement's computed string columns carry their collation (`CONCAT(c, '') COLLATE
    /// tutti_general_ci`): SQLite gives a function's result none, and the queries over a
    /// view compare, group and sort its columns in what they carry.
    pub fn collated_results(mut self) -> Self {
        self.collated_results = true;
        self
    }

    /// TIMESTAMP columns are read in the zone of the session that runs the statement,
    /// whatever this session's is (a view's query, see `timestamps`).
    pub fn zoned_timestamps(mut self) -> Self {
        self.ex.zoned_timestamps = true;
        self
    }

    /// Whether it derives the result columns' types (see [`Rewriter::with_result_types`]).
    pub fn derives_types(&self) -> bool {
        self.derive_types
    }

    /// Derives the result columns' types (for `CREATE TABLE ... SELECT`).
    pub fn with_result_types(mut self) -> Self {
        self.derive_types = true;
        self
    }

    /// The source texts of a SELECT's items, when one of them is an unaliased expression
    /// whose name is its text.
    fn item_texts(&self, s: &Select) -> Option<Vec<String>> {
        let typed = s.projection.iter().any(|i| {
            matches!(i, SelectItem::UnnamedExpr(e)
                if !matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_)))
        });
        if !typed {
            return None;
        }
        let (src, end) = self.source?;
        item_names::item_texts(src, s.select_token.0.span.start, end, s.projection.len())
    }

    /// True when SQLite names the result column `e` `name` by itself: `e` is a column of a
    /// table in scope, written as it was declared.
    fn sqlite_names_alike(&self, e: &Expr, name: &str) -> bool {
        let written = match e {
            Expr::Identifier(i) => i,
            Expr::CompoundIdentifier(ids) => &ids[ids.len() - 1],
            _ => return false,
        };
        written.value == name
            && self.ex.scopes.last().is_some_and(|scope| {
                scope
                    .iter()
                    .any(|t| t.table.columns.iter().any(|c| c.name == name))
            })
    }

    /// The first object named that the catalog does not know (SQLite may: a system table).
    pub fn unknown_object(&self) -> Option<&TableName> {
        self.unknown_object.as_ref()
    }

    /// The tables read, when every object named is a known table.
    pub fn reads(&self) -> Option<Vec<TableName>> {
        self.unknown_object.is_none().then(|| self.tables.clone())
    }

    fn in_cte(&self, name: &str) -> bool {
        self.ctes
            .iter()
            .flatten()
            .any(|c| c.eq_ignore_ascii_case(name))
    }

    fn pre_query(&mut self, q: &mut Query) -> Result<(), SqlError> {
        unwrap_parenthesized(q);
        self.expand_rollup(q)?;
        if self.depth == 1 {
            self.single_select = matches!(q.body.as_ref(), SetExpr::Select(_));
        }
        if self.derive_types && self.depth == 1 && !self.single_select {
            // a UNION's types aggregate all its SELECTs': not derived
            self.result_types.get_or_insert_with(Vec::new);
        }
        // The CTEs are rewritten here, each seeing only the CTEs before it (and itself when
        // RECURSIVE), then kept aside so the walk over the query does not visit them again.
        let mut names = Vec::new();
        let with = match q.with.take() {
            Some(mut with) => {
                self.ctes.push(Vec::new());
                for cte in &mut with.cte_tables {
                    let name = cte.alias.name.value.clone();
                    if with.recursive {
                        self.ctes.last_mut().expect("pushed").push(name.clone());
                    } else if let Some(scope) =
                        self.derived_scope(&name, &cte.alias.columns, &cte.query)
                    {
                        self.cte_scopes.insert(name.to_ascii_lowercase(), scope);
                    }
                    let scales = self.union_plan(&cte.query);
                    self.query(&mut cte.query)?;
                    exact_decimals(&mut cte.query.body, &scales);
                    if let Some(scope) = self.cte_scopes.get(&name.to_ascii_lowercase()) {
                        crate::derived::collate_items(scope, &mut cte.query.body);
                    }
                    if !with.recursive {
                        self.ctes.last_mut().expect("pushed").push(name);
                    }
                    quote_alias(&mut cte.alias);
                    cte.alias.explicit = false; // a CTE name prints without AS
                }
                names = self.ctes.pop().unwrap_or_default();
                Some(with)
            }
            None => None,
        };
        self.withs.push(with);
        self.ctes.push(names);
        crate::having::aggregate_elsewhere(q, self.ex.scopes.is_empty());
        self.order_enums_by_index(q);
        let ordered_ci = self.ordered_ci(q);
        self.ordered_ci.push(ordered_ci);
        if !q.locks.is_empty() {
            let spec = crate::locking::LockSpec::of(&q.locks)?;
            self.lock = Some(self.lock.map_or(spec, |l| l.merge(spec)));
            q.locks.clear();
        }
        if self.depth == 1 && !self.single_select {
            self.union_scales = self.union_plan(q);
        }
        fix_set_expr(&mut q.body)
    }

    /// The scales of a UNION's DECIMAL columns, from its SELECTs in MySQL form (see
    /// `union_decimals`); empty for other queries.
    fn union_plan(&self, q: &Query) -> Vec<Option<crate::union_decimals::Shown>> {
        let Some(selects) = crate::derived::union_members(&q.body).filter(|m| m.len() > 1) else {
            return Vec::new();
        };
        let types: Vec<_> = selects
            .iter()
            .map(|s| {
                let mut scopes = self.ex.scopes.clone();
                scopes.push(self.scope_of(&s.from));
                result_types::of_projection(&s.projection, &s.from, &scopes)
            })
            .collect();
        crate::union_decimals::plan(&selects, &types)
    }

    /// `GROUP BY ... WITH ROLLUP` → the grouping levels' UNION ALL (see `rollup`).
    fn expand_rollup(&self, q: &mut Query) -> Result<(), SqlError> {
        let SetExpr::Select(s) = q.body.as_ref() else {
            return Ok(());
        };
        if !crate::rollup::has_rollup(s) {
            return Ok(());
        }
        let texts = self.item_texts(s);
        let names = s
            .projection
            .iter()
            .enumerate()
            .map(|(i, item)| match item {
                SelectItem::UnnamedExpr(e) => {
                    let text = texts.as_ref().and_then(|t| t.get(i)).map(String::as_str);
                    Some(item_names::column_name(e, text))
                }
                SelectItem::ExprWithAlias { alias, .. } => Some(alias.value.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| SqlError::Unsupported("SELECT * ... WITH ROLLUP".into()))?;
        let scope = self.scope_of(&s.from);
        let is_column = |name: &str| {
            scope.iter().any(|t| {
                t.table
                    .columns
                    .iter()
                    .any(|c| c.name.eq_ignore_ascii_case(name))
            })
        };
        crate::rollup::expand(q, &names, &is_column)
    }

    /// The ORDER BY expressions of `q` (a SELECT's, in MySQL form) that MariaDB sorts
    /// case-insensitively: computed strings in a `_ci` collation, or aliases of such select
    /// items (see `derivation::grouping_collation`).
    fn ordered_ci(&self, q: &Query) -> Vec<Collated> {
        let (SetExpr::Select(s), Some(order)) = (q.body.as_ref(), q.order_by.as_ref()) else {
            return Vec::new();
        };
        let OrderByKind::Expressions(items) = &order.kind else {
            return Vec::new();
        };
        // The SELECT's own tables decide, as for ENUMs below.
        let scopes = vec![self.scope_of(&s.from)];
        let ci = |e: &Expr| crate::derivation::grouping_collation(e, &scopes, self.ex.env);
        let aliased = |name: &str| {
            s.projection.iter().find_map(|i| match i {
                SelectItem::ExprWithAlias { alias, expr }
                    if alias.value.eq_ignore_ascii_case(name) =>
                {
                    ci(expr)
                }
                _ => None,
            })
        };
        (0..items.len())
            .filter_map(|i| {
                match &items[i].expr {
                    Expr::Identifier(id) => aliased(&id.value),
                    e => ci(e),
                }
                .map(|c| (i, c))
            })
            .collect()
    }

    /// A scalar subquery of a FLOAT value (`(SELECT f FROM t)`) is a FLOAT to MariaDB, shown
    /// with a FLOAT's digits: its item becomes `CAST(f AS FLOAT)`, which keeps the value
    /// and which `typing::float_typed` sees from outside. One of a DECIMAL column (or of
    /// MAX of one) is a DECIMAL: `CAST(d AS DECIMAL(65, s))`, which `typing` sees.
    fn typed_scalar_subquery(&self, q: &mut Query) {
        let SetExpr::Select(s) = q.body.as_ref() else {
            return;
        };
        let mut scopes = self.ex.scopes.clone();
        scopes.push(self.scope_of(&s.from));
        let Some(x) = crate::typing::single_item_mut(q) else {
            return;
        };
        let literal_scale = crate::result_types::exact_scale(x, &scopes);
        if let (Some(text), Some(scale)) = (crate::typing::decimal_literal_text(x), literal_scale) {
            // A DECIMAL literal, which SQLite reads as a REAL: its digits, cast as a DECIMAL
            // column's are (`(SELECT 1.50)` is 1.50).
            *x = crate::ast_build::cast(text, crate::merged_decimals::exact(scale));
        } else if crate::typing::float_typed(x, &scopes) {
            let inner = std::mem::replace(x, crate::ast_build::null());
            *x = crate::ast_build::cast(inner, sqlparser::ast::DataType::Float4);
        } else if crate::typing::type_of(x, &scopes) == crate::typing::NumType::Decimal
            && crate::typing::type_of(x, &Vec::new()) != crate::typing::NumType::Decimal
        {
            // A DECIMAL column's digits (or MAX of them) are text to SQLite: cast (to its
            // own scale, so exactly), the item is typed DECIMAL outside too, and
            // `(SELECT price ..) * 3` is exact arithmetic.
            let Some(scale) = crate::result_types::exact_scale(x, &scopes) else {
                return;
            };
            let inner = std::mem::replace(x, crate::ast_build::null());
            *x = crate::ast_build::cast(inner, crate::merged_decimals::exact(scale));
        }
    }

    /// `ORDER BY e` of an ENUM column sorts by the members' order (see `enums`). Only a
    /// column named as such (not a select item's alias for something else).
    fn order_enums_by_index(&self, q: &mut Query) {
        let (SetExpr::Select(s), Some(order)) = (q.body.as_ref(), q.order_by.as_mut()) else {
            return;
        };
        let OrderByKind::Expressions(items) = &mut order.kind else {
            return;
        };
        let aliased = |name: &str| {
            s.projection.iter().any(|i| {
                matches!(i, SelectItem::ExprWithAlias { alias, .. }
                    if alias.value.eq_ignore_ascii_case(name))
            })
        };
        let columns: Vec<&mut Expr> = items
            .iter_mut()
            .map(|i| &mut i.expr)
            .filter(|e| match e {
                Expr::Identifier(i) => !aliased(&i.value),
                Expr::CompoundIdentifier(ids) => ids.len() == 2,
                _ => false,
            })
            .collect();
        if columns.is_empty() {
            return;
        }
        // The SELECT's own tables decide: no copy of the enclosing queries' scopes.
        let scopes = vec![self.scope_of(&s.from)];
        for e in columns {
            crate::typing::enum_as_number(e, &scopes);
        }
    }

    fn pre_select(&mut self, s: &mut Select) -> Result<(), SqlError> {
        s.select_modifiers = None;
        s.optimizer_hints.clear();
        if let Some(into) = &s.into {
            // INTO inside a subquery, a view or a parenthesized UNION member: MariaDB's
            // grammar has no place for it.
            return Err(SqlError::syntax_near(&into.to_string(), 1));
        }
        match &s.group_by {
            sqlparser::ast::GroupByExpr::Expressions(_, modifiers) if !modifiers.is_empty() => {
                return Err(SqlError::Unsupported("GROUP BY ... WITH ROLLUP".into()))
            }
            sqlparser::ast::GroupByExpr::All(_) => {
                return Err(SqlError::Unsupported("GROUP BY ALL".into()))
            }
            _ => {}
        }
        if is_dual(&s.from) {
            s.from.clear();
        }
        crate::having::having_to_where(s);
        let is_table = |name: &ObjectName| {
            let Ok(ids) = parts(name) else { return true };
            (ids.len() == 1 && self.in_cte(&ids[0].value))
                || resolve_parts(self.ex.env, &ids)
                    .map_or(true, |t| self.ex.env.table(&t).is_some())
        };
        crate::sequences::expand(s, &is_table);
        let scope_of = |name: &ObjectName, alias: Option<&str>| {
            let mut scope = Vec::new();
            self.push_scope(&mut scope, name, alias);
            scope.pop()
        };
        let columns = |name: &ObjectName, alias: Option<&str>| {
            let Scope { alias, table } = scope_of(name, alias)?;
            Some((alias, table.columns.into_iter().map(|c| c.name).collect()))
        };
        crate::natural::expand_star(&mut s.projection, &s.from, &columns);
        crate::using_joins::to_on(s, &scope_of);
        let scope = self.scope_of(&s.from);
        self.ex.scopes.push(scope);
        crate::alias_refs::resolve(s, &self.ex.scopes, &|from| self.scope_of(from));
        crate::outer_aggregates::hoist(s, &self.ex.scopes);
        crate::empty_aggregate::null_over_no_rows(s, &self.ex.scopes, &|from| self.scope_of(from));
        let top = self.depth == 1 && self.single_select;
        let derive = self.derive_types && self.depth == 1 && self.result_types.is_none();
        let reads_computed = || {
            let scope = self.ex.scopes.last().into_iter().flatten();
            scope
                .flat_map(|sc| &sc.table.columns)
                .any(|c| c.computed.is_some())
        };
        if derive || top && (result_types::computes(&s.projection) || reads_computed()) {
            let types = result_types::of_projection(&s.projection, &s.from, &self.ex.scopes);
            if top {
                self.computed_types = result_types::computed_types(&types);
            }
            if derive {
                self.result_types = Some(types);
            }
        }
        for twj in &mut s.from {
            fix_joins(twj);
        }
        nest_outer_joins_after_commas(&mut s.from);
        let texts = self.item_texts(s);
        for (i, item) in s.projection.iter_mut().enumerate() {
            match item {
                SelectItem::UnnamedExpr(e) => {
                    let text = texts.as_ref().and_then(|t| t.get(i)).map(String::as_str);
                    let name = item_names::column_name(e, text);
                    if self.sqlite_names_alike(e, &name) {
                        continue;
                    }
                    let expr = std::mem::replace(e, Expr::value(SqlValue::Null));
                    *item = SelectItem::ExprWithAlias {
                        expr,
                        alias: quoted(name),
                    };
                }
                SelectItem::ExprWithAlias { alias, .. } => quote(alias),
                SelectItem::QualifiedWildcard(
                    SelectItemQualifiedWildcardKind::ObjectName(n),
                    _,
                ) => {
                    if let Some(ObjectNamePart::Identifier(last)) = n.0.pop() {
                        let mut last = last;
                        quote(&mut last);
                        *n = ObjectName(vec![ObjectNamePart::Identifier(last)]);
                    }
                }
                _ => {}
            }
        }
        self.note_grouped_ci(s);
        Ok(())
    }

    /// Notes which DISTINCT items and GROUP BY expressions of `s` (in MySQL form, its scope
    /// pushed) group case-insensitively.
    fn note_grouped_ci(&mut self, s: &Select) {
        let ci = |e: &Expr| crate::derivation::grouping_collation(e, &self.ex.scopes, self.ex.env);
        let every_item = self.collated_results && self.depth == 1 && self.single_select;
        let items = match s.distinct {
            _ if every_item => (s.projection.iter().enumerate())
                .filter_map(|(i, item)| match item {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                        ci(e).map(|c| (i, c))
                    }
                    _ => None,
                })
                .collect(),
            Some(sqlparser::ast::Distinct::Distinct) => (s.projection.iter().enumerate())
                .filter_map(|(i, item)| match item {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                        ci(e).map(|c| (i, c))
                    }
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        // A GROUP BY name that is no column of the FROM tables is a select item's alias
        // (MySQL looks at the columns first): the item decides.
        let aliased = |name: &str| {
            s.projection.iter().find_map(|i| match i {
                SelectItem::ExprWithAlias { alias, expr }
                    if alias.value.eq_ignore_ascii_case(name) =>
                {
                    ci(expr)
                }
                _ => None,
            })
        };
        let grouped_ci = |e: &Expr| match e {
            Expr::Identifier(id) if crate::typing::decl_of(e, &self.ex.scopes).is_none() => {
                aliased(&id.value)
            }
            e => ci(e),
        };
        let groups = match &s.group_by {
            sqlparser::ast::GroupByExpr::Expressions(g, _) => (0..g.len())
                .filter_map(|i| grouped_ci(&g[i]).map(|c| (i, c)))
                .collect(),
            _ => Vec::new(),
        };
        self.grouped_ci.push((items, groups));
    }

    /// Collates the expressions `note_grouped_ci` noted, now rewritten.
    fn collate_grouped_ci(&mut self, s: &mut Select) {
        let Some((items, groups)) = self.grouped_ci.pop() else {
            return;
        };
        for (i, collation) in items {
            if let Some(SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }) =
                s.projection.get_mut(i)
            {
                crate::typing::collate_in(e, collation);
            }
        }
        if let sqlparser::ast::GroupByExpr::Expressions(g, _) = &mut s.group_by {
            for (i, collation) in groups {
                if let Some(e) = g.get_mut(i) {
                    crate::typing::collate_in(e, collation);
                }
            }
        }
    }

    /// The base tables a FROM clause names (still in MySQL form), with their aliases.
    fn scope_of(&self, from: &[TableWithJoins]) -> Vec<Scope> {
        let mut out = Vec::new();
        let factors = from
            .iter()
            .flat_map(|t| std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)));
        for tf in factors {
            match tf {
                TableFactor::Table { name, alias, .. } => self.push_scope(
                    &mut out,
                    name,
                    alias.as_ref().map(|a| a.name.value.as_str()),
                ),
                TableFactor::Derived {
                    subquery,
                    alias: Some(alias),
                    ..
                } => out.extend(self.derived_scope(&alias.name.value, &alias.columns, subquery)),
                _ => {}
            }
        }
        out
    }

    /// A derived table's or CTE's typed columns (see `derived`), from its query in MySQL
    /// form.
    fn derived_scope(
        &self,
        alias: &str,
        columns: &[sqlparser::ast::TableAliasColumnDef],
        q: &Query,
    ) -> Option<Scope> {
        let names: Vec<sqlparser::ast::Ident> = columns.iter().map(|c| c.name.clone()).collect();
        let zoned = self.ex.zoned_timestamps;
        let of = |s: &Select| {
            let inner = self.scope_of(&s.from);
            crate::derived::scope(alias, &names, s, inner, &self.ex.scopes, self.ex.env, zoned)
        };
        match crate::derived::typed_select(alias, q) {
            Some(s) => of(s),
            None => {
                let members = crate::derived::union_members(&q.body)?;
                crate::derived::merged(members.into_iter().map(of).collect::<Option<_>>()?)
            }
        }
    }

    /// The scopes a scalar subquery's single SELECT is typed in: its own FROM clause's
    /// tables (a reference to an enclosing query's column stays unknown).
    fn subquery_scopes(&self, q: &Query) -> Option<Vec<Vec<Scope>>> {
        match q.body.as_ref() {
            SetExpr::Select(s) => Some(vec![self.scope_of(&s.from)]),
            _ => None,
        }
    }

    fn push_scope(&self, out: &mut Vec<Scope>, name: &ObjectName, alias: Option<&str>) {
        let Ok(ids) = parts(name) else { return };
        if ids.len() == 1 && self.in_cte(&ids[0].value) {
            let cte = self.cte_scopes.get(&ids[0].value.to_ascii_lowercase());
            out.extend(cte.map(|c| Scope {
                alias: alias.unwrap_or(&ids[0].value).to_string(),
                table: c.table.clone(),
            }));
            return;
        }
        let Ok(table) = resolve_parts(self.ex.env, &ids) else {
            return;
        };
        if let Some(mut info) = self.ex.env.table(&table) {
            if info.is_view() {
                info = crate::typed_view(&info, self.ex.env).map_or(info, |v| v.info);
            }
            out.push(Scope {
                alias: alias.unwrap_or(&table.table).to_string(),
                table: info,
            });
        }
    }

    /// Puts a statement's target table in scope (UPDATE, DELETE, INSERT's upsert).
    pub fn target_scope(&mut self, table: &TableInfo, aliases: &[&str]) {
        let scope = aliases
            .iter()
            .map(|a| Scope {
                alias: a.to_string(),
                table: table.clone(),
            })
            .collect();
        self.ex.scopes.push(scope);
    }

    fn pre_table_factor(&mut self, tf: &mut TableFactor) -> Result<(), SqlError> {
        match tf {
            TableFactor::Table {
                name,
                alias,
                args,
                partitions,
                index_hints,
                ..
            } => {
                if args.is_some() {
                    return Err(SqlError::Unsupported("table functions".into()));
                }
                if !partitions.is_empty() {
                    return Err(SqlError::Unsupported("PARTITION selection".into()));
                }
                index_hints.clear();
                let ids = parts(name)?;
                if ids.len() == 1 && self.in_cte(&ids[0].value) {
                    let cte = ids[0].value.clone();
                    *name = ObjectName::from(vec![quoted(cte)]);
                } else {
                    let table = resolve_parts(self.ex.env, &ids)?;
                    *name = sqlite_object(&table);
                    // The enclosing SELECT's scope already looked it up in the catalog.
                    let broken = |t: &TableInfo| t.is_view() && t.columns.is_empty();
                    let in_scope = self
                        .ex
                        .scopes
                        .last()
                        .and_then(|scope| scope.iter().find(|s| s.table.name == table))
                        .map(|s| broken(&s.table));
                    let known = in_scope.or_else(|| self.ex.env.table(&table).map(|t| broken(&t)));
                    if known == Some(true) {
                        // A view over a table that is gone (the catalog knows no columns).
                        return Err(SqlError::InvalidView(table.to_string()));
                    }
                    if known.is_some() {
                        if !self.tables.contains(&table) {
                            self.tables.push(table.clone());
                        }
                    } else if self.unknown_object.is_none() {
                        self.unknown_object = Some(table.clone());
                    }
                    if alias.is_none() {
                        *alias = Some(table_alias(&table.table));
                    }
                }
                if let Some(a) = alias {
                    quote_alias(a);
                }
            }
            TableFactor::Derived {
                alias, subquery, ..
            } => {
                let scales = self.union_plan(subquery);
                self.derived_scales.push(scales);
                if let Some(a) = alias {
                    quote_alias(a);
                }
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias,
            } => {
                fix_joins(table_with_joins);
                if let Some(a) = alias {
                    quote_alias(a);
                }
            }
            other => {
                return Err(SqlError::Unsupported(format!(
                    "the table expression {other}"
                )));
            }
        }
        Ok(())
    }
}

impl VisitorMut for Rewriter<'_> {
    type Break = SqlError;

    fn pre_visit_query(&mut self, q: &mut Query) -> ControlFlow<SqlError> {
        self.depth += 1;
        flow(self.pre_query(q))
    }

    fn post_visit_query(&mut self, q: &mut Query) -> ControlFlow<SqlError> {
        self.depth -= 1;
        if self.depth == 0 && !self.single_select {
            std::mem::take(&mut self.union_floats).apply(&mut q.body);
            crate::union_decimals::apply(&mut q.body, &std::mem::take(&mut self.union_scales));
        }
        crate::union_collations::apply(&mut q.body);
        crate::limit_params::query(q);
        let ordered_ci = self.ordered_ci.pop().unwrap_or_default();
        if let Some(OrderByKind::Expressions(items)) = q.order_by.as_mut().map(|o| &mut o.kind) {
            items.iter_mut().for_each(|item| {
                crate::big_unsigned::unwrap(&mut item.expr);
            });
            for (i, collation) in ordered_ci {
                if let Some(item) = items.get_mut(i) {
                    crate::typing::collate_in(&mut item.expr, collation);
                }
            }
        }
        self.ctes.pop();
        if let Some(with) = self.withs.pop().flatten() {
            q.with = Some(with);
        }
        // A CTE's columns are typed as their items (see `derived`): a BIGINT UNSIGNED
        // column's keeps the stored form, which references to it read.
        for cte in q.with.iter_mut().flat_map(|w| &mut w.cte_tables) {
            crate::big_unsigned::stored_results(&mut cte.query.body);
        }
        if self.depth == 0 && self.stored_results {
            crate::big_unsigned::stored_results(&mut q.body);
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_select(&mut self, s: &mut Select) -> ControlFlow<SqlError> {
        flow(self.pre_select(s))
    }

    fn post_visit_select(&mut self, s: &mut Select) -> ControlFlow<SqlError> {
        self.collate_grouped_ci(s);
        if let sqlparser::ast::GroupByExpr::Expressions(items, _) = &mut s.group_by {
            items.iter_mut().for_each(|e| {
                crate::big_unsigned::unwrap(e);
            });
        }
        s.projection
            .iter_mut()
            .for_each(crate::big_unsigned::name_item);
        if self.depth == 1 && self.single_select {
            // The statement's own result (a subquery's or UNION's items are compared).
            for item in &mut s.projection {
                if let SelectItem::ExprWithAlias { expr, .. } = item {
                    *expr = crate::typing::exact_item(std::mem::replace(
                        expr,
                        crate::ast_build::null(),
                    ));
                }
            }
        }
        if self.depth == 1 && !self.single_select {
            self.union_floats.note(s, &self.ex.scopes);
        }
        if self.depth == 1 && self.decimal_columns.is_none() {
            let scopes = &self.ex.scopes;
            let names = s
                .projection
                .iter()
                .flat_map(|item| match item {
                    SelectItem::ExprWithAlias { expr, alias }
                        if crate::typing::type_of(expr, scopes)
                            == crate::typing::NumType::Decimal =>
                    {
                        vec![alias.value.clone()]
                    }
                    SelectItem::UnnamedExpr(e @ Expr::Identifier(i))
                        if crate::typing::type_of(e, scopes) == crate::typing::NumType::Decimal =>
                    {
                        vec![i.value.clone()]
                    }
                    // a derived table's computed DECIMALs (its stored ones SQLite knows)
                    SelectItem::Wildcard(_) => scopes
                        .last()
                        .into_iter()
                        .flatten()
                        .flat_map(|t| &t.table.columns)
                        .filter(|c| c.decl_type.starts_with(crate::decimal::DECL))
                        .map(|c| c.name.clone())
                        .collect(),
                    _ => vec![],
                })
                .collect();
            self.decimal_columns = Some(names);
            for item in &mut s.projection {
                if let SelectItem::ExprWithAlias { expr, alias } = item {
                    // (A UNION's decimals are those of all its SELECTs.)
                    let single = self.single_select;
                    let fixed = crate::typing::fixed_real_decimals(expr, scopes)
                        .or_else(|| single.then(|| crate::real_decimals::fixed(expr, scopes))?);
                    if let Some(d) = fixed {
                        self.fixed_decimals.push((alias.value.clone(), d));
                    }
                }
                if let SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } = item
                {
                    if let Some(fixed) = crate::typing::fixed_deviation(e, scopes)
                        .or_else(|| crate::typing::float_shown(e, scopes))
                        .or_else(|| crate::typing::fixed_real_sum(e, scopes))
                    {
                        *e = fixed;
                    }
                }
            }
            // A HAVING reads such a sum as the result column shows it (`HAVING s <> 0`
            // over sums of DOUBLE(8,2) values that cancel out).
            if let Some(having) = &mut s.having {
                let _ = sqlparser::ast::visit_expressions_mut(having, |e| {
                    if let Some(fixed) = crate::typing::fixed_real_sum(e, scopes) {
                        *e = fixed;
                    }
                    ControlFlow::<()>::Continue(())
                });
            }
        }
        self.ex.scopes.pop();
        ControlFlow::Continue(())
    }

    fn pre_visit_table_factor(&mut self, tf: &mut TableFactor) -> ControlFlow<SqlError> {
        flow(self.pre_table_factor(tf))
    }

    fn post_visit_table_factor(&mut self, tf: &mut TableFactor) -> ControlFlow<SqlError> {
        // A derived table's columns are typed as their items (see `derived`): a BIGINT
        // UNSIGNED column's keeps the stored form, which references to it read.
        if let TableFactor::Derived {
            subquery, alias, ..
        } = tf
        {
            let scales = self.derived_scales.pop().unwrap_or_default();
            exact_decimals(&mut subquery.body, &scales);
            let name = alias.as_ref().map(|a| a.name.value.as_str());
            let scope = (self.ex.scopes.last().into_iter().flatten())
                .find(|s| Some(s.alias.as_str()) == name);
            if let Some(scope) = scope {
                crate::derived::collate_items(scope, &mut subquery.body);
            }
            crate::big_unsigned::stored_results(&mut subquery.body);
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<SqlError> {
        if self.depth > 1 && crate::exprs::assigned_variable(e).is_some() {
            // SQLite need not evaluate a subquery's column that nothing reads (MySQL
            // materializes derived tables first): refused rather than silently skipped.
            return ControlFlow::Break(SqlError::Unsupported(
                "assigning a user variable (@v := ...) inside a subquery".into(),
            ));
        }
        if let Expr::Subquery(q) = e {
            self.typed_scalar_subquery(q);
        }
        crate::merged_decimals::widen(e, &self.ex.scopes, &|q| self.subquery_scopes(q));
        if let Expr::Function(f) = e {
            crate::derivation::collate_distinct_arguments(f, &self.ex.scopes, self.ex.env);
        }
        if let Err(err) = crate::charset_names::check_collate(e, &self.ex.scopes, self.ex.env) {
            return ControlFlow::Break(err);
        }
        pre_rewrite(e, &self.ex.scopes);
        match crate::derivation::constant(e, &self.ex.scopes, self.ex.env) {
            Ok(Some(c)) => {
                *e = c;
                self.ex.volatile = true;
            }
            Ok(None) => crate::exprs::single_byte_search(e, &self.ex.scopes, self.ex.env),
            Err(err) => return ControlFlow::Break(err),
        }
        ControlFlow::Continue(())
    }

    fn post_visit_expr(&mut self, e: &mut Expr) -> ControlFlow<SqlError> {
        if let Err(err) = self.ex.rewrite(e) {
            return ControlFlow::Break(err);
        }
        crate::subquery::guard_scalar(e);
        ControlFlow::Continue(())
    }
}

/// A derived table's or CTE's DECIMALs as MariaDB shows them: a UNION's columns cast to
/// their `scales`, a plain SELECT's literals kept whole (see `union_decimals`).
fn exact_decimals(body: &mut SetExpr, scales: &[Option<crate::union_decimals::Shown>]) {
    crate::union_decimals::apply(body, scales);
    crate::union_decimals::exact_literals(body);
}

/// `AS "name"` for a table.
pub(crate) fn table_alias(name: &str) -> TableAlias {
    TableAlias {
        explicit: true,
        name: quoted(name),
        columns: vec![],
        at: None,
    }
}

fn quote_alias(a: &mut TableAlias) {
    a.explicit = true;
    quote(&mut a.name);
    for c in &mut a.columns {
        quote(&mut c.name);
    }
}

/// `FROM DUAL` (and nothing else).
fn is_dual(from: &[TableWithJoins]) -> bool {
    match from {
        [TableWithJoins {
            relation: TableFactor::Table {
                name, alias: None, ..
            },
            joins,
        }] => {
            joins.is_empty()
                && matches!(name.0.as_slice(), [ObjectNamePart::Identifier(i)]
                    if i.quote_style.is_none() && i.value.eq_ignore_ascii_case("DUAL"))
        }
        _ => false,
    }
}

/// `STRAIGHT_JOIN` → `JOIN`; `USING (a)` columns quoted.
fn fix_joins(twj: &mut TableWithJoins) {
    for j in &mut twj.joins {
        if let JoinOperator::StraightJoin(c) = &mut j.join_operator {
            let c = std::mem::replace(c, JoinConstraint::None);
            j.join_operator = JoinOperator::Inner(c);
        }
        let Some(constraint) = crate::natural::constraint_mut(&mut j.join_operator) else {
            continue;
        };
        if let JoinConstraint::Using(cols) = constraint {
            for col in cols {
                for p in &mut col.0 {
                    if let ObjectNamePart::Identifier(i) = p {
                        quote(i);
                    }
                }
            }
        }
    }
}

/// `FROM t1, t2 RIGHT JOIN t3 ON ...`: MySQL's comma binds looser than JOIN, so the RIGHT
/// (or FULL) join is `t2 RIGHT JOIN t3`, crossed with t1; SQLite reads the comma as a join
/// of equal precedence, `(t1, t2) RIGHT JOIN t3`. The join after a comma is parenthesized.
/// (An inner or LEFT join gives the same rows either way.)
fn nest_outer_joins_after_commas(from: &mut [TableWithJoins]) {
    for twj in from.iter_mut().skip(1) {
        let outer = twj.joins.iter().any(|j| {
            matches!(
                j.join_operator,
                JoinOperator::Right(_) | JoinOperator::RightOuter(_) | JoinOperator::FullOuter(_)
            )
        });
        if outer {
            *twj = TableWithJoins {
                relation: TableFactor::NestedJoin {
                    table_with_joins: Box::new(twj.clone()),
                    alias: None,
                },
                joins: vec![],
            };
        }
    }
}

/// `(SELECT ...)` as a whole query: unwrap it (SQLite has no parenthesized statements).
fn unwrap_parenthesized(q: &mut Query) {
    while let SetExpr::Query(_) = q.body.as_ref() {
        let outer_plain = q.with.is_none()
            && q.order_by.is_none()
            && q.limit_clause.is_none()
            && q.locks.is_empty();
        let body = std::mem::replace(q.body.as_mut(), SetExpr::Values(empty_values()));
        let SetExpr::Query(inner) = body else {
            unreachable!()
        };
        if outer_plain {
            *q = *inner;
        } else if is_plain(&inner) {
            q.body = inner.body;
        } else {
            *q.body = SetExpr::Select(Box::new(select_star_from(*inner)));
        }
    }
}

fn empty_values() -> sqlparser::ast::Values {
    sqlparser::ast::Values {
        explicit_row: false,
        value_keyword: false,
        rows: vec![],
    }
}

/// A query that is just its body.
fn is_plain(q: &Query) -> bool {
    q.with.is_none()
        && q.order_by.is_none()
        && q.limit_clause.is_none()
        && q.locks.is_empty()
        && q.fetch.is_none()
}

/// Fixes set operations and VALUES in a query body (not descending into subqueries, which
/// get their own visit).
fn fix_set_expr(e: &mut SetExpr) -> Result<(), SqlError> {
    match e {
        SetExpr::SetOperation {
            left,
            right,
            set_quantifier,
            ..
        } => {
            *set_quantifier = match set_quantifier {
                SetQuantifier::Distinct | SetQuantifier::None => SetQuantifier::None,
                SetQuantifier::All => SetQuantifier::All,
                other => return Err(SqlError::Unsupported(format!("UNION {other}"))),
            };
            for side in [left, right] {
                if let SetExpr::Query(_) = side.as_ref() {
                    let SetExpr::Query(inner) =
                        std::mem::replace(side.as_mut(), SetExpr::Values(empty_values()))
                    else {
                        unreachable!()
                    };
                    **side = if is_plain(&inner) && matches!(*inner.body, SetExpr::Select(_)) {
                        *inner.body
                    } else {
                        SetExpr::Select(Box::new(select_star_from(*inner)))
                    };
                }
                fix_set_expr(side)?;
            }
            Ok(())
        }
        SetExpr::Values(v) => {
            v.value_keyword = false;
            v.explicit_row = false;
            Ok(())
        }
        SetExpr::Table(_) => Err(SqlError::Unsupported("the TABLE statement".into())),
        _ => Ok(()),
    }
}

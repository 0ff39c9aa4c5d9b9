//! The types of a view's columns, as MariaDB derives them from the view's query.
//!
//! SQLite declares a view's column only when it reads a table column as is; a computed one
//! (`a+1`, `m*2`, `d + INTERVAL 1 DAY`) has no type in its catalog. MariaDB types it like a
//! result column: `DESCRIBE v` shows `bigint(12)`, `decimal(11,2)`, `datetime(3)`, drivers
//! get a DATETIME or a DECIMAL with its scale, `CREATE TABLE t2 SELECT * FROM v` creates
//! those types. So a view is typed as a derived table is (see `derived`): its MySQL query,
//! kept in its definition (see `view_text`), is translated again with result types, in the
//! view's database, and each column gets its item's type — a table column's definition
//! (with its DEFAULT), or a computed expression's MySQL type in [`ColumnInfo::computed`]
//! plus the SQLite form expressions over it are typed by.
//!
//! Nullability follows MariaDB's: a column read from the NULL side of an outer join (the
//! right of a LEFT JOIN) may be NULL whatever its table says. A view over views is typed through them, up to [`MAX_DEPTH`]
//! levels (a view that reads itself through others is left untyped); the translation runs
//! each time a statement names the view, which costs a parse of its query.

use std::cell::Cell;

use sqlparser::ast::{
    Expr, JoinOperator, SelectItem, SetExpr, Statement, TableFactor, TableWithJoins,
};
use sqlparser::parser::Parser;

use crate::result_types::ResultType;
use crate::rewrite::Rewriter;
use crate::view_text::Definition;
use crate::{ColumnInfo, Env, TableInfo, TableName, UserValue, VarScope};
use tutti_wsrep::Value;

/// How many views over views are typed through.
const MAX_DEPTH: usize = 8;

thread_local! {
    /// Views being typed on this thread (the translation of one names the next).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// A view with its columns typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypedView {
    /// The view, its columns typed (see the module doc).
    pub info: TableInfo,
    /// Per column: the members of the ENUM or SET column it reads, if it reads one.
    pub members: Vec<Option<Vec<String>>>,
}

/// View `view` with its columns typed (see the module doc); None when its query cannot be
/// typed (no kept definition, too deep, a translation error).
pub fn typed_view(view: &TableInfo, env: &dyn Env) -> Option<TypedView> {
    let depth = DEPTH.with(Cell::get);
    if depth >= MAX_DEPTH {
        return None;
    }
    DEPTH.with(|d| d.set(depth + 1));
    let typed = typed_columns(view, env);
    DEPTH.with(|d| d.set(depth));
    let (columns, members) = typed?;
    let mut info = view.clone();
    info.columns = columns;
    Some(TypedView { info, members })
}

type Typed = (Vec<ColumnInfo>, Vec<Option<Vec<String>>>);

fn typed_columns(view: &TableInfo, env: &dyn Env) -> Option<Typed> {
    let def = Definition::of(&view.create_sql)?;
    let query = Parser::new(&crate::lexer::DIALECT)
        .try_with_sql(&def.query)
        .and_then(|mut p| p.parse_query())
        .ok()?;
    let in_db = InDatabase {
        env,
        db: &view.name.db,
    };
    let outer = OuterJoins::of(&query.body, &in_db);
    let mut rw = Rewriter::new(&in_db).with_result_types();
    rw.statement(&mut Statement::Query(query)).ok()?;
    let types = rw.result_types?;
    if types.len() != view.columns.len() {
        return None;
    }
    let typed = view.columns.iter().zip(types).enumerate();
    let typed = typed.map(|(i, (c, t))| match t {
        Some(ResultType::Column {
            column,
            members,
            shown_default,
            ..
        }) => {
            let c = ColumnInfo {
                name: c.name.clone(),
                not_null: column.not_null && !outer.nullable(i),
                pk: 0,
                // shown, not run
                default: shown_default.or(column.default),
                ..column
            };
            (c, members)
        }
        Some(ResultType::Computed {
            mysql_type,
            not_null,
        }) => {
            let not_null = not_null && !outer.nullable(i);
            let c = ColumnInfo {
                name: c.name.clone(),
                decl_type: crate::derived::decl_of(Some(ResultType::Computed {
                    mysql_type: mysql_type.clone(),
                    not_null,
                })),
                not_null,
                pk: 0,
                default: not_null.then(|| zero_value(&mysql_type)),
                computed: Some(mysql_type),
            };
            (c, None)
        }
        None => (c.clone(), None),
    });
    Some(typed.unzip())
}

/// Which of a view's columns an outer join may make NULL, whatever their table says.
enum OuterJoins {
    /// No outer join.
    None,
    /// Per select item: it reads a column of a table on an outer join's NULL side (or it
    /// is not known which table it reads).
    Items(Vec<bool>),
    /// Every column (the query is too involved to tell).
    All,
}

impl OuterJoins {
    fn of(body: &SetExpr, env: &dyn Env) -> OuterJoins {
        let SetExpr::Select(s) = body else {
            return if outer_join(body) {
                OuterJoins::All
            } else {
                OuterJoins::None
            };
        };
        let mut tables = Vec::new();
        for twj in &s.from {
            if !null_sides(twj, &mut tables) {
                return OuterJoins::All;
            }
        }
        if tables.iter().all(|(_, _, nullable)| !nullable) {
            return OuterJoins::None;
        }
        let mut items = Vec::new();
        for item in &s.projection {
            let (SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. }) = item
            else {
                return OuterJoins::All;
            };
            items.push(reads_null_side(e, &tables, env));
        }
        OuterJoins::Items(items)
    }

    fn nullable(&self, item: usize) -> bool {
        match self {
            OuterJoins::None => false,
            OuterJoins::Items(items) => items.get(item).copied().unwrap_or(true),
            OuterJoins::All => true,
        }
    }
}

/// The tables of one FROM item as (alias, name, on an outer join's NULL side), appended to
/// `out`; false when it cannot tell (a derived table or nested join under an outer join).
fn null_sides(twj: &TableWithJoins, out: &mut Vec<(String, TableName, bool)>) -> bool {
    let first = out.len();
    let push = |tf: &TableFactor, out: &mut Vec<(String, TableName, bool)>| {
        let TableFactor::Table { name, alias, .. } = tf else {
            return false;
        };
        let Some(table) = crate::names::parts(name).ok().and_then(|p| match p[..] {
            [t] => Some(TableName::new("", t.value.clone())),
            [d, t] => Some(TableName::new(d.value.clone(), t.value.clone())),
            _ => None,
        }) else {
            return false;
        };
        let alias = alias
            .as_ref()
            .map_or_else(|| table.table.clone(), |a| a.name.value.clone());
        out.push((alias, table, false));
        true
    };
    if !push(&twj.relation, out) {
        return !joins_outer(twj);
    }
    for j in &twj.joins {
        if !push(&j.relation, out) {
            return !joins_outer(twj);
        }
        let (left, right) = match j.join_operator {
            JoinOperator::Left(_) | JoinOperator::LeftOuter(_) => (false, true),
            JoinOperator::Right(_) | JoinOperator::RightOuter(_) => (true, false),
            JoinOperator::FullOuter(_) => (true, true),
            _ => (false, false),
        };
        let last = out.len() - 1;
        for t in &mut out[first..last] {
            t.2 |= left;
        }
        out[last].2 |= right;
    }
    true
}

/// Whether expression `e` reads a column of a NULL-side table among `tables` (or a column
/// whose table it cannot tell).
fn reads_null_side(e: &Expr, tables: &[(String, TableName, bool)], env: &dyn Env) -> bool {
    let on_null_side = |qualifier: Option<&str>, column: &str| {
        let mut owners = tables.iter().filter(|(alias, name, _)| match qualifier {
            Some(q) => alias.eq_ignore_ascii_case(q),
            None => {
                let name = match name.db.as_str() {
                    "" => TableName::new(env.current_db().unwrap_or_default(), &name.table),
                    _ => name.clone(),
                };
                env.table(&name).is_none_or(|t| {
                    t.columns
                        .iter()
                        .any(|c| c.name.eq_ignore_ascii_case(column))
                })
            }
        });
        owners.clone().next().is_none() || owners.any(|(_, _, nullable)| *nullable)
    };
    sqlparser::ast::visit_expressions(e, |x| {
        let null_side = match x {
            Expr::Identifier(i) => on_null_side(None, &i.value),
            Expr::CompoundIdentifier(ids) => match ids.as_slice() {
                [q, c] => on_null_side(Some(&q.value), &c.value),
                [.., q, c] => on_null_side(Some(&q.value), &c.value),
                _ => true,
            },
            Expr::Subquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. } => true,
            _ => false,
        };
        if null_side {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    })
    .is_break()
}

/// Whether the query joins with LEFT, RIGHT or FULL anywhere in its FROM clauses.
fn outer_join(body: &SetExpr) -> bool {
    match body {
        SetExpr::Select(s) => s.from.iter().any(joins_outer),
        SetExpr::Query(q) => outer_join(&q.body),
        SetExpr::SetOperation { left, right, .. } => outer_join(left) || outer_join(right),
        _ => false,
    }
}

fn joins_outer(twj: &TableWithJoins) -> bool {
    crate::natural::any_join(twj, &|op| {
        matches!(
            op,
            JoinOperator::Left(_)
                | JoinOperator::LeftOuter(_)
                | JoinOperator::Right(_)
                | JoinOperator::RightOuter(_)
                | JoinOperator::FullOuter(_)
        )
    })
}

/// The DEFAULT MariaDB shows for a NOT NULL computed column of a view: its type's zero.
fn zero_value(mysql_type: &str) -> String {
    let base = mysql_type.split('(').next().unwrap_or_default();
    let scale = || {
        mysql_type
            .split_once(',')
            .and_then(|(_, s)| {
                s.trim_end_matches(|c: char| !c.is_ascii_digit())
                    .parse()
                    .ok()
            })
            .unwrap_or(0usize)
    };
    let quoted = |s: &str| format!("'{s}'");
    match base {
        "decimal" if scale() > 0 => format!("0.{}", "0".repeat(scale())),
        "date" => quoted("0000-00-00"),
        "datetime" | "timestamp" => quoted("0000-00-00 00:00:00"),
        "time" => quoted("00:00:00"),
        "year" => "0000".into(),
        b if b.contains("char") || b.contains("text") || b.contains("binary") => quoted(""),
        _ => "0".into(),
    }
}

/// The session's catalog and variables with the view's database as the current one: the
/// names in the view's query are relative to it.
struct InDatabase<'a> {
    env: &'a dyn Env,
    db: &'a str,
}

impl Env for InDatabase<'_> {
    fn current_db(&self) -> Option<&str> {
        Some(self.db)
    }
    fn system_variable(&self, scope: VarScope, name: &str) -> Option<Value> {
        self.env.system_variable(scope, name)
    }
    fn user_variable(&self, name: &str) -> UserValue {
        self.env.user_variable(name)
    }
    fn session_function(&self, name: &str) -> Option<Value> {
        self.env.session_function(name)
    }
    fn table(&self, name: &TableName) -> Option<TableInfo> {
        self.env.table(name)
    }
    fn database_exists(&self, name: &str) -> bool {
        self.env.database_exists(name)
    }
    fn database_collation(&self, name: &str) -> Option<String> {
        self.env.database_collation(name)
    }
    fn is_temporary(&self, name: &TableName) -> bool {
        self.env.is_temporary(name)
    }
    fn temporal_default(&self, value: &Value, kind: &str, fsp: u32) -> Option<Option<String>> {
        self.env.temporal_default(value, kind, fsp)
    }
}

//! Constructors for the AST pieces the rewrites synthesize (function calls, casts, small
//! SELECTs), so the rewriting code reads as SQL rather than as struct literals.

use sqlparser::ast::helpers::attached_token::AttachedToken;
use sqlparser::ast::{
    BinaryOperator, CastKind, Cte, DataType, Expr, Function, FunctionArg, FunctionArgExpr,
    FunctionArgumentList, FunctionArguments, GroupByExpr, Ident, ObjectName, Parens, Query, Select,
    SelectFlavor, SelectItem, SetExpr, TableAlias, TableAliasColumnDef, TableFactor,
    TableWithJoins, Value, Values, With,
};

use crate::names::quoted;

/// A column reference `"name"`.
#[cfg(test)]
pub(crate) fn column(name: &str) -> Expr {
    Expr::Identifier(quoted(name))
}

/// A qualified column reference `"table"."name"`.
pub(crate) fn qualified(table: &str, name: &str) -> Expr {
    Expr::CompoundIdentifier(vec![quoted(table), quoted(name)])
}

/// A bare (unquoted) word printed as is: `rowid`, `excluded`.
pub(crate) fn bare(word: &str) -> Expr {
    Expr::Identifier(Ident::new(word))
}

/// Text printed verbatim (a catalog DEFAULT expression). It is carried as a numeric literal,
/// which the rewrites never touch and which prints exactly as given.
pub(crate) fn verbatim(text: impl Into<String>) -> Expr {
    Expr::value(Value::Number(text.into(), false))
}

/// A string literal.
pub(crate) fn string(s: impl Into<String>) -> Expr {
    Expr::value(Value::SingleQuotedString(s.into()))
}

/// A numeric literal.
pub(crate) fn number(n: impl Into<String>) -> Expr {
    Expr::value(Value::Number(n.into(), false))
}

/// `NULL`.
pub(crate) fn null() -> Expr {
    Expr::value(Value::Null)
}

/// `(e)`.
pub(crate) fn nested(e: Expr) -> Expr {
    match e {
        Expr::Identifier(_)
        | Expr::CompoundIdentifier(_)
        | Expr::Value(_)
        | Expr::Nested(_)
        | Expr::Function(_) => e,
        other => Expr::Nested(Box::new(other)),
    }
}

/// `l op r`.
pub(crate) fn binop(l: Expr, op: BinaryOperator, r: Expr) -> Expr {
    Expr::BinaryOp {
        left: Box::new(l),
        op,
        right: Box::new(r),
    }
}

/// `CASE WHEN condition THEN result ELSE otherwise END`.
pub(crate) fn case_when(condition: Expr, result: Expr, otherwise: Expr) -> Expr {
    Expr::Case {
        case_token: AttachedToken::empty(),
        end_token: AttachedToken::empty(),
        operand: None,
        conditions: vec![sqlparser::ast::CaseWhen { condition, result }],
        else_result: Some(Box::new(otherwise)),
    }
}

/// `CAST(e AS ty)`.
pub(crate) fn cast(e: Expr, ty: DataType) -> Expr {
    Expr::Cast {
        kind: CastKind::Cast,
        expr: Box::new(e),
        data_type: ty,
        format: None,
    }
}

/// A function call `name(args)`.
pub(crate) fn func(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Function(Function {
        name: ObjectName::from(vec![Ident::new(name)]),
        uses_odbc_syntax: false,
        parameters: FunctionArguments::None,
        args: FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: None,
            args: args
                .into_iter()
                .map(|a| FunctionArg::Unnamed(FunctionArgExpr::Expr(a)))
                .collect(),
            clauses: vec![],
        }),
        filter: None,
        null_treatment: None,
        over: None,
        within_group: vec![],
    })
}

/// `tutti_autoinc(e)`.
pub(crate) fn autoinc(e: Expr) -> Expr {
    func("tutti_autoinc", vec![e])
}

/// A plain SELECT with the given projection, FROM and WHERE.
pub(crate) fn select(
    projection: Vec<SelectItem>,
    from: Vec<TableWithJoins>,
    selection: Option<Expr>,
) -> Select {
    Select {
        select_token: AttachedToken::empty(),
        optimizer_hints: vec![],
        distinct: None,
        select_modifiers: None,
        top: None,
        top_before_distinct: false,
        projection,
        exclude: None,
        into: None,
        from,
        lateral_views: vec![],
        prewhere: None,
        selection,
        connect_by: vec![],
        group_by: GroupByExpr::Expressions(vec![], vec![]),
        cluster_by: vec![],
        distribute_by: vec![],
        sort_by: vec![],
        having: None,
        named_window: vec![],
        qualify: None,
        window_before_qualify: false,
        value_table_mode: None,
        flavor: SelectFlavor::Standard,
    }
}

/// A query with just a body.
pub(crate) fn query(body: SetExpr) -> Query {
    Query {
        with: None,
        body: Box::new(body),
        order_by: None,
        limit_clause: None,
        fetch: None,
        locks: vec![],
        for_clause: None,
        settings: None,
        format_clause: None,
        pipe_operators: vec![],
    }
}

/// `VALUES (..), (..)` as a query.
pub(crate) fn values(rows: Vec<Vec<Expr>>) -> Query {
    query(SetExpr::Values(Values {
        explicit_row: false,
        value_keyword: false,
        rows: rows
            .into_iter()
            .map(|content| Parens {
                opening_token: AttachedToken::empty(),
                content,
                closing_token: AttachedToken::empty(),
            })
            .collect(),
    }))
}

/// `(q)` as an unaliased FROM item.
pub(crate) fn derived(q: Query) -> TableWithJoins {
    TableWithJoins {
        relation: TableFactor::Derived {
            lateral: false,
            subquery: Box::new(q),
            alias: None,
            sample: None,
        },
        joins: vec![],
    }
}

/// The table (or CTE) `"name"` as an unaliased FROM item.
pub(crate) fn named_table(name: &str) -> TableWithJoins {
    TableWithJoins {
        relation: TableFactor::Table {
            name: ObjectName::from(vec![quoted(name)]),
            alias: None,
            args: None,
            with_hints: vec![],
            version: None,
            with_ordinality: false,
            partitions: vec![],
            json_path: None,
            sample: None,
            index_hints: vec![],
        },
        joins: vec![],
    }
}

/// `WITH name(cols) AS (inner)`: the rows of `inner` under a name, with columns named by
/// position.
pub(crate) fn named_cte(name: &str, cols: &[String], inner: Query) -> With {
    With {
        with_token: AttachedToken::empty(),
        recursive: false,
        cte_tables: vec![Cte {
            alias: TableAlias {
                explicit: false,
                name: quoted(name),
                columns: cols
                    .iter()
                    .map(|c| TableAliasColumnDef {
                        name: quoted(c),
                        data_type: None,
                    })
                    .collect(),
                at: None,
            },
            query: Box::new(inner),
            from: None,
            materialized: None,
            closing_paren_token: AttachedToken::empty(),
        }],
    }
}

/// `WITH name(cols) AS (inner) SELECT projection FROM name`: the rows of `inner` with
/// columns named by position (its own names may be missing or repeated).
pub(crate) fn through_named(
    name: &str,
    cols: &[String],
    inner: Query,
    projection: Vec<SelectItem>,
) -> Query {
    let mut q = query(SetExpr::Select(Box::new(select(
        projection,
        vec![named_table(name)],
        None,
    ))));
    q.with = Some(named_cte(name, cols, inner));
    q
}

/// `SELECT * FROM (q)`: a query usable where SQLite wants a simple SELECT.
pub(crate) fn select_star_from(q: Query) -> Select {
    select(
        vec![SelectItem::Wildcard(Default::default())],
        vec![derived(q)],
        None,
    )
}

/// True if `e` is a subquery node (`(SELECT …)`, `EXISTS`, `IN (SELECT …)`).
pub(crate) fn is_subquery(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Subquery(_) | Expr::Exists { .. } | Expr::InSubquery { .. }
    )
}

/// True if `e` holds a subquery anywhere.
pub(crate) fn has_subquery(e: &Expr) -> bool {
    sqlparser::ast::visit_expressions(e, |e| match is_subquery(e) {
        true => std::ops::ControlFlow::Break(()),
        false => std::ops::ControlFlow::Continue(()),
    })
    .is_break()
}

/// `=`, `<>`, `<`, `<=`, `>`, `>=`.
pub(crate) fn is_comparison(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Eq
            | BinaryOperator::NotEq
            | BinaryOperator::Lt
            | BinaryOperator::LtEq
            | BinaryOperator::Gt
            | BinaryOperator::GtEq
    )
}

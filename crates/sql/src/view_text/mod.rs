//! SHOW CREATE VIEW: a view's definition as MariaDB prints it.
//!
//! MariaDB does not keep the text a view was created with: it prints the parsed, resolved
//! query back — every column qualified by its table (`` `t1`.`a` ``), every select item
//! named (`` AS `b+1` ``, the name a client sees), functions in lower case under their
//! canonical names (`ucase`, `substr`, `count(0)`), joins nested in parentheses, operators
//! with spaces and only the parentheses precedence needs. mariadb-dump, schema diff tools
//! and the test suite compare that text, so tutti prints the same.
//!
//! CREATE VIEW keeps what SHOW needs in a comment of the view's SQLite definition (replicated
//! with it, carried by SST): ALGORITHM, DEFINER, SQL SECURITY, the column list and the MySQL
//! query with each item's name made an explicit alias ([`Definition`]). SHOW parses that
//! query again and prints it ([`print`]) against the catalog as it is then, as MariaDB
//! does; when the view's database is the current one, names in it are printed without
//! their database (MariaDB's compact form).

mod print;

pub(crate) use print::expression;

use sqlparser::ast::{
    Expr, Ident, JoinConstraint, Query, Select, SelectItem, SetExpr, TableFactor,
};
use sqlparser::tokenizer::Location;

use crate::syntax::Source;
use crate::{item_names, Env, SqlError, TableInfo};

/// Starts the comment that holds a view's [`Definition`].
const MARK: &str = "/*tutti_view ";
/// Separates the definition's fields, and the columns of its column list.
const FIELD: char = '\u{1f}';
const COLUMN: char = '\u{1e}';

/// What CREATE VIEW keeps of a view for SHOW CREATE VIEW.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Definition {
    /// `UNDEFINED`, `MERGE` or `TEMPTABLE`.
    pub algorithm: String,
    /// `` `user`@`host` ``.
    pub definer: String,
    /// `DEFINER` or `INVOKER`.
    pub security: String,
    /// The view's column list, if it has one.
    pub columns: Vec<String>,
    /// The session's `character_set_client` and `collation_connection` when it was
    /// created (SHOW CREATE VIEW shows them).
    pub charset: (String, String),
    /// The SELECT in MySQL syntax, each item with its name as alias.
    pub query: String,
}

impl Definition {
    /// The comment that carries the definition in the view's SQLite text.
    pub(crate) fn comment(&self) -> String {
        let fields = [
            self.algorithm.as_str(),
            &self.definer,
            &self.security,
            &self.columns.join(&COLUMN.to_string()),
            &self.charset.0,
            &self.charset.1,
            &self.query,
        ];
        let text = fields.join(&FIELD.to_string());
        // `*/` would end the comment: `\` and `/` are escaped.
        let escaped = text.replace('\\', "\\\\").replace('/', "\\/");
        format!("{MARK}{escaped}*/")
    }

    /// The definition kept in a view's SQLite text, if tutti wrote one there.
    pub(crate) fn of(create_sql: &str) -> Option<Definition> {
        let start = create_sql.find(MARK)? + MARK.len();
        let end = start + create_sql[start..].find("*/")?;
        let mut text = String::new();
        let mut chars = create_sql[start..end].chars();
        while let Some(c) = chars.next() {
            text.push(if c == '\\' { chars.next()? } else { c });
        }
        let mut fields = text.splitn(7, FIELD);
        let mut next = || fields.next().map(str::to_string);
        let (algorithm, definer, security, columns) = (next()?, next()?, next()?, next()?);
        let (charset, query) = ((next()?, next()?), next()?);
        let columns = match columns.as_str() {
            "" => Vec::new(),
            c => c.split(COLUMN).map(str::to_string).collect(),
        };
        Some(Definition {
            algorithm,
            definer,
            security,
            columns,
            charset,
            query,
        })
    }
}

/// Gives every item of the selects that make the view's rows (the query's own, its union
/// members, CTEs and derived tables) its name as an explicit alias: the source text, as
/// `item_names` finds it, made unique as MariaDB makes a view's column names.
pub(crate) fn name_items(q: &mut Query, src: &Source<'_>, end: Location, env: &dyn Env) {
    let ctx = Naming { src, end, env };
    ctx.query(q);
    let _ = sqlparser::ast::VisitMut::visit(q, &mut Backslashes);
}

/// sqlparser prints a string's backslashes as they are, but reads them as escapes: the
/// stored query has them doubled.
struct Backslashes;

impl sqlparser::ast::VisitorMut for Backslashes {
    type Break = ();

    fn pre_visit_value(
        &mut self,
        v: &mut sqlparser::ast::ValueWithSpan,
    ) -> std::ops::ControlFlow<()> {
        if let sqlparser::ast::Value::SingleQuotedString(s) = &mut v.value {
            *s = s.replace('\\', "\\\\");
        }
        std::ops::ControlFlow::Continue(())
    }
}

/// What naming the items needs: the statement's text, and the catalog (MariaDB expands a
/// view's `*` when the view is created).
struct Naming<'a> {
    src: &'a Source<'a>,
    end: Location,
    env: &'a dyn Env,
}

impl Naming<'_> {
    fn query(&self, q: &mut Query) {
        if let Some(with) = &mut q.with {
            for cte in &mut with.cte_tables {
                self.query(&mut cte.query);
            }
        }
        self.body(&mut q.body);
    }

    fn body(&self, body: &mut SetExpr) {
        match body {
            SetExpr::Select(s) => self.select(s),
            SetExpr::Query(q) => self.query(q),
            SetExpr::SetOperation { left, right, .. } => {
                self.body(left);
                self.body(right);
            }
            _ => {}
        }
    }

    fn select(&self, s: &mut Select) {
        for twj in &mut s.from {
            self.derived(&mut twj.relation);
            for j in &mut twj.joins {
                self.derived(&mut j.relation);
            }
        }
        name_select(s, self.src, self.end);
        self.expand_stars(s);
    }

    fn derived(&self, tf: &mut TableFactor) {
        match tf {
            TableFactor::Derived { subquery, .. } => self.query(subquery),
            TableFactor::NestedJoin {
                table_with_joins, ..
            } => {
                self.derived(&mut table_with_joins.relation);
                for j in &mut table_with_joins.joins {
                    self.derived(&mut j.relation);
                }
            }
            _ => {}
        }
    }

    /// `*` and `t.*` become the tables' columns as they are now, when the FROM clause
    /// is plain tables (joined without USING or NATURAL).
    fn expand_stars(&self, s: &mut Select) {
        let mut tables: Vec<(String, Vec<String>)> = Vec::new();
        for twj in &s.from {
            let joins = twj
                .joins
                .iter()
                .map(|j| (&j.relation, Some(&j.join_operator)));
            for (tf, op) in std::iter::once((&twj.relation, None)).chain(joins) {
                let merging = op
                    .and_then(crate::natural::constraint)
                    .is_some_and(|c| !matches!(c, JoinConstraint::On(_) | JoinConstraint::None));
                let TableFactor::Table { name, alias, .. } = tf else {
                    return;
                };
                let Ok(t) = crate::names::resolve(self.env, name) else {
                    return;
                };
                let Some(info) = self.env.table(&t).filter(|_| !merging) else {
                    return;
                };
                let shown = alias
                    .as_ref()
                    .map_or(t.table.clone(), |a| a.name.value.clone());
                tables.push((shown, info.columns.iter().map(|c| c.name.clone()).collect()));
            }
        }
        let column = |t: &str, c: &str| SelectItem::ExprWithAlias {
            expr: Expr::CompoundIdentifier(vec![Ident::new(t), Ident::new(c)]),
            alias: Ident::with_quote('`', c),
        };
        let mut items = Vec::new();
        for item in s.projection.drain(..) {
            match &item {
                SelectItem::Wildcard(_) => {
                    for (t, columns) in &tables {
                        items.extend(columns.iter().map(|c| column(t, c)));
                    }
                }
                SelectItem::QualifiedWildcard(
                    sqlparser::ast::SelectItemQualifiedWildcardKind::ObjectName(n),
                    _,
                ) => {
                    let q =
                        n.0.last()
                            .and_then(|p| p.as_ident())
                            .map(|i| i.value.clone());
                    let found = tables
                        .iter()
                        .find(|(t, _)| q.as_ref().is_some_and(|q| q.eq_ignore_ascii_case(t)));
                    match found {
                        Some((t, columns)) => items.extend(columns.iter().map(|c| column(t, c))),
                        None => items.push(item),
                    }
                }
                _ => items.push(item),
            }
        }
        s.projection = items;
    }
}

fn name_select(s: &mut Select, src: &Source<'_>, end: Location) {
    let texts = item_names::item_texts(src, s.select_token.0.span.start, end, s.projection.len());
    let mut names: Vec<(String, bool)> = s
        .projection
        .iter()
        .enumerate()
        .map(|(i, item)| match item {
            SelectItem::ExprWithAlias { alias, .. } => (alias.value.clone(), true),
            SelectItem::UnnamedExpr(e) => {
                let text = texts.as_ref().and_then(|t| t.get(i)).map(String::as_str);
                (item_names::column_name(e, text), false)
            }
            _ => (String::new(), true),
        })
        .collect();
    unique_names(&mut names);
    for (item, (name, _)) in s.projection.iter_mut().zip(names) {
        if let SelectItem::UnnamedExpr(e) = item {
            let expr = e.clone();
            *item = SelectItem::ExprWithAlias {
                expr,
                alias: Ident::with_quote('`', name),
            };
        }
    }
}

/// MariaDB's view column names: a generated name that is not a valid column name becomes
/// `Name_exp_<position>`, and one that repeats another name becomes `My_exp_<name>` (or
/// `My_exp_<n>_<name>`); `(name, explicit)` pairs, explicit aliases kept.
fn unique_names(names: &mut [(String, bool)]) {
    for (i, (name, explicit)) in names.iter_mut().enumerate() {
        let invalid = name.is_empty() || name.ends_with([' ', '\t']);
        if !*explicit && invalid {
            *name = format!("Name_exp_{}", i + 1);
        }
    }
    for i in 0..names.len() {
        if names[i].1 {
            continue;
        }
        let taken = |n: &str, names: &[(String, bool)]| {
            names
                .iter()
                .enumerate()
                .any(|(k, (other, _))| k != i && other.eq_ignore_ascii_case(n))
        };
        if !taken(&names[i].0, names) {
            continue;
        }
        let base = names[i].0.clone();
        let mut candidate = format!("My_exp_{base}");
        let mut n = 0;
        while taken(&candidate, names) {
            n += 1;
            candidate = format!("My_exp_{n}_{base}");
        }
        names[i].0 = candidate;
    }
}

/// What `SHOW CREATE VIEW` shows of a view: the `Create View` text, and the client's
/// character set and connection collation when it was created.
pub struct ShownView {
    pub create: String,
    pub charset: String,
    pub collation: String,
}

/// `SHOW CREATE VIEW` of `view`.
pub fn show_create_view(env: &dyn Env, view: &TableInfo) -> Result<ShownView, SqlError> {
    let def = Definition::of(&view.create_sql).ok_or_else(|| {
        SqlError::Unsupported(format!(
            "SHOW CREATE VIEW of {}, created before tutti kept view definitions",
            view.name
        ))
    })?;
    let compact = env.current_db() == Some(view.name.db.as_str());
    let query = print::query(env, &view.name.db, compact, &def)?;
    let name = if compact {
        print::ident(&view.name.table)
    } else {
        format!(
            "{}.{}",
            print::ident(&view.name.db),
            print::ident(&view.name.table)
        )
    };
    let create = format!(
        "CREATE ALGORITHM={} DEFINER={} SQL SECURITY {} VIEW {name} AS {query}",
        def.algorithm, def.definer, def.security
    );
    let (charset, collation) = def.charset;
    Ok(ShownView {
        create,
        charset,
        collation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_survives_its_comment() {
        let def = Definition {
            algorithm: "MERGE".into(),
            definer: "`root`@`localhost`".into(),
            security: "INVOKER".into(),
            columns: vec!["a".into(), "b c".into()],
            charset: ("utf8mb4".into(), "utf8mb4_general_ci".into()),
            query: "SELECT 1 /* x */ AS `a`, 'a\\b' AS `b c`".into(),
        };
        let sql = format!("CREATE VIEW \"d.v\" {} AS SELECT 1", def.comment());
        assert!(!def.comment()[2..def.comment().len() - 2].contains("*/"));
        assert_eq!(Definition::of(&sql), Some(def));
        assert_eq!(Definition::of("CREATE VIEW \"d.v\" AS SELECT 1"), None);
    }

    /// SHOW CREATE VIEW of the view `sql` creates, in the test session (database `app`).
    fn shown(sql: &str) -> String {
        let env = crate::tests::env();
        let Ok(crate::Stmt::Ddl(ddl)) = crate::tests::one(sql) else {
            panic!("{sql}")
        };
        let tutti_wsrep::Ddl::Schema { statements, .. } = ddl.ddl else {
            panic!("{sql}")
        };
        let create_sql = statements.last().cloned().unwrap_or_default();
        let view = TableInfo {
            name: crate::TableName::new("app", "v"),
            columns: Vec::new(),
            autoinc: None,
            indexes: Vec::new(),
            create_sql,
            referenced: false,
        };
        let text = show_create_view(&env, &view).unwrap().create;
        let head = "CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `v` AS ";
        text.strip_prefix(head).unwrap_or(&text).to_string()
    }

    #[test]
    fn views_print_as_mariadb_prints_them() {
        assert_eq!(
            shown("CREATE VIEW v (c) AS SELECT a+1 FROM t"),
            "select `t`.`a` + 1 AS `c` from `t`"
        );
        assert_eq!(
            shown("CREATE VIEW v AS SELECT * FROM t WHERE a > 1 AND (b = 'x' OR d IS NULL) ORDER BY a DESC LIMIT 2, 5"),
            "select `t`.`id` AS `id`,`t`.`a` AS `a`,`t`.`b` AS `b`,`t`.`d` AS `d` from `t` \
             where `t`.`a` > 1 and (`t`.`b` = 'x' or `t`.`d` is null) order by `t`.`a` desc limit 2,5"
        );
        assert_eq!(
            shown("CREATE VIEW v AS SELECT t.a x, COUNT(*), UPPER(b) FROM t JOIN u ON t.id = u.id LEFT JOIN u z USING (a) GROUP BY x HAVING COUNT(*) > 1"),
            "select `t`.`a` AS `x`,count(0) AS `COUNT(*)`,ucase(`t`.`b`) AS `UPPER(b)` \
             from ((`t` join `u` on(`t`.`id` = `u`.`id`)) left join `u` `z` on(`t`.`a` = `z`.`a`)) \
             group by `t`.`a` having count(0) > 1"
        );
        assert_eq!(
            shown(
                r"CREATE VIEW v AS SELECT NOT a, a NOT LIKE 'x', a IN (1), -(-1), a - (1 - a), 'it''s\\' FROM t"
            ),
            concat!(
                r"select `t`.`a` = 0 AS `NOT a`,`t`.`a`  not like 'x' AS `a NOT LIKE 'x'`,`t`.`a` = 1 AS `a IN (1)`,",
                r"1 AS `-(-1)`,`t`.`a` - (1 - `t`.`a`) AS `a - (1 - a)`,'it\'s\\' AS `it's\` from `t`"
            )
        );
        assert_eq!(
            shown("CREATE VIEW v AS SELECT a FROM t WHERE EXISTS (SELECT * FROM u WHERE u.a = t.a) AND a IN (SELECT a FROM u)"),
            "select `t`.`a` AS `a` from `t` where exists(select 1 from `u` where `u`.`a` = `t`.`a` limit 1) \
             and `t`.`a` in (select `u`.`a` from `u`)"
        );
        assert_eq!(
            shown("CREATE VIEW v AS WITH c AS (SELECT a FROM t) SELECT d.a FROM (SELECT a FROM c) d UNION ALL SELECT 1"),
            "with c as (select `t`.`a` AS `a` from `t`)select `d`.`a` AS `a` from (select `c`.`a` AS `a` from `c`) `d` \
             union all select 1 AS `1`"
        );
    }

    #[test]
    fn view_column_names_are_made_unique() {
        let mut names = vec![
            ("s1".to_string(), false),
            ("s1".to_string(), false),
            ("My_exp_s1".to_string(), true),
            (String::new(), false),
        ];
        unique_names(&mut names);
        let names: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["My_exp_1_s1", "s1", "My_exp_s1", "Name_exp_4"]);
    }
}

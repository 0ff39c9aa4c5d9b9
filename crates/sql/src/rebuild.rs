//! Table rebuilds: the ALTER TABLE operations SQLite's own ALTER cannot do (a column's type,
//! nullability or default changed, a column placed `FIRST`/`AFTER c`, a NOT NULL column
//! added without DEFAULT, a column dropped out of a multi-column index) become SQLite's
//! documented "twelve-step" rebuild, run as one schema change in total order (TOI) like
//! every DDL:
//!
//! ```text
//! CREATE TABLE "db.t tutti_rebuild" (<the new definition>)
//! INSERT INTO "db.t tutti_rebuild" (cols) SELECT <each column as its new type stores it> FROM "db.t"
//! DROP TABLE "db.t";  ALTER TABLE "db.t tutti_rebuild" RENAME TO "db.t"
//! CREATE INDEX ... (every index, on the columns that remain); RENAME COLUMN ... (renames)
//! ```
//!
//! The model starts from the table's SQLite definition (`sqlite_schema.sql`, which tutti
//! wrote: one item per column or table constraint) and every operation of the ALTER updates
//! it, so operations combine in MariaDB's order. Values are copied through the new column's
//! store function (see `stored`): a value that no longer fits is MariaDB's error in strict
//! mode (the ALTER then changes nothing) or adjusted otherwise; a NOT NULL column added
//! without DEFAULT gets MariaDB's implicit default (0, '', the first ENUM member, the zero
//! date). A table without PRIMARY KEY keeps its invisible key values; an AUTO_INCREMENT
//! table keeps its counter.
//!
//! Refused: a rebuild of a table other tables reference by FOREIGN KEY — SQLite's DROP
//! TABLE would run their ON DELETE actions (foreign keys cannot be switched off inside the
//! replicated transaction).

use sqlparser::ast::Expr;
use sqlparser::dialect::SQLiteDialect;
use sqlparser::tokenizer::Tokenizer;

use crate::columns::{ColumnOut, AUTOINC_TYPE_MARK};
use crate::names::{quote_literal, quote_str};
use crate::{ColumnInfo, SqlError, TableInfo, TableName};

/// Suffix of the table a rebuild fills before it takes the old one's place.
const REBUILD_SUFFIX: &str = " tutti_rebuild";

/// Where a column of the rebuilt table gets its values.
#[derive(Clone, Debug)]
enum Source {
    /// The old column of this name, as is.
    Column(String),
    /// An expression over the old row (a converted column, an implicit default).
    Expr(String),
    /// Nothing: the column's DEFAULT (or NULL).
    Default,
}

/// One column of the rebuilt table.
#[derive(Clone, Debug)]
struct Column {
    /// Its name in the rebuilt table's definition (renames follow the rebuild).
    name: String,
    /// Its name once the ALTER is done.
    final_name: String,
    /// Its SQLite definition.
    sql: String,
    source: Source,
}

/// One secondary index, recreated after the rebuild.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    /// The MySQL name.
    pub name: String,
    pub unique: bool,
    /// Columns by final name.
    pub columns: Vec<String>,
}

/// What `CONVERT TO CHARACTER SET` changed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Converted {
    /// A text column's collation.
    pub collation: bool,
    /// A text column's single-byte character set (MariaDB then copies the rows; a new
    /// collation alone it changes in place).
    pub charset: bool,
}

/// A table being rebuilt.
#[derive(Clone, Debug)]
pub(crate) struct Rebuild {
    table: TableName,
    /// The columns in their new order.
    columns: Vec<Column>,
    /// Table constraints (CHECK, FOREIGN KEY), SQLite text.
    constraints: Vec<String>,
    /// The PRIMARY KEY's columns by definition name (empty: none, or the AUTO_INCREMENT
    /// column's inline key).
    primary: Vec<String>,
    /// The PRIMARY KEY constraint as the table has it, written again while `primary` is
    /// unchanged (it may carry DESC).
    primary_sql: Option<(Vec<String>, String)>,
    pub indexes: Vec<Index>,
    /// The table keeps rows by its invisible key (rowid), which the copy carries over.
    invisible_key: bool,
    /// The AUTO_INCREMENT column, whose counter the copy carries over.
    autoinc: Option<String>,
    /// Other tables' foreign keys reference this one.
    referenced: bool,
}

impl Rebuild {
    /// The model of an existing table, from its SQLite definition.
    pub(crate) fn of(info: &TableInfo) -> Result<Rebuild, SqlError> {
        let items = items(&info.create_sql).ok_or_else(|| {
            SqlError::Unsupported(format!(
                "ALTER TABLE of {} (unreadable definition)",
                info.name
            ))
        })?;
        let mut columns = Vec::new();
        let mut constraints = Vec::new();
        let mut primary_sql = None;
        for item in items {
            match leading_name(&item) {
                Some(name) => columns.push(Column {
                    final_name: name.clone(),
                    source: Source::Column(name.clone()),
                    name,
                    sql: item,
                }),
                None if item.to_ascii_uppercase().starts_with("PRIMARY KEY") => {
                    primary_sql = Some(item)
                }
                None => constraints.push(item),
            }
        }
        let mut keyed: Vec<&ColumnInfo> = info.columns.iter().filter(|c| c.pk > 0).collect();
        keyed.sort_by_key(|c| c.pk);
        let primary: Vec<String> = match primary_sql {
            Some(_) => keyed.iter().map(|c| c.name.clone()).collect(),
            None => Vec::new(),
        };
        let primary_sql = primary_sql.map(|sql| (primary.clone(), sql));
        let prefix = format!("{}.", info.name.sqlite_name());
        let indexes = info
            .indexes
            .iter()
            .filter(|i| i.sqlite_name.starts_with(&prefix))
            .map(|i| Index {
                name: i.name.clone(),
                unique: i.unique,
                columns: i.columns.clone(),
            })
            .collect();
        Ok(Rebuild {
            table: info.name.clone(),
            columns,
            constraints,
            primary,
            primary_sql,
            indexes,
            invisible_key: info.has_invisible_key(),
            autoinc: info.autoinc.clone().filter(|_| !info.has_invisible_key()),
            referenced: info.referenced,
        })
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.columns
            .iter()
            .position(|c| c.final_name.eq_ignore_ascii_case(name))
    }

    /// True if the table has a column of this (final) name.
    pub(crate) fn has_column(&self, name: &str) -> bool {
        self.position(name).is_some()
    }

    /// Where `FIRST` / `AFTER c` / nothing (the end) puts a column.
    fn place(&self, position: &Placement) -> Result<usize, SqlError> {
        match position {
            Placement::Last => Ok(self.columns.len()),
            Placement::First => Ok(0),
            Placement::After(c) => self
                .position(c)
                .map(|i| i + 1)
                .ok_or_else(|| unknown_column(c, &self.table)),
        }
    }

    /// `ADD COLUMN`: `fill` is the value existing rows get when the DEFAULT cannot give it
    /// (a NOT NULL column without DEFAULT).
    pub(crate) fn add(
        &mut self,
        column: &ColumnOut,
        fill: Option<Expr>,
        position: &Placement,
    ) -> Result<(), SqlError> {
        let at = self.place(position)?;
        let mut column = column.clone();
        self.constraints.append(&mut column.checks);
        self.columns.insert(
            at,
            Column {
                name: column.name.clone(),
                final_name: column.name.clone(),
                sql: column.sql(),
                source: fill.map_or(Source::Default, |e| Source::Expr(e.to_string())),
            },
        );
        Ok(())
    }

    /// Removes the ENUM member check of the column named so in the definition.
    fn drop_enum_check(&mut self, name: &str) {
        let prefix = enum_check_prefix(name);
        self.constraints.retain(|c| !c.starts_with(&prefix));
    }

    /// `DROP COLUMN`: the column leaves its indexes too (an index left empty goes).
    pub(crate) fn drop(&mut self, name: &str) -> Result<(), SqlError> {
        let at = self
            .position(name)
            .ok_or_else(|| SqlError::NoSuchColumnToDrop(name.to_string()))?;
        if self.primary.len() > 1 && self.primary.contains(&self.columns[at].name) {
            return Err(SqlError::KeyColumnMissing(name.to_string()));
        }
        let column = self.columns.remove(at);
        self.drop_enum_check(&column.name);
        self.primary.retain(|c| c != &column.name);
        if is_autoinc_sql(&column.sql) {
            self.autoinc = None;
        }
        for i in &mut self.indexes {
            i.columns.retain(|c| !c.eq_ignore_ascii_case(name));
        }
        self.indexes.retain(|i| !i.columns.is_empty());
        Ok(())
    }

    /// The current definition of a column: (name in the definition, SQLite text).
    pub(crate) fn definition(&self, name: &str) -> Option<(&str, &str)> {
        self.position(name)
            .map(|i| (self.columns[i].name.as_str(), self.columns[i].sql.as_str()))
    }

    /// `RENAME COLUMN a TO b` (also CHANGE's rename): done by SQLite after the rebuild, so
    /// that constraints naming the column follow. True when only a rebuild renames it
    /// fully: an ENUM column, whose member check is named after it.
    pub(crate) fn rename(&mut self, old: &str, new: &str) -> Result<bool, SqlError> {
        let at = self
            .position(old)
            .ok_or_else(|| unknown_column(old, &self.table))?;
        let (from, to) = (enum_check_prefix(old), enum_check_prefix(new));
        let mut enum_check = false;
        for c in &mut self.constraints {
            if let Some(rest) = c.strip_prefix(&from) {
                *c = format!("{to}{rest}");
                enum_check = true;
            }
        }
        for i in &mut self.indexes {
            for c in &mut i.columns {
                if c.eq_ignore_ascii_case(old) {
                    *c = new.to_string();
                }
            }
        }
        self.columns[at].final_name = new.to_string();
        Ok(enum_check)
    }

    /// MODIFY / CHANGE: the column gets the definition `new` (written with its current
    /// definition name) and its values through `convert` (an expression over the old
    /// column), and moves to `position` if one is given.
    pub(crate) fn redefine(
        &mut self,
        name: &str,
        new: &ColumnOut,
        convert: Option<Expr>,
        position: Option<&Placement>,
    ) -> Result<(), SqlError> {
        let mut new = new.clone();
        let at = self
            .position(name)
            .ok_or_else(|| unknown_column(name, &self.table))?;
        let mut column = self.columns.remove(at);
        self.drop_enum_check(&column.name);
        self.constraints.append(&mut new.checks);
        column.sql = new.sql();
        if let (Some(e), Source::Column(_)) = (convert, &column.source) {
            column.source = Source::Expr(e.to_string());
        }
        let at = match position {
            Some(p) => self.place(p)?,
            None => at,
        };
        self.columns.insert(at, column);
        Ok(())
    }

    /// The member check of the ENUM column named so in the definition.
    pub(crate) fn enum_check(&self, name: &str) -> Option<&str> {
        let prefix = enum_check_prefix(name);
        self.constraints
            .iter()
            .find(|c| c.starts_with(&prefix))
            .map(String::as_str)
    }

    /// ALTER COLUMN ... SET / DROP DEFAULT: the column's definition becomes `sql`.
    pub(crate) fn set_definition(&mut self, name: &str, sql: String) -> Result<(), SqlError> {
        let at = self
            .position(name)
            .ok_or_else(|| unknown_column(name, &self.table))?;
        self.columns[at].sql = sql;
        Ok(())
    }

    /// `ALTER TABLE t [DEFAULT] COLLATE c`: the table's default collation becomes `mark`'s
    /// (see `column_marks::table_collation`; None: general_ci).
    pub(crate) fn set_default_collation(&mut self, mark: Option<String>) {
        self.constraints
            .retain(|c| crate::column_marks::table_collation(c).is_none());
        self.constraints.extend(mark);
    }

    /// `ALTER TABLE t ENGINE = e`: the table's engine becomes `mark`'s (see
    /// `column_marks::engine_mark`; None: InnoDB).
    pub(crate) fn set_engine(&mut self, mark: Option<String>) {
        self.constraints
            .retain(|c| crate::column_marks::recorded_engine(c).is_none());
        self.constraints.extend(mark);
    }

    /// `CONVERT TO CHARACTER SET`: every text column's collation becomes `collation` (an
    /// SQLite collation) and its character set mark `charset_mark` (see
    /// `column_marks::charset`; None: UTF-8).
    pub(crate) fn convert_text(
        &mut self,
        collation: &str,
        charset_mark: Option<&str>,
    ) -> Converted {
        let mut converted = Converted::default();
        let mark_start = crate::column_marks::charset("");
        let mark_start = format!(" {}", mark_start.trim_end_matches("*/"));
        for c in &mut self.columns {
            let Some(at) = find_clause(&c.sql, "COLLATE") else {
                continue;
            };
            let start = at + " COLLATE ".len();
            let end = c.sql[start..].find(' ').map_or(c.sql.len(), |n| start + n);
            let current = &c.sql[start..end];
            if !crate::columns::is_ci_collation(current) && current != crate::columns::BIN_PAD {
                continue; // TIME, DECIMAL
            }
            converted.collation |= current != collation;
            c.sql.replace_range(start..end, collation);
            let old_mark = c.sql.find(&mark_start).map(|at| {
                let close = c.sql[at..].find("*/").map_or(c.sql.len(), |n| at + n + 2);
                c.sql.drain(at..close).collect::<String>()
            });
            converted.charset |= old_mark.as_deref().map(str::trim_start) != charset_mark;
            if let Some(mark) = charset_mark {
                c.sql.push(' ');
                c.sql.push_str(mark);
            }
        }
        converted
    }

    /// The column is now the AUTO_INCREMENT primary key (declared inline): the table's
    /// PRIMARY KEY constraint goes.
    pub(crate) fn make_autoinc(&mut self, name: &str) {
        self.primary.clear();
        self.autoinc = Some(name.to_string());
    }

    /// The AUTO_INCREMENT column is now a plain primary-key column.
    pub(crate) fn drop_autoinc(&mut self, name: &str) {
        self.primary = vec![name.to_string()];
        self.autoinc = None;
    }

    /// The PRIMARY KEY's columns by definition name, the inline AUTO_INCREMENT one too.
    pub(crate) fn primary_key(&self) -> Vec<String> {
        match self.columns.iter().find(|c| is_autoinc_sql(&c.sql)) {
            Some(c) => vec![c.name.clone()],
            None => self.primary.clone(),
        }
    }

    /// `DROP PRIMARY KEY`: the table is then keyed by its invisible key. The inline
    /// AUTO_INCREMENT key cannot go (MariaDB's 1075: the auto column must be a key).
    pub(crate) fn drop_primary_key(&mut self) -> Result<(), SqlError> {
        if self.columns.iter().any(|c| is_autoinc_sql(&c.sql)) {
            return Err(SqlError::AutoColumnNotKey);
        }
        if self.primary.is_empty() {
            return Err(SqlError::NoSuchIndex("PRIMARY".into()));
        }
        self.primary.clear();
        Ok(())
    }

    /// `ADD PRIMARY KEY (cols)`: its columns become NOT NULL (and a single integer one is
    /// kept from being SQLite's rowid alias).
    pub(crate) fn add_primary_key(&mut self, columns: &[String]) -> Result<(), SqlError> {
        if !self.primary_key().is_empty() {
            return Err(SqlError::MultiplePrimaryKey);
        }
        let mut names = Vec::new();
        for name in columns {
            let at = self
                .position(name)
                .ok_or_else(|| SqlError::KeyColumnMissing(name.clone()))?;
            let c = &mut self.columns[at];
            c.sql = with_not_null(&c.sql, &c.name, columns.len() == 1);
            names.push(c.name.clone());
        }
        self.primary = names;
        Ok(())
    }

    /// The SQLite statements of the rebuild, the table ending up named `target`.
    pub(crate) fn statements(&self, target: &TableName) -> Result<Vec<String>, SqlError> {
        if self.referenced {
            return Err(SqlError::Unsupported(format!(
                "ALTER TABLE ... that rebuilds {}, which other tables reference by FOREIGN KEY",
                self.table
            )));
        }
        let old = quote_str(&self.table.sqlite_name());
        let new_name = format!("{}{REBUILD_SUFFIX}", self.table.sqlite_name());
        let new = quote_str(&new_name);
        let mut body: Vec<&str> = self.columns.iter().map(|c| c.sql.as_str()).collect();
        let primary = match &self.primary_sql {
            Some((columns, sql)) if columns == &self.primary => sql.clone(),
            _ => {
                let quoted: Vec<String> = self.primary.iter().map(|c| quote_str(c)).collect();
                format!("PRIMARY KEY ({})", quoted.join(", "))
            }
        };
        if !self.primary.is_empty() {
            body.push(&primary);
        }
        body.extend(self.constraints.iter().map(String::as_str));
        let mut out = vec![format!("CREATE TABLE {new} ({})", body.join(", "))];

        let mut into = Vec::new();
        let mut from = Vec::new();
        if self.invisible_key {
            into.push(crate::INVISIBLE_KEY.to_string());
            from.push(crate::INVISIBLE_KEY.to_string());
        }
        for c in &self.columns {
            let value = match &c.source {
                Source::Column(n) => quote_str(n),
                Source::Expr(e) => e.clone(),
                Source::Default => continue,
            };
            into.push(quote_str(&c.name));
            from.push(value);
        }
        if !into.is_empty() {
            out.push(format!(
                "INSERT INTO {new} ({}) SELECT {} FROM {old}",
                into.join(", "),
                from.join(", ")
            ));
        }
        if self.autoinc.is_some() {
            // The counter is the old table's (the copy set it to the largest id copied).
            out.push(format!(
                "DELETE FROM sqlite_sequence WHERE name = {}",
                quote_literal(&new_name)
            ));
            out.push(format!(
                "INSERT INTO sqlite_sequence (name, seq) SELECT {}, seq \
                 FROM sqlite_sequence WHERE name = {}",
                quote_literal(&new_name),
                quote_literal(&self.table.sqlite_name())
            ));
        }
        out.push(format!("DROP TABLE {old}"));
        // Views naming the table are broken between the DROP and the RENAME: the legacy
        // rename leaves them alone (they name the table, which exists again afterwards).
        out.push("PRAGMA legacy_alter_table = ON".into());
        out.push(format!(
            "ALTER TABLE {new} RENAME TO {}",
            quote_str(&target.sqlite_name())
        ));
        out.push("PRAGMA legacy_alter_table = OFF".into());
        for c in self.columns.iter().filter(|c| c.name != c.final_name) {
            out.push(format!(
                "ALTER TABLE {} RENAME COLUMN {} TO {}",
                quote_str(&target.sqlite_name()),
                quote_str(&c.name),
                quote_str(&c.final_name)
            ));
        }
        for i in &self.indexes {
            let parts: Vec<(String, bool)> = i.columns.iter().map(|c| (c.clone(), false)).collect();
            out.push(crate::columns::index_sql(
                target, &i.name, i.unique, &parts, false,
            ));
        }
        Ok(out)
    }
}

/// `FIRST`, `AFTER c`, or the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    First,
    After(String),
    Last,
}

impl From<sqlparser::ast::MySQLColumnPosition> for Placement {
    fn from(p: sqlparser::ast::MySQLColumnPosition) -> Placement {
        use sqlparser::ast::MySQLColumnPosition as P;
        match p {
            P::First => Placement::First,
            P::After(c) => Placement::After(c.value),
        }
    }
}

fn unknown_column(name: &str, table: &TableName) -> SqlError {
    SqlError::UnknownColumn {
        column: name.to_string(),
        table: table.table.clone(),
    }
}

/// True if MariaDB changes a column's type from `old` to `new` (declared types, with the
/// ENUM member checks) in place, reporting 0 affected rows: the same type, a longer
/// VARCHAR/VARBINARY, ENUM members added at the end. Any other change copies the table.
pub(crate) fn type_changes_in_place(old: (&str, Option<&str>), new: (&str, Option<&str>)) -> bool {
    let (old_type, new_type) = (old.0.to_ascii_uppercase(), new.0.to_ascii_uppercase());
    let length =
        |t: &str| -> Option<u64> { t.split_once('(')?.1.split_once(')')?.0.trim().parse().ok() };
    if base_type(&old_type) != base_type(&new_type) {
        return false;
    }
    match base_type(&old_type).as_str() {
        "VARCHAR" | "VARBINARY" => length(&new_type) >= length(&old_type),
        // Members appended: the values stay what they were (a SET's bits too).
        "ENUM" | "SET_TEXT" => match (old.1.map(check_members), new.1.map(check_members)) {
            (Some(o), Some(n)) => n.starts_with(&o),
            _ => false,
        },
        _ => old_type == new_type,
    }
}

/// The members an ENUM member check lists.
pub(crate) fn check_members(check: &str) -> Vec<String> {
    let tokens = Tokenizer::new(&SQLiteDialect {}, check)
        .tokenize()
        .unwrap_or_default();
    crate::enums::check_members(&tokens)
}

/// The type name of a declared type, upper case: `VARCHAR` of `varchar(10)`.
pub(crate) fn base_type(declared: &str) -> String {
    let name = declared.split(['(', ' ']).next().unwrap_or_default();
    name.to_ascii_uppercase()
}

/// How an ENUM column's member check starts (see `ENUM_CHECK_SUFFIX`).
fn enum_check_prefix(column: &str) -> String {
    format!(
        "CONSTRAINT {} ",
        quote_str(&format!("{column}{}", crate::ENUM_CHECK_SUFFIX))
    )
}

/// A one-column table for the store functions of `stored`: `column` declared as `decl`.
pub(crate) fn column_table(table: &TableName, column: &str, decl: &str) -> TableInfo {
    TableInfo {
        name: table.clone(),
        columns: vec![ColumnInfo {
            name: column.to_string(),
            decl_type: decl.to_string(),
            not_null: false,
            pk: 0,
            default: None,
            computed: None,
        }],
        autoinc: None,
        indexes: vec![],
        create_sql: String::new(),
        referenced: false,
    }
}

/// The MySQL type a column definition declares: the AUTO_INCREMENT column's is in its
/// type comment.
pub(crate) fn declared_type(out: &ColumnOut) -> &str {
    out.autoinc_type.as_deref().unwrap_or(&out.mapped.decl)
}

/// True if the SQLite column definition marks the AUTO_INCREMENT column.
pub(crate) fn is_autoinc_sql(sql: &str) -> bool {
    sql.contains(&format!("/*{AUTOINC_TYPE_MARK}"))
}

/// The items of a `CREATE TABLE name (item, item, ...)` statement, split at the commas
/// outside parentheses, quotes and comments.
fn items(create_sql: &str) -> Option<Vec<String>> {
    let open = Scanner::new(create_sql)
        .find(|&(_, c, depth)| c == '(' && depth == 0)?
        .0;
    let body_start = open + 1;
    let mut out = Vec::new();
    let mut start = body_start;
    for (i, c, depth) in Scanner::new(create_sql).skip_while(|&(i, ..)| i < body_start) {
        match (c, depth) {
            (',', 1) => {
                out.push(create_sql[start..i].trim().to_string());
                start = i + 1;
            }
            (')', 0) => {
                out.push(create_sql[start..i].trim().to_string());
                return Some(out);
            }
            _ => {}
        }
    }
    None
}

/// The column name an item starts with (a column definition), None for a constraint.
fn leading_name(item: &str) -> Option<String> {
    let rest = item.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '"' {
            if chars.peek() == Some(&'"') {
                chars.next();
                name.push('"');
            } else {
                return Some(name);
            }
        } else {
            name.push(c);
        }
    }
    None
}

/// A column definition with its DEFAULT clause replaced (None: removed). The clauses
/// follow `ColumnOut::sql`'s order: the DEFAULT comes before COLLATE and the checks.
pub(crate) fn with_default(sql: &str, default: Option<&str>) -> String {
    let next_clause = |s: &str| {
        ["COLLATE", "CONSTRAINT", "CHECK"]
            .iter()
            .filter_map(|k| find_clause(s, k))
            .min()
            .unwrap_or(s.len())
    };
    let mut out = sql.to_string();
    if let Some(at) = find_clause(&out, "DEFAULT") {
        let end = at + 1 + next_clause(&out[at + 1..]);
        out.replace_range(at..end, "");
    }
    if let Some(d) = default {
        let at = next_clause(&out);
        out.insert_str(at, &format!(" DEFAULT {d}"));
    }
    out
}

/// A column definition made NOT NULL; a lone primary-key column declared exactly `INTEGER`
/// becomes `INT`, which SQLite does not take for its rowid (see `create_table`).
fn with_not_null(sql: &str, name: &str, lone_key: bool) -> String {
    let mut out = sql.to_string();
    let integer = format!("{} INTEGER", quote_str(name));
    if lone_key && (out == integer || out.starts_with(&format!("{integer} "))) {
        out.replace_range(integer.len() - "INTEGER".len()..integer.len(), "INT");
    }
    if find_clause(&out, "NOT").is_some() {
        return out;
    }
    let at = ["DEFAULT", "COLLATE", "CONSTRAINT", "CHECK"]
        .iter()
        .filter_map(|k| find_clause(&out, k))
        .min()
        .unwrap_or(out.len());
    out.insert_str(at, " NOT NULL");
    out
}

/// The byte offset of ` {keyword} ` in a column definition outside quotes, parentheses
/// and comments.
pub(crate) fn find_clause(sql: &str, keyword: &str) -> Option<usize> {
    let pattern = format!(" {keyword} ");
    Scanner::new(sql)
        .filter(|&(_, c, depth)| c == ' ' && depth == 0)
        .map(|(i, ..)| i)
        .find(|&i| {
            sql[i..].len() >= pattern.len()
                && sql[i..i + pattern.len()].eq_ignore_ascii_case(&pattern)
        })
}

/// Walks SQL text yielding (byte offset, char, parenthesis depth before it) for every
/// character outside quotes and comments.
struct Scanner<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    depth: usize,
}

impl<'a> Scanner<'a> {
    fn new(s: &'a str) -> Scanner<'a> {
        Scanner {
            chars: s.char_indices().peekable(),
            depth: 0,
        }
    }

    /// Skips to after the closing `quote` (doubled quotes are part of the text).
    fn skip_quoted(&mut self, quote: char) {
        while let Some((_, c)) = self.chars.next() {
            if c == quote {
                if self.chars.peek().map(|&(_, n)| n) == Some(quote) {
                    self.chars.next();
                } else {
                    return;
                }
            }
        }
    }

    fn skip_comment(&mut self) {
        let mut star = false;
        for (_, c) in self.chars.by_ref() {
            if star && c == '/' {
                return;
            }
            star = c == '*';
        }
    }
}

impl Iterator for Scanner<'_> {
    type Item = (usize, char, usize);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (i, c) = self.chars.next()?;
            match c {
                '\'' | '"' | '`' => self.skip_quoted(c),
                '[' => self.skip_quoted(']'),
                '/' if self.chars.peek().map(|&(_, n)| n) == Some('*') => {
                    self.chars.next();
                    self.skip_comment();
                }
                '(' => {
                    self.depth += 1;
                    return Some((i, c, self.depth - 1));
                }
                ')' => {
                    self.depth = self.depth.saturating_sub(1);
                    return Some((i, c, self.depth));
                }
                _ => return Some((i, c, self.depth)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_split_outside_quotes_parentheses_and_comments() {
        let sql = r#"CREATE TABLE "d.t" ("id" INTEGER /*tutti:type INT, x*/ NOT NULL PRIMARY KEY AUTOINCREMENT, "a,b" DECIMAL TEXT(10,2) DEFAULT '1,5', "c" ENUM CONSTRAINT "c enum" CHECK ("c" IN ('a', 'b')), CHECK ("id" > 0))"#;
        let items = items(sql).unwrap();
        assert_eq!(items.len(), 4);
        assert_eq!(leading_name(&items[1]).as_deref(), Some("a,b"));
        assert_eq!(items[3], r#"CHECK ("id" > 0)"#);
        assert_eq!(leading_name(&items[3]), None);
        assert!(is_autoinc_sql(&items[0]));
    }

    #[test]
    fn clauses_are_found_outside_quotes() {
        let sql = r#""a" VARCHAR(10) DEFAULT ' COLLATE ' COLLATE tutti_general_ci"#;
        let at = find_clause(sql, "COLLATE").unwrap();
        assert_eq!(&sql[at..], " COLLATE tutti_general_ci");
        assert_eq!(find_clause(sql, "CHECK"), None);
        assert_eq!(
            with_default(sql, Some("'x'")),
            r#""a" VARCHAR(10) DEFAULT 'x' COLLATE tutti_general_ci"#
        );
        assert_eq!(
            with_default(sql, None),
            r#""a" VARCHAR(10) COLLATE tutti_general_ci"#
        );
        assert_eq!(
            with_default(r#""b" INT NOT NULL"#, Some("0")),
            r#""b" INT NOT NULL DEFAULT 0"#
        );
    }

    #[test]
    fn in_place_type_changes_are_mariadbs() {
        let e = |members: &str| format!(r#"CONSTRAINT "c enum" CHECK ("c" IN ({members}))"#);
        let (ab, abc, ba) = (e("'a', 'b'"), e("'a', 'b', 'c'"), e("'b', 'a'"));
        let t = |t| (t, None);
        assert!(type_changes_in_place(t("VARCHAR(5)"), t("varchar(10)")));
        assert!(!type_changes_in_place(t("VARCHAR(10)"), t("VARCHAR(5)")));
        assert!(type_changes_in_place(t("INT"), t("INT")));
        assert!(!type_changes_in_place(t("INT"), t("BIGINT")));
        assert!(!type_changes_in_place(t("INT"), t("INT UNSIGNED")));
        assert!(!type_changes_in_place(t("CHAR(5)"), t("CHAR(10)")));
        fn en(c: &str) -> (&str, Option<&str>) {
            ("ENUM", Some(c))
        }
        assert!(type_changes_in_place(en(&ab), en(&abc)));
        assert!(type_changes_in_place(en(&ab), en(&ab)));
        assert!(!type_changes_in_place(en(&abc), en(&ab)));
        assert!(!type_changes_in_place(en(&ab), en(&ba)));
    }
}

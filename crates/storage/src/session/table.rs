//! What the recorder needs to know of a table: its columns as a changeset lists them, which
//! are the primary key, and where each is in SQLite's pre-update values.
//!
//! As SQLite's session module with `SQLITE_SESSION_OBJCONFIG_ROWID` sees it: generated
//! (hidden) columns are left out; a table with no PRIMARY KEY is keyed by its rowid, an
//! extra leftmost key column `_rowid_`.

use rusqlite::Connection;

/// The name the rowid key column has in a changeset.
const ROWID: &str = "_rowid_";

/// One table's shape.
pub(super) struct TableInfo {
    /// The table's name.
    pub name: String,
    /// Each changeset column's place in the primary key (1-based; 0: not in it), which a
    /// changeset's table header carries.
    pub pk: Vec<u8>,
    /// Each changeset column's index among the pre-update values (None: the rowid).
    pub source: Vec<Option<i32>>,
    /// How many values a pre-update call has (hidden columns included).
    pub total: i32,
    /// Reads a row's current values by its key (`?n` for key column n - 1).
    pub select: String,
}

/// A name quoted as an SQLite identifier.
fn ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl TableInfo {
    /// `table` of `schema` as it is now; None when it has no such table.
    pub fn read(conn: &Connection, schema: &str, table: &str) -> rusqlite::Result<Option<Self>> {
        let mut stmt =
            conn.prepare_cached("SELECT cid, name, pk, hidden FROM pragma_table_xinfo(?1, ?2)")?;
        let mut rows = stmt.query((table, schema))?;
        let mut total = 0;
        let mut columns: Vec<(String, u8, Option<i32>)> = Vec::new();
        while let Some(r) = rows.next()? {
            total += 1;
            if r.get::<_, i64>(3)? == 0 {
                columns.push((r.get(1)?, r.get(2)?, Some(r.get(0)?)));
            }
        }
        if total == 0 {
            return Ok(None);
        }
        if !columns.is_empty() && columns.iter().all(|c| c.1 == 0) {
            columns.insert(0, (ROWID.to_string(), 1, None));
        }
        let names: Vec<String> = columns.iter().map(|c| ident(&c.0)).collect();
        let keys: Vec<usize> = (0..columns.len()).filter(|&i| columns[i].1 > 0).collect();
        let select = format!(
            "SELECT {} FROM {}.{} WHERE ({}) IS ({})",
            names.join(", "),
            ident(schema),
            ident(table),
            keys.iter()
                .map(|&i| names[i].as_str())
                .collect::<Vec<_>>()
                .join(", "),
            keys.iter()
                .map(|i| format!("?{}", i + 1))
                .collect::<Vec<_>>()
                .join(", "),
        );
        Ok(Some(TableInfo {
            name: table.to_string(),
            pk: columns.iter().map(|c| c.1).collect(),
            source: columns.iter().map(|c| c.2).collect(),
            total,
            select,
        }))
    }
}

//! The column definition MariaDB sends in a result set for a table column read as is
//! (`SELECT a FROM t`, where SQLite knows the result column's origin): the type, the length
//! in the connection's character set (utf8mb4: four bytes a character), the decimals, and
//! the flags drivers and ORMs read (`NOT NULL`, `PRI_KEY`, `UNIQUE_KEY`, `MULTIPLE_KEY`,
//! `AUTO_INCREMENT`, `BINARY`, `ENUM`, `NO_DEFAULT_VALUE`, ...).
//!
//! It follows from the column's MySQL type as `SHOW CREATE TABLE` shows it and from the
//! table's keys, so the catalog computes it once per table and schema change. Computed
//! result columns keep the definition their values' kind gives (see the MySQL front-end).

use tutti_sql::{ColumnInfo, TableInfo};

use crate::result::flags::*;
use crate::result::{ColumnKind, TableColumnDef};
use crate::show_table::{is_text, Definition};

/// Bytes a character takes in the connection's character set (utf8mb4).
const MBMAXLEN: u32 = 4;

/// The definitions of a table's columns, in column order.
pub(crate) fn table_defs(info: &TableInfo) -> Vec<TableColumnDef> {
    let def = Definition::parse(&info.create_sql);
    let on_update = tutti_sql::on_update_columns(&info.create_sql);
    info.columns
        .iter()
        .map(|c| {
            let mut d = of_type(&def.mysql_type(c));
            let exact_text = is_text(&c.decl_type) && def.collation_of(&c.name).is_none();
            if exact_text || c.decl_type.eq_ignore_ascii_case("JSON TEXT") {
                d.flags |= BINARY;
            }
            d.flags |= key_flags(info, c);
            let updated = on_update.iter().any(|(name, _)| *name == c.name);
            if updated {
                d.flags |= ON_UPDATE_NOW;
            }
            if d.kind == ColumnKind::Timestamp && (updated || is_current_timestamp(c)) {
                d.flags |= TIMESTAMP;
            }
            d
        })
        .collect()
}

fn is_current_timestamp(c: &ColumnInfo) -> bool {
    c.default
        .as_deref()
        .is_some_and(|d| tutti_sql::current_timestamp_precision(d, 0).is_some())
}

/// NOT NULL, keys, AUTO_INCREMENT and NO_DEFAULT_VALUE.
fn key_flags(info: &TableInfo, c: &ColumnInfo) -> u16 {
    let mut f = 0;
    let autoinc = !info.has_invisible_key() && info.autoinc.as_deref() == Some(&c.name);
    if c.not_null || c.pk > 0 {
        f |= NOT_NULL;
        if c.default.is_none() && !autoinc {
            f |= NO_DEFAULT_VALUE;
        }
    }
    if autoinc {
        f |= AUTO_INCREMENT;
    }
    if c.pk > 0 {
        f |= PRI_KEY | PART_KEY;
    }
    for index in info.indexes.iter().filter(|i| i.name != "PRIMARY") {
        let Some(position) = index.columns.iter().position(|k| *k == c.name) else {
            continue;
        };
        f |= PART_KEY;
        if position == 0 {
            f |= if index.unique && index.columns.len() == 1 {
                UNIQUE_KEY
            } else {
                MULTIPLE_KEY
            };
        }
    }
    f
}

/// The definition of a MySQL column type (`int(11) unsigned`, `varchar(20)`,
/// `decimal(10,2)`, `enum('a','b')`, `datetime(3)`, ...), before keys and collation.
fn of_type(mysql_type: &str) -> TableColumnDef {
    let t = mysql_type.to_ascii_lowercase();
    let zerofill = t.ends_with(" zerofill");
    let t = t.trim_end_matches(" zerofill");
    let unsigned = t.ends_with(" unsigned");
    let t = t.trim_end_matches(" unsigned");
    let (base, args) = match t.split_once('(') {
        Some((b, rest)) => (b, rest.strip_suffix(')').unwrap_or(rest)),
        None => (t, ""),
    };
    let nums: Vec<u32> = args
        .split(',')
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    let arg = |i: usize, default: u32| nums.get(i).copied().unwrap_or(default);
    let def = |kind, binary_charset, length, decimals: u32, flags| TableColumnDef {
        kind,
        binary_charset,
        length,
        decimals: decimals.min(u32::from(u8::MAX)) as u8,
        flags: flags | if unsigned { UNSIGNED } else { 0 } | if zerofill { ZEROFILL } else { 0 },
    };
    let number = |kind, length| def(kind, true, length, 0, 0);
    // Fractional seconds add a point and their digits.
    let temporal = |kind, length: u32, flags| {
        let fsp = arg(0, 0);
        def(
            kind,
            true,
            length + fsp + u32::from(fsp > 0),
            fsp,
            BINARY | flags,
        )
    };
    let text = |kind, chars: u32, flags| def(kind, false, chars * MBMAXLEN, 0, flags);
    let bytes = |kind, length: u32, flags| def(kind, true, length, 0, BINARY | flags);
    use ColumnKind::*;
    match base {
        "tinyint" => number(Tiny, arg(0, 4)),
        "smallint" => number(Short, arg(0, 6)),
        "mediumint" => number(Int24, arg(0, 9)),
        "int" => number(Long, arg(0, 11)),
        "bigint" => number(LongLong, arg(0, 20)),
        "float" | "double" => {
            let (kind, length) = if base == "float" {
                (Float, 12)
            } else {
                (Double, 22)
            };
            match nums[..] {
                [m, d] => def(kind, true, m, d, 0),
                _ => def(kind, true, length, 31, 0),
            }
        }
        "decimal" => {
            let (p, s) = (arg(0, 10), arg(1, 0));
            let length = p + u32::from(s > 0) + u32::from(!unsigned);
            def(Decimal, true, length, s, 0)
        }
        "year" => def(Year, true, 4, 0, UNSIGNED | ZEROFILL),
        "bit" => def(Bit, true, arg(0, 1), 0, UNSIGNED),
        "date" => temporal(Date, 10, 0),
        "datetime" => temporal(DateTime, 19, 0),
        "timestamp" => temporal(Timestamp, 19, UNSIGNED),
        "time" => temporal(Time, 10, 0),
        "char" => text(String, arg(0, 1), 0),
        "varchar" => text(Text, arg(0, 1), 0),
        "binary" => bytes(String, arg(0, 1), 0),
        "varbinary" => bytes(Text, arg(0, 1), 0),
        "tinytext" => text(TextBlob, 255, BLOB),
        "text" => text(TextBlob, 65_535, BLOB),
        "mediumtext" => text(TextBlob, 16_777_215, BLOB),
        "longtext" => def(TextBlob, false, u32::MAX, 0, BLOB),
        "tinyblob" => bytes(Blob, 255, BLOB),
        "blob" => bytes(Blob, 65_535, BLOB),
        "mediumblob" => bytes(Blob, 16_777_215, BLOB),
        "longblob" => bytes(Blob, u32::MAX, BLOB),
        "enum" => {
            let longest = enum_members(args)
                .iter()
                .map(|m| m.chars().count() as u32)
                .max()
                .unwrap_or(0);
            text(String, longest, ENUM)
        }
        "set" => {
            let members = enum_members(args);
            let all = members
                .iter()
                .map(|m| m.chars().count() as u32)
                .sum::<u32>()
                + members.len().saturating_sub(1) as u32;
            text(String, all, SET)
        }
        _ => text(Text, 65_535, 0),
    }
}

/// The members of `'a','b''c'` (an ENUM's list as `SHOW CREATE TABLE` shows it).
fn enum_members(list: &str) -> Vec<String> {
    let mut members = Vec::new();
    let mut chars = list.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\'' {
            continue;
        }
        let mut m = String::new();
        while let Some(c) = chars.next() {
            if c == '\'' {
                if chars.peek() == Some(&'\'') {
                    chars.next();
                } else {
                    break;
                }
            }
            m.push(c);
        }
        members.push(m);
    }
    members
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(t: &str) -> (ColumnKind, bool, u32, u8, u16) {
        let d = of_type(t);
        (d.kind, d.binary_charset, d.length, d.decimals, d.flags)
    }

    /// What MariaDB 10.11 sends for these types to a utf8mb4 connection.
    #[test]
    fn types_are_sent_as_mariadb_sends_them() {
        use ColumnKind::*;
        assert_eq!(sent("tinyint(2)"), (Tiny, true, 2, 0, 0));
        assert_eq!(sent("smallint(5) unsigned"), (Short, true, 5, 0, UNSIGNED));
        let zerofill = UNSIGNED | ZEROFILL;
        assert_eq!(
            sent("int(5) unsigned zerofill"),
            (Long, true, 5, 0, zerofill)
        );
        assert_eq!(sent("decimal(6,2) unsigned zerofill").2, 7);
        assert_eq!(sent("float(7,3)"), (Float, true, 7, 3, 0));
        assert_eq!(sent("double"), (Double, true, 22, 31, 0));
        assert_eq!(sent("decimal(5,0)"), (Decimal, true, 6, 0, 0));
        assert_eq!(
            sent("decimal(10,3) unsigned"),
            (Decimal, true, 11, 3, UNSIGNED)
        );
        assert_eq!(sent("decimal(65,30)"), (Decimal, true, 67, 30, 0));
        assert_eq!(sent("time(3)"), (Time, true, 14, 3, BINARY));
        assert_eq!(
            sent("timestamp(6)"),
            (Timestamp, true, 26, 6, BINARY | UNSIGNED)
        );
        assert_eq!(sent("datetime"), (DateTime, true, 19, 0, BINARY));
        assert_eq!(sent("year(4)"), (Year, true, 4, 0, UNSIGNED | ZEROFILL));
        assert_eq!(sent("bit(64)"), (Bit, true, 64, 0, UNSIGNED));
        assert_eq!(sent("char(1)"), (String, false, 4, 0, 0));
        assert_eq!(sent("varchar(300)"), (Text, false, 1200, 0, 0));
        assert_eq!(sent("binary(1)"), (String, true, 1, 0, BINARY));
        assert_eq!(sent("varbinary(5)"), (Text, true, 5, 0, BINARY));
        assert_eq!(sent("tinytext"), (TextBlob, false, 1020, 0, BLOB));
        assert_eq!(sent("mediumtext"), (TextBlob, false, 67_108_860, 0, BLOB));
        assert_eq!(sent("longtext"), (TextBlob, false, u32::MAX, 0, BLOB));
        assert_eq!(sent("tinyblob"), (Blob, true, 255, 0, BLOB | BINARY));
        assert_eq!(sent("enum('abc','de')"), (String, false, 12, 0, ENUM));
        assert_eq!(enum_members("'a''b',')'"), ["a'b", ")"]);
    }
}

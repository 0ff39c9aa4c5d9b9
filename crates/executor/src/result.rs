//! What a statement returns: an OK (affected rows, insert id) or a result set.
//!
//! Column types are derived from the declared type SQLite keeps (tutti declares MySQL's
//! type names, e.g. `BIGINT UNSIGNED`, `VARCHAR(20)`, `DATETIME`), and for computed
//! columns from the values themselves, so clients see MySQL types.

use tutti_wsrep::Value;

/// The MySQL type family of a result column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// TINYINT.
    Tiny,
    /// SMALLINT.
    Short,
    /// MEDIUMINT.
    Int24,
    /// INT.
    Long,
    /// BIGINT (and computed integers).
    LongLong,
    /// FLOAT.
    Float,
    /// DOUBLE / REAL (and computed reals).
    Double,
    /// DECIMAL / NUMERIC.
    Decimal,
    /// DATE.
    Date,
    /// DATETIME.
    DateTime,
    /// TIMESTAMP.
    Timestamp,
    /// TIME.
    Time,
    /// YEAR.
    Year,
    /// CHAR / VARCHAR / ENUM / SET (and computed text).
    Text,
    /// A CHAR, BINARY or ENUM column read as is: MariaDB sends it as a fixed-length string
    /// (only in a [`TableColumnDef`]).
    String,
    /// TINYTEXT / TEXT / MEDIUMTEXT / LONGTEXT: sent as a BLOB of characters, as MariaDB does.
    TextBlob,
    /// BLOB / BINARY / VARBINARY.
    Blob,
    /// JSON.
    Json,
    /// BIT.
    Bit,
    /// Only NULLs.
    Null,
}

/// One result column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    /// Its name (or alias).
    pub name: String,
    /// Its type.
    pub kind: ColumnKind,
    /// UNSIGNED integer.
    pub unsigned: bool,
    /// The fixed decimals of a FLOAT(M,D) or DOUBLE(M,D) column, a computed DECIMAL's
    /// scale, a computed date or time's fraction digits.
    pub decimals: Option<u8>,
    /// The display length MariaDB sends for a computed column, where known.
    pub length: Option<u32>,
    /// The table column it reads as is, if any (SQLite's names).
    pub origin: Option<Origin>,
    /// That table column's definition, as MariaDB sends it (set by the session from
    /// `origin`; None: computed, or from a table the catalog does not describe).
    pub table: Option<TableColumnDef>,
}

/// Whether `v` can be sent in a DECIMAL column: NULL, a number, or a number's text
/// (`-12.50`).
pub(crate) fn decimal_value(v: &Value) -> bool {
    match v {
        Value::Null | Value::Int(_) | Value::Real(_) => true,
        Value::Text(t) => {
            let digits = t.strip_prefix('-').unwrap_or(t);
            let (int, frac) = digits.split_once('.').unwrap_or((digits, "0"));
            let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            all_digits(int) && all_digits(frac)
        }
        Value::Blob(_) => false,
    }
}

/// The table column a result column reads as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The SQLite table (`db.t`).
    pub table: String,
    /// The column.
    pub column: String,
}

/// What MariaDB sends in a result set's column definition for a table column read as is:
/// its type, length in bytes of the connection's character set (utf8mb4: four per
/// character), decimals and flags (`NOT NULL`, keys, `AUTO_INCREMENT`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableColumnDef {
    /// The type.
    pub kind: ColumnKind,
    /// Sent with the binary character set (numbers, temporal types, BINARY, VARBINARY,
    /// BLOB, BIT); else the connection's.
    pub binary_charset: bool,
    /// The maximum length.
    pub length: u32,
    /// Decimals (31 for a FLOAT or DOUBLE without them).
    pub decimals: u8,
    /// MySQL's column flags, see [`flags`].
    pub flags: u16,
}

/// MySQL's column definition flags (`mysql_com.h`).
pub mod flags {
    /// The column is NOT NULL.
    pub const NOT_NULL: u16 = 1;
    /// Part of the primary key.
    pub const PRI_KEY: u16 = 2;
    /// The column of a one-column unique key.
    pub const UNIQUE_KEY: u16 = 4;
    /// The first column of another (non-unique or several-column) key.
    pub const MULTIPLE_KEY: u16 = 8;
    /// A BLOB or TEXT.
    pub const BLOB: u16 = 16;
    /// UNSIGNED.
    pub const UNSIGNED: u16 = 32;
    /// ZEROFILL.
    pub const ZEROFILL: u16 = 64;
    /// Binary (compared byte for byte).
    pub const BINARY: u16 = 128;
    /// An ENUM.
    pub const ENUM: u16 = 256;
    /// AUTO_INCREMENT.
    pub const AUTO_INCREMENT: u16 = 512;
    /// A TIMESTAMP set automatically (`DEFAULT CURRENT_TIMESTAMP`).
    pub const TIMESTAMP: u16 = 1024;
    /// A SET.
    pub const SET: u16 = 2048;
    /// NOT NULL without a DEFAULT.
    pub const NO_DEFAULT_VALUE: u16 = 4096;
    /// `ON UPDATE CURRENT_TIMESTAMP`.
    pub const ON_UPDATE_NOW: u16 = 8192;
    /// Part of some key.
    pub const PART_KEY: u16 = 16384;
}

impl Column {
    /// A text column (SHOW results and the like).
    pub fn text(name: impl Into<String>) -> Column {
        Column {
            name: name.into(),
            kind: ColumnKind::Text,
            unsigned: false,
            decimals: None,
            length: None,
            origin: None,
            table: None,
        }
    }
    /// A TEXT column (SHOW results that MariaDB sends as BLOBs of characters).
    pub fn text_blob(name: impl Into<String>) -> Column {
        Column {
            kind: ColumnKind::TextBlob,
            ..Column::text(name)
        }
    }
    /// A BIGINT column.
    pub fn int(name: impl Into<String>) -> Column {
        Column {
            kind: ColumnKind::LongLong,
            ..Column::text(name)
        }
    }

    /// A computed column MariaDB types as `t`: sent as that type when SQLite's values fit it
    /// (dates and times are text; a DECIMAL's or DOUBLE's values must be `numbers`), with
    /// MariaDB's decimals and length.
    pub fn computed(&mut self, t: tutti_sql::ComputedType, numbers: bool) {
        use tutti_sql::ComputedType as T;
        if self.table.is_some() {
            return;
        }
        let text = matches!(self.kind, ColumnKind::Text | ColumnKind::Null);
        // A date and time's 19 characters or a TIME's 10 (`-838:59:59`), the point and the
        // fraction digits.
        let fraction = |base: u32, fsp: u8| match fsp {
            0 => base,
            d => base + 1 + u32::from(d),
        };
        let (kind, decimals, length) = match t {
            T::Date if text => (ColumnKind::Date, 0, 10),
            T::Datetime(fsp) if text => (ColumnKind::DateTime, fsp, fraction(19, fsp)),
            // MariaDB flags a computed TIMESTAMP UNSIGNED
            T::Timestamp(fsp) if text => {
                self.unsigned = true;
                (ColumnKind::Timestamp, fsp, fraction(19, fsp))
            }
            T::Time(fsp) if text => (ColumnKind::Time, fsp, fraction(10, fsp)),
            T::Double { length, decimals } if numbers => {
                (ColumnKind::Double, decimals, u32::from(length))
            }
            T::Decimal {
                precision,
                scale,
                unsigned,
            } if numbers
                && (text || matches!(self.kind, ColumnKind::Decimal | ColumnKind::LongLong)) =>
            {
                self.unsigned = unsigned;
                let point = u32::from(scale > 0);
                let sign = u32::from(!unsigned);
                (
                    ColumnKind::Decimal,
                    scale,
                    u32::from(precision) + point + sign,
                )
            }
            _ => return,
        };
        (self.kind, self.decimals, self.length) = (kind, Some(decimals), Some(length));
    }
}

/// Rows with their columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResultSet {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows; each has one value per column.
    pub rows: Vec<Vec<Value>>,
}

/// What a successful statement answers.
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// No rows: an OK packet.
    Ok {
        /// Rows inserted, updated or deleted.
        affected_rows: u64,
        /// The first AUTO_INCREMENT id generated by the statement (0 if none).
        last_insert_id: u64,
        /// The text the mysql client prints under "Query OK".
        info: OkInfo,
    },
    /// A result set.
    Rows(ResultSet),
}

impl Response {
    /// An OK with nothing affected.
    pub fn ok() -> Response {
        Response::Ok {
            affected_rows: 0,
            last_insert_id: 0,
            info: OkInfo::None,
        }
    }

    /// The OK of a schema change that copied `rows` rows (0 in place): `Records: rows`.
    pub fn records(rows: u64) -> Response {
        Response::Ok {
            affected_rows: rows,
            last_insert_id: 0,
            info: OkInfo::records(rows),
        }
    }
}

/// An OK packet's info text, as MariaDB words it: the mysql client prints it, drivers read
/// it (node's `mysql` takes `changedRows` from `Changed:`, PHP's `mysqli_info` returns it).
/// The statement's warning count completes it when the packet is sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum OkInfo {
    /// No text (a one-row INSERT, DELETE, CREATE, ...).
    #[default]
    None,
    /// Said as is (`Statement prepared`).
    Text(String),
    /// An INSERT or REPLACE of several VALUES rows or of a SELECT, an ALTER TABLE, CREATE
    /// or DROP INDEX: `Records: r  Duplicates: d  Warnings: w`. `duplicates` are the rows
    /// INSERT IGNORE skipped, REPLACE deleted or ON DUPLICATE KEY UPDATE changed.
    Records { records: u64, duplicates: u64 },
    /// An UPDATE: `Rows matched: m  Changed: c  Warnings: w`.
    Matched { matched: u64, changed: u64 },
}

impl OkInfo {
    /// `Records: n  Duplicates: 0`.
    pub fn records(records: u64) -> OkInfo {
        OkInfo::Records {
            records,
            duplicates: 0,
        }
    }

    /// The text, with the statement's `warnings`.
    pub fn text(&self, warnings: u16) -> String {
        match self {
            OkInfo::None => String::new(),
            OkInfo::Text(t) => t.clone(),
            OkInfo::Records {
                records,
                duplicates,
            } => format!("Records: {records}  Duplicates: {duplicates}  Warnings: {warnings}"),
            OkInfo::Matched { matched, changed } => {
                format!("Rows matched: {matched}  Changed: {changed}  Warnings: {warnings}")
            }
        }
    }
}

/// The column kind for a SQLite declared type (None: no declared type).
pub fn kind_of_decltype(decl: Option<&str>) -> Option<(ColumnKind, bool)> {
    let d = decl?.to_ascii_uppercase();
    let unsigned = d.contains("UNSIGNED");
    let base = d.split(['(', ' ']).next().unwrap_or("");
    use ColumnKind::*;
    let kind = match base {
        "TINYINT" | "BOOL" | "BOOLEAN" => Tiny,
        "SMALLINT" => Short,
        "MEDIUMINT" => Int24,
        "INT" => Long,
        "INTEGER" | "BIGINT" => LongLong,
        "FLOAT" => Float,
        "DOUBLE" | "REAL" => Double,
        "DECIMAL" | "NUMERIC" | "DEC" | "FIXED" => Decimal,
        "DATE" => Date,
        "DATETIME" => DateTime,
        "TIMESTAMP" => Timestamp,
        "TIME" => Time,
        "YEAR" => Year,
        "JSON" => Json,
        "BIT" => Bit,
        "BLOB" | "TINYBLOB" | "MEDIUMBLOB" | "LONGBLOB" | "BINARY" | "VARBINARY" => Blob,
        "TEXT" | "TINYTEXT" | "MEDIUMTEXT" | "LONGTEXT" => TextBlob,
        "" => return None,
        _ if d.contains("INT") => LongLong,
        _ if d.contains("CHAR") || d.contains("TEXT") || d.contains("CLOB") => Text,
        _ => Text,
    };
    Some((kind, unsigned))
}

/// The fixed decimals of a FLOAT(M,D)/DOUBLE(M,D) declared type.
pub fn decimals_of_decltype(decl: Option<&str>) -> Option<u8> {
    let d = tutti_sql::RealType::of_decl(decl?)?.decimals()?;
    u8::try_from(d).ok()
}

/// The column kind of a computed column, from its first non-NULL value.
pub fn kind_of_values<'a>(mut values: impl Iterator<Item = &'a Value>) -> ColumnKind {
    match values.find(|v| !v.is_null()) {
        Some(Value::Int(_)) => ColumnKind::LongLong,
        Some(Value::Real(_)) => ColumnKind::Double,
        Some(Value::Blob(_)) => ColumnKind::Blob,
        Some(_) => ColumnKind::Text,
        None => ColumnKind::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_numbers_are_sent_as_decimals() {
        for (v, ok) in [
            (Value::Text("-12.50".into()), true),
            (Value::Text("7".into()), true),
            (Value::Int(3), true),
            (Value::Null, true),
            (Value::Text("1,234.50".into()), false),
            (Value::Text("1.".into()), false),
            (Value::Text("".into()), false),
            (Value::Text("abc".into()), false),
            (Value::Blob(vec![0xFE]), false),
        ] {
            assert_eq!(decimal_value(&v), ok, "{v:?}");
        }
    }

    #[test]
    fn decltypes_map_to_mysql_kinds() {
        assert_eq!(
            kind_of_decltype(Some("INTEGER")),
            Some((ColumnKind::LongLong, false))
        );
        assert_eq!(
            kind_of_decltype(Some("int unsigned")),
            Some((ColumnKind::Long, true))
        );
        assert_eq!(
            kind_of_decltype(Some("CHAR(120)")),
            Some((ColumnKind::Text, false))
        );
        assert_eq!(
            kind_of_decltype(Some("DECIMAL(10,2)")),
            Some((ColumnKind::Decimal, false))
        );
        assert_eq!(
            kind_of_decltype(Some("JSON TEXT")),
            Some((ColumnKind::Json, false))
        );
        assert_eq!(
            kind_of_decltype(Some("TINYINT(1)")),
            Some((ColumnKind::Tiny, false))
        );
        assert_eq!(kind_of_decltype(None), None);
        let vals = [Value::Null, Value::Real(1.5)];
        assert_eq!(kind_of_values(vals.iter()), ColumnKind::Double);
    }
}

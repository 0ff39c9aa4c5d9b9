//! Values on the wire: result cells in text and binary protocol, and statement parameters.
//!
//! SQLite is dynamically typed, so a cell may not match its column's declared type (text in
//! an INT column, say). The binary protocol fixes each column's encoding up front, so cells
//! are converted to the column's type here instead of failing the whole result.

use opensrv_mysql::{Column, ColumnFlags, ColumnType, ToMysqlValue, ValueInner};
use std::io::{self, Write};
use tutti_executor::{flags, real_text, Column as ExecColumn, ColumnKind};
use tutti_wsrep::Value;

/// The wire column for an executor column.
pub fn column(c: &ExecColumn) -> Column {
    if let Some(def) = &c.table {
        return Column {
            table: String::new(),
            column: c.name.clone(),
            coltype: column_type(def.kind),
            colflags: ColumnFlags::from_bits_truncate(def.flags),
            charset: if def.binary_charset {
                BINARY
            } else {
                UTF8MB4_GENERAL_CI
            },
            column_length: def.length,
            decimals: def.decimals,
            name_bytes: None,
        };
    }
    let mut colflags = ColumnFlags::empty();
    if c.unsigned {
        colflags |= ColumnFlags::UNSIGNED_FLAG;
    }
    match c.kind {
        ColumnKind::Blob => colflags |= ColumnFlags::BLOB_FLAG | ColumnFlags::BINARY_FLAG,
        ColumnKind::TextBlob => colflags |= ColumnFlags::BLOB_FLAG,
        _ => {}
    }
    let (charset, column_length, decimals) = definition(c.kind, c.unsigned);
    let decimals = c.decimals.unwrap_or(decimals);
    let column_length = c.length.unwrap_or(column_length);
    if charset == BINARY && !matches!(c.kind, ColumnKind::Blob | ColumnKind::Bit) {
        // MariaDB flags every computed column with the binary character set as BINARY.
        colflags |= ColumnFlags::BINARY_FLAG;
    }
    Column {
        table: String::new(),
        column: c.name.clone(),
        coltype: column_type(c.kind),
        colflags,
        charset,
        column_length,
        decimals,
        name_bytes: None,
    }
}

/// The wire type of a column kind.
fn column_type(kind: ColumnKind) -> ColumnType {
    use ColumnKind::*;
    match kind {
        Tiny => ColumnType::MYSQL_TYPE_TINY,
        Short => ColumnType::MYSQL_TYPE_SHORT,
        Int24 => ColumnType::MYSQL_TYPE_INT24,
        Long => ColumnType::MYSQL_TYPE_LONG,
        LongLong => ColumnType::MYSQL_TYPE_LONGLONG,
        Float => ColumnType::MYSQL_TYPE_FLOAT,
        Double => ColumnType::MYSQL_TYPE_DOUBLE,
        Decimal => ColumnType::MYSQL_TYPE_NEWDECIMAL,
        Date => ColumnType::MYSQL_TYPE_DATE,
        DateTime => ColumnType::MYSQL_TYPE_DATETIME,
        Timestamp => ColumnType::MYSQL_TYPE_TIMESTAMP,
        Time => ColumnType::MYSQL_TYPE_TIME,
        Year => ColumnType::MYSQL_TYPE_YEAR,
        Text => ColumnType::MYSQL_TYPE_VAR_STRING,
        String => ColumnType::MYSQL_TYPE_STRING,
        Blob | TextBlob => ColumnType::MYSQL_TYPE_BLOB,
        Json => ColumnType::MYSQL_TYPE_JSON,
        Bit => ColumnType::MYSQL_TYPE_BIT,
        Null => ColumnType::MYSQL_TYPE_NULL,
    }
}

/// The binary character set (numbers, dates, BLOBs).
pub(crate) const BINARY: u16 = 63;
/// utf8mb4_general_ci, what MariaDB sends for text to a utf8mb4 connection.
pub(crate) const UTF8MB4_GENERAL_CI: u16 = 45;

/// Character set, maximum length and decimals of a column definition, as MariaDB 10.11
/// sends them for columns of each kind (decimals 31: not a fixed-point number).
fn definition(kind: ColumnKind, unsigned: bool) -> (u16, u32, u8) {
    use ColumnKind::*;
    let int = |digits: u32| digits + u32::from(!unsigned);
    match kind {
        Tiny => (BINARY, int(3), 0),
        Short => (BINARY, int(5), 0),
        Int24 => (BINARY, int(8), 0),
        Long => (BINARY, int(10), 0),
        LongLong => (BINARY, 20, 0),
        Float => (BINARY, 12, 31),
        Double => (BINARY, 22, 31),
        Decimal => (BINARY, 67, 0),
        Date => (BINARY, 10, 0),
        DateTime | Timestamp => (BINARY, 26, 0),
        Time => (BINARY, 17, 0),
        Year => (BINARY, 4, 0),
        Text | String | TextBlob => (UTF8MB4_GENERAL_CI, 262_140, 0),
        Json => (UTF8MB4_GENERAL_CI, u32::MAX, 0),
        Blob => (BINARY, 65_535, 0),
        Bit => (BINARY, 64, 0),
        Null => (BINARY, 0, 0),
    }
}

fn lenenc(w: &mut impl Write, b: &[u8]) -> io::Result<()> {
    let n = b.len() as u64;
    if n < 251 {
        w.write_all(&[n as u8])?;
    } else if n < 1 << 16 {
        w.write_all(&[0xfc])?;
        w.write_all(&(n as u16).to_le_bytes())?;
    } else if n < 1 << 24 {
        w.write_all(&[0xfd])?;
        w.write_all(&(n as u32).to_le_bytes()[..3])?;
    } else {
        w.write_all(&[0xfe])?;
        w.write_all(&n.to_le_bytes())?;
    }
    w.write_all(b)
}

/// A REAL in a column that is no FLOAT or DOUBLE: the shortest digits that read back the
/// same value, in exponent form below 1e-15 and from 2^64 up (`1.2345678e-16`, `1.5e20`),
/// fixed otherwise; -0 prints as 0. Integral values below 2^64 print as integers, unlike
/// MariaDB's DOUBLE (`1e19`): SQLite holds a BIGINT UNSIGNED above 2^63 as a REAL, and its
/// digits must read as the integer they are. FLOAT and DOUBLE columns print as MariaDB
/// prints them (storage's `real_text`).
fn integral_text(r: f64) -> String {
    if r == 0.0 {
        return "0".into();
    }
    if r.fract() == 0.0 && r.abs() < 18_446_744_073_709_551_616.0 {
        return format!("{}", r as i128);
    }
    let sci = format!("{r:e}");
    let exp: i32 = sci
        .rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    // What is left is either non-integral (below 2^53, so fixed unless tiny) or beyond 2^64.
    if exp >= -15 && r.fract() != 0.0 {
        format!("{r}")
    } else {
        sci
    }
}

/// A result cell, and its column.
pub struct Cell<'a>(pub &'a Value, pub &'a ExecColumn);

impl Cell<'_> {
    fn as_i64(&self) -> i64 {
        match self.0 {
            Value::Int(i) => *i,
            Value::Real(r) => *r as i64,
            // A BIGINT UNSIGNED above 2^63 − 1 keeps its bits.
            Value::Text(t) => (t.trim().parse::<u64>().map(|u| u as i64))
                .or_else(|_| t.trim().parse::<f64>().map(|f| f as i64))
                .unwrap_or(0),
            _ => 0,
        }
    }
    fn as_f64(&self) -> f64 {
        match self.0 {
            Value::Int(i) => *i as f64,
            Value::Real(r) => *r,
            Value::Text(t) => t.trim().parse().unwrap_or(0.0),
            _ => 0.0,
        }
    }
    fn text(&self) -> Vec<u8> {
        let text = self.plain_text();
        match &self.1.table {
            Some(def) if def.flags & flags::ZEROFILL != 0 && def.kind != ColumnKind::Year => {
                zero_filled(text, def.length as usize)
            }
            _ => text,
        }
    }

    /// The text of the cell, before ZEROFILL.
    fn plain_text(&self) -> Vec<u8> {
        match self.0 {
            Value::Null => Vec::new(),
            Value::Int(i) => i.to_string().into_bytes(),
            Value::Real(r) => match self.1.kind {
                ColumnKind::Float | ColumnKind::Double => {
                    let single = self.1.kind == ColumnKind::Float;
                    real_text(*r, single, self.1.decimals.map(u32::from)).into_bytes()
                }
                _ => integral_text(*r).into_bytes(),
            },
            Value::Text(t) => t.as_bytes().to_vec(),
            Value::Blob(b) => b.clone(),
        }
    }
}

/// A ZEROFILL column's number, left-padded with zeros to the column's display width.
fn zero_filled(text: Vec<u8>, width: usize) -> Vec<u8> {
    if text.is_empty() || text.len() >= width {
        return text;
    }
    let mut padded = vec![b'0'; width - text.len()];
    padded.extend(text);
    padded
}

/// Parses 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' into (y, m, d, h, mi, s, us).
fn parse_datetime(s: &str) -> Option<(u16, u8, u8, u8, u8, u8, u32)> {
    let s = s.trim();
    let (date, time) = s.split_once([' ', 'T']).unwrap_or((s, ""));
    let mut d = date.split('-');
    let y = d.next()?.parse().ok()?;
    let m = d.next()?.parse().ok()?;
    let day = d.next()?.parse().ok()?;
    let (h, mi, sec, us) = parse_time(time)
        .map(|(_, h, mi, s, us)| (h as u8, mi, s, us))
        .unwrap_or((0, 0, 0, 0));
    Some((y, m, day, h, mi, sec, us))
}

/// Parses '[-]HH:MM:SS[.ffffff]' into (negative, hours, minutes, seconds, micros).
fn parse_time(s: &str) -> Option<(bool, u32, u8, u8, u32)> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    let (neg, s) = s.strip_prefix('-').map(|r| (true, r)).unwrap_or((false, s));
    let (hms, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut p = hms.split(':');
    let h = p.next()?.parse().ok()?;
    let m = p.next().unwrap_or("0").parse().ok()?;
    let sec = p.next().unwrap_or("0").parse().ok()?;
    let us = if frac.is_empty() {
        0
    } else {
        format!("{:0<6}", &frac[..frac.len().min(6)]).parse().ok()?
    };
    Some((neg, h, m, sec, us))
}

impl ToMysqlValue for Cell<'_> {
    fn to_mysql_text<W: Write>(&self, w: &mut W) -> io::Result<()> {
        if self.0.is_null() {
            return w.write_all(&[0xFB]);
        }
        lenenc(w, &self.text())
    }

    fn to_mysql_bin<W: Write>(&self, w: &mut W, c: &Column) -> io::Result<()> {
        use ColumnType::*;
        match c.coltype {
            MYSQL_TYPE_TINY => w.write_all(&[self.as_i64() as u8]),
            MYSQL_TYPE_SHORT | MYSQL_TYPE_YEAR => {
                w.write_all(&(self.as_i64() as u16).to_le_bytes())
            }
            MYSQL_TYPE_LONG | MYSQL_TYPE_INT24 => {
                w.write_all(&(self.as_i64() as u32).to_le_bytes())
            }
            MYSQL_TYPE_LONGLONG => w.write_all(&self.as_i64().to_le_bytes()),
            MYSQL_TYPE_FLOAT => w.write_all(&(self.as_f64() as f32).to_le_bytes()),
            MYSQL_TYPE_DOUBLE => w.write_all(&self.as_f64().to_le_bytes()),
            MYSQL_TYPE_DATE | MYSQL_TYPE_DATETIME | MYSQL_TYPE_TIMESTAMP => {
                let text = String::from_utf8_lossy(&self.text()).into_owned();
                match parse_datetime(&text) {
                    None => w.write_all(&[0]),
                    Some((y, m, d, h, mi, s, us)) => {
                        if c.coltype == MYSQL_TYPE_DATE || (h, mi, s, us) == (0, 0, 0, 0) {
                            w.write_all(&[4])?;
                            w.write_all(&y.to_le_bytes())?;
                            w.write_all(&[m, d])
                        } else {
                            w.write_all(&[if us == 0 { 7 } else { 11 }])?;
                            w.write_all(&y.to_le_bytes())?;
                            w.write_all(&[m, d, h, mi, s])?;
                            if us != 0 {
                                w.write_all(&us.to_le_bytes())?;
                            }
                            Ok(())
                        }
                    }
                }
            }
            MYSQL_TYPE_TIME => {
                let text = String::from_utf8_lossy(&self.text()).into_owned();
                match parse_time(&text) {
                    None => w.write_all(&[0]),
                    Some((neg, h, mi, s, us)) => {
                        w.write_all(&[if us == 0 { 8 } else { 12 }, neg as u8])?;
                        w.write_all(&(h / 24).to_le_bytes())?;
                        w.write_all(&[(h % 24) as u8, mi, s])?;
                        if us != 0 {
                            w.write_all(&us.to_le_bytes())?;
                        }
                        Ok(())
                    }
                }
            }
            _ => lenenc(w, &self.text()),
        }
    }

    fn is_null(&self) -> bool {
        self.0.is_null()
    }
}

/// A statement parameter as a value.
pub fn param(v: ValueInner<'_>, coltype: ColumnType) -> Value {
    match v {
        ValueInner::NULL => Value::Null,
        ValueInner::Int(i) => Value::Int(i),
        ValueInner::UInt(u) => i64::try_from(u)
            .map(Value::Int)
            .unwrap_or(Value::Real(u as f64)),
        ValueInner::Double(d) => Value::Real(d),
        ValueInner::Bytes(b) => {
            let binary = matches!(
                coltype,
                ColumnType::MYSQL_TYPE_BLOB
                    | ColumnType::MYSQL_TYPE_TINY_BLOB
                    | ColumnType::MYSQL_TYPE_MEDIUM_BLOB
                    | ColumnType::MYSQL_TYPE_LONG_BLOB
                    | ColumnType::MYSQL_TYPE_GEOMETRY
            );
            match std::str::from_utf8(b) {
                Ok(s) if !binary => Value::Text(s.to_string()),
                _ => Value::Blob(b.to_vec()),
            }
        }
        ValueInner::Date(b) | ValueInner::Datetime(b) => Value::Text(binary_datetime(b)),
        ValueInner::Time(b) => Value::Text(binary_time(b)),
    }
}

fn binary_datetime(b: &[u8]) -> String {
    let get = |i: usize| b.get(i).copied().unwrap_or(0);
    if b.len() < 4 {
        return "0000-00-00 00:00:00".into();
    }
    let y = u16::from_le_bytes([get(0), get(1)]);
    let date = format!("{y:04}-{:02}-{:02}", get(2), get(3));
    if b.len() < 7 {
        return date;
    }
    let mut s = format!("{date} {:02}:{:02}:{:02}", get(4), get(5), get(6));
    if b.len() >= 11 {
        let us = u32::from_le_bytes([get(7), get(8), get(9), get(10)]);
        if us != 0 {
            s.push_str(&format!(".{us:06}"));
        }
    }
    s
}

fn binary_time(b: &[u8]) -> String {
    if b.len() < 8 {
        return "00:00:00".into();
    }
    let neg = b[0] != 0;
    let days = u32::from_le_bytes([b[1], b[2], b[3], b[4]]);
    let h = days * 24 + b[5] as u32;
    let mut s = format!(
        "{}{h:02}:{:02}:{:02}",
        if neg { "-" } else { "" },
        b[6],
        b[7]
    );
    if b.len() >= 12 {
        let us = u32::from_le_bytes([b[8], b[9], b[10], b[11]]);
        if us != 0 {
            s.push_str(&format!(".{us:06}"));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(v: Value, t: ColumnType) -> Vec<u8> {
        let c = Column {
            table: String::new(),
            column: "c".into(),
            coltype: t,
            colflags: ColumnFlags::empty(),
            charset: BINARY,
            column_length: 0,
            decimals: 0,
            name_bytes: None,
        };
        let mut out = Vec::new();
        Cell(&v, &ExecColumn::text("c"))
            .to_mysql_bin(&mut out, &c)
            .unwrap();
        out
    }

    #[test]
    fn doubles_print_as_mariadb_prints_them() {
        // Observed on MariaDB 10.11: SELECT 1e14+0, 1e15+0, 123456789012345678e0, ...
        for (r, text) in [
            (1e14, "100000000000000"),
            (1.5e-5, "0.000015"),
            (1e-15, "0.000000000000001"),
            (1.2345678e-16, "1.2345678e-16"),
            (100000000000000.5, "100000000000000.5"),
            (1.5e20, "1.5e20"),
            (1234567890123456.7, "1234567890123456.8"),
            (0.1 + 0.2, "0.30000000000000004"),
            (-0.0, "0"),
            // A BIGINT UNSIGNED held as a REAL (MariaDB's DOUBLE would print 1e19).
            (1e19, "10000000000000000000"),
        ] {
            assert_eq!(integral_text(r), text);
        }
    }

    #[test]
    fn cells_encode_to_their_column_type() {
        assert_eq!(
            bin(Value::Int(7), ColumnType::MYSQL_TYPE_LONGLONG),
            7i64.to_le_bytes()
        );
        assert_eq!(
            bin(Value::Text("12".into()), ColumnType::MYSQL_TYPE_LONG),
            12u32.to_le_bytes()
        );
        assert_eq!(
            bin(Value::Real(2.5), ColumnType::MYSQL_TYPE_DOUBLE),
            2.5f64.to_le_bytes()
        );
        assert_eq!(
            bin(Value::Text("ab".into()), ColumnType::MYSQL_TYPE_VAR_STRING),
            b"\x02ab"
        );
        assert_eq!(
            bin(
                Value::Text("2024-02-29 13:05:09".into()),
                ColumnType::MYSQL_TYPE_DATETIME
            ),
            vec![7, 0xe8, 0x07, 2, 29, 13, 5, 9]
        );
        let mut t = Vec::new();
        Cell(&Value::Real(3.0), &ExecColumn::text("c"))
            .to_mysql_text(&mut t)
            .unwrap();
        assert_eq!(t, b"\x013");
        let text = |v: f64, kind, decimals| {
            let c = ExecColumn {
                kind,
                decimals,
                ..ExecColumn::text("c")
            };
            String::from_utf8(Cell(&Value::Real(v), &c).text()).unwrap()
        };
        assert_eq!(text(1e15, ColumnKind::Double, None), "1e15");
        assert_eq!(text(f64::from(1.1f32), ColumnKind::Float, None), "1.1");
        assert_eq!(text(0.0, ColumnKind::Double, Some(2)), "0.00");
    }

    #[test]
    fn zerofill_columns_pad_to_their_width() {
        let column = |kind, length, zerofill| ExecColumn {
            kind,
            table: Some(tutti_executor::TableColumnDef {
                kind,
                binary_charset: true,
                length,
                decimals: 0,
                flags: if zerofill { flags::ZEROFILL } else { 0 },
            }),
            ..ExecColumn::text("c")
        };
        let text = |v: Value, c: &ExecColumn| String::from_utf8(Cell(&v, c).text()).unwrap();
        let int5 = column(ColumnKind::Long, 5, true);
        assert_eq!(text(Value::Int(12), &int5), "00012");
        assert_eq!(text(Value::Int(123456), &int5), "123456");
        assert_eq!(
            text(Value::Int(12), &column(ColumnKind::Long, 5, false)),
            "12"
        );
        let dec = column(ColumnKind::Decimal, 7, true);
        assert_eq!(text(Value::Text("3.50".into()), &dec), "0003.50");
        assert_eq!(
            text(Value::Int(2019), &column(ColumnKind::Year, 4, true)),
            "2019"
        );
    }

    #[test]
    fn binary_params_decode() {
        assert_eq!(
            binary_datetime(&[0xe8, 0x07, 2, 29, 13, 5, 9]),
            "2024-02-29 13:05:09"
        );
        assert_eq!(binary_datetime(&[0xe8, 0x07, 2, 29]), "2024-02-29");
        assert_eq!(binary_time(&[1, 1, 0, 0, 0, 2, 3, 4]), "-26:03:04");
        assert_eq!(
            param(ValueInner::Bytes(b"hi"), ColumnType::MYSQL_TYPE_VAR_STRING),
            Value::Text("hi".into())
        );
        assert_eq!(
            param(ValueInner::Bytes(b"hi"), ColumnType::MYSQL_TYPE_BLOB),
            Value::Blob(b"hi".to_vec())
        );
        assert_eq!(
            param(ValueInner::UInt(5), ColumnType::MYSQL_TYPE_LONGLONG),
            Value::Int(5)
        );
    }
}

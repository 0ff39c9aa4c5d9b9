//! MySQL's string functions that SQLite lacks or spells differently: `ASCII`, `ORD`,
//! `SUBSTRING`/`MID`, `SUBSTRING_INDEX`, `FIELD`, `FIND_IN_SET`, `ELT`, `LPAD`/`RPAD`,
//! `INSERT` (called `tutti_insert`, since INSERT is an SQLite keyword), `INSTR`, `LOCATE`,
//! `STRCMP`, `LENGTH` (bytes), `CHR`, `BIT_LENGTH`, `FORMAT`, `QUOTE`, `SOUNDEX`, `TO_BASE64`,
//! `FROM_BASE64`, `UPPER`/`LOWER`; `tutti_cut_bytes(s, n)`, GROUP_CONCAT's result cut to
//! `group_concat_max_len` bytes (at a character boundary); `tutti_cast_binary(x, n)`, MySQL's `CAST(x AS BINARY(n))`:
//! the bytes of `x` cut or padded with zero bytes to n.
//!
//! Text compares as MariaDB's default collation does (see `general_ci`): `INSTR`, `LOCATE`,
//! `FIELD`, `FIND_IN_SET` and `STRCMP` ignore case and accents; a BLOB (a binary string)
//! compares byte for byte and counts bytes, not characters.

use base64::Engine;
use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Error, Result};
use std::cmp::Ordering;

use super::decimal::value::Decimal;
use super::general_ci;
use super::locale::{number_format, NumberFormat, EN_US};
use super::math::{decimal_digits, num, Num};
use super::{text_of, MAX_ALLOWED_PACKET, PURE};

/// A string argument: text (characters, general_ci) or binary (bytes).
enum Str {
    Text(String),
    Bin(Vec<u8>),
}

impl Str {
    /// Its length in bytes.
    fn len(&self) -> usize {
        match self {
            Str::Text(t) => t.len(),
            Str::Bin(b) => b.len(),
        }
    }
}

fn arg(ctx: &Context<'_>, i: usize) -> Option<Str> {
    match ctx.get_raw(i) {
        ValueRef::Null => None,
        ValueRef::Blob(b) => Some(Str::Bin(b.to_vec())),
        v => Some(Str::Text(text_of(v))),
    }
}

fn int_arg(ctx: &Context<'_>, i: usize) -> Option<i64> {
    num(ctx, i).map(Num::int)
}

fn arity(name: &str) -> Error {
    Error::UserFunctionError(
        format!("Incorrect parameter count in the call to native function '{name}'").into(),
    )
}

/// MySQL `INSERT(s, pos, len, new)` over a sequence (chars or bytes): `s` unchanged when
/// `pos` is outside it, the rest of `s` replaced when `len` is negative or reaches its end.
fn splice<T: Clone>(s: &[T], pos: i64, len: i64, new: &[T]) -> Vec<T> {
    let n = s.len() as i64;
    if pos < 1 || pos > n {
        return s.to_vec();
    }
    let start = (pos - 1) as usize;
    let end = if len < 0 || len >= n - start as i64 {
        s.len()
    } else {
        start + len as usize
    };
    [&s[..start], new, &s[end..]].concat()
}

/// MySQL `SUBSTRING(s, pos[, len])` over a sequence (chars or bytes).
fn substring<T: Clone>(s: &[T], pos: i64, len: Option<i64>) -> Vec<T> {
    let n = s.len() as i64;
    let start = match pos {
        0 => return vec![],
        p if p > 0 => p - 1,
        p => n + p,
    };
    if start < 0 || start >= n {
        return vec![];
    }
    let end = match len {
        Some(l) if l <= 0 => return vec![],
        Some(l) => start.saturating_add(l).min(n),
        None => n,
    };
    s[start as usize..end as usize].to_vec()
}

/// Byte offset of the first window of `hay` (from byte `from`, at char boundaries) that
/// equals `needle` under general_ci; windows have the needle's byte length, as in MariaDB.
fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    hay.char_indices()
        .map(|(i, _)| i)
        .filter(|&i| i >= from)
        .find(|&i| {
            hay.get(i..i + needle.len())
                .is_some_and(|w| general_ci::eq(w, needle, false))
        })
}

/// `LOCATE(sub, s, pos)`: 1-based character position of `sub` in `s`, or 0.
/// `cs`: case-sensitive (an argument with a `_bin` collation), else general_ci.
fn locate(sub: Str, s: Str, pos: i64, checked: bool, cs: bool) -> i64 {
    match (sub, s) {
        (Str::Text(sub), Str::Text(s)) => {
            if checked && (pos < 1 || pos as usize > s.len()) {
                return 0;
            }
            let from = s
                .char_indices()
                .nth(pos as usize - 1)
                .map_or(s.len(), |c| c.0);
            if sub.is_empty() {
                return pos;
            }
            let found = if cs {
                s[from..].find(&sub).map(|b| from + b)
            } else {
                find_ci(&s, &sub, from)
            };
            found.map_or(0, |b| s[..b].chars().count() as i64 + 1)
        }
        (sub, s) => {
            let (sub, s) = (bytes(sub), bytes(s));
            if checked && (pos < 1 || pos as usize > s.len()) {
                return 0;
            }
            let from = pos as usize - 1;
            if sub.is_empty() {
                return pos;
            }
            (from..=s.len().saturating_sub(sub.len()))
                .find(|&i| s[i..].starts_with(&sub))
                .map_or(0, |i| i as i64 + 1)
        }
    }
}

/// `FIELD(x, a, b, ...)`: the position of the first argument equal to x, 0 for none; `cs`:
/// strings compared case-sensitively (an argument with a `_bin` collation).
fn field(ctx: &Context<'_>, cs: bool) -> Result<i64> {
    if ctx.len() < 2 {
        return Err(arity("field"));
    }
    let numeric =
        (0..ctx.len()).any(|i| matches!(ctx.get_raw(i), ValueRef::Integer(_) | ValueRef::Real(_)));
    if numeric {
        let x = num(ctx, 0).map(num_f64);
        for i in 1..ctx.len() {
            if x.is_some() && num(ctx, i).map(num_f64) == x {
                return Ok(i as i64);
            }
        }
        return Ok(0);
    }
    let Some(x) = arg(ctx, 0) else { return Ok(0) };
    for i in 1..ctx.len() {
        if arg(ctx, i).is_some_and(|y| compare_cs(&x, &y, cs) == Ordering::Equal) {
            return Ok(i as i64);
        }
    }
    Ok(0)
}

fn bytes(s: Str) -> Vec<u8> {
    match s {
        Str::Text(t) => t.into_bytes(),
        Str::Bin(b) => b,
    }
}

/// `SUBSTRING_INDEX(s, delim, count)`: case-sensitive, non-overlapping matches. A positive
/// count takes them from the left; a negative one the last ones of those in a multi-byte
/// character set such as utf8mb4, while in a single-byte one (latin1, binary) MariaDB
/// searches from the right (`single_byte`), which for overlapping delimiters differs
/// (`'aaaaaaaaa1'`, `'aa'`, -1: `a1` vs `1`).
fn substring_index(s: &[u8], delim: &[u8], count: i64, single_byte: bool) -> Vec<u8> {
    if delim.is_empty() || count == 0 {
        return vec![];
    }
    let k = count.unsigned_abs() as usize;
    if count < 0 && single_byte {
        let mut end = s.len();
        for _ in 0..k {
            match s[..end].windows(delim.len()).rposition(|w| w == delim) {
                Some(i) => end = i,
                None => return s.to_vec(),
            }
        }
        return s[end + delim.len()..].to_vec();
    }
    let mut hits = vec![];
    let mut i = 0;
    while i + delim.len() <= s.len() {
        if s[i..].starts_with(delim) {
            hits.push(i);
            i += delim.len();
        } else {
            i += 1;
        }
    }
    if k > hits.len() {
        return s.to_vec();
    }
    if count > 0 {
        s[..hits[k - 1]].to_vec()
    } else {
        s[hits[hits.len() - k] + delim.len()..].to_vec()
    }
}

/// `TRIM([BOTH | LEADING | TRAILING] remstr FROM s)`: whole occurrences of `remstr` removed
/// from the start and/or the end, as often as they repeat (not SQLite's set of characters).
fn trim_string(s: &[u8], remstr: &[u8], leading: bool, trailing: bool) -> Vec<u8> {
    let (mut start, mut end) = (0, s.len());
    if !remstr.is_empty() {
        while leading && s[start..end].starts_with(remstr) {
            start += remstr.len();
        }
        while trailing && s[start..end].ends_with(remstr) {
            end -= remstr.len();
        }
    }
    s[start..end].to_vec()
}

/// A string result: text stays text, binary stays a BLOB.
fn same_kind(like: &Str, b: Vec<u8>) -> Value {
    match like {
        Str::Text(_) => Value::Text(String::from_utf8_lossy(&b).into_owned()),
        Str::Bin(_) => Value::Blob(b),
    }
}

/// `compare` with trailing spaces ignored, case-sensitive when `cs`.
fn compare_cs(a: &Str, b: &Str, cs: bool) -> Ordering {
    match (a, b) {
        (Str::Text(a), Str::Text(b)) if cs => a.trim_end_matches(' ').cmp(b.trim_end_matches(' ')),
        _ => compare(a, b, true),
    }
}

fn compare(a: &Str, b: &Str, pad: bool) -> Ordering {
    match (a, b) {
        (Str::Text(a), Str::Text(b)) => general_ci::cmp(a, b, pad),
        (Str::Text(a), Str::Bin(b)) => a.as_bytes().cmp(b.as_slice()),
        (Str::Bin(a), Str::Text(b)) => a.as_slice().cmp(b.as_bytes()),
        (Str::Bin(a), Str::Bin(b)) => a.cmp(b),
    }
}

/// `FORMAT(x, d[, locale])`; `exact` for a DECIMAL `x` held as text.
fn format(ctx: &Context<'_>, exact: bool) -> Result<Option<String>> {
    if !(2..=3).contains(&ctx.len()) {
        return Err(arity("format"));
    }
    let mut locale = EN_US;
    if let Some(name) = (ctx.len() == 3).then(|| arg(ctx, 2)).flatten() {
        let name = String::from_utf8_lossy(&bytes(name)).into_owned();
        match number_format(&name) {
            Some(f) => locale = f,
            None => super::warn(1649, format!("Unknown locale: '{name}'")),
        }
    }
    let decimal = match ctx.get_raw(0) {
        ValueRef::Text(t) if exact => Decimal::parse(&String::from_utf8_lossy(t)).0,
        _ => None,
    };
    Ok(match (decimal, num(ctx, 0), int_arg(ctx, 1)) {
        (Some(x), _, Some(d)) => Some(format_decimal(&x, d, locale)),
        (None, Some(x), Some(d)) => Some(format_number(x, d, locale)),
        _ => None,
    })
}

/// MySQL `FORMAT(x, d)`: '1,234,567.89' in en_US.
fn format_number(n: Num, d: i64, locale: NumberFormat) -> String {
    let d = d.clamp(0, 38);
    let (neg, int_part, frac) = match n {
        Num::Int(i) => (i < 0, i.unsigned_abs().to_string(), "0".repeat(d as usize)),
        Num::Dec(x) => decimal_digits(x, d, false),
        Num::Dbl(x) => {
            let scale = super::math::pow10(d as u32);
            let r = if (x * scale).is_finite() {
                (x * scale).round_ties_even() / scale
            } else {
                x
            };
            decimal_digits(r, d, false)
        }
    };
    locale.write(neg, &int_part, &frac)
}

/// `FORMAT` of an exact value: rounded half away from zero to `d` places.
fn format_decimal(x: &Decimal, d: i64, locale: NumberFormat) -> String {
    let d = d.clamp(0, 38) as u32;
    let text = x.round_to(d).to_string();
    let (neg, text) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text.as_str()),
    };
    let (int_part, frac) = text.split_once('.').unwrap_or((text, ""));
    locale.write(neg, int_part, frac)
}

/// MySQL's SOUNDEX: the first letter, then the codes of the following letters, repeated
/// codes collapsed (vowels do not separate them), at least 4 characters.
fn soundex(s: &str) -> String {
    const CODES: &[u8; 26] = b"01230120022455012623010202";
    let code = |c: char| {
        c.is_ascii_alphabetic()
            .then(|| CODES[(c.to_ascii_uppercase() as u8 - b'A') as usize])
    };
    let mut chars = s.chars().skip_while(|c| !c.is_alphabetic());
    let Some(first) = chars.next() else {
        return String::new();
    };
    let mut out = String::from(first.to_ascii_uppercase());
    let mut last = code(first).unwrap_or(b'0');
    for c in chars.filter(|c| c.is_alphabetic()) {
        let k = code(c).unwrap_or(b'0');
        if k != b'0' && k != last {
            out.push(k as char);
            last = k;
        }
    }
    while out.chars().count() < 4 {
        out.push('0');
    }
    out
}

/// MySQL `QUOTE(s)`: single quotes, with `\`, `'`, NUL and Ctrl-Z backslash-escaped.
fn quote(s: &[u8]) -> Vec<u8> {
    let mut out = vec![b'\''];
    for &b in s {
        match b {
            b'\\' | b'\'' => out.extend([b'\\', b]),
            0 => out.extend(b"\\0"),
            26 => out.extend(b"\\Z"),
            b => out.push(b),
        }
    }
    out.push(b'\'');
    out
}

/// `tutti_cast_char(x, n)`: `CAST(x AS CHAR(n))`, the first `n` characters of `x`'s
/// text, with MariaDB's warning 1292 when it cuts.
fn cast_char(ctx: &Context<'_>) -> Result<Option<String>> {
    let n = ctx.get::<i64>(1)?.max(0) as usize;
    if matches!(ctx.get_raw(0), ValueRef::Null) {
        return Ok(None);
    }
    let text = text_of(ctx.get_raw(0));
    match text.char_indices().nth(n) {
        None => Ok(Some(text)),
        Some((end, _)) => {
            let msg = format!("Truncated incorrect CHAR({n}) value: '{text}'");
            super::diagnostics::warn(1292, msg);
            Ok(Some(text[..end].to_string()))
        }
    }
}

/// `tutti_cast_binary(x, n)`: `CAST(x AS BINARY(n))`, `x`'s first `n` bytes, zero-padded
/// to `n`, with MariaDB's warning 1292 when it cuts.
fn cast_binary(ctx: &Context<'_>) -> Result<Option<Value>> {
    let n = ctx.get::<i64>(1)?.max(0) as usize;
    Ok(arg(ctx, 0).map(|s| {
        let mut b = bytes(s);
        if b.len() > n {
            let text = String::from_utf8_lossy(&b);
            super::diagnostics::warn(
                1292,
                format!("Truncated incorrect BINARY({n}) value: '{text}'"),
            );
        }
        b.resize(n, 0);
        Value::Blob(b)
    }))
}

/// MariaDB's `CHAR(n, ...)`: each number's bytes, big-endian without leading zero bytes
/// (`CHAR(256)` is `0x0100`), NULLs skipped; a binary string.
fn char_bytes(ctx: &Context<'_>) -> Result<Value> {
    let mut out = Vec::new();
    for i in 0..ctx.len() {
        let Some(n) = int_arg(ctx, i) else { continue };
        let bytes = (n as u32).to_be_bytes();
        let first = bytes.iter().position(|b| *b != 0).unwrap_or(3);
        out.extend_from_slice(&bytes[first..]);
    }
    Ok(Value::Blob(out))
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_cast_char", 2, PURE, cast_char)?;
    c.create_scalar_function("char", -1, PURE, char_bytes)?;
    // CHR(n): CHAR(n) in the connection's character set; NULL for NULL.
    c.create_scalar_function("chr", 1, PURE, |ctx| {
        if matches!(ctx.get_raw(0), ValueRef::Null) {
            return Ok(Value::Null);
        }
        Ok(match char_bytes(ctx)? {
            Value::Blob(b) => {
                String::from_utf8(b).map_or_else(|e| Value::Blob(e.into_bytes()), Value::Text)
            }
            other => other,
        })
    })?;
    c.create_scalar_function("tutti_cut_bytes", 2, PURE, |ctx| {
        let n = ctx.get::<i64>(1)?.max(0) as usize;
        Ok(match ctx.get_raw(0) {
            ValueRef::Text(t) if t.len() > n => {
                let t = String::from_utf8_lossy(t);
                let mut end = n;
                while !t.is_char_boundary(end) {
                    end -= 1;
                }
                Value::Text(t[..end].to_string())
            }
            ValueRef::Blob(b) if b.len() > n => Value::Blob(b[..n].to_vec()),
            ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
            ValueRef::Blob(b) => Value::Blob(b.to_vec()),
            ValueRef::Integer(i) => Value::Integer(i),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Null => Value::Null,
        })
    })?;
    c.create_scalar_function("tutti_cast_binary", 2, PURE, cast_binary)?;
    c.create_scalar_function("ascii", 1, PURE, |ctx| {
        Ok(arg(ctx, 0).map(|s| bytes(s).first().map_or(0, |&b| b as i64)))
    })?;
    c.create_scalar_function("ord", 1, PURE, |ctx| {
        Ok(arg(ctx, 0).map(|s| match s {
            Str::Text(t) => t.chars().next().map_or(0, |c| {
                let mut buf = [0u8; 4];
                c.encode_utf8(&mut buf)
                    .bytes()
                    .fold(0i64, |acc, b| acc * 256 + b as i64)
            }),
            Str::Bin(b) => b.first().map_or(0, |&b| b as i64),
        }))
    })?;
    for name in ["substr", "substring", "mid"] {
        c.create_scalar_function(name, -1, PURE, move |ctx| {
            if !(2..=3).contains(&ctx.len()) {
                return Err(arity(name));
            }
            let (Some(s), Some(pos)) = (arg(ctx, 0), int_arg(ctx, 1)) else {
                return Ok(None);
            };
            let len = match ctx.len() {
                3 => match int_arg(ctx, 2) {
                    None => return Ok(None),
                    l => l,
                },
                _ => None,
            };
            Ok(Some(match s {
                Str::Text(t) => {
                    let chars: Vec<char> = t.chars().collect();
                    Value::Text(substring(&chars, pos, len).into_iter().collect())
                }
                Str::Bin(b) => Value::Blob(substring(&b, pos, len)),
            }))
        })?;
    }
    // `tutti_substring_index_sb`: the first argument is in a single-byte character set.
    for (name, single_byte) in [
        ("substring_index", false),
        ("tutti_substring_index_sb", true),
    ] {
        c.create_scalar_function(name, 3, PURE, move |ctx| {
            let (Some(s), Some(delim), Some(count)) = (arg(ctx, 0), arg(ctx, 1), int_arg(ctx, 2))
            else {
                return Ok(None);
            };
            let out = match &s {
                Str::Text(t) => substring_index(t.as_bytes(), &bytes(delim), count, single_byte),
                Str::Bin(b) => substring_index(b, &bytes(delim), count, true),
            };
            Ok(Some(same_kind(&s, out)))
        })?;
    }
    c.create_scalar_function("tutti_trim", 3, PURE, |ctx| {
        let (Some(s), Some(remstr)) = (arg(ctx, 0), arg(ctx, 1)) else {
            return Ok(None);
        };
        let mode: String = ctx.get(2)?;
        let b = match &s {
            Str::Text(t) => t.as_bytes(),
            Str::Bin(b) => b,
        };
        let out = trim_string(b, &bytes(remstr), mode != "TRAILING", mode != "LEADING");
        Ok(Some(same_kind(&s, out)))
    })?;
    for (name, cs) in [("field", false), ("tutti_field_cs", true)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| field(ctx, cs))?;
    }
    c.create_scalar_function("find_in_set", 2, PURE, |ctx| {
        let (Some(x), Some(list)) = (arg(ctx, 0), arg(ctx, 1)) else {
            return Ok(None);
        };
        let x = Str::Text(String::from_utf8_lossy(&bytes(x)).into_owned());
        let list = String::from_utf8_lossy(&bytes(list)).into_owned();
        let Str::Text(xs) = &x else { unreachable!() };
        if xs.contains(',') || list.is_empty() {
            return Ok(Some(0));
        }
        Ok(Some(
            list.split(',')
                .position(|e| general_ci::eq(e, xs, false))
                .map_or(0, |p| p as i64 + 1),
        ))
    })?;
    c.create_scalar_function("elt", -1, PURE, |ctx| {
        if ctx.len() < 2 {
            return Err(arity("elt"));
        }
        Ok(match int_arg(ctx, 0) {
            Some(n) if n >= 1 && (n as usize) < ctx.len() => ctx.get::<Value>(n as usize)?,
            _ => Value::Null,
        })
    })?;
    for (name, left) in [("lpad", true), ("rpad", false)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| {
            if !(2..=3).contains(&ctx.len()) {
                return Err(arity(name));
            }
            let pad = if ctx.len() == 3 {
                match arg(ctx, 2) {
                    Some(p) => String::from_utf8_lossy(&bytes(p)).into_owned(),
                    None => return Ok(None),
                }
            } else {
                " ".into()
            };
            let (Some(s), Some(n)) = (arg(ctx, 0), int_arg(ctx, 1)) else {
                return Ok(None);
            };
            if n < 0 {
                return Ok(None);
            }
            let s = String::from_utf8_lossy(&bytes(s)).into_owned();
            // A result longer than max_allowed_packet is NULL in MariaDB (warning 1301).
            if n > MAX_ALLOWED_PACKET as i64 {
                return Ok(None);
            }
            let n = n as usize;
            let len = s.chars().count();
            if len >= n {
                return Ok(Some(s.chars().take(n).collect::<String>()));
            }
            if pad.is_empty() {
                return Ok(None);
            }
            let fill: String = pad.chars().cycle().take(n - len).collect();
            Ok(Some(if left { fill + &s } else { s + &fill }))
        })?;
    }
    // INSERT(s, pos, len, new): by characters, or by bytes when either string is binary.
    c.create_scalar_function("tutti_insert", 4, PURE, |ctx| {
        let (Some(s), Some(pos), Some(len), Some(new)) =
            (arg(ctx, 0), int_arg(ctx, 1), int_arg(ctx, 2), arg(ctx, 3))
        else {
            return Ok(None);
        };
        let longest = s.len().saturating_add(new.len());
        if longest > MAX_ALLOWED_PACKET {
            // MariaDB's NULL for a result that may exceed max_allowed_packet.
            return Ok(None);
        }
        Ok(Some(match (s, new) {
            (Str::Text(s), Str::Text(new)) => {
                let (s, new): (Vec<char>, Vec<char>) = (s.chars().collect(), new.chars().collect());
                Value::Text(splice(&s, pos, len, &new).into_iter().collect())
            }
            (s, new) => Value::Blob(splice(&bytes(s), pos, len, &bytes(new))),
        }))
    })?;
    for (name, cs) in [("instr", false), ("tutti_instr_cs", true)] {
        c.create_scalar_function(name, 2, PURE, move |ctx| {
            Ok(match (arg(ctx, 0), arg(ctx, 1)) {
                (Some(s), Some(sub)) => Some(locate(sub, s, 1, false, cs)),
                _ => None,
            })
        })?;
    }
    for (name, cs) in [("locate", false), ("tutti_locate_cs", true)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| {
            if !(2..=3).contains(&ctx.len()) {
                return Err(arity("locate"));
            }
            let pos = if ctx.len() == 3 {
                int_arg(ctx, 2)
            } else {
                Some(1)
            };
            Ok(match (arg(ctx, 0), arg(ctx, 1), pos) {
                (Some(sub), Some(s), Some(pos)) => Some(locate(sub, s, pos, ctx.len() == 3, cs)),
                _ => None,
            })
        })?;
    }
    c.create_scalar_function("strcmp", 2, PURE, |ctx| {
        Ok(match (arg(ctx, 0), arg(ctx, 1)) {
            (Some(a), Some(b)) => Some(compare(&a, &b, true) as i64),
            _ => None,
        })
    })?;
    for (name, bits) in [("length", 1), ("octet_length", 1), ("bit_length", 8)] {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(arg(ctx, 0).map(|s| bytes(s).len() as i64 * bits))
        })?;
    }
    // FORMAT of a DECIMAL (the SQL front-end calls the second one for it): its exact text,
    // not the double a string argument is read as.
    for (name, exact) in [("format", false), ("tutti_dec_format", true)] {
        c.create_scalar_function(name, -1, PURE, move |ctx| format(ctx, exact))?;
    }
    c.create_scalar_function("quote", 1, PURE, |ctx| {
        Ok(match arg(ctx, 0) {
            None => Value::Text("NULL".into()),
            Some(s) => {
                let q = quote(match &s {
                    Str::Text(t) => t.as_bytes(),
                    Str::Bin(b) => b,
                });
                same_kind(&s, q)
            }
        })
    })?;
    c.create_scalar_function("soundex", 1, PURE, |ctx| {
        Ok(arg(ctx, 0).map(|s| soundex(&String::from_utf8_lossy(&bytes(s)))))
    })?;
    c.create_scalar_function("to_base64", 1, PURE, |ctx| {
        // NULL when longer than max_allowed_packet, as in MariaDB.
        let fits = |s: &Str| s.len().div_ceil(3).saturating_mul(4) <= MAX_ALLOWED_PACKET;
        Ok(arg(ctx, 0).filter(fits).map(|s| {
            let b64 = base64::engine::general_purpose::STANDARD.encode(bytes(s));
            let lines: Vec<&str> = b64
                .as_bytes()
                .chunks(76)
                .map(|c| std::str::from_utf8(c).unwrap_or_default())
                .collect();
            lines.join("\n")
        }))
    })?;
    c.create_scalar_function("from_base64", 1, PURE, |ctx| {
        Ok(arg(ctx, 0).and_then(|s| {
            let clean: Vec<u8> = bytes(s)
                .into_iter()
                .filter(|b| !b.is_ascii_whitespace())
                .collect();
            // MariaDB ignores the unused bits of the last character (`Yq==` is 'b').
            const LENIENT: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
                &base64::alphabet::STANDARD,
                base64::engine::general_purpose::PAD.with_decode_allow_trailing_bits(true),
            );
            LENIENT.decode(clean).ok()
        }))
    })?;
    for (name, up) in [
        ("upper", true),
        ("ucase", true),
        ("lower", false),
        ("lcase", false),
    ] {
        c.create_scalar_function(name, 1, PURE, move |ctx| {
            Ok(arg(ctx, 0).map(|s| match s {
                Str::Text(t) => Value::Text(t.chars().map(|c| simple_case(c, up)).collect()),
                Str::Bin(b) => Value::Blob(b),
            }))
        })?;
    }
    Ok(())
}

/// The one-character upper or lower case of `c` (`c` itself when that is several chars).
fn simple_case(c: char, up: bool) -> char {
    let mut it: Box<dyn Iterator<Item = char>> = if up {
        Box::new(c.to_uppercase())
    } else {
        Box::new(c.to_lowercase())
    };
    match (it.next(), it.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

fn num_f64(n: Num) -> f64 {
    match n {
        Num::Int(i) => i as f64,
        Num::Dec(x) | Num::Dbl(x) => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(substring_index(b"aaa", b"aa", -1, false), b"a");
        assert_eq!(substring_index(b"aaa", b"aa", 1, false), b"");
        assert_eq!(substring_index(b"aaaaaaaaa1", b"aa", -1, false), b"a1");
        assert_eq!(
            substring_index(b"www.mysql.com", b".", -2, false),
            b"mysql.com"
        );
        assert_eq!(substring_index(b"a.b", b".", -5, false), b"a.b");
        for (count, right) in [(-1, "1"), (-2, "aa1"), (-4, "aaaaaa1"), (-5, "aaaaaaaaa1")] {
            assert_eq!(
                substring_index(b"aaaaaaaaa1", b"aa", count, true),
                right.as_bytes()
            );
        }
        assert_eq!(
            substring_index(b"www.mysql.com", b".", -2, true),
            b"mysql.com"
        );
        assert_eq!(trim_string(b"foook", b"foo", true, true), b"ok");
        assert_eq!(trim_string(b"ababcab", b"ab", true, false), b"cab");
        assert_eq!(trim_string(b"ababcab", b"ab", false, true), b"ababc");
        assert_eq!(trim_string(b" x ", b"", true, true), b" x ");
        assert_eq!(trim_string(b"foofoo", b"foo", true, true), b"");
        assert_eq!(soundex("Tymczak"), "T520");
        assert_eq!(
            format_number(Num::Dec(1234567.891), 2, EN_US),
            "1,234,567.89"
        );
        assert_eq!(quote(b"Don't"), b"'Don\\'t'");
    }
}

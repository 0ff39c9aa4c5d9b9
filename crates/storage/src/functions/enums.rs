//! ENUM and SET columns: the member a value stores as (`tutti_enum_store`) and the index a
//! member reads as in numeric context (`tutti_enum_index`), as MariaDB's `Field_enum` does;
//! the members a SET value stores as (`tutti_set_store`), its bits (`tutti_set_index`) and
//! the check that it names only members (`tutti_set_valid`), as `Field_set` does.
//!
//! A member is found by its spelling (case-insensitively, trailing spaces ignored, as the
//! column compares); a number is a 1-based index (a DOUBLE truncated to an integer first,
//! a string of digits too when no member is spelled so). Anything else — 0, an index past
//! the last member, an unknown string — is MariaDB's 1265: an error in strict mode, the
//! empty string (index 0) with a warning outside it or under IGNORE — except in a column
//! that has a member spelled `''`, which tutti could not tell from index 0: there it is
//! always the error.
//!
//! A SET value is a comma-separated list of members, stored in declaration order, each
//! once (`'c,a,a'` stores `a,c`); a number is a bit mask (bit 0 the first member). A part
//! that names no member, or a bit past the last member, is 1265, and outside strict mode
//! the value keeps the members it did name. A string of digits that names no member is
//! read as a mask, as MariaDB reads numbers for LOAD DATA.

use rusqlite::functions::Context;
use rusqlite::types::{Value, ValueRef};
use rusqlite::{Connection, Result};

use super::stored::{Target, CODE_TRUNCATED};
use super::{general_ci, text_of, PURE};

/// `tutti_enum_index(e, member1, member2, ...)`: the 1-based position of ENUM value `e`
/// among the members, 0 for the empty string of an invalid value, NULL for NULL.
fn enum_index(ctx: &Context<'_>) -> Result<Option<i64>> {
    // A value computed from an ENUM may be a number.
    let value = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(None),
        v => text_of(v),
    };
    let members = members_from(ctx, 1, ctx.len());
    Ok(Some(
        position_of(&members, &value).map_or(0, |i| i as i64 + 1),
    ))
}

/// The position of the member spelled `text`: the member spelled exactly so first (then
/// so but for trailing spaces), as a column with a binary collation may have `'a'` and
/// `'A'` (or `'a '`), and else the first one equal under the default collation.
fn position_of(members: &[String], text: &str) -> Option<usize> {
    let padded = text.trim_end_matches(' ');
    members
        .iter()
        .position(|m| m == text)
        .or_else(|| {
            members
                .iter()
                .position(|m| m.trim_end_matches(' ') == padded)
        })
        .or_else(|| members.iter().position(|m| general_ci::eq(text, m, true)))
}

/// The members a store function lists after its value (`v, member1, ..., memberN, column,
/// row[, mode]`), and the position of `column`.
fn store_members(ctx: &Context<'_>) -> (Vec<String>, usize) {
    let is_int = |i: usize| matches!(ctx.get_raw(i), ValueRef::Integer(_));
    let n = ctx.len();
    // column, row and, when the last two are integers, the mode.
    let tail = if n >= 4 && is_int(n - 1) && is_int(n - 2) {
        3
    } else {
        2
    };
    (
        members_from(ctx, 1, n.saturating_sub(tail).max(1)),
        n - tail,
    )
}

/// The text arguments `from..to`; one BLOB argument instead packs them, NUL-separated
/// (what a multi-row INSERT passes, reading them once from a CTE).
fn members_from(ctx: &Context<'_>, from: usize, to: usize) -> Vec<String> {
    if let (true, ValueRef::Blob(packed)) = (to == from + 1, ctx.get_raw(from)) {
        return packed
            .split(|b| *b == 0)
            .map(|m| String::from_utf8_lossy(m).into_owned())
            .collect();
    }
    (from..to)
        .filter_map(|i| match ctx.get_raw(i) {
            ValueRef::Text(m) => Some(String::from_utf8_lossy(m).into_owned()),
            _ => None,
        })
        .collect()
}

/// `tutti_enum_store(v, member1, ..., memberN, column, row[, mode])`: the member an ENUM
/// column stores for `v`, spelled as declared.
fn enum_store(ctx: &Context<'_>) -> Result<Value> {
    let (members, column) = store_members(ctx);
    let found = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(Value::Null),
        ValueRef::Integer(i) => member_at(&members, i),
        // MariaDB's `(longlong) nr`: toward zero.
        ValueRef::Real(r) => member_at(&members, r.trunc() as i64),
        v => member_named(&members, &text_of(v)),
    };
    match found {
        Some(m) => Ok(Value::Text(m.clone())),
        None => {
            let target = Target::of(ctx, column, "enum")?;
            // MariaDB stores index 0, shown as ''; tutti stores the member text, and a
            // member spelled '' would take its place: refused rather than mistaken.
            if members.iter().any(|m| m.trim_end_matches(' ').is_empty()) {
                return Err(target.truncated());
            }
            target.adjust(
                CODE_TRUNCATED,
                target.truncated(),
                Value::Text(String::new()),
            )
        }
    }
}

/// The `i`th member (1-based).
fn member_at(members: &[String], i: i64) -> Option<&String> {
    usize::try_from(i)
        .ok()?
        .checked_sub(1)
        .and_then(|i| members.get(i))
}

/// The member spelled `text`, or else, for a short string of digits, the member at that
/// index (MariaDB reads numbers so for LOAD DATA).
fn member_named<'a>(members: &'a [String], text: &str) -> Option<&'a String> {
    position_of(members, text).map(|i| &members[i]).or_else(|| {
        let digits = text.len() < 6 && !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        digits
            .then(|| member_at(members, text.parse().ok()?))
            .flatten()
    })
}

/// The bits of SET text `value` and whether each of its parts named a member.
fn set_bits(members: &[String], value: &str) -> (u64, bool) {
    if value.is_empty() {
        return (0, true);
    }
    let mut bits = 0u64;
    let mut all = true;
    for part in value.split(',') {
        match position_of(members, part) {
            Some(i) => bits |= 1u64.checked_shl(i as u32).unwrap_or(0),
            None => all = false,
        }
    }
    (bits, all)
}

/// The SET text of `bits`: the members they name, in declaration order.
fn set_text(members: &[String], bits: u64) -> String {
    let named: Vec<&str> = members
        .iter()
        .enumerate()
        .filter(|(i, _)| has_bit(bits, *i))
        .map(|(_, m)| m.as_str())
        .collect();
    named.join(",")
}

/// Bit `i` (member `i`) is set in `bits`.
fn has_bit(bits: u64, i: usize) -> bool {
    bits.checked_shr(i as u32).unwrap_or(0) & 1 == 1
}

/// The mask of every member of a SET of `n` members.
fn all_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// `tutti_set_index(s, member1, member2, ...)`: SET value `s` as a number (its bits).
fn set_index(ctx: &Context<'_>) -> Result<Option<i64>> {
    let members = members_from(ctx, 1, ctx.len());
    Ok(match ctx.get_raw(0) {
        ValueRef::Null => None,
        // A value computed from a SET may be a number.
        ValueRef::Integer(i) => Some(i),
        v => Some(set_bits(&members, &text_of(v)).0 as i64),
    })
}

/// `tutti_set_find(m, s, member1, member2, ...)`: `FIND_IN_SET(m, s)` of a SET column `s`
/// as MariaDB answers it: the position of member `m` among the members when `s` holds it,
/// 0 when not (or `m` is no member), NULL when either is NULL.
fn set_find(ctx: &Context<'_>) -> Result<Option<i64>> {
    let members = members_from(ctx, 2, ctx.len());
    let needle = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(None),
        v => text_of(v),
    };
    let bits = match ctx.get_raw(1) {
        ValueRef::Null => return Ok(None),
        ValueRef::Integer(i) => i as u64,
        v => set_bits(&members, &text_of(v)).0,
    };
    let held = position_of(&members, &needle).filter(|&i| has_bit(bits, i));
    Ok(Some(held.map_or(0, |i| i as i64 + 1)))
}

/// `tutti_set_valid(s, member1, member2, ...)`: `s` is NULL or names only members (the
/// member check of a SET column, which also lists its members).
fn set_valid(ctx: &Context<'_>) -> Result<bool> {
    let members = members_from(ctx, 1, ctx.len());
    Ok(match ctx.get_raw(0) {
        ValueRef::Null => true,
        v => set_bits(&members, &text_of(v)).1,
    })
}

/// `tutti_set_store(v, member1, ..., memberN, column, row[, mode])`: the members a SET
/// column stores for `v`.
fn set_store(ctx: &Context<'_>) -> Result<Value> {
    let (members, column) = store_members(ctx);
    let max = all_bits(members.len());
    // The member bits, and whether there were no others.
    let masked = |n: u64| (n & max, n & !max == 0);
    let (bits, whole) = match ctx.get_raw(0) {
        ValueRef::Null => return Ok(Value::Null),
        ValueRef::Integer(i) => masked(i as u64),
        // MariaDB's `(longlong) nr`: toward zero.
        ValueRef::Real(r) => masked(r.trunc() as i64 as u64),
        v => {
            let text = text_of(v);
            match set_bits(&members, &text) {
                (0, false) if text.len() < 22 && text.bytes().all(|b| b.is_ascii_digit()) => {
                    match text.parse::<u64>() {
                        Ok(n) if n & !max == 0 => (n, true),
                        _ => (0, false),
                    }
                }
                found => found,
            }
        }
    };
    let value = Value::Text(set_text(&members, bits));
    if whole {
        return Ok(value);
    }
    let target = Target::of(ctx, column, "set")?;
    target.adjust(CODE_TRUNCATED, target.truncated(), value)
}

pub(crate) fn register(c: &Connection) -> Result<()> {
    c.create_scalar_function("tutti_enum_index", -1, PURE, enum_index)?;
    c.create_scalar_function("tutti_enum_store", -1, PURE, enum_store)?;
    c.create_scalar_function("tutti_set_index", -1, PURE, set_index)?;
    c.create_scalar_function("tutti_set_valid", -1, PURE, set_valid)?;
    c.create_scalar_function("tutti_set_find", -1, PURE, set_find)?;
    c.create_scalar_function("tutti_set_store", -1, PURE, set_store)
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    fn conn() -> Connection {
        let c = Connection::open_in_memory().unwrap();
        super::super::register(&c).unwrap();
        c
    }

    fn one<T: rusqlite::types::FromSql>(c: &Connection, sql: &str) -> T {
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    }

    #[test]
    fn set_values_store_as_their_members_in_declaration_order() {
        let c = conn();
        let store = |v: &str| -> Option<String> {
            one(
                &c,
                &format!("SELECT tutti_set_store({v}, 'a', 'b', 'C', 'c1', 1)"),
            )
        };
        assert_eq!(store("'c,a,a'").as_deref(), Some("a,C"));
        assert_eq!(store("'B '").as_deref(), Some("b"));
        assert_eq!(store("''").as_deref(), Some(""));
        assert_eq!(store("5").as_deref(), Some("a,C"));
        assert_eq!(store("6.9").as_deref(), Some("b,C"));
        assert_eq!(store("'3'").as_deref(), Some("a,b"));
        assert_eq!(store("NULL"), None);
        let cased: Option<String> = one(&c, "SELECT tutti_set_store('A,a', 'a', 'A', 'c1', 1)");
        assert_eq!(cased.as_deref(), Some("a,A"));
        assert!(c
            .query_row(
                "SELECT tutti_set_store('a,d', 'a', 'b', 'c1', 1)",
                [],
                |r| r.get::<_, String>(0)
            )
            .unwrap_err()
            .to_string()
            .contains("Data truncated for column 'c1' at row 1"));
        assert!(c
            .query_row("SELECT tutti_set_store(4, 'a', 'b', 'c1', 1)", [], |r| {
                r.get::<_, String>(0)
            })
            .is_err());
    }

    #[test]
    fn an_invalid_value_is_refused_where_a_member_is_spelled_empty() {
        let c = conn();
        let lenient = |members: &str| {
            c.query_row(
                &format!("SELECT tutti_enum_store('x', {members}, 'c1', 1, 0)"),
                [],
                |r| r.get::<_, String>(0),
            )
        };
        assert_eq!(lenient("'a', 'b'").unwrap(), "");
        let e = lenient("'a', '', 'b'").unwrap_err().to_string();
        assert!(e.contains("Data truncated for column 'c1'"), "{e}");
    }

    #[test]
    fn members_packed_in_one_blob_read_as_listed_ones() {
        let c = conn();
        // 'a', 'b', 'C' NUL-separated, as a multi-row INSERT passes them
        let packed = "X'6100620043'";
        let set: String = one(
            &c,
            &format!("SELECT tutti_set_store('c,a', {packed}, 'c1', 1)"),
        );
        assert_eq!(set, "a,C");
        let member: String = one(
            &c,
            &format!("SELECT tutti_enum_store(2, {packed}, 'c1', 1, 0)"),
        );
        assert_eq!(member, "b");
    }

    #[test]
    fn outside_strict_mode_a_set_keeps_the_members_it_named() {
        let c = conn();
        let lenient = |v: &str| -> Option<String> {
            one(
                &c,
                &format!("SELECT tutti_set_store({v}, 'a', 'b', 'c', 'c1', 1, 0)"),
            )
        };
        assert_eq!(lenient("'a,d'").as_deref(), Some("a"));
        assert_eq!(lenient("9").as_deref(), Some("a"));
        assert_eq!(lenient("-1").as_deref(), Some("a,b,c"));
        assert_eq!(lenient("' a , b'").as_deref(), Some(""));
        assert_eq!(lenient("'99'").as_deref(), Some(""));
    }

    #[test]
    fn set_values_read_as_bits_and_check_their_members() {
        let c = conn();
        let n: Vec<Option<i64>> = ["'a,c'", "''", "'c'", "NULL", "6"]
            .iter()
            .map(|v| one(&c, &format!("SELECT tutti_set_index({v}, 'a', 'b', 'c')")))
            .collect();
        assert_eq!(n, [Some(5), Some(0), Some(4), None, Some(6)]);
        let valid =
            |v: &str| -> bool { one(&c, &format!("SELECT tutti_set_valid({v}, 'a', 'b')")) };
        assert!(valid("'a,b'") && valid("NULL") && valid("''"));
        let find = |m: &str, s: &str| -> Option<i64> {
            one(
                &c,
                &format!("SELECT tutti_set_find({m}, {s}, 'a', 'b', 'c')"),
            )
        };
        assert_eq!(find("'c'", "'a,c'"), Some(3));
        assert_eq!(find("'B'", "'a,c'"), Some(0));
        assert_eq!(find("'x'", "'a,c'"), Some(0));
        assert_eq!(find("NULL", "'a'"), None);
        assert!(!valid("'a,x'") && !valid("'a,'"));
    }
}

//! ENUM columns read as numbers.
//!
//! An ENUM column holds its member's text (checked by the `"<column> enum"` CHECK that
//! `columns` declares), but MariaDB reads an ENUM in a numeric context as the member's
//! 1-based index (0 for the empty string of an invalid value): `e + 0`, `e = 2`,
//! `e IN (1, 3)`, `SUM(e)`, `CAST(e AS SIGNED)`; and `ORDER BY e` sorts by that index, in
//! the order the members were declared. Those reads become
//! `tutti_enum_index(e, 'member1', 'member2', ...)` (registered by storage).
//!
//! A SET column reads in a numeric context as its bits (`tutti_set_index`, bit 0 the first
//! member), and sorts by them. Both keep their members in the column's member check.

use sqlparser::ast::{Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments};
use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};

use crate::ast_build::{func, string};
use crate::columns::{ENUM_CHECK_SUFFIX, SET_CHECK_FUNCTION};
use crate::TableInfo;

/// The storage function giving an ENUM value's index.
const INDEX_FUNCTION: &str = "tutti_enum_index";
/// The storage function giving a SET value's bits.
const SET_BITS_FUNCTION: &str = "tutti_set_index";
/// The storage function of `FIND_IN_SET(member, set_column)`.
const SET_FIND_FUNCTION: &str = "tutti_set_find";

impl TableInfo {
    /// The members of an ENUM or SET column, in declaration order; None for other columns.
    pub fn enum_members(&self, column: &str) -> Option<Vec<String>> {
        let tokens = Tokenizer::new(&SQLiteDialect {}, &self.create_sql)
            .tokenize()
            .ok()?;
        let check = format!("{column}{ENUM_CHECK_SUFFIX}");
        let start = tokens.iter().position(
            |t| matches!(t, Token::Word(w) if w.quote_style.is_some() && w.value.eq_ignore_ascii_case(&check)),
        )?;
        Some(check_members(&tokens[start + 1..]))
    }
}

/// The members a member check lists (the strings of an ENUM's `IN (...)`, of a SET's
/// `tutti_set_valid(...)`), from the tokens after its name.
pub fn check_members<'a>(tokens: impl IntoIterator<Item = &'a Token>) -> Vec<String> {
    tokens
        .into_iter()
        .skip_while(|t| {
            !matches!(t, Token::Word(w) if w.keyword == Keyword::IN
                || w.value.eq_ignore_ascii_case(SET_CHECK_FUNCTION))
        })
        .skip(1)
        .take_while(|t| **t != Token::RParen)
        .filter_map(|t| match t {
            Token::SingleQuotedString(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// `tutti_enum_index(e, members...)`: the index of ENUM column `e`'s value.
pub(crate) fn index_of(e: Expr, members: &[String]) -> Expr {
    number_of(INDEX_FUNCTION, e, members)
}

/// `tutti_set_index(s, members...)`: the bits of SET column `s`'s value.
pub(crate) fn bits_of(s: Expr, members: &[String]) -> Expr {
    number_of(SET_BITS_FUNCTION, s, members)
}

/// `FIND_IN_SET('m', s)` of a SET column `s` → `tutti_set_find('m', s, members...)`: the
/// position of member `m` among the column's members when `s` holds it, 0 when not, as
/// MariaDB answers it for a constant `m` (not the position within the value's text).
pub(crate) fn find_in_set_column(f: &Function, scopes: &crate::typing::Scopes) -> Option<Expr> {
    if !f.name.to_string().eq_ignore_ascii_case("find_in_set") {
        return None;
    }
    let FunctionArguments::List(l) = &f.args else {
        return None;
    };
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(needle)), FunctionArg::Unnamed(FunctionArgExpr::Expr(set))] =
        l.args.as_slice()
    else {
        return None;
    };
    if !matches!(needle, Expr::Value(_)) {
        return None;
    }
    let members = crate::typing::set_members(set, scopes)?;
    let mut args = vec![needle.clone(), set.clone()];
    args.extend(members.iter().map(string));
    Some(func(SET_FIND_FUNCTION, args))
}

fn number_of(function: &str, e: Expr, members: &[String]) -> Expr {
    let mut args = vec![e];
    args.extend(members.iter().map(string));
    func(function, args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TableName;

    #[test]
    fn members_come_from_the_check() {
        let t = TableInfo {
            name: TableName {
                db: "d".into(),
                table: "t".into(),
            },
            columns: vec![],
            autoinc: None,
            indexes: vec![],
            create_sql: r#"CREATE TABLE "d.t" ("a" INT, "e" ENUM NOT NULL COLLATE tutti_general_ci, "f" ENUM, PRIMARY KEY ("a"), CONSTRAINT "e enum" CHECK ("e" IN ('x', 'it''s', '(')), CONSTRAINT "f enum" CHECK ("f" IN ('5')))"#.into(),
            referenced: false,
        };
        assert_eq!(
            t.enum_members("e"),
            Some(vec!["x".into(), "it's".into(), "(".into()])
        );
        assert_eq!(t.enum_members("f"), Some(vec!["5".into()]));
        assert_eq!(t.enum_members("a"), None);
        let s = TableInfo {
            create_sql: r#"CREATE TABLE "d.t" ("s" SET_TEXT, CONSTRAINT "s enum" CHECK (tutti_set_valid("s", 'x', 'y,')))"#.into(),
            ..t
        };
        assert_eq!(s.enum_members("s"), Some(vec!["x".into(), "y,".into()]));
    }
}

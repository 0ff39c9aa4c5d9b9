//! ENUM columns read as numbers.
//!
//! An ENUM column holds its member's text (checked by the `"<column> enum"` CHECK that
//! `columns` declares), but MariaDB reads an ENUM in a numeric context as the member's
//! 1-based index (0 for the empty string of an invalid value): `e + 0`, `e = 2`,
//! `e IN (1, 3)`, `SUM(e)`, `CAST(e AS SIGNED)`; and `ORDER BY e` sorts by that index, in
//! the order the members were declared. Those reads become
//! `tutti_enum_index(e, 'member1', 'member2', ...)` (registered by storage).

use sqlparser::ast::Expr;
use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};

use crate::ast_build::{func, string};
use crate::columns::ENUM_CHECK_SUFFIX;
use crate::TableInfo;

/// The storage function giving an ENUM value's index.
const INDEX_FUNCTION: &str = "tutti_enum_index";

impl TableInfo {
    /// The members of an ENUM column, in declaration order; None for other columns.
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

/// The members an ENUM member check lists (the strings of its `IN (...)`), from the
/// tokens after its name.
pub fn check_members<'a>(tokens: impl IntoIterator<Item = &'a Token>) -> Vec<String> {
    tokens
        .into_iter()
        .skip_while(|t| !matches!(t, Token::Word(w) if w.keyword == Keyword::IN))
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
    let mut args = vec![e];
    args.extend(members.iter().map(string));
    func(INDEX_FUNCTION, args)
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
    }
}

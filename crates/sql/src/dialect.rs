//! The dialect statements are parsed with: sqlparser's MySQL dialect with MySQL's operator
//! precedence.
//!
//! sqlparser ranks the operators as PostgreSQL does, which differs from MySQL in ways that
//! change answers: `XOR` binds tighter than `=` there (`1 = 1 XOR 2 = 3` would be
//! `1 = (1 XOR 2) = 3`, 0; MySQL: 1), `^` looser than `*` and `+` (`2 * 3 ^ 1` is 4 in
//! MySQL, not 7), `<<`/`>>` as loose as `^` and looser than `&` (`1 << 2 & 3` is 0, not
//! 4), and `~` takes a product as its operand. MySQL's order, from the tightest: unary
//! `-` and `~`; `^`; `* / DIV % MOD`; `+ -`; `<< >>`; `&`; `|`; comparisons; `NOT`; `AND`;
//! `XOR`; `OR`. Everything else is the MySQL dialect's own: this wrapper reports its
//! `TypeId`, so the parser's MySQL-only paths stay on.

use std::any::TypeId;

use sqlparser::ast::{ColumnOption, Expr, Statement};
use sqlparser::dialect::{Dialect, MySqlDialect, Precedence};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

/// MySQL's dialect with MySQL's operator precedence.
#[derive(Debug)]
pub(crate) struct MySql;

const MYSQL: MySqlDialect = MySqlDialect {};

/// The column option `ZEROFILL`.
pub(crate) const ZEROFILL: &str = "ZEROFILL";

/// Binding powers (higher binds tighter), in sqlparser's scale where `*` is 40, `+` 30,
/// `&` 23, `|` 21, `=` 20, `AND` 10 and `OR` 5.
mod power {
    /// The operand of unary `-`, `+` and `~`: nothing binary binds tighter.
    pub const UNARY: u8 = 60;
    /// `^`.
    pub const CARET: u8 = 45;
    /// `* / DIV %`.
    pub const PRODUCT: u8 = 40;
    /// `+ -`.
    pub const SUM: u8 = 30;
    /// `<< >>`.
    pub const SHIFT: u8 = 26;
    /// `XOR`: between `AND` and `OR`.
    pub const XOR: u8 = 7;
}

macro_rules! same_as_mysql {
    ($($name:ident),* $(,)?) => {
        $(fn $name(&self) -> bool {
            MYSQL.$name()
        })*
    };
}

impl Dialect for MySql {
    fn dialect(&self) -> TypeId {
        MYSQL.dialect()
    }

    fn get_next_precedence(&self, parser: &Parser) -> Option<Result<u8, ParserError>> {
        let power = match &parser.peek_token_ref().token {
            Token::Caret => power::CARET,
            Token::Mul | Token::Div | Token::Mod => power::PRODUCT,
            Token::Word(w) if w.keyword == Keyword::DIV => power::PRODUCT,
            Token::Plus | Token::Minus => power::SUM,
            Token::ShiftLeft | Token::ShiftRight => power::SHIFT,
            Token::Word(w) if w.keyword == Keyword::XOR => power::XOR,
            _ => return None,
        };
        Some(Ok(power))
    }

    /// `ZEROFILL` (which the lexer puts after `UNSIGNED`): a column option SQLite has no
    /// use for, kept for the display (see `columns`).
    fn parse_column_option(
        &self,
        parser: &mut Parser,
    ) -> Result<Option<Result<Option<ColumnOption>, ParserError>>, ParserError> {
        let zerofill = matches!(&parser.peek_token_ref().token,
            Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case(ZEROFILL));
        if !zerofill {
            return Ok(None);
        }
        parser.next_token();
        let option = ColumnOption::DialectSpecific(vec![Token::make_word(ZEROFILL, None)]);
        Ok(Some(Ok(Some(option))))
    }

    fn prec_value(&self, prec: Precedence) -> u8 {
        match prec {
            // Only the unary operators still read these (the binary ones are ranked above).
            Precedence::MulDivModOp | Precedence::PlusMinus => power::UNARY,
            p => MYSQL.prec_value(p),
        }
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_identifier_start(ch)
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        MYSQL.is_identifier_part(ch)
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_delimited_identifier_start(ch)
    }

    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        MYSQL.identifier_quote_style(identifier)
    }

    fn parse_infix(
        &self,
        parser: &mut Parser,
        expr: &Expr,
        precedence: u8,
    ) -> Option<Result<Expr, ParserError>> {
        MYSQL.parse_infix(parser, expr, precedence)
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        MYSQL.parse_statement(parser)
    }

    fn is_table_factor_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        MYSQL.is_table_factor_alias(explicit, kw, parser)
    }

    same_as_mysql!(
        supports_string_literal_backslash_escape,
        supports_string_literal_concatenation,
        ignores_wildcard_escapes,
        supports_numeric_prefix,
        supports_bitwise_shift_operators,
        supports_multiline_comment_hints,
        require_interval_qualifier,
        supports_limit_comma,
        supports_create_table_select,
        supports_insert_set,
        supports_user_host_grantee,
        supports_table_hints,
        requires_single_line_comment_whitespace,
        supports_match_against,
        supports_select_modifiers,
        supports_set_names,
        supports_comma_separated_set_assignments,
        supports_update_order_by,
        supports_data_type_signed_suffix,
        supports_cross_join_constraint,
        supports_double_ampersand_operator,
        supports_binary_kw_as_cast,
        supports_comment_optimizer_hint,
        supports_constraint_keyword_without_name,
        supports_key_column_option,
        supports_group_by_with_modifier,
        supports_left_associative_joins_without_parens,
    );
}

#[cfg(test)]
mod tests {
    use sqlparser::ast::{Expr, SelectItem, SetExpr, Statement};
    use sqlparser::parser::Parser;

    use super::MySql;

    /// `e` with every operator's operands in parentheses.
    fn grouped(e: &Expr) -> String {
        match e {
            Expr::BinaryOp { left, op, right } => {
                format!("({} {op} {})", grouped(left), grouped(right))
            }
            Expr::UnaryOp { op, expr } => format!("({op}{})", grouped(expr)),
            e => e.to_string(),
        }
    }

    fn parsed(sql: &str) -> String {
        let stmt = Parser::parse_sql(&MySql, &format!("SELECT {sql}")).unwrap();
        let Statement::Query(q) = &stmt[0] else {
            panic!("{sql}")
        };
        let SetExpr::Select(s) = &*q.body else {
            panic!("{sql}")
        };
        let SelectItem::UnnamedExpr(e) = &s.projection[0] else {
            panic!("{sql}")
        };
        grouped(e)
    }

    #[test]
    fn operators_group_as_in_mysql() {
        for (sql, want) in [
            ("1 = 1 XOR 2 = 3", "((1 = 1) XOR (2 = 3))"),
            ("a XOR b AND c", "(a XOR (b AND c))"),
            ("a OR b XOR c", "(a OR (b XOR c))"),
            ("2 * 3 ^ 1", "(2 * (3 ^ 1))"),
            ("2 + 3 * 4", "(2 + (3 * 4))"),
            ("1 << 2 & 3", "((1 << 2) & 3)"),
            ("1 | 2 & 3", "(1 | (2 & 3))"),
            ("8 >> 1 + 1", "(8 >> (1 + 1))"),
            ("-2 ^ 1", "((-2) ^ 1)"),
            ("~1 * 2", "((~1) * 2)"),
            ("-a * b", "((-a) * b)"),
            ("7 DIV 2 * 3", "((7 DIV 2) * 3)"),
            ("a = 1 AND b = 2 OR c", "(((a = 1) AND (b = 2)) OR c)"),
        ] {
            assert_eq!(parsed(sql), want, "{sql}");
        }
    }
}

//! Small helpers for driving sqlparser's `Parser` by hand.
//!
//! Several MySQL statements (SHOW, SET, ALTER TABLE, FLUSH, ...) are parsed here rather than
//! by sqlparser, which either does not know them or knows a different dialect's shape. The
//! parser's public API works on keywords; MySQL has many words sqlparser does not list as
//! keywords (`WARNINGS`, `ENGINES`, `CONSISTENT`, ...), so these helpers compare unquoted words
//! by text.

use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;

use crate::lexer::is_word;

/// Word-level lookahead on a parser.
pub(crate) trait Cursor {
    /// True when the `n`-th next token is the unquoted word `word`.
    fn peek_is(&self, n: usize, word: &str) -> bool;
    /// The `n`-th next token as an upper-case unquoted word, if it is one.
    fn peek_word(&self, n: usize) -> Option<String>;
    /// Consumes the next token if it is the word `word`.
    fn eat_word(&mut self, word: &str) -> bool;
    /// Consumes the words if all of them come next, in order.
    fn eat_words(&mut self, words: &[&str]) -> bool;
    /// Consumes the next token if it is `token`.
    fn eat(&mut self, token: &Token) -> bool;
    /// True at the end of the statement.
    fn at_end(&self) -> bool;
    /// An error unless at the end of the statement.
    fn expect_end(&self) -> Result<(), ParserError>;
}

impl Cursor for Parser<'_> {
    fn peek_is(&self, n: usize, word: &str) -> bool {
        is_word(&self.peek_nth_token_ref(n).token, word)
    }

    fn peek_word(&self, n: usize) -> Option<String> {
        match &self.peek_nth_token_ref(n).token {
            Token::Word(w) if w.quote_style.is_none() => Some(w.value.to_ascii_uppercase()),
            _ => None,
        }
    }

    fn eat_word(&mut self, word: &str) -> bool {
        if self.peek_is(0, word) {
            self.next_token();
            true
        } else {
            false
        }
    }

    fn eat_words(&mut self, words: &[&str]) -> bool {
        if words.iter().enumerate().all(|(i, w)| self.peek_is(i, w)) {
            for _ in words {
                self.next_token();
            }
            true
        } else {
            false
        }
    }

    fn eat(&mut self, token: &Token) -> bool {
        self.consume_token(token)
    }

    fn at_end(&self) -> bool {
        matches!(self.peek_token_ref().token, Token::EOF)
    }

    fn expect_end(&self) -> Result<(), ParserError> {
        if self.at_end() {
            Ok(())
        } else {
            self.expected_ref("end of statement", self.peek_token_ref())
        }
    }
}

//! The client's original text, and MySQL-style syntax errors pointing into it.
//!
//! sqlparser reports positions as (line, column) with columns counted in characters; MySQL
//! clients expect error 1064 worded as `... near '<rest of the statement>' at line N`, so the
//! position is mapped back to a byte offset in the original text (lazily: only errors and
//! `Noop` statements ever need it).

use std::cell::OnceCell;

use sqlparser::parser::ParserError;
use sqlparser::tokenizer::Location;

use crate::SqlError;

/// How much of the statement a syntax error quotes.
const NEAR_MAX_CHARS: usize = 80;

/// The original SQL text with a lazily built line index.
pub(crate) struct Source<'a> {
    /// The text as the client sent it.
    pub sql: &'a str,
    line_starts: OnceCell<Vec<usize>>,
}

impl<'a> Source<'a> {
    /// Wraps the client's text.
    pub fn new(sql: &'a str) -> Self {
        Source {
            sql,
            line_starts: OnceCell::new(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut v = vec![0];
            v.extend(self.sql.match_indices('\n').map(|(i, _)| i + 1));
            v
        })
    }

    /// Byte offset of a tokenizer location (None for the empty location).
    pub fn offset(&self, loc: Location) -> Option<usize> {
        if loc.line == 0 {
            return None;
        }
        let start = *self.line_starts().get(loc.line as usize - 1)?;
        let line = &self.sql[start..];
        let skip = loc.column.saturating_sub(1) as usize;
        let within = line
            .char_indices()
            .nth(skip)
            .map(|(i, _)| i)
            .unwrap_or(line.len());
        Some(start + within)
    }

    /// The text between two locations (the whole statement for a statement's span).
    pub fn text(&self, start: Location, end: Location) -> &'a str {
        match (self.offset(start), self.offset(end)) {
            (Some(s), Some(e)) if s <= e => &self.sql[s..e],
            _ => "",
        }
    }

    /// MySQL's 1064 message for an error at `at` (None: at the end), quoting the text from
    /// there up to `end` (None: the end of the input).
    pub fn syntax_error(&self, at: Option<Location>, end: Option<Location>) -> SqlError {
        let end_off = end.and_then(|e| self.offset(e)).unwrap_or(self.sql.len());
        let (start_off, line) = match at.and_then(|l| self.offset(l).map(|o| (o, l.line))) {
            Some((o, line)) if o <= end_off => (o, line),
            _ => (
                end_off,
                self.sql[..end_off].matches('\n').count() as u64 + 1,
            ),
        };
        let rest = &self.sql[start_off..end_off];
        let near: String = rest.chars().take(NEAR_MAX_CHARS).collect();
        SqlError::syntax_near(&near, line)
    }

    /// Converts a parser error into the MySQL message, using the location sqlparser put in it.
    pub fn parser_error(&self, e: &ParserError, end: Location) -> SqlError {
        let msg = match e {
            ParserError::TokenizerError(s) | ParserError::ParserError(s) => s.as_str(),
            ParserError::RecursionLimitExceeded => "",
        };
        self.syntax_error(location_in_message(msg), Some(end))
    }
}

/// Extracts `Line: L, Column: C` from the end of a sqlparser message.
fn location_in_message(msg: &str) -> Option<Location> {
    let at = msg.rfind("Line: ")?;
    let (line, column) = msg[at + 6..].split_once(", Column: ")?;
    let column: String = column.chars().take_while(|c| c.is_ascii_digit()).collect();
    Some(Location {
        line: line.trim().parse().ok()?,
        column: column.parse().ok()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_count_characters() {
        let s = Source::new("SELECT 'é'\n  FROM x");
        assert_eq!(s.offset(Location { line: 1, column: 9 }), Some(8));
        assert_eq!(
            s.offset(Location {
                line: 1,
                column: 10
            }),
            Some(10)
        );
        assert_eq!(s.offset(Location { line: 2, column: 3 }), Some(14));
        assert_eq!(
            s.text(
                Location { line: 2, column: 3 },
                Location { line: 2, column: 7 }
            ),
            "FROM"
        );
    }

    #[test]
    fn message_reads_like_mysql() {
        let s = Source::new("SELECT * FORM t");
        let e = s.syntax_error(
            Some(Location {
                line: 1,
                column: 10,
            }),
            None,
        );
        assert_eq!(
            e,
            SqlError::Syntax(
                "You have an error in your SQL syntax; check the manual that corresponds to your \
                 MariaDB server version for the right syntax to use near 'FORM t' at line 1"
                    .into()
            )
        );
        let e = s.syntax_error(None, None);
        assert!(e.to_string().ends_with("near '' at line 1"), "{e}");
    }

    #[test]
    fn finds_location_in_parser_message() {
        let l = location_in_message("Expected: end of statement, found: IN at Line: 3, Column: 22");
        assert_eq!(
            l,
            Some(Location {
                line: 3,
                column: 22
            })
        );
        assert_eq!(location_in_message("Expected: ), found: EOF"), None);
    }
}

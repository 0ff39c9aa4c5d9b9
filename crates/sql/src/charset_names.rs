//! Character set and collation names where a statement gives them (`CHARACTER SET cs`,
//! `COLLATE c` in column, table and database definitions, `SET NAMES`, the
//! `character_set_*` / `collation_*` variables, `x COLLATE c`), checked as MariaDB checks
//! them: an unknown set is 1115, an unknown collation 1273, a collation of another set
//! than the text's 1253. tutti accepted them all and compared in its default collation.
//! The names are MariaDB's (`tutti_wsrep::charsets::CollationName`).

use sqlparser::ast::Expr;
use tutti_wsrep::charsets::{CharsetName, CollationName, Resolved};

use crate::typing::Scopes;
use crate::{Env, SqlError};

/// The set called `name`, by its canonical name (`utf8` is `utf8mb3`); 1115 if unknown.
pub fn charset_named(name: &str) -> Result<&'static str, SqlError> {
    let name = unquoted(name);
    CharsetName::find(name)
        .map(|c| c.name)
        .ok_or_else(|| SqlError::UnknownCharset(name.to_string()))
}

/// The collation called `name`, as MariaDB resolves it; 1273 if unknown.
pub fn collation_named(name: &str) -> Result<Resolved, SqlError> {
    let name = unquoted(name);
    CollationName::resolve(name).ok_or_else(|| SqlError::UnknownCollation(name.to_string()))
}

/// Collation `name` given to text of set `charset`: its canonical name there; 1253 when it
/// is another set's.
pub fn collation_in(name: &str, charset: &str) -> Result<String, SqlError> {
    resolved_in(&collation_named(name)?, name, charset)
}

/// [`collation_in`] of an already resolved collation `name`.
fn resolved_in(resolved: &Resolved, name: &str, charset: &str) -> Result<String, SqlError> {
    resolved
        .for_charset(charset)
        .ok_or_else(|| SqlError::CollationCharsetMismatch {
            collation: unquoted(name).to_string(),
            charset: charset_named(charset).unwrap_or(charset).to_string(),
        })
}

/// The collation called `name` where no set is given (a variable, a definition without
/// CHARACTER SET): its canonical name, a set-less one taken in the default set utf8mb4.
pub fn collation_alone(name: &str) -> Result<String, SqlError> {
    let resolved = collation_named(name)?;
    Ok(resolved.for_charset("utf8mb4").unwrap_or(resolved.name))
}

/// The options `CHARACTER SET cs` and `COLLATE c` of a column, table or database, checked
/// together: the canonical collation they name (None: neither given).
pub(crate) fn declared(
    charset: Option<&str>,
    collation: Option<&str>,
) -> Result<Option<String>, SqlError> {
    let set = charset.map(charset_named).transpose()?;
    // `COLLATE DEFAULT`: the set's default collation
    let collation = collation.filter(|c| !unquoted(c).eq_ignore_ascii_case("default"));
    match (set, collation) {
        (Some(set), Some(c)) => collation_in(c, set).map(Some),
        (None, Some(c)) => collation_alone(c).map(Some),
        (Some(set), None) => Ok(Some(crate::derivation::default_collation(set))),
        (None, None) => Ok(None),
    }
}

/// `x COLLATE c` (in MySQL form) checked against the set of `x`: a number or a temporal
/// value is text of the connection's set, NULL takes any collation.
pub(crate) fn check_collate(e: &Expr, scopes: &Scopes, env: &dyn Env) -> Result<(), SqlError> {
    let Expr::Collate { expr, collation } = e else {
        return Ok(());
    };
    // Only what the statement says: tutti's own COLLATEs (`BINARY x`, a computed string
    // given the collation it groups in) have no place in its text.
    let written = collation.0.iter().any(|p| {
        p.as_ident()
            .is_some_and(|i| i.span != sqlparser::tokenizer::Span::empty())
    });
    let name = collation.to_string();
    if !written || name.eq_ignore_ascii_case("binary") {
        return Ok(());
    }
    let resolved = collation_named(&name)?;
    match crate::derivation::text_charset(expr, scopes, env) {
        // tutti stores utf8mb3 columns as utf8mb4 (docs/compatibility.md): between the two,
        // a COLLATE is taken rather than refused for a set the column does not show
        Some(set) if is_utf8(&set) && resolved.charset.is_some_and(is_utf8) => Ok(()),
        Some(set) => resolved_in(&resolved, &name, &set).map(drop),
        None => Ok(()),
    }
}

fn is_utf8(charset: &str) -> bool {
    matches!(charset, "utf8" | "utf8mb3" | "utf8mb4")
}

fn unquoted(name: &str) -> &str {
    name.trim_matches(['\'', '"', '`'])
}

//! SQL-level prepared statements (`PREPARE`, `EXECUTE`, `EXECUTE IMMEDIATE`,
//! `DEALLOCATE PREPARE`): a name in the session for a statement prepared as the binary
//! protocol prepares one; `EXECUTE ... USING` binds the values to its `?` placeholders.
//! Preparing a name again replaces its statement, as in MySQL.

use tutti_sql::SetValue;
use tutti_wsrep::Value;

use crate::result::{OkInfo, Response};
use crate::session::Session;
use crate::set::evaluate;
use crate::ExecError;

const EXECUTE: &str = "EXECUTE";

impl Session {
    /// `PREPARE name FROM text`.
    pub(crate) fn prepare_named(
        &mut self,
        name: String,
        text: SetValue,
    ) -> Result<Response, ExecError> {
        let sql = statement_text(self, text)?;
        if let Some(old) = self.named.remove(&name) {
            self.close(old);
        }
        let info = self.prepare(&sql)?;
        self.named.insert(name, info.id);
        Ok(Response::Ok {
            affected_rows: 0,
            last_insert_id: 0,
            info: OkInfo::Text("Statement prepared".into()),
        })
    }

    /// `EXECUTE name [USING ...]`.
    pub(crate) fn execute_named(
        &mut self,
        name: &str,
        using: Vec<SetValue>,
    ) -> Result<Response, ExecError> {
        let id = self.named_id(name, EXECUTE)?;
        let params = values(self, using)?;
        self.run_prepared(id, &params, EXECUTE)
    }

    /// `EXECUTE IMMEDIATE text [USING ...]`.
    pub(crate) fn execute_immediate(
        &mut self,
        text: SetValue,
        using: Vec<SetValue>,
    ) -> Result<Response, ExecError> {
        let sql = statement_text(self, text)?;
        let params = values(self, using)?;
        let id = self.prepare(&sql)?.id;
        let r = self.run_prepared(id, &params, "EXECUTE IMMEDIATE");
        self.close(id);
        r
    }

    /// `DEALLOCATE PREPARE name`.
    pub(crate) fn deallocate(&mut self, name: &str) -> Result<Response, ExecError> {
        let id = self.named_id(name, "DEALLOCATE PREPARE")?;
        self.named.remove(name);
        self.close(id);
        Ok(Response::ok())
    }

    fn named_id(&self, name: &str, command: &'static str) -> Result<u32, ExecError> {
        self.named
            .get(name)
            .copied()
            .ok_or_else(|| ExecError::UnknownStatement {
                handler: name.to_string(),
                command,
            })
    }
}

/// The statement text: a string (NULL or a number is refused, as MySQL does).
fn statement_text(s: &Session, text: SetValue) -> Result<String, ExecError> {
    match evaluate(s, text)? {
        Some(Value::Text(t)) => Ok(t),
        Some(Value::Blob(b)) => String::from_utf8(b).map_err(|_| ExecError::NotPreparable),
        Some(Value::Null) | None => Err(tutti_sql::SqlError::syntax_near("NULL", 1).into()),
        Some(v) => Ok(v.to_sql_literal()),
    }
}

fn values(s: &Session, using: Vec<SetValue>) -> Result<Vec<Value>, ExecError> {
    using
        .into_iter()
        .map(|v| Ok(evaluate(s, v)?.unwrap_or(Value::Null)))
        .collect()
}

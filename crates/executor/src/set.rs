//! `SET`: session and global system variables, user variables, and provider options.
//!
//! `SET GLOBAL wsrep_provider_options='k=v; k2=v2'` and `SET GLOBAL wsrep_desync=ON` go to
//! the provider, which validates and applies them online.

use tutti_sql::{SetScope, SetValue, SetVar, UserValue};
use tutti_wsrep::Value;

use crate::result::Response;
use crate::session::Session;
use crate::vars::{self, Scope};
use crate::ExecError;

pub(crate) fn run(s: &mut Session, assignments: Vec<SetVar>) -> Result<Response, ExecError> {
    for a in assignments {
        let decimal = matches!(a.value, SetValue::Decimal(_));
        let value = evaluate(s, a.value)?;
        match a.scope {
            SetScope::User => {
                let value = match value {
                    Some(Value::Text(d)) if decimal => UserValue::Decimal(d),
                    v => UserValue::Plain(v.unwrap_or(Value::Null)),
                };
                s.user_vars.insert(a.name.to_ascii_lowercase(), value);
            }
            SetScope::Session | SetScope::Global => {
                set_system(s, a.scope == SetScope::Global, &a.name, value)?
            }
        }
    }
    Ok(Response::ok())
}

/// `SET STATEMENT vars FOR sql`: runs `sql` (one statement) with the session variables
/// set, then gives them their values back, whatever the outcome.
pub(crate) fn run_with(
    s: &mut Session,
    assignments: Vec<SetVar>,
    sql: &str,
) -> Result<Response, ExecError> {
    let saved: Vec<(String, Option<Value>)> = assignments
        .iter()
        .map(|a| {
            let name = a.name.to_ascii_lowercase();
            let old = vars::def(&name).and_then(|d| s.vars.get(d.name).cloned());
            (name, old)
        })
        .collect();
    let r = run(s, assignments).and_then(|_| {
        let mut req = tutti_sql::Request::new(sql, s)?;
        if req.len() != 1 {
            return Err(ExecError::NotPreparable);
        }
        let stmt = req.next(s).expect("one statement")?;
        s.run(stmt, &[])
    });
    for (name, old) in saved {
        if let Some(d) = vars::def(&name) {
            match old {
                Some(v) => s.vars.insert(d.name, v),
                None => s.vars.remove(d.name),
            }
        }
    }
    r
}

/// The value of an assignment; None for `DEFAULT`.
pub(crate) fn evaluate(s: &Session, v: SetValue) -> Result<Option<Value>, ExecError> {
    Ok(match v {
        SetValue::Value(v) => Some(v),
        SetValue::Default => None,
        SetValue::Query(sql) | SetValue::Decimal(sql) => {
            let r = s
                .exec
                .storage
                .reader()
                .map_err(|e| ExecError::Sqlite(e.to_string()))?;
            let rs = crate::sqlite::query(&r, &sql, &[])?;
            Some(
                rs.rows
                    .into_iter()
                    .next()
                    .and_then(|r| r.into_iter().next())
                    .unwrap_or(Value::Null),
            )
        }
    })
}

/// A character set or collation variable's value by its canonical name (`utf8` is
/// `utf8mb3`); MariaDB's 1115 and 1273 for a name it does not know.
fn checked_names(name: &str, value: Option<Value>) -> Result<Option<Value>, ExecError> {
    let Some(Value::Text(v)) = &value else {
        return Ok(value);
    };
    let canonical = if name.starts_with("character_set_") {
        tutti_sql::charset_named(v)?.to_string()
    } else if name.starts_with("collation_") {
        tutti_sql::collation_alone(v)?
    } else {
        return Ok(value);
    };
    Ok(Some(Value::Text(canonical)))
}

pub(crate) fn set_system(
    s: &mut Session,
    global: bool,
    name: &str,
    value: Option<Value>,
) -> Result<(), ExecError> {
    let name = name.to_ascii_lowercase();
    // SET NAMES / SET CHARACTER SET: tutti speaks UTF-8; remember what the client said.
    if name == "names" || name == "character_set" {
        let v = match value {
            // MariaDB's `utf8` is `utf8mb3`
            Some(Value::Text(cs)) if cs.eq_ignore_ascii_case("utf8") => {
                Value::Text("utf8mb3".into())
            }
            Some(v) => v,
            None => Value::Text("utf8mb4".into()),
        };
        for n in [
            "character_set_client",
            "character_set_connection",
            "character_set_results",
        ] {
            set_system(s, global, n, Some(v.clone()))?;
        }
        return Ok(());
    }
    // Literals in a multi-byte-unit charset (UTF-16, UTF-32, UCS-2) would compare and
    // convert as tutti cannot: refused rather than answered in UTF-8.
    if let ("character_set_connection" | "collation_connection", Some(Value::Text(cs))) =
        (name.as_str(), &value)
    {
        let charset = cs
            .split('_')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if matches!(charset.as_str(), "ucs2" | "utf16" | "utf16le" | "utf32") {
            return Err(ExecError::Sql(tutti_sql::SqlError::Unsupported(format!(
                "the connection character set {charset}"
            ))));
        }
    }
    let value = checked_names(&name, value)?;
    // the connection's collation follows its character set, and its set its collation
    if let ("character_set_connection", Some(Value::Text(cs))) = (name.as_str(), &value) {
        let collation = Value::Text(tutti_sql::default_collation(cs));
        set_system(s, global, "collation_connection", Some(collation))?;
    }
    if let ("collation_connection", Some(Value::Text(c))) = (name.as_str(), &value) {
        let charset = Value::Text(tutti_sql::charset_of(c).to_string());
        let d = vars::def("character_set_connection").expect("a known variable");
        store(s, global, d, charset)?;
    }
    let d = vars::def(vars::canonical(&name))
        .ok_or_else(|| ExecError::Sql(tutti_sql::SqlError::UnknownSystemVariable(name.clone())))?;
    if d.read_only {
        return Err(ExecError::ReadOnlyVariable(name));
    }
    match (global, d.scope) {
        (false, Scope::Global) => return Err(ExecError::GlobalOnly(name)),
        (true, Scope::Session) => return Err(ExecError::SessionOnly(name)),
        _ => {}
    }
    let value = match value {
        Some(v) if d.name == "sql_mode" => crate::sql_mode::normalize(&v)?,
        Some(v) => vars::parse(d, &v)?,
        None => {
            if global {
                vars::default_value(d)
            } else {
                s.exec
                    .globals
                    .get(d.name)
                    .unwrap_or_else(|| vars::default_value(d))
            }
        }
    };
    match d.name {
        "wsrep_provider_options" => {
            let text = value.to_string();
            for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
                let (k, v) = part
                    .split_once('=')
                    .ok_or_else(|| ExecError::WrongValueForVar(d.name.into(), part.into()))?;
                s.exec
                    .provider
                    .set_option(k.trim(), v.trim())
                    .map_err(|e| {
                        ExecError::WrongValueForVar(d.name.into(), format!("{part}: {e}"))
                    })?;
            }
            return Ok(());
        }
        "wsrep_desync" => {
            let on = if value == Value::Int(1) { "ON" } else { "OFF" };
            s.exec
                .provider
                .set_option("wsrep_desync", on)
                .map_err(|e| ExecError::WrongValueForVar(d.name.into(), e))?;
        }
        "autocommit" if !global && value == Value::Int(1) => s.commit()?,
        "time_zone" => {
            let text = value.to_string();
            let zone =
                tutti_storage::TimeZone::parse(&text).ok_or(ExecError::UnknownTimeZone(text))?;
            let value = Value::Text(zone.name());
            return store(s, global, d, value);
        }
        _ => {}
    }
    store(s, global, d, value)
}

fn store(
    s: &mut Session,
    global: bool,
    d: &'static vars::VarDef,
    value: Value,
) -> Result<(), ExecError> {
    if global {
        s.exec.globals.set(d, value);
    } else {
        s.vars.insert(d.name, value);
    }
    Ok(())
}

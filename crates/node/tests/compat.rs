//! MariaDB's answers, recorded: each `tests/compat/<name>.sql` holds statements (one per
//! `;`-terminated line group) and `<name>.result` what MariaDB 10.11 answered to each —
//! rows, affected-row and warning counts and the OK packet's info text, or error code. The
//! test replays the statements on a real tutti node and fails on every statement whose
//! answer differs, listing them all.
//!
//! `scripts/record-compat.sh` regenerates the `.result` files on a machine with MariaDB
//! (it sets `TUTTI_COMPAT_RECORD=host:port`, which makes this test record instead of check);
//! CI checks tutti against the recorded answers without needing MariaDB.

mod harness;

use std::path::{Path, PathBuf};

use harness::*;
use mysql::prelude::*;

/// The statements of a `.sql` file: lines up to one ending with `;`; `--` lines are comments.
fn statements(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("--") {
            continue;
        }
        if !cur.is_empty() {
            cur.push('\n');
        }
        cur.push_str(line);
        if t.ends_with(';') {
            out.push(cur.trim().trim_end_matches(';').to_string());
            cur.clear();
        }
    }
    assert!(cur.trim().is_empty(), "a statement without its ';': {cur}");
    out
}

fn cell(v: &mysql::Value) -> String {
    match v {
        mysql::Value::NULL => "NULL".into(),
        mysql::Value::Bytes(b) => String::from_utf8_lossy(b).into_owned(),
        other => other.as_sql(true),
    }
}

/// A file whose first line is this also records each result set's column definitions.
const WITH_COLUMNS: &str = "-- with column definitions";
/// A file whose first line is this also records each error's message.
const WITH_MESSAGES: &str = "-- with error messages";

/// What a file's first line asks to record besides rows, counts and error codes.
#[derive(Clone, Copy)]
struct Recorded {
    columns: bool,
    messages: bool,
}

/// What a result set says of its columns: name, type, flags, character set, length and
/// decimals, as a driver reads them.
fn column_definitions(columns: &[mysql::Column]) -> String {
    let defs: Vec<String> = columns
        .iter()
        .map(|c| {
            format!(
                "{} {:?} {:#x} {} {} {}",
                c.name_str(),
                c.column_type(),
                c.flags().bits(),
                c.character_set(),
                c.column_length(),
                c.decimals()
            )
        })
        .collect();
    format!("columns: {}\n", defs.join(" | "))
}

/// One statement's answer, as one or more lines of text.
fn answer(c: &mut mysql::Conn, sql: &str, recorded: Recorded) -> String {
    let error = |e: &mysql::MySqlError| match recorded.messages {
        true => format!("error {} {}", e.code, e.message),
        false => format!("error {}", e.code),
    };
    match c.query_iter(sql) {
        Err(mysql::Error::MySqlError(e)) => error(&e),
        Err(e) => format!("failure {e}"),
        Ok(mut result) => {
            let mut out = String::new();
            while let Some(set) = result.iter() {
                let has_columns = !set.columns().as_ref().is_empty();
                if has_columns && recorded.columns {
                    out.push_str(&column_definitions(set.columns().as_ref()));
                }
                let affected = set.affected_rows();
                let warnings = set.warnings();
                let info = set.info_str().into_owned();
                let mut rows = Vec::new();
                for row in set {
                    match row {
                        Ok(r) => {
                            rows.push(r.unwrap().iter().map(cell).collect::<Vec<_>>().join("\t"))
                        }
                        // An error while the rows are sent (MariaDB's 1690 comes after the
                        // column definitions) is the statement's error to a client.
                        Err(mysql::Error::MySqlError(e)) => return error(&e),
                        Err(e) => rows.push(format!("failure {e}")),
                    }
                }
                if has_columns {
                    out.push_str(&rows.join("\n"));
                    if rows.is_empty() {
                        out.push_str("(no rows)");
                    }
                } else {
                    out.push_str(&format!("ok {affected}"));
                    if warnings > 0 {
                        out.push_str(&format!(", {warnings} warnings"));
                    }
                    if !info.is_empty() {
                        out.push_str(&format!(" ({info})"));
                    }
                }
            }
            out
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/compat");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    files
}

/// The `.result` text of a file: `> statement` lines, each followed by its answer.
fn run_file(c: &mut mysql::Conn, sql_file: &Path) -> String {
    c.query_drop("DROP DATABASE IF EXISTS compat").unwrap();
    c.query_drop("CREATE DATABASE compat").unwrap();
    c.query_drop("USE compat").unwrap();
    let text = std::fs::read_to_string(sql_file).unwrap();
    let recorded = Recorded {
        columns: text.starts_with(WITH_COLUMNS),
        messages: text.starts_with(WITH_MESSAGES),
    };
    let mut out = String::new();
    for stmt in statements(&text) {
        out.push_str(&format!("> {}\n", stmt.replace('\n', " ")));
        out.push_str(&answer(c, &stmt, recorded));
        out.push('\n');
    }
    out
}

#[test]
fn answers_match_mariadb() {
    if let Ok(addr) = std::env::var("TUTTI_COMPAT_RECORD") {
        let (host, port) = addr
            .rsplit_once(':')
            .expect("TUTTI_COMPAT_RECORD=host:port");
        let opts = mysql::OptsBuilder::new()
            .ip_or_hostname(Some(host))
            .tcp_port(port.parse().unwrap())
            .user(Some("root"));
        let mut c = mysql::Conn::new(opts).unwrap();
        for f in corpus() {
            std::fs::write(f.with_extension("result"), run_file(&mut c, &f)).unwrap();
        }
        return;
    }
    let base = temp_base("compat");
    let mut n = NodeProc::new(base.path(), "n1");
    n.start();
    let mut c = n.conn();
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in corpus() {
        let want = std::fs::read_to_string(f.with_extension("result"))
            .unwrap_or_else(|e| panic!("{}: {e} (run scripts/record-compat.sh)", f.display()));
        let got = run_file(&mut c, &f);
        let split = |s: &str| -> Vec<String> {
            s.split("\n> ")
                .map(|x| x.trim_start_matches("> ").to_string())
                .collect()
        };
        let (want, got) = (split(&want), split(&got));
        assert_eq!(want.len(), got.len(), "{}: statement count", f.display());
        for (w, g) in want.iter().zip(&got) {
            checked += 1;
            if w != g {
                failures.push(format!(
                    "{}:\n  MariaDB: {}\n  tutti:   {}",
                    f.file_name().unwrap().to_string_lossy(),
                    w.replace('\n', "\n           "),
                    g.replace('\n', "\n           ")
                ));
            }
        }
    }
    assert!(checked > 0, "no statements in tests/compat");
    assert!(
        failures.is_empty(),
        "{} of {checked} statements differ from MariaDB:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

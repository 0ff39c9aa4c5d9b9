//! DECIMAL through SQLite: MariaDB 10.11's answers for the same expressions.

use rusqlite::Connection;

use super::value::Decimal;

fn db() -> Connection {
    let c = Connection::open_in_memory().unwrap();
    crate::functions::register(&c).unwrap();
    c
}

fn one(c: &Connection, sql: &str) -> String {
    c.query_row(sql, [], |r| {
        Ok(match r.get_ref(0)? {
            rusqlite::types::ValueRef::Null => "NULL".to_string(),
            rusqlite::types::ValueRef::Integer(i) => i.to_string(),
            rusqlite::types::ValueRef::Real(x) => format!("{x:?}"),
            rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
            rusqlite::types::ValueRef::Blob(_) => "blob".into(),
        })
    })
    .unwrap()
}

#[test]
fn values_parse_and_print_with_their_scale() {
    for (text, printed) in [
        ("1.50", "1.50"),
        ("-0.05", "-0.05"),
        ("  12 ", "12"),
        ("1.5e2", "150"),
        ("1.25e-1", "0.125"),
        ("-0", "0"),
        (".5", "0.5"),
        (
            "99999999999999999999999999999999999999",
            "99999999999999999999999999999999999999",
        ),
    ] {
        let (d, _) = Decimal::parse(text);
        assert_eq!(d.unwrap().to_string(), printed, "{text}");
    }
    assert_eq!(Decimal::from_f64(0.1).unwrap().to_string(), "0.1");
    assert_eq!(
        Decimal::from_f64(1e20).unwrap().to_string(),
        "100000000000000000000"
    );
}

#[test]
fn arithmetic_is_exact_with_mysql_scales() {
    let c = db();
    for (sql, want) in [
        ("tutti_dec_add('0.7', '0.1')", "0.8"),
        ("tutti_dec_add('0.1', '0.2')", "0.3"),
        ("tutti_dec_mul('0.1', 3)", "0.3"),
        ("tutti_dec_mul('0.30', '3')", "0.90"),
        // Past 81 digits MariaDB drops whole 9-digit words of the factors' fractions.
        (
            "tutti_dec_mul('12345678.000000000000000000000000000000000001', '987.000000000000000000000000000000000002')",
            "12185184186.00000000000000000000000000002469135600",
        ),
        (
            "tutti_dec_mul('987.000000000000000000000000000000000002', '12345678.000000000000000000000000000000000001')",
            "12185184186.00000000000000000000000000002469135600",
        ),
        (
            "tutti_dec_mul('12345678', '987.000000000000000000000000000000000002')",
            "12185184186.000000000000000000000000000024691356",
        ),
        ("tutti_dec_sub('1.50', 2)", "-0.50"),
        ("tutti_dec_shown(tutti_dec_div(1, 3))", "0.3333"),
        ("tutti_dec_shown(tutti_dec_div(2, 3))", "0.6667"),
        ("tutti_dec_shown(tutti_dec_div('1.00', 3))", "0.333333"),
        ("tutti_dec_div(1, 4)", "blob"),
        ("tutti_dec_div(1, 0)", "NULL"),
        // The next operation computes with a quotient's held digits (MariaDB 10.11).
        ("tutti_dec_shown(tutti_dec_mul(tutti_dec_div(1, 3), 3))", "1.0000"),
        ("tutti_dec_shown(tutti_dec_div(1, tutti_dec_div(1, 7)))", "7.0000"),
        ("tutti_dec_shown(tutti_dec_neg(tutti_dec_div(2, 3)))", "-0.6667"),
        ("tutti_dec_round(tutti_dec_div(1, 7), 12, 1)", "0.142857142000"),
        ("tutti_dec_cast(tutti_dec_div(1, 3), 20, 12)", "0.333333333000"),
        ("tutti_dec_store(tutti_dec_div(1, 3), 10, 6, 'd', 1)", "0.333333"),
        ("tutti_dec_cmp(tutti_dec_div(1, 3), '0.3333')", "0"),
        ("tutti_dec_mul(tutti_dec_div(1, 3), 1e0)", "0.333333333"),
        ("tutti_dec_shown(2.5)", "2.5"),
        (
            "tutti_dec_mod('99999999999999999999999999999999999999', 3)",
            "0",
        ),
        ("tutti_dec_mod('-7.5', 2)", "-1.5"),
        (
            "tutti_dec_add('12345678901234567.89', '0.01')",
            "12345678901234567.90",
        ),
        ("tutti_dec_add('0.1', 0.2)", "0.30000000000000004"),
        ("tutti_dec_add(NULL, 1)", "NULL"),
        ("tutti_dec_neg('1.50')", "-1.50"),
        ("tutti_dec_cmp('0.8', tutti_dec_add('0.7', '0.1'))", "0"),
        ("tutti_dec_cmp('1.0', 1)", "0"),
        ("tutti_dec_cmp('-2', '1')", "-1"),
    ] {
        assert_eq!(one(&c, &format!("SELECT {sql}")), want, "{sql}");
    }
}

#[test]
fn comparisons_of_computed_decimals_are_numeric() {
    let c = db();
    for (sql, want) in [
        // Text against numbers, as SQLite would compare it, sorts after all of them.
        ("tutti_dec_between(tutti_dec_add('0.1', '0.2'), 0, 1)", "1"),
        (
            "tutti_dec_between(tutti_dec_add('0.1', '0.2'), '0.3', '0.3')",
            "1",
        ),
        ("tutti_dec_between('10.00', '9.5', 10)", "1"),
        ("tutti_dec_between('10.01', '9.5', 10)", "0"),
        // The held digits: 0.333333333 is above 0.3333.
        (
            "tutti_dec_between(tutti_dec_div(1, 3), '0.3333', '0.3333')",
            "0",
        ),
        ("tutti_dec_between(NULL, 1, 2)", "NULL"),
        ("tutti_dec_between('2.5', NULL, 2)", "0"),
        ("tutti_dec_between('0.5', NULL, 2)", "NULL"),
        ("tutti_dec_between('0.5', 0.25e0, 2)", "1"),
        ("tutti_dec_same(NULL, NULL)", "1"),
        ("tutti_dec_same('0.30', NULL)", "0"),
        ("tutti_dec_same(tutti_dec_mul('0.10', 3), '0.3')", "1"),
        ("tutti_dec_same(tutti_dec_div(1, 3), '0.3333')", "1"),
        ("tutti_dec_greatest('1.5', 2)", "2.0"),
        ("tutti_dec_greatest('0.10', 2)", "2.00"),
        ("tutti_dec_least('1.50', 2, '1.2')", "1.20"),
        ("tutti_dec_greatest('9.99', '10.00')", "10.00"),
        ("tutti_dec_least('-9.99', '-10.00')", "-10.00"),
        ("tutti_dec_greatest('1.5', NULL)", "NULL"),
        ("tutti_dec_greatest('1.5', 2e0)", "2.0"),
        (
            "tutti_dec_shown(tutti_dec_greatest(tutti_dec_div(1, 3), '0.3'))",
            "0.3333",
        ),
        (
            "tutti_dec_shown(tutti_dec_mul(tutti_dec_least(tutti_dec_div(1, 3), '0.5'), 3))",
            "1.0000",
        ),
    ] {
        assert_eq!(one(&c, &format!("SELECT {sql}")), want, "{sql}");
    }
}

#[test]
fn casts_rounding_and_stores_follow_mariadb() {
    let c = db();
    for (sql, want) in [
        ("tutti_dec_cast('1.234', 5, 2)", "1.23"),
        ("tutti_dec_cast(1.005, 10, 2)", "1.01"),
        ("tutti_dec_cast(1000, 3, 1)", "99.9"),
        ("tutti_dec_cast(-1000, 3, 1)", "-99.9"),
        ("tutti_dec_cast('abc', 10, 2)", "0.00"),
        ("tutti_dec_round('2.5')", "3"),
        ("tutti_dec_round('-2.5')", "-3"),
        // Places from a column: the argument's scale.
        ("tutti_dec_round('15.1', -1)", "20.0"),
        ("tutti_dec_round('1.555', 1)", "1.600"),
        ("tutti_dec_round('1.234', 10)", "1.234"),
        // Constant places: their scale, at most 38.
        ("tutti_dec_round('15.1', -1, 1)", "20"),
        ("tutti_dec_round('1.005', 2, 1)", "1.01"),
        ("tutti_dec_round('1.5', 3, 1)", "1.500"),
        (
            "tutti_dec_round('1.5', 9223372036854775807, 1)",
            "1.50000000000000000000000000000000000000",
        ),
        ("tutti_dec_round('1.5', -9223372036854775808, 1)", "0"),
        ("tutti_dec_round(2.5e0)", "2.0"),
        ("tutti_dec_truncate('-1.999', 1)", "-1.900"),
        ("tutti_dec_truncate('-1.999', 1, 1)", "-1.9"),
        ("tutti_dec_floor('-1.5')", "-2"),
        ("tutti_dec_ceil('1.01')", "2"),
        ("tutti_dec_ceil('-1.5')", "-1"),
        ("tutti_dec_abs('-1.50')", "1.50"),
        ("tutti_dec_store('1.005', 10, 2, 'd', 1)", "1.01"),
        (
            "tutti_dec_store(12345678901234567.89, 20, 2, 'd', 1)",
            "12345678901234568.00",
        ),
        (
            "tutti_dec_store('12345678901234567.89', 20, 2, 'd', 1)",
            "12345678901234567.89",
        ),
        ("tutti_dec_store(' 7 ', 5, 0, 'd', 1)", "7"),
        ("tutti_dec_store('1e-10000 ', 2, 1, 'd', 1)", "0.0"),
        ("tutti_udec_store('99.99', 4, 2, 'd', 1)", "99.99"),
    ] {
        assert_eq!(one(&c, &format!("SELECT {sql}")), want, "{sql}");
    }
    for (sql, want) in [
        (
            "tutti_dec_store(1000, 5, 2, 'd', 1)",
            "Out of range value for column 'd' at row 1",
        ),
        (
            "tutti_dec_store('abc', 5, 2, '`db`.`t`.`d`', 1)",
            "Incorrect decimal value: 'abc' for column `db`.`t`.`d` at row 1",
        ),
        (
            "tutti_dec_store('1e999999', 5, 2, 'd', 1)",
            "Out of range value for column 'd' at row 1",
        ),
        (
            "tutti_udec_store('-0.001', 4, 2, 'd', 1)",
            "Out of range value for column 'd' at row 1",
        ),
    ] {
        let e = c
            .query_row(&format!("SELECT {sql}"), [], |r| r.get::<_, String>(0))
            .unwrap_err();
        assert!(e.to_string().contains(want), "{sql}: {e}");
    }
}

#[test]
fn a_decimal_column_stores_text_and_compares_by_number() {
    let c = db();
    c.execute_batch(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, d DECIMAL TEXT(20,2) COLLATE tutti_decimal);
         CREATE INDEX td ON t (d);
         INSERT INTO t VALUES (1, tutti_dec_store('9.5', 20, 2, 'd', 1)),
            (2, tutti_dec_store(10, 20, 2, 'd', 1)), (3, tutti_dec_store('-1', 20, 2, 'd', 1)),
            (4, tutti_dec_store('12345678901234567.89', 20, 2, 'd', 1));",
    )
    .unwrap();
    assert_eq!(
        one(
            &c,
            "SELECT group_concat(d, ' ') FROM (SELECT d FROM t ORDER BY d)"
        ),
        "-1.00 9.50 10.00 12345678901234567.89"
    );
    assert_eq!(one(&c, "SELECT id FROM t WHERE d = 9.5"), "1");
    assert_eq!(one(&c, "SELECT id FROM t WHERE d = '10'"), "2");
    assert_eq!(one(&c, "SELECT count(*) FROM t WHERE d > 9.99"), "2");
    assert_eq!(one(&c, "SELECT max(d) FROM t"), "12345678901234567.89");
    assert_eq!(
        one(&c, "SELECT tutti_dec_sum(d) FROM t"),
        "12345678901234586.39"
    );
    assert_eq!(
        one(
            &c,
            "SELECT tutti_dec_shown(tutti_dec_avg(d)) FROM t WHERE id < 4"
        ),
        "6.166667"
    );
    assert_eq!(
        one(&c, "SELECT tutti_dec_sum(d) FROM t WHERE id > 9"),
        "NULL"
    );
    let plan: String = c
        .query_row(
            "EXPLAIN QUERY PLAN SELECT id FROM t WHERE d = 9.5",
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert!(plan.contains("USING COVERING INDEX td"), "{plan}");
}

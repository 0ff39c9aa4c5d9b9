//! Values the SQL front-end marks with the type MariaDB would see (expected values are
//! MariaDB's for the same values so typed: `JSON_ARRAY(1=1, FALSE)`, a JSON column,
//! a DECIMAL(10,2) column).

use super::check;

#[test]
fn marked_values_are_written_by_their_type() {
    check(&[
        (
            "json_array(tutti_json_bool(1=1), tutti_json_bool(0))",
            "[true, false]",
        ),
        ("json_array(tutti_json_bool(NULL))", "[null]"),
        (
            "json_object('a', tutti_json_doc('{\"b\":1}'))",
            "{\"a\": {\"b\":1}}",
        ),
        (
            "json_set('[1]', '$[0]', tutti_json_doc('{\"b\":1}'))",
            "[{\"b\": 1}]",
        ),
        (
            "json_array(tutti_json_number('3.00'), tutti_json_number(NULL))",
            "[3.00, null]",
        ),
        (
            "json_set('[1]', '$[0]', tutti_json_number('9.50'))",
            "[9.50]",
        ),
        ("tutti_json_bool(5)", "5"),
    ]);
}

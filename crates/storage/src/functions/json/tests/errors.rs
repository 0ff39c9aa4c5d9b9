//! Errors MariaDB raises rather than answering NULL.

use super::error;

#[test]
fn wrong_argument_counts_are_errors() {
    for (call, name) in [
        ("json_contains('[1]', '[1]', '$', '$[0]')", "json_contains"),
        ("json_merge('string')", "json_merge"),
        ("json_merge_patch('{}')", "json_merge_patch"),
        ("json_length('{\"a\":\"b\"}','$','$', 'foo')", "json_length"),
        ("json_length()", "json_length"),
        ("json_overlaps('[1]')", "json_overlaps"),
        ("json_object('a')", "json_object"),
        ("json_compact('[1]', 2)", "json_compact"),
        ("json_detailed('[1]', 2, 3)", "json_detailed"),
        ("json_set('{}', '$.a')", "json_set"),
        ("json_remove('[1]')", "json_remove"),
        ("json_search('[1]', 'one')", "json_search"),
        ("json_contains_path('[1]', 'one')", "json_contains_path"),
        ("json_keys('{}', '$', '$')", "json_keys"),
        ("json_extract('[1]')", "json_extract"),
    ] {
        let msg = error(call);
        assert!(
            msg.contains(&format!(
                "Incorrect parameter count in the call to native function '{name}'"
            )),
            "{call}: {msg}"
        );
    }
}

#[test]
fn long_search_escape_is_an_error() {
    let msg = error("json_search('[\"a\"]', 'one', 'a', 'ab')");
    assert!(msg.contains("Incorrect arguments to ESCAPE"), "{msg}");
}

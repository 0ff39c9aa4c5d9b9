//! (expected: MariaDB 10.11).

use super::check;

#[test]
fn insert_set_replace() {
    check(&[
        (
            r#"json_insert('{"a":1, "b":{"c":1}, "d":[1, 2]}', '$.b.k1', 'word')"#,
            r#"{"a": 1, "b": {"c": 1, "k1": "word"}, "d": [1, 2]}"#,
        ),
        (
            r#"json_insert('{"a":1, "b":{"c":1}, "d":[1, 2]}', '$.d[3]', 3)"#,
            r#"{"a": 1, "b": {"c": 1}, "d": [1, 2, 3]}"#,
        ),
        (
            r#"json_insert('{"a":1, "b":{"c":1}, "d":[1, 2]}', '$.a[2]', 2)"#,
            r#"{"a": [1, 2], "b": {"c": 1}, "d": [1, 2]}"#,
        ),
        (
            r#"json_insert('{"a":1, "b":{"c":1}, "d":[1, 2]}', '$.b.c', 'word')"#,
            r#"{"a": 1, "b": {"c": 1}, "d": [1, 2]}"#,
        ),
        (
            r#"json_set('{ "a": 1, "b": [2, 3]}', '$.a', 10, '$.c', '[true, false]')"#,
            r#"{"a": 10, "b": [2, 3], "c": "[true, false]"}"#,
        ),
        (
            r#"json_replace('{ "a": 1, "b": [2, 3]}', '$.a', 10, '$.c', '[true, false]')"#,
            r#"{"a": 10, "b": [2, 3]}"#,
        ),
        (
            r#"json_replace('{ "a": 1, "b": [2, 3]}', '$.a', 10, '$.b', '[true, false]')"#,
            r#"{"a": 10, "b": "[true, false]"}"#,
        ),
        (r#"json_set('1', '$[0]', 100)"#, r#"100"#),
        (r#"json_set('1', '$[0][0]', 100)"#, r#"100"#),
        (r#"json_set('1', '$[1]', 100)"#, r#"[1, 100]"#),
        (r#"json_set('{"a":12}', '$[0]', 100)"#, r#"100"#),
        (r#"json_set('{"a":12}', '$[0].a', 100)"#, r#"{"a": 100}"#),
        (r#"json_set('{"a":12}', '$[0][0].a', 100)"#, r#"{"a": 100}"#),
        (r#"json_set('{"a":12}', '$[0][1].a', 100)"#, r#"{"a": 12}"#),
        (r#"json_insert('1', '$[0]', 4)"#, r#"1"#),
        (r#"json_replace('1', '$[0]', 4)"#, r#"4"#),
        (r#"json_set('1', '$[0]', 4)"#, r#"4"#),
        (r#"json_set('1', '$[1]', 4)"#, r#"[1, 4]"#),
        (r#"json_replace('1', '$[1]', 4)"#, r#"1"#),
        (r#"json_insert('[]', '$[0][0]', 100)"#, r#"[]"#),
        (r#"json_insert('1', '$[0][0]', 100)"#, r#"1"#),
        (r#"json_replace('1', '$[0][0]', 100)"#, r#"100"#),
        (r#"json_replace('[]', '$[0][0]', 100)"#, r#"[]"#),
        (r#"json_set('[]', '$[0][0]', 100)"#, r#"[]"#),
        (r#"json_set('[]', '$[0][0][0]', 100)"#, r#"[]"#),
        (r#"json_set('{}', '$.age', 87)"#, r#"{"age": 87}"#),
        (r#"json_set('{}', '$.a', 'ö')"#, r#"{"a": "ö"}"#),
        (
            r#"json_set('{}', '$.a', 'ö', '$.x', 1, '$.b', 'ö')"#,
            r#"{"a": "ö", "x": 1, "b": "ö"}"#,
        ),
        (r#"json_set('1','$[-1]',5)"#, r#"5"#),
        (r#"json_set('1','$[last]',5)"#, r#"5"#),
        (r#"json_insert('1','$[-1]',5)"#, r#"[1, 5]"#),
        (r#"json_set('[1]','$[-5]',2)"#, r#"[1, 2]"#),
        (r#"json_insert('[1]','$[-5]',2)"#, r#"[1, 2]"#),
        (r#"json_replace('[1,2]','$[-1]',9)"#, r#"[1, 9]"#),
        (r#"json_set('{"a":1}', '$.b.c', 1)"#, r#"{"a": 1}"#),
        (r#"json_set('[1]', '$', 2)"#, r#"2"#),
        (r#"json_insert('[1]','$',2)"#, r#"[1]"#),
        (r#"json_replace('[1]','$',2)"#, r#"2"#),
        (
            r#"json_set('{"a":1,"a":2}','$.a',3)"#,
            r#"{"a": 3, "a": 2}"#,
        ),
        (
            r#"json_insert('{"a\u0062":1}','$.ab',2)"#,
            r#"{"a\u0062": 1}"#,
        ),
        (r#"json_set('{}','$."a\"b"',1)"#, r#"{"a\"b": 1}"#),
        (r#"json_set('{}','$.a\u0062',1)"#, r#"{"a\u0062": 1}"#),
        (r#"json_set('[1] x', '$[0]', 2)"#, r#"NULL"#),
        (r#"json_insert('{} x', '$.a', 1)"#, r#"NULL"#),
        (r#"json_set('[1]', '$[*]', 1)"#, r#"NULL"#),
        (r#"json_insert('[1]', '$**[0]', 1)"#, r#"NULL"#),
        (r#"json_set('[1]', '$[', 1)"#, r#"NULL"#),
        (r#"json_set('[1]', NULL, 1)"#, r#"NULL"#),
        (r#"json_set(NULL, '$[0]', 1)"#, r#"NULL"#),
        (r#"json_set('[1]', '$[0]', NULL)"#, r#"[null]"#),
        (
            r#"json_set('[1]', '$[0]', json_object('a', 1))"#,
            r#"[{"a": 1}]"#,
        ),
        (
            r#"json_set('[1]', '$[0]', '{"a": 1}')"#,
            r#"["{\"a\": 1}"]"#,
        ),
        (
            r#"json_set('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-4]', 100)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, 100, "eleven", [12, [13, 14], {"key1": "value1"}, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_set('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-3]', 100)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, 100, "eleven", [12, [13, 14], {"key1": "value1"}, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_replace('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-1]', 4)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1": "value1"}, [15]], 4], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_set('[[1, {"key1": "value1"}, 3], [false, 5, 6]]', '$[0][1 to 2].key1', 1)"#,
            r#"NULL"#,
        ),
        (
            r#"json_replace(json_detailed('["x"]'), '$.a', 'xx')"#,
            r#"["x"]"#,
        ),
        (
            r#"json_insert(json_object('k1', 'v1', 'k2', 'v2'), '$.k3', 'v3')"#,
            r#"{"k1": "v1", "k2": "v2", "k3": "v3"}"#,
        ),
        (
            r#"json_set(json_object('k1', 'v1', 'k2', 'v2'), '$.k2', 'new v2')"#,
            r#"{"k1": "v1", "k2": "new v2"}"#,
        ),
        (r#"json_set('{"c":4}', '$.a', 5)"#, r#"{"c": 4, "a": 5}"#),
        (
            r#"json_set('{ "a" : [ 1 , {"b":2} ] }', '$.a[1].b', 3)"#,
            r#"{"a": [1, {"b": 3}]}"#,
        ),
    ]);
}

#[test]
fn remove_deletes_the_first_match() {
    check(&[
        (
            r#"json_remove('["a", ["b", "c"], "d"]', '$[0]')"#,
            r#"[["b", "c"], "d"]"#,
        ),
        (
            r#"json_remove('["a", ["b", "c"], "d"]', '$[1]')"#,
            r#"["a", "d"]"#,
        ),
        (
            r#"json_remove('["a", ["b", "c"], "d"]', '$[2]')"#,
            r#"["a", ["b", "c"]]"#,
        ),
        (
            r#"json_remove('{"a": 1, "b": [2, 3]}', '$.b')"#,
            r#"{"a": 1}"#,
        ),
        (
            r#"json_remove('{"a": 1, "b": [2, 3]}', '$.a')"#,
            r#"{"b": [2, 3]}"#,
        ),
        (
            r#"json_remove('{"a":1,"b":2,"c":3}', '$.c')"#,
            r#"{"a": 1, "b": 2}"#,
        ),
        (
            r#"json_remove('{"A": { "B": 1 }}', '$.A.B.C.D')"#,
            r#"{"A": {"B": 1}}"#,
        ),
        (r#"json_remove('[1]', '$')"#, r#"NULL"#),
        (r#"json_remove('[1]', '$[*]')"#, r#"NULL"#),
        (r#"json_remove('{"a":1,"a":2}','$.a')"#, r#"{"a": 2}"#),
        (r#"json_remove('[1,2,3]','$[-1]')"#, r#"[1, 2]"#),
        (r#"json_remove('[1,2,3]','$[last-5]')"#, r#"[1, 2, 3]"#),
        (r#"json_remove('1','$[0]')"#, r#"1"#),
        (r#"json_remove('{"a":1}','$[0].a')"#, r#"{}"#),
        (r#"json_remove('[[1,2]]','$[0][0]', '$[0][0]')"#, r#"[[]]"#),
        (r#"json_remove('[1]', NULL)"#, r#"NULL"#),
        (r#"json_remove('[1]','$[0]','$[9]')"#, r#"[]"#),
        (r#"json_remove('[1,2] x', '$[0]')"#, r#"NULL"#),
        (
            r#"json_remove('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-10]')"#,
            r#"{"A": [[1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1": "value1"}, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_remove('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-9]')"#,
            r#"{"A": [[1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1": "value1"}, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_remove('[[1, 2, 3], [false, 5, 6]]', '$[1][-6 to last-2]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_remove('{"a\u0062":1,"x":2}', '$.ab')"#,
            r#"{"x": 2}"#,
        ),
        (r#"json_remove(46, NULL)"#, r#"NULL"#),
    ]);
}

#[test]
fn array_append_and_insert() {
    check(&[
        (
            r#"json_array_append('["a", "b"]', '$', 'c')"#,
            r#"["a", "b", "c"]"#,
        ),
        (
            r#"json_array_append('{"k1":1, "k2":["a", "b"]}', '$.k2', 2)"#,
            r#"{"k1": 1, "k2": ["a", "b", 2]}"#,
        ),
        (
            r#"json_array_append('["a", ["b", "c"], "d"]', '$[0]', 2)"#,
            r#"[["a", 2], ["b", "c"], "d"]"#,
        ),
        (
            r#"json_array_append('[             ]', '$', 'aue')"#,
            r#"["aue"]"#,
        ),
        (r#"json_array_append('1','$',2)"#, r#"[1, 2]"#),
        (r#"json_array_append('{"a":1}','$',2)"#, r#"[{"a": 1}, 2]"#),
        (r#"json_array_append('[1]','$[5]',2)"#, r#"NULL"#),
        (
            r#"json_array_append('{"a":[1]}','$.a',2,'$.a',3)"#,
            r#"{"a": [1, 2, 3]}"#,
        ),
        (
            r#"json_array_append('[1]','$',json_array(2))"#,
            r#"[1, [2]]"#,
        ),
        (r#"json_array_append('[1]','$','[2]')"#, r#"[1, "[2]"]"#),
        (r#"json_array_append('[1]','$',NULL)"#, r#"[1, null]"#),
        (r#"json_array_append('[1] x', '$', 2)"#, r#"NULL"#),
        (r#"json_array_append('[1]', '$[*]', 1)"#, r#"NULL"#),
        (r#"json_array_append('[1', '$', 1)"#, r#"NULL"#),
        (
            r#"json_array_append('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-2][-1]', 5)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1": "value1"}, [15, 5]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_array_append('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-1][last]', 5)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1": "value1"}, [15, 5]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_array_append(json_array('k1', 'v1', 'k2', 'v2'), '$[0]', 'k3')"#,
            r#"[["k1", "k3"], "v1", "k2", "v2"]"#,
        ),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[1]', 'x')"#,
            r#"["a", "x", {"b": [1, 2]}, [3, 4]]"#,
        ),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[2]', 'x')"#,
            r#"["a", {"b": [1, 2]}, "x", [3, 4]]"#,
        ),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[3]', 'x')"#,
            r#"["a", {"b": [1, 2]}, [3, 4], "x"]"#,
        ),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[4]', 'x')"#,
            r#"["a", {"b": [1, 2]}, [3, 4], "x"]"#,
        ),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[1].b[0]', 'x')"#,
            r#"["a", {"b": ["x", 1, 2]}, [3, 4]]"#,
        ),
        (r#"json_array_insert('true', '$', 1)"#, r#"NULL"#),
        (
            r#"json_array_insert('["a", {"b": [1, 2]}, [3, 4]]', '$[2][1]', 'y')"#,
            r#"["a", {"b": [1, 2]}, [3, "y", 4]]"#,
        ),
        (r#"json_array_insert('[1,2]','$[-1]',9)"#, r#"[1, 2, 9]"#),
        (r#"json_array_insert('[1,2]','$[last]',9)"#, r#"[1, 2, 9]"#),
        (r#"json_array_insert('[1,2]','$[-9]',9)"#, r#"[1, 2, 9]"#),
        (r#"json_array_insert('[1,2]','$[9]',9)"#, r#"[1, 2, 9]"#),
        (r#"json_array_insert('{"a":1}','$.a[0]',9)"#, r#"{"a": 1}"#),
        (r#"json_array_insert('[1]','$[0].a',9)"#, r#"NULL"#),
        (
            r#"json_array_insert('[[1]]','$[0][0]',9,'$[0][0]',8)"#,
            r#"[[8, 9, 1]]"#,
        ),
        (r#"json_array_insert('[1]', '$[*]', 1)"#, r#"NULL"#),
        (r#"json_array_insert(0, NULL, 1)"#, r#"NULL"#),
        (r#"json_array_insert('[1]', '$.[0]', '0')"#, r#"NULL"#),
        (
            r#"json_array_insert('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-2][-2]', 5)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1": "value1"}, 5, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_array_insert('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-1][last-1]', 5)"#,
            r#"{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1": "value1"}, 5, [15]], true], "B": {"C": 1}, "D": 2}"#,
        ),
        (
            r#"json_array_insert(json_array('k1', 'v1', 'k2', 'v2'), '$[0]', 'k3')"#,
            r#"["k3", "k1", "v1", "k2", "v2"]"#,
        ),
        (
            r#"json_equals('[]', json_array_insert(NULL,'$[0]',1))"#,
            r#"NULL"#,
        ),
    ]);
}

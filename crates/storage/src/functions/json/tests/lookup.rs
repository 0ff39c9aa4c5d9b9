//! OVERLAPS (expected: MariaDB 10.11).

use super::check;

#[test]
fn paths_in_extract() {
    check(&[
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$')"#,
            r#"[{"a": 1, "b": [2, {"b": 3}]}, {"a b": 4, "c": 5}, 6]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[0]')"#,
            r#"{"a": 1, "b": [2, {"b": 3}]}"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[*]')"#,
            r#"[{"a": 1, "b": [2, {"b": 3}]}, {"a b": 4, "c": 5}, 6]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$.*')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$**.b')"#,
            r#"[[2, {"b": 3}], 3]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$**[0]')"#,
            r#"[{"a": 1, "b": [2, {"b": 3}]}, 1, [2, {"b": 3}], 2, {"b": 3}, 3, {"a b": 4, "c": 5}, 4, 5, 6]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[last]')"#,
            r#"6"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[last-1]')"#,
            r#"{"a b": 4, "c": 5}"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[-1]')"#,
            r#"6"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[0 to 1]')"#,
            r#"[{"a": 1, "b": [2, {"b": 3}]}, {"a b": 4, "c": 5}]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[last-1 to last]')"#,
            r#"[{"a b": 4, "c": 5}, 6]"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[1 to 0]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[0].a')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$[*][*]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('[{"a":1,"b":[2,{"b":3}]},{"a b":4, "c":5}, 6]', '$.*.*')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$."a"')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.*')"#,
            r#"[1, [2, {"b": 3}], 4]"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', 'lax $.a')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', 'lax  lax $.a')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', 'strict $.a')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', ' $ . a')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a b')"#,
            r#"4"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$a')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a[0]')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a[0][0]')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$**')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a .b')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$."a b"')"#,
            r#"4"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.b[last].b')"#,
            r#"3"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.b[0 to last]')"#,
            r#"[2, {"b": 3}]"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.b[0 to 5]')"#,
            r#"[2, {"b": 3}]"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.b[-2]')"#,
            r#"2"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.b[-3]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$[0][0].a')"#,
            r#"1"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$[1]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"a":1,"b":[2,{"b":3}], "a b":4}', '$.a.')"#,
            r#"NULL"#,
        ),
    ]);
}

#[test]
fn array_steps_in_extract() {
    check(&[
        (r#"json_extract('[0,1,2,3]', '$[ 1 ]')"#, r#"1"#),
        (r#"json_extract('[0,1,2,3]', '$[ last ]')"#, r#"3"#),
        (r#"json_extract('[0,1,2,3]', '$[last -1]')"#, r#"2"#),
        (r#"json_extract('[0,1,2,3]', '$[last- 1]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[1to2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[1 to2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[-1 to -0]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[ -1]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[LAST]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[0] ')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', ' $[0]')"#, r#"0"#),
        (r#"json_extract('[0,1,2,3]', 'lax$[0]')"#, r#"NULL"#),
        (
            r#"json_extract('[0,1,2,3]', '$[-0 to last]')"#,
            r#"[0, 1, 2, 3]"#,
        ),
        (r#"json_extract('[0,1,2,3]', '$[ * ]')"#, r#"[0, 1, 2, 3]"#),
        (r#"json_extract('[0,1,2,3]', '$[1,2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[+1]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[99999999999]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[2147483648]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[4294967297]')"#, r#"1"#),
        (r#"json_extract('[0,1,2,3]', '$[last-4294967297]')"#, r#"2"#),
        (r#"json_extract('[0,1,2,3]', '$[1 to  2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[1  to 2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[1 to -1]')"#, r#"[1, 2, 3]"#),
        (
            r#"json_extract('[0,1,2,3]', '$[1 to last -1]')"#,
            r#"[1, 2]"#,
        ),
        (r#"json_extract('[0,1,2,3]', '$[ 1 to 2 ]')"#, r#"[1, 2]"#),
        (r#"json_extract('[0,1,2,3]', '$[last-01]')"#, r#"2"#),
        (r#"json_extract('[0,1,2,3]', '$[-01]')"#, r#"3"#),
        (r#"json_extract('[0,1,2,3]', '$[lastx]')"#, r#"NULL"#),
        (
            r#"json_extract('[0,1,2,3]', '$[* to 1]')"#,
            r#"[0, 1, 2, 3]"#,
        ),
        (r#"json_extract('[0,1,2,3]', '$[-1 to 2]')"#, r#"NULL"#),
        (r#"json_extract('[0,1,2,3]', '$[-5 to 1]')"#, r#"[0, 1]"#),
        (r#"json_extract('[0,1,2,3]', '$[0 to last-9]')"#, r#"NULL"#),
        (
            r#"json_extract('[0,1,2,3]', '$[last-9 to 1]')"#,
            r#"[0, 1]"#,
        ),
        (r#"json_extract('[0,1,2,3]', '$[ ]')"#, r#"0"#),
        (r#"json_extract('[0,1,2,3]', '$[1 to]')"#, r#"NULL"#),
        (
            r#"json_extract('[0,1,2,3]', '$[0 to-1]')"#,
            r#"[0, 1, 2, 3]"#,
        ),
        (r#"json_extract('[0,1,2,3]', '$[00]')"#, r#"NULL"#),
    ]);
}

#[test]
fn keys_in_paths() {
    check(&[
        (r#"json_extract('{ "my-key": 1 }', '$."my-key"')"#, r#"1"#),
        (r#"json_extract('{ "my-key": 1 }', '$.my-key')"#, r#"1"#),
        (r#"json_extract('{ "-k": 1 }', '$.-k')"#, r#"NULL"#),
        (r#"json_extract('{"a\"b":1}', '$.a\"b')"#, r#"1"#),
        (r#"json_extract('{"a\"b":1}', '$."a\"b"')"#, r#"1"#),
        (r#"json_extract('{"ab":1}', '$.a\u0062')"#, r#"NULL"#),
        (r#"json_extract('{"a\u0062":1}', '$.ab')"#, r#"NULL"#),
        (r#"json_value('{"a\u0062":1}', '$.ab')"#, r#"1"#),
        (r#"json_value('{"ab":1}', '$."a\u0062"')"#, r#"1"#),
        (r#"json_value('{"\"key1":123}', '$."\"key1"')"#, r#"123"#),
        (
            r#"json_value('{"\"key1\"":123}', '$."\"key1\""')"#,
            r#"123"#,
        ),
        (r#"json_value('{"key 1":123}', '$."key 1"')"#, r#"123"#),
        (
            r#"json_extract('{"\u00e4\u00f6":"yes"}', '$."\u00e4\u00f6"')"#,
            r#""yes""#,
        ),
        (
            r#"json_extract('{"\u00e4":"yes"}', '$."\u00e4"')"#,
            r#""yes""#,
        ),
        (r#"json_extract('{"":1}', '$.""')"#, r#"1"#),
    ]);
}

#[test]
fn extract_values_in_document_order() {
    check(&[
        (
            r#"json_extract('{"key1":"asd", "key2":[2,3]}', '$.key1')"#,
            r#""asd""#,
        ),
        (
            r#"json_extract('{"key1":"asd", "key2":[2,3]}', '$.keyX', '$.keyY')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"key1":"asd", "key2":[2,3]}', '$.key1', '$.key2')"#,
            r#"["asd", [2, 3]]"#,
        ),
        (
            r#"json_extract('{"key1":5, "key2":[2,3]}', '$.key2', '$.key1')"#,
            r#"[5, [2, 3]]"#,
        ),
        (
            r#"json_extract('{"key0":true, "key1":"qwe"}', '$.key1')"#,
            r#""qwe""#,
        ),
        (
            r#"json_extract(json_object('foo', 'foobar'),'$')"#,
            r#"{"foo": "foobar"}"#,
        ),
        (
            r#"json_extract('[10, 20, [30, 40]]', '$[2][*]')"#,
            r#"[30, 40]"#,
        ),
        (
            r#"json_extract('[10, 20, [{"a":3}, 30, 40]]', '$[2][*]')"#,
            r#"[{"a": 3}, 30, 40]"#,
        ),
        (r#"json_extract('1', '$')"#, r#"1"#),
        (
            r#"json_extract('[10, 20, [30, 40], 1, 10]', '$[1]')"#,
            r#"20"#,
        ),
        (
            r#"json_extract('[10, 20, [30, 40], 1, 10]', '$[1]', '$[25]')"#,
            r#"[20]"#,
        ),
        (
            r#"json_extract( '[{"a": [3, 4]}, {"b": 2}]', '$[0].a', '$[1].a')"#,
            r#"[[3, 4]]"#,
        ),
        (r#"json_extract('[1]', '$[0][0]')"#, r#"1"#),
        (r#"json_extract('[1]', '$[1][0]')"#, r#"NULL"#),
        (r#"json_extract('[1]', '$**[0]')"#, r#"[1]"#),
        (r#"json_extract('[1]', '$**[0][0]')"#, r#"[1]"#),
        (r#"json_extract('{"foo":"bar"}', '$[*].*')"#, r#"NULL"#),
        (r#"json_extract('{"foo":"bar"}', '$[*]')"#, r#"NULL"#),
        (
            r#"json_extract('{"input1":"\u00f6"}', '$."input1"')"#,
            r#""\u00f6""#,
        ),
        (
            r#"json_extract('{"foo": "bar" foobar foo invalid ', '$.foo')"#,
            r#"NULL"#,
        ),
        (
            r#"json_extract('{"test":8.437e-5}','$.test')"#,
            r#"8.437e-5"#,
        ),
        (
            r#"json_extract('{"a":null, "b":10, "c":"null"}', '$.a')"#,
            r#"null"#,
        ),
        (
            r#"json_extract('[1, 2, [30, 40]]', '$[2][1]', '$[2][1]')"#,
            r#"[40, 40]"#,
        ),
        (r#"json_extract('{"a":1,"a":2}', '$.a')"#, r#"1"#),
        (r#"json_extract('{"a":1,"a":2}', '$.*')"#, r#"[1, 2]"#),
        (
            r#"json_extract('{"a":1,"a":2}', '$.a', '$.a')"#,
            r#"[1, 1, 2, 2]"#,
        ),
        (r#"json_extract('1', '$[last]')"#, r#"NULL"#),
        (r#"json_extract('1', '$[0 to 1]')"#, r#"[1]"#),
        (r#"json_extract('{"x":{"a":1}}', '$**.a')"#, r#"[1]"#),
        (r#"json_extract('[1', '$[0]')"#, r#"NULL"#),
        (r#"json_extract('[1]', NULL)"#, r#"NULL"#),
        (r#"json_extract(NULL, '$')"#, r#"NULL"#),
        (r#"json_extract('0E+0','$')"#, r#"0E+0"#),
        (r#"json_extract('{a:true}','$.a')"#, r#"NULL"#),
        (
            r#"json_extract('{"a": [ 1 ,2 ] , "b" : {"c":"d"} }', '$')"#,
            r#"{"a": [1, 2], "b": {"c": "d"}}"#,
        ),
        (
            r#"json_extract('[[1,2],[3,[4,5]]]', '$[1][1][last]', '$[0][0]')"#,
            r#"[1, 5]"#,
        ),
        (
            r#"json_extract('[{"key1": 1, "key2": 1}, {"key3": 1, "key4": 1}]', '$[0 to 1]')"#,
            r#"[{"key1": 1, "key2": 1}, {"key3": 1, "key4": 1}]"#,
        ),
        (
            r#"json_extract('[1, [2], [[3]], [[[4]]]]', '$**[0]')"#,
            r#"[1, 2, [3], 3, [[4]], [4], 4]"#,
        ),
    ]);
}

#[test]
fn extract_negative_and_ranges() {
    check(&[
        (
            r#"json_extract('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-8][1]')"#,
            r#"5"#,
        ),
        (
            r#"json_extract('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-7][1]')"#,
            r#"5"#,
        ),
        (
            r#"json_extract('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[0 to 3][2]')"#,
            r#"[3, 6, [9, {"key2": 2}, 11], [14]]"#,
        ),
        (
            r#"json_extract('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[3][3][last-1 to last]')"#,
            r#"["string1", [16, {"key1": [1, 2, 3, [4, 5, 6]]}, 18]]"#,
        ),
        (
            r#"json_extract('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[3][3][-2 to -1]')"#,
            r#"["string1", [16, {"key1": [1, 2, 3, [4, 5, 6]]}, 18]]"#,
        ),
        (r#"json_extract('[ 11, 22 , 33]', '$[0 to 0]')"#, r#"[11]"#),
        (r#"json_extract('[ 11, 22 , 33]', '$[0 to -0]')"#, r#"[11]"#),
        (r#"json_extract('[ 11, 22 , 33]', '$[-0 to 0]')"#, r#"[11]"#),
        (
            r#"json_extract('[ 11, 22 , 33]', '$[-0 to -0]')"#,
            r#"[11]"#,
        ),
    ]);
}

#[test]
fn value_returns_first_scalar() {
    check(&[
        (r#"json_value('{"key1":123}', '$.key2')"#, r#"NULL"#),
        (r#"json_value('{"key1":123}', '$.key1')"#, r#"123"#),
        (r#"json_value('{"key1":[1,2,3]}', '$.key1')"#, r#"NULL"#),
        (
            r#"json_value('{"key1": [1,2,3], "key1":123}', '$.key1')"#,
            r#"123"#,
        ),
        (
            r#"json_value('{ "x": [0,1], "y": "[0,1]", "z": "Mon\"t\"y" }','$.z')"#,
            r#"Mon"t"y"#,
        ),
        (
            r#"json_value('[true, false, null, "a\nb", 1.50, "\u00e9"]', '$[0]')"#,
            r#"1"#,
        ),
        (r#"json_value('[true, false, null]', '$[1]')"#, r#"0"#),
        (r#"json_value('[true, false, null]', '$[2]')"#, r#"NULL"#),
        (r#"json_value('[1.50]', '$[0]')"#, r#"1.50"#),
        (r#"json_value('["\u00e9"]', '$[0]')"#, r#"é"#),
        (r#"json_value('{"a":null,"a":2}', '$.a')"#, r#"NULL"#),
        (r#"json_value('1', '$')"#, r#"1"#),
        (r#"json_value('[1]', '$')"#, r#"NULL"#),
        (r#"json_value(NULL, '$')"#, r#"NULL"#),
        (r#"json_value('1', NULL)"#, r#"NULL"#),
        (r#"json_value('"x" y', '$')"#, r#"x"#),
        (r#"json_value('[1,2', '$[0]')"#, r#"1"#),
        (r#"json_value('{"a":1, garbage', '$.a')"#, r#"1"#),
        (r#"json_value('[1]', '$[*]')"#, r#"NULL"#),
        (r#"json_value('[1]', '$[')"#, r#"NULL"#),
        (r#"json_value('1','$[last]')"#, r#"NULL"#),
        (r#"json_value('1','$[0]')"#, r#"1"#),
        (r#"json_value('{"a":1}','$[0].a')"#, r#"1"#),
        (r#"json_value('[1]','$[0][0]')"#, r#"1"#),
        (r#"json_value('[1,2]','$[-1]')"#, r#"2"#),
        (r#"json_value('[1,2]','$[-3]')"#, r#"NULL"#),
        (r#"json_value('{"a":{"x":1},"a":{"b":2}}','$.a.b')"#, r#"2"#),
        (r#"json_value('{ "A": [0,] }', '$.A[-1]')"#, r#"NULL"#),
        (r#"json_value('{ "A": [5,] }', '$.A[-2]')"#, r#"NULL"#),
        (r#"json_value('{ "A": [5] }', '$.A[-2]')"#, r#"NULL"#),
        (r#"json_value('{ "x": [0,1]}','$.x[last]')"#, r#"1"#),
        (r#"json_value('{ "x": [0,1]}','$.x[last-0]')"#, r#"1"#),
        (r#"json_value('{ "x": [0,1]}','$.x[-0]')"#, r#"0"#),
        (r#"json_value(' {"number": 0E-4}', '$.number')"#, r#"0E-4"#),
        (
            r#"json_value('{"nulltest": null}', '$.nulltest')"#,
            r#"NULL"#,
        ),
        (
            r#"json_value('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":123},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-2][-2].key1')"#,
            r#"123"#,
        ),
        (
            r#"json_value('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":123},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[last-1][last-1].key1')"#,
            r#"123"#,
        ),
        (
            r#"json_value('{ "A": [ [{"k":"v"},[1]],true],"B": {"C": 1} }','$.A[last-1][last-1].key1')"#,
            r#"NULL"#,
        ),
        (r#"json_value(json_object('a', ''), '$.a')"#, r#""#),
    ]);
}

#[test]
fn query_returns_first_container_as_written() {
    check(&[
        (
            r#"json_query('{"key1":{"a":1, "b":[1,2]}}', '$.key2')"#,
            r#"NULL"#,
        ),
        (
            r#"json_query('{"key1":{"a":1, "b":[1,2]}}', '$.key1')"#,
            r#"{"a":1, "b":[1,2]}"#,
        ),
        (r#"json_query('{"key1": 1}', '$.key1')"#, r#"NULL"#),
        (
            r#"json_query('{"key1":123, "key1": [1,2,3]}', '$.key1')"#,
            r#"[1,2,3]"#,
        ),
        (
            r#"json_query('{"key1":123, "key1": [1,2,3]}', concat('$', repeat('.k', 1000)))"#,
            r#"NULL"#,
        ),
        (r#"json_query('[[1]]', '$[*]')"#, r#"[1]"#),
        (r#"json_query('[{"a":[1]}]', '$**.a')"#, r#"NULL"#),
        (r#"json_query('{"a":{"a":[1]}}','$**.a')"#, r#"{"a":[1]}"#),
        (r#"json_query('[[1],[2,[3]]]','$**[1]')"#, r#"[2,[3]]"#),
        (r#"json_query('[[1],{"a":[5]}]','$[*].a')"#, r#"[5]"#),
        (
            r#"json_query('[[1],{"a":[5]}]','$[1 to 3]')"#,
            r#"{"a":[5]}"#,
        ),
        (r#"json_query('[1,{"a":[5]}]','$[*]')"#, r#"{"a":[5]}"#),
        (r#"json_query('{"b":1,"a":[5]}','$.*')"#, r#"[5]"#),
        (r#"json_query('[1,[2]]','$[last-1 to last]')"#, r#"[2]"#),
        (r#"json_query(' [1, 2] ', '$')"#, r#"[1, 2]"#),
        (r#"json_query('{"a":null,"a":[1]}', '$.a')"#, r#"NULL"#),
        (r#"json_query('[[1] x', '$[0]')"#, r#"[1]"#),
        (r#"json_query('[[1 x', '$[0]')"#, r#"NULL"#),
        (r#"json_query('{"a" : [ 1 , 2 ] }', '$.a')"#, r#"[ 1 , 2 ]"#),
        (r#"json_query('{ "A": [0,] }', '$.A[-1]')"#, r#"NULL"#),
        (
            r#"json_query('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-8]')"#,
            r#"[4, 5, 6]"#,
        ),
        (
            r#"json_query('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, [13, 14], {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '$.A[-2][-3 to -1]')"#,
            r#"[13, 14]"#,
        ),
        (r#"json_query('[0,[1],[2],[3]]', '$[-2 to 1]')"#, r#"[2]"#),
        (r#"json_query('[0,[1],[2],[3]]', '$[1 to -1]')"#, r#"NULL"#),
    ]);
}

#[test]
fn exists_stops_at_the_match() {
    check(&[
        (
            r#"json_exists('{"key1":"xxxx", "key2":[1, 2, 3]}', '$.key2')"#,
            r#"1"#,
        ),
        (
            r#"json_exists('{"key1":"xxxx", "key2":[1, 2, 3]}', '$.key2[1]')"#,
            r#"1"#,
        ),
        (
            r#"json_exists('{"key1":"xxxx", "key2":[1, 2, 3]}', '$.key2[10]')"#,
            r#"0"#,
        ),
        (r#"json_exists('[1]', '$[*]')"#, r#"1"#),
        (r#"json_exists('[1]', '$[')"#, r#"NULL"#),
        (r#"json_exists('[1]', NULL)"#, r#"NULL"#),
        (r#"json_exists('x', '$')"#, r#"1"#),
        (r#"json_exists('', '$')"#, r#"1"#),
        (r#"json_exists('{"a": x}', '$.a')"#, r#"1"#),
        (r#"json_exists('{"a": x}', '$.a.b')"#, r#"NULL"#),
        (r#"json_exists('[1, x', '$[1]')"#, r#"1"#),
        (r#"json_exists('[x]', '$[0]')"#, r#"NULL"#),
        (r#"json_exists('x', '$[0]')"#, r#"NULL"#),
        (r#"json_exists('{"x":{"a":1}}', '$**.a')"#, r#"0"#),
        (r#"json_exists('{"a":[1]}', '$**[0]')"#, r#"0"#),
        (r#"json_exists('{"a":[1]}','$.a[last]')"#, r#"1"#),
        (r#"json_exists('1','$[0][0]')"#, r#"1"#),
        (r#"json_exists('1','$[1]')"#, r#"0"#),
        (
            r#"json_exists(concat('[', repeat('[', 4000), 'Y', repeat(']', 4000), ', 1]'), '$[100]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_exists('[[[[[Y[[[[n[[[[[[[[[[[n[[[Vn]]]]]]]]]]]]]],]]:]]]](', '$[0 to rrrrrRR-1]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_exists('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[3][3][-2 to last]')"#,
            r#"1"#,
        ),
        (
            r#"json_exists('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[2][2][1 to 2]')"#,
            r#"1"#,
        ),
        (
            r#"json_exists('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', '$[2][2][4 to 6]')"#,
            r#"0"#,
        ),
    ]);
}

#[test]
fn contains_path_modes() {
    check(&[
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'oNE', '$.key2[1]')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'oNE', '$.key2[10]')"#,
            r#"0"#,
        ),
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'oNE', '$.ma')"#,
            r#"0"#,
        ),
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'one', '$.key1', '$.ma')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'aLl', '$.key1', '$.ma')"#,
            r#"0"#,
        ),
        (
            r#"json_contains_path('{"key1":1, "key2":[2,3]}', 'aLl', '$.key1', '$.key2')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{ "a": true }', NULL, '$.a' )"#,
            r#"NULL"#,
        ),
        (
            r#"json_contains_path('{ "a": true }', 'all', NULL )"#,
            r#"NULL"#,
        ),
        (
            r#"json_contains_path('{"a":{"b":"c"}}', 'one', '$.a.*')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{"a":[{"c":[1,{"a":[0,1,2]},3]}], "b":[1,2,3]}', 'one', '$**.a[2]')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{"a":[{"c":[1,{"a":[0,1,2]},3]}], "b":[1,2,3]}', 'one', '$**.a[3]')"#,
            r#"0"#,
        ),
        (
            r#"json_contains_path('{"foo":"bar"}', 'one', '$[]')"#,
            r#"NULL"#,
        ),
        (r#"json_contains_path('[1]', 'xx', '$[0]')"#, r#"NULL"#),
        (
            r#"json_contains_path('{"a":1, garbage', 'one', '$.a')"#,
            r#"NULL"#,
        ),
        (
            r#"json_contains_path('{"A": 1, "B": [2], "C": [3, 4]}', 'one', '$.A', '$.D')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]','one', '$[3][0 to 3]')"#,
            r#"1"#,
        ),
        (
            r#"json_contains_path('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', 'one', '$.A[-2]')"#,
            r#"1"#,
        ),
        (r#"json_contains_path('{"a":5}', 'one', '$.a[0]')"#, r#"1"#),
        (r#"json_contains_path('{"a":[]}', 'one', '$.a[0]')"#, r#"0"#),
    ]);
}

#[test]
fn search_matches_like_patterns() {
    check(&[
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'one', 'abc')"#,
            r#""$[0]""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', 'abc')"#,
            r#"["$[0]", "$[2].x"]"#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', 'abc', NULL, '$[2]')"#,
            r#""$[2].x""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', 'abc', NULL, '$')"#,
            r#"["$[0]", "$[2].x"]"#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', '10', NULL, '$')"#,
            r#""$[1][0].k""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', '10', NULL, '$[*]')"#,
            r#""$[1][0].k""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', '10', NULL, '$[*][0].k')"#,
            r#""$[1][0].k""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', '10', NULL, '$**.k')"#,
            r#""$[1][0].k""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', 'abc', NULL, '$[-2]')"#,
            r#""$[2].x""#,
        ),
        (
            r#"json_search('["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]', 'all', 'abc', NULL, '$[last-1]')"#,
            r#""$[2].x""#,
        ),
        (r#"json_search('{"": "a"}', 'one', 'a')"#, r#""$.""#),
        (r#"json_search('{"x": "\""}', 'one', '"')"#, r#""$.x""#),
        (r#"json_search('{"x": "\""}', 'one', '\"')"#, r#""$.x""#),
        (
            r#"json_search('{"foo":"bar"}', 'all' , 'bar', '%', '$')"#,
            r#""$.foo""#,
        ),
        (
            r#"json_search('["A", [{"B": "1"}], {"C": "AB"}, {"D": "BC"}]', 'one', 'AB')"#,
            r#""$[2].C""#,
        ),
        (
            r#"json_search('[1, true, null, "ABC", "a\"b", 1.50]', 'all', '1')"#,
            r#""$[0]""#,
        ),
        (
            r#"json_search('[1, true, null, "ABC"]', 'all', 'true')"#,
            r#""$[1]""#,
        ),
        (
            r#"json_search('[1, true, null, "ABC"]', 'all', 'null')"#,
            r#""$[2]""#,
        ),
        (
            r#"json_search('[1, true, null, "ABC"]', 'all', 'abc')"#,
            r#""$[3]""#,
        ),
        (
            r#"json_search('[1, true, null, "ABC", "a\"b"]', 'all', 'a"b')"#,
            r#""$[4]""#,
        ),
        (r#"json_search('["a\u0041"]', 'all', 'aA')"#, r#""$[0]""#),
        (r#"json_search('["a\u0041"]', 'all', 'a\u0041')"#, r#"NULL"#),
        (
            r#"json_search('["a%b", "axb"]', 'all', 'a|%b', '|')"#,
            r#""$[0]""#,
        ),
        (
            r#"json_search('["a%b", "axb"]', 'all', 'a\%b')"#,
            r#""$[0]""#,
        ),
        (
            r#"json_search('["a%b", "axb"]', 'all', 'a\%b', NULL)"#,
            r#""$[0]""#,
        ),
        (
            r#"json_search('["a%b", "axb"]', 'all', 'a%')"#,
            r#"["$[0]", "$[1]"]"#,
        ),
        (r#"json_search('["ab", "axb"]', 'all', 'a_b')"#, r#""$[1]""#),
        (
            r#"json_search('{"a b":"x", "c":{"d.e":"x"}, "\"":"x"}', 'all', 'x')"#,
            r#"["$.a b", "$.c.d.e", "$.\""]"#,
        ),
        (r#"json_search('["é"]', 'all', 'E')"#, r#""$[0]""#),
        (r#"json_search('["x"]', 'ONE', 'x')"#, r#""$[0]""#),
        (r#"json_search('["x"]', NULL, 'x')"#, r#"NULL"#),
        (r#"json_search(NULL, 'one', 'x')"#, r#"NULL"#),
        (r#"json_search('["x"]', 'one', NULL)"#, r#"NULL"#),
        (r#"json_search('["x"]', 'one', 'x', NULL, NULL)"#, r#"NULL"#),
        (
            r#"json_search('["x",["x"]]', 'all', 'x', NULL, '$[1]', '$[0]')"#,
            r#"["$[0]", "$[1][0]"]"#,
        ),
        (r#"json_search('x', 'all', 'x')"#, r#"NULL"#),
        (r#"json_search('"x"', 'all', 'x')"#, r#""$""#),
        (r#"json_search('["x"]', 'one', '%')"#, r#""$[0]""#),
        (
            r#"json_search('["x", {"a":"x"}]', 'all', 'x', NULL, '$**.a')"#,
            r#""$[1].a""#,
        ),
        (r#"json_search('["a", x', 'one', 'a')"#, r#""$[0]""#),
        (r#"json_search('["a", x', 'all', 'a')"#, r#"NULL"#),
        (
            r#"json_search('[{"k":"12"}, [12, "12"], {"a":[1,2,"12"]}]', 'one', '12', NULL, '$[1 to 2]')"#,
            r#""$[1][0]""#,
        ),
        (
            r#"json_search('[[1, {"key1": "value1"}, 3], [false, 5, 6], [7, 8, [9, {"key2": 2}, 11]], [15, 1.34, [14], ["string1", [16, {"key1":[1,2,3,[4,5,6]]}, 18]]], [19, 20], 21, 22]', 'one', '12', NULL, '$[3][0 to 3]')"#,
            r#"NULL"#,
        ),
    ]);
}

#[test]
fn contains_compares_values() {
    check(&[
        (
            r#"json_contains('{"k1":123, "k2":345}', '123', '$.k1')"#,
            r#"1"#,
        ),
        (r#"json_contains('"you"', '"you"')"#, r#"1"#),
        (r#"json_contains('"youth"', '"you"')"#, r#"0"#),
        (r#"json_contains('', '', '$')"#, r#"NULL"#),
        (r#"json_contains('null', 'null', '$')"#, r#"1"#),
        (r#"json_contains('"10"', '"10"', '$')"#, r#"1"#),
        (r#"json_contains('"10"', '10', '$')"#, r#"0"#),
        (r#"json_contains('10.1', '10', '$')"#, r#"0"#),
        (r#"json_contains('10.0', '10', '$')"#, r#"1"#),
        (r#"json_contains('[1]', '1')"#, r#"1"#),
        (r#"json_contains('[2, 1]', '1')"#, r#"1"#),
        (r#"json_contains('[2, [2, 3], 1]', '1')"#, r#"1"#),
        (r#"json_contains('[4, [2, 3], 1]', '2')"#, r#"1"#),
        (r#"json_contains('[2, 1]', '[1, 2]')"#, r#"1"#),
        (r#"json_contains('[2, 1]', '[1, 0, 2]')"#, r#"0"#),
        (r#"json_contains('[2, 0, 3, 1]', '[1, 2]')"#, r#"1"#),
        (
            r#"json_contains('{"b":[1,2], "a":1}', '{"a":1, "b":2}')"#,
            r#"1"#,
        ),
        (r#"json_contains('{"a":1}', '{}')"#, r#"1"#),
        (r#"json_contains('[1, {"a":1}]', '{}')"#, r#"1"#),
        (r#"json_contains('[1, {"a":1}]', '{"a":1}')"#, r#"1"#),
        (
            r#"json_contains('[{"abc":"def", "def":"abc"}]', '["foo","bar"]')"#,
            r#"0"#,
        ),
        (
            r#"json_contains('[{"abc":"def", "def":"abc"}, "bar"]', '["bar", {}]')"#,
            r#"1"#,
        ),
        (
            r#"json_contains('[{"a":"b"},{"c":"d"}]','{"c":"d"}')"#,
            r#"1"#,
        ),
        (
            r#"json_contains('{"A": 0, "B": {"C": 1}, "D": 2}', '2', '$.A')"#,
            r#"0"#,
        ),
        (
            r#"json_contains('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '15', '$.A[-2][-1]')"#,
            r#"1"#,
        ),
        (
            r#"json_contains('{"A": [0, [1, 2, 3], [4, 5, 6], "seven", 0.8, true, false, "eleven", [12, 13, {"key1":"value1"},[15]], true], "B": {"C": 1}, "D": 2}', '15', '$.A[last-1][last]')"#,
            r#"1"#,
        ),
        (r#"json_contains('[1, x', '1')"#, r#"NULL"#),
        (r#"json_contains('[1]', '1', '$[5]')"#, r#"0"#),
        (r#"json_contains('[1]', NULL)"#, r#"NULL"#),
        (r#"json_contains('[1]', '1', '$[*]')"#, r#"NULL"#),
        (r#"json_contains('"\u0041"', '"A"')"#, r#"0"#),
        (r#"json_contains('{"a\u0062":1}', '{"ab":1}')"#, r#"1"#),
        (r#"json_contains('{"a":1,"b":2}', '{"r": 1E0}')"#, r#"0"#),
        (r#"json_contains('{"r": 1}', '{"r": 1E0}')"#, r#"1"#),
        (
            r#"json_contains('[{"a": 3}, {"d": [1, 2, 3]}]', '[{"d": [1E0, 2E0, 3E0]}, {"a":3E0}]')"#,
            r#"1"#,
        ),
        (r#"json_contains('[true, false]', 'false')"#, r#"1"#),
        (r#"json_contains('[[1,2]]', '[[1,2]]')"#, r#"1"#),
    ]);
}

#[test]
fn overlaps_finds_a_common_value() {
    check(&[
        (r#"json_overlaps('true', 'true')"#, r#"1"#),
        (r#"json_overlaps('false', 'false')"#, r#"1"#),
        (r#"json_overlaps('1', '1')"#, r#"1"#),
        (r#"json_overlaps('"string1"', '"string1"')"#, r#"1"#),
        (r#"json_overlaps('null', 'null')"#, r#"1"#),
        (r#"json_overlaps('true', 'false')"#, r#"0"#),
        (r#"json_overlaps('1', '"1"')"#, r#"0"#),
        (r#"json_overlaps('1', '0')"#, r#"0"#),
        (r#"json_overlaps('null', '0')"#, r#"0"#),
        (r#"json_overlaps('"string1"', '"string2"')"#, r#"0"#),
        (
            r#"json_overlaps('true','["abc", 1, 2, true, false]')"#,
            r#"1"#,
        ),
        (r#"json_overlaps('true','["abc", 1, 2, [true]]')"#, r#"0"#),
        (r#"json_overlaps('true','{"A":true}')"#, r#"0"#),
        (r#"json_overlaps('{"A":[1, 2, 3]}','{}')"#, r#"0"#),
        (r#"json_overlaps('{"A": 1}', '{"A": 1}')"#, r#"1"#),
        (r#"json_overlaps('{"A": 1}', '{"B": 1}')"#, r#"0"#),
        (
            r#"json_overlaps('{"A": 1, "B": "string1"}', '{"A": 2, "B": "string1"}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": "string1"}', '{"A": 2, "B": "string2"}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": {"C":2}}', '{"A": 2, "B": {"C":1}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": {"C":2}}', '{"A": 2, "B": {"C":2}}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A": {"B": true}}', '{"A": {"B": true, "C": false}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A":1, "B":{"D":4, "E":5}}', '{"C":3, "B":{"E":5, "D":4}}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A":1, "B":{"D":4, "E":[5, 6, 7]}}', '{"C":3, "B":{"E":5, "D":4}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A":1, "B":{"D":4, "E":[5, 6, 7]}}', '{"C":3, "B":{"E":[5, 6, 7], "D":4}}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A":1, "B":{"D":4, "E":[5, 6, 7]}}', '{"C":3, "B":{"E":[7, 6 ,5], "D":4}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A":1, "B":{"D":4, "E":[5, 6, 7]}}', '{"C":3, "F":{"E":[5, 6, 7], "D":4}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, null]', '[3, 4, 1]')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, null]', '[3, 4, 5]')"#,
            r#"0"#,
        ),
        (r#"json_overlaps('[1,2,3]','[]')"#, r#"0"#),
        (
            r#"json_overlaps('[1, 2, true, false, null]', '[3, 4, [1]]')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, [true, false], null]', '[[1], [true, false]]')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[1, 2, 3, [4, 5, 6]]','[7, 8, 9, [6, 5, 4]]')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, null]', '{"A": 1}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, null, {"A":2}]', '{"A": 1}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, {"A": 2}, {"A": 1}]', '{"A": 1}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, {"A": 1, "B": 2}]', '{"A": 1, "B": 2}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, {"A": 1, "B": 2}]', '{"A": 1, "B": 3}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, [{"A": 1, "B": 2}]]', '{"A": 1, "B": 2}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, [{"A": 1, "B": 2}]]', '{"A": 1}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('[1, 2, true, false, {"A": 1, "B": {"C": 12}}]', '{"A": 1, "B": {"C": 12}}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[[1, 2, true, false, {"A": 1, "B": {"C": 12}}]]', '{"A": 1, "B": {"C": 12}}')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": 3}', '[1, 2, true, false, {"A": 1, "B": 2}]')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": 3}', '[1, 2, true, false, {"A": 1, "B": 3}]')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": [1, 2, {"C": 3, "D": 5}]}', '[1, 2, true, false, {"A": 1, "B": 2}, {"A":1, "B":[1, 2, {"C": 3, "D": 5}]}]')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": [1, 2, {"C": 3, "D": 5}]}', '[1, 2, true, false, {"A": 1, "B": 2},{"A": 1, "B": [1, 2, {"C": 3, "D": 4}]}]')"#,
            r#"0"#,
        ),
        (
            r#"json_overlaps('{"A": 1, "B": 3}','[1, 2, true, false, [{"A": 1, "B": 2}, {"A": 1, "B": 3}]]')"#,
            r#"0"#,
        ),
        (r#"json_overlaps('','')"#, r#"0"#),
        (r#"json_overlaps('true','tr')"#, r#"0"#),
        (r#"json_overlaps('[1', '[1]')"#, r#"1"#),
        (r#"json_overlaps('{"B":{}}', '{"B":{')"#, r#"0"#),
        (r#"json_overlaps(NULL, '1')"#, r#"NULL"#),
        (r#"json_overlaps('[[1,2,3]]', '[[1,2]]')"#, r#"1"#),
        (r#"json_overlaps('[[1,2]]', '[[1,2,3]]')"#, r#"0"#),
        (r#"json_overlaps('[[]]', '[[1]]')"#, r#"0"#),
        (r#"json_overlaps('[[1]]', '[[]]')"#, r#"1"#),
        (
            r#"json_overlaps('{"a":1,"b":2}', '{"b":2E0, "a":1E0}')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('[{"a": 3}, {"d": [1, 2, 3]}]', '[{"d": [1E0, 2E0, 3E0]}, {"a":3E0}]')"#,
            r#"1"#,
        ),
        (
            r#"json_overlaps('{"kk":{"k1":"v1","k2":"v2"}}', '{"kk":{"k1":"v1","k2":"v2","k3":"v3"}}')"#,
            r#"0"#,
        ),
    ]);
}

#[test]
fn quirks_found_by_fuzzing() {
    check(&[
        (r#"json_keys('{"":false, "":"/"}', '$')"#, r#"["", ""]"#),
        (r#"json_keys('{"":1,"":2,"":3}')"#, r#"["", ""]"#),
        (
            r#"json_keys('{"x":1,"":2,"":3, "x":4}')"#,
            r#"["x", "", ""]"#,
        ),
        (r#"json_keys('{"a\"b":1,"a\"b":2}')"#, r#"["a\"b", "a\"b"]"#),
        (
            r#"json_search('{"":{"a":12.0,"a b":{"b":["É",1E-2,true],"c":{"a b":"a b","a":false,"a b":""}},"é":[{"A":1.,"A":-0,"a":"É","c":"b"},1,true,false],"a b":"A"}}', 'all', '%', NULL, '$**[0][last-1 to last]')"#,
            r#"NULL"#,
        ),
        (
            r#"json_search('[["x","y",["z","w"]]]', 'all', '%', NULL, '$**[0][last]')"#,
            r#"["$[0][2][0]", "$[0][2][1]"]"#,
        ),
        (
            r#"json_extract('{"A":[{"A":[],"é":true},[{"b":1.50,"a":"1"},[],{"":false}]],"c":true}', '$', '$.A**[0]**.a')"#,
            r#"[{"A": [{"A": [], "é": true}, [{"b": 1.50, "a": "1"}, [], {"": false}]], "c": true}]"#,
        ),
        (r#"json_extract('{"A":{"b":1}}', '$.A**.b')"#, r#"NULL"#),
        (r#"json_exists('{"A":{"b":1}}', '$.A**.b')"#, r#"0"#),
        (
            r#"json_search('{"b":3, "c":"é"} x', 'all', '%', NULL, '$')"#,
            r#"NULL"#,
        ),
        (
            r#"json_search('{"b":3, "c":"é"} x', 'one', '%', NULL, '$')"#,
            r#""$.b""#,
        ),
        (
            r#"json_exists('{"c":[],"a.b":2},', '$[1][0][ 0 ]')"#,
            r#"NULL"#,
        ),
        (r#"json_contains('false ]', '[1]', '$.b')"#, r#"NULL"#),
        (r#"json_value('[1, 2] x', '$[5]')"#, r#"NULL"#),
        (r#"json_query('[[1], 2] x', '$[1]')"#, r#"NULL"#),
        (r#"json_exists('{"a":1, "b', '$.a')"#, r#"1"#),
        (r#"json_exists('{"a":1, "b', '$.c')"#, r#"NULL"#),
        (r#"json_exists('{"a":1, x', '$.a')"#, r#"1"#),
        (r#"json_value('{"a":1, "b', '$.a')"#, r#"1"#),
        (r#"json_value('{"b":1, "a', '$.a')"#, r#"NULL"#),
        (r#"json_keys('{"a":{"b":1, "c', '$.a')"#, r#"NULL"#),
    ]);
}

//! (expected: MariaDB 10.11).

use super::check;

#[test]
fn array_and_object_write_values() {
    check(&[
        (r#"json_array()"#, r#"[]"#),
        (r#"json_array(1)"#, r#"[1]"#),
        (r#"json_array(1, 'text', null)"#, r#"[1, "text", null]"#),
        (
            r#"json_array(1e2, 1.5e0, 1e300*10, 1e15, 1e16, 123456789012345678e0, 1.5e-5, 0.1e0+0.2e0, 1e-16, 2e0/3, 1e14+0.5, -1e20)"#,
            r#"[100, 1.5, 1e301, 1e15, 1e16, 1.2345678901234568e17, 0.000015, 0.30000000000000004, 1e-16, 0.6666666666666666, 100000000000000.5, -1e20]"#,
        ),
        (
            r#"json_array(1e14, 99999999999999.9e0, 999999999999999e0, 1234567890123456e0, 0.0001e0, 1e-10, 1.23e-15, 123.456e0, 5e-324, 1.7976931348623157e308, -0e0)"#,
            r#"[100000000000000, 99999999999999.9, 999999999999999, 1.234567890123456e15, 0.0001, 0.0000000001, 0.00000000000000123, 123.456, 5e-324, 1.7976931348623157e308, 0]"#,
        ),
        (
            r#"json_array(-5, 0, 9223372036854775807)"#,
            r#"[-5, 0, 9223372036854775807]"#,
        ),
        (r#"json_array(null)"#, r#"[null]"#),
        (r#"json_array('a"b\c', '')"#, r#"["a\"b\\c", ""]"#),
        (
            r#"json_array('1. ě 2. š 3. č 4. ř 5. ž 6. ý 7. á 8. í 9. é 10. ů 11. ú')"#,
            r#"["1. ě 2. š 3. č 4. ř 5. ž 6. ý 7. á 8. í 9. é 10. ů 11. ú"]"#,
        ),
        (
            r#"json_array(json_array(1, 2), json_object('a', 1))"#,
            r#"[[1, 2], {"a": 1}]"#,
        ),
        (r#"json_array(5, json_query('[1,2]','$'))"#, r#"[5, [1,2]]"#),
        (
            r#"json_array(json_extract('[1,2]','$'), json_extract('["x"]','$[0]'))"#,
            r#"[[1, 2], "x"]"#,
        ),
        (
            r#"json_array(json_keys('{"a":1}'), json_search('["a"]','one','a'), json_quote('a'), json_unquote('"a"'), json_value('[1]','$[0]'))"#,
            r#"["[\"a\"]", "$[0]", "\"a\"", "a", "1"]"#,
        ),
        (
            r#"json_array(json_normalize('[1]'), json_normalize('{"b":1,"a":2}'))"#,
            r#"[[1.0E0], {"a":2.0E0,"b":1.0E0}]"#,
        ),
        (
            r#"json_array(json_merge('[1]','[2]'), json_merge_patch('[1]','[2]'), json_set('[1]','$[0]',2), json_remove('[1,2]','$[0]'), json_array_append('[1]','$',2), json_array_insert('[1]','$[0]',2))"#,
            r#"[[1, 2], [2], [2], [2], [1, 2], [2, 1]]"#,
        ),
        (
            r#"json_array(json_valid('1'), json_valid('x'), json_exists('[1]','$[0]'), json_contains('[1]','1'), json_contains_path('[1]','one','$[0]'), json_overlaps('1','1'), json_equals('1','1'))"#,
            r#"[true, false, true, true, true, true, true]"#,
        ),
        (
            r#"json_array(json_type('1'), json_length('[1]'), json_depth('[1]'))"#,
            r#"["INTEGER", 1, 2]"#,
        ),
        (r#"json_object()"#, r#"{}"#),
        (
            r#"json_object('ki', 1, 'mi', 'ya')"#,
            r#"{"ki": 1, "mi": "ya"}"#,
        ),
        (
            r#"json_object('id', 87, 'name', 'carrot')"#,
            r#"{"id": 87, "name": "carrot"}"#,
        ),
        (r#"json_object(NULL, 1)"#, r#"{"": 1}"#),
        (r#"json_object(1.5, 2)"#, r#"{"1.5": 2}"#),
        (r#"json_object('a', NULL)"#, r#"{"a": null}"#),
        (
            r#"json_object('a', json_object('b', 'abcd'))"#,
            r#"{"a": {"b": "abcd"}}"#,
        ),
        (
            r#"json_object('a', '{"b": "abcd"}')"#,
            r#"{"a": "{\"b\": \"abcd\"}"}"#,
        ),
        (r#"json_object('foo', '`')"#, r#"{"foo": "`"}"#),
        (r#"json_object('foo', 'bar`bar')"#, r#"{"foo": "bar`bar"}"#),
        (
            r#"json_object('user','Jožko Mrkvičká')"#,
            r#"{"user": "Jožko Mrkvičká"}"#,
        ),
        (r#"json_object('a"b', 'c\nd')"#, r#"{"a\"b": "c\\nd"}"#),
        (
            r#"json_object('a', if(1, json_object('b', 'c'), json_object('e', 'f')))"#,
            r#"{"a": {"b": "c"}}"#,
        ),
        (
            r#"json_object('a', coalesce(json_object('b', 'c'), NULL))"#,
            r#"{"a": {"b": "c"}}"#,
        ),
        (
            r#"json_object('x', json_array(json_valid('[]')))"#,
            r#"{"x": [true]}"#,
        ),
    ]);
}

#[test]
fn merge_preserve_merges_objects_and_arrays() {
    check(&[
        (r#"json_merge('string', 123)"#, r#"NULL"#),
        (r#"json_merge('"string"', 123)"#, r#"["string", 123]"#),
        (
            r#"json_merge('[1, 2]', '[true, false]')"#,
            r#"[1, 2, true, false]"#,
        ),
        (
            r#"json_merge('{"1": 2}', '{"true": false}')"#,
            r#"{"1": 2, "true": false}"#,
        ),
        (
            r#"json_merge('{"1": 2}', '{"true": false}', '{"3": 4}')"#,
            r#"{"1": 2, "true": false, "3": 4}"#,
        ),
        (r#"json_merge(NULL,json_object('foo', 1))"#, r#"NULL"#),
        (r#"json_merge('a','b')"#, r#"NULL"#),
        (
            r#"json_merge('{"a":"b"}','{"c":"d"}')"#,
            r#"{"a": "b", "c": "d"}"#,
        ),
        (
            r#"json_merge('[1, 2]', '{"id": 47}')"#,
            r#"[1, 2, {"id": 47}]"#,
        ),
        (
            r#"json_merge('{"a":"b"}', '{"a":"c"}')"#,
            r#"{"a": ["b", "c"]}"#,
        ),
        (
            r#"json_merge('{"a":{"x":"b"}}', '{"a":"c"}')"#,
            r#"{"a": [{"x": "b"}, "c"]}"#,
        ),
        (
            r#"json_merge('{"a":{"u":12, "x":"b"}}', '{"a":{"x":"c"}}')"#,
            r#"{"a": {"u": 12, "x": ["b", "c"]}}"#,
        ),
        (
            r#"json_merge('{"a":{"u":12, "x":"b", "r":1}}', '{"a":{"x":"c", "r":2}}')"#,
            r#"{"a": {"u": 12, "x": ["b", "c"], "r": [1, 2]}}"#,
        ),
        (r#"json_merge('[]', '{"c":"d"}')"#, r#"[{"c": "d"}]"#),
        (r#"json_merge('[1]', '[]')"#, r#"[1]"#),
        (r#"json_merge('[1] x', '[2]')"#, r#"[1, 2]"#),
        (r#"json_merge('[1]', '[2] x')"#, r#"[1, 2]"#),
        (
            r#"json_merge('{"a":1,"a":2}', '{"a":3}')"#,
            r#"{"a": [1, 3], "a": [2, 3]}"#,
        ),
        (
            r#"json_merge('{"a":1}', '{"a":3,"a":4}')"#,
            r#"{"a": [1, 3]}"#,
        ),
        (r#"json_merge('1','[]')"#, r#"[1]"#),
        (r#"json_merge('[]','[]')"#, r#"[]"#),
        (r#"json_merge('{}','{}')"#, r#"{}"#),
        (
            r#"json_merge('{"a\u0062":1}', '{"ab":2}')"#,
            r#"{"a\u0062": [1, 2]}"#,
        ),
        (r#"json_merge('"a"','{"x":1}')"#, r#"["a", {"x": 1}]"#),
        (r#"json_merge('[1]', NULL)"#, r#"NULL"#),
        (r#"json_merge_preserve('[1]','[2]','[3]')"#, r#"[1, 2, 3]"#),
        (r#"json_merge('1', '2')"#, r#"[1, 2]"#),
        (
            r#"json_merge('[1,2]', '{"a":1}', '3')"#,
            r#"[1, 2, {"a": 1}, 3]"#,
        ),
        (r#"json_merge('[1', '[2]')"#, r#"NULL"#),
    ]);
}

#[test]
fn merge_patch_follows_rfc_7396() {
    check(&[
        (
            r#"json_merge_patch('{"a":"b"}', '{"a":"c"}')"#,
            r#"{"a": "c"}"#,
        ),
        (
            r#"json_merge_patch('{"a":"b"}', '{"b":"c"}')"#,
            r#"{"a": "b", "b": "c"}"#,
        ),
        (r#"json_merge_patch('{"a":"b"}', '{"a":null}')"#, r#"{}"#),
        (
            r#"json_merge_patch('{"a":"b", "b":"c"}', '{"a":null}')"#,
            r#"{"b": "c"}"#,
        ),
        (
            r#"json_merge_patch('{"a":["b"]}', '{"a":"c"}')"#,
            r#"{"a": "c"}"#,
        ),
        (
            r#"json_merge_patch('{"a":"c"}', '{"a":["b"]}')"#,
            r#"{"a": ["b"]}"#,
        ),
        (
            r#"json_merge_patch('{"a": {"b":"c"}}', '{"a": {"b":"d", "c":null}}')"#,
            r#"{"a": {"b": "d"}}"#,
        ),
        (
            r#"json_merge_patch('{"a":[{"b":"c"}]}', '{"a": [1]}')"#,
            r#"{"a": [1]}"#,
        ),
        (
            r#"json_merge_patch('["a","b"]', '["c","d"]')"#,
            r#"["c", "d"]"#,
        ),
        (r#"json_merge_patch('{"a":"b"}', '["c"]')"#, r#"["c"]"#),
        (r#"json_merge_patch('{"a":"foo"}', 'null')"#, r#"null"#),
        (r#"json_merge_patch('{"a":"foo"}', '"bar"')"#, r#""bar""#),
        (
            r#"json_merge_patch('{"e":null}', '{"a":1}')"#,
            r#"{"e": null, "a": 1}"#,
        ),
        (
            r#"json_merge_patch('[1,2]', '{"a":"b", "c":null}')"#,
            r#"{"a": "b"}"#,
        ),
        (
            r#"json_merge_patch('{}', '{"a":{"bb":{"ccc":null}}}')"#,
            r#"{"a": {"bb": {}}}"#,
        ),
        (r#"json_merge_patch(NULL, '{}')"#, r#"NULL"#),
        (r#"json_merge_patch('{}', NULL)"#, r#"NULL"#),
        (
            r#"json_merge_patch('{"a":"b"}', NULL, '{"c":"d"}')"#,
            r#"NULL"#,
        ),
        (r#"json_merge_patch(NULL, '[1,2,3]')"#, r#"[1, 2, 3]"#),
        (r#"json_merge_patch(NULL, 'a')"#, r#"NULL"#),
        (
            r#"json_merge_patch('{"a":"b"}', NULL, '[1,2,3]', '{"c":null,"d":"e"}')"#,
            r#"{"d": "e"}"#,
        ),
        (r#"json_merge_patch('{', '[1,2,3]')"#, r#"NULL"#),
        (r#"json_merge_patch('{"a":"b"}', '[1,')"#, r#"NULL"#),
        (
            r#"json_merge_patch('{"a":1} x', '{"b":2}')"#,
            r#"{"a": 1, "b": 2}"#,
        ),
        (
            r#"json_merge_patch('{"a":1}', '{"b":2} x')"#,
            r#"{"a": 1, "b": 2}"#,
        ),
        (r#"json_merge_patch(NULL, '[1] x')"#, r#"NULL"#),
        (
            r#"json_merge_patch('{"a":{"x":null,"y":1}}', '{"b":{"x":null,"z":[null]}}')"#,
            r#"{"a": {"x": null, "y": 1}, "b": {"z": [null]}}"#,
        ),
        (r#"json_merge_patch('1', 'null')"#, r#"null"#),
        (
            r#"json_merge_patch('{"a":1}','{"a":{"b":null}}')"#,
            r#"{"a": {}}"#,
        ),
        (r#"json_merge_patch(NULL, NULL)"#, r#"NULL"#),
        (r#"json_merge_patch(NULL, '{"a":1}', '[2]')"#, r#"[2]"#),
        (
            r#"json_merge_patch('{"a" : "b" }', '{"c" :1}')"#,
            r#"{"a": "b", "c": 1}"#,
        ),
        (
            r#"json_extract(json_merge_patch('{"a":"b"}', '{"a":"c"}'), '$.a')"#,
            r#""c""#,
        ),
    ]);
}

#[test]
fn aggregates() {
    check(&[
        (
            r#"(SELECT json_arrayagg(x) FROM (SELECT 1 AS x UNION ALL SELECT NULL UNION ALL SELECT 3) t)"#,
            r#"[1,null,3]"#,
        ),
        (
            r#"(SELECT json_arrayagg(x) FROM (SELECT 'a"b' AS x UNION ALL SELECT NULL UNION ALL SELECT 'c') t)"#,
            r#"["a\"b",null,"c"]"#,
        ),
        (
            r#"(SELECT json_arrayagg(x) FROM (SELECT 1 AS x) t WHERE x > 1)"#,
            r#"NULL"#,
        ),
        (
            r#"(SELECT json_arrayagg(NULL) FROM (SELECT 1 AS t) AS a)"#,
            r#"[null]"#,
        ),
        (
            r#"(SELECT json_arrayagg('null') FROM (SELECT 1 AS t) AS a)"#,
            r#"["null"]"#,
        ),
        (
            r#"(SELECT json_arrayagg(json_object('type', 'permPeriod', 'id', 'asd')))"#,
            r#"[{"type": "permPeriod", "id": "asd"}]"#,
        ),
        (
            r#"(SELECT json_arrayagg(json_array(x, 'y')) FROM (SELECT 1 AS x UNION ALL SELECT 2) t)"#,
            r#"[[1, "y"],[2, "y"]]"#,
        ),
        (
            r#"(SELECT json_objectagg(k, v) FROM (SELECT 'a' AS k, 1 AS v UNION ALL SELECT NULL, 2 UNION ALL SELECT 'b"', NULL UNION ALL SELECT '3', 4) t)"#,
            r#"{"a":1, "b\"":null, "3":4}"#,
        ),
        (
            r#"(SELECT json_objectagg('k', json_array(1)))"#,
            r#"{"k":[1]}"#,
        ),
        (
            r#"(SELECT json_objectagg(k, v) FROM (SELECT NULL AS k, 1 AS v) t)"#,
            r#"NULL"#,
        ),
        (r#"(SELECT json_objectagg('"', 1))"#, r#"{"\"":1}"#),
        (r#"(SELECT json_objectagg('\', 1))"#, r#"{"\\":1}"#),
        (
            r#"(SELECT json_object('x', json_arrayagg(json_object('a', 1))))"#,
            r#"{"x": [{"a": 1}]}"#,
        ),
        (
            r#"(SELECT json_valid(json_arrayagg(x)) FROM (SELECT 1 AS x UNION ALL SELECT 2) t)"#,
            r#"1"#,
        ),
    ]);
}

#[test]
fn merges_read_only_what_they_need() {
    check(&[
        (r#"json_merge('{ }', '{"é"  :  "x y"')"#, r#"{"é": "x y"}"#),
        (r#"json_merge('{"x":1', '{"y":2}')"#, r#"NULL"#),
        (r#"json_merge('{"x":1', '{"x":2}')"#, r#"NULL"#),
        (r#"json_merge('{"x":1, "y":[1', '{"x":2}')"#, r#"NULL"#),
        (
            r#"json_merge('{"x":1}', '{"x":2, "y":3')"#,
            r#"{"x": [1, 2], "y": 3}"#,
        ),
        (
            r#"json_merge('{"x":1}', '{"y":2, "x":3')"#,
            r#"{"x": [1, 3], "y": 2}"#,
        ),
        (r#"json_merge('[1', '{"y":2}')"#, r#"NULL"#),
        (r#"json_merge('{"x":{"a":1', '{"x":{"b":2}}')"#, r#"NULL"#),
        (r#"json_merge('{"x":{"a":1}}', '{"x":{"a":2')"#, r#"NULL"#),
        (
            r#"json_merge_patch('{"a":"é","a":"/","A":[{}],"a":{"a.b":{},"b":true}}', '{"a":null,"a.b":{"a":"","b":"É"},"b":"abc"}')"#,
            r#"{"a": "/", "A": [{}], "a.b": {"a": "", "b": "É"}, "b": "abc"}"#,
        ),
        (
            r#"json_merge_patch('{"a":1,"a":2}', '{"a":null}')"#,
            r#"{"a": 2}"#,
        ),
        (
            r#"json_merge_patch('{"a":1,"b":2,"a":3}', '{"a":null}')"#,
            r#"{"b": 2}"#,
        ),
        (
            r#"json_merge_patch('{"a":1,"a":2,"a":3}', '{"a":null,"a":7}')"#,
            r#"{"a": 7}"#,
        ),
        (r#"json_merge_patch('"" ', '{ ')"#, r#"{}"#),
        (
            r#"json_merge_patch('1', '{"a":1, "b":null')"#,
            r#"{"a": 1}"#,
        ),
        (r#"json_merge_patch('1', '{"a":[1')"#, r#"NULL"#),
        (r#"json_merge_patch('{"x":1', '{"y":2}')"#, r#"NULL"#),
        (r#"json_merge_patch('{"x":1', '{"x":2}')"#, r#"NULL"#),
        (r#"json_merge_patch('{"x":1}', '{"y":2')"#, r#"NULL"#),
        (r#"json_merge_patch('[1', '{"y":2}')"#, r#"NULL"#),
        (r#"json_merge_patch('[1', '2')"#, r#"NULL"#),
        (r#"json_merge_patch(' [ "" ]', ' {"', '[ ] ,')"#, r#"NULL"#),
        (r#"json_merge_patch('1', '{"a":1, "b')"#, r#"NULL"#),
        (r#"json_merge_patch('1', '{"a":1, x')"#, r#"{"a": 1}"#),
        (r#"json_merge_patch('1', '{"a":1,')"#, r#"{"a": 1}"#),
        (r#"json_merge_patch('1', '{"a":1, "b"')"#, r#"NULL"#),
        (r#"json_merge_patch('1', '{"a":1, "b":')"#, r#"NULL"#),
        (r#"json_merge('{}', '{"a":1, "b')"#, r#"NULL"#),
        (r#"json_merge('{}', '{"a":1, x')"#, r#"{"a": 1}"#),
        (
            r#"json_set('[1]', '$[0]', json_extract('[1]', '$[5]'))"#,
            r#"[null]"#,
        ),
        (
            r#"json_array_append('[1]', '$', json_extract('[1]', '$[5]'))"#,
            r#"[1, null]"#,
        ),
        (
            r#"json_merge_patch(' -0', '{"c"  :  {  x"" :{ "b"  : ""} }, "a":{} }', ' "abc"')"#,
            r#"NULL"#,
        ),
        (r#"json_merge_patch(' -0', '{"c"  :  {  ')"#, r#"{"c": {}}"#),
        (
            r#"json_merge_patch(' -0', '{"c"  :  { "a":1, ')"#,
            r#"{"c": {"a": 1}}"#,
        ),
        (
            r#"json_merge_patch(' -0', '{"c"  :  { "a":1 x')"#,
            r#"{"c": {"a": 1}}"#,
        ),
        (
            r#"json_merge_patch(' -0', '{"c"  :  { "a":1 } x')"#,
            r#"{"c": {"a": 1}}"#,
        ),
        (
            r#"json_merge_patch(' -0', '{"c"  :  { "a":1 , "b":tru')"#,
            r#"NULL"#,
        ),
        (r#"json_merge_patch('[]', ' 1E-"2')"#, r#"NULL"#),
        (r#"json_extract('[1e]', '$[0]')"#, r#"NULL"#),
        (r#"json_extract('[-]', '$[0]')"#, r#"NULL"#),
        (r#"json_extract('[1e, 2]', '$[*]')"#, r#"[1e, 2]"#),
        (r#"json_merge('[1e]', '[]')"#, r#"[1e]"#),
        (r#"json_set('[1e]', '$[1]', 2)"#, r#"[1e, 2]"#),
        (r#"json_remove('[1, 1e]', '$[0]')"#, r#"[1e]"#),
        (r#"json_remove('[1, 1e]', '$[1]')"#, r#"[1]"#),
        (
            r#"json_set('[1e]', '$', json_extract('[1e]', '$'))"#,
            r#"[1e]"#,
        ),
        (
            r#"json_array_append('[1]', '$', json_extract('[2e]', '$[0]'))"#,
            r#"[1, null]"#,
        ),
    ]);
}

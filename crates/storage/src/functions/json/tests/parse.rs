//! Reading documents: validity, kinds, sizes, layouts, quoting (expected: MariaDB 10.11).

use super::check;

#[test]
fn valid_follows_mariadbs_grammar() {
    check(&[
        (r#"json_valid('[1, 2]')"#, r#"1"#),
        (r#"json_valid('"string"}')"#, r#"0"#),
        (r#"json_valid('{"key1":1, "key2":[2,3]}')"#, r#"1"#),
        (r#"json_valid('[false, true, null]')"#, r#"1"#),
        (r#"json_valid(repeat('[', 1000))"#, r#"0"#),
        (r#"json_valid(repeat('{"a":', 1000))"#, r#"0"#),
        (
            r#"json_valid(concat(repeat('[', 31), repeat(']', 31)))"#,
            r#"1"#,
        ),
        (
            r#"json_valid(concat(repeat('[', 32), repeat(']', 32)))"#,
            r#"0"#,
        ),
        (r#"json_valid('[1e]')"#, r#"1"#),
        (r#"json_valid('[-]')"#, r#"1"#),
        (r#"json_valid('-')"#, r#"0"#),
        (r#"json_valid('1e')"#, r#"0"#),
        (r#"json_valid('[1.]')"#, r#"1"#),
        (r#"json_valid('1.')"#, r#"1"#),
        (r#"json_valid('1e+-5')"#, r#"1"#),
        (r#"json_valid('01')"#, r#"0"#),
        (r#"json_valid('[01]')"#, r#"0"#),
        (r#"json_valid('-0')"#, r#"1"#),
        (r#"json_valid('0e5')"#, r#"1"#),
        (r#"json_valid(' {"number": 0E-4}')"#, r#"1"#),
        (r#"json_valid(' {"number": 00E-4}')"#, r#"0"#),
        (r#"json_valid(' {"number": 0E-4.0}')"#, r#"0"#),
        (r#"json_valid('1E5')"#, r#"1"#),
        (r#"json_valid(' 1 ')"#, r#"1"#),
        (r#"json_valid('')"#, r#"0"#),
        (r#"json_valid('[1,]')"#, r#"0"#),
        (r#"json_valid('{"a":1,}')"#, r#"0"#),
        (r#"json_valid('{"a":1]')"#, r#"0"#),
        (r#"json_valid('{ "A": [0,] }')"#, r#"0"#),
        (r#"json_valid('"\ud800"')"#, r#"0"#),
        (r#"json_valid('"\udc00"')"#, r#"0"#),
        (r#"json_valid('"\ud800\udc00"')"#, r#"1"#),
        (r#"json_valid('{"value":"\ud83d\ude0a"}')"#, r#"1"#),
        (r#"json_valid('"\a"')"#, r#"1"#),
        (r#"json_valid('"\u00zz"')"#, r#"0"#),
        (r#"json_valid('{"admin\"": null}')"#, r#"1"#),
        (r#"json_valid('tru')"#, r#"0"#),
        (r#"json_valid('nul')"#, r#"0"#),
        (r#"json_valid('{}{')"#, r#"0"#),
        (r#"json_valid(NULL)"#, r#"NULL"#),
        (r#"json_valid(123)"#, r#"1"#),
        (r#"json_valid('{"a" :1 , "b": [ ] }')"#, r#"1"#),
    ]);
}

#[test]
fn type_names_mariadbs_kinds() {
    check(&[
        (r#"json_type('{"k1":123, "k2":345}')"#, r#"OBJECT"#),
        (r#"json_type('[123, "k2", 345]')"#, r#"ARRAY"#),
        (r#"json_type('true')"#, r#"BOOLEAN"#),
        (r#"json_type('123')"#, r#"INTEGER"#),
        (r#"json_type('123.12')"#, r#"DOUBLE"#),
        (r#"json_type('"a"')"#, r#"STRING"#),
        (r#"json_type('null')"#, r#"NULL"#),
        (r#"json_type('1e5')"#, r#"INTEGER"#),
        (r#"json_type('1.')"#, r#"DOUBLE"#),
        (r#"json_type(' {} ')"#, r#"OBJECT"#),
        (r#"json_type('1 x')"#, r#"NULL"#),
        (r#"json_type('')"#, r#"NULL"#),
        (r#"json_type(NULL)"#, r#"NULL"#),
    ]);
}

#[test]
fn depth_counts_levels() {
    check(&[
        (r#"json_depth('1')"#, r#"1"#),
        (r#"json_depth('[]')"#, r#"1"#),
        (r#"json_depth('{}')"#, r#"1"#),
        (r#"json_depth('[1]')"#, r#"2"#),
        (r#"json_depth('[[]]')"#, r#"2"#),
        (r#"json_depth('[[], {}]')"#, r#"2"#),
        (r#"json_depth('[[[1,2,3],"s"], {}, []]')"#, r#"4"#),
        (r#"json_depth('[10, {"a": 20}]')"#, r#"3"#),
        (r#"json_depth('[{"a":[1]}]')"#, r#"4"#),
        (r#"json_depth('[1')"#, r#"NULL"#),
        (r#"json_depth(NULL)"#, r#"NULL"#),
    ]);
}

#[test]
fn length_counts_members_and_elements() {
    check(&[
        (r#"json_length('')"#, r#"NULL"#),
        (r#"json_length('{}')"#, r#"0"#),
        (r#"json_length('[1, 2, {"a": 3}]')"#, r#"3"#),
        (r#"json_length('{"a": 1, "b": {"c": 30}}', '$.b')"#, r#"1"#),
        (r#"json_length('{"a": 1, "b": {"c": 30}}')"#, r#"2"#),
        (r#"json_length('{}{')"#, r#"NULL"#),
        (r#"json_length('1')"#, r#"1"#),
        (r#"json_length('1 x')"#, r#"1"#),
        (r#"json_length('{"a":1,"a":2}')"#, r#"2"#),
        (r#"json_length('[ 1, [ 2, 3, 4 ], 5 ]', '$[2]')"#, r#"1"#),
        (r#"json_length('[ 1, [ 2, 3, 4 ], 5 ]', '$[2][0]')"#, r#"1"#),
        (
            r#"json_length('[ 1, [ 2, 3, 4 ], 5 ]', '$[2][0][0][0]')"#,
            r#"1"#,
        ),
        (
            r#"json_length('[ 1, [ 2, 3, 4 ], {"a":5, "b":6} ]', '$[2][0]')"#,
            r#"2"#,
        ),
        (
            r#"json_length('{"a":{"b":{"d":1}}, "a":{"c":{"d":1, "j":2}}}', '$.a[0][0][0].c')"#,
            r#"2"#,
        ),
        (r#"json_length('[1,[2,3]]', '$[5]')"#, r#"NULL"#),
        (r#"json_length('[1,[2,3]]', NULL)"#, r#"NULL"#),
        (r#"json_length('[1,[2,3]]', '$[*]')"#, r#"NULL"#),
        (r#"json_length('[1,[2,3] x', '$[1]')"#, r#"NULL"#),
        (r#"json_length('[1,[2,3]] x', '$[0]')"#, r#"1"#),
        (r#"json_length('{ "A": [0,] }', '$.A')"#, r#"NULL"#),
        (r#"json_length('[1,2,3]', '$[last]')"#, r#"1"#),
    ]);
}

#[test]
fn keys_lists_each_key_once() {
    check(&[
        (
            r#"json_keys('{"a":{"c":1, "d":2}, "b":2}')"#,
            r#"["a", "b"]"#,
        ),
        (
            r#"json_keys('{"a":{"c":1, "d":2}, "b":2}', '$.a')"#,
            r#"["c", "d"]"#,
        ),
        (
            r#"json_keys('{"a":{"c":1, "d":2}, "b":2}', '$.b')"#,
            r#"NULL"#,
        ),
        (r#"json_keys('foo')"#, r#"NULL"#),
        (
            r#"json_keys('{"a":{"c":1, "d":2}, "b":2, "c":1, "a":3, "b":1, "c":2}')"#,
            r#"["a", "b", "c"]"#,
        ),
        (
            r#"json_keys('{"c1": "value 1", "c1": "value 2"}')"#,
            r#"["c1"]"#,
        ),
        (r#"json_keys('{"a":1} x')"#, r#"["a"]"#),
        (r#"json_keys('{"a":{"b":1}} x', '$.a')"#, r#"["b"]"#),
        (r#"json_keys('[1]')"#, r#"NULL"#),
        (r#"json_keys('{}')"#, r#"[]"#),
        (r#"json_keys('{"a":1}', NULL)"#, r#"NULL"#),
        (
            r#"json_keys('{"a\u0062":1, "ab":2}')"#,
            r#"["a\u0062", "ab"]"#,
        ),
        (
            r#"json_keys('{"a":{"x":1,"y":2}}', '$[0].a')"#,
            r#"["x", "y"]"#,
        ),
        (
            r#"json_keys('[{"A": 1, "B": 2, "C": {"D": 3}},{"A": 1, "B": 2, "C": {"D": 3}}]', '$[-1].C')"#,
            r#"["D"]"#,
        ),
        (
            r#"json_keys('[{"A": 1, "B": 2, "C": {"D": 3}},{"A": 1, "B": 2, "C": {"D": 3}}]', '$[last].C')"#,
            r#"["D"]"#,
        ),
        (r#"json_keys(0)"#, r#"NULL"#),
    ]);
}

#[test]
fn quote_and_unquote() {
    check(&[
        (r#"json_quote('"string"')"#, r#""\"string\"""#),
        (r#"json_quote('foo')"#, r#""foo""#),
        (r#"json_quote('')"#, r#""""#),
        (r#"json_quote(NULL)"#, r#"NULL"#),
        (r#"json_quote(1)"#, r#"NULL"#),
        (r#"json_quote(1.5)"#, r#"NULL"#),
        (r#"json_quote('a\b/c')"#, r#""a\\b/c""#),
        (
            r#"json_quote(concat('a', x'09', 'b', x'0a', x'0d', x'08', x'0c', x'01', x'1f', x'7f'))"#,
            r#""a\tb\n\r\b\f\u0001\u001F""#,
        ),
        (r#"json_unquote('"abc"')"#, r#"abc"#),
        (r#"json_unquote('abc')"#, r#"abc"#),
        (r#"json_unquote(' "a\tb" x')"#, r#"a	b"#),
        (r#"json_unquote('"a\qb"')"#, r#"aqb"#),
        (r#"json_unquote('"a')"#, r#""a"#),
        (r#"json_unquote('[1, 2]')"#, r#"[1, 2]"#),
        (r#"json_unquote(12)"#, r#"12"#),
        (r#"json_unquote('"\u00e9\ud83d\ude0a"')"#, r#"é😊"#),
        (r#"json_unquote('"\uc080\ude0a"')"#, r#""\uc080\ude0a""#),
        (r#"json_unquote(NULL)"#, r#"NULL"#),
        (r#"json_unquote('"Mon\"t\"y"')"#, r#"Mon"t"y"#),
    ]);
}

#[test]
fn layouts() {
    check(&[
        (
            r#"json_compact('{"a":1, "b":[1,2,3], "c":{"aa":"v1", "bb": "v2"}}')"#,
            r#"{"a":1,"b":[1,2,3],"c":{"aa":"v1","bb":"v2"}}"#,
        ),
        (
            r#"json_loose('{"a":1, "b":[1,2,3], "c":{"aa":"v1", "bb": "v2"}}')"#,
            r#"{"a": 1, "b": [1, 2, 3], "c": {"aa": "v1", "bb": "v2"}}"#,
        ),
        (
            r#"json_detailed('{"a":1, "b":[1,2,3], "c":{"aa":"v1", "bb": "v2"}}')"#,
            r#"{
    "a": 1,
    "b": 
    [
        1,
        2,
        3
    ],
    "c": 
    {
        "aa": "v1",
        "bb": "v2"
    }
}"#,
        ),
        (
            r#"json_detailed('{"a":1, "b":[1,2,3], "c":{"aa":"v1", "bb": "v2"}, "d":[], "e":{}, "f":[[1],[2,3],{"x":[4]}], "g":[{}], "h":[[]]}')"#,
            r#"{
    "a": 1,
    "b": 
    [
        1,
        2,
        3
    ],
    "c": 
    {
        "aa": "v1",
        "bb": "v2"
    },
    "d": 
    [],
    "e": 
    {
    },
    "f": 
    [
        [1],
        [
            2,
            3
        ],
        {
            "x": 
            [4]
        }
    ],
    "g": 
    [
        {
        }
    ],
    "h": 
    [
        []
    ]
}"#,
        ),
        (
            r#"json_detailed('[[123],456]')"#,
            r#"[
    [123],
    456
]"#,
        ),
        (r#"json_detailed('[1]')"#, r#"[1]"#),
        (r#"json_detailed('1')"#, r#"1"#),
        (r#"json_detailed('[]')"#, r#"[]"#),
        (
            r#"json_detailed('{}')"#,
            r#"{
}"#,
        ),
        (
            r#"json_detailed('[[1,2]]', 2)"#,
            r#"[
  [
    1,
    2
  ]
]"#,
        ),
        (
            r#"json_detailed('[[1,2]]', 0)"#,
            r#"[
[
1,
2
]
]"#,
        ),
        (
            r#"json_detailed('[[1,2]]', 10)"#,
            r#"[
        [
                1,
                2
        ]
]"#,
        ),
        (
            r#"json_detailed('[[1,2]]', -1)"#,
            r#"[
[
1,
2
]
]"#,
        ),
        (r#"json_detailed('[[1,2]]', NULL)"#, r#"NULL"#),
        (
            r#"json_detailed('[[1,2]]', '3')"#,
            r#"[
   [
      1,
      2
   ]
]"#,
        ),
        (
            r#"json_pretty('[1,2]', 1)"#,
            r#"[
 1,
 2
]"#,
        ),
        (
            r#"json_pretty('{"a":["x"]}')"#,
            r#"{
    "a": 
    ["x"]
}"#,
        ),
        (r#"json_compact(NULL)"#, r#"NULL"#),
        (r#"json_compact('[1')"#, r#"NULL"#),
        (
            r#"json_loose('[1,[2,{"a" :"b"}]] ')"#,
            r#"[1, [2, {"a": "b"}]]"#,
        ),
        (
            r#"json_compact(' [ 1 , "a b" , { "x" : 1.50 } ] ')"#,
            r#"[1,"a b",{"x":1.50}]"#,
        ),
        (
            r#"json_detailed('["ä", {"k": "ö"}]')"#,
            r#"[
    "ä",
    {
        "k": "ö"
    }
]"#,
        ),
    ]);
}

#[test]
fn normalize_and_equals() {
    check(&[
        (
            r#"json_normalize('{"b":[1,2.50,-0,1e2,"x\u0041\n"], "a": {"d":true,"c":null}, "a":3}')"#,
            r#"{"a":{"c":null,"d":true},"a":3.0E0,"b":[1.0E0,2.5E0,0.0E0,1.0E2,"x\u0041\n"]}"#,
        ),
        (r#"json_normalize(' 	-1')"#, r#"-1.0E0"#),
        (r#"json_normalize('0')"#, r#"0.0E0"#),
        (r#"json_normalize('1.5e-3')"#, r#"1.5E-3"#),
        (
            r#"json_normalize('12345678901234567890')"#,
            r#"1.234567890123456789E19"#,
        ),
        (r#"json_normalize('0.1')"#, r#"1.0E-1"#),
        (r#"json_normalize('-0.0')"#, r#"0.0E0"#),
        (r#"json_normalize('1E400')"#, r#"1.0E400"#),
        (
            r#"json_normalize('[1., -0.0e5, 123e-2, 0.000123, 1e+2, 100e-2, -1.5E+03, 10.010, 0]')"#,
            r#"[1.0E0,0.0E0,1.23E0,1.23E-4,1.0E2,1.0E0,-1.5E3,1.001E1,0.0E0]"#,
        ),
        (r#"json_normalize('[1e, -]')"#, r#"[1.0E0,0.0E0]"#),
        (
            r#"json_normalize('[1e-0, 1e+-+5, 9999999999999999999999e99999]')"#,
            r#"[1.0E0,1.0E0,9.999999999999999999999E100020]"#,
        ),
        (
            r#"json_normalize('{"\u0062":1, "a":2, "B":3, "aa":4, "":5, "é":6, "z":7}')"#,
            r#"{"":5.0E0,"B":3.0E0,"\u0062":1.0E0,"a":2.0E0,"aa":4.0E0,"z":7.0E0,"é":6.0E0}"#,
        ),
        (
            r#"json_normalize('{"a":3,"a":1,"a":2}')"#,
            r#"{"a":1.0E0,"a":2.0E0,"a":3.0E0}"#,
        ),
        (
            r#"json_normalize('{"a":"x","a":[1],"a":{"z":1},"a":null,"a":true}')"#,
            r#"{"a":{"z":1.0E0},"a":[1.0E0],"a":"x","a":true,"a":null}"#,
        ),
        (
            r#"json_normalize('{"a":10,"a":9}')"#,
            r#"{"a":1.0E1,"a":9.0E0}"#,
        ),
        (
            r#"json_normalize('{"a":"ab","a":"b"}')"#,
            r#"{"a":"b","a":"ab"}"#,
        ),
        (
            r#"json_normalize('{"a":1.5,"a":1.25}')"#,
            r#"{"a":1.5E0,"a":1.25E0}"#,
        ),
        (
            r#"json_normalize('{"a":[[1]],"a":[2,3]}')"#,
            r#"{"a":[[1.0E0]],"a":[2.0E0,3.0E0]}"#,
        ),
        (
            r#"json_normalize('{"a":1,"a":"1","a":[1],"a":{},"a":null,"a":false,"a":true}')"#,
            r#"{"a":{},"a":[1.0E0],"a":"1","a":1.0E0,"a":true,"a":false,"a":null}"#,
        ),
        (
            r#"json_normalize('[1e99999999999]')"#,
            r#"[1.0E99999999999]"#,
        ),
        (r#"json_normalize('  "x"  ')"#, r#""x""#),
        (r#"json_normalize(NULL)"#, r#"NULL"#),
        (r#"json_normalize('[1')"#, r#"NULL"#),
        (r#"json_equals('{"a":1}','{ "a" : 1.0 }')"#, r#"1"#),
        (r#"json_equals('[1,2]','[2,1]')"#, r#"0"#),
        (r#"json_equals(NULL,'1')"#, r#"NULL"#),
        (r#"json_equals('1','x')"#, r#"NULL"#),
        (
            r#"json_equals('{"a":1,"b":2}', '{"b":2E0, "a":1E0}')"#,
            r#"1"#,
        ),
        (
            r#"json_equals('[{"a": 3}, {"d": [1, 2, 3]}]', '[{"d": [1E0, 2E0, 3E0]}, {"a":3E0}]')"#,
            r#"0"#,
        ),
    ]);
}

#[test]
fn normalize_orders_repeated_keys_by_value() {
    check(&[
        (
            r#"json_normalize('{"a":{"x":1,"y":2},"a":{"z":0}}')"#,
            r#"{"a":{"z":0.0E0},"a":{"x":1.0E0,"y":2.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":{"b":2},"a":{"a":3}}')"#,
            r#"{"a":{"a":3.0E0},"a":{"b":2.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":{"a":"x"},"a":{"a":1}}')"#,
            r#"{"a":{"a":"x"},"a":{"a":1.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":[2,1],"a":[1,3]}')"#,
            r#"{"a":[1.0E0,3.0E0],"a":[2.0E0,1.0E0]}"#,
        ),
        (
            r#"json_normalize('{"a":[1,"x"],"a":[1,2]}')"#,
            r#"{"a":[1.0E0,"x"],"a":[1.0E0,2.0E0]}"#,
        ),
        (
            r#"json_normalize('{"a":"zz","a":"aaa"}')"#,
            r#"{"a":"zz","a":"aaa"}"#,
        ),
        (
            r#"json_normalize('{"a":12,"a":9.5}')"#,
            r#"{"a":1.2E1,"a":9.5E0}"#,
        ),
        (
            r#"json_normalize('{"a":[{"c":1}],"a":[[1]]}')"#,
            r#"{"a":[{"c":1.0E0}],"a":[[1.0E0]]}"#,
        ),
        (
            r#"json_normalize('{"a":{"b":1},"a":{"bb":1}}')"#,
            r#"{"a":{"b":1.0E0},"a":{"bb":1.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":[false],"a":[true]}')"#,
            r#"{"a":[true],"a":[false]}"#,
        ),
        (
            r#"json_normalize('{"a":[1,1],"a":[9]}')"#,
            r#"{"a":[9.0E0],"a":[1.0E0,1.0E0]}"#,
        ),
        (
            r#"json_normalize('{"a":{"a":2,"b":1},"a":{"a":1,"c":0}}')"#,
            r#"{"a":{"a":1.0E0,"c":0.0E0},"a":{"a":2.0E0,"b":1.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":-1,"a":1}')"#,
            r#"{"a":1.0E0,"a":-1.0E0}"#,
        ),
        (
            r#"json_normalize('{"a":"\u0062","a":"c"}')"#,
            r#"{"a":"c","a":"\u0062"}"#,
        ),
        (
            r#"json_normalize('{"a":null,"a":null,"a":false}')"#,
            r#"{"a":false,"a":null,"a":null}"#,
        ),
        (
            r#"json_normalize('{"b":1,"a":1,"b":0,"a":0}')"#,
            r#"{"a":0.0E0,"a":1.0E0,"b":0.0E0,"b":1.0E0}"#,
        ),
        (
            r#"json_normalize('{"a":[1,2],"a":[1,"x"],"a":[1,[0]]}')"#,
            r#"{"a":[1.0E0,[0.0E0]],"a":[1.0E0,"x"],"a":[1.0E0,2.0E0]}"#,
        ),
        (
            r#"json_normalize('{"a":{"z":1},"a":{"aa":1}}')"#,
            r#"{"a":{"aa":1.0E0},"a":{"z":1.0E0}}"#,
        ),
        (
            r#"json_normalize('{"a":"é","a":"z"}')"#,
            r#"{"a":"z","a":"é"}"#,
        ),
        (
            r#"json_normalize('[{"a b":{"a":true,"b":{"b":null,"é":true,"é":false,"a":1.50},"a.b":null},"c":{"a.b":1E-2,"é":[1.,null]},"a b":{"b":"A","a":false,"a b":[false]},"a b":"a%b"}]')"#,
            r#"[{"a b":{"a":true,"a.b":null,"b":{"a":1.5E0,"b":null,"é":true,"é":false}},"a b":{"a":false,"a b":[false],"b":"A"},"a b":"a%b","c":{"a.b":1.0E-2,"é":[1.0E0,null]}}]"#,
        ),
        (
            r#"json_normalize('{"a":[{},[[true,false,"a",0]],null],"é":-0,"a":{"c":{"a":"é"},"c":[{"":"1"},{},true,0.5],"c":"a b"},"a":[{"a.b":-0,"é":{"":2e0,"":100}}]}')"#,
            r#"{"a":{"c":{"a":"é"},"c":[{"":"1"},{},true,5.0E-1],"c":"a b"},"a":[{"a.b":0.0E0,"é":{"":1.0E2,"":2.0E0}}],"a":[{},[[true,false,"a",0.0E0]],null],"é":0.0E0}"#,
        ),
        (r#"json_equals('{"a":1,"a":2}', '{"a":2,"a":1}')"#, r#"1"#),
    ]);
}

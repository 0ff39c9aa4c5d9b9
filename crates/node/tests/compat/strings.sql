-- String literals whose quotes sqlparser's printer would misread; column names with quotes.
SELECT HEX('a\'\'b'), HEX('x\\\''), HEX('a''''b'), HEX('\'\'');
SELECT '"x\\"y"';
SELECT 'a""b' AS `a""b`;
CREATE TABLE qs (id INT PRIMARY KEY, s VARCHAR(20));
INSERT INTO qs VALUES (1, 'it''s'), (2, 'a\'\'b'), (3, 'x\\\''), (4, '""');
SELECT id, s, HEX(s) FROM qs ORDER BY id;
SELECT id FROM qs WHERE s = 'a''''b';
SELECT TRIM('foo' FROM 'foook'), TRIM(LEADING 'ab' FROM 'ababcab'), TRIM(TRAILING 'ab' FROM 'ababcab'), TRIM('' FROM ' x ');
SELECT JSON_ARRAY(1, 'text', FALSE, NULL), JSON_OBJECT('cond', TRUE, 'x', 1 > 2, 'y', COALESCE(TRUE, FALSE)), JSON_ARRAY_APPEND('["a"]', '$', 1 = 1);
-- CHAR() gives each number's bytes
SELECT HEX(CHAR(256)), CHAR(77, NULL, 121), HEX(CHAR(1, 256, 65536)), CHAR(77.6, '66x');
-- FROM_BASE64 ignores the unused bits of the last character, and wants the padding
SELECT HEX(FROM_BASE64('Yq==')), HEX(FROM_BASE64('YQ')), HEX(FROM_BASE64('YQ=')), HEX(FROM_BASE64('Y Q = =')), HEX(FROM_BASE64('YR'));
-- JSON values: JSON columns spliced in as documents, DECIMALs as numbers with their scale, MAX of a comparison a boolean
CREATE TABLE jv (id INT PRIMARY KEY, a INT, c DECIMAL(5,2), j JSON);
INSERT INTO jv VALUES (1, 1, 3.00, '{"a":"foo","n":19,"t":true}'), (2, 2, 9.5, '[1,2]');
SELECT JSON_ARRAYAGG(c), JSON_ARRAYAGG(j), JSON_OBJECT('x', MAX(a = 4), 'y', MIN(a < 4)), JSON_OBJECTAGG(a, c) FROM jv;
SELECT JSON_ARRAY(1.50, -0.10, c, j), JSON_OBJECT('d', c, 'j', j), JSON_SET('{}', '$.c', c, '$.j', j) FROM jv ORDER BY id;
-- JSON_EXTRACT compared with a string reads a JSON string's characters; with a number, its value
SELECT id FROM jv WHERE JSON_EXTRACT(j, '$.a') = 'foo';
SELECT id FROM jv WHERE JSON_EXTRACT(j, '$.n') = 19;
SELECT id FROM jv WHERE 'foo' = JSON_EXTRACT(j, '$.a');
SELECT JSON_EXTRACT('{"a":"x"}', '$.a') = 'x', JSON_EXTRACT('{"a":"x"}', '$.a') = '"x"', JSON_EXTRACT('{"a":"X"}', '$.a') = 'x', JSON_EXTRACT('{"a":true}', '$.a') = 'true', JSON_EXTRACT('{"a":null}', '$.a') = 'null', JSON_EXTRACT('{"a":[1]}', '$.a') = '[1]', JSON_EXTRACT('{"a":12.0}', '$.a') = '12';
SELECT JSON_EXTRACT('{"a":true}', '$.a') = 1, JSON_EXTRACT('{"a":false}', '$.a') = 0, JSON_EXTRACT('{"a":"19"}', '$.a') = 19, JSON_EXTRACT('{"a":1.50}', '$.a') = 1.5, JSON_EXTRACT('{"a":null}', '$.a') = 0;
SELECT JSON_EXTRACT('{"a":true}', '$.a') + 0, JSON_EXTRACT('{"a":"12abc"}', '$.a') + 0, JSON_EXTRACT('{"a":1.50}', '$.a') + 0, JSON_EXTRACT('{"a":[1]}', '$.a') + 0, CAST(JSON_EXTRACT('{"x":true}', '$.x') AS DOUBLE), CAST(JSON_EXTRACT('{"x":true}', '$.x') AS DECIMAL), CAST(JSON_EXTRACT('{"x":"7"}', '$.x') AS SIGNED);
-- GROUP_CONCAT(... ORDER BY n) sorts by its nth argument
CREATE TABLE gp (id INT PRIMARY KEY, a CHAR(2), b INT);
INSERT INTO gp VALUES (1, 'c', 1), (2, 'a', 3), (3, 'b', 2);
SELECT GROUP_CONCAT(a ORDER BY 1), GROUP_CONCAT(a, b ORDER BY 2), GROUP_CONCAT(a ORDER BY 1 DESC), GROUP_CONCAT(a, '-', b ORDER BY 3 DESC SEPARATOR ';') FROM gp;
SELECT GROUP_CONCAT(a ORDER BY 2) FROM gp;
-- GROUP_CONCAT(... LIMIT n) and JSON_ARRAYAGG(... LIMIT n) keep the first n values
CREATE TABLE gl (id INT PRIMARY KEY, grp INT, a CHAR(2), b INT);
INSERT INTO gl VALUES (1, 1, 'c', 1), (2, 1, 'a', 3), (3, 1, 'b', 2), (4, 2, NULL, 5), (5, 2, 'd', NULL);
SELECT grp, GROUP_CONCAT(a LIMIT 2), GROUP_CONCAT(a ORDER BY a DESC LIMIT 1), GROUP_CONCAT(a, b ORDER BY b LIMIT 2), JSON_ARRAYAGG(a LIMIT 2), JSON_ARRAYAGG(b ORDER BY b DESC LIMIT 1) FROM gl GROUP BY grp ORDER BY grp;
SELECT JSON_ARRAYAGG(a LIMIT 0), GROUP_CONCAT(b LIMIT 0), JSON_ARRAYAGG(b LIMIT 0) FROM gl WHERE grp = 2;
SELECT JSON_ARRAYAGG(a LIMIT 0), GROUP_CONCAT(a LIMIT 0) FROM gl WHERE id = 4;
-- BINARY(n) keeps its values padded with zero bytes to n
CREATE TABLE bp (id INT PRIMARY KEY, a BINARY(3), v VARBINARY(3));
INSERT INTO bp VALUES (1, 'a', 'a'), (2, 'ab ', 'ab '), (3, '', ''), (4, 'A', 'A'), (5, NULL, NULL);
SELECT id, HEX(a), a = 'a', a LIKE 'a%', LENGTH(a), a = v, HEX(v) FROM bp ORDER BY id;
SELECT id FROM bp ORDER BY a, id;
UPDATE bp SET a = 'z' WHERE id = 1;
INSERT INTO bp VALUES (2, 'q', 'q') ON DUPLICATE KEY UPDATE a = 'y';
SELECT id, HEX(a) FROM bp ORDER BY id;
SELECT s1.id FROM bp s1 WHERE s1.v IN (SELECT a FROM bp);
-- ESCAPE '' is the default escape character, and 1210 under NO_BACKSLASH_ESCAPES
SELECT 'hakan%' LIKE 'hakan\%' ESCAPE '', 'hakan\\%' LIKE 'hakan\%' ESCAPE '', 'a_' LIKE 'a\_' ESCAPE '', 'ab' LIKE 'a%' ESCAPE '';
SET sql_mode = 'NO_BACKSLASH_ESCAPES';
SELECT 'ab' LIKE 'a%' ESCAPE '';
SET sql_mode = DEFAULT;
-- numbers into binary and text columns keep their spelling: TEXT affinity, the literal's digits
CREATE TABLE bn (id INT PRIMARY KEY, v VARBINARY(6), b BINARY(3), c VARCHAR(6), t CHAR(6));
INSERT INTO bn VALUES (1, '1.0', '01', 1.50, -0.10), (2, 1.50, 2, 00.50, .5), (3, 7, 0, -0.00, 1e1);
SELECT id, v, HEX(v), LENGTH(v), HEX(b), c, t FROM bn ORDER BY id;
SELECT id FROM bn WHERE v = '1.0' OR b = 2;
DROP TABLE bn;
-- binary columns compare with numbers as numbers, with hex literals as bytes
CREATE TABLE bx (id INT PRIMARY KEY, s VARBINARY(2), t TINYBLOB);
INSERT INTO bx VALUES (1, 0x01, 1), (2, 0x0120, 2), (3, 0x0100, 3), (4, 'a', 5);
SELECT id FROM bx WHERE s = 0x0120 OR s = x'01' ORDER BY id;
SELECT id FROM bx WHERE t = 2 OR t IN (5.0) OR 3 BETWEEN 10 * POW(-1, t) AND t ORDER BY id;
SELECT id, HEX(t) FROM bx WHERE t = '1';
DROP TABLE bx;
-- SUBSTRING_INDEX with a negative count searches from the right in a single-byte character set
SET NAMES latin1;
SELECT SUBSTRING_INDEX('aaaaaaaaa1', 'aa', -1), SUBSTRING_INDEX('aaaaaaaaa1', 'aa', -4), SUBSTRING_INDEX(_utf8mb4'aaaaaaaaa1', 'aa', -2);
SET NAMES utf8mb4;
SELECT SUBSTRING_INDEX('aaaaaaaaa1', 'aa', -1), SUBSTRING_INDEX(_latin1'aaaaaaaaa1', 'aa', -1), SUBSTRING_INDEX(CONVERT('aaaaaaaaa1' USING latin1), 'aa', -2), SUBSTRING_INDEX(BINARY 'aaaaaaaaa1', 'aa', -1);
-- LEFT, RIGHT, REPEAT, REVERSE count the bytes of a binary string and keep it binary
SELECT UNHEX('0032') IN (LEFT(UNHEX('003200'), 2), 'dog'), HEX(LEFT(x'c3a9', 1)), HEX(RIGHT(_binary'abc', 2)), HEX(REPEAT(x'00', 3)), HEX(REVERSE(x'0102')), LEFT('héllo', 2), REVERSE('héllo'), LEFT(NULL, 1), REPEAT('a', NULL);
-- results longer than max_allowed_packet are NULL (a nested HEX no longer grows to SQLite's gigabyte)
SELECT HEX(REPEAT('a', 9000000)) IS NULL, CONCAT(REPEAT('a', 9000000), REPEAT('a', 9000000)) IS NULL, TO_BASE64(REPEAT('a', 13000000)) IS NULL, INSERT(REPEAT('a', 9000000), 1, 1, REPEAT('b', 9000000)) IS NULL, LENGTH(HEX(REPEAT('a', 8000000)));
SELECT HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX(HEX('x')))))))))))))))))))))))))))))) IS NULL;
-- CONCAT of a binary string is binary (its bytes kept) and compares as bytes, as LEFT, REPEAT, ... of one do
SELECT HEX(CONCAT(UNHEX('E0'), UNHEX('E3'))), HEX(CONCAT('a', UNHEX('E0'))), HEX(QUOTE(CONCAT(CHAR(224), CHAR(227)))), CONCAT('a', 1, 2.5, 'é');
SELECT CONCAT(UNHEX('41'), 'b') = 'Ab', CONCAT(UNHEX('41'), 'b') = 'ab', LEFT(UNHEX('4142'), 1) = 'A', CONCAT('A', _binary'b') = 'Ab', UNHEX('0032') IN (LEFT(UNHEX('003200'), 2), 'dog');
SELECT CONCAT(UNHEX('41'), 'b') IN ('Ab', 'x'), UNHEX('41') IN ('a', 'b'), UNHEX('41') NOT IN ('a', 'A');
CREATE TABLE cbin (id INT PRIMARY KEY, v VARBINARY(10), t VARCHAR(10));
INSERT INTO cbin VALUES (1, 'Ab', 'Ab'), (2, 'ab', 'x'), (3, UNHEX('E0'), 'y');
SELECT id, HEX(CONCAT(v, t)), CONCAT(v, '') = t, CONCAT(t, UNHEX('41')) = 'AbA' FROM cbin ORDER BY id;
SELECT id FROM cbin WHERE v IN ('Ab', 'x');
SELECT id FROM cbin WHERE v IN (UNHEX('E0'), 'x');
DROP TABLE cbin;
-- CONVERT(bytes USING utf8): bad bytes are '?', with warning 1300; CHAR(.. USING utf8) all or nothing
SELECT CHAR(0xff, 0x8f USING utf8), CHAR(0xff, 0x8f USING utf8) IS NULL, char(65, 66 USING utf8mb4), hex(char(0xc3, 0xa9 USING utf8)), hex(char(0xff USING binary)), charset(char(65 USING utf8));
SHOW WARNINGS;
SELECT hex(convert(0x41ff42c3 USING utf8)), hex(convert(0xf09f9880 USING utf8)), hex(convert(0xf09f9880 USING utf8mb4)), convert(12 USING utf8) = '12', convert('abc' USING utf8mb4) LIKE 'A%';
SHOW WARNINGS;
-- Under SET NAMES binary, CAST(x AS CHAR(n)) is a binary string zero-padded to n bytes.
SET NAMES binary;
SELECT HEX(CAST(_latin1'a' AS CHAR(2))), HEX(CAST('a' AS CHAR(3))), HEX(CAST('abcd' AS CHAR(3)));
SET NAMES utf8mb4;
SELECT HEX(CAST('abcd' AS BINARY(3))), HEX(CAST('a' AS CHAR(3)));

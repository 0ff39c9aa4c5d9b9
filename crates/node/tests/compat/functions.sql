-- MariaDB's functions for passwords, AES, IPv4 addresses and bit sets, and the Oracle
-- names MariaDB also takes: results byte for byte as MariaDB gives them.
SELECT PASSWORD('my_pw'), PASSWORD(''), PASSWORD(NULL), PASSWORD(1), OLD_PASSWORD('abc'), OLD_PASSWORD(NULL);
SELECT HEX(AES_ENCRYPT('abc', '1')), HEX(AES_ENCRYPT('', 'a')), HEX(AES_ENCRYPT('abc', '01234567890123456789'));
SELECT AES_DECRYPT(AES_ENCRYPT('abc', '1'), 1), AES_DECRYPT('a', 'a'), AES_DECRYPT('', 'a'), AES_ENCRYPT(NULL, 'a'), AES_ENCRYPT('a', NULL);
SELECT INET_ATON('192.168.0.1'), INET_ATON('122.256'), INET_ATON('122.226.'), INET_ATON(''), INET_ATON('1.2.3'), INET_ATON('1.2.3.4.5'), INET_ATON(NULL);
SELECT INET_NTOA(3232235521), INET_NTOA(NULL), INET_NTOA(-1), INET_NTOA(4294967296), INET_NTOA(INET_ATON('10.0.0.255'));
SELECT MAKE_SET(255, 'a', 'b', 'c'), MAKE_SET(5, 'a', NULL, 'c'), MAKE_SET(3.7, 'a', 'b', 'c'), MAKE_SET(NULL, 'a'), MAKE_SET(0, 'a'), MAKE_SET(-1, 'a', 'b');
SELECT EXPORT_SET(5, 'Y', 'N', ',', 4), EXPORT_SET(255, 'y', 'n', ' ', 10), EXPORT_SET(-1, '1', '0', '', 3), EXPORT_SET(5, NULL, 'N'), EXPORT_SET(5, 'Y', 'N', ',', 0), LENGTH(EXPORT_SET(5, 'Y', 'N', ',', 70));
SELECT BENCHMARK(NULL, NULL), BENCHMARK(0, NULL), BENCHMARK(100, 1 + 1), BENCHMARK(10, PI());
SELECT BENCHMARK(-1, 1);
SHOW WARNINGS;
SELECT CHR(65), HEX(CHR(14844588)), CHR(NULL), LENGTHB('ab'), NVL(NULL, 2), NVL('a', 2), NVL2(1, 2, 3), NVL2(NULL, 2, 3);
SELECT NAME_CONST('myname', 12), NAME_CONST('s', 'x'), NAME_CONST('n', NULL), NAME_CONST('m', -1);
SELECT NAME_CONST('a', 1 + 1);
CREATE TABLE fn1 (a INT PRIMARY KEY, b INT);
INSERT INTO fn1 VALUES (1, 2);
SELECT *, VALUE(a) FROM fn1;
INSERT INTO fn1 VALUES (1, 5) ON DUPLICATE KEY UPDATE b = VALUE(b) + 1;
SELECT * FROM fn1;
DROP TABLE fn1;
-- COLLATION(), CHARSET() and COERCIBILITY() follow MariaDB's derivation rules.
CREATE TABLE fn2 (s VARCHAR(10), b VARBINARY(10), t TEXT COLLATE utf8mb4_bin, d DATE, i INT, e ENUM('a','b'), j JSON, id INT PRIMARY KEY);
INSERT INTO fn2 VALUES ('a', 'b', 'c', '2001-01-01', 1, 'a', '[]', 1);
SELECT COLLATION('a'), COERCIBILITY('a'), CHARSET(_latin2'a'), COLLATION(_latin2'a'), COLLATION(x'41'), COERCIBILITY(x'41'), COLLATION(NULL), COERCIBILITY(NULL), CHARSET(NULL) FROM fn2;
SELECT COLLATION(1), COERCIBILITY(1.5), COLLATION(NOW()), COERCIBILITY(DATE'2001-01-01'), COLLATION(USER()), COERCIBILITY(DATABASE()), COLLATION(@@version), COERCIBILITY(@@sql_mode);
SELECT COLLATION(s), COERCIBILITY(s), COLLATION(b), COLLATION(t), COLLATION(d), COERCIBILITY(i), COLLATION(e), COLLATION(j), CHARSET(j) FROM fn2;
SELECT COLLATION(CAST(1 AS CHAR)), COERCIBILITY(CAST(1 AS CHAR)), COLLATION(CAST(s AS BINARY)), COLLATION(CONVERT(s USING latin1)), COERCIBILITY(CONVERT(s USING latin1)) FROM fn2;
SELECT COLLATION(CONCAT(1, 2)), COERCIBILITY(CONCAT(1, 2)), COLLATION(CONCAT(s, 1)), COLLATION(CONCAT(s, t)), COLLATION(CONCAT(_latin2'a', 'b')), COLLATION(CONCAT(s, b)), COERCIBILITY(CONCAT(NULL)), COLLATION(CONCAT(NULL, 'a')) FROM fn2;
SELECT COLLATION(HEX(1)), COERCIBILITY(BIN(130)), COLLATION(CHAR(65)), COLLATION(FORMAT(1, 2)), COLLATION(DAYNAME(NOW())), COLLATION(LCASE(s)), COERCIBILITY(UPPER(1)), COLLATION(MAX(s)), COLLATION(MIN(i)), COERCIBILITY(COUNT(*)), COLLATION(GROUP_CONCAT(s)) FROM fn2;
SELECT COLLATION(IF(1, s, 'a')), COERCIBILITY(IFNULL(s, 1)), COLLATION(COALESCE(NULL, 'a')), COLLATION(CASE WHEN 1 THEN s END), COERCIBILITY(IFNULL(NULL, NULL)), COERCIBILITY(IF(1, 1, 'a')), COLLATION(IF(1, 1, 2)) FROM fn2;
SELECT COLLATION(JSON_UNQUOTE('"a"')), COLLATION(JSON_ARRAY()), COLLATION(s COLLATE utf8mb4_bin), COERCIBILITY(s COLLATE utf8mb4_bin), COLLATION(CONCAT(s COLLATE utf8mb4_bin, t)), COLLATION(TRIM(LEADING 'a' FROM s)), COLLATION(SUBSTRING(s FROM 1)) FROM fn2;
SELECT COLLATION(N'a'), COLLATION(_binary'a'), COERCIBILITY(_binary'a'), COLLATION(BINARY 'a'), COERCIBILITY(BINARY 'a'), COLLATION(UUID()), COERCIBILITY(UUID()), COLLATION(CHARSET('a')), COLLATION(CHR(65)), COERCIBILITY(CHR(65));
SET @fn_s = 'x', @fn_n = 1;
SELECT COLLATION(@fn_s), COERCIBILITY(@fn_s), COLLATION(@fn_n), COLLATION(@fn_unset), COERCIBILITY(@fn_unset);
DROP TABLE fn2;
-- A hex literal's bytes in its introducer's character set.
SELECT _latin1 X'53EC', HEX(CONVERT(_latin1 0x80 USING utf8mb4)), _utf8mb4 0x616263;
SELECT HEX(_utf8mb4 0x616263FF);
SELECT _utf8mb4 0x61FF626364;
-- Row comparisons with a subquery of several columns.
SELECT (SELECT 1, 2, 3) = ROW(1, 2, 3), ROW(1, 2, 3) < (SELECT 1, 2, 1), (SELECT 1.5, 2, 'a') = ROW(1.5, 2, 'A'), ('a', 'b') = (SELECT 'A', 'b' UNION SELECT 'A', 'b');
CREATE TABLE fn3 (a INT, b INT, id INT PRIMARY KEY);
INSERT INTO fn3 VALUES (1, 2, 1), (3, 4, 2);
SELECT (1, 2) = (SELECT a, b FROM fn3 WHERE id = 1), (3, 4) > (SELECT a, b FROM fn3 WHERE id = 1), (SELECT a, b FROM fn3 WHERE id = 3) = (1, 2);
SELECT (1, 2) = (SELECT a, b FROM fn3);
SELECT * FROM fn3 WHERE (a, b) = (SELECT a, b FROM fn3 WHERE id = 2);
DROP TABLE fn3;
-- SELECT ... INTO where MariaDB's grammar has no place for it.
SELECT * FROM (SELECT 1 a INTO @fn_v) d;
SELECT 1 UNION SELECT 1 INTO @fn_v FROM DUAL;
(SELECT 1 INTO @fn_v) UNION (SELECT 1);
SELECT 2 UNION SELECT 2 INTO @fn_v;
SELECT @fn_v;
-- Aggregates inside COLLATION() keep the query grouped.
CREATE TABLE fn4 (a VARCHAR(10), n DOUBLE, id INT PRIMARY KEY);
SELECT COERCIBILITY(MAX(a)), CHARSET(GROUP_CONCAT(a ORDER BY id)) FROM fn4;
INSERT INTO fn4 VALUES ('b', 1, 1), ('a', 2.5, 2), ('c', NULL, 3), ('a\t', 4, 4), ('\t', 5, 5);
SELECT COERCIBILITY(MAX(a)), CHARSET(GROUP_CONCAT(a ORDER BY id)) FROM fn4;
-- GROUP_CONCAT with an offset; EXPORT_SET without a count.
SELECT GROUP_CONCAT(a ORDER BY id LIMIT 1, 2), GROUP_CONCAT(a ORDER BY id LIMIT 2 OFFSET 3), GROUP_CONCAT(a LIMIT 10, 1), EXPORT_SET(6, '1', '0'), EXPORT_SET(6, '1', '0', '') FROM fn4;
-- PAD SPACE: a tab sorts before the end of a string.
SELECT HEX(a) FROM fn4 ORDER BY a, id;
SELECT IF(a < ' ', HEX(a), a), a < 'a', a = 'a' FROM fn4 ORDER BY id;
-- INSERT() counts bytes when a string is binary; TRIM of a DOUBLE spells it as MariaDB.
SELECT HEX(INSERT(_utf8mb4 0xD18FD18E, 2, 1, 0x20)), INSERT('яюя', 2, 1, 'x'), HEX(INSERT('ab', 2, 1, 0x20));
SELECT TRIM(n), LTRIM(n), RTRIM(n), TRIM(LEADING '0' FROM n), REPLACE(n, '.', ',') FROM fn4 ORDER BY id;
DROP TABLE fn4;
-- A binary string stored in a text column is text (0x09 sorts before 'a', 'b' = 'B').
CREATE TABLE fn5 (a VARCHAR(10), t TEXT, c CHAR(3), id INT PRIMARY KEY);
INSERT INTO fn5 VALUES (0x09, 0x09, 0x0920, 1), ('a', 'a', 'a', 2), (_binary'b', x'62', 0x62, 3);
SELECT IF(a < ' ', HEX(a), a), a = 'B', t = 'B', HEX(c), c = 'b' FROM fn5 ORDER BY a, id;
UPDATE fn5 SET a = 0x41 WHERE id = 2;
SELECT id FROM fn5 WHERE a = 'a' ORDER BY t;
DROP TABLE fn5;
-- Text compared with a binary string compares bytes.
CREATE TABLE fn6 (f1 VARCHAR(4), f2 VARCHAR(128), b VARBINARY(10), id INT PRIMARY KEY);
INSERT INTO fn6 VALUES ('YQ==', FROM_BASE64('YQ=='), 'a', 1), ('Yq==', FROM_BASE64('Yq=='), 'B', 2), ('x', 'A', x'41', 3);
SELECT f1, HEX(f2) FROM fn6 WHERE f1 = 'YQ==' AND (f2 = FROM_BASE64('YQ==') OR f2 = FROM_BASE64('Yq=='));
SELECT id FROM fn6 WHERE f2 = x'61' OR f2 = UNHEX('62') ORDER BY id;
SELECT id FROM fn6 WHERE b = 'a' OR b = 'A' ORDER BY id;
SELECT id, f2 = _binary'A', f2 < x'62', 'a' = x'61', CHAR(65) = 'A' FROM fn6 ORDER BY id;
DROP TABLE fn6;
SELECT 'a\0' < 'a', 'a\0' = 'a', 'a\0b' > 'a';
-- DATE_FORMAT of a TIME value formats the duration on the zero date.
CREATE TABLE tfmt (id INT PRIMARY KEY, f1 TIME, f2 TIME);
INSERT INTO tfmt VALUES (1, '09:00', '12:00'), (2, '-33:00:00', '00:00:00');
SELECT DATE_FORMAT(f1, '%l.%i %p'), DATE_FORMAT(f2, '%l.%i %p') FROM tfmt ORDER BY id;
SELECT DATE_FORMAT(f1, '%H %k %h %r %T'), DATE_FORMAT(f1, '%Y-%m-%d'), DATE_FORMAT(f1, '%M') FROM tfmt ORDER BY id;
SELECT DATE_FORMAT(CAST('10:11:12' AS TIME), '%H:%i:%s');
-- JSON_ARRAYAGG(DISTINCT) comes out sorted, NULL first, the first of equal values kept; group_concat_max_len cuts it
CREATE TABLE ja (id INT PRIMARY KEY, b VARCHAR(10));
INSERT INTO ja VALUES (1, 'z'), (2, 'b'), (3, NULL), (4, 'a'), (5, 'b'), (6, 'Z');
SELECT JSON_ARRAYAGG(DISTINCT b), GROUP_CONCAT(DISTINCT b), JSON_ARRAYAGG(DISTINCT id) FROM ja;
SET group_concat_max_len = 9;
SELECT JSON_ARRAYAGG(b), JSON_ARRAYAGG(b LIMIT 2), JSON_ARRAYAGG(id), GROUP_CONCAT(b) FROM ja;
SET group_concat_max_len = 10;
SELECT JSON_ARRAYAGG(b), JSON_ARRAYAGG(b ORDER BY b) FROM ja;
SET group_concat_max_len = DEFAULT;
DROP TABLE ja;
-- ROUND of a DOUBLE is half to even; of a DECIMAL half away from zero
CREATE TABLE rd (id INT PRIMARY KEY, a DOUBLE, f FLOAT, d DECIMAL(5,2));
INSERT INTO rd VALUES (1, 2.5, 2.5, 2.5), (2, -2.5, -0.5, -2.5), (3, 0.5, 0.5, 0.5), (4, 0.125, 1.5, 0.125);
SELECT id, ROUND(a), ROUND(a, 0), ROUND(a, 2) = 0.12, ROUND(f), ROUND(d), ROUND(d, 1), ROUND(a) + 1 FROM rd ORDER BY id;
SELECT ROUND(2.5e0), ROUND(-2.5e0), ROUND(0.125e0, 2), ROUND(25e0, -1), ROUND(2.5), ROUND('2.5'), ROUND(5e0 / 2), ROUND(SQRT(6.25)), ROUND(POW(2, -1));
DROP TABLE rd;
-- Bit operators round a DECIMAL or DOUBLE operand half away from zero
SELECT 0 ^ 0.5, 0 | 0.5, 1.5 & 3, 2.5 | 0, '2.5' | 0, 2.5e0 | 0, ~0.5, 1 << 0.5, 3.5e0 | 0, -2.5e0 | 0, -0.5 | 0;
-- RAND(n) is MySQL's seeded sequence: one per statement for a constant seed, re-seeded per row otherwise
CREATE TABLE r3 (a INT PRIMARY KEY);
INSERT INTO r3 VALUES (1), (2), (3);
SELECT a, RAND(2), RAND(a), RAND(NULL), RAND(-1), CAST(RAND(2) * 1000 AS UNSIGNED) FROM r3 ORDER BY a;
PREPARE stmt FROM 'SELECT CAST(RAND(2) * 1000 AS UNSIGNED), CAST(RAND(?) * 1000 AS UNSIGNED) FROM r3 WHERE a = 1';
SET @var = 2;
EXECUTE stmt USING @var;
DEALLOCATE PREPARE stmt;
DROP TABLE r3;
-- CUME_DIST() and PERCENT_RANK() are doubles of 10 decimals
SELECT a, CUME_DIST() OVER (ORDER BY a) c, PERCENT_RANK() OVER (ORDER BY a) p FROM (SELECT 1 a UNION ALL SELECT 2 UNION ALL SELECT 3) t ORDER BY a;
-- CONCAT_WS shows numbers as MariaDB does; ROUND of a double past its digits
SELECT concat_ws(',', 1e20, 1e-20, 5445796E25, NULL, 0.5), concat_ws(NULL, 'a'), ROUND('0', 309), STDDEV_SAMP(ROUND('0', 309));
SELECT floor(log10(format(concat_ws(5445796E25, 5306463, 30837), -358821))) AS foo;
-- CONV's bases are cut to a C int
SELECT CONV(10, 10, 18446744073709551614), CONV(10, 10, 4294967298), CONV(-29223372036854775809, -10, 18446744073709551614), CONV(10, 10, 2.6);
-- BIT_COUNT; a temporal value negated or in a bit aggregate is its number
SELECT bit_count(5), bit_count(-1), bit_count(NULL), bit_count('7'), bit_count(2.5), bit_count(18446744073709551615), bit_count(-9223372036854775808);
CREATE TABLE tbits (id INT PRIMARY KEY, t TIME, d DATE, dt DATETIME(3), b BIT(8));
INSERT INTO tbits VALUES (1, '10:11:12', '2020-01-02', '2020-01-02 10:11:12.5', b'1011');
SELECT -t, -dt, bit_or(t), bit_and(d), bit_count(d), bit_count(b), bit_count(t), CAST(t AS SIGNED), t DIV 1, d % 7, dt | 0 FROM tbits;
DROP TABLE tbits;
-- MySQL's operator precedence: XOR below AND, ^ above *, shifts between + and &.
SELECT 1 = 1 XOR 2 = 3, 1 << 2 & 3, 2 * 3 ^ 1, 1 | 2 & 3, 8 >> 1 + 1, -2 ^ 1, 1 XOR 1 AND 0, 7 % 3 ^ 1, 5 | 2 & 4, 6 & 3 << 1, ((RPAD(1.0,2048,1)) + (0) ^ ('../'));
-- A re-laid-out document goes into another as its argument's text; deviations of overflowing doubles.
SELECT JSON_OBJECT('a', JSON_COMPACT('{"b":   "abcd", "c":[1,  2]}')), JSON_ARRAY(JSON_LOOSE('{"b":1}'), JSON_DETAILED('[1,  2]'));
SELECT STDDEV(f), STDDEV_POP(f) FROM (SELECT 1.7976931348623157e+308 AS f UNION SELECT -1.7976931348623157e+308 AS f) tbl;
-- ROUND/TRUNCATE of a double to places left of the point: exact powers of ten, shown without decimals.
SELECT ROUND(1.5e200, -199), TRUNCATE(1.23e100, -98), ROUND(1.2345e30, -28), ROUND(12345e0, -2);
CREATE TABLE dbig (id INT PRIMARY KEY, f DOUBLE(200, 0));
INSERT IGNORE INTO dbig VALUES (1, 2e200), (2, -2e200);
SELECT f + 0e0 FROM dbig ORDER BY id;
DROP TABLE dbig;

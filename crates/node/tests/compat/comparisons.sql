-- CASE x WHEN v compares as x = v does; temporal literals and casts read a number or a
-- string compared with them as their type.
CREATE TABLE t1 (id INT PRIMARY KEY, a ENUM('5','6') CHARACTER SET BINARY, b ENUM('a','b','100'));
INSERT INTO t1 VALUES (1, '5', 'a'), (2, '6', 'b'), (3, '5', '100');
SELECT id FROM t1 WHERE CASE a WHEN 1 THEN 1 ELSE 0 END ORDER BY id;
SELECT id FROM t1 WHERE CASE b WHEN 3 THEN 1 ELSE 0 END;
SELECT id FROM t1 WHERE CASE b WHEN '100' THEN 1 ELSE 0 END;
SELECT CASE BINARY 'b' WHEN 'a' THEN 1 WHEN 'B' THEN 2 WHEN 'b' THEN 'ok' END;
SELECT CASE 'b' WHEN 'a' THEN 1 WHEN 'B' THEN 2 WHEN 'b' THEN 'ok' END;
SELECT CASE 1.0 WHEN 0.1 THEN 'a' WHEN 1.0 THEN 'b' ELSE 'c' END;
SELECT CASE NULL WHEN NULL THEN 1 ELSE 2 END, CASE 'a' WHEN 'A' THEN 'ci' END, CASE 1 WHEN '1.0' THEN 'n' END;
SELECT CASE TIME'10:20:30' WHEN 102030 THEN 'one' WHEN TIME'10:20:31' THEN 'two' END;
SELECT TIME'10:20:30' = '10:20:30', CAST('10:20:30' AS TIME) = 102030, TIME'10:20:30' < 102031;
SELECT DATE'2001-01-01' = 20010101, TIMESTAMP'2001-01-01 00:00:00' = 20010101000000;
SELECT TIME'10:20:30.5' = 102030.5, TIME'-01:00:00' < 0, TIME'10:20:30' IN (102030, 1);
SELECT DATE'2001-01-01' BETWEEN 20001231 AND 20010102, CAST(20010101 AS DATE) > '2000-12-31';
SELECT TIME'10:20:30' > TIME'9:00:00', 102030 = TIME'10:20:30', DATE'2001-01-01' = '2001-01-01 00:00:00';
-- BETWEEN over strings compares in the default collation, as = does
SELECT 'B' BETWEEN 'a' AND 'c', _latin1'B' BETWEEN _latin1'a' AND _latin1'c', 'b ' BETWEEN 'b' AND 'b', 'B' NOT BETWEEN 'a' AND 'c', ABS(-2) BETWEEN ABS(1) AND ABS(3), 'B' BETWEEN 'a' AND 'c' COLLATE utf8mb4_bin, BINARY 'B' BETWEEN 'a' AND 'c';
-- A string column compared with a number compares as doubles ('a' = 0, '9' < 10, ' 5' = 5).
CREATE TABLE sn (id INT PRIMARY KEY, c VARCHAR(10), n INT);
INSERT INTO sn VALUES (1, 'a', 1), (2, '0', 2), (3, '10', 10), (4, '9', 9), (5, ' 5', 5), (6, '5x', 6), (7, '0.0', 7);
SELECT id FROM sn WHERE c = 0 ORDER BY id;
SELECT id FROM sn WHERE c < 10 ORDER BY id;
SELECT id FROM sn WHERE c = 5 ORDER BY id;
SELECT id FROM sn WHERE 5 = c ORDER BY id;
SELECT id FROM sn WHERE c IN (5, 10) ORDER BY id;
SELECT id FROM sn WHERE c NOT IN (5, 10) ORDER BY id;
SELECT id FROM sn WHERE c = n ORDER BY id;
SELECT id FROM sn WHERE c IN ('a', 10) ORDER BY id;
SELECT id FROM sn WHERE c = '5' ORDER BY id;
-- A TIME column compared with a constant with more fraction digits than it keeps.
CREATE TABLE tf (id INT PRIMARY KEY, t TIME, t3 TIME(3));
INSERT INTO tf VALUES (1, '10:20:31', '10:20:31.5'), (2, '10:20:30', '10:20:30');
SELECT id FROM tf WHERE t = '10:20:31.123';
SELECT id FROM tf WHERE t = TIME'10:20:31.123';
SELECT id FROM tf WHERE t < '10:20:31.1' ORDER BY id;
SELECT id FROM tf WHERE t3 = '10:20:31.5';
SELECT id FROM tf WHERE t3 = '10:20:31.50000';
SELECT id FROM tf WHERE t3 > '10:20:31.4999' ORDER BY id;
SELECT id FROM tf WHERE t = 102031.5;
-- A DECIMAL column compared with a string stays exact.
CREATE TABLE ds (value DECIMAL(30,0) PRIMARY KEY);
INSERT INTO ds VALUES (100000000000000000000001), (100000000000000000000002), (100000000000000000000003);
SELECT * FROM ds WHERE value = '100000000000000000000002';
SELECT * FROM ds WHERE '100000000000000000000002' = value;
-- a constant compared with a YEAR column is read as the YEAR it would be stored as
CREATE TABLE yr (id INT PRIMARY KEY, a YEAR);
INSERT INTO yr VALUES (1, 2010), (2, 1970), (3, 0), (4, 2000);
SELECT a, a = 10, a = 70, a = 0, a = '0', a = 00, a < 50, a IN (10, 70), a BETWEEN 5 AND 75, a = 10.0, 10 = a, a = '2010', a = -1, a = 'abc' FROM yr ORDER BY id;
DROP TABLE yr;
-- _bin collations are case-sensitive but PAD SPACE; the binary charset is exact
SELECT 'a' = 'a ' COLLATE utf8mb4_bin, 'a\0' < 'a' COLLATE utf8mb4_bin, 'a\t' < 'a' COLLATE utf8mb4_bin, 'a' = 'A' COLLATE utf8mb4_bin;
SELECT _latin1'a' REGEXP _latin1'A' COLLATE latin1_bin, 'a' REGEXP 'A', 'a' NOT REGEXP 'A' COLLATE utf8mb4_bin, 'a' LIKE 'A%' COLLATE utf8mb4_bin;
CREATE TABLE cb (id INT PRIMARY KEY, a VARCHAR(5) COLLATE utf8mb4_bin, b VARCHAR(5) CHARACTER SET binary);
INSERT INTO cb VALUES (1, 'a', 'a'), (2, 'A', 'A'), (3, 'b ', 'b ');
SELECT id FROM cb WHERE a = 'a ' ORDER BY id;
SELECT id FROM cb WHERE b = 'b' ORDER BY id;
SELECT id FROM cb WHERE a LIKE 'A%' ORDER BY id;
SELECT id FROM cb WHERE a REGEXP '^a' ORDER BY id;
SELECT a, COUNT(*) FROM cb GROUP BY a ORDER BY a;
CREATE UNIQUE INDEX ua ON cb (a);
INSERT INTO cb VALUES (4, 'a ', 'x');
DROP TABLE cb;
-- x IN (y) compares as x = y; row comparisons and row IN lists compare each pair as MySQL does.
SELECT TIME'10:20:30' IN (102030.000000001) AS a, '1.0' IN (1) AS b, 'a' NOT IN ('A') AS c, NULL IN (1) AS d;
SELECT ('0x', 1) IN ((0, 1)) AS a, ('0x', 1) IN ((0, 1), (1, 1)) AS b, (1, 'a') = (1, 'A') AS c, (1, 2) IN ((1, 2), (3, 4)) AS d, ('1', 2) IN ((1, NULL)) AS e, (1, 2) NOT IN ((1, 3)) AS f, ('a', 1) <> ('A', 1) AS g;
CREATE TABLE rd (id INT PRIMARY KEY, f1 DATE);
INSERT INTO rd VALUES (1, '2001-01-01'), (2, '2002-02-02');
SELECT f1 FROM rd WHERE ('1', f1) IN (('1', '01-01-01'), ('1', '2001-1-1 0:0:0'), ('1', '03-03-03'));
SELECT id FROM rd WHERE (id, f1) = (2, '2002-2-2');
DROP TABLE rd;
-- a string function's value compared with a number is read as a number
SELECT CONCAT('1') = 1, UPPER('1') = 1, SUBSTR('12', 1, 1) = 1, SUBSTRING('12' FROM 1 FOR 1) = 1, TRIM(' 1') = 1, TRIM(LEADING 'x' FROM 'x1') = 1, CONCAT('1') < 2, CONCAT('1.5') + 1, CONCAT('a') = 0, JSON_VALUE('{"b":true}', '$.b') = 1;
-- CASE x WHEN v compares as x = v does, for a DECIMAL x too; quantified comparisons with DECIMAL subqueries
CREATE TABLE cq (c0 INT, c1 INT, c2 INT);
INSERT INTO cq VALUES (1, 1, 1), (1, 1, 1);
SELECT CASE AVG(c0) WHEN c1 * c2 THEN 1 END, CASE c1 * c2 WHEN SUM(c0) THEN 1 WHEN AVG(c0) THEN 2 END, CASE AVG(c0) WHEN 1 THEN 'y' END FROM cq;
SELECT 1 = ALL (SELECT c1 / c2 FROM cq), 1 < ALL (SELECT c1 / c2 FROM cq), 2 > ANY (SELECT c1 / c2 FROM cq), 1 <> ALL (SELECT c1 / c2 FROM cq);
INSERT INTO cq VALUES (1, 2, 1);
SELECT 1 IN (SELECT c1 / c2 FROM cq), 1 NOT IN (SELECT c1 / c2 FROM cq), 1.0 IN (SELECT c1 / c2 FROM cq), 1.3333 IN (SELECT AVG(c1) FROM cq), (SELECT c1 / c2 FROM cq LIMIT 1) = 1, (SELECT AVG(c1) FROM cq) > 1.3;
SELECT c1 FROM cq WHERE c1 IN (SELECT MAX(c1) / c2 FROM cq GROUP BY c2);
DROP TABLE cq;
-- computed columns of derived tables and CTEs compare as their MySQL types
SELECT x = '1.0', x < '10', z = '1.5', 0 = y FROM (SELECT 1 AS x, 'a' AS y, 1.5e0 AS z) d;
WITH c AS (SELECT 'a' AS y, 2 AS n) SELECT 0 = y, n = '2.0' FROM c;
SELECT 1 < SOME (SELECT 'a'), 1 > ANY (SELECT 'a'), 1 < ALL (SELECT 'a');
-- NULLIF compares as x = y does
CREATE TABLE ny (a YEAR PRIMARY KEY, s VARCHAR(5), d DECIMAL(5,2), f INT);
INSERT INTO ny VALUES (2010, 'A', 1.50, 0), (2011, 'b ', 2, 1);
SELECT a, NULLIF(a, 2011.1), NULLIF(10.1, a), NULLIF(a, 11), NULLIF(s, 'a'), NULLIF(s, 'b'), NULLIF(d, 1.5), NULLIF(d, '2.0'), NULLIF(NOT f, 1) FROM ny ORDER BY a;
DROP TABLE ny;
-- a row subquery or IN subquery of strings and numbers compares them as doubles
SELECT (SELECT 1.5, 2, 'a') = ROW(1.5, '2', 'a'), 0 = ANY (SELECT 'a'), 0 IN (SELECT 'a'), 1 IN (SELECT '1.0'), '1.0' IN (SELECT 1);
-- a string that is no TIME compares as far as it is one
SELECT TIME'00:00:00' = '', TIME'00:00:00' = 'abc', TIME'10:00:00' = '10:00:00x', TIME'00:00:12' = '12abc', TIME'10:00:00' = '10:00:00.5x';
CREATE TABLE tq (a TIME PRIMARY KEY);
INSERT INTO tq VALUES ('00:00:00'), ('10:00:00');
SELECT a FROM tq WHERE a = '10:00:00x';
DROP TABLE tq;
-- a UNION's columns in a derived table are typed where its members agree (a string with a number: a string)
SELECT a FROM (SELECT 1 AS a UNION SELECT 2) u WHERE a = '2.0';
SELECT a FROM (SELECT 'a' AS a UNION ALL SELECT 'b') u WHERE a = 0 ORDER BY a;
SELECT a FROM (SELECT 1 AS a UNION SELECT 'x') u WHERE a = 0;
-- DECIMAL and strings: a computed DECIMAL of a column meets a string constant exactly; a DECIMAL column and a string column compare as doubles, in either order
CREATE TABLE dv (id INT PRIMARY KEY, value DECIMAL(30,0), c VARCHAR(40), d DECIMAL(30,25));
INSERT INTO dv VALUES (1, 100000000000000000000001, '0.1000000000000000000001', 0.1), (2, 100000000000000000000002, '0.1', 0.1000000000000000000001), (3, 100000000000000000000003, '1.5', 1.5);
SELECT id FROM dv WHERE value + 0 = '100000000000000000000002';
SELECT id, value * 1 = '100000000000000000000002', c = d, d = c, c < d, 100000000000000000000001 + 0 = '100000000000000000000002' FROM dv ORDER BY id;
SELECT id FROM dv WHERE d = c ORDER BY id;
DROP TABLE dv;
-- a CHAR column in arithmetic is a double: in derived tables and quantified subqueries too
CREATE TABLE cq (s1 CHAR PRIMARY KEY);
INSERT INTO cq VALUES (1), (2);
SELECT * FROM cq WHERE s1 = ALL (SELECT s1 / s1 FROM cq);
SELECT * FROM cq WHERE NOT (s1 = ALL (SELECT s1 / s1 FROM cq));
SELECT x.s1, d.q FROM cq x, (SELECT s1 / s1 AS q FROM cq) d WHERE x.s1 = d.q ORDER BY 1;
DROP TABLE cq;
-- strings no column collates compare in the default collation: a UNION's duplicates, a GROUP BY alias, IN (SELECT ..)
SELECT COUNT(*) FROM (SELECT 'test' AS a UNION SELECT 'TEST' UNION SELECT 'TeST ') u;
SELECT COUNT(*) FROM (SELECT 'test' AS a UNION SELECT BINARY 'TEST') u;
SELECT LOWER(a) FROM (SELECT 'b' AS a UNION SELECT 'A' UNION SELECT 'a') u ORDER BY a;
SELECT 'x' IN (SELECT 'X'), 'x' NOT IN (SELECT 'X'), 'x' IN (SELECT BINARY 'X');
CREATE TABLE gq (id INT PRIMARY KEY, a VARCHAR(10));
INSERT INTO gq VALUES (1, 'a'), (2, 'A'), (3, 'b '), (4, 'b');
SELECT LOWER(CONCAT(a, '')) AS x, COUNT(*) FROM gq GROUP BY x ORDER BY 1;
SELECT COUNT(*) FROM (SELECT CONCAT(a, '') AS x FROM gq UNION SELECT 'B') u;
DROP TABLE gq;

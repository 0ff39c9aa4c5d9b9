-- MySQL spellings sqlparser does not parse, and the functions they need: each must read
-- as MariaDB reads it (the rows or the error MariaDB gives).
CREATE TABLE sp (id INT PRIMARY KEY, a VARCHAR(10) BINARY NOT NULL DEFAULT 'x', b CHAR(3) CHARSET latin1, c INT DEFAULT 5, z INT ZEROFILL UNSIGNED);
INSERT INTO sp (id, a, b, c) VALUES (1, 'A', 'b', 1), (2, 'a', 'c', 2), (3, 'B', 'd', 3);
-- BINARY as a column attribute: the binary collation
SELECT id FROM sp WHERE a = 'a';
ALTER TABLE sp RENAME sp2;
SELECT COUNT(*) FROM sp2;
ALTER TABLE sp2 RENAME TO sp;
-- GROUP BY ... DESC sorts the groups
SELECT a, COUNT(*) FROM sp GROUP BY a DESC;
SELECT c, COUNT(*) FROM sp GROUP BY c DESC HAVING COUNT(*) > 0;
SELECT CAST(1.7 AS SIGNED INT), CAST(-1 AS UNSIGNED INTEGER);
SELECT t.id FROM { oj sp t LEFT JOIN sp u ON t.id = u.c } ORDER BY 1;
SELECT DISTINCT DISTINCT c FROM sp ORDER BY 1;
SELECT ALL DISTINCT c FROM sp ORDER BY 1;
SELECT CONCAT(':', TRIM(LEADING FROM '  left  '), ':', TRIM(TRAILING FROM '  right  '), ':');
SELECT 1 IS UNKNOWN, NULL IS UNKNOWN, NULL IS NOT UNKNOWN;
SELECT !0 * 5, !1, !(1+1), !NULL;
SELECT HEX(CHAR(0xd1, 0x8f USING utf8mb4)), CHAR(65, 66 USING latin1), HEX(CHAR(0xd1, 0x8f));
SELECT 'mood' SOUNDS LIKE 'mud', 'Glazgo' SOUNDS LIKE 'Liverpool';
SELECT INTERVAL(5, 1, 2, 3, 10), INTERVAL(NULL, 1), INTERVAL(5, NULL, 3, 10), INTERVAL(5, 10, 1, 2);
-- DEFAULT(col): the default, 0 for AUTO_INCREMENT, NULL, or 1364
SELECT DEFAULT(a), DEFAULT(b), DEFAULT(c) FROM sp LIMIT 1;
SELECT DEFAULT(id) FROM sp;
SELECT a FROM sp WHERE DEFAULT(c) = c;
-- tables in parentheses
SELECT sp.id, x.id, y.id FROM sp LEFT JOIN (sp AS x, sp AS y) ON x.id = sp.id AND y.id = sp.c ORDER BY sp.id;
SELECT a.id FROM (sp a) ORDER BY 1;
SELECT a.id FROM ((sp a)) WHERE a.id = 1;
-- a view of a table that is not there
CREATE VIEW v_missing AS SELECT * FROM no_such_table;
-- FORMAT in MariaDB's locales
SELECT FORMAT(1234567.891, 2, 'de_DE'), FORMAT(1234567.891, 2, 'en_IN'), FORMAT(-1234567.5, 1, 'fr_FR'), FORMAT(1234.5, 1, 'it_CH');
SELECT FORMAT(123, 1, 'Non-existent-locale');
SHOW WARNINGS;
SELECT LENGTH(RANDOM_BYTES(10)), RANDOM_BYTES(-1), RANDOM_BYTES(0), RANDOM_BYTES(1025), LENGTH(RANDOM_BYTES('7x'));
SELECT HEX(ENCODE('abcdef', 'monty')), DECODE(ENCODE('abc', 'k'), 'k'), ENCODE(NULL, 'k');
SELECT CRC32(CRC32('My'), 'SQL'), CRC32C('MySQL'), CRC32C(CRC32C('My'), 'SQL'), CRC32(42, NULL), CRC32(-1, '');
-- ALTER TABLE IF EXISTS, table options, DROP INDEX IF EXISTS, an ALTER of nothing
ALTER TABLE IF EXISTS no_such_t ADD COLUMN b INT;
ALTER TABLE sp MAX_ROWS=100, CHECKSUM 1;
ALTER TABLE sp;
ALTER TABLE sp FORCE;
ALTER TABLE no_such_t FORCE;
ALTER TABLE sp DROP INDEX IF EXISTS zz;
SHOW WARNINGS;
-- error codes
CREATE TABLE sp3 (a INT PRIMARY KEY, PRIMARY KEY (a));
CREATE TABLE sp3 (a INT PRIMARY KEY, KEY k (a), KEY k (a));
WITH t(f1, f2) AS (SELECT 1) SELECT * FROM t;
SELECT * FROM sp WHERE 1 = RANK() OVER (ORDER BY id);
SELECT * UNION SELECT 1;
SELECT FROM_DAYS(ROW(1, 1));
SELECT DECODE(ENCODE('abcdef', 'monty'), 'monty') = 'abcdef';
SET max_sort_length = 100;
SET sql_warnings = 1;
SELECT @@max_sort_length, @@sql_warnings;
SET max_sort_length = DEFAULT, sql_warnings = DEFAULT;
DROP TABLE sp;

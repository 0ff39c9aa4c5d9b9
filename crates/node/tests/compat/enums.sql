-- ENUM in a numeric context is its member's index; ORDER BY sorts by the members' order.
-- Strings and numbers in one IN list compare as numbers.
CREATE TABLE e (id INT PRIMARY KEY, s ENUM('new', 'active', 'done', '5'));
INSERT INTO e VALUES (1, 'done'), (2, 'new'), (3, 'active'), (4, '5'), (5, 'NEW'), (6, NULL);
SELECT id, s, s + 0, CAST(s AS SIGNED) FROM e ORDER BY id;
SELECT id FROM e ORDER BY s, id;
SELECT id FROM e ORDER BY s DESC, id;
SELECT id FROM e WHERE s = 2 ORDER BY id;
SELECT id FROM e WHERE s IN (1, 4) ORDER BY id;
SELECT id FROM e WHERE s = 'Active';
SELECT s, SUM(s), COUNT(*) FROM e GROUP BY s ORDER BY s;
SELECT '1.0' IN (1, 2), 1 IN ('1.0', 2), '0x' IN (0), 'a' IN (0, 1), 'b' IN ('a', 'B');
SELECT id FROM e WHERE id IN ('1', '3.0', 'x') ORDER BY id;
CREATE TABLE m (id BIGINT PRIMARY KEY, s VARCHAR(10), b TINYBLOB);
INSERT INTO m VALUES (97716021308405775, 'a', '1'), (1, 'b', '-2'), (2, '1', '3');
SELECT id FROM m WHERE id IN ('97716021308405775', 1) ORDER BY id;
SELECT s FROM m WHERE s IN ('a', 1) ORDER BY s;
SELECT id FROM m WHERE 'a' BETWEEN 0 AND b ORDER BY id;
SELECT id FROM m WHERE '#' BETWEEN b AND 0 ORDER BY id;
DROP TABLE m;
-- GROUP_CONCAT(DISTINCT x) comes out sorted; MAX of a TIME is a TIME in arithmetic
CREATE TABLE g (id INT PRIMARY KEY, a INT, b VARCHAR(10), t TIME);
INSERT INTO g VALUES (1, 1, 'bb', '10:10:10'), (2, 1, 'a', '01:00:00'), (3, 1, 'ccc', '00:00:01'), (4, 2, 'x', NULL), (5, 2, 'A', '-01:00:00');
SELECT a, GROUP_CONCAT(DISTINCT b) FROM g GROUP BY a ORDER BY a;
SELECT MAX(t) + 1, MIN(t) + 0, MAX(t) FROM g;
DROP TABLE g;
DROP TABLE e;
-- a view whose table is gone can still be dropped
CREATE TABLE t (a INT PRIMARY KEY);
CREATE VIEW v AS SELECT a FROM t;
DROP TABLE t;
SELECT * FROM v;
DROP VIEW v;
-- a number is a member's index (a DOUBLE truncated); what is no member is 1265, or ''
-- with a warning under IGNORE and outside strict mode
CREATE TABLE en (id INT PRIMARY KEY, e ENUM('a', 'b'));
INSERT INTO en VALUES (1, 2.7e0), (2, 1.7), (3, '2'), (4, 'A ');
INSERT INTO en VALUES (5, 3);
INSERT INTO en VALUES (5, 0);
INSERT INTO en VALUES (5, '');
INSERT INTO en VALUES (5, ' a');
INSERT IGNORE INTO en VALUES (5, 7), (6, 'zz'), (7, 0);
SHOW WARNINGS;
SET sql_mode = '';
INSERT INTO en VALUES (8, 'x');
SHOW WARNINGS;
SELECT id, e, e + 0 FROM en ORDER BY id;
-- ALTER: a number becomes the member at its index; members appended keep the values;
-- an ENUM becomes a number by its index
SET sql_mode = DEFAULT;
CREATE TABLE ea (id INT PRIMARY KEY, a DOUBLE);
INSERT INTO ea VALUES (1, 300), (2, 2), (3, 1.4), (4, 200);
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100');
DELETE FROM ea WHERE a > 2;
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100');
SELECT id, a FROM ea ORDER BY id;
INSERT INTO en VALUES (9, '');
ALTER TABLE en MODIFY e ENUM('a', 'b', 'c');
SELECT id, e FROM en WHERE id > 4 ORDER BY id;
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100', 'x');
SELECT id, a FROM ea ORDER BY id;
ALTER TABLE ea MODIFY a DOUBLE;
SELECT id, a FROM ea ORDER BY id;
ALTER TABLE ea MODIFY a ENUM('x', 'y');
DROP TABLE ea;
DROP TABLE en;
-- a DECIMAL written into an ENUM is its double, taken as an index
CREATE TABLE ed (id INT PRIMARY KEY, a DECIMAL(10,1), b ENUM('1', '2'));
INSERT INTO ed (id, a) VALUES (1, 1), (2, 2.7);
UPDATE ed SET b = a;
SELECT id, a, b FROM ed ORDER BY id;
ALTER TABLE ed MODIFY a ENUM('1', '2');
SELECT id, a, b FROM ed ORDER BY id;
DROP TABLE ed;
-- members spelled as numbers stay as they are spelled
CREATE TABLE ez (id INT PRIMARY KEY, a ENUM('01', '02', '1'));
INSERT INTO ez VALUES (1, '01'), (2, '1'), (3, 2), (4, '02');
SELECT id, a, a + 0, HEX(a) FROM ez ORDER BY id;
SELECT id FROM ez WHERE a = 1 ORDER BY id;
SELECT id FROM ez WHERE a = '1' ORDER BY id;
SELECT MIN(a), MAX(a) FROM ez;
SELECT id FROM ez ORDER BY a, id;
DROP TABLE ez;

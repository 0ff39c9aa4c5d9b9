-- Warnings and notes: what MariaDB adjusted or found instead of failing, as the OK
-- packet's count, SHOW WARNINGS, SHOW ERRORS and @@warning_count report them.
SELECT 1/0;
SHOW WARNINGS;
-- a statement that uses no table and raises nothing keeps them
SELECT 1;
SET @a = 1;
SHOW WARNINGS;
SELECT @@warning_count, @@error_count;
SHOW COUNT(*) WARNINGS;
SELECT 10 MOD 0, 2.5 / 0;
SHOW WARNINGS;
-- outside strict mode a value that does not fit is adjusted, with a warning
CREATE TABLE w (id INT PRIMARY KEY AUTO_INCREMENT, t TINYINT, u INT UNSIGNED, v VARCHAR(3), d DECIMAL(4,2), dt DATE, tm TIME, y YEAR, b BIT(4));
SET sql_mode = '';
INSERT INTO w (t, u, v) VALUES (300, -1, 'abcdef'), ('12x', 'x', 'ab');
SHOW WARNINGS;
INSERT INTO w (d, dt, tm, y) VALUES (123.456, '2024-02-30', '900:00:00', 1800);
SHOW WARNINGS;
INSERT INTO w (dt, tm, y, b) VALUES ('garbage', 'abc', 'x', 100);
SHOW WARNINGS;
UPDATE w SET t = t * 100 WHERE id = 2;
SHOW WARNINGS;
SELECT t, u, v, d, dt, tm, y, b + 0 FROM w ORDER BY id;
-- in strict mode the same values fail; what is only cut short is a note
SET sql_mode = DEFAULT;
INSERT INTO w (t) VALUES (300);
SHOW WARNINGS;
SHOW ERRORS;
SELECT @@warning_count, @@error_count;
INSERT INTO w (v, d, dt) VALUES ('ab   ', 1.005, '2024-01-01 10:11:12');
SHOW WARNINGS;
INSERT IGNORE INTO w (t) VALUES (-200);
SHOW WARNINGS;
-- a syntax error is the only condition
SELEC 1;
SHOW WARNINGS;
-- notes of IF [NOT] EXISTS
CREATE TABLE IF NOT EXISTS w (a INT);
SHOW WARNINGS;
DROP TABLE IF EXISTS nope1, nope2;
SHOW WARNINGS;
CREATE DATABASE IF NOT EXISTS compat;
SHOW WARNINGS;
DROP DATABASE IF EXISTS nodb;
SHOW WARNINGS;
-- DROP TABLE of a view, DROP VIEW of a table
CREATE VIEW wv AS SELECT id FROM w;
DROP TABLE wv;
DROP TABLE IF EXISTS wv;
SHOW WARNINGS;
DROP VIEW w;
SHOW WARNINGS;
DROP VIEW IF EXISTS nov1, nov2;
SHOW WARNINGS;
DROP VIEW wv, nov;
SHOW WARNINGS;
SHOW TABLES;
-- INSERT IGNORE: a NULL into a NOT NULL column is the type's implicit default, a
-- duplicate key skips the row; both with a warning
CREATE TABLE nn (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(3) NOT NULL, d DATE NOT NULL);
INSERT IGNORE INTO nn VALUES (1, NULL, NULL, NULL), (2, 5, 'x', '2020-01-01'), (1, 6, 'y', '2020-01-02');
SELECT * FROM nn ORDER BY id;
-- outside strict mode one row fails, several are adjusted
SET sql_mode = '';
INSERT INTO nn VALUES (3, NULL, 'a', '2020-01-01');
INSERT INTO nn VALUES (4, NULL, 'a', '2020-01-01'), (5, 1, NULL, '2020-01-01');
SHOW WARNINGS;
INSERT INTO nn SELECT 6, NULL, 'b', '2020-01-01';
SHOW WARNINGS;
SELECT * FROM nn ORDER BY id;
SET sql_mode = DEFAULT;
SELECT CAST('hello' AS CHAR(3)), CONVERT('hello', CHAR(8));
SHOW WARNINGS;
-- the same for UPDATE IGNORE, and an UPDATE outside strict mode
UPDATE IGNORE nn SET a = NULL WHERE id = 2;
SHOW WARNINGS;
SET sql_mode = '';
UPDATE nn SET b = NULL WHERE id > 3;
SET sql_mode = DEFAULT;
SELECT * FROM nn ORDER BY id;

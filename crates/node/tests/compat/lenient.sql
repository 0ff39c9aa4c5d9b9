-- Outside strict mode (INSERT/UPDATE IGNORE, sql_mode without STRICT_*): values are adjusted, not refused.
CREATE TABLE ns (id INT PRIMARY KEY, i TINYINT, u INT UNSIGNED, d DECIMAL(4,2), c CHAR(3), dt DATE, tm TIME, y YEAR);
INSERT IGNORE INTO ns VALUES (1, 300, -5, 123.456, 'abcdef', '2024-02-30', '900:00:00', 1800);
INSERT IGNORE INTO ns VALUES (2, '12abc', 'x', 'zz', 'ab', 'abc', 'abc', 'abc');
SET sql_mode = '';
INSERT INTO ns VALUES (3, -300, 99999999999, -1000, 'abcd', '2001-13-01', '-900:00:00', 3000);
UPDATE ns SET i = 1000 WHERE id = 1;
SET sql_mode = DEFAULT;
SELECT @@sql_mode;
INSERT INTO ns VALUES (4, 300, 1, 1, 'a', '2000-01-01', '10:00:00', 2000);
UPDATE ns SET c = 'toolong' WHERE id = 1;
UPDATE IGNORE ns SET i = -1000, c = 'toolong' WHERE id = 2;
SET sql_mode = 'TRADITIONAL';
INSERT INTO ns (id, i) VALUES (5, 300);
SET sql_mode = 'ANSI';
INSERT INTO ns (id, i, y) VALUES (6, 300, 70);
SET sql_mode = DEFAULT;
SELECT * FROM ns ORDER BY id;
-- binary data too long for its column is cut with warning 1265 where the mode is not strict
SET sql_mode = '';
CREATE TABLE lbl (id INT PRIMARY KEY, a BLOB, b VARBINARY(3));
INSERT INTO lbl VALUES (1, REPEAT(0x61, 300), 0x41424344);
SHOW WARNINGS;
INSERT INTO lbl VALUES (2, 0x616263, 0x41424344);
SELECT id, LENGTH(a), HEX(b) FROM lbl ORDER BY id;
SET sql_mode = DEFAULT;
INSERT INTO lbl VALUES (3, 1, 0x41424344);
DROP TABLE lbl;
-- A NOT NULL column without DEFAULT that an INSERT omits gets its implicit default outside
-- strict mode (warning 1364 once per statement); an ENUM its first member, also in strict mode.
SET sql_mode = DEFAULT;
CREATE TABLE imp (id INT AUTO_INCREMENT PRIMARY KEY, c_int INT NOT NULL, c_dec DECIMAL(5,2) NOT NULL, c_date DATE NOT NULL, c_char CHAR(10) NOT NULL, e ENUM('x','y') NOT NULL, s SET('a') NOT NULL, t TIME NOT NULL, dt DATETIME(2) NOT NULL, y YEAR NOT NULL, b BLOB NOT NULL, bi BIT(3) NOT NULL, f FLOAT NOT NULL);
INSERT IGNORE INTO imp (c_int) VALUES (1), (5);
SHOW WARNINGS;
INSERT INTO imp (c_int) VALUES (4);
SET sql_mode = '';
INSERT INTO imp (c_int) SELECT 3 UNION SELECT 4;
INSERT INTO imp () VALUES ();
SELECT id, c_int, c_dec, c_date, c_char, e, s, t, dt, y, HEX(b), bi + 0, f FROM imp ORDER BY id;
SET sql_mode = DEFAULT;
CREATE TABLE imp_enum (id INT PRIMARY KEY, e ENUM('x','y') NOT NULL);
INSERT INTO imp_enum (id) VALUES (1);
SELECT * FROM imp_enum;

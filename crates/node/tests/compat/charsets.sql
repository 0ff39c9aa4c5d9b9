-- Connection character sets: a latin1 connection's statements are latin1 bytes (this file's UTF-8 'é' is two latin1 characters, as MariaDB reads it) and its results go back as latin1; introducers label the bytes as sent.
CREATE TABLE c (id INT PRIMARY KEY, s VARCHAR(20), e ENUM('Ã¤', 'Ã¶') CHARACTER SET latin1);
INSERT INTO c VALUES (1, 'é', 'Ã¤');
SET NAMES latin1;
SELECT 'é', LENGTH('é'), CHAR_LENGTH('é'), HEX('é'), UPPER('é'), MD5('é'), CHARSET('é');
SELECT 'é' = 'É', 'é' = 'é', _utf8mb4'é', HEX(_binary'é'), LENGTH(_latin1'é');
SELECT s, LENGTH(s), CHAR_LENGTH(s), e FROM c;
INSERT INTO c VALUES (2, 'ü', 'Ã¶');
SELECT id, s, CHAR_LENGTH(s) FROM c ORDER BY id;
SET NAMES utf8mb4;
SELECT id, s, HEX(s), CHAR_LENGTH(s) FROM c ORDER BY id;
SELECT _latin1'é', HEX(_latin1'é'), LENGTH(_latin1'é'), CHARSET(_latin1'é'), _latin1'é' = 'é';
SELECT CONVERT(_latin1'Günter André' USING utf8mb4) LIKE CONVERT(_latin1'GÜNTER%' USING utf8mb4);
SELECT HEX(_utf8mb4'é'), _latin1 0xE9, _latin1 X'80';
-- a column declared in a single-byte set (or in a table whose default is one) answers CHARSET(), COLLATION() and the byte functions in it
CREATE TABLE d (id INT PRIMARY KEY, a VARCHAR(10) CHARACTER SET latin2, b TEXT CHARSET koi8r COLLATE koi8r_bin, c VARCHAR(5), u VARCHAR(5) CHARACTER SET utf8mb4) DEFAULT CHARSET=cp1250;
INSERT INTO d VALUES (1, 'ą', 'ж', 'ř', 'ř');
SELECT CHARSET(a), COLLATION(b), COLLATION(c), COLLATION(u), HEX(a), HEX(b), HEX(c), HEX(u), LENGTH(a), LENGTH(u), CHAR_LENGTH(b) FROM d;
SELECT CHARSET(MAX(a)), CHARSET(CONCAT(a, 'x')), COERCIBILITY(a), MD5(b), a = 'Ą', b LIKE 'Ж' FROM d;
-- an aggregate over no rows: a select-list subquery that reads the query's columns is NULL
CREATE TABLE g (a INT PRIMARY KEY, b INT);
INSERT INTO g VALUES (1, 1), (2, 2);
SELECT MAX(b), (SELECT COUNT(*) FROM c WHERE c.id <= g.b) FROM g WHERE a = 5;
SELECT MAX(b), (SELECT COUNT(*) FROM c WHERE c.id <= g.b) + 1, COALESCE((SELECT COUNT(*) FROM c WHERE c.id <= g.b), 7) FROM g WHERE a = 5;
SELECT MAX(b), (SELECT COUNT(*) FROM c), (SELECT 5), EXISTS (SELECT * FROM c WHERE c.id <= g.b) FROM g WHERE a = 5;
SELECT MAX(b), (SELECT COUNT(*) FROM c WHERE c.id <= g.b) FROM g WHERE a = 1;
SELECT COUNT(*), (SELECT MAX(id) FROM c WHERE c.id > g.b) FROM g WHERE a = 5 HAVING COUNT(*) = 0;

-- MariaDB's SEQUENCE engine tables: seq_FROM_to_TO[_step_N] in every database, one BIGINT UNSIGNED column seq
SELECT * FROM seq_1_to_5;
SELECT * FROM seq_10_to_1_step_3;
SELECT seq FROM seq_0_to_100_step_7 WHERE seq > 80;
SELECT COUNT(*), SUM(seq), MIN(seq), MAX(seq) FROM seq_1_to_10000;
SELECT a.seq, b.seq FROM seq_1_to_3 a JOIN seq_2_to_4 AS b ON a.seq = b.seq ORDER BY a.seq;
SELECT s.seq * 2 FROM seq_5_to_5 s;
CREATE TABLE n (id INT PRIMARY KEY, half INT, label VARCHAR(10));
INSERT INTO n SELECT seq, FLOOR(seq / 2), CONCAT('row', seq) FROM seq_1_to_20;
SELECT COUNT(*), SUM(half), MAX(label) FROM n;
SELECT id FROM n WHERE id IN (SELECT seq * 5 FROM seq_1_to_3) ORDER BY id;
-- the names are taken: CREATE TABLE of one is 1050
CREATE TABLE seq_1_to_2 (seq INT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS seq_1_to_2 (seq INT PRIMARY KEY);
SELECT * FROM seq_1_to_2;
-- updating an INTEGER primary key through a join or a view counts the rows changed
CREATE TABLE k (a INT PRIMARY KEY, b INT);
INSERT INTO k VALUES (10, 2), (20, 3);
CREATE VIEW kv (a, c) AS SELECT a, b + 1 FROM k;
UPDATE kv SET a = a + c;
UPDATE k, n SET k.a = k.a + 1 WHERE k.a = n.id;
SELECT * FROM k ORDER BY a;

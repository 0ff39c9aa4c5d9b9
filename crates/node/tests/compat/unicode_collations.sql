-- utf8mb4_unicode_ci (UCA 4.0.0) and utf8mb4_unicode_520_ci (UCA 5.2.0): expansions, punctuation first, ignorables, PAD SPACE
SELECT 'ß' = 'ss' COLLATE utf8mb4_unicode_ci, 'ﬁ' = 'fi' COLLATE utf8mb4_unicode_ci, 'Å' = 'a' COLLATE utf8mb4_unicode_ci, 'æ' = 'ae' COLLATE utf8mb4_unicode_ci;
SELECT 'a_b' < 'a-b' COLLATE utf8mb4_unicode_ci, 'a-b' < 'ab' COLLATE utf8mb4_unicode_ci, '_' < 'a' COLLATE utf8mb4_unicode_ci, 'a\t' < 'a' COLLATE utf8mb4_unicode_ci;
SELECT '😀' = '😃' COLLATE utf8mb4_unicode_ci, '😀' = '😃' COLLATE utf8mb4_unicode_520_ci, 'a ' = 'a' COLLATE utf8mb4_unicode_520_ci;
SELECT COLLATION('x' COLLATE utf8mb4_unicode_ci), COLLATION('x' COLLATE utf8mb4_unicode_520_ci);
-- a table's default collation reaches its columns, SHOW CREATE TABLE and the columns ALTER TABLE adds
CREATE TABLE u (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(20), tag VARCHAR(10) CHARACTER SET utf8mb4, KEY (name)) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
SHOW CREATE TABLE u;
SHOW FULL COLUMNS FROM u;
INSERT INTO u (name, tag) VALUES ('a-b', 'ß'), ('a_b', 'ss'), ('ab', 's'), ('Ab ', 'S'), ('ß', 'x'), ('ss', 'y'), ('é', 'z'), ('😀', 'z'), ('😃', 'z'), ('0', 'z'), ('$', 'z'), ('Ω', 'z'), ('ω', 'z');
SELECT name FROM u ORDER BY name, id;
SELECT GROUP_CONCAT(name ORDER BY id), COUNT(*) FROM u GROUP BY name ORDER BY name;
SELECT COUNT(DISTINCT name), COUNT(DISTINCT tag) FROM u;
SELECT DISTINCT LOWER(name) FROM u ORDER BY 1;
SELECT id FROM u WHERE name = 'SS' ORDER BY id;
SELECT COLLATION(name), COLLATION(tag), COLLATION(CONCAT(name, '!')) FROM u WHERE id = 1;
ALTER TABLE u ADD COLUMN note VARCHAR(5);
SHOW CREATE TABLE u;
-- a unique key follows the collation
CREATE TABLE w (email VARCHAR(40) COLLATE utf8mb4_unicode_520_ci PRIMARY KEY);
INSERT INTO w VALUES ('strasse@x.com');
INSERT INTO w VALUES ('STRAßE@x.com');
INSERT INTO w VALUES ('straße@x.org');
SELECT email FROM w ORDER BY email;
-- ALTER TABLE changes the default, CONVERT TO the columns too
CREATE TABLE v (id INT PRIMARY KEY, a VARCHAR(10), b VARCHAR(10) CHARACTER SET latin1, t TIME);
INSERT INTO v VALUES (1, 'ß', 'é', '10:00:00'), (2, 'ss', 'e', '9:00:00');
SELECT COUNT(DISTINCT a), COUNT(DISTINCT b), MAX(t) FROM v;
ALTER TABLE v CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
SHOW CREATE TABLE v;
SELECT COUNT(DISTINCT a), COUNT(DISTINCT b), MAX(t) FROM v;
ALTER TABLE v DEFAULT CHARSET utf8mb4 COLLATE utf8mb4_unicode_520_ci;
ALTER TABLE v ADD c VARCHAR(3);
SHOW CREATE TABLE v;
ALTER TABLE v COLLATE utf8mb4_general_ci;
SHOW CREATE TABLE v;
ALTER TABLE v CONVERT TO CHARACTER SET utf8mb4;
SHOW CREATE TABLE v;
SELECT COUNT(DISTINCT a) FROM v;
-- a JSON column takes the new collation too
CREATE TABLE j (id INT PRIMARY KEY, doc JSON, s VARCHAR(5));
ALTER TABLE j CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
SHOW CREATE TABLE j;
SHOW COLLATION LIKE 'utf8mb4_unicode_ci';
SHOW COLLATION LIKE 'utf8mb4_unicode_520_ci';
-- LIKE in a Unicode collation matches each character by its UCA weights
SELECT 'ß' LIKE 'ss' COLLATE utf8mb4_unicode_ci, 'straße' LIKE 'stra_e' COLLATE utf8mb4_unicode_ci, 'Ä' LIKE 'a' COLLATE utf8mb4_unicode_ci, 'ß' LIKE 's' COLLATE utf8mb4_unicode_ci, 'ß' LIKE 's%' COLLATE utf8mb4_unicode_ci;
SELECT 'ß' LIKE 's' COLLATE utf8mb4_unicode_520_ci, 'Æ' LIKE 'ae' COLLATE utf8mb4_unicode_ci, 'a%c' LIKE 'a\%c' COLLATE utf8mb4_unicode_ci, 'abc' LIKE 'A_C' COLLATE utf8mb4_unicode_ci, 'abc' NOT LIKE 'A_C' COLLATE utf8mb4_unicode_ci;
CREATE TABLE lk (id INT PRIMARY KEY, name VARCHAR(20) COLLATE utf8mb4_unicode_ci);
INSERT INTO lk VALUES (1, 'straße'), (2, 'strasse'), (3, 'STRASSE'), (4, 'Ärger'), (5, 'arger');
SELECT id FROM lk WHERE name LIKE 'stra%' ORDER BY id;
SELECT id FROM lk WHERE name LIKE '%ß%' ORDER BY id;
SELECT id FROM lk WHERE name LIKE 'a%' ORDER BY id;
SELECT id FROM lk WHERE name LIKE 'stra_e' ORDER BY id;

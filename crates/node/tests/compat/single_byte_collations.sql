-- the collations of single-byte character sets compare by MariaDB's weights (latin1_swedish_ci: 'ü' = 'y', 'Ä' after 'Z'; german2: 'ä' = 'ae'), not as utf8mb4_general_ci
CREATE TABLE l1 (id INT PRIMARY KEY, sw VARCHAR(10) CHARACTER SET latin1, g1 VARCHAR(10) CHARACTER SET latin1 COLLATE latin1_german1_ci, g2 VARCHAR(10) CHARACTER SET latin1 COLLATE latin1_german2_ci, gen VARCHAR(10) COLLATE latin1_general_ci, np VARCHAR(10) COLLATE latin1_swedish_nopad_ci);
INSERT INTO l1 VALUES (1, 'ü', 'ü', 'ü', 'ü', 'a'), (2, 'y', 'u', 'ue', 'u', 'a '), (3, 'Ä', 'ß', 'ß', 'Y', 'A'), (4, 'z', 's', 'ss', 'z', 'b'), (5, 'Y ', 'S', 'Mueller', 'Ü', 'B'), (6, 'é', 'é', 'Müller', 'é', 'é');
SELECT id, sw FROM l1 ORDER BY sw, id;
SELECT GROUP_CONCAT(id ORDER BY id) FROM l1 GROUP BY sw ORDER BY MIN(sw);
SELECT GROUP_CONCAT(id ORDER BY id) FROM l1 GROUP BY g1 ORDER BY MIN(g1);
SELECT GROUP_CONCAT(id ORDER BY id) FROM l1 GROUP BY g2 ORDER BY MIN(g2);
SELECT GROUP_CONCAT(id ORDER BY id) FROM l1 GROUP BY gen ORDER BY MIN(gen);
SELECT GROUP_CONCAT(id ORDER BY id) FROM l1 GROUP BY np ORDER BY MIN(np);
SELECT COUNT(DISTINCT sw), COUNT(DISTINCT g1), COUNT(DISTINCT g2), COUNT(DISTINCT gen), COUNT(DISTINCT np) FROM l1;
SELECT id FROM l1 WHERE sw = 'Y' ORDER BY id;
SELECT id FROM l1 WHERE g2 = 'MUELLER' ORDER BY id;
SELECT id FROM l1 WHERE sw LIKE 'y%' ORDER BY id;
SELECT id FROM l1 WHERE g1 LIKE 'U' ORDER BY id;
SELECT id FROM l1 WHERE sw > 'y' ORDER BY id;
SELECT sw, COUNT(*) FROM l1 GROUP BY sw COLLATE latin1_german1_ci HAVING sw = 'u' ORDER BY 1;
SELECT COLLATION(sw), COLLATION(g2), COLLATION(np) FROM l1 WHERE id = 1;
SHOW CREATE TABLE l1;
-- a unique key follows the collation
CREATE TABLE l2 (name VARCHAR(10) CHARACTER SET latin1 PRIMARY KEY);
INSERT INTO l2 VALUES ('y');
INSERT INTO l2 VALUES ('ü');
INSERT INTO l2 VALUES ('u');
SELECT name FROM l2 ORDER BY name;
-- other single-byte sets: koi8r, cp1251, latin2
CREATE TABLE l3 (id INT PRIMARY KEY, k VARCHAR(10) CHARACTER SET koi8r, w VARCHAR(10) CHARACTER SET cp1251, l VARCHAR(10) CHARACTER SET latin2);
INSERT INTO l3 VALUES (1, 'б', 'б', 'ą'), (2, 'А', 'А', 'a'), (3, 'Б', 'ё', 'b'), (4, 'я', 'е', 'Ą');
SELECT GROUP_CONCAT(id ORDER BY k, id), GROUP_CONCAT(id ORDER BY w, id), GROUP_CONCAT(id ORDER BY l, id) FROM l3;
SELECT COUNT(DISTINCT k), COUNT(DISTINCT w), COUNT(DISTINCT l) FROM l3;
-- a character the set lacks: 1366 in strict mode, '?' with warning 1366 outside it, as MariaDB converts it
CREATE TABLE l4 (id INT PRIMARY KEY, c VARCHAR(20) CHARACTER SET latin1, k CHAR(5) CHARACTER SET koi8r);
INSERT INTO l4 VALUES (1, 'aćdefghijk', NULL);
INSERT INTO l4 VALUES (2, 'é😀x', NULL);
INSERT INTO l4 VALUES (3, 'a€é', 'aé');
INSERT INTO l4 VALUES (4, 'a€é', 'жук');
SET sql_mode = '';
INSERT INTO l4 VALUES (5, 'aćd😀e', 'ée');
SHOW WARNINGS;
UPDATE l4 SET c = 'xć' WHERE id = 4;
SHOW WARNINGS;
SET sql_mode = DEFAULT;
SELECT id, c, HEX(c), k, HEX(k) FROM l4 ORDER BY id;
SELECT CONVERT('ać€' USING latin1), HEX(CONVERT('ać€' USING latin1)), CONVERT('жук' USING koi8r), CONVERT('жук' USING latin1);
DROP TABLE l1, l2, l3, l4;

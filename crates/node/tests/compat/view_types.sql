-- A view's computed columns have MariaDB's types: DESCRIBE, CREATE TABLE ... SELECT
-- from the view, and comparisons over them.
CREATE TABLE t (id INT PRIMARY KEY, a INT, b INT NOT NULL DEFAULT 7, m DECIMAL(10,2), s VARCHAR(10), d DATETIME(3), e ENUM('x','y') NOT NULL);
INSERT INTO t VALUES (1, 5, 1, 1.25, 'x', '2024-01-02 03:04:05.678', 'x'), (2, NULL, 2, 10.50, 'Y', '2024-03-02 00:00:00', 'y');
CREATE VIEW v AS SELECT id, b, e, a + 1 AS a1, m * 2 AS m2, SUM(m) AS sm, CONCAT(s, 'y') AS cs, d + INTERVAL 1 DAY AS dd, a IS NULL AS an, CURDATE() AS cd, 1 / 3 AS q, COUNT(*) AS n FROM t GROUP BY id;
DESCRIBE v;
SHOW COLUMNS FROM v LIKE 'm%';
CREATE VIEW vj AS SELECT t1.id, t2.b FROM t t1 LEFT JOIN t t2 ON t1.id = t2.b + 5;
DESCRIBE vj;
CREATE VIEW vv AS SELECT a1, m2, dd FROM v;
DESCRIBE vv;
CREATE TABLE c1 SELECT a1, m2, sm, cs, dd, q FROM v;
SHOW CREATE TABLE c1;
SELECT * FROM c1 ORDER BY a1;
SELECT id, m2 FROM v WHERE m2 < 3;
SELECT id FROM v WHERE m2 > 3 ORDER BY m2;
SELECT id, dd FROM vv JOIN v USING (a1, m2, dd) WHERE dd > '2024-02-01';
SELECT m2 + 0.001, q * 3 FROM v ORDER BY id;

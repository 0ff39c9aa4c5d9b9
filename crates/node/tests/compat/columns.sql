-- with column definitions
-- What a result set says of a table column read as is: type, flags (NOT NULL, keys,
-- AUTO_INCREMENT, UNSIGNED, BINARY, BLOB, ENUM, NO_DEFAULT_VALUE), character set, length
-- and decimals, as drivers and ORMs read them.
CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, a TINYINT(2) NOT NULL, b SMALLINT UNSIGNED DEFAULT 3,
  c DECIMAL(10,3), d DOUBLE, e FLOAT(7,3), f VARCHAR(20) NOT NULL DEFAULT '', g CHAR(3), h TEXT,
  i BLOB, j VARBINARY(10), k BINARY(4), l DATE, m DATETIME(3), n TIMESTAMP(6) NULL DEFAULT CURRENT_TIMESTAMP(6),
  o TIME, p YEAR, q BIT(5), r ENUM('a','bcd'), s JSON, u VARCHAR(10) COLLATE utf8mb4_bin,
  v BIGINT NOT NULL, w INT, x MEDIUMINT UNSIGNED, y LONGTEXT, z TINYBLOB,
  UNIQUE KEY (v), KEY (w, a), KEY (f));
INSERT INTO t (a, c, d, e, f, g, h, l, m, n, o, p, r, u, v, w) VALUES
  (1, 1.5, 2.5, 3.25, 'x', 'ab', 'text', '2024-01-02', '2024-01-02 10:00:00.123', '2024-01-03 04:05:06.5', '10:11:12', 2024, 'bcd', 'Bin', 7, 8);
SELECT * FROM t;
SELECT id, a, b FROM t;
SELECT t.c AS price, f AS name, t.v FROM t AS t;
SELECT a FROM (SELECT a, f FROM t) AS dt;
SELECT x.id, y.v FROM t AS x JOIN t AS y ON x.id = y.id;
CREATE TABLE p (x INT, y INT, z INT NOT NULL, w VARCHAR(5) NOT NULL, PRIMARY KEY (x, y), UNIQUE KEY (z, y), UNIQUE KEY (w));
INSERT INTO p VALUES (1, 2, 3, 'a');
SELECT * FROM p;
SELECT y, x FROM p WHERE x = 1 ORDER BY y;
CREATE VIEW v AS SELECT id, f, v FROM t;
SELECT * FROM v;
CREATE TABLE ou (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL DEFAULT NULL ON UPDATE CURRENT_TIMESTAMP(3), dt DATETIME ON UPDATE NOW(), t2 TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP);
SELECT id, ts, dt FROM ou;

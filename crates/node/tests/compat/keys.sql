-- with error messages
-- ON DUPLICATE KEY UPDATE on a row that duplicates several unique keys updates the row of
-- the first key in MySQL's key order (primary, unique NOT NULL, other unique).
CREATE TABLE uk2 (a INT, b INT, c INT, UNIQUE (a), UNIQUE (b));
INSERT INTO uk2 VALUES (1, 2, 10), (3, 4, 20);
INSERT INTO uk2 VALUES (1, 4, 60) ON DUPLICATE KEY UPDATE c = c + 10000;
INSERT INTO uk2 VALUES (3, 2, 60) ON DUPLICATE KEY UPDATE c = c + 5;
SELECT * FROM uk2 ORDER BY a;
CREATE TABLE uk3 (id INT PRIMARY KEY, a INT, b INT NOT NULL, c INT, UNIQUE KEY ua (a), UNIQUE KEY ub (b));
INSERT INTO uk3 VALUES (1, 1, 1, 0), (2, 2, 2, 0), (3, 3, 3, 0);
INSERT INTO uk3 VALUES (3, 1, 2, 0) ON DUPLICATE KEY UPDATE c = c + 1;
INSERT INTO uk3 VALUES (4, 1, 2, 0) ON DUPLICATE KEY UPDATE c = c + 10;
INSERT INTO uk3 VALUES (5, 1, 9, 0) ON DUPLICATE KEY UPDATE c = c + 100;
INSERT INTO uk3 (id, a, b) SELECT 6, 2, 3 ON DUPLICATE KEY UPDATE c = c + 1000;
SELECT * FROM uk3 ORDER BY id;
-- A duplicate key names the key and the duplicated value (1062), the first key in MySQL's order.
CREATE TABLE customers (id INT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(50) NOT NULL, region CHAR(2), code INT, UNIQUE KEY uk_email (email), UNIQUE KEY uk_rc (region, code));
INSERT INTO customers (email, region, code) VALUES ('a@x.com', 'eu', 1);
INSERT INTO customers (email, region, code) VALUES ('a@x.com', 'us', 2);
INSERT INTO customers (email, region, code) VALUES ('A@X.COM ', 'us', 2);
INSERT INTO customers (id, email) VALUES (1, 'b@x.com');
INSERT INTO customers (id, email, region, code) VALUES (1, 'a@x.com', 'eu', 1);
INSERT INTO customers (email, region, code) VALUES ('c@x.com', 'eu', 1);
INSERT INTO customers (email, region, code) VALUES ('d@x.com', 'us', 3), ('e@x.com', 'us', 3);
INSERT INTO customers (email, region, code) SELECT CONCAT(email, '.org'), region, code FROM customers;
INSERT INTO customers (email) VALUES ('f@x.com'), ('f@x.com');
SELECT id, email, region, code FROM customers ORDER BY id;
CREATE TABLE money (amount DECIMAL(10,2) PRIMARY KEY, at DATETIME(3) UNIQUE);
INSERT INTO money VALUES (1.5, '2024-01-02 03:04:05.5');
INSERT INTO money VALUES (1.50, '2024-01-02 03:04:06');
INSERT INTO money VALUES (2, '2024-01-02 03:04:05.500');
-- INSERT … SELECT … ON DUPLICATE KEY UPDATE reading the SELECT's row, by table name, alias
-- or a bare name only the SELECT's table has; `*` selects every column.
CREATE TABLE src (id INT PRIMARY KEY, n INT, label VARCHAR(10));
CREATE TABLE dst (id INT PRIMARY KEY, total INT, name VARCHAR(10));
INSERT INTO src VALUES (1, 10, 'one'), (2, 20, 'two'), (3, 30, 'three');
INSERT INTO dst VALUES (1, 1, 'x'), (2, 2, 'y');
INSERT INTO dst (id, total, name) SELECT id, n, label FROM src ON DUPLICATE KEY UPDATE total = dst.total + src.n, name = src.label;
SELECT * FROM dst ORDER BY id;
INSERT INTO dst (id, total, name) SELECT s.id, s.n, s.label FROM src AS s WHERE s.id < 3 ON DUPLICATE KEY UPDATE total = s.n * 2, name = CONCAT(s.label, '!');
SELECT * FROM dst ORDER BY id;
INSERT INTO dst SELECT * FROM src ON DUPLICATE KEY UPDATE total = total + n;
SELECT * FROM dst ORDER BY id;
DROP TABLE src, dst;

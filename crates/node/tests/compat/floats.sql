-- FLOAT and DOUBLE: single precision, (M,D) rounding and range, UNSIGNED, and the way
-- MariaDB spells doubles (results, CONCAT, CAST, a double stored into a string column).
CREATE TABLE f (id INT PRIMARY KEY, a FLOAT, b FLOAT(4,3), c FLOAT UNSIGNED, d DOUBLE(6,2), e FLOAT(30), g DOUBLE UNSIGNED, r REAL(5,2));
SHOW CREATE TABLE f;
INSERT INTO f VALUES (1, 1.1, 1.2345, 3.33333333, 12.345, 1.1, 0.1, 1.005);
INSERT INTO f VALUES (2, 1e40, 0, 0, 0, 0, 0, 0);
INSERT INTO f VALUES (2, 0, 11, 0, 0, 0, 0, 0);
INSERT INTO f VALUES (2, 0, 0, -1, 0, 0, 0, 0);
SET sql_mode = '';
INSERT INTO f VALUES (2, 123456789, 11, -1, 12345.678, 123456789, -5, 1000);
SHOW WARNINGS;
INSERT INTO f VALUES (3, 1e40, -11, 1e40, 0.005, 1e40, 1e300, -0.5);
INSERT INTO f VALUES (4, 0.000012345678, 1.2344, 1e-10, -9999.999, 0.1, 1e15, 0);
SET sql_mode = DEFAULT;
SELECT * FROM f ORDER BY id;
SELECT a + 0e0, c * 2, e + 0e0 FROM f ORDER BY id;
SELECT MAX(a), MIN(a), COALESCE(a), MAX(a) + 0e0 FROM f WHERE id = 1;
SELECT CONCAT(a), CONCAT(b), CAST(a AS CHAR), CONCAT(d), LENGTH(a) FROM f ORDER BY id;
SELECT 1e14, 1e15, 1.5e-15, 1.5e-16, 0.1e0 + 0.2e0, 1e16 + 2e0, CONCAT(1.5e300), CAST(1e40 AS CHAR);
SELECT --1, - -2e0, ---3e0;
CREATE TABLE s (id INT PRIMARY KEY AUTO_INCREMENT, c CHAR(5));
INSERT INTO s (c) VALUES (0.123456789e0), (123.456789e0), (12345.6e0), (-1.5e0), (99999.9e0), (-12345.6e0), (123456e0), (1.5e-7);
SELECT c FROM s ORDER BY id;
INSERT INTO s (c) VALUES (1.2345e-10);
SET sql_mode = '';
INSERT INTO s (c) VALUES (1.2345e-10);
SHOW WARNINGS;
SET sql_mode = DEFAULT;
CREATE TABLE bad (a FLOAT(200,100));
CREATE TABLE bad (a FLOAT(54));
CREATE TABLE bad (a FLOAT(1,2));
CREATE TABLE bad (a DOUBLE(256,2));
DROP TABLE f, s;
-- A double that overflows is MariaDB's 1690, not infinity
SELECT 1e308 + 1e308;
SELECT -1e308 - 1e308;
SELECT 1e300 * 1e300;
SELECT 1e300 / 1e-300;
SELECT 1e308 + 1e307 - 1e308;
-- a HAVING reads a DOUBLE(M,D) sum at its D decimals, as the result shows it
CREATE TABLE fs (id INT PRIMARY KEY, a INT, b DOUBLE(8,2));
INSERT INTO fs VALUES (1, 1, 28.50), (2, 1, 121.85), (3, 1, 157.23), (4, 1, 1351.00), (5, 1, -1965.35), (6, 1, 81.75), (7, 1, 217.08), (8, 1, 7.94), (9, 4, 96.07), (10, 4, 6404.65), (11, 4, -6500.72), (12, 2, 100.00);
SELECT a FROM fs GROUP BY a HAVING SUM(b) <> 0 ORDER BY a;
SELECT a FROM fs GROUP BY a HAVING SUM(b) <=> 0 ORDER BY a;
SELECT a, SUM(b) s, AVG(b) FROM fs GROUP BY a ORDER BY a;
SELECT a, SUM(b) s FROM fs GROUP BY a HAVING s <> 0 ORDER BY a;
DROP TABLE fs;
-- FLOAT values that are no column: MAX, LEAST, COALESCE and CAST(x AS FLOAT) show a FLOAT's digits; a UNION of FLOAT and INT is a DOUBLE
CREATE TABLE fl (pk INT PRIMARY KEY, a FLOAT);
INSERT INTO fl VALUES (1, 0.671437);
SELECT a, COALESCE(a), MAX(a), LEAST(a, a) FROM fl;
SELECT CONCAT(a), CONCAT(COALESCE(a)), CONCAT(LEAST(a, a)), CONCAT(MAX(a)) FROM fl;
SELECT CAST(1e40 AS FLOAT), CAST(-1e40 AS FLOAT), CAST(0.671437 AS FLOAT), CONCAT(CAST(0.671437 AS FLOAT)), CAST(0.1 AS FLOAT) + 0, a + 0e0 FROM fl;
SELECT a FROM fl UNION SELECT 1 ORDER BY 1;
SELECT a FROM fl UNION ALL SELECT a FROM fl;
DROP TABLE fl;
-- a scalar subquery of a FLOAT is a FLOAT: shown with a FLOAT's digits, a double in arithmetic
CREATE TABLE fsq (id INT PRIMARY KEY, a FLOAT);
INSERT INTO fsq VALUES (1, 0.671437);
SELECT a, MAX(a), LEAST(a, a), (SELECT a FROM fsq) AS c, CONCAT((SELECT a FROM fsq)), (SELECT a FROM fsq) + 0, (SELECT MAX(a) FROM fsq) FROM fsq;
SELECT id FROM fsq WHERE a = (SELECT a FROM fsq);
DROP TABLE fsq;
-- A DOUBLE result shows MariaDB's fixed decimals: the most of its operands' (+ - * MOD IF IFNULL COALESCE GREATEST CASE ABS SUM MIN MAX), 4 more for / and AVG, n for ROUND(x, n).
CREATE TABLE rf (f FLOAT(5,2), d DOUBLE(10,3), g DOUBLE, i INT, n DECIMAL(6,1));
INSERT INTO rf VALUES (1.1, 2.25, 0.1, 3, 1.5);
SELECT f*3, f+d, f-i, d*d, f/3, d/i, -f, f*n, f+n, ROUND(f,1), ROUND(g,2), ROUND(d), TRUNCATE(d,1), ABS(f), CEIL(f), SQRT(d), f DIV 1, f % 1, MOD(f, 1), IF(1,f,d), IFNULL(f,0), COALESCE(f,d), GREATEST(f,d), CASE WHEN 1 THEN f ELSE 1 END FROM rf;
SELECT MIN(f)*2, SUM(f*2), AVG(d*2), MAX(d)/7 FROM rf;
CREATE TABLE dd (x DOUBLE(60,30), y DOUBLE(40,0));
INSERT INTO dd VALUES (0.1, 123456789012345678901234567890), (1/3, 2e20+1), (0.1e0 + 0.2e0, 1e22);
SELECT x, y, x*1, y*1, ROUND(x, 25), 1e0 * x FROM dd ORDER BY x;
DROP TABLE rf, dd;
-- PI() has 6 fixed decimals; string functions read a double with fixed decimals as it is shown.
CREATE TABLE rs (f FLOAT(5,2), d DOUBLE(10,3));
INSERT INTO rs VALUES (1.1, 2.25);
SELECT PI(), CRC32(PI()), CONCAT(PI()), PI()*2, ROUND(PI(),3), PI()+0e0, CONCAT(f*3), UPPER(f*3), LENGTH(f/3), CONCAT(ROUND(0.1e0, 3)), CONCAT(f), UPPER(f), LTRIM(d*2) FROM rs;
DROP TABLE rs;
-- A UNION's decimals are those of all its SELECTs.
CREATE TABLE fu (f FLOAT);
INSERT INTO fu VALUES (1.1);
SELECT 2147483647 UNION SELECT f FROM fu ORDER BY 1;
DROP TABLE fu;
-- Doubles with fixed decimals compare within half a unit of their last decimal (a+b of 0.1 and
-- 0.2 is 0.3); a FLOAT(M,D) keeps the single-precision value.
CREATE TABLE fx (id INT PRIMARY KEY, a DOUBLE(5,2), b DOUBLE(5,2), f FLOAT(5,2), g FLOAT, i INT, h FLOAT(30,0));
INSERT INTO fx VALUES (1, 0.1, 0.2, 1.1, 1.1, 1, 1e29), (2, NULL, 0.3, 2.35, NULL, 2, -1e30);
SELECT a + b = 0.3, a + b < 0.3, a + b > 0.3, a + b <=> 0.3, a + b IN (0.3), f = 1.1, f <> 1.1, f >= 1.1, f = 1, g = 1.1, f * 2 = 2.2, f = g, NULL <=> a, f = i + 0.1 FROM fx ORDER BY id;
SELECT f + 0e0, CAST(f AS DECIMAL(20,10)), f IN (1.1, 2), f / 3, h, h + 0e0 FROM fx ORDER BY id;
SELECT id FROM fx WHERE a + b = 0.3;
SELECT id FROM fx WHERE f = 2.35;
SELECT SUM(f), AVG(f), MAX(f) FROM fx;

-- BETWEEN, <=>, GREATEST and LEAST of computed DECIMALs compare by number (a DECIMAL's text sorted after every number)
CREATE TABLE t (id INT PRIMARY KEY, p DECIMAL(10,2), q INT, g INT, s VARCHAR(10));
INSERT INTO t VALUES (1, 0.10, 3, 1, '10'), (2, 0.20, 40, 1, 'abc'), (3, 1.50, 7, 2, '2'), (4, 10.00, 1, 2, NULL);
SELECT 0.1 + 0.2 BETWEEN 0 AND 1, 0.1 + 0.2 NOT BETWEEN 0 AND 1, 0.1 + 0.2 BETWEEN 0.3 AND 0.3;
SELECT id FROM t WHERE p * q BETWEEN 1 AND 10 ORDER BY id;
SELECT id FROM t WHERE p * q NOT BETWEEN 1 AND 10 ORDER BY id;
SELECT id, 10.00 BETWEEN p * q AND p * 100, IF(p * q BETWEEN 1 AND 9, 'y', 'n') FROM t ORDER BY id;
SELECT g, SUM(p) FROM t GROUP BY g HAVING SUM(p) BETWEEN 0.3 AND 0.3;
SELECT SUM(p) BETWEEN 11.8 AND 11.8, AVG(p) BETWEEN 2.95 AND 2.95, (SELECT SUM(p) FROM t) BETWEEN 11.8 AND 11.8 FROM t;
SELECT id FROM t WHERE p - 0.1 BETWEEN 0 AND 0 OR ROUND(p * q, 1) BETWEEN 8 AND 8 ORDER BY id;
SELECT id FROM t WHERE p * q BETWEEN 1e0 AND 9e0 ORDER BY id;
SELECT id FROM t WHERE p * q BETWEEN '1' AND '9' ORDER BY id;
SELECT NULL BETWEEN 1 AND 2, 2.5 * 1 BETWEEN NULL AND 2, 0.5 * 1 BETWEEN NULL AND 2;
-- a quotient's held digits: = compares them as shown, BETWEEN as held
SELECT q / 3 = 1.0000, q / 3 BETWEEN 1.0000 AND 1.0000, 1 / 3 BETWEEN 0.3333 AND 0.3333 FROM t WHERE id = 1;
SELECT id, p * q <=> 0.3, p <=> 0.1, p * q <=> NULL, NULL <=> p * q, s <=> 10 FROM t ORDER BY id;
SELECT 1.5 <=> 1.50, 'a' <=> 'A', 'a' <=> 'a  ', 1 <=> '1', NULL <=> NULL, 1 / 3 <=> 0.3333;
SELECT GREATEST('10', 9.5), GREATEST('abc', 1.5), GREATEST(1.5, 2), GREATEST(0.10, 2), LEAST(1.50, 2, 1.2), GREATEST(1 / 3, 0.3), LEAST(1 / 3, 0.5) * 3, GREATEST(1.5, NULL);
SELECT id, GREATEST(p, q), LEAST(p, q), GREATEST(p * q, 1), LEAST(p * q, 1.5), GREATEST(p, s) FROM t ORDER BY id;
-- SUM of integers is an exact DECIMAL: past 2^63 - 1, and on the way to a total that fits
CREATE TABLE u (id INT PRIMARY KEY, v BIGINT UNSIGNED, w BIGINT);
INSERT INTO u VALUES (1, 18446744073709551615, 9223372036854775807), (2, 18446744073709551615, 9223372036854775807), (3, 5, -9223372036854775807);
SELECT SUM(v), SUM(w), AVG(w), SUM(DISTINCT w), SUM(id) FROM u;
SELECT id, SUM(w) OVER (ORDER BY id) FROM u ORDER BY id;
SELECT SUM(w) + 1, SUM(w) / 2 FROM u;
SELECT SUM(w) FROM u WHERE id < 3 HAVING SUM(w) > 1;
SELECT SUM(q), SUM(q) + 0.5, SUM(q) / 3 FROM t;
-- a user variable keeps a DECIMAL as a DECIMAL
SET @t = 0.1;
SET @t = @t + 0.2;
SELECT @t = 0.3, @t;
SET @a = 1.10;
SELECT @a, CONCAT(@a), @a = 1.1;
SET @m = (SELECT SUM(p) FROM t);
SELECT @m, @m = 11.8;
SET @d = 1 / 3;
SELECT @d;
SELECT @c := 1 / 3;
SELECT @c;
SET @s = 0;
SELECT @s := @s + p FROM t ORDER BY id;
SELECT @s, @s = 11.8;
SELECT SUM(p) INTO @i FROM t;
SELECT @i, @i = 11.80;
-- a DECIMAL literal in a string UNION column shows its digits
SELECT 'a' UNION SELECT 1.50 ORDER BY 1;
SELECT x FROM (SELECT 'a' x UNION SELECT -0.50) d ORDER BY x;

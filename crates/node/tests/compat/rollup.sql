-- GROUP BY ... WITH ROLLUP: super-aggregate rows in MariaDB's order, rolled-up columns NULL
-- (expressions of them too), HAVING and LIMIT over all rows; DECIMALs of derived tables.
CREATE TABLE sales (id INT PRIMARY KEY, region VARCHAR(5), yr INT, amount DECIMAL(8,2));
INSERT INTO sales VALUES (1, 'east', 2023, 10.50), (2, 'east', 2024, 20.25), (3, 'west', 2023, 5.00), (4, NULL, 2024, 1.10), (5, 'west', NULL, 7.35), (6, 'east', 2024, 0.05);
SELECT region, yr, SUM(amount), COUNT(*) FROM sales GROUP BY region, yr WITH ROLLUP;
SELECT region, CONCAT(region, '!') AS r2, SUM(amount) AS total FROM sales GROUP BY region WITH ROLLUP;
SELECT region, SUM(amount) AS total FROM sales GROUP BY region WITH ROLLUP HAVING total > 10;
SELECT yr AS y, AVG(amount), MAX(region) FROM sales GROUP BY y WITH ROLLUP;
SELECT region, COUNT(*) FROM sales GROUP BY 1 WITH ROLLUP LIMIT 2;
SELECT DISTINCT COUNT(*) FROM sales GROUP BY region WITH ROLLUP;
SELECT region, COUNT(*) FROM sales WHERE id > 100 GROUP BY region WITH ROLLUP;
SELECT SUM(yr), COUNT(*) FROM sales GROUP BY yr WITH ROLLUP;
SELECT * FROM (SELECT region, SUM(amount) AS s FROM sales GROUP BY region WITH ROLLUP) x WHERE s > 6;
SELECT region, COUNT(*) FROM sales GROUP BY region WITH ROLLUP ORDER BY region;
SELECT * FROM (SELECT region, SUM(amount) s, AVG(amount) FROM sales GROUP BY region) d ORDER BY region;
SELECT s * 2 FROM (SELECT region, SUM(amount) s FROM sales GROUP BY region) d ORDER BY region;

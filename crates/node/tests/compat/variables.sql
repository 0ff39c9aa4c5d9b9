-- User variables assigned inside statements (`@v := x`), read row by row.
CREATE TABLE v (id INT PRIMARY KEY, a INT);
INSERT INTO v VALUES (1, 10), (2, 20), (3, 30);
SELECT @a := 5;
SELECT @a, @a + 1;
SET @n = 0;
SELECT @n := @n + 1 AS rn, a FROM v ORDER BY id;
SELECT @n;
SET @s = 0;
SELECT a, @s := @s + a AS running FROM v ORDER BY id;
SELECT @s, @x := 'str', @y := 1.5;
SELECT @x, @y;
UPDATE v SET a = (@m := a * 2) WHERE id = 2;
SELECT @m, a FROM v WHERE id = 2;
SELECT @undefined := NULL, @undefined IS NULL;
-- A variable that held nothing is a string where the statement that assigns it reads it (MariaDB types it when the statement is prepared): compared with a number as a number
SELECT @vb := 0.1 + 0.2, @vb = 0.3, @vb;
SELECT @vb = 0.3;
SELECT @vq := 1, @vq, @vq = 1;

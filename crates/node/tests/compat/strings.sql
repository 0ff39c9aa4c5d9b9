-- String literals whose quotes sqlparser's printer would misread; column names with quotes.
SELECT HEX('a\'\'b'), HEX('x\\\''), HEX('a''''b'), HEX('\'\'');
SELECT '"x\\"y"';
SELECT 'a""b' AS `a""b`;
CREATE TABLE qs (id INT PRIMARY KEY, s VARCHAR(20));
INSERT INTO qs VALUES (1, 'it''s'), (2, 'a\'\'b'), (3, 'x\\\''), (4, '""');
SELECT id, s, HEX(s) FROM qs ORDER BY id;
SELECT id FROM qs WHERE s = 'a''''b';
SELECT TRIM('foo' FROM 'foook'), TRIM(LEADING 'ab' FROM 'ababcab'), TRIM(TRAILING 'ab' FROM 'ababcab'), TRIM('' FROM ' x ');
SELECT JSON_ARRAY(1, 'text', FALSE, NULL), JSON_OBJECT('cond', TRUE, 'x', 1 > 2, 'y', COALESCE(TRUE, FALSE)), JSON_ARRAY_APPEND('["a"]', '$', 1 = 1);
-- CHAR() gives each number's bytes
SELECT HEX(CHAR(256)), CHAR(77, NULL, 121), HEX(CHAR(1, 256, 65536)), CHAR(77.6, '66x');

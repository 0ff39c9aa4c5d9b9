-- ENUM in a numeric context is its member's index; ORDER BY sorts by the members' order.
-- Strings and numbers in one IN list compare as numbers.
CREATE TABLE e (id INT PRIMARY KEY, s ENUM('new', 'active', 'done', '5'));
INSERT INTO e VALUES (1, 'done'), (2, 'new'), (3, 'active'), (4, '5'), (5, 'NEW'), (6, NULL);
SELECT id, s, s + 0, CAST(s AS SIGNED) FROM e ORDER BY id;
SELECT id FROM e ORDER BY s, id;
SELECT id FROM e ORDER BY s DESC, id;
SELECT id FROM e WHERE s = 2 ORDER BY id;
SELECT id FROM e WHERE s IN (1, 4) ORDER BY id;
SELECT id FROM e WHERE s = 'Active';
SELECT s, SUM(s), COUNT(*) FROM e GROUP BY s ORDER BY s;
SELECT '1.0' IN (1, 2), 1 IN ('1.0', 2), '0x' IN (0), 'a' IN (0, 1), 'b' IN ('a', 'B');
SELECT id FROM e WHERE id IN ('1', '3.0', 'x') ORDER BY id;
CREATE TABLE m (id BIGINT PRIMARY KEY, s VARCHAR(10), b TINYBLOB);
INSERT INTO m VALUES (97716021308405775, 'a', '1'), (1, 'b', '-2'), (2, '1', '3');
SELECT id FROM m WHERE id IN ('97716021308405775', 1) ORDER BY id;
SELECT s FROM m WHERE s IN ('a', 1) ORDER BY s;
SELECT id FROM m WHERE 'a' BETWEEN 0 AND b ORDER BY id;
SELECT id FROM m WHERE '#' BETWEEN b AND 0 ORDER BY id;
DROP TABLE m;
-- GROUP_CONCAT(DISTINCT x) comes out sorted; MAX of a TIME is a TIME in arithmetic
CREATE TABLE g (id INT PRIMARY KEY, a INT, b VARCHAR(10), t TIME);
INSERT INTO g VALUES (1, 1, 'bb', '10:10:10'), (2, 1, 'a', '01:00:00'), (3, 1, 'ccc', '00:00:01'), (4, 2, 'x', NULL), (5, 2, 'A', '-01:00:00');
SELECT a, GROUP_CONCAT(DISTINCT b) FROM g GROUP BY a ORDER BY a;
SELECT MAX(t) + 1, MIN(t) + 0, MAX(t) FROM g;
DROP TABLE g;
DROP TABLE e;
-- a view whose table is gone can still be dropped
CREATE TABLE t (a INT PRIMARY KEY);
CREATE VIEW v AS SELECT a FROM t;
DROP TABLE t;
SELECT * FROM v;
DROP VIEW v;
-- a number is a member's index (a DOUBLE truncated); what is no member is 1265, or ''
-- with a warning under IGNORE and outside strict mode
CREATE TABLE en (id INT PRIMARY KEY, e ENUM('a', 'b'));
INSERT INTO en VALUES (1, 2.7e0), (2, 1.7), (3, '2'), (4, 'A ');
INSERT INTO en VALUES (5, 3);
INSERT INTO en VALUES (5, 0);
INSERT INTO en VALUES (5, '');
INSERT INTO en VALUES (5, ' a');
INSERT IGNORE INTO en VALUES (5, 7), (6, 'zz'), (7, 0);
SHOW WARNINGS;
SET sql_mode = '';
INSERT INTO en VALUES (8, 'x');
SHOW WARNINGS;
SELECT id, e, e + 0 FROM en ORDER BY id;
-- ALTER: a number becomes the member at its index; members appended keep the values;
-- an ENUM becomes a number by its index
SET sql_mode = DEFAULT;
CREATE TABLE ea (id INT PRIMARY KEY, a DOUBLE);
INSERT INTO ea VALUES (1, 300), (2, 2), (3, 1.4), (4, 200);
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100');
DELETE FROM ea WHERE a > 2;
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100');
SELECT id, a FROM ea ORDER BY id;
INSERT INTO en VALUES (9, '');
ALTER TABLE en MODIFY e ENUM('a', 'b', 'c');
SELECT id, e FROM en WHERE id > 4 ORDER BY id;
ALTER TABLE ea MODIFY a ENUM('9e200', '9e100', 'x');
SELECT id, a FROM ea ORDER BY id;
ALTER TABLE ea MODIFY a DOUBLE;
SELECT id, a FROM ea ORDER BY id;
ALTER TABLE ea MODIFY a ENUM('x', 'y');
DROP TABLE ea;
DROP TABLE en;
-- a DECIMAL written into an ENUM is its double, taken as an index
CREATE TABLE ed (id INT PRIMARY KEY, a DECIMAL(10,1), b ENUM('1', '2'));
INSERT INTO ed (id, a) VALUES (1, 1), (2, 2.7);
UPDATE ed SET b = a;
SELECT id, a, b FROM ed ORDER BY id;
ALTER TABLE ed MODIFY a ENUM('1', '2');
SELECT id, a, b FROM ed ORDER BY id;
DROP TABLE ed;
-- members spelled as numbers stay as they are spelled
CREATE TABLE ez (id INT PRIMARY KEY, a ENUM('01', '02', '1'));
INSERT INTO ez VALUES (1, '01'), (2, '1'), (3, 2), (4, '02');
SELECT id, a, a + 0, HEX(a) FROM ez ORDER BY id;
SELECT id FROM ez WHERE a = 1 ORDER BY id;
SELECT id FROM ez WHERE a = '1' ORDER BY id;
SELECT MIN(a), MAX(a) FROM ez;
SELECT id FROM ez ORDER BY a, id;
DROP TABLE ez;
-- a multi-row INSERT into an ENUM or SET of many members reads them once (the same values as listed members give)
CREATE TABLE em (id INT PRIMARY KEY, e ENUM('m000','m001','m002','m003','m004','m005','m006','m007','m008','m009','m010','m011','m012','m013','m014','m015','m016','m017','m018','m019','m020','m021','m022','m023','m024','m025','m026','m027','m028','m029','m030','m031','m032','m033','m034','m035','m036','m037','m038','m039','m040','m041','m042','m043','m044','m045','m046','m047','m048','m049','m050','m051','m052','m053','m054','m055','m056','m057','m058','m059','m060','m061','m062','m063','m064','m065','m066','m067','m068','m069','m070','m071','m072','m073','m074','m075','m076','m077','m078','m079','m080','m081','m082','m083','m084','m085','m086','m087','m088','m089','m090','m091','m092','m093','m094','m095','m096','m097','m098','m099','m100','m101','m102','m103','m104','m105','m106','m107','m108','m109','m110','m111','m112','m113','m114','m115','m116','m117','m118','m119','m120','m121','m122','m123','m124','m125','m126','m127','m128','m129','m130','m131','m132','m133','m134','m135','m136','m137','m138','m139','m140','m141','m142','m143','m144','m145','m146','m147','m148','m149','m150','m151','m152','m153','m154','m155','m156','m157','m158','m159','m160','m161','m162','m163','m164','m165','m166','m167','m168','m169','m170','m171','m172','m173','m174','m175','m176','m177','m178','m179','m180','m181','m182','m183','m184','m185','m186','m187','m188','m189','m190','m191','m192','m193','m194','m195','m196','m197','m198','m199'));
INSERT INTO em VALUES (1, 'm005'),(2, 'M150'),(3, 7),(4, 'm199 '),(5, NULL);
SELECT id, e, e + 0 FROM em ORDER BY id;
INSERT INTO em VALUES (6, 'm001'), (7, 'nope');
SELECT COUNT(*) FROM em;
DROP TABLE em;
CREATE TABLE sm (id INT PRIMARY KEY, s SET('s00','s01','s02','s03','s04','s05','s06','s07','s08','s09','s10','s11','s12','s13','s14','s15','s16','s17','s18','s19','s20','s21','s22','s23','s24','s25','s26','s27','s28','s29','s30','s31','s32','s33','s34','s35','s36','s37','s38','s39','s40','s41','s42','s43','s44','s45','s46','s47','s48','s49','s50','s51','s52','s53','s54','s55','s56','s57','s58','s59','s60','s61','s62','s63'));
INSERT INTO sm VALUES (1, 's01,s00'),(2, 'S63'),(3, ''),(4, 's10,s10,s02'),(5, 's05'),(6, 's06'),(7, 's07'),(8, 's08'),(9, 's09');
SELECT id, s, s + 0 FROM sm ORDER BY id;
DROP TABLE sm;

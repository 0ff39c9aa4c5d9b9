-- The session's clock and time zone; dates read as MariaDB reads them; DATE_FORMAT.
SET timestamp = 1000000000;
SELECT NOW(), CURDATE(), CURTIME(), UTC_TIMESTAMP(), UNIX_TIMESTAMP();
SET time_zone = '+03:00';
SELECT @@time_zone, NOW(), UTC_TIMESTAMP(), CURTIME(), FROM_UNIXTIME(0), UNIX_TIMESTAMP('1970-01-01 03:00:01');
SELECT FROM_UNIXTIME(UNIX_TIMESTAMP('1994-03-02 10:11:12')), FROM_UNIXTIME(1.5, '%Y %D %H:%i:%s.%f');
SET time_zone = '-12:59';
SELECT @@time_zone, NOW();
SET time_zone = '+13:01';
SET time_zone = 'Europe/Paris';
SET time_zone = 'system';
SELECT @@time_zone, NOW();
SET timestamp = DEFAULT;
SELECT NOW() > '2020-01-01', UNIX_TIMESTAMP() > 1000000000;
SELECT dayofmonth(19970323), month(20010203), year('98-02-03'), month('2001-02-00'), year('2001-00-00'), dayofweek('2001-02-00');
SELECT to_days(960201), to_days('2001-02-00'), datediff('2001-02-00', '2001-01-01'), unix_timestamp('1969-12-31 23:59:59');
SELECT date_format('1997-01-02 03:04:05', '%M %W %D %Y %y %m %d %h %i %s %w %j'), date_format('1998-12-31', '%x-%v %X-%V %U %u');
SELECT date_format('2001-00-01', '%M'), date_format('2001-01-00', '%W %D'), date_format('0000-00-00', '%W');
SELECT TIME(230322), TIME(230322.33), TIME('230322.33'), TIME('1 10:00'), DATE('10:11:12'), DATE('2001-02-00'), DATE(20010203101112.5);
SELECT sec_to_time(9001) + 0, maketime(1, 2, 3) + 0, timediff('10:00:00', '09:00:00') + 0, from_unixtime(0) + 0, last_day('2001-02-03') + 0;
SET default_week_format = 6;
SELECT @@default_week_format, week(20001231), week(20001231, 0), yearweek(20001231);
SET default_week_format = DEFAULT;
CREATE TABLE d (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3));
INSERT INTO d VALUES (1, '2006-11-06', '2006-11-06 04:08:36', '2006-11-06 04:08:36.500');
SELECT id FROM d WHERE d < '2006-11-06 04:08:36.0';
SELECT id FROM d WHERE d = '2006-11-06 04:08:36';
SELECT id FROM d WHERE d = '2006-11-06 00:00:00.000';
SELECT id FROM d WHERE dt < '2006-11-06 04:08:36.5';
SELECT id FROM d WHERE dt3 = '2006-11-06 04:08:36.5';
SELECT id FROM d WHERE dt3 BETWEEN '2006-11-06 04:08:36.5' AND '2006-11-06 04:08:36.50001';
SELECT CONVERT_TZ('2024-01-01 12:00:00', '+00:00', '+02:00'), CONVERT_TZ('2024-01-01 12:00:00.5', 'SYSTEM', '-01:30'), CONVERT_TZ('1000-01-01 12:00:00', '+00:00', '+02:00'), CONVERT_TZ('2024-01-01 12:00:00', '+00:00', 'Europe/Paris'), CONVERT_TZ('2024-01-01', '+05:00', '+00:00') + 0;
-- STR_TO_DATE is a DATE or DATETIME (by its format): a string compared with it is read as one
SELECT STR_TO_DATE('2007-10-09', '%Y-%m-%d') BETWEEN '2007/10/01 00:00:00 GMT' AND '2007/10/20 00:00:00 GMT', STR_TO_DATE('2007-10-01', '%Y-%m-%d') = '2007-10-1 00:00:00 GMT-6', STR_TO_DATE('2007-10-01', '%Y-%m-%d %H:%i:%s') = '2007-10-01 00:00:00 GMT-6', STR_TO_DATE('2007-10-09', '%Y-%m-%d') = '2007-10-09';
-- an impossible day compares by its parts; a day running into more digits is no date
SELECT STR_TO_DATE('2007-02-30 12:34', '%Y-%m-%d %H:%i') = '2007-2-30 12:34', STR_TO_DATE('2007-10-09', '%Y-%m-%d') <= '2007/10/2000:00:00 GMT-6', CAST('2007/10/2000:00:00' AS DATETIME);
-- DATE and DATETIME values compare as datetimes; a TIME as that time of today
SELECT CAST('2001-1-1 2:3:4' AS DATE) = CAST('2001-01-01' AS DATETIME), STR_TO_DATE('4/1/2010', '%m/%d/%Y') = CAST('2010-04-01 00:00:00' AS DATETIME);
SELECT id FROM d WHERE dt = STR_TO_DATE('2006-11-06 04:08:36', '%Y-%m-%d %H:%i:%s') AND d = STR_TO_DATE('6/11/2006', '%d/%m/%Y');
SELECT id FROM d WHERE IF(1, '06-11-06', '') IN (d, dt) AND '06-11-06 04:08:36' BETWEEN d AND dt;
SET timestamp = UNIX_TIMESTAMP('2006-11-06 10:20:30');
SELECT id, d = TIME'00:00:00', d = TIME'24:00:00', d < TIME'10:00:00', dt = TIME'04:08:36' FROM d;
SET timestamp = DEFAULT;
-- zero dates STR_TO_DATE gives NULL for, by sql_mode
SET sql_mode = 'TRADITIONAL';
SELECT STR_TO_DATE('2007-10-00 12:34', '%Y-%m-%d %H:%i'), STR_TO_DATE('0000-00-00', '%Y-%m-%d'), STR_TO_DATE('10:00', '%H:%i');
SHOW WARNINGS;
SET sql_mode = 'NO_ZERO_DATE';
SELECT STR_TO_DATE('0000-00-00', '%Y-%m-%d'), STR_TO_DATE('0000-00-00 10:20:30', '%Y-%m-%d %H:%i:%s'), STR_TO_DATE('2007-00-01', '%Y-%m-%d');
SET sql_mode = DEFAULT;
SELECT STR_TO_DATE('abc', '%Y-%m-%d');
SHOW WARNINGS;
-- a DECIMAL cast to a datetime keeps all its fraction digits; a DOUBLE those of its shortest spelling
SELECT CAST(20010203101112.121314 AS DATETIME(6)), CAST(110203101112.121314 AS DATETIME(6)), CAST(CAST(010203101112.12 AS DOUBLE) AS DATETIME(6)), CAST(20010203101112.1234567e0 AS DATETIME(6)), CAST(101112.1234567e0 AS DATETIME(6)), CAST(10101.0 AS DATE), CAST(20010203.5 AS DATETIME(6));
CREATE TABLE dd (id INT PRIMARY KEY, b DECIMAL(6), c DECIMAL(20,6));
INSERT INTO dd VALUES (1, 10101, 20010203101112.121314);
SELECT CAST(b AS DATE), CAST(c AS DATETIME(6)), CAST(c AS DATE) FROM dd;
-- EXTRACT reads a duration unclamped, and a number below 10^12 as [H..]HMMSS
SELECT EXTRACT(HOUR FROM '10000:02:03'), EXTRACT(DAY FROM '10000:02:03'), EXTRACT(DAY_SECOND FROM '-225 10:11:12'), EXTRACT(DAY_HOUR FROM '225 10:11:12'), EXTRACT(HOUR_SECOND FROM '900:00:00'), HOUR('10000:02:03');
SELECT EXTRACT(HOUR FROM 20010203), EXTRACT(HOUR FROM 2001020310), EXTRACT(HOUR FROM 200102031011), EXTRACT(HOUR FROM 20010203101112), EXTRACT(DAY FROM 20010203), EXTRACT(HOUR FROM 99999999999);
-- STR_TO_DATE with only a time in its format is a TIME
SELECT STR_TO_DATE('10:00 PM', '%h:%i %p'), STR_TO_DATE('10:00 PM', '%h:%i %p') + INTERVAL 10 MINUTE, STR_TO_DATE('10:00:01', '%H:%i:%s') = '10:00:01';
-- the date functions read a DECIMAL as a number, from all its digits
SELECT DATE(CAST(10101 AS DECIMAL)), DATE(10101.0), YEAR(20010203101112.123456), DAYNAME(20010203.0), DATE(0.0), MONTH(1.5), TO_SECONDS(20010101000000.5);
CREATE TABLE dd (id INT PRIMARY KEY, a INT(6), b DECIMAL(6), c DOUBLE(6,0));
INSERT INTO dd VALUES (1, 1, 1, 1), (2, 10101, 10101, 10101);
SELECT id, DATE(a), DATE(b), DATE(c), DATE(COALESCE(b)), DAYOFWEEK(b) FROM dd ORDER BY id;
DROP TABLE dd;
-- ADDTIME/SUBTIME of a DATE value move the DATETIME at midnight.
CREATE TABLE at1 (id INT PRIMARY KEY, the_date DATE, the_time TIME);
INSERT INTO at1 VALUES (1, '2010-01-01', '01:01:01');
SELECT ADDTIME(the_date, the_time), SUBTIME(the_date, the_time) FROM at1;
SELECT a.id FROM at1 a JOIN at1 b ON ADDTIME(a.the_date, a.the_time) = ADDTIME(b.the_date, b.the_time);
SELECT SUBTIME(DATE'2010-01-01', '01:01:01') AS c, ADDTIME(CAST('2010-01-01' AS DATE), TIME'10:00:00') AS f, ADDTIME(LAST_DAY('2020-02-03'), '01:00:00') AS d, ADDTIME(MAKEDATE(2020, 1), '01:00:00') AS m;
SELECT ADDTIME(CURDATE(), '00:00:00') = CONCAT(CURDATE(), ' 00:00:00') AS today;
DROP TABLE at1;
-- A TIME beyond 838:59:59 is clamped to 838:59:59.999999 cut to the fraction digits; CAST clamps too (1292).
CREATE TABLE tb (id INT PRIMARY KEY, a TIME(6), b TIME, c TIME(3));
INSERT IGNORE INTO tb VALUES (1, '900:00:00', '900:00:00', '900:00:00'), (2, 9000000, 9000000, 9000000), (3, -9000000, -9000000, -9000000);
SELECT * FROM tb ORDER BY id;
SELECT CAST(9000000 AS TIME), CAST('900:00:00' AS TIME(6)), CAST('-900:00:00.5' AS TIME(1)), CAST(9000000.5 AS TIME(1)), CAST('838:59:59' AS TIME);
SHOW WARNINGS;
DROP TABLE tb;
-- a DOUBLE or a string read from a table gives TIME(), SEC_TO_TIME(), ADDTIME() six fraction digits
CREATE TABLE tfsp (id INT PRIMARY KEY, f1 VARCHAR(40), d DOUBLE);
INSERT INTO tfsp VALUES (1, '10:00:00', 1.5), (2, '2010-10-10 00:00:00.0001', 2);
SELECT time(f1), sec_to_time(d), addtime(20010101, d), time(f1) = '10:00:00', time(f1) + 0, time(f1) < '9:00' FROM tfsp ORDER BY id;
SELECT sec_to_time(2.5e0), addtime(20010101, 1e0), ADDTIME(ADDTIME(20010101, 1e0), 0), timediff(f1, '00:00:00') FROM tfsp ORDER BY time(f1);
DROP TABLE tfsp;
-- a TIME where a date is read is that time of the current day
SET timestamp = UNIX_TIMESTAMP('2001-02-03 10:20:30');
SELECT date(time'10:00:00'), timestamp(time'10:00:00'), timestamp(time'10:00:00', '01:00:00'), convert_tz(time'10:00:00.5', '+00:00', '+01:00');
SELECT year(time'10:00:00'), dayofmonth(time'10:00:00'), datediff(time'10:00:00', '2001-01-01'), timestampdiff(day, time'10:00:00', '2001-03-01');
SELECT CONVERT_TZ(GREATEST(TIME('00:00:00'), TIME('00:00:00')), '+00:00', '+7:5');
CREATE TABLE tnow (id INT PRIMARY KEY, f1 TIME, a TIMESTAMP, b TIMESTAMP, d DATE);
INSERT INTO tnow VALUES (1, '23:38:57', '2001-02-03 00:00:00', '2001-02-03 23:59:59', '2001-02-03');
SELECT timestamp(f1, '1'), f1 < now(), f1 > now(), d < now(), d = curdate() FROM tnow;
SELECT id FROM tnow WHERE TIME'10:20:30' BETWEEN a AND b;
SELECT TIME'10:20:30' BETWEEN d AND b, TIME'10:20:30' IN (a, d, '2001-02-03 10:20:30'), GREATEST(TIME'10:20:30', d) FROM tnow;
DROP TABLE tnow;
SET timestamp = DEFAULT;
-- a number among TIMEs and DATETIMEs is read as the first operand's type
SET timestamp = UNIX_TIMESTAMP('2001-01-01 10:20:30');
CREATE TABLE tin (a TIME PRIMARY KEY);
INSERT INTO tin VALUES ('10:20:30'), ('10:20:31'), ('10:20:32'), ('10:20:33');
SELECT TIME'10:20:30' IN (102030, TIME'10:20:31', TIMESTAMP'2001-01-01 10:20:32');
SELECT a FROM tin WHERE a IN (102030, TIME'10:20:31', TIMESTAMP'2001-01-01 10:20:32') ORDER BY a;
SELECT a FROM tin WHERE a IN ('10:20:33', TIMESTAMP'2001-01-01 10:20:32') ORDER BY a;
DROP TABLE tin;
SET timestamp = DEFAULT;
-- numeric functions read a temporal value as its number; ROUND & co. keep a TIME or DATETIME
CREATE TABLE tnum (id INT PRIMARY KEY, t TIME(1), d DATE, dt DATETIME(2));
INSERT INTO tnum VALUES (1, '00:01:00.5', '2020-01-01', '2020-01-01 10:00:00'), (2, '00:00:30', '2020-01-02', '2020-01-01 10:00:01');
SELECT sum(t), avg(t), sum(d), avg(d), sum(dt), avg(dt), std(t), variance(d), var_samp(t) FROM tnum;
SELECT id, abs(t), sqrt(t), mod(t, 7), sign(t), power(d, 0), round(t), round(dt, 1), floor(dt), ceiling(t), truncate(t, 0), round(d) FROM tnum ORDER BY id;
SELECT round(date('2020-12-12')), round(timestamp('2020-12-12 10:00:00.6')), floor(time('10:00:01.5')), ceil(time('10:00:01.5')), truncate(time('10:00:01.5'), 0), round(time('10:00:01.56'), 1);
SELECT floor(time('-10:00:01.5')), ceil(time('-10:00:01.5')), round(time('-10:00:01.5')), truncate(time('-10:00:01.56'), 1), round(time('10:00:01.56'), -1), round(time('10:00:59.56'));
SELECT round(time('838:59:59.6')), round(timestamp('9999-12-31 23:59:59.6')), round(time('10:00:01.5'), 8), round(timestamp('2020-12-31 23:59:59.5')), round(time('10:00:01.56'), NULL);
SELECT ROUND(GREATEST('1', CAST('2020-12-12' AS DATE))), length(repeat('a', time('00:00:03'))), left('abcdef', time('00:00:03')), length(random_bytes(time('00:01')));
SELECT lpad('a', time('00:00:03'), 'x'), substring('abcdef', time('00:00:02'), time('00:00:02')), mid('abcdef', time('00:00:02')), insert('abcdef', time('00:00:02'), time('00:00:01'), 'X'), locate('a', 'aaaa', time('00:00:02')), substring_index('a,b,c', ',', time('00:00:02')), elt(time('00:00:02'), 'a', 'b'), format(1.2345, time('00:00:02'));
DROP TABLE tnum;
-- STR_TO_DATE with a format from a column is a DATETIME(6)
CREATE TABLE tfmt (id INT PRIMARY KEY, a VARCHAR(20));
INSERT INTO tfmt VALUES (1, '%Y-%m-%d'), (2, '%H:%i'), (3, NULL), (4, '%Y-%m-%d %H:%i:%s.%f');
SELECT id, str_to_date('2020-01-02', a), str_to_date('10:30', a), str_to_date('', a), str_to_date('2020-01-02 10:11:12.5', a) FROM tfmt ORDER BY id;
DROP TABLE tfmt;
-- a TIME column outside strict mode takes as much of the text as is a time
CREATE TABLE tpart (id INT PRIMARY KEY, t TIME);
INSERT IGNORE INTO tpart VALUES (1, 9000000), (2, '900:00:00'), (3, 123456789), (4, '123456789'), (5, '10.22.22'), (6, '12.45a'), (7, 1234567), (8, '1:2:3:4'), (9, '12:30x'), (10, '-12.5.5'), (11, '1234567.5.5'), (12, '99999999.1.1');
SHOW WARNINGS;
SELECT * FROM tpart ORDER BY id;
DROP TABLE tpart;
CREATE TABLE tbig (id INT PRIMARY KEY, a TIME(6), b BIGINT);
INSERT IGNORE INTO tbig VALUES (1, CAST(0xFFFFFFFF00000000 AS UNSIGNED), -9223372036854775808), (2, 20010101101112, 1e10), (3, 1e10, 123456789);
SELECT id, a, CAST(b AS TIME), CAST(-9223372036854775808 AS TIME), TIME(b) FROM tbig ORDER BY id;
DROP TABLE tbig;
-- CASE and IF of one temporal kind are read as its number
CREATE TABLE tcase (id INT PRIMARY KEY, t TIME, d DATE, e DATE);
INSERT INTO tcase VALUES (1, '10:11:12', '2020-01-02', '2021-01-01'), (2, '10:11:12', '2020-01-02', NULL);
SELECT id, CASE WHEN id = 1 THEN d END + 0, IF(id = 1, d, e) + 0, CASE WHEN id = 1 THEN d ELSE e END + 1, IF(id = 1, t, 0) + 0, ABS(IF(id = 1, t, NULL)), CASE id WHEN 1 THEN t END * 1 FROM tcase ORDER BY id;
DROP TABLE tcase;
-- A string beyond 838:59:59 reads as 838:59:59.999999; SEC_TO_TIME of a computed DECIMAL has its scale.
SELECT SUBTIME('916:40:00', '416:40:00'), ADDTIME('916:40:00', '0:0:0'), TIME_TO_SEC('916:40:00'), MICROSECOND('916:40:00'), TIMEDIFF('916:40:00', '0:0:0.5'), TIME_FORMAT('916:40:00', '%H %f');
SELECT SEC_TO_TIME(TIME_TO_SEC('0:30:47') / 6.21), SEC_TO_TIME(1847 / 6.21), SEC_TO_TIME(CAST(297.4235 AS DECIMAL(10,4))), SEC_TO_TIME(1.5);
CREATE TABLE tts SELECT TIME_TO_SEC('0:30:47') a, TIME_TO_SEC('0:30:47.5') b, TIME_TO_SEC(TIME'01:00:00.25') c, TIME'01:00:00.25' d, DATE'2001-01-01' e, TIMESTAMP'2001-01-01 00:00:00.5' f;
SHOW CREATE TABLE tts;
DROP TABLE tts;
SELECT GREATEST('839:59:59', TIME'00:00:00'), GREATEST('839:59:59.0', TIME'00:00:00'), MICROSECOND(GREATEST('839:59:59.00', TIME'00:00:00')), LEAST('-900:00:00', TIME'00:00:01'), TIME'838:59:59' = '900:00:00', TIME'838:59:59.999999' = '900:00:00';
SELECT TIME'838:59:59.999999', CAST('838:59:59.5' AS TIME(1)), TIME'-838:59:59.5', ADDTIME('838:59:59', '0:0:0.5'), SEC_TO_TIME(3020399.5), MAKETIME(838, 59, 59.5);
-- CASE, IF, IFNULL, COALESCE of different temporal kinds: a DATETIME (a TIME today, a DATE at midnight), at the most fraction digits.
SET timestamp = UNIX_TIMESTAMP('2001-01-01 10:20:30');
CREATE TABLE tk (d DATE, t TIME, dt DATETIME(2), d0 DATETIME);
INSERT INTO tk VALUES ('2000-12-03', '22:55:23', '2020-01-01 01:02:03.45', '2021-02-02 02:02:02');
SELECT CASE WHEN d = '2012-12-12' THEN d ELSE t END AS c1, IF(0, d, t) c2, COALESCE(t, d) c3, IFNULL(t, dt) c4, CASE WHEN 0 THEN dt ELSE t END c5, IF(1, d, dt) c6, IF(0, d, '10:00:00') c8, IF(1, d0, dt) c9, COALESCE(NULL, d, t) c10, IF(1, NULL, t) c11, IF(1, d, NULL) c12, CASE WHEN 1 THEN d0 WHEN 0 THEN d END c13 FROM tk;
SELECT CASE WHEN d = '2012-12-12' THEN d ELSE t END AS cond, GROUP_CONCAT(d) FROM tk GROUP BY cond;
DROP TABLE tk;
SET timestamp = DEFAULT;

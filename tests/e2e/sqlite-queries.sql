-- Exercises much of SQLite: the parser, planner, VDBE, B-tree, printf, JSON,
-- window functions, triggers, views, upsert, recursive CTEs, collation, dates.
.headers on
.mode list
CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c REAL, d BLOB);
WITH RECURSIVE x(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM x WHERE i<5000)
INSERT INTO t SELECT i, printf('v%05d', (i*7919)%5003), i/3.0, randomblob(0) FROM x;
CREATE INDEX tb ON t(b);
CREATE INDEX tc ON t(c DESC);
SELECT count(*), sum(a), total(c), min(b), max(b) FROM t;
SELECT a, b FROM t WHERE b BETWEEN 'v00100' AND 'v00120' ORDER BY b;
SELECT b, row_number() OVER w, rank() OVER w, lag(a) OVER w, sum(a) OVER (ORDER BY a ROWS 2 PRECEDING)
  FROM t WHERE a <= 12 WINDOW w AS (ORDER BY c DESC);
SELECT a % 7 AS k, count(*), group_concat(a, '+') FILTER (WHERE a < 40) FROM t GROUP BY k HAVING count(*) > 10 ORDER BY k;
CREATE TABLE u(k TEXT PRIMARY KEY, n INTEGER DEFAULT 0) WITHOUT ROWID;
INSERT INTO u(k) VALUES ('x'), ('y');
INSERT INTO u(k, n) VALUES ('x', 5) ON CONFLICT(k) DO UPDATE SET n = n + excluded.n;
INSERT INTO u(k, n) VALUES ('x', 5) ON CONFLICT(k) DO UPDATE SET n = n + excluded.n;
SELECT * FROM u ORDER BY k;
CREATE TABLE log(msg TEXT);
CREATE TRIGGER tr AFTER UPDATE ON u BEGIN INSERT INTO log VALUES (old.k || ':' || old.n || '->' || new.n); END;
UPDATE u SET n = n * 2;
SELECT * FROM log ORDER BY msg;
CREATE VIEW v AS SELECT a, upper(b) AS ub, length(b) AS lb FROM t WHERE a % 1000 = 0;
SELECT * FROM v;
SELECT json_object('a', 1, 'b', json_array(1, 2.5, 'x', NULL)), json_extract('{"p":{"q":[10,20,30]}}', '$.p.q[1]');
SELECT key, value FROM json_each('{"x":1,"y":[2,3],"z":{"w":true}}');
SELECT date('2024-02-28', '+1 day'), strftime('%Y-%W-%j', '2023-12-31'), julianday('2000-01-01');
SELECT printf('%5.2f|%-8s|%x|%e|%q', 3.14159, 'ab', 255, 12345.678, 'it''s');
SELECT 'Straße' LIKE 'STRASSE', 'abc' GLOB 'a*', instr('hello', 'll'), substr('hello', -3, 2), replace('aaa', 'a', 'bb');
SELECT hex(zeroblob(4)), quote(x'00ff'), typeof(1), typeof(1.5), typeof('s'), typeof(NULL), typeof(x'00');
SELECT abs(-5), round(2.567, 2), 7 / 2, 7 % 3, 1 << 10, ~5, cast('12abc' AS INTEGER), cast(3.9 AS INTEGER);
WITH RECURSIVE fib(n, a, b) AS (SELECT 1, 0, 1 UNION ALL SELECT n+1, b, a+b FROM fib WHERE n < 60) SELECT n, a FROM fib WHERE n % 10 = 0;
SELECT t1.a, t2.a FROM t t1 JOIN t t2 ON t2.a = t1.a * 2 WHERE t1.a < 6 ORDER BY t1.a;
SELECT a FROM t WHERE a IN (SELECT a * 3 FROM t WHERE a < 10) ORDER BY a;
SELECT a FROM t WHERE EXISTS (SELECT 1 FROM u WHERE length(k) = 1) AND a < 3;
SELECT b FROM (SELECT 'b' AS b UNION ALL SELECT 'A' UNION ALL SELECT 'c') ORDER BY b COLLATE NOCASE;
SELECT * FROM (SELECT 1 AS p UNION SELECT 2 UNION SELECT 2 EXCEPT SELECT 1) ORDER BY p;
CREATE TABLE big(x);
WITH RECURSIVE x(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM x WHERE i<20000) INSERT INTO big SELECT i * 2654435761 % 1000003 FROM x;
SELECT count(DISTINCT x), median FROM big, (SELECT x AS median FROM big ORDER BY x LIMIT 1 OFFSET 10000);
DELETE FROM big WHERE x % 3 = 0;
SELECT count(*) FROM big;
SAVEPOINT sp1;
DELETE FROM t WHERE a > 100;
ROLLBACK TO sp1;
RELEASE sp1;
SELECT count(*) FROM t;
ANALYZE;
SELECT tbl, idx FROM sqlite_stat1 ORDER BY tbl, idx;
EXPLAIN QUERY PLAN SELECT * FROM t WHERE b = 'v00001';
PRAGMA integrity_check;
VACUUM;
PRAGMA page_count;

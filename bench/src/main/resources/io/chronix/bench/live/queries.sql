-- The live query suite (bench/README.md, "Live query suite"): ordinary SQL of the kinds users
-- write over the TSBS cpu table, each sent unchanged to Chronix and to DuckDB over its own table of
-- the same rows. Each statement follows a "-- name:" line. Rules for adding one:
--  * literal time ranges (the data are of 2016-01-01; ranges beyond a short data set answer empty,
--    which is still compared), never now();
--  * a statement with a top-level ORDER BY is compared in order, so that ORDER BY must order the rows
--    totally (tie-breakers to the end); without one, rows are compared as a multiset;
--  * nothing here is written for, or adjusted to, a particular engine's code.

-- name: count-all
SELECT count(*) FROM cpu;

-- name: time-extent
SELECT min(time), max(time) FROM cpu;

-- name: whole-table-aggregates
SELECT avg(usage_user) AS avg_user, max(usage_system) AS max_system, min(usage_idle) AS min_idle,
       sum(usage_iowait) AS sum_iowait
FROM cpu;

-- name: range-aggregates
SELECT count(*) AS n, avg(usage_user) AS avg_user, max(usage_user) AS max_user
FROM cpu
WHERE time >= '2016-01-01 00:30:00' AND time < '2016-01-01 01:30:00';

-- name: between-sum
SELECT count(*), sum(usage_nice)
FROM cpu
WHERE time BETWEEN '2016-01-01 01:00:00' AND '2016-01-01 01:59:59';

-- name: hourly-time-bucket
SELECT time_bucket(INTERVAL '1 hour', time) AS hour, avg(usage_user) AS avg_user, count(*) AS n
FROM cpu
GROUP BY hour
ORDER BY hour;

-- name: minutes-date-trunc-one-host
SELECT date_trunc('minute', time) AS minute, max(usage_user) AS max_user
FROM cpu
WHERE hostname = 'host_1' AND time >= '2016-01-01 00:00:00' AND time < '2016-01-01 01:00:00'
GROUP BY 1
ORDER BY 1;

-- name: twelve-hours-by-hour
SELECT time_bucket(INTERVAL '1 hour', time) AS hour, max(usage_user) AS max_user
FROM cpu
WHERE time >= TIMESTAMP '2016-01-01 06:00:00' AND time < TIMESTAMP '2016-01-01 18:00:00'
GROUP BY 1
ORDER BY 1;

-- name: group-by-region
SELECT region, count(*) AS n, avg(usage_user) AS avg_user
FROM cpu
GROUP BY region
ORDER BY region;

-- name: group-by-two-tags
SELECT datacenter, os, max(usage_system) AS max_system, min(usage_system) AS min_system
FROM cpu
GROUP BY ALL;

-- name: five-minutes-per-host
SELECT time_bucket(INTERVAL '5 minutes', time) AS bucket, hostname,
       avg(usage_user) AS avg_user, avg(usage_system) AS avg_system
FROM cpu
WHERE time >= '2016-01-01 00:00:00' AND time < '2016-01-01 02:00:00'
GROUP BY bucket, hostname;

-- name: hour-per-host-day
SELECT date_trunc('hour', time) AS hour, hostname, avg(usage_user) AS mean_user
FROM cpu
GROUP BY 1, 2
ORDER BY 1, 2;

-- name: last-minutes-desc-limit
SELECT time_bucket(INTERVAL '1 minute', time) AS minute, max(usage_user) AS max_user
FROM cpu
WHERE time < '2016-01-01 01:00:00'
GROUP BY 1
ORDER BY 1 DESC
LIMIT 5;

-- name: window-moving-average
SELECT hostname, time, usage_user,
       avg(usage_user) OVER (PARTITION BY hostname ORDER BY time ROWS BETWEEN 5 PRECEDING AND CURRENT ROW) AS moving_avg
FROM cpu
WHERE hostname IN ('host_1', 'host_2') AND time >= '2016-01-01 00:00:00' AND time < '2016-01-01 00:30:00'
ORDER BY hostname, time;

-- name: window-lag-delta
SELECT hostname, time, usage_user - lag(usage_user) OVER (PARTITION BY hostname ORDER BY time) AS delta
FROM cpu
WHERE time BETWEEN '2016-01-01 01:00:00' AND '2016-01-01 01:05:00';

-- name: lastpoint-qualify
SELECT *
FROM cpu
QUALIFY row_number() OVER (PARTITION BY hostname ORDER BY time DESC) = 1;

-- name: lastpoint-distinct-on
SELECT DISTINCT ON (hostname) *
FROM cpu
ORDER BY hostname, time DESC;

-- name: top-host-per-region-qualify
SELECT region, hostname, max(usage_user) AS peak
FROM cpu
WHERE time >= '2016-01-01 00:00:00' AND time < '2016-01-01 01:00:00'
GROUP BY region, hostname
QUALIFY rank() OVER (PARTITION BY region ORDER BY peak DESC, hostname) = 1;

-- name: self-join-next-sample
SELECT a.hostname, count(*) AS pairs, avg(b.usage_user - a.usage_user) AS avg_step
FROM cpu a
JOIN cpu b ON a.hostname = b.hostname AND b.time = a.time + INTERVAL '10 seconds'
WHERE a.time >= '2016-01-01 00:00:00' AND a.time < '2016-01-01 01:00:00'
  AND b.time >= '2016-01-01 00:00:00' AND b.time < '2016-01-01 01:00:10'
GROUP BY a.hostname
ORDER BY a.hostname;

-- name: scalar-subquery-above-average
SELECT count(*) AS n
FROM cpu
WHERE usage_user > (SELECT avg(usage_user) FROM cpu);

-- name: cte-hosts-above-region-average
WITH per_host AS (
    SELECT region, hostname, avg(usage_user) AS a
    FROM cpu
    WHERE time < '2016-01-01 01:00:00'
    GROUP BY ALL
), per_region AS (
    SELECT region, avg(a) AS ra FROM per_host GROUP BY region
)
SELECT h.region, count(*) AS hosts_above
FROM per_host h JOIN per_region r USING (region)
WHERE h.a > r.ra
GROUP BY h.region
ORDER BY h.region;

-- name: distinct-tags
SELECT DISTINCT region, datacenter
FROM cpu
ORDER BY region, datacenter;

-- name: count-distinct-hosts-2h
SELECT count(DISTINCT hostname) AS hosts
FROM cpu
WHERE time >= '2016-01-01 00:00:00' AND time < '2016-01-01 02:00:00';

-- name: count-distinct-per-region
SELECT region, count(DISTINCT hostname) AS hosts, count(DISTINCT rack) AS racks
FROM cpu
GROUP BY region
ORDER BY region;

-- name: like-hostname
SELECT hostname, max(usage_user) AS max_user
FROM cpu
WHERE hostname LIKE 'host_1%'
GROUP BY hostname
ORDER BY hostname;

-- name: like-region-first-hour
SELECT count(*) AS n
FROM cpu
WHERE region LIKE 'us-%' AND time < '2016-01-01 01:00:00';

-- name: quantiles
SELECT quantile_cont(usage_user, 0.5) AS p50, quantile_cont(usage_user, 0.99) AS p99,
       median(usage_system) AS median_system
FROM cpu;

-- name: p90-per-host-hour
SELECT hostname, quantile_cont(usage_user, 0.9) AS p90
FROM cpu
WHERE time BETWEEN '2016-01-01 00:00:00' AND '2016-01-01 00:59:59'
GROUP BY hostname
ORDER BY hostname;

-- name: raw-one-host-newest
SELECT time, hostname, usage_user, usage_system
FROM cpu
WHERE hostname = 'host_3'
ORDER BY time DESC
LIMIT 20;

-- name: raw-top-usage
SELECT time, hostname, usage_user
FROM cpu
WHERE time >= '2016-01-01 00:00:00' AND time < '2016-01-01 00:10:00'
ORDER BY usage_user DESC, time, hostname
LIMIT 10;

-- name: union-all-peaks
SELECT 'user' AS metric, max(usage_user) AS peak FROM cpu
UNION ALL
SELECT 'system', max(usage_system) FROM cpu
UNION ALL
SELECT 'iowait', max(usage_iowait) FROM cpu;

-- name: field-filter-count
SELECT count(*) FROM cpu WHERE usage_user > 90;

-- name: field-filter-rows
SELECT *
FROM cpu
WHERE usage_user > 90 AND usage_system < 10
  AND time >= '2016-01-01 00:00:00' AND time < '2016-01-01 01:00:00';

-- name: field-filter-top-hosts
SELECT hostname, count(*) AS busy
FROM cpu
WHERE usage_idle < 10
GROUP BY hostname
ORDER BY busy DESC, hostname
LIMIT 10;

-- name: one-host-extent
SELECT max(usage_user) AS max_user, min(time) AS first_seen, max(time) AS last_seen
FROM cpu
WHERE hostname = 'host_7';

-- name: case-when-per-environment
SELECT service_environment, sum(CASE WHEN usage_user > 50 THEN 1 ELSE 0 END) AS busy, count(*) AS n
FROM cpu
GROUP BY 1
ORDER BY 1;

-- name: having-busy-hosts
SELECT hostname, avg(usage_user) AS avg_user
FROM cpu
GROUP BY hostname
HAVING avg(usage_user) > 55
ORDER BY hostname;

-- name: stddev-per-arch
SELECT arch, stddev_samp(usage_user) AS sd_user, avg(usage_guest) AS avg_guest
FROM cpu
GROUP BY arch
ORDER BY arch;

package io.chronix.api.sql;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.chronix.api.sql.SqlFixture.SECOND;
import static io.chronix.api.sql.SqlFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random points with absent tags and fields and overwrites (last write wins field by field), then
 * SQL answers compared with the same questions computed from a model in the test — with the data
 * in the memtable, in segments, and after reopening the engine. The filtered questions go through
 * the time-range and tag pushdown, so a pruning that dropped a row would show here.
 */
class SqlModelTest {

    record Key(String host, long time) {
    }

    static final String[] HOSTS = {"a", "b", "c", null};

    /**
     * Tags a random point of the differential tests: {@code host} one of {@link #HOSTS} (absent for
     * null), and with {@code dc} also {@code dc} {@code x} or {@code y} two times in three.
     */
    static void randomTags(Random r, PointBatch.Builder b, boolean dc) {
        String host = HOSTS[r.nextInt(HOSTS.length)];
        if (host != null) {
            b.tag("host", host);
        }
        if (dc && r.nextInt(3) > 0) {
            b.tag("dc", r.nextBoolean() ? "x" : "y");
        }
    }

    /**
     * Adds at most one random tag predicate of the kinds the scan applies exactly: {@code host =},
     * {@code host IN}, or {@code <nullTag> IS NULL} (two in five times nothing).
     */
    static void randomTagPredicate(java.util.Random r, String nullTag, java.util.List<String> conjuncts) {
        switch (r.nextInt(5)) {
            case 0 -> conjuncts.add("host = 'a'");
            case 1 -> conjuncts.add("host IN ('a', 'c')");
            case 2 -> conjuncts.add(nullTag + " IS NULL");
            default -> {
            }
        }
    }

    @TempDir Path dir;

    @Test
    void answersMatchTheModelInMemtableSegmentsAndAfterReopen() {
        for (long seed = 1; seed <= 3; seed++) {
            Path d = dir.resolve("seed" + seed);
            try (SqlFixture f = new SqlFixture(d)) {
                Map<Key, Map<String, Object>> model = new HashMap<>();
                Random r = new Random(seed);
                for (int batch = 0; batch < 20; batch++) {
                    List<Object[]> points = new ArrayList<>();
                    for (int p = 0; p < 50; p++) {
                        String host = HOSTS[r.nextInt(HOSTS.length)];
                        long time = T0 + r.nextInt(7200) * SECOND + r.nextInt(3) ; // collisions: overwrites
                        Double usage = r.nextInt(4) == 0 ? null : (double) r.nextInt(1000) / 8;
                        Long n = r.nextInt(3) == 0 ? null : (long) r.nextInt(100) - 50;
                        if (usage == null && n == null) {
                            n = 1L;
                        }
                        points.add(new Object[]{host, time, usage, n});
                        Map<String, Object> row = model.computeIfAbsent(new Key(host, time), k -> new HashMap<>());
                        if (usage != null) {
                            row.put("usage", usage);
                        }
                        if (n != null) {
                            row.put("n", n);
                        }
                    }
                    f.write(b -> {
                        for (Object[] p : points) {
                            b.beginPoint("cpu", (Long) p[1]);
                            if (p[0] != null) {
                                b.tag("host", (String) p[0]);
                            }
                            b.tag("dc", "x");
                            if (p[2] != null) {
                                b.floatField("usage", (Double) p[2]);
                            }
                            if (p[3] != null) {
                                b.integerField("n", (Long) p[3]);
                            }
                            b.endPoint();
                        }
                    });
                }
                assertThat(model.size()).as("some points overwrite others").isLessThan(20 * 50);
                assertThat(model.values()).as("some rows lack a field").anyMatch(m -> m.size() == 1);
                long lo = T0 + 1800 * SECOND;
                long hi = T0 + 3600 * SECOND;
                List<String> expected = expected(model, lo, hi);
                assertThat(answers(f, lo, hi)).as("memtable, seed " + seed).isEqualTo(expected);
                f.engine.flush();
                assertThat(answers(f, lo, hi)).as("segments, seed " + seed).isEqualTo(expected);
                f.reopen();
                assertThat(answers(f, lo, hi)).as("after reopen, seed " + seed).isEqualTo(expected);
            }
        }
    }

    static String ts(long ns) {
        return "TIMESTAMP_NS '" + java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS")
                .format(java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(ns, SECOND), (int) Math.floorMod(ns, SECOND), java.time.ZoneOffset.UTC)) + "'";
    }

    static List<String> answers(SqlFixture f, long lo, long hi) {
        List<String> out = new ArrayList<>();
        out.addAll(f.rows("SELECT coalesce(host, '<null>'), count(*), count(usage), sum(usage), count(n), sum(n) FROM cpu GROUP BY host ORDER BY 1"));
        out.addAll(f.rows("SELECT count(*), count(n) FROM cpu WHERE host IS NULL"));
        out.addAll(f.rows("SELECT count(*), sum(n), count(usage) FROM cpu WHERE host IN ('a', 'c') AND time >= " + ts(lo) + " AND time < " + ts(hi)));
        out.addAll(f.rows("SELECT count(*) FROM cpu WHERE host = 'b' AND time BETWEEN " + ts(lo) + " AND " + ts(hi) + " AND usage IS NULL"));
        out.addAll(f.rows("SELECT count(*) FROM cpu WHERE n = 0"));
        // field ranges reach the scan of settled segments: a row dropped there that passes would show
        out.addAll(f.rows("SELECT count(*), count(n), sum(n) FROM cpu WHERE usage > 100 AND time >= " + ts(lo)));
        out.addAll(f.rows("SELECT count(*), count(usage) FROM cpu WHERE 10 >= n AND n BETWEEN -10 AND 40.5 AND usage <= 62.5"));
        return out;
    }

    static List<String> expected(Map<Key, Map<String, Object>> model, long lo, long hi) {
        List<String> out = new ArrayList<>();
        TreeMap<String, long[]> counts = new TreeMap<>();
        TreeMap<String, double[]> usageSums = new TreeMap<>();
        for (Map.Entry<Key, Map<String, Object>> e : model.entrySet()) {
            String h = e.getKey().host() == null ? "<null>" : e.getKey().host();
            long[] c = counts.computeIfAbsent(h, k -> new long[4]);
            double[] s = usageSums.computeIfAbsent(h, k -> new double[1]);
            c[0]++;
            if (e.getValue().containsKey("usage")) {
                c[1]++;
                s[0] += (Double) e.getValue().get("usage");
            }
            if (e.getValue().containsKey("n")) {
                c[2]++;
                c[3] += (Long) e.getValue().get("n");
            }
        }
        for (String h : counts.keySet()) {
            long[] c = counts.get(h);
            out.add(h + "|" + c[0] + "|" + c[1] + "|" + (c[1] == 0 ? "null" : Double.toString(usageSums.get(h)[0])) + "|" + c[2] + "|" + (c[2] == 0 ? "null" : Long.toString(c[3])));
        }
        long[] nulls = counts.getOrDefault("<null>", new long[4]);
        out.add(nulls[0] + "|" + nulls[2]);
        long count = 0, sum = 0, usage = 0, nCount = 0;
        long bNullUsage = 0, zeros = 0;
        for (Map.Entry<Key, Map<String, Object>> e : model.entrySet()) {
            String h = e.getKey().host();
            long t = e.getKey().time();
            if (("a".equals(h) || "c".equals(h)) && t >= lo && t < hi) {
                count++;
                if (e.getValue().containsKey("n")) {
                    sum += (Long) e.getValue().get("n");
                    nCount++;
                }
                if (e.getValue().containsKey("usage")) {
                    usage++;
                }
            }
            if ("b".equals(h) && t >= lo && t <= hi && !e.getValue().containsKey("usage")) {
                bNullUsage++;
            }
            if (Long.valueOf(0).equals(e.getValue().get("n"))) {
                zeros++;
            }
        }
        out.add(count + "|" + (nCount == 0 ? "null" : Long.toString(sum)) + "|" + usage);
        out.add(Long.toString(bNullUsage));
        out.add(Long.toString(zeros));
        long high = 0, highN = 0, highSum = 0, mid = 0;
        for (Map.Entry<Key, Map<String, Object>> e : model.entrySet()) {
            Object u = e.getValue().get("usage");
            Object n = e.getValue().get("n");
            if (u != null && (Double) u > 100 && e.getKey().time() >= lo) {
                high++;
                if (n != null) {
                    highN++;
                    highSum += (Long) n;
                }
            }
            if (u != null && (Double) u <= 62.5 && n != null && (Long) n <= 10 && (Long) n >= -10) {
                mid++;
            }
        }
        assertThat(high).as("the field filters keep some rows").isPositive();
        assertThat(mid).as("the field filters keep some rows").isPositive();
        out.add(high + "|" + highN + "|" + (highN == 0 ? "null" : Long.toString(highSum)));
        out.add(mid + "|" + mid);
        return out;
    }
}

package io.chronix.engine;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plain in-memory model of what random writes should read back as, and the random writes and
 * checks the model property tests share: batches of points over three measurements with absent
 * tags and fields, every field type and many overwrites (few distinct timestamps); checks of a
 * full scan and of a random projected, time-bounded, tag-filtered scan against the model.
 */
final class RandomPointsModel {

    private final EngineFixture fx;

    RandomPointsModel(EngineFixture fx) {
        this.fx = fx;
    }

    boolean hasData() {
        return !model.isEmpty();
    }

    void clear() {
        model.clear();
        tagsSeen.clear();
        fieldsSeen.clear();
    }

    private static final String[] MEASUREMENTS = {"cpu", "disk", "net"};
    private static final String[] TAG_KEYS = {"dc", "host", "rack"};
    private static final String[] FIELDS = {"b", "f", "i", "s", "u"};
    private static final FieldType[] TYPES = {FieldType.BOOLEAN, FieldType.FLOAT, FieldType.INTEGER, FieldType.STRING, FieldType.UNSIGNED};
    static final long SHARD = Duration.ofSeconds(10).toNanos();

    /** model: measurement -> rendered tag part ("dc=..|host=.."), over all tag keys -> time -> field -> rendered value. */
    private final Map<String, TreeMap<String, TreeMap<Long, TreeMap<String, String>>>> model = new TreeMap<>();
    private final Map<String, java.util.Set<String>> tagsSeen = new TreeMap<>();
    private final Map<String, java.util.Set<String>> fieldsSeen = new TreeMap<>();

    void writeRandom(Chronix c, Random rnd, int batches) {
        for (int b = 0; b < batches; b++) {
            PointBatch.Builder builder = PointBatch.builder();
            int points = 1 + rnd.nextInt(40);
            List<Runnable> onSuccess = new ArrayList<>();
            for (int p = 0; p < points; p++) {
                String m = MEASUREMENTS[rnd.nextInt(MEASUREMENTS.length)];
                long ts = EngineFixture.T0 + rnd.nextInt(6) * (SHARD / 2) + rnd.nextInt(4); // few timestamps: many overwrites
                builder.beginPoint(m, ts);
                TreeMap<String, String> tags = new TreeMap<>();
                for (String k : TAG_KEYS) {
                    if (rnd.nextInt(3) > 0) {
                        tags.put(k, k + rnd.nextInt(3));
                    }
                }
                tags.forEach(builder::tag);
                TreeMap<String, String> fields = new TreeMap<>();
                int forced = rnd.nextInt(FIELDS.length);
                for (int f = 0; f < FIELDS.length; f++) {
                    if (f != forced && rnd.nextInt(3) == 0) {
                        continue;
                    }
                    String rendered = switch (TYPES[f]) {
                        case BOOLEAN -> {
                            boolean v = rnd.nextBoolean();
                            builder.booleanField(FIELDS[f], v);
                            yield Boolean.toString(v);
                        }
                        case FLOAT -> {
                            double v = rnd.nextInt(5) == 0 ? 0.0 : rnd.nextGaussian() * 100;
                            builder.floatField(FIELDS[f], v);
                            yield Double.toString(v);
                        }
                        case INTEGER -> {
                            long v = rnd.nextInt(5) == 0 ? 0 : rnd.nextLong();
                            builder.integerField(FIELDS[f], v);
                            yield v + "i";
                        }
                        case STRING -> {
                            String v = rnd.nextInt(5) == 0 ? "" : "s" + rnd.nextInt(1000);
                            builder.stringField(FIELDS[f], v);
                            yield "\"" + v + "\"";
                        }
                        case UNSIGNED -> {
                            long v = rnd.nextLong();
                            builder.unsignedField(FIELDS[f], v);
                            yield Long.toUnsignedString(v) + "u";
                        }
                    };
                    fields.put(FIELDS[f], rendered);
                }
                builder.endPoint();
                onSuccess.add(() -> {
                    tagsSeen.computeIfAbsent(m, k -> new java.util.TreeSet<>()).addAll(tags.keySet());
                    fieldsSeen.computeIfAbsent(m, k -> new java.util.TreeSet<>()).addAll(fields.keySet());
                    model.computeIfAbsent(m, k -> new TreeMap<>()).computeIfAbsent(seriesKey(tags), k -> new TreeMap<>())
                            .computeIfAbsent(ts, k -> new TreeMap<>()).putAll(fields);
                });
            }
            c.write(builder.build());
            onSuccess.forEach(Runnable::run);
        }
    }

    private static String seriesKey(TreeMap<String, String> tags) {
        StringBuilder sb = new StringBuilder();
        for (String k : TAG_KEYS) {
            sb.append(k).append('=').append(tags.containsKey(k) ? "\"" + tags.get(k) + "\"" : "<null>").append('\u0001');
        }
        return sb.toString();
    }

    void check(Chronix c, Random rnd, String when) {
        assertThat(c.measurements()).as(when).isEqualTo(new ArrayList<>(model.keySet()));
        for (String m : model.keySet()) {
            List<String> tags = new ArrayList<>(tagsSeen.get(m));
            List<String> fields = new ArrayList<>(fieldsSeen.get(m));
            List<String> all = new ArrayList<>();
            all.add("time");
            all.addAll(tags);
            all.addAll(fields);
            assertThat(EngineFixture.columnNames(c.schema(m).orElseThrow())).as(when).isEqualTo(all);
            List<String> whole = expected(m, all, Long.MIN_VALUE, Long.MAX_VALUE, null, null);
            assertThat(sorted(fx.rows(c, ScanRequest.all(m)))).as(when + " full scan of " + m).isEqualTo(whole);
            assertThat(sorted(fx.rowsUnordered(c, ScanRequest.all(m)))).as(when + " full unordered scan of " + m).isEqualTo(whole);
            // projected, time-bounded, filtered
            List<String> projection = new ArrayList<>();
            for (String col : all) {
                if (rnd.nextBoolean()) {
                    projection.add(col);
                }
            }
            if (projection.isEmpty()) {
                projection.add("time");
            }
            long from = EngineFixture.T0 + rnd.nextInt(4) * (SHARD / 2);
            long to = from + rnd.nextInt(4) * (SHARD / 2);
            String key = TAG_KEYS[rnd.nextInt(TAG_KEYS.length)];
            String value = rnd.nextInt(3) == 0 ? null : key + rnd.nextInt(3);
            TagPredicate p = value == null ? new TagPredicate.IsNull(key) : new TagPredicate.Eq(key, value);
            ScanRequest req = new ScanRequest(m, projection, from, to, List.of(p));
            List<String> canonicalProjection = all.stream().filter(projection::contains).toList();
            List<String> want = expected(m, canonicalProjection, from, to, key, value == null ? "<null>" : "\"" + value + "\"");
            assertThat(sorted(fx.rows(c, req))).as(when + " " + req).isEqualTo(want);
            assertThat(sorted(fx.rowsUnordered(c, req))).as(when + " unordered " + req).isEqualTo(want);
            assertThat(c.countRows(ScanRequest.all(m), fx.allocator)).as(when + " count of " + m).isEqualTo(whole.size());
            assertThat(c.countRows(ScanRequest.all(m).withTimeRange(from, to), fx.allocator)).as(when + " count in range of " + m)
                    .isEqualTo(expected(m, List.of("time"), from, to, null, null).size());
            assertThat(c.countRows(req, fx.allocator)).as(when + " count of " + req).isEqualTo(want.size());
            // a set of two values: the series it selects are apart in storage, so reads gather stretches
            String a = key + rnd.nextInt(3);
            String b = key + rnd.nextInt(3);
            ScanRequest inReq = new ScanRequest(m, projection, from, to, List.of(new TagPredicate.In(key, new java.util.HashSet<>(List.of(a, b)))));
            List<String> inWant = new ArrayList<>(expected(m, canonicalProjection, from, to, key, "\"" + a + "\""));
            if (!a.equals(b)) {
                inWant.addAll(expected(m, canonicalProjection, from, to, key, "\"" + b + "\""));
            }
            assertThat(sorted(fx.rows(c, inReq))).as(when + " " + inReq).isEqualTo(sorted(inWant));
            assertThat(sorted(fx.rowsUnordered(c, inReq))).as(when + " unordered " + inReq).isEqualTo(sorted(inWant));
        }
    }

    private List<String> expected(String m, List<String> columns, long from, long to, String predKey, String predValue) {
        List<String> out = new ArrayList<>();
        for (var s : model.get(m).entrySet()) {
            Map<String, String> tagValues = new TreeMap<>();
            for (String part : s.getKey().split("\u0001")) {
                int eq = part.indexOf('=');
                tagValues.put(part.substring(0, eq), part.substring(eq + 1));
            }
            if (predKey != null && !tagValues.get(predKey).equals(predValue)) {
                continue;
            }
            for (var row : s.getValue().entrySet()) {
                if (row.getKey() < from || row.getKey() > to) {
                    continue;
                }
                StringBuilder sb = new StringBuilder();
                for (String col : columns) {
                    if (!sb.isEmpty()) {
                        sb.append('|');
                    }
                    String v = col.equals("time") ? Long.toString(row.getKey())
                            : tagValues.containsKey(col) ? tagValues.get(col) : row.getValue().getOrDefault(col, "<null>");
                    sb.append(col).append('=').append(v);
                }
                out.add(sb.toString());
            }
        }
        return sorted(out);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> s = new ArrayList<>(rows);
        s.sort(null);
        return s;
    }

}

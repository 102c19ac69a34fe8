package io.chronix.engine;

import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.AggregateRequest;
import io.chronix.engine.read.AggregateResult;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentReader;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;
import io.chronix.engine.summary.FieldAggregate;
import io.chronix.engine.summary.SegmentSummary;
import io.chronix.engine.summary.SummaryReader;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Segment summaries equal the rows they summarise, and an aggregate answered from summaries equals
 * the model's (and the block-only answer) — with overwrites across segments (overlapping segments
 * before compaction must fall back to blocks), memtable writes into old time, and restarts.
 *
 * <p>Seeded: the seed is printed on failure; rerun one with {@code -Dchronix.test.seed=N}. The
 * default build runs {@code -Dchronix.property.rounds} (default 12) seeds.
 */
class SummariesAgreeWithRowsPropertyTest {

    @TempDir
    Path tmp;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    private static final long SHARD = Duration.ofSeconds(10).toNanos();
    private static final String[] FIELDS = {"f", "i", "u"};
    private static final FieldType[] TYPES = {FieldType.FLOAT, FieldType.INTEGER, FieldType.UNSIGNED};

    /** series (canonical "host=..,dc=..") -> time -> field -> value bits; last write wins field by field. */
    private final Map<Map<String, String>, TreeMap<Long, Map<String, Long>>> model = new HashMap<>();
    private int fromSummaries;
    private int read;

    @Test
    void summariesEqualTheirRowsAndAggregatesEqualTheModel() throws Exception {
        String fixed = System.getProperty("chronix.test.seed");
        int rounds = Integer.getInteger("chronix.property.rounds", 12);
        long base = fixed != null ? Long.parseLong(fixed) : new Random().nextLong();
        for (int round = 0; round < (fixed != null ? 1 : rounds); round++) {
            long seed = base + round;
            try {
                runOnce(seed);
            } catch (AssertionError | Exception e) {
                throw new AssertionError("property failed; rerun with -Dchronix.test.seed=" + seed, e);
            }
        }
        if (fixed == null) {
            assertThat(fromSummaries).as("some aggregates were answered from summaries").isPositive();
            assertThat(read).as("some segments had to be read (overlaps, edges)").isPositive();
        }
    }

    private void runOnce(long seed) throws Exception {
        model.clear();
        Random rnd = new Random(seed);
        boolean integralFloats = rnd.nextBoolean();
        Path dir = Files.createTempDirectory(tmp, "ns");
        int rowGroupRows = 1 + rnd.nextInt(64);
        EngineConfig config = EngineFixture.config().withShardDuration(Duration.ofNanos(SHARD)).withOooToleranceShards(1000)
                .withFlushThresholdBytes(Long.MAX_VALUE / 2)
                .withSegments((io, seg, t) -> new CsxSegmentStore(io, seg, t, SegmentWriterConfig.defaults().withRowGroupRows(rowGroupRows)));
        long next = T0;
        Chronix c = fx.open(dir, config);
        try {
            int phases = 2 + rnd.nextInt(6);
            for (int phase = 0; phase < phases; phase++) {
                long width = SHARD / 2 + rnd.nextInt((int) (3 * SHARD / 1000)) * 1000L;
                long start;
                if (rnd.nextInt(10) < 7) {
                    start = next; // fresh time: segments of a series do not overlap
                    next += width;
                } else {
                    start = T0 + (long) (rnd.nextDouble() * Math.max(1, next - T0)); // overwrites into old time
                }
                write(c, rnd, start, width, integralFloats);
                if (phase == 0 || rnd.nextInt(4) != 0) {
                    c.flush();
                }
                if (rnd.nextInt(5) == 0) {
                    c.close();
                    c = fx.open(dir, config);
                }
            }
            // files are read behind the engine's back: closed, no maintenance pass can compact
            // a segment away between listing and opening it
            c.close();
            checkSummariesEqualRows(dir);
            c = fx.open(dir, config);
            for (int q = 0; q < 8; q++) {
                long a = T0 - SHARD + (long) (rnd.nextDouble() * (next - T0 + 2 * SHARD));
                long b = T0 - SHARD + (long) (rnd.nextDouble() * (next - T0 + 2 * SHARD));
                if (q == 0) {
                    a = Long.MIN_VALUE;
                    b = Long.MAX_VALUE;
                }
                List<TagPredicate> predicates = switch (rnd.nextInt(3)) {
                    case 0 -> List.of();
                    case 1 -> List.of(new TagPredicate.Eq("host", "h" + rnd.nextInt(4)));
                    default -> List.of(new TagPredicate.IsNull("dc"));
                };
                for (int f = 0; f < FIELDS.length; f++) {
                    AggregateRequest req = new AggregateRequest("m", FIELDS[f], Math.min(a, b), Math.max(a, b), predicates);
                    AggregateResult withSummaries = c.aggregate(req, fx.allocator);
                    AggregateResult fromBlocks = c.aggregate(req.withoutSummaries(), fx.allocator);
                    assertThat(fromBlocks.segmentsFromSummaries()).isZero();
                    fromSummaries += withSummaries.segmentsFromSummaries();
                    read += withSummaries.segmentsRead();
                    Map<Map<String, String>, FieldAggregate> expected = model(req, TYPES[f]);
                    assertSame(withSummaries, expected, integralFloats, "from summaries " + req);
                    assertSame(fromBlocks, expected, integralFloats, "from blocks " + req);
                }
            }
        } finally {
            c.close();
        }
    }

    private void write(Chronix c, Random rnd, long start, long width, boolean integralFloats) {
        PointBatch.Builder b = PointBatch.builder();
        int points = 1 + rnd.nextInt(200);
        for (int p = 0; p < points; p++) {
            long ts = start + (long) (rnd.nextDouble() * width);
            Map<String, String> tags = new TreeMap<>();
            tags.put("host", "h" + rnd.nextInt(4));
            if (rnd.nextBoolean()) {
                tags.put("dc", "d" + rnd.nextInt(2));
            }
            b.beginPoint("m", ts);
            tags.forEach(b::tag);
            Map<String, Long> fields = new HashMap<>();
            if (rnd.nextInt(5) != 0) {
                double v = integralFloats ? rnd.nextInt(2001) - 1000 : rnd.nextGaussian() * Math.pow(10, rnd.nextInt(12) - 6);
                b.floatField("f", v);
                fields.put("f", Double.doubleToRawLongBits(v));
            }
            if (rnd.nextInt(5) != 0) {
                long v = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(100);
                b.integerField("i", v);
                fields.put("i", v);
            }
            if (rnd.nextInt(5) != 0) {
                long v = rnd.nextLong();
                b.unsignedField("u", v);
                fields.put("u", v);
            }
            if (fields.isEmpty()) {
                b.floatField("f", 0.0);
                fields.put("f", Double.doubleToRawLongBits(0.0));
            }
            b.endPoint();
            model.computeIfAbsent(tags, k -> new TreeMap<>()).computeIfAbsent(ts, k -> new HashMap<>()).putAll(fields);
        }
        c.write(b.build());
    }

    private Map<Map<String, String>, FieldAggregate> model(AggregateRequest req, FieldType type) {
        Map<Map<String, String>, FieldAggregate> out = new HashMap<>();
        for (var s : model.entrySet()) {
            boolean pass = true;
            for (TagPredicate p : req.predicates()) {
                pass &= p.test(s.getKey().get(p.key()));
            }
            if (!pass) {
                continue;
            }
            FieldAggregate a = new FieldAggregate(type);
            for (var row : s.getValue().subMap(req.from(), true, req.to(), true).entrySet()) {
                Long bits = row.getValue().get(req.field());
                if (bits != null) {
                    a.add(row.getKey(), bits);
                }
            }
            if (a.count() > 0) {
                out.put(s.getKey(), a);
            }
        }
        return out;
    }

    private static void assertSame(AggregateResult r, Map<Map<String, String>, FieldAggregate> expected, boolean integralFloats,
            String what) {
        Map<Map<String, String>, FieldAggregate> got = new HashMap<>();
        for (AggregateResult.Series s : r.series()) {
            got.put(s.tags(), s.aggregate());
        }
        assertThat(got.keySet()).as(what).isEqualTo(expected.keySet());
        for (var e : expected.entrySet()) {
            FieldAggregate x = e.getValue();
            FieldAggregate y = got.get(e.getKey());
            String at = what + " series " + e.getKey() + ": expected " + x + " got " + y;
            assertThat(y.count()).as(at).isEqualTo(x.count());
            assertThat(y.firstTime()).as(at).isEqualTo(x.firstTime());
            assertThat(y.lastTime()).as(at).isEqualTo(x.lastTime());
            assertThat(y.first()).as(at).isEqualTo(x.first());
            assertThat(y.last()).as(at).isEqualTo(x.last());
            assertThat(y.min()).as(at).isEqualTo(x.min());
            assertThat(y.max()).as(at).isEqualTo(x.max());
            if (x.type() == FieldType.FLOAT) {
                if (integralFloats) {
                    assertThat(y.sum()).as(at).isEqualTo(x.sum());
                } else {
                    assertThat(y.sum()).as(at).isCloseTo(x.sum(), org.assertj.core.data.Offset.offset(1e-9 * Math.max(1, Math.abs(x.sum()))));
                }
            } else {
                assertThat(y.exactSum()).as(at).isEqualTo(x.exactSum());
            }
        }
    }

    /** Every segment's {@code .summary} equals a summary computed here from the segment's decoded rows, bit for bit. */
    private void checkSummariesEqualRows(Path dir) throws Exception {
        List<Path> segments;
        try (Stream<Path> files = Files.walk(dir.resolve("segments"))) {
            segments = files.filter(p -> p.toString().endsWith(".csx")).toList();
        }
        assertThat(segments).isNotEmpty();
        for (Path seg : segments) {
            Path summaryPath = seg.resolveSibling(seg.getFileName().toString().replace(".csx", ".summary"));
            SegmentSummary written = SummaryReader.read(NioFileIO.INSTANCE, summaryPath);
            try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, seg)) {
                assertThat(written.segmentCrc()).isEqualTo(r.meta().crc());
                assertThat(rowsOf(r, written)).as("summary of " + seg + " equals its rows").isTrue();
            }
        }
    }

    private boolean rowsOf(SegmentReader r, SegmentSummary written) {
        List<SegmentSummary.Series> series = new ArrayList<>();
        String[] current = null;
        FieldAggregate[] aggs = null;
        long rows = 0;
        long min = 0;
        long max = 0;
        for (int rg = 0; rg < r.rowGroups().size(); rg++) {
            try (VectorSchemaRoot root = r.readRowGroup(fx.allocator, rg, null)) {
                TimeStampVector time = (TimeStampVector) root.getVector("time");
                for (int row = 0; row < root.getRowCount(); row++) {
                    String[] tags = new String[written.tagNames().size()];
                    for (int t = 0; t < tags.length; t++) {
                        VarCharVector v = (VarCharVector) root.getVector(written.tagNames().get(t));
                        tags[t] = v.isNull(row) ? null : new String(v.get(row), StandardCharsets.UTF_8);
                    }
                    if (current == null || !Arrays.equals(current, tags)) {
                        if (current != null) {
                            series.add(new SegmentSummary.Series(Arrays.asList(current), rows, min, max, Arrays.asList(aggs)));
                        }
                        current = tags;
                        aggs = new FieldAggregate[written.fields().size()];
                        for (int f = 0; f < aggs.length; f++) {
                            aggs[f] = new FieldAggregate(written.fields().get(f).type());
                        }
                        rows = 0;
                        min = Long.MAX_VALUE;
                        max = Long.MIN_VALUE;
                    }
                    long ts = time.get(row);
                    rows++;
                    min = Math.min(min, ts);
                    max = Math.max(max, ts);
                    for (int f = 0; f < aggs.length; f++) {
                        FieldVector v = root.getVector(written.fields().get(f).name());
                        if (!v.isNull(row)) {
                            aggs[f].add(ts, ((BaseFixedWidthVector) v).getDataBuffer().getLong((long) row * 8));
                        }
                    }
                }
            }
        }
        if (current != null) {
            series.add(new SegmentSummary.Series(Arrays.asList(current), rows, min, max, Arrays.asList(aggs)));
        }
        SegmentSummary fromRows = new SegmentSummary(written.segmentCrc(), written.measurement(), written.tagNames(), written.fields(),
                series);
        Set<String> numeric = Set.of(FIELDS);
        assertThat(written.fields()).allMatch(f -> numeric.contains(f.name()));
        return fromRows.sameAs(written);
    }
}

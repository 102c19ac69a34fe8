package io.chronix.engine.segment;

import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.segment.encoding.FloatEncoder;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SegmentRoundTripTest {

    @TempDir
    Path dir;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close(); // fails the test if any vector leaked
    }

    private Path segments() {
        return dir.resolve("segments");
    }

    private Path tmp() {
        return dir.resolve("tmp");
    }

    static SegmentWriterConfig config(String codec) {
        SegmentWriterConfig c = SegmentWriterConfig.defaults().withRowGroupRows(500);
        return switch (codec) {
            case "none" -> c.withCompression(SegmentFormat.COMPRESSION_NONE);
            case "lz4" -> c;
            case "zstd" -> c.withZstd(3, false);
            case "zstd-dict" -> c.withRowGroupRows(1_500).withZstd(3, true);
            case "gorilla" -> c.withFloatPolicy(FloatEncoder.Policy.GORILLA);
            default -> throw new IllegalArgumentException(codec);
        };
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "lz4", "zstd", "zstd-dict", "gorilla"})
    void everyTypeWithNullsRoundTrips(String codec) {
        long seed = System.nanoTime();
        System.out.println("everyTypeWithNullsRoundTrips seed=" + seed + " codec=" + codec);
        SegmentTestData data = new SegmentTestData(seed, 23, 170);
        SegmentFile file = SegmentFile.of(7, 123, 1);
        // two parts, to cover the sort order continuing across appends
        int cut = data.rows / 3;
        SegmentWriter.Written w = SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file,
                List.of(data.part(0, cut), data.part(cut, data.rows)), config(codec), 42);
        assertThat(w.meta().header().rowCount()).isEqualTo(data.rows);
        assertThat(w.meta().header().seriesCount()).isEqualTo(23);
        assertThat(w.meta().header().maxWalSequence()).isEqualTo(42);
        assertThat(w.meta().rowGroups()).hasSizeGreaterThan(2);

        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()))) {
            assertThat(r.meta().header()).isEqualTo(w.meta().header());
            assertThat(r.meta().columns()).isEqualTo(w.meta().columns());
            assertThat(r.meta().rowGroups()).isEqualTo(w.meta().rowGroups());
            assertThat(r.columns()).extracting(SegmentMeta.Column::name)
                    .containsExactly("time", "host", "region", "b", "f", "i", "s", "u");
            if (codec.equals("zstd-dict")) {
                assertThat(r.hasZstdDictionary()).isTrue();
                assertThat(r.rowGroups().get(1).blocks()).anyMatch(b -> b.compression() == SegmentFormat.COMPRESSION_ZSTD_DICT);
            }
            // straight from the file, then through a block cache: its images built on a miss
            // (strings in dictionary form) and read back on a hit must give the same rows
            io.chronix.engine.cache.BlockCache cache = io.chronix.engine.cache.BlockCache.create(64L << 20);
            for (String pass : List.of("uncached", "cache miss", "cache hit")) {
                if (pass.equals("cache miss")) {
                    r.cachingIn(cache);
                }
                int row = 0;
                for (int g = 0; g < r.rowGroups().size(); g++) {
                    try (VectorSchemaRoot root = r.readRowGroup(allocator, g, null)) {
                        assertThat(root.getSchema()).isEqualTo(r.schema(null));
                        for (int k = 0; k < root.getRowCount(); k++, row++) {
                            assertRow(data, row, root, k);
                        }
                    }
                }
                assertThat(row).as(pass).isEqualTo(data.rows);
            }
            assertThat(cache.stats().hits()).isEqualTo((long) r.rowGroups().size() * r.columns().size());
            r.verifyBlocks();
            assertThat(r.seriesIndex()).isEqualTo(w.series());
        }
    }

    /** Stretches of rows come back as exactly those rows of the whole group, cached or not, hit or miss. */
    @ParameterizedTest(name = "cache={0}")
    @ValueSource(booleans = {false, true})
    void rowStretchesAreTheirRowsOfTheGroup(boolean cached) {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        java.util.Random random = new java.util.Random(seed);
        SegmentTestData data = new SegmentTestData(seed, 31, 120);
        SegmentFile file = SegmentFile.of(3, 9, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, List.of(data.part(0, data.rows)), config("lz4"), 1);
        io.chronix.engine.cache.BlockCache cache = io.chronix.engine.cache.BlockCache.create(64L << 20);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()))) {
            if (cached) {
                r.cachingIn(cache);
            }
            for (int round = 0; round < 40; round++) {
                int g = random.nextInt(r.rowGroups().size());
                SegmentMeta.RowGroup group = r.rowGroups().get(g);
                List<Integer> ranges = new ArrayList<>();
                int at = random.nextInt(3);
                while (at < group.rowCount()) {
                    int count = 1 + random.nextInt(Math.min(90, group.rowCount() - at));
                    ranges.add(at);
                    ranges.add(count);
                    at += count + random.nextInt(60); // sometimes 0: adjacent stretches stay separate
                }
                if (ranges.isEmpty()) {
                    continue;
                }
                int[] asked = ranges.stream().mapToInt(Integer::intValue).toArray();
                try (VectorSchemaRoot root = r.readRowGroupRows(allocator, g, null, asked)) {
                    assertThat(root.getSchema()).isEqualTo(r.schema(null));
                    int k = 0;
                    for (int i = 0; i < asked.length; i += 2) {
                        for (int j = 0; j < asked[i + 1]; j++, k++) {
                            assertRow(data, (int) group.firstRow() + asked[i] + j, root, k);
                        }
                    }
                    assertThat(root.getRowCount()).as("seed %d", seed).isEqualTo(k);
                }
            }
            if (cached) {
                assertThat(cache.stats().hits()).as("later rounds must hit the cache").isPositive();
            }
            assertThatThrownBy(() -> r.readRowGroupRows(allocator, 0, null, new int[] {5, 2, 6, 1}))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> r.readRowGroupRows(allocator, 0, null, new int[] {0, r.rowGroups().get(0).rowCount() + 1}))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static void assertRow(SegmentTestData d, int row, VectorSchemaRoot root, int k) {
        assertThat(((TimeStampNanoVector) root.getVector("time")).get(k)).as("time row %d", row).isEqualTo(d.time[row]);
        assertThat(string((VarCharVector) root.getVector("host"), k)).isEqualTo(d.host[row]);
        assertThat(string((VarCharVector) root.getVector("region"), k)).as("region row %d", row).isEqualTo(d.region[row]);
        Float8Vector f = (Float8Vector) root.getVector("f");
        if (SegmentTestData.valid(d.fValid, row)) {
            assertThat(Double.doubleToRawLongBits(f.get(k))).as("f row %d", row).isEqualTo(Double.doubleToRawLongBits(d.f[row]));
        } else {
            assertThat(f.isNull(k)).as("f null row %d", row).isTrue();
        }
        BigIntVector i = (BigIntVector) root.getVector("i");
        if (SegmentTestData.valid(d.iValid, row)) {
            assertThat(i.get(k)).isEqualTo(d.i[row]);
        } else {
            assertThat(i.isNull(k)).isTrue();
        }
        assertThat(((UInt8Vector) root.getVector("u")).get(k)).isEqualTo(d.u[row]);
        BitVector b = (BitVector) root.getVector("b");
        if (SegmentTestData.valid(d.bValid, row)) {
            assertThat(b.get(k) == 1).isEqualTo(d.b[row]);
        } else {
            assertThat(b.isNull(k)).isTrue();
        }
        assertThat(string((VarCharVector) root.getVector("s"), k)).isEqualTo(d.s[row]);
    }

    static String string(VarCharVector v, int k) {
        return v.isNull(k) ? null : new String(v.get(k), java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void projectionReturnsOnlyTheNamedColumnsInCanonicalOrder() {
        SegmentTestData data = new SegmentTestData(1, 5, 100);
        SegmentFile file = SegmentFile.of(0, 1, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, data.all(), config("lz4"), 0);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()));
             VectorSchemaRoot root = r.readRowGroup(allocator, 0, List.of("u", "time", "host"))) {
            assertThat(root.getSchema().getFields()).extracting(org.apache.arrow.vector.types.pojo.Field::getName)
                    .containsExactly("time", "host", "u");
            assertThatThrownBy(() -> r.readRowGroup(allocator, 0, List.of("nope"))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void rowGroupsOutsideTheTimeRangeArePrunedAndReverseScanStartsWithTheLast() {
        // one series, so row groups are in time order and prune cleanly
        int n = 2_000;
        long[] t = new long[n];
        String[] host = new String[n];
        long[] v = new long[n];
        for (int k = 0; k < n; k++) {
            t[k] = 1_000L * k;
            host[k] = "h";
            v[k] = k;
        }
        SegmentColumns cols = SegmentColumns.builder("m", n).time(t).tag("host", host).integerField("v", v, null).build();
        SegmentFile file = SegmentFile.of(0, 2, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, cols, SegmentWriterConfig.defaults().withRowGroupRows(100), 0);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()))) {
            assertThat(r.rowGroupsOverlapping(250_000, 450_000)).containsExactly(2, 3, 4);
            assertThat(r.rowGroupsOverlapping(199_000, 200_000)).containsExactly(1, 2);
            assertThat(r.rowGroupsOverlapping(-10, -1)).isEmpty();
            assertThat(r.rowGroupsOverlapping(Long.MIN_VALUE, Long.MAX_VALUE)).hasSize(20);
            List<Integer> seen = new ArrayList<>();
            long[] last = new long[1];
            r.scanReverse(allocator, List.of("v"), Long.MIN_VALUE, Long.MAX_VALUE, (g, root) -> {
                seen.add(g);
                BigIntVector vv = (BigIntVector) root.getVector("v");
                last[0] = vv.get(root.getRowCount() - 1);
                return false;
            });
            assertThat(seen).containsExactly(19);
            assertThat(last[0]).isEqualTo(n - 1);
            List<Integer> forward = new ArrayList<>();
            r.scan(allocator, null, 250_000, 450_000, (g, root) -> forward.add(g));
            assertThat(forward).containsExactly(2, 3, 4);
        }
    }

    @Test
    void statisticsAreExactAndOrdered() {
        int n = 4;
        long big = 1L << 60;
        SegmentColumns cols = SegmentColumns.builder("m", n)
                .time(new long[] {1, 2, 3, 4})
                .tag("host", new String[] {"a", "a", "b", "b"})
                .integerField("i", new long[] {big, big, big, 3}, null)
                .unsignedField("u", new long[] {-1L, -1L, 5, 0}, new long[] {0b1011})
                .floatField("f", new double[] {-0.0, Double.NaN, -7.5, 0.0}, null)
                .booleanField("b", new boolean[] {true, false, true, true}, null)
                .stringField("s", new String[] {"x", null, "y", "x"})
                .build();
        SegmentFile file = SegmentFile.of(0, 3, 1);
        SegmentMeta meta = SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, cols, SegmentWriterConfig.defaults(), 0).meta();
        ColumnStats i = meta.columns().get(meta.columnIndex("i")).stats();
        assertThat(i.exactSum()).isEqualTo(BigInteger.valueOf(big).multiply(BigInteger.valueOf(3)).add(BigInteger.valueOf(3)));
        assertThat(i.min()).isEqualTo(3);
        assertThat(i.max()).isEqualTo(big);
        assertThat(i.distinct()).isEqualTo(2);
        assertThat(i.distinctExact()).isTrue();
        ColumnStats u = meta.columns().get(meta.columnIndex("u")).stats();
        assertThat(u.nullCount()).isEqualTo(1);
        assertThat(u.exactSum()).isEqualTo(new BigInteger("18446744073709551615").multiply(BigInteger.TWO));
        assertThat(u.min()).isEqualTo(0);
        assertThat(u.max()).isEqualTo(-1L); // unsigned max
        ColumnStats f = meta.columns().get(meta.columnIndex("f")).stats();
        assertThat(f.minDouble()).isEqualTo(-7.5);
        assertThat(Double.doubleToRawLongBits(f.maxDouble())).isEqualTo(0L); // +0.0 above -0.0; NaN excluded
        assertThat(f.nanCount()).isEqualTo(1);
        ColumnStats b = meta.columns().get(meta.columnIndex("b")).stats();
        assertThat(b.sum()).isEqualTo(3.0);
        ColumnStats s = meta.columns().get(meta.columnIndex("s")).stats();
        assertThat(s.distinct()).isEqualTo(2);
        assertThat(s.nullCount()).isEqualTo(1);
        ColumnStats host = meta.columns().get(meta.columnIndex("host")).stats();
        assertThat(host.distinct()).isEqualTo(2);
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()))) {
            assertThat(r.columns()).isEqualTo(meta.columns());
        }
    }

    @Test
    void orderedFloatMappingSortsLikeTheNumbers() {
        double[] ascending = {Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.0, -Double.MIN_VALUE, -0.0, 0.0,
                Double.MIN_VALUE, 1.0, Double.MAX_VALUE, Double.POSITIVE_INFINITY};
        for (int k = 1; k < ascending.length; k++) {
            assertThat(ColumnStats.orderedFloat(ascending[k - 1])).isLessThan(ColumnStats.orderedFloat(ascending[k]));
        }
        for (double d : ascending) {
            assertThat(Double.doubleToRawLongBits(ColumnStats.fromOrderedFloat(ColumnStats.orderedFloat(d))))
                    .isEqualTo(Double.doubleToRawLongBits(d));
        }
    }

    @Test
    void aColumnTheSegmentLacksComesBackAllNull() {
        SegmentTestData data = new SegmentTestData(8, 3, 30);
        SegmentFile file = SegmentFile.of(0, 7, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, data.all(), config("lz4"), 0);
        org.apache.arrow.vector.types.pojo.Schema wanted = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                SegmentArrow.timeField(), SegmentArrow.fieldField("added_later", io.chronix.engine.model.FieldType.FLOAT),
                SegmentArrow.fieldField("i", io.chronix.engine.model.FieldType.INTEGER)));
        try (SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()));
             VectorSchemaRoot root = r.readRowGroupAs(allocator, 0, wanted)) {
            assertThat(root.getSchema().getFields()).extracting(org.apache.arrow.vector.types.pojo.Field::getName)
                    .containsExactly("time", "added_later", "i");
            Float8Vector added = (Float8Vector) root.getVector("added_later");
            assertThat(added.getValueCount()).isEqualTo(data.rows);
            assertThat(added.getNullCount()).isEqualTo(data.rows);
            assertThat(((TimeStampNanoVector) root.getVector("time")).get(0)).isEqualTo(data.time[0]);
            org.apache.arrow.vector.types.pojo.Schema wrongType = new org.apache.arrow.vector.types.pojo.Schema(List.of(
                    SegmentArrow.fieldField("i", io.chronix.engine.model.FieldType.FLOAT)));
            assertThatThrownBy(() -> r.readRowGroupAs(allocator, 0, wrongType)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void doubleCloseIsHarmlessAndReadsAfterCloseAreRefused() {
        SegmentTestData data = new SegmentTestData(2, 2, 10);
        SegmentFile file = SegmentFile.of(0, 4, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, data.all(), config("lz4"), 0);
        SegmentReader r = SegmentReader.open(NioFileIO.INSTANCE, file.resolve(segments()));
        r.close();
        r.close();
        assertThatThrownBy(() -> r.readRowGroup(allocator, 0, null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void unsortedInputIsRefusedNamingTheRow() {
        assertThatThrownBy(() -> SegmentColumns.builder("m", 2).time(new long[] {1, 2})
                .tag("host", new String[] {"b", "a"}).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row=1");
        assertThatThrownBy(() -> SegmentColumns.builder("m", 2).time(new long[] {2, 2})
                .tag("host", new String[] {"a", "a"}).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly increasing");
        assertThatThrownBy(() -> SegmentColumns.builder("m", 1).time(new long[] {1}).tag("time", new String[] {"a"}).build())
                .isInstanceOf(IllegalArgumentException.class);
        SegmentColumns a = SegmentColumns.builder("m", 1).time(new long[] {5}).tag("host", new String[] {"b"}).build();
        SegmentColumns b = SegmentColumns.builder("m", 1).time(new long[] {9}).tag("host", new String[] {"a"}).build();
        assertThatThrownBy(() -> SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), SegmentFile.of(0, 5, 1),
                List.of(a, b), SegmentWriterConfig.defaults(), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void publishedNameIsNeverReusedAndNoTempFileRemains() throws Exception {
        SegmentTestData data = new SegmentTestData(3, 2, 10);
        SegmentFile file = SegmentFile.of(-3, 6, 1);
        SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, data.all(), config("lz4"), 0);
        assertThat(file.resolve(segments())).exists();
        assertThat(file.resolveSidecar(segments())).exists();
        assertThatThrownBy(() -> SegmentWriter.write(NioFileIO.INSTANCE, tmp(), segments(), file, data.all(), config("lz4"), 0))
                .isInstanceOf(SegmentIoException.class);
        try (var s = Files.list(tmp())) {
            assertThat(s.toList()).isEmpty();
        }
    }
}

package io.chronix.engine.memtable;

import io.chronix.engine.error.MemtableFrozenException;
import io.chronix.engine.error.NoFrozenMemtableException;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemtableTest {

    final SeriesRegistry registry = new SeriesRegistry();
    /** field name -> ordinal, like the schema registry assigns them */
    final Map<String, Integer> ordinals = new TreeMap<>(Map.of("a", 0, "b", 1, "s", 2));

    private void insert(Memtable m, PointBatch batch, long seq) {
        int n = batch.size();
        SeriesRef[] refs = new SeriesRef[n];
        int[] start = new int[n];
        int[] ords = new int[batch.totalFields()];
        int[] idx = new int[n];
        int f0 = 0;
        for (int p = 0; p < n; p++) {
            refs[p] = registry.resolve(batch, p);
            start[p] = f0;
            idx[p] = p;
            for (int f = 0; f < batch.fieldCount(p); f++) {
                ords[f0++] = ordinals.get(batch.fieldName(p, f));
            }
        }
        m.insertBatch(batch, idx, 0, n, refs, ords, start, seq);
    }

    private static List<String> rows(Memtable m) {
        List<String> out = new ArrayList<>();
        for (SeriesRef s : m.series()) {
            m.read(s, Long.MIN_VALUE, Long.MAX_VALUE, new RowSink() {
                StringBuilder sb;

                @Override
                public void beginRow(SeriesRef series, long timestamp) {
                    sb = new StringBuilder(series + "@" + timestamp);
                }

                @Override
                public void bitsField(int ordinal, FieldType type, long bits) {
                    sb.append(' ').append(ordinal).append('=').append(type == FieldType.FLOAT ? String.valueOf(Double.longBitsToDouble(bits)) : String.valueOf(bits));
                }

                @Override
                public void stringField(int ordinal, String value) {
                    sb.append(' ').append(ordinal).append("=\"").append(value).append('"');
                }

                @Override
                public void endRow() {
                    out.add(sb.toString());
                }
            });
        }
        return out;
    }

    @Test
    void longSeriesWithLateFieldsAndDuplicatesAcrossChunksReadAsTheLastWriteWinsModel() {
        // rows cross many value chunks (and the first chunk's doublings); fields start late; timestamps
        // repeat and go backwards; reads in between normalize, and appends go on after them
        java.util.Random random = new java.util.Random(42);
        for (int round = 0; round < 20; round++) {
            Memtable m = new Memtable(0);
            TreeMap<Long, TreeMap<Integer, String>> model = new TreeMap<>();
            int points = 1 + random.nextInt(900);
            int lateField = random.nextInt(points);
            int appended = 0;
            for (int i = 0; i < points; i++) {
                long t = random.nextInt(4) == 0 ? random.nextInt(Math.max(1, i)) : i; // a quarter out of order or repeated
                PointBatch.Builder b = PointBatch.builder().beginPoint("m", t).tag("h", "x");
                TreeMap<Integer, String> row = model.computeIfAbsent(t, k -> new TreeMap<>());
                boolean any = false;
                if (random.nextBoolean()) {
                    b.floatField("a", i + 0.5);
                    row.put(0, String.valueOf(i + 0.5));
                    any = true;
                }
                if (i >= lateField && random.nextBoolean()) {
                    b.stringField("s", "v" + i);
                    row.put(2, "\"v" + i + "\"");
                    any = true;
                }
                if (!any || random.nextInt(3) == 0) {
                    b.integerField("b", -i);
                    row.put(1, String.valueOf(-i));
                }
                insert(m, b.endPoint().build(), i + 1);
                appended++;
                if (random.nextInt(200) == 0) {
                    assertThat(rows(m)).containsExactlyElementsOf(expected(model));
                }
            }
            assertThat(rows(m)).containsExactlyElementsOf(expected(model));
            SeriesRef s = m.series().getFirst();
            assertThat(m.appendedPoints(s)).isBetween(model.size(), appended);
        }
    }

    private static List<String> expected(TreeMap<Long, TreeMap<Integer, String>> model) {
        List<String> out = new ArrayList<>();
        model.forEach((t, row) -> {
            StringBuilder sb = new StringBuilder("m,h=x@" + t);
            row.forEach((o, v) -> sb.append(' ').append(o).append('=').append(v));
            out.add(sb.toString());
        });
        return out;
    }

    @Test
    void appendedPointsCountsEveryAppendUntilAReadMergesDuplicates() {
        Memtable m = new Memtable(0);
        insert(m, PointBatch.builder().beginPoint("m", 10).tag("h", "x").floatField("a", 1).endPoint()
                .beginPoint("m", 10).tag("h", "x").floatField("a", 2).endPoint()
                .beginPoint("m", 11).tag("h", "x").floatField("a", 3).endPoint().build(), 1);
        SeriesRef s = m.series().getFirst();
        assertThat(m.appendedPoints(s)).isEqualTo(3);
        assertThat(rows(m)).hasSize(2);
        assertThat(m.appendedPoints(s)).isEqualTo(2);
        assertThat(m.appendedPoints(registry.resolve(PointBatch.builder().beginPoint("m", 1).tag("h", "other")
                .floatField("a", 1).endPoint().build(), 0))).isZero();
    }

    @Test
    void secondWriteOfSeriesAndTimeOverwritesTheFieldsItNamesAndKeepsTheOthers() {
        Memtable m = new Memtable(0);
        insert(m, PointBatch.builder().beginPoint("m", 10).tag("h", "x").floatField("a", 1).integerField("b", 2).endPoint().build(), 1);
        insert(m, PointBatch.builder().beginPoint("m", 10).tag("h", "x").floatField("a", 5).endPoint()
                .beginPoint("m", 10).tag("h", "x").stringField("s", "later").endPoint().build(), 2);
        assertThat(rows(m)).containsExactly("m,h=x@10 0=5.0 1=2 2=\"later\"");
        assertThat(m.minSequence()).isEqualTo(1);
        assertThat(m.maxSequence()).isEqualTo(2);
    }

    @Test
    void iterationIsOrderedBySeriesThenTimeWhateverTheArrivalOrder() {
        Memtable m = new Memtable(0);
        insert(m, PointBatch.builder()
                .beginPoint("m", 30).tag("h", "y").floatField("a", 3).endPoint()
                .beginPoint("m", 20).tag("h", "x").floatField("a", 2).endPoint()
                .beginPoint("m", 10).tag("h", "y").floatField("a", 1).endPoint()
                .beginPoint("m", 5).tag("h", "x").floatField("a", 0).endPoint()
                .build(), 1);
        assertThat(rows(m)).containsExactly("m,h=x@5 0=0.0", "m,h=x@20 0=2.0", "m,h=y@10 0=1.0", "m,h=y@30 0=3.0");
        assertThat(m.pointCount()).isEqualTo(4);
        assertThat(m.estimatedBytes()).isEqualTo(4L * (Memtable.POINT_OVERHEAD + Memtable.FIELD_COST));
    }

    @Test
    void frozenMemtableRefusesInsertsAndControllerSwapsAtomically() {
        FlushController c = new FlushController(7);
        assertThat(c.freeze(0)).as("nothing to freeze").isFalse();
        Memtable first = c.active();
        insert(first, PointBatch.builder().beginPoint("m", 1).floatField("a", 1).endPoint().build(), 1);
        assertThat(c.freeze(1)).isTrue();
        assertThat(c.frozen()).isSameAs(first);
        assertThat(c.active()).isNotSameAs(first);
        assertThat(first.frozenAtSequence()).isEqualTo(1);
        assertThatThrownBy(() -> insert(first, PointBatch.builder().beginPoint("m", 2).floatField("a", 1).endPoint().build(), 2))
                .isInstanceOf(MemtableFrozenException.class);
        insert(c.active(), PointBatch.builder().beginPoint("m", 2).floatField("a", 1).endPoint().build(), 2);
        assertThat(c.freeze(2)).as("one frozen at a time").isFalse();
        c.flushed(first);
        assertThat(c.frozen()).isNull();
        assertThatThrownBy(() -> c.flushed(first)).isInstanceOf(NoFrozenMemtableException.class);
    }

    @Test
    void concurrentWritersLoseNothing() throws Exception {
        Memtable m = new Memtable(0);
        int threads = 4;
        int perThread = 5_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                for (int i = 0; i < perThread; i += 10) {
                    PointBatch.Builder b = PointBatch.builder();
                    for (int j = 0; j < 10; j++) {
                        // shared series across threads, distinct timestamps
                        b.beginPoint("m", (long) (i + j) * threads + id).tag("h", "s" + (j % 3)).floatField("a", id).endPoint();
                    }
                    insert(m, b.build(), 1);
                }
            }));
        }
        go.countDown();
        for (Thread t : ts) {
            t.join();
        }
        assertThat(rows(m)).hasSize(threads * perThread);
        assertThat(m.pointCount()).isEqualTo(threads * perThread);
    }

    @Test
    void resolvingAWholeBatchGivesEachPointTheSeriesThatResolvingItAloneGives() {
        // 200 series interleaved point by point (the memo table grows several times), a measurement
        // and tag sets that differ only in key, value, count or measurement, and a dead series revived
        PointBatch.Builder b = PointBatch.builder();
        for (int round = 0; round < 5; round++) {
            for (int h = 0; h < 200; h++) {
                b.beginPoint(h % 3 == 0 ? "m" : "n", round * 1000L + h).tag("host", "h" + h);
                if (h % 2 == 0) {
                    b.tag("rack", "r" + (h % 7));
                } else {
                    b.tag("zone", "r" + (h % 7));
                }
                b.floatField("a", h).endPoint();
            }
        }
        b.beginPoint("m", 1).floatField("a", 1).endPoint(); // no tags at all
        PointBatch batch = b.build();
        SeriesRegistry alone = new SeriesRegistry();
        SeriesRegistry whole = new SeriesRegistry();
        SeriesRef dead = whole.resolve(batch, 7);
        whole.markDead(dead);
        assertThat(whole.liveSize()).isZero();
        SeriesRef[] out = new SeriesRef[batch.size()];
        whole.resolveAll(batch, out);
        for (int p = 0; p < batch.size(); p++) {
            SeriesRef expected = alone.resolve(batch, p);
            assertThat(out[p].toString()).as("point %d", p).isEqualTo(expected.toString());
            assertThat(out[p]).isSameAs(whole.resolve(batch, p));
        }
        assertThat(whole.size()).isEqualTo(alone.size()).isEqualTo(201);
        assertThat(whole.liveSize()).isEqualTo(201);
        assertThat(dead.isLive()).isTrue();
        assertThat(out[7]).isSameAs(dead);
    }

    @Test
    void pointsWhoseIdsHashAlikeStillResolveToTheirOwnSeries() {
        // ids in interning order: m=0, then a00=1, b00=2, a01=3, b01=4, ... b19=40, f=41. The batch
        // memo hashes (measurement, key, value) ids as 31 * (31 * m + key) + value, so m,a00=b19
        // (31 * 1 + 40) and m,b00=a04 (31 * 2 + 9) hash alike and must be told apart by their ids
        PointBatch.Builder b = PointBatch.builder().beginPoint("m", 0);
        for (int t = 0; t < 20; t++) {
            b.tag(String.format("a%02d", t), String.format("b%02d", t));
        }
        b.floatField("f", 0).endPoint();
        for (int round = 0; round < 3; round++) {
            b.beginPoint("m", round + 1).tag("a00", "b19").floatField("f", 1).endPoint();
            b.beginPoint("m", round + 1).tag("b00", "a04").floatField("f", 2).endPoint();
        }
        PointBatch batch = b.build();
        SeriesRef[] out = new SeriesRef[batch.size()];
        registry.resolveAll(batch, out);
        for (int p = 1; p < batch.size(); p++) {
            assertThat(out[p].toString()).isEqualTo(p % 2 == 1 ? "m,a00=b19" : "m,b00=a04");
        }
    }

    @Test
    void registryResolvesTheSameSeriesToOneReference() {
        PointBatch b = PointBatch.builder().beginPoint("m", 1).tag("b", "2").tag("a", "1").floatField("a", 1).endPoint()
                .beginPoint("m", 2).tag("a", "1").tag("b", "2").floatField("a", 1).endPoint()
                .beginPoint("n", 2).tag("a", "1").tag("b", "2").floatField("a", 1).endPoint().build();
        assertThat(registry.resolve(b, 0)).isSameAs(registry.resolve(b, 1)).isNotSameAs(registry.resolve(b, 2));
        assertThat(registry.find("m", new String[] {"a", "b"}, new String[] {"1", "2"})).isSameAs(registry.resolve(b, 0));
        assertThat(registry.find("m", new String[] {"a"}, new String[] {"1"})).isNull();
        for (int i = 0; i < 5000; i++) { // through several resizes
            registry.resolve("x", new String[] {"k"}, new String[] {"v" + i});
        }
        assertThat(registry.seriesOf("x")).hasSize(5000);
        assertThat(registry.resolve(b, 0).id()).isZero();
    }
}

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

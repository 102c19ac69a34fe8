package io.chronix.engine;

import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers and readers run while the shared scheduler flushes in the background (a tiny flush
 * threshold makes it flush constantly): every scan sees at least every point acknowledged before
 * it started, never a (series, time) twice, and at the end everything is there exactly once.
 */
class ConcurrentFlushTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    @Test
    void writersAndReadersDuringBackgroundFlushes() throws Exception {
        int writers = 3;
        int batchesPerWriter = 150;
        int pointsPerBatch = 20;
        // no compaction: it could merge the flushed segments back into one before the count below
        EngineConfig config = EngineFixture.config().withFlushThresholdBytes(8 * 1024).withCompactionTrigger(1_000);
        AtomicLong acknowledged = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (Chronix c = fx.open(dir, config)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        start.await();
                        // the background flush runs on a shared scheduler; on a loaded machine the writers
                        // can finish before it gets a core, so they go on (bounded) until one has
                        // sealed a segment beside them: otherwise nothing concurrent was tested
                        for (int b = 0; b < batchesPerWriter || (c.segmentCount() < 2 && b < batchesPerWriter * 20); b++) {
                            PointBatch.Builder builder = PointBatch.builder();
                            for (int i = 0; i < pointsPerBatch; i++) {
                                long ts = T0 + (long) (b * pointsPerBatch + i) * 1_000_000L;
                                builder.beginPoint("m", ts).tag("writer", "w" + writer).floatField("v", i).endPoint();
                            }
                            c.write(builder.build());
                            acknowledged.addAndGet(pointsPerBatch);
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong scans = new AtomicLong();
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    while (!done.get()) {
                        long before = acknowledged.get();
                        long rows = checkNoDuplicates(c);
                        assertThat(rows).isGreaterThanOrEqualTo(before);
                        scans.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            });
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            done.set(true);
            reader.join();
            assertThat(failures).isEmpty();
            assertThat(scans.get()).as("the reader ran").isPositive();
            assertThat(c.segmentCount()).as("background flushes happened").isGreaterThan(1);
            assertThat(acknowledged.get()).isGreaterThanOrEqualTo((long) writers * batchesPerWriter * pointsPerBatch);
            assertThat(checkNoDuplicates(c)).isEqualTo(acknowledged.get());
        }
        try (Chronix c = fx.open(dir, config)) {
            assertThat(checkNoDuplicates(c)).isEqualTo(acknowledged.get());
        }
    }

    private long checkNoDuplicates(Chronix c) {
        Set<String> seen = new HashSet<>();
        long rows = 0;
        try (ScanResult r = c.scan(ScanRequest.all("m").withColumns("time", "writer"), fx.allocator)) {
            for (VectorSchemaRoot b : r.batches()) {
                TimeStampVector t = (TimeStampVector) b.getVector("time");
                VarCharVector w = (VarCharVector) b.getVector("writer");
                for (int i = 0; i < b.getRowCount(); i++) {
                    String key = new String(w.get(i)) + "@" + t.get(i);
                    assertThat(seen.add(key)).as("row %s seen once", key).isTrue();
                    rows++;
                }
            }
        }
        return rows;
    }
}

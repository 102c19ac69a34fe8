package io.chronix.engine;

import io.chronix.engine.error.FlushFailedException;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.segment.SegmentColumns;
import io.chronix.engine.segment.SegmentFile;
import io.chronix.engine.store.CsxSegmentStore;
import io.chronix.engine.store.SegmentStore;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A flush whose segment write fails keeps the frozen memtable and the WAL; a later flush succeeds. */
class FailedFlushTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** Fails every write while {@code failing} is set. */
    static final class FailingStore implements SegmentStore {
        final SegmentStore inner;
        final AtomicBoolean failing = new AtomicBoolean(true);
        final AtomicInteger failures = new AtomicInteger();

        FailingStore(SegmentStore inner) {
            this.inner = inner;
        }

        @Override
        public int rowGroupCount(SegmentFile file) {
            return inner.rowGroupCount(file);
        }

        @Override
        public long write(SegmentFile file, SegmentColumns columns, long maxWalSequence) {
            if (failing.get()) {
                failures.incrementAndGet();
                throw new IllegalStateException("disk says no");
            }
            return inner.write(file, columns, maxWalSequence);
        }

        @Override
        public void read(SegmentFile file, List<String> columns, long from, long to, List<TagPredicate> tags,
                BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) {
            inner.read(file, columns, from, to, tags, allocator, sink);
        }

        @Override
        public void delete(SegmentFile file) {
            inner.delete(file);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void failedFlushKeepsMemtableAndWalAndALaterFlushSucceeds() throws Exception {
        FailingStore[] store = new FailingStore[1];
        EngineConfig config = EngineFixture.config().withShardDuration(Duration.ofMinutes(1)).withOooToleranceShards(100)
                .withSegments((io, seg, tmp) -> store[0] = new FailingStore(new CsxSegmentStore(io, seg, tmp)));
        List<String> expected;
        try (Chronix c = fx.open(dir, config)) {
            for (int i = 0; i < 5; i++) {
                c.write(PointBatch.builder().beginPoint("m", T0 + i * 61_000_000_000L).tag("h", "a").floatField("v", i).endPoint().build());
            }
            expected = fx.rows(c, ScanRequest.all("m"));
            long walFiles = walFiles();
            assertThatThrownBy(c::flush).isInstanceOf(FlushFailedException.class).hasMessageContaining("disk says no");
            assertThat(store[0].failures.get()).as("the fault fired").isPositive();
            assertThat(c.lastFlushFailure()).isPresent();
            assertThat(c.segmentCount()).isZero();
            assertThat(walFiles()).isEqualTo(walFiles);
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected); // still readable from frozen memtables
            // writes continue meanwhile
            c.write(PointBatch.builder().beginPoint("m", T0 + 1).tag("h", "b").floatField("v", 9).endPoint().build());
            expected = fx.rows(c, ScanRequest.all("m"));
            store[0].failing.set(false);
            c.flush();
            assertThat(c.lastFlushFailure()).isEmpty();
            assertThat(c.memtablePoints()).isZero();
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            // everything is in segments: the log rolled over and kept no record
            assertThat(walFiles()).isEqualTo(1);
            try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
                assertThat(Files.size(s.findFirst().orElseThrow())).isEqualTo(io.chronix.engine.wal.WalFormat.HEADER_SIZE);
            }
        }
        try (Chronix c = fx.open(dir, config)) {
            assertThat(fx.rows(c, ScanRequest.all("m"))).isEqualTo(expected);
            assertThat(c.replayCounts()[0]).as("nothing left to replay").isZero();
        }
    }

    private long walFiles() throws Exception {
        try (Stream<Path> s = Files.list(dir.resolve("wal"))) {
            return s.count();
        }
    }
}

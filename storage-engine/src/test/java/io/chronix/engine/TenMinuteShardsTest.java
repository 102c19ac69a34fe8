package io.chronix.engine;

import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Tests of scans over an engine in a temporary directory with 10-minute shards (so a few minutes
 * of points make several segments) and room for points far out of order; the engine and the
 * fixture are closed after each test.
 */
abstract class TenMinuteShardsTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();
    Chronix engine;

    @AfterEach
    void closeEngine() {
        if (engine != null) {
            engine.close();
        }
        fx.close();
    }

    /** The engine's configuration: 10-minute shards, 100 shards of out-of-order tolerance. */
    static EngineConfig tenMinuteShards() {
        return EngineFixture.config().withShardDuration(Duration.ofMinutes(10)).withOooToleranceShards(100);
    }

    void open() {
        engine = fx.open(dir, tenMinuteShards());
    }

    /** Opens the engine writing row groups of {@code rows} rows. */
    void openWithRowGroupsOf(int rows) {
        engine = fx.open(dir, tenMinuteShards()
                .withSegments((files, seg, tmp) -> new CsxSegmentStore(files, seg, tmp, SegmentWriterConfig.defaults().withRowGroupRows(rows))));
    }
}

package io.chronix.bench.compaction;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.segment.SegmentWriterConfig;
import io.chronix.engine.store.CsxSegmentStore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * A namespace of {@code segments} flushed segments of TSBS cpu-only data in ONE time shard (1-day
 * shards; 100 hosts, {@value #TICKS_PER_SEGMENT} ticks of 10 s per segment, so 100 segments are 10 h
 * and 360,000 rows), built once and copied for each compaction.
 */
final class CompactionData {

    static final int HOSTS = 100;
    static final int TICKS_PER_SEGMENT = 36;
    static final int FIELDS = 10;

    private CompactionData() {
    }

    /** One day shards, no background passes (only the benchmark compacts), segments in row groups of {@code rowGroupRows}. */
    static EngineConfig config(int rowGroupRows) {
        return EngineConfig.defaults().withShardDuration(Duration.ofDays(1)).withFlushThresholdBytes(1L << 40)
                .withMaintenanceInterval(Duration.ZERO).withCompactionTrigger(1_000)
                .withSegments((io, seg, tmp) -> new CsxSegmentStore(io, seg, tmp, SegmentWriterConfig.defaults().withRowGroupRows(rowGroupRows)));
    }

    static Path build(int segments, boolean integers, int rowGroupRows, MaintenanceScheduler scheduler) throws IOException {
        Path dir = EngineBench.newDirectory("compaction-template");
        try (Chronix engine = Chronix.open(dir, config(rowGroupRows), scheduler)) {
            EngineBench.loadSegments(engine, HOSTS, TICKS_PER_SEGMENT, segments, integers);
            if (engine.segmentCount() != segments) {
                throw new IllegalStateException("expected " + segments + " segments, got " + engine.segmentCount());
            }
        }
        return dir;
    }

    static Path copy(Path template) throws IOException {
        Path to = Files.createTempDirectory(template.getParent(), "compaction-run");
        try (Stream<Path> s = Files.walk(template)) {
            for (Path p : s.toList()) {
                Path target = to.resolve(template.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return to;
    }

    static void delete(Path dir) throws IOException {
        EngineBench.delete(dir);
    }
}

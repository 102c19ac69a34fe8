package io.chronix.engine.compaction;

import java.time.Duration;

/**
 * What one compaction did.
 *
 * @param groups        (shard, measurement) groups merged
 * @param segmentsIn    input segments replaced
 * @param segmentsOut   output segments written (one per group, none for a group whose rows were all deleted)
 * @param rowsIn        rows the inputs held
 * @param rowsOut       rows the outputs hold (fewer when inputs overlapped or rows were deleted)
 * @param bytesIn       input file bytes
 * @param bytesOut      output file bytes
 * @param duration      wall time, the flush before it included
 * @param peakDecodedBytes the most decoded (Arrow, off-heap) input memory held at once by one merge
 */
public record CompactionResult(int groups, int segmentsIn, int segmentsOut, long rowsIn, long rowsOut, long bytesIn, long bytesOut,
        Duration duration, long peakDecodedBytes) {

    public static final CompactionResult NOTHING = new CompactionResult(0, 0, 0, 0, 0, 0, 0, Duration.ZERO, 0);

    /** This result and one more merged group's, of {@code segmentsIn} inputs. */
    public CompactionResult plus(int segmentsIn, SegmentMerge.Output out) {
        boolean any = out.entry() != null;
        return new CompactionResult(groups + 1, this.segmentsIn + segmentsIn, segmentsOut + (any ? 1 : 0), rowsIn + out.rowsIn(),
                rowsOut + (any ? out.entry().rowCount() : 0), bytesIn + out.bytesIn(), bytesOut + (any ? out.entry().sizeBytes() : 0),
                duration, Math.max(peakDecodedBytes, out.peakDecodedBytes()));
    }

    /** The same counts with the run's wall time. */
    public CompactionResult took(Duration d) {
        return new CompactionResult(groups, segmentsIn, segmentsOut, rowsIn, rowsOut, bytesIn, bytesOut, d, peakDecodedBytes);
    }
}

package io.chronix.engine.read;

/**
 * What a streamed scan handed to its {@link BatchSink}.
 *
 * @param rows            rows in the batches handed over
 * @param batches         batches handed over
 * @param bytes           their Arrow buffers' bytes
 * @param settledSegments segments whose batches were handed on without the row merge
 * @param statistics      what the scan read against what the measurement holds
 * @param complete        false when a consumer stopped the scan before its end
 */
public record StreamedScan(long rows, int batches, long bytes, int settledSegments, ScanStatistics statistics,
        boolean complete) {
}

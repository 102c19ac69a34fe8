package io.chronix.engine.read;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The answer of a scan: Arrow record batches, all of {@link #schema()}; for an ordered scan rows
 * come series by series and in time order within a series. The caller owns the batches and closes them with this result.
 */
public final class ScanResult implements AutoCloseable {

    private final Schema schema;
    private final List<VectorSchemaRoot> batches;

    private final int settledSegments;
    private final ScanStatistics statistics;

    public ScanResult(Schema schema, List<VectorSchemaRoot> batches) {
        this(schema, batches, 0, ScanStatistics.NONE);
    }

    /**
     * @param settledSegments segments whose batches were handed on without the row merge
     * @param statistics      what the scan read against what the measurement holds
     */
    public ScanResult(Schema schema, List<VectorSchemaRoot> batches, int settledSegments, ScanStatistics statistics) {
        this.schema = schema;
        this.batches = List.copyOf(batches);
        this.settledSegments = settledSegments;
        this.statistics = statistics;
    }

    /** What the scan read against what the measurement holds; {@link ScanStatistics#NONE} for an answer not scanned from stored rows. */
    public ScanStatistics statistics() {
        return statistics;
    }

    /**
     * How many segments answered without the row merge ({@link SegmentPassThrough}); always 0 for
     * an ordered scan.
     */
    public int settledSegments() {
        return settledSegments;
    }

    public Schema schema() {
        return schema;
    }

    public List<VectorSchemaRoot> batches() {
        return batches;
    }

    /** The bytes of a batch's Arrow buffers, as the query diagnostics count what a scan read. */
    public static long bufferBytes(VectorSchemaRoot batch) {
        long bytes = 0;
        for (org.apache.arrow.vector.FieldVector v : batch.getFieldVectors()) {
            bytes += v.getBufferSize();
        }
        return bytes;
    }

    public long rowCount() {
        long n = 0;
        for (VectorSchemaRoot b : batches) {
            n += b.getRowCount();
        }
        return n;
    }

    @Override
    public void close() {
        for (VectorSchemaRoot b : batches) {
            b.close();
        }
    }
}

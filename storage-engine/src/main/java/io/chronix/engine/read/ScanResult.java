package io.chronix.engine.read;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * The answer of a scan: Arrow record batches, all of {@link #schema()}, rows series by series and
 * in time order within a series. The caller owns the batches and closes them with this result.
 */
public final class ScanResult implements AutoCloseable {

    private final Schema schema;
    private final List<VectorSchemaRoot> batches;

    public ScanResult(Schema schema, List<VectorSchemaRoot> batches) {
        this.schema = schema;
        this.batches = List.copyOf(batches);
    }

    public Schema schema() {
        return schema;
    }

    public List<VectorSchemaRoot> batches() {
        return batches;
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

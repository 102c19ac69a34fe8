package io.chronix.engine.read;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

/**
 * An {@link ArrowReader} over batches already in memory (an engine scan or an archiving pass), for export through the
 * C Data Interface. Zero-copy: each batch's buffers are retained into the reader's root, never
 * copied; the batches stay owned by whoever produced them and must outlive this reader. Each
 * reader yields its batches once — DuckDB scans a registered stream once — so two scans of the
 * same batches need two readers.
 */
public final class BatchListReader extends ArrowReader {

    private final Schema schema;
    private final List<VectorSchemaRoot> batches;
    private int next;
    private long bytes;

    public BatchListReader(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches) {
        super(allocator);
        this.schema = schema;
        this.batches = List.copyOf(batches);
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        prepareLoadNextBatch();
        while (next < batches.size()) {
            VectorSchemaRoot b = batches.get(next++);
            if (b.getRowCount() == 0) {
                continue;
            }
            try (ArrowRecordBatch rb = new VectorUnloader(b).getRecordBatch()) {
                bytes += rb.computeBodyLength();
                loadRecordBatch(rb);
            }
            return true;
        }
        return false;
    }

    @Override
    public long bytesRead() {
        return bytes;
    }

    @Override
    protected void closeReadSource() {
        // the batches belong to the scan, which closes them
    }

    @Override
    protected Schema readSchema() {
        return schema;
    }
}

package io.chronix.api.query;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.Map;

/**
 * A query's answer as the request thread reads it. DuckDB's answer is read through the Arrow C
 * Data Interface, a native call per batch that converts DuckDB's rows to Arrow: each
 * {@link #loadNextBatch} of it runs on the query pool ({@link QueryPool#continueWith}) while the
 * request thread waits, parked, off its carrier. The first batch was already loaded by the job
 * that ran the statement ({@link #prefetched}), so a one-batch answer costs no extra hand-off for
 * it. An answer the engine computed is a list of batches in memory, read on the request thread;
 * between two large batches the request thread yields its carrier, so writing a long answer
 * (formatting is CPU work that seldom blocks on a fast client) does not hold a carrier for the
 * whole answer either.
 *
 * <p>The vectors are the source's own ({@link #getVectorSchemaRoot()} is the source's root). Owns
 * nothing: the query closes the source. Not thread-safe: one request thread reads it.
 */
final class PooledReader extends ArrowReader {

    /** A batch at least this long is followed by a yield of the carrier before the next one. */
    static final int YIELD_AFTER_ROWS = 8192;

    /** How the next batch of a native answer is loaded: on the pool, waited for under the query's cancellation. */
    @FunctionalInterface
    interface Loader {
        boolean loadNext(ArrowReader source) throws IOException;
    }

    private final ArrowReader source;
    /** Loads a batch of a native answer on the pool; null for an answer in memory. */
    private final Loader offload;
    /** The first batch's {@code loadNextBatch}, run by the statement's job; null once it was handed out. */
    private Boolean prefetched;
    private int lastRows;

    private PooledReader(BufferAllocator allocator, ArrowReader source, Loader offload, Boolean prefetched) {
        super(allocator);
        this.source = source;
        this.offload = offload;
        this.prefetched = prefetched;
    }

    /** DuckDB's answer, its first batch already loaded ({@code firstLoaded} is what that load returned). */
    static PooledReader nativeAnswer(BufferAllocator allocator, ArrowReader source, boolean firstLoaded, Loader offload) {
        return new PooledReader(allocator, source, offload, firstLoaded);
    }

    /** An answer in memory (the engine's): read in place, yielding between large batches. */
    static PooledReader inMemory(BufferAllocator allocator, ArrowReader source) {
        return new PooledReader(allocator, source, null, null);
    }

    @Override
    public VectorSchemaRoot getVectorSchemaRoot() throws IOException {
        return source.getVectorSchemaRoot();
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() throws IOException {
        return source.getDictionaryVectors();
    }

    @Override
    public Dictionary lookup(long id) {
        return source.lookup(id);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        Boolean first = prefetched;
        if (first != null) {
            prefetched = null;
            return remember(first);
        }
        if (offload != null) {
            return remember(offload.loadNext(source));
        }
        if (lastRows >= YIELD_AFTER_ROWS) {
            Thread.yield(); // on a virtual thread: lets the carrier's other threads run before the next batch is written
        }
        return remember(source.loadNextBatch());
    }

    private boolean remember(boolean loaded) throws IOException {
        lastRows = loaded ? source.getVectorSchemaRoot().getRowCount() : 0;
        return loaded;
    }

    @Override
    public long bytesRead() {
        return source.bytesRead();
    }

    @Override
    protected void closeReadSource() {
        // the query owns and closes the source
    }

    @Override
    protected Schema readSchema() throws IOException {
        return source.getVectorSchemaRoot().getSchema();
    }
}

package io.chronix.api.sql;

import io.chronix.engine.read.BatchSink;
import io.chronix.engine.read.ScanStatistics;
import io.chronix.engine.read.StreamedScan;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One reference's scan as an {@link ArrowReader} that DuckDB pulls as it executes: the engine's
 * push-style streamed scan runs on a producer thread and hands its batches over a small bounded
 * queue ({@link #CAPACITY} batches); {@link #loadNextBatch} takes the next one, on whichever thread
 * DuckDB calls it from. The scan's memory is the batches in flight — the queue, one per reading
 * thread, the one loaded here and those DuckDB still holds — never the whole table.
 *
 * <p>Why a producer and not a cursor: the engine's scan (segments read side by side, the row merge
 * of memtables and overlapping segments) is written as a push into a {@link BatchSink}; running it on
 * its own thread against a bounded hand-off gives the pull DuckDB needs without a second scan
 * implementation.
 *
 * <p>Ownership: each batch the scan lends is moved (buffers transferred, not copied) into a batch
 * of the queue; the reader owns what the queue holds and closes it. {@link #close()} (or {@link
 * #cancel()}) stops the producer at its next batch, waits for it to end — so nothing of the scan is
 * allocated after close returns — and frees every batch still queued. Thread-safe.
 */
final class ScanStream extends ArrowReader {

    /** Batches the producer may be ahead of DuckDB. */
    static final int CAPACITY = 4;

    private static final AtomicInteger THREAD_NUMBER = new AtomicInteger();
    /** Producer threads, shared by every query; a producer lives as long as its scan. */
    /**
     * The scans' threads. A new one is made by the thread that submits the scan — a query pool
     * thread (QueryPool) — and Linux gives a new thread its maker's nice value, so the scans run at
     * the pool's lowered priority too (checked in /proc: chronix-scan-stream threads at nice 10).
     */
    private static final ExecutorService PRODUCERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "chronix-scan-stream-" + THREAD_NUMBER.incrementAndGet());
        t.setDaemon(true);
        return t;
    });

    private final Schema schema;
    private final Object lock = new Object();
    private final ArrayDeque<VectorSchemaRoot> ready = new ArrayDeque<>();
    private final Future<?> producer;
    /** Guarded by {@link #lock}. */
    private boolean done;
    private boolean stopped;
    private boolean cancelled;
    private Throwable failure;
    private long rowsQueued;
    private StreamedScan summary;
    private long bytes;

    /**
     * Starts the scan.
     *
     * @param schema the scan's schema as planned; a batch of another shape (a field added since) is
     *               conformed to it by name, a column it lacks read as NULLs
     * @param scan   runs the scan into the sink it is given and says what it handed over
     */
    ScanStream(BufferAllocator allocator, Schema schema, Function<BatchSink, StreamedScan> scan) {
        super(allocator);
        this.schema = schema;
        this.producer = PRODUCERS.submit(() -> produce(scan));
    }

    private void produce(Function<BatchSink, StreamedScan> scan) {
        StreamedScan s = null;
        Throwable failed = null;
        try {
            s = scan.apply(() -> this::offer);
        } catch (Throwable t) {
            failed = t;
        }
        synchronized (lock) {
            done = true;
            summary = s;
            failure = failed;
            lock.notifyAll();
        }
    }

    /** The scan's hand-off: waits while the queue is full; false once the reader is closed or cancelled. */
    private boolean offer(VectorSchemaRoot lent) {
        VectorSchemaRoot owned = moved(lent);
        synchronized (lock) {
            try {
                while (!stopped && ready.size() >= CAPACITY) {
                    lock.wait();
                }
            } catch (InterruptedException e) {
                stopped = true;
                Thread.currentThread().interrupt();
            }
            if (stopped) {
                owned.close();
                return false;
            }
            ready.add(owned);
            rowsQueued += owned.getRowCount();
            lock.notifyAll();
            return true;
        }
    }

    /** A batch owning {@code lent}'s buffers, which the scan then closes empty. */
    private static VectorSchemaRoot moved(VectorSchemaRoot lent) {
        List<FieldVector> vectors = new ArrayList<>(lent.getFieldVectors().size());
        try {
            for (FieldVector v : lent.getFieldVectors()) {
                TransferPair t = v.getTransferPair(v.getAllocator());
                t.transfer();
                vectors.add((FieldVector) t.getTo());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(lent.getSchema().getFields(), vectors, lent.getRowCount());
    }

    /**
     * Waits until the scan has ended, or is {@link #CAPACITY} batches ahead, or has queued more than
     * {@code rows} rows, or failed.
     *
     * @return the scan's rows if it ended within that, else {@link Long#MAX_VALUE}
     */
    long rowsIfAtMost(long rows) throws InterruptedException {
        synchronized (lock) {
            while (!done && !stopped && ready.size() < CAPACITY && rowsQueued <= rows) {
                lock.wait();
            }
            return done && failure == null && rowsQueued <= rows ? rowsQueued : Long.MAX_VALUE;
        }
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        prepareLoadNextBatch();
        while (true) {
            VectorSchemaRoot b;
            synchronized (lock) {
                try {
                    while (ready.isEmpty() && !done && !stopped) {
                        lock.wait();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("the scan was interrupted");
                }
                if (cancelled) {
                    throw new IOException("the query was cancelled");
                }
                if (stopped) {
                    return false;
                }
                b = ready.poll();
                if (b == null) { // done, nothing left
                    if (failure != null) {
                        throw new IOException("the scan failed: " + failure, failure);
                    }
                    return false;
                }
                lock.notifyAll();
            }
            try (b) {
                if (b.getRowCount() == 0) {
                    continue;
                }
                load(b);
                return true;
            }
        }
    }

    /** Loads {@code b}'s buffers (retained, not copied) into the reader's root, in the planned schema. */
    private void load(VectorSchemaRoot b) {
        if (b.getSchema().equals(schema)) {
            try (ArrowRecordBatch rb = new VectorUnloader(b).getRecordBatch()) {
                bytes += rb.computeBodyLength();
                loadRecordBatch(rb);
            }
            return;
        }
        try (VectorSchemaRoot conformed = VectorSchemaRoot.create(schema, allocator)) {
            for (int i = 0; i < schema.getFields().size(); i++) {
                Field f = schema.getFields().get(i);
                FieldVector target = conformed.getVector(i);
                FieldVector source = b.getVector(f.getName());
                if (source != null && source.getField().getType().equals(f.getType())) {
                    source.makeTransferPair(target).transfer();
                } else {
                    target.allocateNew();
                    target.setValueCount(b.getRowCount());
                }
            }
            conformed.setRowCount(b.getRowCount());
            try (ArrowRecordBatch rb = new VectorUnloader(conformed).getRecordBatch()) {
                bytes += rb.computeBodyLength();
                loadRecordBatch(rb);
            }
        }
    }

    /** Makes the next {@link #loadNextBatch} fail and stops the scan. */
    void cancel() {
        synchronized (lock) {
            cancelled = true;
        }
        stop();
    }

    private void stop() {
        List<VectorSchemaRoot> dropped;
        synchronized (lock) {
            stopped = true;
            dropped = new ArrayList<>(ready);
            ready.clear();
            lock.notifyAll();
        }
        dropped.forEach(VectorSchemaRoot::close);
    }

    /** The scan's failure, if it failed (an allocation over the query's bound, say); null otherwise. */
    Throwable failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** What the scan handed over, once it ended; rows so far and no statistics before. */
    StreamedScan summary() {
        synchronized (lock) {
            return summary != null ? summary
                    : new StreamedScan(rowsQueued, 0, bytes, 0, ScanStatistics.NONE, false);
        }
    }

    @Override
    public long bytesRead() {
        return bytes;
    }

    /** Stops the scan, waits for its producer to end and frees every batch it queued. Idempotent. */
    @Override
    protected void closeReadSource() {
        stop();
        boolean interrupted = false;
        while (true) {
            try {
                producer.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the scan's batches must be freed before the allocator closes: wait on
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
                break; // produce() catches everything; nothing to report
            }
        }
        stop(); // a batch offered between the first stop and the producer's end
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    protected Schema readSchema() {
        return schema;
    }
}

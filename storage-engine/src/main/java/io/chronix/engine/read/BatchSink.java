package io.chronix.engine.read;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Where a streamed scan ({@link io.chronix.engine.Chronix#scanUnordered(ScanRequest,
 * org.apache.arrow.memory.BufferAllocator, ScanHelpers, BatchSink)}) hands its batches as it reads
 * them, instead of keeping every batch until the scan ends.
 *
 * <p>Why: a consumer that folds rows into something small (an aggregate) then holds one batch per
 * reading thread rather than the whole scan: a half-day aggregate over 400 hosts built about 170 MB
 * of vectors before it added them up, and a longer range would have hit the query's scan-memory
 * bound. It did not make the aggregate cheaper: copying the values into the vectors costs the same
 * either way (docs/benchmarks.md as of commit 5e95285, "Streamed aggregation").
 *
 * <p>Threading: the scan calls {@link #open} once on each thread that reads (the caller's and any
 * helper's), and each consumer only on the thread that opened it, so a consumer needs no lock;
 * {@link #open} itself must be thread-safe.
 */
public interface BatchSink {

    /** A consumer for the calling thread. */
    Consumer open();

    /** One thread's consumer. */
    @FunctionalInterface
    interface Consumer {
        /**
         * Takes one batch, lent for the call: the scan closes it afterwards, so nothing of it may
         * be kept. Rows are those {@link io.chronix.engine.Chronix#scanUnordered(ScanRequest,
         * org.apache.arrow.memory.BufferAllocator)} would answer, in batches of its schema.
         *
         * @return false to stop the scan: it reads no further batch (one already being read on
         *     another thread may still arrive at that thread's consumer)
         */
        boolean accept(VectorSchemaRoot batch);
    }
}

package io.chronix.bench.e2e;

import io.chronix.bench.query.dialect.QueryDialect;

import java.net.URI;
import java.util.Map;

/**
 * A system under test, started on a fresh data directory. Lifecycle: {@link #start}, then load via
 * {@link #writeUrl}/{@link #writeHeaders}, {@link #awaitRows}, {@link #bytesOnDisk}, queries via
 * {@link #dialect}, then {@link #close} (stops the process). Nothing asks a target to flush: queries
 * follow the load as a user's would.
 */
public interface Target extends AutoCloseable {
    String name();

    /** What "acknowledged" means for this target's writes as configured (fsync policy). */
    String durability();

    /** Starts the process and creates what the data needs (tenant, namespace, database). */
    void start() throws Exception;

    URI writeUrl();

    Map<String, String> writeHeaders();

    QueryDialect dialect();

    /** Waits until {@code rows} rows are visible to queries (some targets apply writes asynchronously). */
    void awaitRows(long rows) throws Exception;

    /** Bytes the target's data directory occupies on disk; also valid after {@link #close}. */
    long bytesOnDisk() throws Exception;

    /** CPU time the target's process has used since it started, or -1 if unknown. */
    long cpuNanos();

    /**
     * CPU time the target's process has used since it started, by kind of thread ({@link
     * io.chronix.bench.peer.ThreadCpu}); empty if unknown.
     */
    java.util.Map<String, Long> threadCpuNanos();

    /** Stops the process; idempotent. */
    @Override
    void close();
}

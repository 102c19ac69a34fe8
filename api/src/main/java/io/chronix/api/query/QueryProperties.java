package io.chronix.api.query;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * {@code chronix.query.*}: the shared SQL engine's limits.
 *
 * @param threads        DuckDB worker threads shared by all queries (default 2)
 * @param memoryLimit    DuckDB's memory limit for hash tables, sorts and results (default 1 GiB);
 *                       it does not spill: a query over it fails with 422
 * @param maxScanBytes   Arrow memory one query may hold at a time (default 1 GiB): its scans'
 *                       batches in flight — each reference streams into DuckDB through a queue
 *                       of a few batches — and DuckDB's answer batches being written; tables
 *                       stream through, so it does not grow with the rows read. DuckDB does not
 *                       count it. Over it the query fails with 422 naming the limit
 * @param maxTotalBytes  Arrow memory all queries together may hold (default 4 GiB)
 * @param recycledBytes  native memory of finished queries' Arrow buffers kept for the next ones
 *                       instead of being unmapped (default 256 MiB; 0 keeps none): see
 *                       {@link RecyclingMemory}
 * @param scanHelpers    threads, shared by all queries, that a query's engine scan may borrow to
 *                       read settled segments beside the request thread (default -1: one fewer
 *                       than the processors; 0 reads on the request thread alone). A helper still
 *                       queued behind other queries' work when the request thread is done is
 *                       called off, so a busy pool never delays a scan
 * @param poolThreads    platform threads that run queries' statements, scans and result fetches
 *                       ({@link QueryPool}), so that none of it holds a carrier of the virtual
 *                       threads that serve HTTP (default 0: as many as the processors). At most
 *                       this many statements compute at once; DuckDB's own workers
 *                       ({@code threads} − 1 per instance) come on top
 * @param poolQueue      queries that may wait for a pool thread (default 64); the next one is
 *                       refused with 503 {@code query-capacity} and {@code Retry-After}. A waiting
 *                       query still times out at its tenant's {@code queryTimeout}
 * @param poolNice       how much lower the pool threads' CPU priority is than the service's other
 *                       threads (Linux nice steps, 0–19; default 10): when every core is busy the
 *                       scheduler gives the threads that serve HTTP the cores first, so queries
 *                       cannot slow {@code /ping}, the probes and the writes much; alone on the
 *                       cores, a query runs as fast as before
 */
@Validated
@ConfigurationProperties("chronix.query")
public record QueryProperties(@DefaultValue("2") @Min(1) int threads,
                              @DefaultValue("1GB") @NotNull DataSize memoryLimit,
                              @DefaultValue("1GB") @NotNull DataSize maxScanBytes,
                              @DefaultValue("4GB") @NotNull DataSize maxTotalBytes,
                              @DefaultValue("256MB") @NotNull DataSize recycledBytes,
                              @DefaultValue("-1") @Min(-1) int scanHelpers,
                              @DefaultValue("0") @Min(0) int poolThreads,
                              @DefaultValue("64") @Min(0) int poolQueue,
                              @DefaultValue("10") @Min(0) @jakarta.validation.constraints.Max(19) int poolNice) {

    /** {@link #poolThreads} with 0 resolved against this machine. */
    public int queryPoolThreads() {
        return poolThreads > 0 ? poolThreads : Runtime.getRuntime().availableProcessors();
    }

    /** {@link #scanHelpers} with -1 resolved against this machine. */
    public int scanHelperThreads() {
        return scanHelpers >= 0 ? scanHelpers : Math.max(0, Runtime.getRuntime().availableProcessors() - 1);
    }
}

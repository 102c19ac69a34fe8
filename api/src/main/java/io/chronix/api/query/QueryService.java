package io.chronix.api.query;

import io.chronix.api.sql.EngineTables;
import io.chronix.api.sql.QueryCancelledException;
import io.chronix.api.sql.SqlErrorException;
import io.chronix.api.sql.SqlQuery;
import io.chronix.api.sql.SqlSandbox;
import io.chronix.engine.read.ScanHelpers;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tenant SQL under the tenant's limits: at most {@code maxConcurrentQueries} at a time per
 * tenant (the next is refused, not queued), each cancelled when it runs past {@code queryTimeout}
 * ({@link QueryWatchdog} interrupts DuckDB; a scan in progress finishes and the query then stops), each
 * query's Arrow memory bounded by {@code chronix.query.max-scan-bytes}. The statement itself (parse,
 * scans, DuckDB's execution) and every fetch of DuckDB's answer run on the {@link QueryPool}'s
 * platform threads, never on the request's virtual thread, so that no query holds a carrier that
 * HTTP needs; a query that waits for a pool thread still times out, and its memory is released
 * on the request thread once no job of it runs any more, whether it answered, failed, timed out
 * or was cancelled.
 *
 * <p>Metrics (Micrometer, tag {@code namespace} = the namespace's internal id):
 * {@code chronix.query.requests} (timer, tag {@code outcome}), {@code chronix.query.rows.scanned},
 * {@code chronix.query.bytes.scanned}, {@code chronix.query.scan.rows} (rows handed to DuckDB per
 * query), {@code chronix.query.rows.read} and {@code chronix.query.rows.held} (rows the scans read
 * from segments and memtables, and rows their measurements hold: {@link
 * io.chronix.engine.read.ScanStatistics}), {@code chronix.query.pruning.ratio} (per query, the share
 * of the rows held that it did not read, 0–1), {@code chronix.query.timeouts}, {@code
 * chronix.query.rejections}; and the pool's {@code chronix.query.pool.threads}, {@code .running},
 * {@code .waiting} (gauges) and {@code .refused} (counter).
 */
@Service
public class QueryService implements AutoCloseable {

    /** Writes a query's result; given the executed query (for its scan diagnostics) and the reader. */
    @FunctionalInterface
    public interface ResultSink {
        long write(SqlQuery query, ArrowReader result) throws IOException;

        /**
         * Called once the whole answer is written and the query did not time out, before the
         * query's scans and buffers are released: a sink may complete its response here, so the
         * client does not wait for the release (zeroing a large answer's buffers for reuse, say).
         */
        default void answered() throws IOException {
        }
    }

    private final SqlSandbox sandbox;
    private final BufferAllocator root;
    private final ObjectProvider<NamespaceTables> tables;
    /** {@link #tables} once resolved. */
    private volatile NamespaceTables found;
    private final TenancyDirectory directory;
    private final QueryProperties properties;
    private final MeterRegistry meters;
    private final ConcurrentHashMap<UUID, AtomicInteger> running = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, NamespaceMeters> byNamespace = new ConcurrentHashMap<>();
    /** Deadlines looked at every 10 ms while queries run: a timeout is honoured within about that. */
    private final QueryWatchdog watchdog = new QueryWatchdog(Duration.ofMillis(10), Duration.ofSeconds(2));

    /** Threads engine scans borrow (null when none are configured); see {@link QueryProperties#scanHelpers}. */
    private final ExecutorService scanPool;
    private final ScanHelpers scanHelpers;
    /** Platform threads that run the statements and fetch their answers; see {@link QueryPool}. */
    private final QueryPool pool;

    public QueryService(SqlSandbox querySandbox, BufferAllocator queryAllocator, ObjectProvider<NamespaceTables> tables,
                        TenancyDirectory directory, QueryProperties properties, ObjectProvider<MeterRegistry> meters) {
        int helpers = properties.scanHelperThreads();
        AtomicInteger helperNumber = new AtomicInteger();
        this.scanPool = helpers == 0 ? null : Executors.newFixedThreadPool(helpers, r -> {
            Thread t = new Thread(r, "chronix-scan-helper-" + helperNumber.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.scanHelpers = scanPool == null ? null : new ScanHelpers(scanPool, helpers);
        this.sandbox = querySandbox;
        this.root = queryAllocator;
        this.tables = tables;
        this.directory = directory;
        this.properties = properties;
        this.meters = meters.getIfAvailable(SimpleMeterRegistry::new);
        this.pool = new QueryPool(properties.queryPoolThreads(), properties.poolQueue(), properties.poolNice());
        Gauge.builder("chronix.query.pool.threads", pool, QueryPool::threads).register(this.meters);
        Gauge.builder("chronix.query.pool.running", pool, QueryPool::running).register(this.meters);
        Gauge.builder("chronix.query.pool.waiting", pool, QueryPool::waiting).register(this.meters);
        FunctionCounter.builder("chronix.query.pool.refused", pool, QueryPool::refused).register(this.meters);
    }

    /** The namespace's engine, or 503 if this service has none to offer. */
    NamespaceTables.Handle open(Namespace ns) {
        NamespaceTables t = found;
        if (t == null) {
            // resolved once: asking the bean factory on every query was a dependency resolution per request
            t = found = tables.getIfAvailable();
        }
        if (t == null) {
            throw new QueryExceptions.Unavailable();
        }
        return t.open(ns);
    }

    /**
     * Runs {@code sql} over the namespace and hands the result to {@code sink}.
     *
     * @throws SqlErrorException            400
     * @throws QueryExceptions.Timeout      408
     * @throws QueryExceptions.TooManyQueries 429
     * @throws QueryExceptions.TooLarge     422
     */
    public long run(UUID tenantId, String tenantName, Namespace ns, String sql, ResultSink sink) throws IOException {
        Quotas quotas = directory.quotas(tenantId);
        String nsTag = Long.toString(ns.id());
        AtomicInteger inFlight = running.computeIfAbsent(tenantId, k -> new AtomicInteger());
        if (inFlight.incrementAndGet() > quotas.maxConcurrentQueries()) {
            inFlight.decrementAndGet();
            meters(nsTag).counter("chronix.query.rejections").increment();
            throw new QueryExceptions.TooManyQueries(tenantName, quotas.maxConcurrentQueries());
        }
        try {
            return execute(tenantName, nsTag, quotas.queryTimeout(), () -> open(ns), sql, sink);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** A scan that outgrew {@code chronix.query.max-scan-bytes}, in prepare() or in execute(). */
    private QueryExceptions.TooLarge scanTooLarge(OutOfMemoryException e) {
        return new QueryExceptions.TooLarge("chronix.query.max-scan-bytes", properties.maxScanBytes().toBytes(), e);
    }

    /**
     * The query itself, under a timeout and the scan-memory bound, recorded in the metrics under
     * {@code nsTag}: what {@link #run} does once the tenant's concurrency allows it.
     */
    long execute(String tenantName, String nsTag, Duration timeout, java.util.function.Supplier<NamespaceTables.Handle> tables,
                 String sql, ResultSink sink) throws IOException {
        long started = System.nanoTime();
        String outcome = "error";
        Execution x = new Execution();
        QueryWatchdog.Alarm alarm = watchdog.arm(timeout, x::timeOut);
        try (NamespaceTables.Handle handle = tables.get();
             BufferAllocator allocator = root.newChildAllocator("query-ns-" + nsTag, 0, properties.maxScanBytes().toBytes())) {
            // everything that computes or blocks in native code runs on the query pool: the request
            // thread parks meanwhile, and its carrier serves other requests (QueryPool)
            Ran ran = x.await(pool.submit(() -> prepareAndRun(handle, sql, allocator, x)));
            try (SqlQuery q = ran.query()) {
                record(nsTag, q.scans());
                ArrowReader answer = ran.nativeAnswer()
                        ? PooledReader.nativeAnswer(allocator, ran.result(), ran.firstLoaded(),
                                source -> x.await(pool.continueWith(source::loadNextBatch)))
                        : PooledReader.inMemory(allocator, ran.result());
                long rows = sink.write(q, answer);
                if (x.timedOut) {
                    throw new QueryCancelledException();
                }
                outcome = "ok";
                sink.answered();
                return rows;
            }
        } catch (QueryCancelledException e) {
            if (x.timedOut) {
                outcome = "timeout";
                meters(nsTag).counter("chronix.query.timeouts").increment();
                throw new QueryExceptions.Timeout(tenantName, timeout);
            }
            throw e;
        } catch (IOException | RuntimeException e) {
            if (x.timedOut) {
                outcome = "timeout";
                meters(nsTag).counter("chronix.query.timeouts").increment();
                throw new QueryExceptions.Timeout(tenantName, timeout);
            }
            if (e instanceof SqlErrorException) {
                outcome = "invalid";
            } else if (e instanceof QueryPool.Full) {
                outcome = "refused";
            }
            throw e;
        } finally {
            alarm.close();
            meters(nsTag).requests(outcome).record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        }
    }

    /** What the statement's job hands the request thread: the query (the caller closes it) and its answer. */
    private record Ran(SqlQuery query, ArrowReader result, boolean nativeAnswer, boolean firstLoaded) {
    }

    /**
     * The statement's job, on a pool thread: parse, analyse and scan, run it, and for DuckDB's answer
     * load its first batch. On failure the query is closed here; on success the caller owns it.
     */
    private Ran prepareAndRun(NamespaceTables.Handle handle, String sql, BufferAllocator allocator, Execution x) throws IOException {
        SqlQuery q;
        try {
            q = SqlQuery.prepare(sandbox, new EngineTables(handle.engine(), scanHelpers), sql, allocator);
        } catch (OutOfMemoryException e) {
            throw scanTooLarge(e);
        }
        boolean handedOver = false;
        try {
            x.current = q;
            if (x.timedOut) {
                q.cancel();
            }
            ArrowReader result;
            try {
                result = q.execute();
            } catch (OutOfMemoryException e) { // a scan left to execute(): an aggregate DuckDB answers after all
                throw scanTooLarge(e);
            } catch (SqlErrorException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("could not allocate") || "Out of Memory Error".equals(e.errorType())) {
                    throw new QueryExceptions.TooLarge("chronix.query.memory-limit", properties.memoryLimit().toBytes(), e);
                }
                throw e;
            }
            boolean nativeAnswer = q.answeredBy() == SqlQuery.AnsweredBy.DUCKDB;
            boolean first = false;
            if (nativeAnswer) {
                try {
                    result.getVectorSchemaRoot(); // the schema through the C interface, here rather than on the request thread
                    first = result.loadNextBatch();
                } catch (OutOfMemoryException e) {
                    throw scanTooLarge(e);
                }
            }
            handedOver = true;
            return new Ran(q, result, nativeAnswer, first);
        } finally {
            if (!handedOver) {
                q.close();
            }
        }
    }

    /**
     * One query's cancellation state, shared by the request thread, the pool thread running its
     * job and the watchdog: a timeout (or an interrupt of the request thread) cancels the running
     * statement and abandons a job still waiting for a thread.
     */
    private static final class Execution {
        volatile boolean timedOut;
        /** The statement, once prepared (by the pool thread). */
        volatile SqlQuery current;
        /** The job the request thread waits for now, if any. */
        volatile QueryPool.Job<?> job;

        void timeOut() {
            timedOut = true;
            cancel();
        }

        void cancel() {
            SqlQuery q = current;
            if (q != null) {
                q.cancel();
            }
            QueryPool.Job<?> j = job;
            if (j != null) {
                j.abandon();
            }
        }

        /** Waits for one of this query's jobs; a timeout that fired before the job was known abandons it. */
        <T> T await(QueryPool.Job<T> j) throws IOException {
            job = j;
            if (timedOut) {
                j.abandon(); // the watchdog ran before it could see this job (it reads job after setting timedOut)
            }
            try {
                return QueryPool.await(j, this::cancel);
            } finally {
                job = null;
            }
        }
    }

    private void record(String nsTag, List<SqlQuery.TableScan> scans) {
        long rows = 0;
        long bytes = 0;
        long read = 0;
        long held = 0;
        for (SqlQuery.TableScan s : scans) {
            rows += s.rows();
            bytes += s.bytes();
            read += s.statistics().rowsRead();
            held += s.statistics().rows();
        }
        NamespaceMeters m = meters(nsTag);
        m.counter("chronix.query.rows.scanned").increment(rows);
        m.counter("chronix.query.bytes.scanned").increment(bytes);
        m.counter("chronix.query.rows.read").increment(read);
        m.counter("chronix.query.rows.held").increment(held);
        m.summary("chronix.query.scan.rows").record(rows);
        if (held > 0) {
            // the share of the rows its measurements hold that a query did not read
            m.summary("chronix.query.pruning.ratio").record(Math.clamp(1.0 - (double) read / held, 0.0, 1.0));
        }
    }

    private NamespaceMeters meters(String nsTag) {
        return byNamespace.computeIfAbsent(nsTag, NamespaceMeters::new);
    }

    /**
     * The query meters of one namespace, each registered on its first use and kept: looked up in
     * the registry on every query, they were eight meter identities built and hashed per query.
     */
    private final class NamespaceMeters {
        private final String nsTag;
        private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<String, DistributionSummary> summaries = new ConcurrentHashMap<>();
        private final ConcurrentHashMap<String, Timer> requests = new ConcurrentHashMap<>();

        NamespaceMeters(String nsTag) {
            this.nsTag = nsTag;
        }

        Counter counter(String name) {
            return counters.computeIfAbsent(name, n -> Counter.builder(n).tag("namespace", nsTag).register(meters));
        }

        DistributionSummary summary(String name) {
            return summaries.computeIfAbsent(name, n -> DistributionSummary.builder(n).tag("namespace", nsTag).register(meters));
        }

        /** {@code chronix.query.requests} of one outcome. */
        Timer requests(String outcome) {
            return requests.computeIfAbsent(outcome, o -> Timer.builder("chronix.query.requests").tag("namespace", nsTag)
                    .tag("outcome", o).publishPercentileHistogram().register(meters));
        }
    }

    /** Queries running now for the tenant. */
    int running(UUID tenantId) {
        AtomicInteger n = running.get(tenantId);
        return n == null ? 0 : n.get();
    }

    @Override
    public void close() {
        watchdog.close();
        pool.close();
        if (scanPool != null) {
            scanPool.shutdownNow();
        }
    }
}

package io.chronix.api.write;

import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.engine.NamespaceGoneException;
import io.chronix.api.engine.StorageFault;
import io.chronix.api.engine.StorageUnavailableException;
import io.chronix.api.activity.TenantActivity;
import io.chronix.api.metrics.IngestMetrics;
import io.chronix.api.namespace.NamespaceDataListener;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.engine.Chronix;
import io.chronix.engine.WriteOptions;
import io.chronix.engine.error.ColumnConflictException;
import io.chronix.engine.error.FieldTypeConflictException;
import io.chronix.engine.error.ShardOutOfRangeException;
import io.chronix.engine.ingest.LineError;
import io.chronix.engine.ingest.LineProtocolParser;
import io.chronix.engine.ingest.ParseResult;
import io.chronix.engine.ingest.Precision;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One write request, in the order the contract fixes: body within {@code maxRequestBytes} (wire
 * and decompressed) → parse every line → (atomic: any bad line, 400 and nothing written) →
 * {@code maxStoredBytes} → {@code maxSeries} (exact, from the engine; checked under a per-tenant
 * lock only when the request could cross it) → ingest rate (token bucket, 429 with
 * {@code Retry-After}) → engine write, durable on return (type conflicts and the time window
 * refuse the whole batch: 422) → metrics, usage in the background.
 *
 * <p>Threading: thread-safe; parsers and builders are pooled, not per thread (virtual threads).
 */
@Service
public class WriteService implements NamespaceDataListener {

    private static final Logger log = LoggerFactory.getLogger(WriteService.class);
    private static final int POOL_MAX = 64;
    private static final int KEEP_BUILDER_POINTS = 1 << 20;
    private static final int KEEP_BODY_BYTES = 8 << 20; // at most POOL_MAX of them are kept

    private final EngineRegistry engines;
    private final TenancyDirectory tenancy;
    private final IngestMetrics metrics;
    private final TenantActivity activity;
    private final IngestRateLimiter rate;
    private final TenantUsageView usageView;
    private final UsageReporter reporter;
    private final Clock clock;
    private final ConcurrentLinkedQueue<Scratch> pool = new ConcurrentLinkedQueue<>();
    private final Map<UUID, ReentrantLock> seriesLocks = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /** What one request works in; lent from {@link #pool} for the request and given back after it. */
    private static final class Scratch {
        final LineProtocolParser parser = new LineProtocolParser();
        final PointBatch.Builder builder = PointBatch.builder();
        byte[] body; // the request body buffer, grown to the largest body this scratch has read

        LineProtocolParser parser() {
            return parser;
        }

        PointBatch.Builder builder() {
            return builder;
        }
    }

    /** What was written: points, and the lines refused under {@code accept_partial}. */
    public record Outcome(int written, int rejected, List<LineError> errors) {
    }

    WriteService(EngineRegistry engines, TenancyDirectory tenancy, IngestMetrics metrics, UsageReporter reporter, TenantActivity activity) {
        this.engines = engines;
        this.tenancy = tenancy;
        this.metrics = metrics;
        this.activity = activity;
        this.clock = Clock.systemUTC();
        this.rate = new IngestRateLimiter(System::nanoTime);
        this.reporter = reporter;
        this.usageView = reporter.view();
    }

    /**
     * Writes the request's body to the namespace.
     *
     * @param acceptPartial write the valid lines even if some are not
     * @param backfill      {@code backfill=true}: any timestamp inside the namespace's retention, through the engine's
     *                      backfill path (points go to their own shards; rollups over them are invalidated)
     * @throws WriteException for every refusal, with the answer it should become
     */
    public Outcome write(TenantPrincipal tenant, Namespace ns, HttpServletRequest request, Precision precision,
                         boolean acceptPartial, boolean backfill) throws IOException {
        long t0 = System.nanoTime();
        Quotas q = quotas(tenant.tenantId());
        Scratch s = borrow();
        try {
            RequestBodies.Body body;
            try {
                body = RequestBodies.read(request, tenant.tenantName(), q.maxRequestBytes(), s.body);
            } catch (WriteException e) {
                if (e.status() == HttpStatus.CONTENT_TOO_LARGE) {
                    metrics.quotaRejection("maxRequestBytes");
                    activity.limited(tenant.tenantId(), "maxRequestBytes", e.errorId(), e.status().value());
                }
                throw e;
            }
            s.body = body.bytes().length <= KEEP_BODY_BYTES ? body.bytes() : null;
            long receipt = nowNanos();
            ParseResult r = s.parser().parse(body.bytes(), 0, body.length(), precision, receipt, s.builder());
            metrics.rejectedLines("syntax", r.rejected());
            if (r.hasErrors() && !acceptPartial) {
                throw badLines(r, 0);
            }
            if (r.points() == 0) {
                if (r.hasErrors()) {
                    throw badLines(r, 0);
                }
                return new Outcome(0, 0, List.of());
            }
            PointBatch batch = s.builder().build();
            int written = writeBatch(tenant, ns, q, batch, r, backfill, body.wireBytes());
            metrics.latency(System.nanoTime() - t0);
            if (r.hasErrors()) {
                throw badLines(r, written);
            }
            return new Outcome(written, 0, List.of());
        } finally {
            giveBack(s);
        }
    }

    private int writeBatch(TenantPrincipal tenant, Namespace ns, Quotas q, PointBatch batch, ParseResult r, boolean backfill,
                           long wireBytes) {
        UUID tenantId = tenant.tenantId();
        String tenantName = tenant.tenantName();
        if (q.maxStoredBytes() >= 0) {
            long stored = usageView.storedBytes(tenantId);
            if (stored >= q.maxStoredBytes()) {
                metrics.quotaRejection("maxStoredBytes");
                activity.limited(tenantId, "maxStoredBytes", "quota-max-stored-bytes", 422);
                metrics.rejectedLines("quota", r.points());
                throw limit(HttpStatus.UNPROCESSABLE_CONTENT, "quota-max-stored-bytes", tenantName, "maxStoredBytes", q.maxStoredBytes(),
                        stored, "The tenant stores " + stored + " bytes, at or over its maxStoredBytes of " + q.maxStoredBytes()
                                + "; writes are refused until retention or deletes bring it under.");
            }
        }
        EngineRegistry.Lease lease;
        try {
            lease = engines.acquire(ns);
        } catch (NamespaceGoneException e) {
            throw new NotFoundException(NotFoundException.Kind.NAMESPACE, ns.name());
        } catch (RuntimeException e) {
            throw storageRefused(ns, e, batch.size());
        }
        try (lease) {
            Chronix engine = lease.engine();
            long seriesBefore = usageView.series(tenantId);
            boolean mayCross = seriesBefore + batch.size() > q.maxSeries();
            ReentrantLock lock = mayCross ? seriesLocks.computeIfAbsent(tenantId, k -> new ReentrantLock()) : null;
            if (lock != null) {
                lock.lock();
            }
            try {
                if (lock != null) {
                    long current = usageView.series(tenantId);
                    int added = engine.newSeriesCount(batch);
                    if (current + added > q.maxSeries()) {
                        metrics.quotaRejection("maxSeries");
                        activity.limited(tenantId, "maxSeries", "quota-max-series", 422);
                        metrics.rejectedLines("quota", batch.size());
                        throw limit(HttpStatus.UNPROCESSABLE_CONTENT, "quota-max-series", tenantName, "maxSeries", q.maxSeries(), current,
                                "The write would add " + added + " series to the tenant's " + current + ", over its maxSeries of "
                                        + q.maxSeries() + "; nothing was written. Do not retry: this limit does not pass.");
                    }
                }
                long wait = rate.tryAcquire(tenantId, q.maxIngestPointsPerSecond(), batch.size());
                if (wait > 0) {
                    metrics.quotaRejection("maxIngestPointsPerSecond");
                    activity.limited(tenantId, "maxIngestPointsPerSecond", "quota-max-ingest-rate", 429);
                    long seconds = wait == Long.MAX_VALUE ? 3600 : Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
                    WriteException e = limit(HttpStatus.TOO_MANY_REQUESTS, "quota-max-ingest-rate", tenantName, "maxIngestPointsPerSecond",
                            q.maxIngestPointsPerSecond(), null, "The tenant's ingest rate is over its maxIngestPointsPerSecond of "
                                    + q.maxIngestPointsPerSecond() + "; retry after " + seconds + " s.");
                    throw new WriteException(e.status(), e.errorId(), e.title(), e.detail(), e.properties(), "too many requests", null,
                            seconds);
                }
                engineWrite(engine, ns, batch, r, backfill);
                long seriesNow = engine.seriesCount();
                usageView.seriesNow(tenantId, ns.id(), seriesNow);
                reporter.wrote(ns.id(), batch.size(), seriesNow);
            } finally {
                if (lock != null) {
                    lock.unlock();
                }
            }
            lease.wrote();
        }
        metrics.written(tenantName, ns.name(), batch.size(), wireBytes);
        activity.wrote(tenantId, batch.size());
        warnNearLimits(tenantId, tenantName, q);
        return batch.size();
    }

    private void engineWrite(Chronix engine, Namespace ns, PointBatch batch, ParseResult r, boolean backfill) {
        try {
            if (backfill) {
                engine.write(batch, WriteOptions.defaults().withBackfill(true).withRetention(ns.retention()));
            } else {
                engine.write(batch);
            }
        } catch (FieldTypeConflictException e) {
            metrics.rejectedLines("type-conflict", batch.size());
            Map<String, Object> props = new LinkedHashMap<>();
            props.put("measurement", e.measurement());
            props.put("field", e.field());
            props.put("storedType", e.stored().name().toLowerCase(java.util.Locale.ROOT));
            props.put("offeredType", e.offered().name().toLowerCase(java.util.Locale.ROOT));
            props.put("written", 0);
            throw new WriteException(HttpStatus.UNPROCESSABLE_CONTENT, "field-type-conflict", "Field type conflict",
                    "Field " + e.field() + " of measurement " + e.measurement() + " is " + props.get("storedType")
                            + ", this request writes it as " + props.get("offeredType") + "; nothing was written.",
                    props, "unprocessable entity", null, null);
        } catch (ShardOutOfRangeException e) {
            metrics.rejectedLines("time-window", batch.size());
            int line = 0;
            for (int i = 0; i < batch.size(); i++) {
                if (batch.timestamp(i) == e.timestamp()) {
                    line = r.lineOfPoint(i);
                    break;
                }
            }
            Map<String, Object> props = new LinkedHashMap<>();
            props.put("line", line);
            props.put("timestamp", e.timestamp());
            props.put("acceptedFrom", instant(e.acceptedFrom()));
            props.put("acceptedTo", instant(e.acceptedTo()));
            props.put("acceptedFromNanos", e.acceptedFrom());
            props.put("acceptedToNanos", e.acceptedTo());
            props.put("written", 0);
            props.put("backfill", backfill);
            throw new WriteException(HttpStatus.UNPROCESSABLE_CONTENT, "outside-time-window", "Timestamp outside the accepted window",
                    "Line " + line + " has timestamp " + instant(e.timestamp()) + ", outside the namespace's "
                            + (backfill ? "retention window (backfill=true)" : "accepted window") + " from "
                            + instant(e.acceptedFrom()) + " to " + instant(e.acceptedTo()) + "; nothing was written."
                            + (backfill ? "" : " backfill=true accepts any timestamp inside the namespace's retention."),
                    props, "unprocessable entity", line, null);
        } catch (ColumnConflictException e) {
            metrics.rejectedLines("column-conflict", batch.size());
            throw new WriteException(HttpStatus.UNPROCESSABLE_CONTENT, "column-conflict", "Column conflict",
                    e.getMessage() + "; nothing was written.", Map.of("written", 0), "unprocessable entity", null, null);
        } catch (RuntimeException e) {
            throw storageRefused(ns, e, batch.size());
        }
    }

    /**
     * A write the storage refused, as its answer: 507 {@code insufficient-storage} when the device is
     * full (the engine wrote nothing and takes the next write once space returns), 503 {@code
     * storage-unavailable} with {@code Retry-After} when an fsync failed (nothing after it is
     * acknowledged; the registry is told, and reopens the engine from what was synced) or another
     * I/O error did. Anything else is returned as it is.
     */
    private RuntimeException storageRefused(Namespace ns, RuntimeException e, int points) {
        StorageFault fault = StorageFault.of(e);
        if (fault == null) {
            return e;
        }
        metrics.rejectedLines("storage", points);
        if (fault == StorageFault.DISK_FULL) {
            log.warn("write refused: the disk is full [namespace={}]: {}", ns.id(), e.getMessage());
            return new WriteException(HttpStatus.INSUFFICIENT_STORAGE, "insufficient-storage", "Insufficient storage",
                    "The service's disk is full: nothing of this request was written. Writes are accepted again, without a restart, "
                            + "once space is freed.", Map.of("written", 0), "unavailable", null, null);
        }
        if (fault == StorageFault.SYNC_FAILED) {
            engines.syncFailed(ns, e);
        }
        long retry = e instanceof StorageUnavailableException u ? u.retryAfterSeconds() : engines.storageRetryAfterSeconds();
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("fault", fault == StorageFault.SYNC_FAILED ? "fsync-failed" : "io-error");
        props.put("written", 0);
        return new WriteException(HttpStatus.SERVICE_UNAVAILABLE, "storage-unavailable", "Storage unavailable",
                (fault == StorageFault.SYNC_FAILED
                        ? "The namespace's storage could not make the write durable (an fsync failed): nothing of this request was "
                        + "acknowledged. The service reopens the namespace from what was synced"
                        : "The namespace's storage failed (an I/O error): nothing of this request was written")
                        + "; retry after " + retry + " s.", props, "unavailable", null, retry);
    }

    private static String instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)).toString();
    }

    private void warnNearLimits(UUID tenantId, String tenantName, Quotas q) {
        checkWarn(tenantName, "maxSeries", usageView.series(tenantId), q.maxSeries());
        checkWarn(tenantName, "maxStoredBytes", usageView.storedBytes(tenantId), q.maxStoredBytes());
    }

    private void checkWarn(String tenant, String limit, long current, long max) {
        String key = tenant + '\u0000' + limit;
        if (max > 0 && current * 10 >= max * 8L) {
            if (warned.add(key)) {
                log.warn("tenant passed 80% of a limit [tenant={}, limit={}, value={}, current={}]", tenant, limit, max, current);
                metrics.quotaWarning(tenant, limit);
            }
        } else {
            warned.remove(key);
        }
    }

    private static WriteException limit(HttpStatus status, String errorId, String tenant, String limit, long value, Long current,
                                        String detail) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("tenant", tenant);
        props.put("limit", limit);
        props.put("value", value);
        if (current != null) {
            props.put("current", current);
        }
        props.put("written", 0);
        String influx = status == HttpStatus.TOO_MANY_REQUESTS ? "too many requests" : "unprocessable entity";
        return new WriteException(status, errorId, "Quota exceeded", detail + " [tenant=" + tenant + "]", props, influx, null, null);
    }

    static WriteException badLines(ParseResult r, int written) {
        List<Map<String, Object>> errors = new ArrayList<>(r.errors().size());
        StringBuilder msg = new StringBuilder();
        for (LineError e : r.errors()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("line", e.line());
            m.put("column", e.column());
            m.put("message", e.message());
            if (e.limit() != null) {
                m.put("limit", e.limit().id());
                m.put("value", e.limit().value());
            }
            errors.add(m);
            if (msg.length() < 8000) {
                msg.append(msg.isEmpty() ? "" : "\n").append("line ").append(e.line()).append(", column ").append(e.column())
                        .append(": ").append(e.message());
            }
        }
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("errors", errors);
        props.put("rejected", r.rejected());
        props.put("written", written);
        String detail = r.rejected() + " of " + r.lines() + " lines are not valid line protocol; "
                + (written == 0 ? "nothing was written." : written + " points were written, the listed lines were not.");
        Integer first = r.errors().isEmpty() ? null : r.errors().getFirst().line();
        String influxMessage = (written > 0 ? "partial write: " : "") + msg + (written > 0 ? " dropped=" + r.rejected() : "");
        return new WriteException(HttpStatus.BAD_REQUEST, "invalid-line-protocol", "Invalid line protocol", detail, props, "invalid", first,
                null).withInfluxMessage(influxMessage);
    }

    /** The directory caches them, and a quota change made through the service is seen from its commit on. */
    private Quotas quotas(UUID tenant) {
        return tenancy.quotas(tenant);
    }

    /** The namespace is gone: drop what is kept about it. */
    @Override
    public void beforeDataRemoval(NamespaceId id) {
        usageView.forget(id.value());
        reporter.forget(id.value());
    }

    private long nowNanos() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private Scratch borrow() {
        Scratch s = pool.poll();
        if (s == null) {
            return new Scratch();
        }
        s.builder().reset();
        return s;
    }

    private void giveBack(Scratch s) {
        if (s.builder().size() > KEEP_BUILDER_POINTS || pool.size() >= POOL_MAX) {
            return; // let a huge builder go rather than keep its arrays forever
        }
        s.builder().reset();
        pool.offer(s);
    }
}

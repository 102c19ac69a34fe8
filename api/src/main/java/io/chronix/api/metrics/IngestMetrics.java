package io.chronix.api.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Write-path meters. Prometheus names: {@code chronix_points_written_total{tenant,namespace}},
 * {@code chronix_bytes_written_total{tenant,namespace}} (bytes on the wire),
 * {@code chronix_rejected_lines_total{reason}}, {@code chronix_write_duration_seconds} (histogram),
 * {@code chronix_write_batch_points} (points per request), {@code chronix_quota_rejections_total{limit}},
 * {@code chronix_quota_warnings_total{tenant,limit}} (a tenant passed 80% of a limit).
 * Meters are cached per tag set, so the write path allocates nothing for them.
 */
@Component
public class IngestMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter[]> perNamespace = new ConcurrentHashMap<>();
    private final Map<String, Counter> rejected = new ConcurrentHashMap<>();
    private final Map<String, Counter> quota = new ConcurrentHashMap<>();
    private final Timer latency;
    private final DistributionSummary batchPoints;

    public IngestMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.latency = Timer.builder("chronix.write.duration").description("Write requests, from receipt to answer")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        this.batchPoints = DistributionSummary.builder("chronix.write.batch.points").description("Points per write request")
                .register(registry);
    }

    public void written(String tenant, String namespace, long points, long wireBytes) {
        Counter[] c = perNamespace.computeIfAbsent(tenant + '\u0000' + namespace, k -> new Counter[] {
                Counter.builder("chronix.points.written").description("Points written").tag("tenant", tenant).tag("namespace", namespace)
                        .register(registry),
                Counter.builder("chronix.bytes.written").description("Request bytes (on the wire) of writes")
                        .tag("tenant", tenant).tag("namespace", namespace).register(registry)});
        c[0].increment(points);
        c[1].increment(wireBytes);
        batchPoints.record(points);
    }

    /** @param reason {@code syntax}, {@code type-conflict}, {@code time-window}, {@code column-conflict}, {@code quota} */
    public void rejectedLines(String reason, long lines) {
        if (lines > 0) {
            rejected.computeIfAbsent(reason, r -> Counter.builder("chronix.rejected.lines").description("Lines not written, by reason")
                    .tag("reason", r).register(registry)).increment(lines);
        }
    }

    public void quotaRejection(String limit) {
        quota.computeIfAbsent(limit, l -> Counter.builder("chronix.quota.rejections").description("Write requests refused by a quota")
                .tag("limit", l).register(registry)).increment();
    }

    public void quotaWarning(String tenant, String limit) {
        Counter.builder("chronix.quota.warnings").description("A tenant passed 80% of a limit").tag("tenant", tenant).tag("limit", limit)
                .register(registry).increment();
    }

    public void latency(long nanos) {
        latency.record(Duration.ofNanos(nanos));
    }
}

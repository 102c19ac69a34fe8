package io.chronix.bench.load;

import java.util.Locale;

/**
 * What one load run did and how fast.
 *
 * @param rows          points sent (and acknowledged)
 * @param values        field values sent
 * @param bodyBytes     uncompressed line-protocol bytes
 * @param wireBytes     request-body bytes on the wire (differs from {@code bodyBytes} with gzip)
 * @param requests      requests sent
 * @param wallNanos     from the first request to the last answer
 * @param p50Nanos      median request latency
 * @param p99Nanos      99th-percentile request latency
 * @param maxNanos      slowest request
 * @param clientCpuNanos CPU time the client process used during the run (all threads)
 */
public record LoadReport(long rows, long values, long bodyBytes, long wireBytes, long requests, long wallNanos,
                         long p50Nanos, long p99Nanos, long maxNanos, long clientCpuNanos) {

    public double seconds() {
        return wallNanos / 1e9;
    }

    public double rowsPerSecond() {
        return rows / seconds();
    }

    public double valuesPerSecond() {
        return values / seconds();
    }

    public double megabytesPerSecond() {
        return bodyBytes / 1e6 / seconds();
    }

    public String summary() {
        return String.format(Locale.ROOT,
                "rows %,d  values %,d  requests %,d  wall %.3f s%n"
                        + "rows/s %,.0f  values/s %,.0f  MB/s %.1f (uncompressed; wire %.1f MB)%n"
                        + "latency p50 %.2f ms  p99 %.2f ms  max %.2f ms%n"
                        + "client cpu %.3f s (%.0f%% of one core)",
                rows, values, requests, seconds(),
                rowsPerSecond(), valuesPerSecond(), megabytesPerSecond(), wireBytes / 1e6,
                p50Nanos / 1e6, p99Nanos / 1e6, maxNanos / 1e6,
                clientCpuNanos / 1e9, 100.0 * clientCpuNanos / wallNanos);
    }
}

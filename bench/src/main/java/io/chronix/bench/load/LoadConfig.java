package io.chronix.bench.load;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * How to load.
 *
 * @param url            the write endpoint, query string included (e.g. {@code ...?precision=ns})
 * @param headers        extra request headers, e.g. {@code Authorization}
 * @param batchLines     lines per request (default 5,000)
 * @param connections    concurrent requests, each on its own keep-alive connection
 * @param gzip           compress each request body ({@code Content-Encoding: gzip}); compression is
 *                       done by the workers and counted in the client's CPU time
 * @param requestTimeout a request that takes longer fails the run
 */
public record LoadConfig(URI url, Map<String, String> headers, int batchLines, int connections, boolean gzip,
                         Duration requestTimeout) {
    public static final int DEFAULT_BATCH_LINES = 5_000;

    public LoadConfig {
        headers = Map.copyOf(headers);
        if (batchLines < 1) {
            throw new IllegalArgumentException("batchLines must be at least 1 [batchLines=" + batchLines + "]");
        }
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be at least 1 [connections=" + connections + "]");
        }
    }

    public static LoadConfig of(URI url, Map<String, String> headers) {
        return new LoadConfig(url, headers, DEFAULT_BATCH_LINES, 2, false, Duration.ofMinutes(5));
    }
}

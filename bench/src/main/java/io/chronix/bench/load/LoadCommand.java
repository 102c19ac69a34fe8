package io.chronix.bench.load;

import io.chronix.bench.cli.Options;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * {@code bench load}: posts a line-protocol file to a URL.
 *
 * <pre>
 * --url URL          write endpoint, e.g. http://127.0.0.1:8080/api/v1/namespaces/bench/write?precision=ns
 * --file FILE        line protocol (.gz is decompressed while reading)
 * --auth VALUE       Authorization header value, e.g. "Bearer cx_..." (or --auth-file FILE)
 * --header "N: V"    one extra header
 * --batch N          lines per request (default 5000)
 * --connections N    concurrent keep-alive connections (default 2)
 * --gzip             send bodies gzip-compressed
 * --timeout D        per-request timeout (default 5m)
 * </pre>
 */
public final class LoadCommand {
    private LoadCommand() {
    }

    public static LoadConfig config(Options o) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        if (o.has("auth")) {
            headers.put("Authorization", o.required("auth"));
        }
        if (o.has("auth-file")) {
            headers.put("Authorization", Files.readString(Path.of(o.required("auth-file"))).strip());
        }
        if (o.has("header")) {
            String h = o.required("header");
            int colon = h.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("--header wants 'Name: value', got '" + h + "'");
            }
            headers.put(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
        }
        return new LoadConfig(URI.create(o.required("url")), headers,
                o.integer("batch", LoadConfig.DEFAULT_BATCH_LINES), o.integer("connections", 2),
                o.flag("gzip"), o.duration("timeout", Duration.ofMinutes(5)));
    }

    public static InputStream open(Path file) throws IOException {
        InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 20);
        return file.toString().endsWith(".gz") ? new GZIPInputStream(in, 1 << 16) : in;
    }

    public static void run(Options o) throws IOException, InterruptedException {
        LoadConfig config = config(o);
        Path file = Path.of(o.required("file"));
        o.rejectUnknown();
        try (InputStream in = open(file)) {
            LoadReport report = new LoadGenerator(config).run(in);
            System.out.println(report.summary());
        }
    }
}

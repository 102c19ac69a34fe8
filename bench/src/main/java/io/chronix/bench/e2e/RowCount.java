package io.chronix.bench.e2e;

import io.chronix.bench.query.ResultTable;
import io.chronix.bench.query.dialect.QueryDialect;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Polls a count query until it reports the expected number of rows. */
final class RowCount {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private RowCount() {
    }

    static void await(QueryDialect dialect, String countQuery, long expected, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long seen = -1;
        String last = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = CLIENT.send(dialect.request(countQuery), HttpResponse.BodyHandlers.ofString());
            last = r.statusCode() + " " + r.body();
            if (r.statusCode() / 100 == 2) {
                ResultTable t = dialect.parse(r.body());
                if (t.size() == 1) {
                    Object n = t.rows().getFirst().get(t.columns().size() - 1);
                    seen = n instanceof Number num ? num.longValue() : -1;
                    if (seen == expected) {
                        return;
                    }
                    if (seen > expected) {
                        throw new IllegalStateException(dialect.name() + " holds " + seen + " rows, more than the "
                                + expected + " loaded");
                    }
                }
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(dialect.name() + " shows " + seen + " of " + expected + " rows after "
                + timeout + " [last answer=" + last + "]");
    }
}

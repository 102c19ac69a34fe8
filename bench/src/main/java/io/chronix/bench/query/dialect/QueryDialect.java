package io.chronix.bench.query.dialect;

import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.ResultTable;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;

/** How one target is asked a query and how its answer is read. Implementations are immutable. */
public interface QueryDialect {

    /** Short name for reports: {@code chronix}, {@code questdb}, {@code influxdb}. */
    String name();

    /** The query text in this target's language. */
    String render(QueryInstance query);

    /** The HTTP request that runs {@code text}. */
    HttpRequest request(String text);

    /**
     * Reads a 2xx answer body.
     *
     * @throws QueryFailedException if the body reports an error (InfluxDB answers 200 with one)
     */
    ResultTable parse(String body);

    /** Whether the rendered query orders its rows as the reference does (then the order is checked). */
    boolean ordersRows(QueryKind kind);

    /** {@code text} as a URL query parameter's value: UTF-8, a space as {@code %20} (not {@code +}). */
    static String parameter(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }
}

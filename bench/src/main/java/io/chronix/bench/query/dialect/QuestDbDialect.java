package io.chronix.bench.query.dialect;

import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.ResultTable;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;

/**
 * QuestDB's SQL over {@code GET /exec?query=...}, after TSBS's QuestDB templates ({@code SAMPLE BY},
 * {@code LATEST ON}). Line protocol creates the table with its designated timestamp named
 * {@code timestamp}; the parser reports that column as {@code time}.
 *
 * <p>Deviation from TSBS: its groupby-orderby-limit is {@code ... SAMPLE BY 1m LIMIT 5}, which returns
 * the <em>first</em> five minutes of the data set, not the last five before the end; here the sampled
 * rows are ordered descending before the limit, which is what the query is defined to ask. Buckets
 * are {@code ALIGN TO CALENDAR} (UTC), i.e. aligned to the epoch like {@code time_bucket}.
 */
public final class QuestDbDialect implements QueryDialect {
    private final URI base;
    private final Duration timeout;

    public QuestDbDialect(URI baseUrl, Duration timeout) {
        this.base = baseUrl;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "questdb";
    }

    @Override
    public String render(QueryInstance q) {
        QueryKind k = q.kind();
        return switch (k.family()) {
            case SINGLE_GROUPBY, MAX_ALL -> "SELECT timestamp, " + Sql.aggregates("max", "max_", q.metrics())
                    + " FROM cpu WHERE hostname IN (" + Sql.quotedList(q.hostnames()) + ") AND " + window(q)
                    + " SAMPLE BY " + sample(k) + " ALIGN TO CALENDAR ORDER BY timestamp";
            case DOUBLE_GROUPBY -> "SELECT timestamp, hostname, " + Sql.aggregates("avg", "mean_", q.metrics())
                    + " FROM cpu WHERE " + window(q) + " SAMPLE BY " + sample(k)
                    + " ALIGN TO CALENDAR ORDER BY timestamp, hostname";
            case HIGH_CPU -> "SELECT * FROM cpu WHERE usage_user > 90.0 AND " + window(q)
                    + (q.allHosts() ? "" : " AND hostname IN (" + Sql.quotedList(q.hostnames()) + ")");
            case LASTPOINT -> "SELECT * FROM cpu LATEST ON timestamp PARTITION BY hostname ORDER BY hostname";
            case GROUPBY_ORDERBY_LIMIT -> "SELECT * FROM (SELECT timestamp, max(usage_user) AS max_usage_user"
                    + " FROM cpu WHERE timestamp < '" + literal(q.end()) + "' SAMPLE BY 1m ALIGN TO CALENDAR)"
                    + " ORDER BY timestamp DESC LIMIT 5";
        };
    }

    private static String sample(QueryKind k) {
        return k.bucket().toMinutes() % 60 == 0 ? k.bucket().toHours() + "h" : k.bucket().toMinutes() + "m";
    }

    private static String window(QueryInstance q) {
        return "timestamp >= '" + literal(q.start()) + "' AND timestamp < '" + literal(q.end()) + "'";
    }

    private static String literal(Instant i) {
        return i.toString();
    }

    @Override
    public HttpRequest request(String text) {
        URI uri = base.resolve("/exec?query=" + QueryDialect.parameter(text));
        return HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    }

    /** {@code {"columns": [{"name", "type"}], "dataset": [[...]], "count": n}}. */
    @Override
    public ResultTable parse(String body) {
        return ChronixSqlDialect.parseColumnsAndRows(body, "dataset", "timestamp");
    }

    @Override
    public boolean ordersRows(QueryKind kind) {
        return kind.family() != QueryKind.Family.HIGH_CPU;
    }
}

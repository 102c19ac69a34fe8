package io.chronix.bench.query.dialect;

import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.ResultTable;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Chronix's SQL (DuckDB's dialect) over {@code GET /api/v1/namespaces/{ns}/query?sql=…}. Templates follow
 * TSBS's TimescaleDB ones ({@code time_bucket}, {@code DISTINCT ON}); bucket columns are named
 * {@code time} and grouped by ordinal, so the alias never shadows the {@code time} column in WHERE.
 */
public final class ChronixSqlDialect implements QueryDialect {
    private final URI endpoint;
    private final String authorization;
    private final Duration timeout;

    /**
     * @param baseUrl       e.g. {@code http://127.0.0.1:8080}
     * @param authorization the {@code Authorization} header value ({@code Bearer cx_...}), or null
     */
    public ChronixSqlDialect(URI baseUrl, String namespace, String authorization, Duration timeout) {
        this.endpoint = baseUrl.resolve("/api/v1/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/query");
        this.authorization = authorization;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "chronix";
    }

    @Override
    public String render(QueryInstance q) {
        QueryKind k = q.kind();
        return switch (k.family()) {
            case SINGLE_GROUPBY, MAX_ALL -> "SELECT " + bucket(k) + " AS time, "
                    + Sql.aggregates("max", "max_", q.metrics())
                    + " FROM cpu WHERE hostname IN (" + Sql.quotedList(q.hostnames()) + ") AND " + window(q)
                    + " GROUP BY 1 ORDER BY 1";
            case DOUBLE_GROUPBY -> "SELECT " + bucket(k) + " AS time, hostname, "
                    + Sql.aggregates("avg", "mean_", q.metrics())
                    + " FROM cpu WHERE " + window(q) + " GROUP BY 1, 2 ORDER BY 1, 2";
            case HIGH_CPU -> "SELECT * FROM cpu WHERE usage_user > 90.0 AND " + window(q)
                    + (q.allHosts() ? "" : " AND hostname IN (" + Sql.quotedList(q.hostnames()) + ")");
            case LASTPOINT -> "SELECT DISTINCT ON (hostname) * FROM cpu ORDER BY hostname, time DESC";
            case GROUPBY_ORDERBY_LIMIT -> "SELECT " + bucket(k) + " AS time, max(usage_user) AS max_usage_user"
                    + " FROM cpu WHERE time < TIMESTAMP '" + Sql.plainTimestamp(q.end()) + "'"
                    + " GROUP BY 1 ORDER BY 1 DESC LIMIT 5";
        };
    }

    private static String bucket(QueryKind k) {
        return "time_bucket(INTERVAL '" + k.bucket().toSeconds() + " seconds', time)";
    }

    private static String window(QueryInstance q) {
        return "time >= TIMESTAMP '" + Sql.plainTimestamp(q.start()) + "' AND time < TIMESTAMP '"
                + Sql.plainTimestamp(q.end()) + "'";
    }

    /**
     * {@code GET …/query?sql=…}, the shape the other targets' queries have (QuestDB's {@code /exec},
     * InfluxDB's {@code /query}), so the one client sends every target the same kind of request. The
     * JDK client writes a POST's headers and body separately, and the server then waits for a second
     * segment: measured on a warm service, 1.3–1.6 ms per one-host query against 0.9 by GET.
     */
    @Override
    public HttpRequest request(String text) {
        URI uri = URI.create(endpoint + "?sql=" + QueryDialect.parameter(text));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET();
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b.build();
    }

    /** {@code {"columns": [{"name": ..., "type": ...}], "rows": [[...], ...]}} (API.md, Query). */
    @Override
    public ResultTable parse(String body) {
        return parseColumnsAndRows(body, "rows", null);
    }

    /**
     * @param timeColumn the target's name for the time column, reported as {@code time}; null if it
     *                   is already called {@code time}
     */
    static ResultTable parseColumnsAndRows(String body, String rowsField, String timeColumn) {
        JsonNode root = Json.read(body);
        if (root.has("error")) {
            throw new QueryFailedException("target reports an error: " + Json.abbreviate(body));
        }
        JsonNode columnsNode = root.get("columns");
        JsonNode rowsNode = root.get(rowsField);
        if (columnsNode == null || rowsNode == null) {
            throw new QueryFailedException("answer lacks 'columns' or '" + rowsField + "' [body=" + Json.abbreviate(body) + "]");
        }
        List<String> columns = new ArrayList<>();
        for (JsonNode c : columnsNode) {
            String name = c.isObject() ? c.get("name").asString() : c.asString();
            columns.add(name.equalsIgnoreCase(timeColumn) ? ResultTable.TIME : name);
        }
        return rows(columns, rowsNode);
    }

    static ResultTable rows(List<String> columns, JsonNode rowsNode) {
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode r : rowsNode) {
            List<Object> row = new ArrayList<>(columns.size());
            for (int i = 0; i < columns.size(); i++) {
                row.add(Json.cell(columns.get(i), r.get(i)));
            }
            rows.add(row);
        }
        return new ResultTable(columns, rows);
    }

    @Override
    public boolean ordersRows(QueryKind kind) {
        // TSBS's high-cpu has no ORDER BY; every other template here orders like the reference.
        return kind.family() != QueryKind.Family.HIGH_CPU;
    }
}

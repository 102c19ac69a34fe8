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
import java.util.Map;
import java.util.stream.Collectors;

/**
 * InfluxQL (InfluxDB 1.x) over {@code GET /query?db=...&epoch=ns}, after TSBS's Influx templates.
 *
 * <p>Deviations from TSBS, each so the answer means what the query is defined to ask:
 * {@code fill(none)} (InfluxDB otherwise emits a NULL row for every empty bucket, which no SQL
 * target does); aggregates are aliased to the reference's column names; groupby-orderby-limit orders
 * descending (TSBS's Influx form returns the first five minutes) and is bounded below by the data
 * set's start, which changes no answer — no point precedes it — but spares InfluxDB from walking
 * buckets back to 1677.
 */
public final class InfluxQlDialect implements QueryDialect {
    private final URI base;
    private final String database;
    private final long dataStartNanos;
    private final Duration timeout;

    public InfluxQlDialect(URI baseUrl, String database, long dataStartNanos, Duration timeout) {
        this.base = baseUrl;
        this.database = database;
        this.dataStartNanos = dataStartNanos;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "influxdb";
    }

    @Override
    public String render(QueryInstance q) {
        QueryKind k = q.kind();
        return switch (k.family()) {
            case SINGLE_GROUPBY, MAX_ALL -> "SELECT " + Sql.aggregates("max", "max_", q.metrics())
                    + " FROM cpu WHERE " + hosts(q) + " AND " + window(q.startNanos(), q.endNanos())
                    + " GROUP BY time(" + k.bucket().toSeconds() + "s) fill(none)";
            case DOUBLE_GROUPBY -> "SELECT " + Sql.aggregates("mean", "mean_", q.metrics())
                    + " FROM cpu WHERE " + window(q.startNanos(), q.endNanos())
                    + " GROUP BY time(" + k.bucket().toSeconds() + "s), hostname fill(none)";
            case HIGH_CPU -> "SELECT * FROM cpu WHERE usage_user > 90.0"
                    + (q.allHosts() ? "" : " AND " + hosts(q)) + " AND " + window(q.startNanos(), q.endNanos());
            case LASTPOINT -> "SELECT * FROM cpu GROUP BY hostname ORDER BY time DESC LIMIT 1";
            case GROUPBY_ORDERBY_LIMIT -> "SELECT max(usage_user) AS max_usage_user FROM cpu WHERE "
                    + window(dataStartNanos, q.endNanos()) + " GROUP BY time(60s) fill(none) ORDER BY time DESC LIMIT 5";
        };
    }

    private static String hosts(QueryInstance q) {
        return q.hostnames().stream().map(h -> "hostname = '" + h + "'").collect(Collectors.joining(" OR ", "(", ")"));
    }

    private static String window(long start, long end) {
        // integer nanosecond literals: exact, and no time-zone parsing on either side
        return "time >= " + start + " AND time < " + end;
    }

    @Override
    public HttpRequest request(String text) {
        URI uri = base.resolve("/query?db=" + URLEncoder.encode(database, StandardCharsets.UTF_8) + "&epoch=ns&q="
                + QueryDialect.parameter(text));
        return HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    }

    /**
     * {@code {"results": [{"series": [{"name", "tags": {...}, "columns": [...], "values": [[...]]}]}]}};
     * each series' tags become columns of its rows. InfluxDB reports errors inside a 200 answer.
     */
    @Override
    public ResultTable parse(String body) {
        JsonNode root = Json.read(body);
        if (root.has("error")) {
            throw new QueryFailedException("InfluxDB error: " + root.get("error").asString());
        }
        List<String> columns = null;
        List<List<Object>> rows = new ArrayList<>();
        for (JsonNode result : root.path("results")) {
            if (result.has("error")) {
                throw new QueryFailedException("InfluxDB error: " + result.get("error").asString());
            }
            for (JsonNode series : result.path("series")) {
                List<String> seriesColumns = new ArrayList<>();
                for (JsonNode c : series.path("columns")) {
                    seriesColumns.add(c.asString());
                }
                List<Map.Entry<String, JsonNode>> tags = new ArrayList<>(series.path("tags").properties());
                List<String> all = new ArrayList<>(seriesColumns);
                tags.forEach(t -> all.add(t.getKey()));
                if (columns == null) {
                    columns = all;
                } else if (!columns.equals(all)) {
                    throw new QueryFailedException("InfluxDB series have different columns: " + columns + " vs " + all);
                }
                for (JsonNode v : series.path("values")) {
                    List<Object> row = new ArrayList<>(all.size());
                    for (int i = 0; i < seriesColumns.size(); i++) {
                        row.add(Json.cell(seriesColumns.get(i), v.get(i)));
                    }
                    for (Map.Entry<String, JsonNode> t : tags) {
                        row.add(Json.cell(t.getKey(), t.getValue()));
                    }
                    rows.add(row);
                }
            }
        }
        return new ResultTable(columns == null ? List.of() : columns, rows);
    }

    @Override
    public boolean ordersRows(QueryKind kind) {
        // Series come per tag value (grouped queries), so only the ungrouped bucket queries are in
        // the reference's order.
        return switch (kind.family()) {
            case SINGLE_GROUPBY, MAX_ALL, GROUPBY_ORDERBY_LIMIT -> true;
            case DOUBLE_GROUPBY, HIGH_CPU, LASTPOINT -> false;
        };
    }
}

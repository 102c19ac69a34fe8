package io.chronix.bench.live;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Chronix's SQL endpoint as a user calls it: {@code POST /api/v1/namespaces/{ns}/query} with
 * {@code {"sql": "…"}}, {@code Accept: application/json} (docs/api.md, "Query"), one request at a
 * time over a keep-alive connection.
 */
final class ChronixSql {

    /** Floats as {@code BigDecimal}, so a {@code DECIMAL} column keeps its digits; doubles convert exactly from them. */
    private static final JsonMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

    /**
     * One answer as it came.
     *
     * @param nanos from sending the request to the answer's last byte (parsing not included)
     */
    record Reply(int status, String body, long nanos) {
        boolean ok() {
            return status / 100 == 2;
        }

        /** {@code 422 query-too-large: <detail>} for a refusal, from the RFC 9457 problem body where there is one. */
        String refusal() {
            try {
                JsonNode p = JSON.readTree(body);
                String id = p.has("errorId") ? p.get("errorId").asString() : p.path("title").asString("");
                return status + " " + id + ": " + p.path("detail").asString("");
            } catch (RuntimeException e) {
                return status + ": " + (body.length() > 300 ? body.substring(0, 300) + "…" : body);
            }
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final URI endpoint;
    private final String token;
    private final Duration timeout;

    ChronixSql(URI base, String namespace, String token, Duration timeout) {
        this.endpoint = base.resolve("/api/v1/namespaces/" + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/query");
        this.token = token;
        this.timeout = timeout;
    }

    Reply send(String sql) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("sql", sql)))).build();
        long t0 = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.body(), System.nanoTime() - t0);
    }

    /**
     * {@code {"columns": [{"name", "type"}], "rows": [[…]]}} as an {@link Answer}, each cell read by
     * its column's type: timestamps are RFC 3339 strings, doubles numbers or {@code "NaN"} /
     * {@code "Infinity"} / {@code "-Infinity"}, exact numbers printed exactly.
     *
     * @throws IllegalArgumentException if the body is not such an answer
     */
    static Answer parse(String body) {
        JsonNode root = JSON.readTree(body);
        JsonNode columns = root.get("columns");
        JsonNode rows = root.get("rows");
        if (columns == null || rows == null) {
            throw new IllegalArgumentException("the answer has no 'columns' or 'rows'");
        }
        List<String> names = new ArrayList<>();
        List<Answer.Kind> kinds = new ArrayList<>();
        for (JsonNode c : columns) {
            names.add(c.get("name").asString());
            kinds.add(Answer.kindOf(c.get("type").asString()));
        }
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (JsonNode r : rows) {
            List<Object> row = new ArrayList<>(names.size());
            for (int i = 0; i < names.size(); i++) {
                row.add(cell(r.get(i), kinds.get(i)));
            }
            out.add(row);
        }
        return new Answer(names, out);
    }

    private static Object cell(JsonNode v, Answer.Kind kind) {
        if (v == null || v.isNull()) {
            return null;
        }
        return switch (kind) {
            case TIME -> Instant.parse(v.asString());
            case EXACT -> Answer.exact(v.isNumber() ? v.decimalValue().toPlainString() : v.asString());
            case DOUBLE -> v.isNumber() ? v.decimalValue().doubleValue() : Double.parseDouble(v.asString());
            case BOOLEAN -> v.asBoolean();
            case TEXT -> v.isString() ? v.asString() : v.toString();
        };
    }
}

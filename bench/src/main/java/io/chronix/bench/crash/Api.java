package io.chronix.bench.crash;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The service's HTTP API as the suite uses it: an answer's status and body, or an IOException when there was none. */
final class Api {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** A status and body. */
    record Answer(int status, String body) {
        JsonNode json() {
            return JSON.readTree(body);
        }

        boolean ok() {
            return status / 100 == 2;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private volatile URI base;

    void target(URI base) {
        this.base = base;
    }

    Answer send(String method, String path, String token, String contentType, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    Answer json(String method, String path, String token, Object body) throws IOException, InterruptedException {
        return send(method, path, token, "application/json", body == null ? null : JSON.writeValueAsString(body));
    }

    Answer get(String path, String token) throws IOException, InterruptedException {
        return send("GET", path, token, null, null);
    }

    /** The single value of a one-row, one-column SQL answer. */
    Answer query(String ns, String token, String sql) throws IOException, InterruptedException {
        return json("POST", "/api/v1/namespaces/" + ns + "/query", token, java.util.Map.of("sql", sql));
    }
}

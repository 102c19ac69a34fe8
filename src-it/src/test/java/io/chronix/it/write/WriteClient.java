package io.chronix.it.write;

import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests of the write and query tests, and reading an engine directory back. */
public final class WriteClient {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final ServiceProcess service;

    public WriteClient(ServiceProcess service) {
        this.service = service;
    }

    public java.net.URI uri(String path) {
        return service.uri(path);
    }

    public record Tenant(String id, String name, String admin) {
    }

    public HttpResponse<String> send(String method, String path, String authorization, String contentType, byte[] body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.uri(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return service.send(b, null);
    }

    public HttpResponse<String> json(String method, String path, String token, String body) throws IOException, InterruptedException {
        return send(method, path, "Bearer " + token, body == null ? null : "application/json",
                body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }

    public HttpResponse<String> write(String token, String namespace, String query, String lines) throws IOException, InterruptedException {
        return send("POST", "/api/v1/namespaces/" + namespace + "/write" + query, "Bearer " + token, "text/plain; charset=utf-8",
                lines.getBytes(StandardCharsets.UTF_8));
    }

    public Tenant tenant(String operator, String name, String quotas) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/tenants", operator,
                "{\"name\": \"" + name + "\"" + (quotas == null ? "" : ", \"quotas\": " + quotas) + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode j = JSON.readTree(r.body());
        return new Tenant(j.get("id").asString(), name, j.get("adminToken").asString());
    }

    public void namespace(String token, String name) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/namespaces", token, "{\"name\": \"" + name + "\", \"retention\": \"P30D\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    public String token(String admin, String scopes) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/tokens", admin, "{\"description\": \"it\", \"scopes\": " + scopes + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body()).get("token").asString();
    }

    public static JsonNode body(HttpResponse<String> r) {
        return JSON.readTree(r.body());
    }

    public static byte[] gzip(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream g = new GZIPOutputStream(out)) {
            g.write(s.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** The internal id of a live namespace (names its engine directory). */
    public static long namespaceId(ExternalServices s, String tenantId, String name) throws Exception {
        try (Connection c = DriverManager.getConnection(s.jdbcUrl(), s.dbUser(), s.dbPassword());
             PreparedStatement q = c.prepareStatement("SELECT id FROM namespaces WHERE tenant_id = ?::uuid AND name = ? AND deleted_at IS NULL")) {
            q.setString(1, tenantId);
            q.setString(2, name);
            try (ResultSet rs = q.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    /** Rows of a measurement in an engine directory, read with the engine while no service holds it. */
    public static long rows(Path engineDir, String measurement) {
        try (MaintenanceScheduler m = MaintenanceScheduler.create(1);
             Chronix c = Chronix.open(engineDir, EngineConfig.defaults(), m);
             RootAllocator a = new RootAllocator()) {
            if (!c.measurements().contains(measurement)) {
                return 0;
            }
            long n = 0;
            try (var r = c.scan(new ScanRequest(measurement, List.of(), Long.MIN_VALUE, Long.MAX_VALUE, List.of()), a)) {
                for (VectorSchemaRoot b : r.batches()) {
                    n += b.getRowCount();
                }
            }
            return n;
        }
    }
}

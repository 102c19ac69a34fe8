package io.chronix.it.tenancy;

import io.chronix.it.support.ServiceProcess;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Requests of the tenancy tests against a running service. */
final class TenancyClient {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final ServiceProcess service;

    TenancyClient(ServiceProcess service) {
        this.service = service;
    }

    record Tenant(String id, String name, String adminToken) {
    }

    HttpResponse<String> send(String method, String pathAndQuery, String token, String contentType, String body) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.uri(pathAndQuery))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        return service.send(b, token);
    }

    HttpResponse<String> json(String method, String path, String token, String body) throws IOException, InterruptedException {
        return send(method, path, token, body == null ? null : "application/json", body);
    }

    Tenant createTenant(String operator, String name) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/tenants", operator, "{\"name\": \"" + name + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode j = JSON.readTree(r.body());
        return new Tenant(j.get("id").asString(), name, j.get("adminToken").asString());
    }

    void createNamespace(String token, String name) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/namespaces", token, "{\"name\": \"" + name + "\", \"retention\": \"P30D\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }

    JsonNode createToken(String token, String scopes) throws IOException, InterruptedException {
        HttpResponse<String> r = json("POST", "/api/v1/tokens", token, "{\"description\": \"it\", \"scopes\": " + scopes + "}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return JSON.readTree(r.body());
    }
}

package io.chronix.api.security;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A small HTTP client for the in-process service tests: JSON in, status and JSON out. */
public final class TestHttp {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    /** A status, the raw body and the body as JSON (null when it is not JSON). */
    public record Answer(int status, String body, HttpResponse<String> raw) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (RuntimeException e) {
                throw new AssertionError("not JSON (status " + status + "): " + body, e);
            }
        }

        public String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }
    }

    private final String base;
    private final HttpClient http;

    public TestHttp(int port) {
        this(port, false);
    }

    public TestHttp(int port, boolean cookies) {
        this.base = "http://127.0.0.1:" + port;
        HttpClient.Builder b = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER);
        if (cookies) {
            b.cookieHandler(new CookieManager());
        }
        this.http = b.build();
    }

    public Answer send(String method, String path, String token, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return send(b.build());
    }

    public Answer form(String path, String body, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/x-www-form-urlencoded");
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b.build());
    }

    public Answer send(HttpRequest request) {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public Answer get(String path, String token) {
        return send("GET", path, token, null);
    }

    public Answer post(String path, String token, String json) {
        return send("POST", path, token, json);
    }

    public Answer delete(String path, String token) {
        return send("DELETE", path, token, null);
    }

    public String base() {
        return base;
    }
}

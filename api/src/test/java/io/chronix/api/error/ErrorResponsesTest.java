package io.chronix.api.error;

import io.chronix.api.security.TestHttp;
import io.chronix.api.testing.ServiceTestProperties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every error is a problem document, also those no endpoint answers: requests Tomcat refuses
 * before any servlet runs (its error report valve), those Spring Security's firewall rejects, those
 * that reach the error dispatch, and errors whose {@code Accept} header does not parse. Raw bytes
 * over a socket to the real embedded server, since an HTTP client would not send most of them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ErrorResponsesTest {

    static final String OPERATOR = "operator-token-for-error-tests";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    /** A tenant admin token with the namespace {@code metrics}. */
    static String token;

    @BeforeEach
    void tenant() {
        if (token == null) {
            TestHttp http = new TestHttp(port);
            String name = "e" + UUID.randomUUID().toString().substring(0, 8);
            token = http.send("POST", "/api/v1/tenants", OPERATOR, "{\"name\":\"" + name + "\"}").json().get("adminToken").asString();
            assertThat(http.send("POST", "/api/v1/namespaces", token, "{\"name\":\"metrics\"}").status()).isEqualTo(201);
        }
    }

    record Answer(int status, String contentType, String body) {
    }

    /** Sends the bytes as they are and reads the whole answer (the request asks the server to close). */
    private Answer raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.replace("{token}", token).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int headEnd = text.indexOf("\r\n\r\n");
            String[] head = text.substring(0, headEnd).split("\r\n");
            String body = text.substring(headEnd + 4);
            String contentType = "";
            boolean chunked = false;
            for (String h : head) {
                String lower = h.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-type:")) {
                    contentType = h.substring(h.indexOf(':') + 1).trim();
                }
                chunked |= lower.startsWith("transfer-encoding:") && lower.contains("chunked");
            }
            return new Answer(Integer.parseInt(head[0].split(" ")[1]), contentType, chunked ? dechunk(body) : body);
        }
    }

    private static String dechunk(String body) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (true) {
            int eol = body.indexOf("\r\n", i);
            int size = Integer.parseInt(body.substring(i, eol).trim(), 16);
            if (size == 0) {
                return sb.toString();
            }
            sb.append(body, eol + 2, eol + 2 + size);
            i = eol + 2 + size + 2;
        }
    }

    private static String get(String target, String... headers) {
        return request("GET", target, "HTTP/1.1", headers);
    }

    private static String request(String method, String target, String version, String... headers) {
        StringBuilder sb = new StringBuilder(method + " " + target + " " + version + "\r\nHost: localhost\r\nConnection: close\r\n"
                + "Authorization: Bearer {token}\r\n");
        for (String h : headers) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    private static Arguments error(String name, String request, int status, String errorId) {
        return arguments(Named.of(name, request), status, errorId);
    }

    static Stream<Arguments> malformedRequests() {
        String ns = "/api/v1/namespaces/metrics";
        return Stream.of(
                // refused by Tomcat before any servlet runs: its error report valve
                error("a lone % in the path", get(ns + "/measurements/%"), 400, "bad-request"),
                error("%zz in the path", get(ns + "/measurements/%zz"), 400, "bad-request"),
                error("an encoded slash", get(ns + "/measurements/a%2Fb"), 400, "bad-request"),
                error("an encoded backslash", get(ns + "/measurements/a%5Cb"), 400, "bad-request"),
                error("a raw backslash", get("/api/v1\\namespaces"), 400, "bad-request"),
                error("an encoded NUL", get(ns + "/measurements/a%00b"), 400, "bad-request"),
                error("a control character", get("/api/v1/\u0001"), 400, "bad-request"),
                error("a URL of 20,000 characters", get(ns + "/measurements/" + "a".repeat(20_000)), 400, "bad-request"),
                error("a header of 20,000 characters", get(ns + "/measurements", "X-Long: " + "a".repeat(20_000)), 400, "bad-request"),
                error("an HTTP version that does not exist", request("GET", ns, "HTTP/9.9"), 505, "http-505"),
                error("a request line that is not HTTP", "GARBAGE\r\n\r\n", 400, "bad-request"),
                error("no Host header", "GET /api/v1/namespaces HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "bad-request"),
                error("a Content-Length that is not a number", request("POST", ns + "/write", "HTTP/1.1", "Content-Length: abc"), 400, "bad-request"),
                error("an unknown transfer coding", request("POST", ns + "/write", "HTTP/1.1", "Transfer-Encoding: gzip"), 501, "http-501"),
                // rejected by Spring Security's firewall
                error("a double slash", get("/api/v1//namespaces"), 400, "request-rejected"),
                error("a matrix parameter", get("/api/v1/namespaces;x=1"), 400, "request-rejected"),
                error("a dot-dot segment", get("/api/v1/namespaces/../tokens"), 400, "request-rejected"),
                error("an encoded percent", get(ns + "/measurements/a%25b"), 400, "request-rejected"),
                error("a method that is not HTTP's", request("FOO", "/api/v1/namespaces", "HTTP/1.1"), 400, "request-rejected"),
                // answered through the error dispatch or Spring MVC
                error("TRACE", request("TRACE", "/api/v1/namespaces", "HTTP/1.1"), 405, "method-not-allowed"),
                error("a query string that does not decode", get("/api/v1/namespaces?limit=%zz"), 400, "bad-request"),
                error("a lone % in the query string", get("/api/v1/tokens?limit=%"), 400, "bad-request"),
                error("a malformed chunk", request("POST", ns + "/write", "HTTP/1.1", "Transfer-Encoding: chunked") + "ZZ\r\nabc\r\n0\r\n\r\n",
                        400, "bad-request"),
                error("an unknown path", get("/api/v1/nope"), 404, "not-found"),
                error("the error path asked for", get("/error"), 404, "not-found"),
                error("an Accept header that does not parse", get("/api/v1/namespaces", "Accept: ////"), 406, "not-acceptable"),
                error("an unknown path with an Accept header that does not parse", get("/api/v1/nope", "Accept: ////"), 404, "not-found"),
                error("an unknown path asked for as HTML", get("/api/v1/nope", "Accept: text/html"), 404, "not-found"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void aMalformedRequestIsAnsweredWithAProblemDocument(String request, int status, String errorId) throws IOException {
        Answer a = raw(request);
        assertThat(a.status()).as(a.body()).isEqualTo(status);
        assertThat(a.contentType()).as(a.body()).startsWith("application/problem+json");
        assertThat(a.body()).doesNotContain("<html").doesNotContain("\"timestamp\"");
        JsonNode p = TestHttp.JSON.readTree(a.body());
        assertThat(p.get("type").asString()).isEqualTo("urn:chronix:problem:" + errorId);
        assertThat(p.get("errorId").asString()).isEqualTo(errorId);
        assertThat(p.get("status").asInt()).isEqualTo(status);
        assertThat(p.get("title").asString()).isNotBlank();
        assertThat(p.get("detail").asString()).isNotBlank();
    }

    @Test
    void aFirewallRejectionSaysWhichRuleTheRequestBroke() throws IOException {
        JsonNode p = TestHttp.JSON.readTree(raw(get("/api/v1//namespaces")).body());
        assertThat(p.get("title").asString()).isEqualTo("Request rejected");
        assertThat(p.get("detail").asString()).contains("\"//\"");
    }

    @Test
    void aRequestWithAnAcceptHeaderThatDoesNotParseStillSucceedsWhereNoBodyIsNegotiated() throws IOException {
        // a write answers 204 with no body: nothing to negotiate, nothing refused
        Answer a = raw(request("POST", "/api/v1/namespaces/metrics/write", "HTTP/1.1", "Accept: ////", "Content-Length: 7") + "cpu v=1");
        assertThat(a.status()).as(a.body()).isEqualTo(204);
    }
}

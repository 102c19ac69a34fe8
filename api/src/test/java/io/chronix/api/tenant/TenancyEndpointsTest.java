package io.chronix.api.tenant;

import io.chronix.api.namespace.NamespaceDataReaper;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.api.security.TestHttp;
import io.chronix.api.security.TestHttp.Answer;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.ShardId;
import io.chronix.engine.storage.StorageBackend;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.api.testing.ServiceTestProperties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tenancy endpoints of API.md over HTTP, in process, against a real PostgreSQL: operator and
 * tenant administration, isolation between tenants, scopes, bad input, token lifecycle and the
 * background removal of deleted namespaces' data.
 */
// DEBUG on the web and security layers, so the log scan below sees what they would print
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "logging.level.org.springframework.web=DEBUG", "logging.level.org.springframework.security=DEBUG",
        "logging.level.io.chronix=DEBUG"})
@ExtendWith(OutputCaptureExtension.class)
class TenancyEndpointsTest {

    static final String OPERATOR = "operator-token-for-tenancy-tests";

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
        registry.add("chronix.quotas.max-namespaces", () -> "4");
        registry.add("chronix.deletion.initial-delay", () -> "PT1H"); // the tests run the reaper themselves
    }

    @Value("${local.server.port}")
    int port;
    @Autowired JdbcClient jdbc;
    @Autowired TenancyDirectory directory;
    @Autowired NamespaceDataReaper reaper;
    @Autowired NamespaceLocations locations;
    @Autowired StorageBackend cold;

    TestHttp http;

    @BeforeEach
    void client() {
        http = new TestHttp(port);
    }

    record NewTenant(String id, String name, String token) {
    }

    NewTenant tenant() {
        String name = "t" + UUID.randomUUID().toString().substring(0, 8);
        Answer a = http.post("/api/v1/tenants", OPERATOR, """
                {"name": "%s", "adminEmail": "%s@example.com", "adminPassword": "a good password", "quotas": {"maxSeries": 1000}}
                """.formatted(name, name));
        assertThat(a.status()).as(a.body()).isEqualTo(201);
        assertThat(a.header("Location")).isEqualTo("/api/v1/tenants/" + a.json().get("id").asString());
        return new NewTenant(a.json().get("id").asString(), name, a.json().get("adminToken").asString());
    }

    static void assertProblem(Answer a, int status, String errorId) {
        assertThat(a.status()).as(a.body()).isEqualTo(status);
        assertThat(a.header("Content-Type")).startsWith("application/problem+json");
        JsonNode j = a.json();
        assertThat(j.get("errorId").asString()).isEqualTo(errorId);
        assertThat(j.get("type").asString()).isEqualTo("urn:chronix:problem:" + errorId);
        assertThat(j.get("status").asInt()).isEqualTo(status);
        assertThat(j.has("title")).isTrue();
        assertThat(j.has("detail")).isTrue();
    }

    static List<String> fields(Answer a) {
        return a.json().get("errors").valueStream().map(e -> e.get("field").asString()).toList();
    }

    @Test
    void operatorCreatesListsGetsAndDeletesTenants() {
        NewTenant t = tenant();
        assertThat(t.token()).matches("cx_[a-z2-7]{16}_[a-z2-7]{32}");
        Answer got = http.get("/api/v1/tenants/" + t.id(), OPERATOR);
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.json().get("name").asString()).isEqualTo(t.name());
        assertThat(got.body()).doesNotContain("cx_");
        assertThat(http.get("/api/v1/tenants?limit=1000", OPERATOR).body()).contains(t.id()).doesNotContain("cx_");

        Answer who = http.get("/api/v1/whoami", t.token());
        assertThat(who.json().get("kind").asString()).isEqualTo("tenant");
        assertThat(who.json().get("tenant").get("id").asString()).isEqualTo(t.id());
        assertThat(who.json().get("scopes").valueStream().map(JsonNode::asString).toList()).containsExactly("admin:*", "read:*", "write:*");

        assertThat(http.post("/api/v1/namespaces", t.token(), "{\"name\": \"m\"}").status()).isEqualTo(201);
        assertThat(http.delete("/api/v1/tenants/" + t.id(), OPERATOR).status()).isEqualTo(204);
        assertProblem(http.get("/api/v1/tenants/" + t.id(), OPERATOR), 404, "tenant-not-found");
        assertProblem(http.delete("/api/v1/tenants/" + t.id(), OPERATOR), 404, "tenant-not-found");
        assertProblem(http.get("/api/v1/namespaces/m", t.token()), 401, "invalid-credentials");
        assertProblem(http.get("/api/v1/tenants/not-a-uuid", OPERATOR), 404, "tenant-not-found");
    }

    @Test
    void quotasReadAndReplaceWithDefaultsForAbsentFields() {
        NewTenant t = tenant();
        Answer q = http.get("/api/v1/tenants/" + t.id() + "/quotas", OPERATOR);
        assertThat(q.json().get("maxSeries").asLong()).isEqualTo(1000);
        assertThat(q.json().get("maxNamespaces").asInt()).isEqualTo(4);
        assertThat(q.json().get("maxRetention").asString()).isEqualTo("P3650D");

        Answer put = http.send("PUT", "/api/v1/tenants/" + t.id() + "/quotas", OPERATOR, "{\"maxNamespaces\": 1, \"maxRetention\": \"P30D\", \"queryTimeout\": \"PT5S\"}");
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(put.json().get("maxNamespaces").asInt()).isEqualTo(1);
        assertThat(put.json().get("maxSeries").asLong()).isEqualTo(1_000_000); // back to the default
        assertThat(put.json().get("queryTimeout").asString()).isEqualTo("PT5S");

        assertProblem(http.post("/api/v1/namespaces", t.token(), "{\"name\": \"long\", \"retention\": \"P31D\"}"), 422, "quota-exceeded");
        assertThat(http.post("/api/v1/namespaces", t.token(), "{\"name\": \"one\"}").status()).isEqualTo(201);
        Answer over = http.post("/api/v1/namespaces", t.token(), "{\"name\": \"two\"}");
        assertProblem(over, 422, "quota-exceeded");
        assertThat(over.json().get("limit").asString()).isEqualTo("maxNamespaces");
        assertThat(over.json().get("value").asString()).isEqualTo("1");
        assertThat(over.json().get("tenant").asString()).isEqualTo(t.id());

        Answer usage = http.get("/api/v1/usage", t.token());
        assertThat(usage.status()).isEqualTo(200);
        assertThat(usage.json().get("maxNamespaces").get("limit").asInt()).isEqualTo(1);
        assertThat(usage.json().get("maxNamespaces").get("used").asInt()).isEqualTo(1);
        assertThat(usage.json().get("maxRetention").get("used").asString()).isEqualTo("P30D");
        assertThat(usage.json().get("maxSeries").get("used").asLong()).isZero();

        Answer bad = http.send("PUT", "/api/v1/tenants/" + t.id() + "/quotas", OPERATOR,
                "{\"maxNamespaces\": -1, \"maxStoredBytes\": 9223372036854775807, \"maxRetention\": \"forever\", \"queryTimeout\": \"P1M\"}");
        assertProblem(bad, 400, "invalid-field");
        assertThat(fields(bad)).containsExactlyInAnyOrder("maxNamespaces", "maxStoredBytes", "maxRetention", "queryTimeout");
        assertProblem(http.send("PUT", "/api/v1/tenants/" + UUID.randomUUID() + "/quotas", OPERATOR, "{}"), 404, "tenant-not-found");
    }

    @Test
    void namespaceCrudAsPerTheContract() {
        NewTenant t = tenant();
        Answer created = http.post("/api/v1/namespaces", t.token(), "{\"name\": \"metrics\", \"retention\": \"P30D\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().get("retention").asString()).isEqualTo("P30D");
        assertThat(created.header("Location")).isEqualTo("/api/v1/namespaces/metrics");

        Answer list = http.get("/api/v1/namespaces", t.token());
        JsonNode first = list.json().get(0);
        assertThat(first.get("name").asString()).isEqualTo("metrics");
        assertThat(first.get("retention").asString()).isEqualTo("P30D");
        assertThat(first.has("createdAt")).isTrue();
        assertThat(first.get("series").asLong()).isZero();
        assertThat(first.get("storedBytes").asLong()).isZero();

        Answer patched = http.send("PATCH", "/api/v1/namespaces/metrics", t.token(), "{\"retention\": \"P60D\", \"coldAfter\": \"P7D\"}");
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(patched.json().get("retention").asString()).isEqualTo("P60D");
        assertThat(patched.json().get("coldAfter").asString()).isEqualTo("P7D");
        assertThat(http.get("/api/v1/namespaces/metrics", t.token()).json().get("coldAfter").asString()).isEqualTo("P7D");

        assertProblem(http.post("/api/v1/namespaces", t.token(), "{\"name\": \"metrics\"}"), 409, "name-taken");
        assertThat(http.delete("/api/v1/namespaces/metrics", t.token()).status()).isEqualTo(204);
        assertProblem(http.get("/api/v1/namespaces/metrics", t.token()), 404, "namespace-not-found");
        assertProblem(http.delete("/api/v1/namespaces/metrics", t.token()), 404, "namespace-not-found");

        // creating touches no disk: nothing under <data>/namespaces for a fresh namespace
        http.post("/api/v1/namespaces", t.token(), "{\"name\": \"fresh\"}");
        long id = directory.namespace(UUID.fromString(t.id()), "fresh").orElseThrow().id();
        assertThat(locations.directory(new NamespaceId(id))).doesNotExist();
    }

    @Test
    void paginationIsCheckedAndApplied() {
        NewTenant t = tenant();
        for (String n : List.of("a", "b", "c")) {
            http.post("/api/v1/namespaces", t.token(), "{\"name\": \"" + n + "\"}");
        }
        Answer page = http.get("/api/v1/namespaces?limit=1&offset=1", t.token());
        assertThat(page.json().valueStream().map(n -> n.get("name").asString()).toList()).containsExactly("b");
        assertThat(fields(http.get("/api/v1/namespaces?limit=0", t.token()))).containsExactly("limit");
        assertThat(fields(http.get("/api/v1/namespaces?offset=-1", t.token()))).containsExactly("offset");
        Answer abc = http.get("/api/v1/tokens?limit=abc", t.token());
        assertProblem(abc, 400, "invalid-field");
        assertThat(fields(abc)).containsExactly("limit");
    }

    @Test
    void namespaceOfAnotherTenantIsNotFoundWithTheSameBody() {
        NewTenant a = tenant();
        NewTenant b = tenant();
        http.post("/api/v1/namespaces", b.token(), "{\"name\": \"secret\"}");
        Answer theirs = http.get("/api/v1/namespaces/secret", a.token());
        Answer none = http.get("/api/v1/namespaces/secret", tenant().token());
        assertProblem(theirs, 404, "namespace-not-found");
        assertThat(theirs.body()).isEqualTo(none.body());
        assertProblem(http.send("PATCH", "/api/v1/namespaces/secret", a.token(), "{\"retention\": \"P1D\"}"), 404, "namespace-not-found");
        assertProblem(http.delete("/api/v1/namespaces/secret", a.token()), 404, "namespace-not-found");
        assertThat(http.get("/api/v1/namespaces", a.token()).body()).doesNotContain("secret");
        assertThat(http.get("/api/v1/namespaces/secret", b.token()).status()).isEqualTo(200);
    }

    @Test
    void scopesAreEnforcedAndRolesKeptApart() {
        NewTenant t = tenant();
        http.post("/api/v1/namespaces", t.token(), "{\"name\": \"metrics\"}");
        http.post("/api/v1/namespaces", t.token(), "{\"name\": \"other\"}");
        String reader = http.post("/api/v1/tokens", t.token(), "{\"description\": \"grafana\", \"scopes\": [\"read:metrics\"]}").json().get("token").asString();
        String nsAdmin = http.post("/api/v1/tokens", t.token(), "{\"scopes\": [\"admin:metrics\"]}").json().get("token").asString();

        Answer refused = http.get("/api/v1/namespaces", reader);
        assertProblem(refused, 403, "missing-scope");
        assertThat(refused.json().get("requiredScope").asString()).isEqualTo("admin:*");
        assertProblem(http.get("/api/v1/namespaces/metrics", reader), 403, "missing-scope");
        assertProblem(http.get("/api/v1/tokens", reader), 403, "missing-scope");
        assertProblem(http.get("/api/v1/usage", reader), 403, "missing-scope");
        assertProblem(http.post("/api/v1/tokens", reader, "{\"scopes\": [\"admin:*\"]}"), 403, "missing-scope");

        assertThat(http.get("/api/v1/namespaces/metrics", nsAdmin).status()).isEqualTo(200);
        assertProblem(http.get("/api/v1/namespaces/other", nsAdmin), 403, "missing-scope");
        assertProblem(http.get("/api/v1/namespaces/missing", nsAdmin), 404, "namespace-not-found");

        assertProblem(http.get("/api/v1/tenants", t.token()), 403, "forbidden");
        assertProblem(http.post("/api/v1/tenants", t.token(), "{\"name\": \"x\"}"), 403, "forbidden");
        assertProblem(http.get("/api/v1/namespaces", OPERATOR), 403, "not-a-tenant");
        Answer none = http.get("/api/v1/namespaces", null);
        assertProblem(none, 401, "unauthenticated");
        assertThat(none.header("WWW-Authenticate")).startsWith("Bearer");
        Answer bad = http.get("/api/v1/namespaces", "cx_aaaaaaaaaaaaaaaa_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
        assertProblem(bad, 401, "invalid-credentials");
        assertThat(bad.header("WWW-Authenticate")).startsWith("Bearer");
    }

    @Test
    void theInfluxTokenSchemeIsAccepted() {
        NewTenant t = tenant();
        Answer a = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(http.base() + "/api/v1/whoami"))
                .header("Authorization", "Token " + t.token()).build());
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().get("kind").asString()).isEqualTo("tenant");
    }

    @Test
    void revokedAndExpiredTokensAreRejectedAtOnce() {
        NewTenant t = tenant();
        Answer created = http.post("/api/v1/tokens", t.token(), "{\"description\": \"ci\", \"scopes\": [\"write:*\", \"admin:*\"]}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String id = created.json().get("id").asString();
        String token = created.json().get("token").asString();
        assertThat(http.get("/api/v1/whoami", token).status()).isEqualTo(200);
        assertThat(http.delete("/api/v1/tokens/" + id, t.token()).status()).isEqualTo(204);
        assertProblem(http.get("/api/v1/whoami", token), 401, "invalid-credentials");
        assertProblem(http.delete("/api/v1/tokens/" + id, t.token()), 404, "token-not-found");

        Answer soon = http.post("/api/v1/tokens", t.token(), "{\"scopes\": [\"read:*\"], \"expiresAt\": \"2999-01-01T00:00:00Z\"}");
        String expiring = soon.json().get("token").asString();
        assertThat(http.get("/api/v1/whoami", expiring).status()).isEqualTo(200);
        jdbc.sql("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ?").param(soon.json().get("id").asString()).update();
        // a verification is cached for TTL (< 1 s); expiry set elsewhere (here: in the database) wins after it
        sleep(io.chronix.api.security.TenantTokenResolver.TTL.toMillis() + 100);
        assertProblem(http.get("/api/v1/whoami", expiring), 401, "invalid-credentials");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anotherTenantsTokenCannotBeRevokedAndAnswersAsMissing() {
        NewTenant a = tenant();
        NewTenant b = tenant();
        String bId = http.post("/api/v1/tokens", b.token(), "{\"scopes\": [\"read:*\"]}").json().get("id").asString();
        Answer theirs = http.delete("/api/v1/tokens/" + bId, a.token());
        assertProblem(theirs, 404, "token-not-found");
        assertThat(http.get("/api/v1/tokens", b.token()).body()).contains(bId);
    }

    @Test
    void aTokensSecretNeverAppearsAfterCreationInAnswersLogsOrTheDatabase(CapturedOutput output) {
        NewTenant t = tenant();
        Answer created = http.post("/api/v1/tokens", t.token(), "{\"description\": \"scan\", \"scopes\": [\"read:*\"]}");
        String token = created.json().get("token").asString();
        String secret = token.substring(token.lastIndexOf('_') + 1);
        String adminSecret = t.token().substring(t.token().lastIndexOf('_') + 1);
        http.get("/api/v1/whoami", token);
        http.get("/api/v1/whoami", token + "x");

        for (Answer a : List.of(http.get("/api/v1/tokens", t.token()), http.get("/api/v1/whoami", token),
                http.get("/api/v1/tenants/" + t.id(), OPERATOR), http.get("/api/v1/tenants?limit=1000", OPERATOR),
                http.get("/api/v1/usage", t.token()), http.get("/api/v1/namespaces", t.token()))) {
            assertThat(a.body()).doesNotContain(secret).doesNotContain(adminSecret);
        }
        JsonNode listed = http.get("/api/v1/tokens", t.token()).json();
        assertThat(listed.valueStream().map(n -> n.get("description").asString())).contains("scan");
        assertThat(listed.valueStream().filter(n -> n.has("token"))).isEmpty();

        assertThat(output.getAll()).contains("TokenCreated[").doesNotContain(secret).doesNotContain(adminSecret);

        for (String table : jdbc.sql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'").query(String.class).list()) {
            for (Map<String, Object> row : jdbc.sql("SELECT row_to_json(x)::text AS j FROM \"" + table + "\" x").query().listOfRows()) {
                assertThat(String.valueOf(row.get("j"))).as(table).doesNotContain(secret).doesNotContain(adminSecret);
            }
        }
    }

    @Test
    void badBodiesNameTheField() {
        NewTenant t = tenant();
        Answer unknown = http.post("/api/v1/namespaces", t.token(), "{\"name\": \"x\", \"retension\": \"P1D\"}");
        assertProblem(unknown, 400, "unknown-field");
        assertThat(fields(unknown)).containsExactly("retension");
        Answer nested = http.post("/api/v1/tenants", OPERATOR, "{\"name\": \"n1\", \"quotas\": {\"maxSeriez\": 1}}");
        assertProblem(nested, 400, "unknown-field");
        assertThat(fields(nested)).containsExactly("quotas.maxSeriez");
        assertProblem(http.post("/api/v1/namespaces", t.token(), "{\"name\": "), 400, "malformed-json");
        Answer typed = http.post("/api/v1/tenants", OPERATOR, "{\"name\": \"n2\", \"quotas\": {\"maxSeries\": \"lots\"}}");
        assertProblem(typed, 400, "malformed-json");
        assertThat(fields(typed)).containsExactly("quotas.maxSeries");
        Answer duration = http.post("/api/v1/namespaces", t.token(), "{\"name\": \"x\", \"retention\": \"30 days\"}");
        assertProblem(duration, 400, "invalid-field");
        assertThat(fields(duration)).containsExactly("retention");
        Answer scopes = http.post("/api/v1/tokens", t.token(), "{\"scopes\": [\"read:*\", \"root\"]}");
        assertThat(fields(scopes)).containsExactly("scopes[1]");
        assertProblem(http.post("/api/v1/tenants", OPERATOR, "{\"name\": \"" + t.name() + "\"}"), 409, "name-taken");
        Answer tenant = http.post("/api/v1/tenants", OPERATOR, "{\"name\": \"Bad Name\", \"adminEmail\": \"x@example.com\"}");
        assertThat(fields(tenant)).containsExactlyInAnyOrder("name", "adminPassword");
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"../x", "..", "%2e%2e", "a%2Fb", "x%00y", "\u0430dmin", "A", "caf\u00e9",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void hostileNamesAreRefusedAndNeverTouchTheDisk(String name) {
        NewTenant t = tenant();
        String json = TestHttp.JSON.writeValueAsString(Map.of("name", java.net.URLDecoder.decode(name, StandardCharsets.UTF_8)));
        Answer a = http.post("/api/v1/namespaces", t.token(), json);
        assertProblem(a, 400, "invalid-field");
        assertThat(fields(a)).containsExactly("name");
        Answer lookup = http.get("/api/v1/namespaces/" + URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20"), t.token());
        assertThat(lookup.status()).isIn(400, 404);
        assertThat(data.resolve("namespaces")).satisfiesAnyOf(
                p -> assertThat(p).doesNotExist(),
                p -> assertThat(Files.list(p)).allSatisfy(c -> assertThat(c.getFileName().toString()).matches("[0-9]+")));
    }

    @Test
    void deletedNamespacesDataIsRemovedInTheBackgroundFromTheIdOnly() throws Exception {
        NewTenant t = tenant();
        http.post("/api/v1/namespaces", t.token(), "{\"name\": \"doomed\"}");
        http.post("/api/v1/namespaces", t.token(), "{\"name\": \"kept\"}");
        UUID tenant = UUID.fromString(t.id());
        NamespaceId doomed = new NamespaceId(directory.namespace(tenant, "doomed").orElseThrow().id());
        NamespaceId kept = new NamespaceId(directory.namespace(tenant, "kept").orElseThrow().id());
        for (NamespaceId id : List.of(doomed, kept)) {
            Path dir = locations.directory(id);
            Files.createDirectories(dir.resolve("wal"));
            Files.writeString(dir.resolve("wal/wal_00000000000000000001.cxwl"), "x");
            cold.put(new SegmentPath(id, new ShardId(1), "seg_1_0.csx"), new byte[]{1, 2, 3});
        }

        assertThat(http.delete("/api/v1/namespaces/doomed", t.token()).status()).isEqualTo(204);
        assertThat(locations.directory(doomed)).exists(); // removal is in the background
        assertThat(reaper.runOnce()).isGreaterThanOrEqualTo(1);

        assertThat(locations.directory(doomed)).doesNotExist();
        assertThat(cold.list(doomed)).isEmpty();
        assertThat(locations.directory(kept)).exists();
        assertThat(cold.list(kept)).hasSize(1);
        assertThat(jdbc.sql("SELECT count(*) FROM pending_deletions WHERE namespace_id = ?").param(doomed.value()).query(Long.class).single()).isZero();

        // the same for a whole tenant
        assertThat(http.delete("/api/v1/tenants/" + t.id(), OPERATOR).status()).isEqualTo(204);
        reaper.runOnce();
        assertThat(locations.directory(kept)).doesNotExist();
        assertThat(cold.list(kept)).isEmpty();
    }

    @Test
    void frameworkErrorsCarryAnErrorIdToo() {
        NewTenant t = tenant();
        assertProblem(http.send("PUT", "/api/v1/namespaces", t.token(), "{}"), 405, "method-not-allowed");
        assertProblem(http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(http.base() + "/api/v1/namespaces"))
                .header("Authorization", "Bearer " + t.token()).header("Content-Type", "text/plain")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("name=x")).build()), 415, "unsupported-media-type");
        assertProblem(http.get("/api/v1/no-such-endpoint", t.token()), 404, "not-found");
    }

    @Test
    void theOpenApiDescriptionHasEveryTenancyEndpoint() {
        String docs = http.get("/v3/api-docs", null).body();
        assertThat(docs).contains("/api/v1/tenants", "/api/v1/tenants/{id}", "/api/v1/tenants/{id}/quotas", "/api/v1/namespaces",
                "/api/v1/namespaces/{ns}", "/api/v1/tokens", "/api/v1/tokens/{id}", "/api/v1/usage", "/console/login", "\"example\"");
    }
}

package io.chronix.it.tenancy;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import io.chronix.it.tenancy.TenancyClient.Tenant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two tenants with namespaces and tokens; for every endpoint of API.md that takes a namespace or an
 * id, tenant A's credentials against tenant B's objects. Every answer is 404 (403 where the scope or
 * role decides), never data; a 404 for B's namespace is byte for byte the 404 for a namespace that
 * exists nowhere (with the name swapped). Endpoints of later issues are in the sweep already: while
 * they are missing they answer 404 too, and the sweep holds them to the same rule once they exist.
 */
class CrossTenantSweepIT {

    static final String OPERATOR = "it-operator-token-tenancy-sweep";
    static final String SHARED = "shared";        // a namespace name both tenants have
    static final String B_ONLY = "bprivate";      // only B has it
    static final String NOWHERE = "nowhere0";     // nobody has it; same length as B_ONLY
    static final String MEASUREMENT = "cpu";

    @TempDir
    static Path data;
    static ServiceProcess service;
    static TenancyClient client;
    static Tenant a;
    static Tenant b;
    static String bTokenId;
    static String aScopedToken;

    @BeforeAll
    static void twoTenants() throws Exception {
        List<String> args = new ArrayList<>(ExternalServices.fresh().args());
        args.add("--chronix.operator-token=" + OPERATOR);
        service = ServiceProcess.start(data, args);
        client = new TenancyClient(service);
        String suffix = UUID.randomUUID().toString().substring(0, 6);
        a = client.createTenant(OPERATOR, "alpha-" + suffix);
        b = client.createTenant(OPERATOR, "bravo-" + suffix);
        client.createNamespace(a.adminToken(), SHARED);
        client.createNamespace(b.adminToken(), SHARED);
        client.createNamespace(b.adminToken(), B_ONLY);
        bTokenId = client.createToken(b.adminToken(), "[\"read:*\"]").get("id").asString();
        aScopedToken = client.createToken(a.adminToken(), "[\"read:" + B_ONLY + "\", \"write:" + B_ONLY + "\", \"admin:" + B_ONLY + "\"]")
                .get("token").asString();
    }

    @AfterAll
    static void stop() throws Exception {
        if (service != null) {
            service.stop();
        }
    }

    /** One request of the sweep: method, path with {ns} for the namespace, content type and body. */
    record Call(String method, String path, String contentType, String body) {
        String on(String ns) {
            return path.replace("{ns}", ns);
        }
    }

    static final String JSON = "application/json";
    static final String LP = "text/plain; charset=utf-8";

    /** Every endpoint of API.md that takes a namespace. */
    static List<Call> namespaceCalls() {
        return List.of(
                new Call("GET", "/api/v1/namespaces/{ns}", null, null),
                new Call("PATCH", "/api/v1/namespaces/{ns}", JSON, "{\"retention\": \"P1D\"}"),
                new Call("POST", "/api/v1/namespaces/{ns}/write", LP, MEASUREMENT + ",host=h1 usage=1 1700000000000000000\n"),
                new Call("POST", "/api/v1/namespaces/{ns}/write?precision=s&accept_partial=true", LP, MEASUREMENT + " usage=1 1700000000\n"),
                new Call("POST", "/api/v2/write?bucket={ns}&org=x&precision=ns", LP, MEASUREMENT + " usage=1 1700000000000000000\n"),
                new Call("POST", "/write?db={ns}&precision=n", LP, MEASUREMENT + " usage=1 1700000000000000000\n"),
                new Call("POST", "/api/v1/namespaces/{ns}/query", JSON, "{\"sql\": \"SELECT * FROM " + MEASUREMENT + "\"}"),
                new Call("GET", "/api/v1/namespaces/{ns}/query?sql=SELECT%201", null, null),
                new Call("GET", "/api/v1/namespaces/{ns}/measurements", null, null),
                new Call("GET", "/api/v1/namespaces/{ns}/measurements/" + MEASUREMENT, null, null),
                new Call("GET", "/api/v1/namespaces/{ns}/last?measurement=" + MEASUREMENT + "&tag.host=h1", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/delete", JSON, "{\"measurement\": \"" + MEASUREMENT + "\"}"),
                new Call("GET", "/api/v1/namespaces/{ns}/rollups", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/rollups", JSON, "{\"name\": \"cpu_1h\", \"source\": \"cpu\", \"target\": \"cpu_1h\", \"every\": \"1h\", \"aggregates\": [\"avg\"]}"),
                new Call("GET", "/api/v1/namespaces/{ns}/rollups/cpu_1h", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/rollups/cpu_1h/refresh", JSON, "{}"),
                new Call("DELETE", "/api/v1/namespaces/{ns}/rollups/cpu_1h", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/flush", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/compact", null, null),
                new Call("POST", "/api/v1/namespaces/{ns}/archive", null, null),
                // last, so the sweep above ran against a namespace that still exists for B
                new Call("DELETE", "/api/v1/namespaces/{ns}", null, null));
    }

    @Test
    void theSweepIsNotVacuous() throws Exception {
        // A's credentials work, and B's namespaces exist for B: a 404 below is isolation, not a typo
        assertThat(client.json("GET", "/api/v1/namespaces/" + SHARED, a.adminToken(), null).statusCode()).isEqualTo(200);
        assertThat(client.json("GET", "/api/v1/namespaces/" + B_ONLY, b.adminToken(), null).statusCode()).isEqualTo(200);
        assertThat(client.json("GET", "/api/v1/whoami", aScopedToken, null).statusCode()).isEqualTo(200);
        assertThat(namespaceCalls()).hasSizeGreaterThanOrEqualTo(20);
    }

    @Test
    void tenantACannotReachTenantBsNamespacesThroughAnyEndpoint() throws Exception {
        for (String token : List.of(a.adminToken(), aScopedToken)) {
            for (Call call : namespaceCalls()) {
                HttpResponse<String> theirs = client.send(call.method(), call.on(B_ONLY), token, call.contentType(), call.body());
                HttpResponse<String> nowhere = client.send(call.method(), call.on(NOWHERE), token, call.contentType(), call.body());
                String what = call.method() + " " + call.on(B_ONLY) + " -> " + theirs.statusCode() + " " + theirs.body();
                assertThat(theirs.statusCode()).as(what).isEqualTo(404);
                assertThat(theirs.body().replace(B_ONLY, NOWHERE)).as(what).isEqualTo(nowhere.body());
                assertNoDataOfB(theirs, what);
            }
        }
        // B's namespace is untouched by all of it (PATCH, delete, DELETE were all refused)
        HttpResponse<String> still = client.json("GET", "/api/v1/namespaces/" + B_ONLY, b.adminToken(), null);
        assertThat(still.statusCode()).isEqualTo(200);
        assertThat(still.body()).contains("\"retention\":\"P30D\"");
    }

    @Test
    void aNameBothTenantsHaveIsAlwaysTheCallersOwn() throws Exception {
        HttpResponse<String> mine = client.json("PATCH", "/api/v1/namespaces/" + SHARED, a.adminToken(), "{\"retention\": \"P2D\"}");
        assertThat(mine.statusCode()).as(mine.body()).isEqualTo(200);
        assertThat(client.json("GET", "/api/v1/namespaces/" + SHARED, b.adminToken(), null).body()).contains("\"retention\":\"P30D\"");
        assertThat(client.json("GET", "/api/v1/namespaces", a.adminToken(), null).body()).doesNotContain(B_ONLY);
    }

    @Test
    void tenantACannotRevokeTenantBsTokens() throws Exception {
        HttpResponse<String> r = client.json("DELETE", "/api/v1/tokens/" + bTokenId, a.adminToken(), null);
        HttpResponse<String> none = client.json("DELETE", "/api/v1/tokens/" + "a".repeat(bTokenId.length()), a.adminToken(), null);
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(r.body().replace(bTokenId, "a".repeat(bTokenId.length()))).isEqualTo(none.body());
        assertThat(client.json("GET", "/api/v1/tokens", b.adminToken(), null).body()).contains(bTokenId);
        assertThat(client.json("GET", "/api/v1/tokens", a.adminToken(), null).body()).doesNotContain(bTokenId);
    }

    @Test
    void tenantCredentialsReachNoTenantById() throws Exception {
        for (String token : List.of(a.adminToken(), aScopedToken)) {
            for (Call call : List.of(new Call("GET", "/api/v1/tenants/" + b.id(), null, null),
                    new Call("DELETE", "/api/v1/tenants/" + b.id(), null, null),
                    new Call("GET", "/api/v1/tenants/" + b.id() + "/quotas", null, null),
                    new Call("PUT", "/api/v1/tenants/" + b.id() + "/quotas", JSON, "{\"maxNamespaces\": 0}"),
                    new Call("GET", "/api/v1/tenants", null, null),
                    new Call("GET", "/api/v1/tenants/" + a.id(), null, null))) {
                HttpResponse<String> r = client.send(call.method(), call.path(), token, call.contentType(), call.body());
                String what = call.method() + " " + call.path() + " -> " + r.statusCode() + " " + r.body();
                assertThat(r.statusCode()).as(what).isEqualTo(403);
                assertNoDataOfB(r, what);
            }
        }
        assertThat(client.json("GET", "/api/v1/tenants/" + b.id(), OPERATOR, null).statusCode()).isEqualTo(200);
    }

    @Test
    void hostileNamesAreRefusedAndNeverBecomePaths() throws Exception {
        // a name of this run's own, so that the check below cannot be fooled by (or trip over) an
        // "x" some other program left beside the data directory
        String x = "x" + Long.toHexString(new java.util.Random().nextLong() >>> 1);
        List<String> hostile = List.of("../" + x, "..", "%2e%2e", "%2e%2e%2f" + x, x + "%00y", "%00", "a".repeat(64), "a".repeat(5000),
                "\u0430dmin", "caf\u00e9", "METRICS", "a b", "a/b", "a\\\\b");
        for (String name : hostile) {
            String body = "{\"name\": \"" + name.replace("%00", "\\u0000") + "\"}";
            HttpResponse<String> created = client.json("POST", "/api/v1/namespaces", a.adminToken(), body);
            assertThat(created.statusCode()).as(name + " -> " + created.body()).isEqualTo(400);
            assertThat(created.body()).as(name).contains("\"field\":\"name\"");
        }
        for (String raw : List.of("..%2f" + x, "%2e%2e", "%2e%2e%2f%2e%2e", x + "%00y", "%C0%AE%C0%AE", "a".repeat(5000), "%D0%B0dmin")) {
            HttpResponse<String> r = client.json("GET", "/api/v1/namespaces/" + raw, a.adminToken(), null);
            assertThat(r.statusCode()).as(raw + " -> " + r.body()).isIn(400, 404);
        }
        // the only entries a service ever makes under <data>/namespaces are numeric ids
        Path namespaces = data.resolve("namespaces");
        if (Files.exists(namespaces)) {
            try (Stream<Path> entries = Files.list(namespaces)) {
                assertThat(entries).allSatisfy(p -> assertThat(p.getFileName().toString()).matches("[1-9][0-9]*"));
            }
        }
        assertThat(data.resolve(x)).doesNotExist();
        assertThat(data.getParent().resolve(x)).doesNotExist();
    }

    private static void assertNoDataOfB(HttpResponse<String> r, String what) {
        assertThat(r.body()).as(what).doesNotContain(b.id()).doesNotContain(b.name()).doesNotContain(bTokenId)
                .doesNotContain("\"retention\"").doesNotContain("\"series\"").doesNotContain("\"rows\"");
    }
}

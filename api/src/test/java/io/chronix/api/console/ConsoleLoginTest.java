package io.chronix.api.console;

import io.chronix.api.security.TestHttp;
import io.chronix.api.security.TestHttp.Answer;
import io.chronix.api.testing.ServiceTestProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** Console form login with session and CSRF, and the throttle on failed logins, over HTTP. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "chronix.console.login.max-failures-per-account=3", "chronix.console.login.max-failures-per-address=6"})
class ConsoleLoginTest {

    static final String OPERATOR = "operator-token-for-console-tests";
    static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    @TempDir
    static Path data;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        ServiceTestProperties.register(registry, data, OPERATOR);
    }

    @Value("${local.server.port}")
    int port;

    private String tenantWithUser() {
        String name = "c" + UUID.randomUUID().toString().substring(0, 8);
        Answer a = new TestHttp(port).post("/api/v1/tenants", OPERATOR,
                "{\"name\": \"" + name + "\", \"adminEmail\": \"" + name + "@example.com\", \"adminPassword\": \"a good password\"}");
        assertThat(a.status()).as(a.body()).isEqualTo(201);
        return name + "@example.com";
    }

    private static String csrf(TestHttp browser) {
        Answer page = browser.get("/console/login", null);
        assertThat(page.status()).isEqualTo(200);
        Matcher m = CSRF.matcher(page.body());
        assertThat(m.find()).as(page.body()).isTrue();
        return m.group(1);
    }

    private static Answer login(TestHttp browser, String csrf, String email, String password) {
        String form = "email=" + URLEncoder.encode(email, StandardCharsets.UTF_8) + "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8)
                + (csrf == null ? "" : "&_csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8));
        return browser.form("/console/login", form);
    }

    /** The session cookie a console answer sets, as the header says it. */
    private static String sessionCookie(Answer a) {
        return a.raw().headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID=")).findFirst()
                .orElseThrow(() -> new AssertionError("no session cookie in " + a.raw().headers().map()));
    }

    @Test
    void theSessionCookieIsHttpOnlyAndSentOnlyOnSameSiteRequests() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        Answer page = browser.get("/console/login", null);
        assertThat(sessionCookie(page)).contains("; HttpOnly").contains("; SameSite=Strict");

        Answer ok = login(browser, csrf(browser), email, "a good password");
        assertThat(ok.status()).isEqualTo(302);
        assertThat(ok.header("Location")).doesNotContain("error");
        // the login gives the session a new id, in a cookie with the same attributes
        assertThat(sessionCookie(ok)).isNotEqualTo(sessionCookie(page)).contains("; HttpOnly").contains("; SameSite=Strict");
        // the form posts to the console's own origin and the redirect stays on it: the flow works with Strict
        assertThat(browser.get("/console/session", null).status()).isEqualTo(200);
    }

    @Test
    void loginGivesASessionThatKnowsTheTenantAndLogoutEndsIt() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        assertThat(browser.get("/console/session", null).status()).isEqualTo(302); // to the login page

        Answer ok = login(browser, csrf(browser), email.toUpperCase(), "a good password");
        assertThat(ok.status()).isEqualTo(302);
        assertThat(ok.header("Location")).contains("/console/").doesNotContain("error"); // the saved request, or /console/

        Answer session = browser.get("/console/session", null);
        assertThat(session.status()).as(session.body()).isEqualTo(200);
        assertThat(session.json().get("kind").asString()).isEqualTo("tenant");
        assertThat(session.json().get("email").asString()).isEqualTo(email);
        assertThat(session.json().get("tenant").get("name").asString()).isEqualTo(email.substring(0, email.indexOf('@')));
        String token = session.json().get("csrf").get("token").asString();

        assertThat(browser.form("/console/logout", "").status()).isEqualTo(403); // no CSRF token
        assertThat(browser.form("/console/logout", "_csrf=" + URLEncoder.encode(token, StandardCharsets.UTF_8)).status()).isEqualTo(302);
        assertThat(browser.get("/console/session", null).status()).isEqualTo(302);
    }

    @Test
    void aSessionEndsWhenItsTenantIsDeleted() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        assertThat(login(browser, csrf(browser), email, "a good password").status()).isEqualTo(302);
        Answer session = browser.get("/console/session", null);
        assertThat(session.status()).isEqualTo(200);
        String tenantId = session.json().get("tenant").get("id").asString();
        assertThat(new TestHttp(port).delete("/api/v1/tenants/" + tenantId, OPERATOR).status()).isEqualTo(204);
        assertThat(browser.get("/console/session", null).status()).isEqualTo(302);
        assertThat(login(browser, csrf(browser), email, "a good password").header("Location")).endsWith("/console/login?error");
    }

    @Test
    void aConsoleSessionReachesTheAdminApiWithCsrfForChanges() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        assertThat(login(browser, csrf(browser), email, "a good password").status()).isEqualTo(302);
        Answer session = browser.get("/console/session", null);
        String header = session.json().get("csrf").get("headerName").asString();
        String token = session.json().get("csrf").get("token").asString();

        assertThat(browser.get("/api/v1/namespaces", null).status()).isEqualTo(200);
        assertThat(browser.get("/api/v1/whoami", null).json().get("kind").asString()).isEqualTo("tenant");
        Answer forged = browser.post("/api/v1/namespaces", null, "{\"name\": \"fromconsole\"}");
        assertThat(forged.status()).isEqualTo(403);
        assertThat(forged.json().get("errorId").asString()).isEqualTo("csrf-token-invalid");
        Answer created = browser.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(browser.base() + "/api/v1/namespaces"))
                .header("Content-Type", "application/json").header(header, token)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\": \"fromconsole\"}")).build());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        // a session never reaches the operator's endpoints
        assertThat(browser.get("/api/v1/tenants", null).status()).isEqualTo(403);
    }

    @Test
    void theApiNeverCreatesASession() {
        String email = tenantWithUser();
        TestHttp client = new TestHttp(port, true);
        String adminToken = new TestHttp(port).post("/api/v1/tenants", OPERATOR,
                "{\"name\": \"s" + UUID.randomUUID().toString().substring(0, 8) + "\"}").json().get("adminToken").asString();
        Answer a = client.get("/api/v1/namespaces", adminToken);
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.header("Set-Cookie")).isNull();
        assertThat(client.post("/api/v1/namespaces", adminToken, "{\"name\": \"nocsrf\"}").status()).isEqualTo(201);
        assertThat(email).isNotEmpty();
    }

    @Test
    void loginWithoutCsrfIsRefused() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        csrf(browser);
        assertThat(login(browser, null, email, "a good password").status()).isEqualTo(403);
        assertThat(browser.get("/console/session", null).status()).isEqualTo(302);
    }

    @Test
    void failedLoginsAreThrottledPerAccountEvenForTheRightPassword() {
        String email = tenantWithUser();
        TestHttp browser = new TestHttp(port, true);
        String csrf = csrf(browser);
        for (int i = 0; i < 3; i++) {
            Answer bad = login(browser, csrf, email, "wrong password " + i);
            assertThat(bad.status()).isEqualTo(302);
            assertThat(bad.header("Location")).endsWith("/console/login?error");
        }
        Answer locked = login(browser, csrf, email, "a good password");
        assertThat(locked.status()).isEqualTo(429);
        assertThat(locked.header("Retry-After")).matches("[0-9]+");
        assertThat(locked.json().get("errorId").asString()).isEqualTo("login-throttled");
        assertThat(browser.get("/console/session", null).status()).isEqualTo(302);
    }

    @Test
    void anUnknownEmailFailsLikeAWrongPassword() {
        TestHttp browser = new TestHttp(port, true);
        Answer a = login(browser, csrf(browser), "nobody-" + UUID.randomUUID() + "@example.com", "whatever it is");
        assertThat(a.status()).isEqualTo(302);
        assertThat(a.header("Location")).endsWith("/console/login?error");
    }
}

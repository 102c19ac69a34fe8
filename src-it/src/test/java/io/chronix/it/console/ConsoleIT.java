package io.chronix.it.console;

import io.chronix.it.support.ExternalServices;
import io.chronix.it.support.ServiceProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console in a real browser against the real service: the issue's scenario from sign-in to
 * sign-out, tenant isolation, CSRF, labels, times, and a clean browser console.
 */
class ConsoleIT {

    static final String OPERATOR = "it-operator-token-console";
    static final String PASSWORD = "a good password";
    static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path data;
    static ServiceProcess service;

    @BeforeAll
    static void startService() throws Exception {
        List<String> args = new ArrayList<>(ExternalServices.fresh().args());
        args.add("--chronix.operator-token=" + OPERATOR);
        service = ServiceProcess.start(data, args);
    }

    @AfterAll
    static void stopService() throws Exception {
        if (service != null) {
            service.stop();
        }
    }

    record Tenant(String id, String name, String email, String adminToken) {
    }

    static Tenant tenant(String name) throws Exception {
        HttpResponse<String> r = json("POST", "/api/v1/tenants", OPERATOR,
                "{\"name\": \"" + name + "\", \"adminEmail\": \"admin@" + name + ".example\", \"adminPassword\": \"" + PASSWORD + "\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        JsonNode j = JSON.readTree(r.body());
        return new Tenant(j.get("id").asString(), name, "admin@" + name + ".example", j.get("adminToken").asString());
    }

    static HttpResponse<String> json(String method, String path, String bearer, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(service.uri(path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return service.send(b, bearer);
    }

    static HttpResponse<String> write(String token, String ns, String lines) throws Exception {
        return service.send(HttpRequest.newBuilder(service.uri("/api/v1/namespaces/" + ns + "/write"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(lines)), token);
    }

    /** A request with the browser's session cookie and nothing else: what a forged cross-site post brings. */
    static HttpResponse<String> withSession(Browser b, String method, String path, String contentType, String body, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(service.uri(path)).header("Cookie", "JSESSIONID=" + b.cookie("JSESSIONID"))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            r.header("Content-Type", contentType);
        }
        for (int i = 0; i < headers.length; i += 2) {
            r.header(headers[i], headers[i + 1]);
        }
        return service.send(r, null);
    }

    static void signIn(Browser b, Tenant t, String password) {
        b.open(service.uri("/console/").toString());
        b.await("#login-form");
        b.find("#email").clear();
        b.find("#email").sendKeys(t.email());
        b.find("#password").sendKeys(password, Keys.ENTER); // the keyboard alone signs in
    }

    static void assertLabelled(Browser b, String page) {
        assertThat(b.unlabelledControls()).as("controls without a label on " + page).isEmpty();
    }

    @Test
    void fromSignInToSignOutEveryPageActsThroughThePublicApi() throws Exception {
        Tenant acme = tenant("acme");
        long now = System.currentTimeMillis() * 1_000_000L;
        try (Browser b = Browser.start()) {
            try {
                scenario(b, acme, now);
            } catch (Throwable t) {
                throw new AssertionError(t.getMessage() + "\n" + b.diagnose("scenario"), t);
            }
        }
    }

    private static void scenario(Browser b, Tenant acme, long now) throws Exception {
        {
            // sign-in: a wrong password is told in place, then the right one opens the overview
            b.open(service.uri("/console/").toString());
            assertThat(b.driver.getCurrentUrl()).endsWith("/console/login");
            b.await("#login-form");
            b.screenshot("login");
            signIn(b, acme, "not the password");
            b.awaitText("#login-message", "Wrong e-mail or password.");
            assertLabelled(b, "login");
            b.find("#password").sendKeys(PASSWORD, Keys.ENTER);
            b.await("[data-page='overview'][data-ready='true']");
            assertThat(b.find("#tenant-name").getText()).isEqualTo("acme");
            assertThat(b.find("#user-email").getAttribute("textContent")).isEqualTo(acme.email());
            assertThat(b.all("[data-quota]")).hasSize(4);
            assertThat(b.find("#no-limit-events").getText()).contains("No write was refused");
            assertLabelled(b, "overview");

            // namespaces: the rule is checked at the field, then one is created with the keyboard
            b.page("namespaces");
            WebElement name = b.find("#create-namespace input[name=name]");
            name.sendKeys("Not Valid");
            b.find("#create-namespace button[type=submit]").click();
            WebElement nameError = b.find("#" + name.getAttribute("id") + "-error");
            assertThat(nameError.isDisplayed()).isTrue();
            assertThat(nameError.getText()).contains("Not a valid name");
            assertThat(name.getAttribute("aria-invalid")).isEqualTo("true");
            name.clear();
            name.sendKeys("metrics", Keys.TAB, "P30D", Keys.ENTER);
            b.await("tr[data-namespace='metrics']");
            assertThat(b.find("tr[data-namespace='metrics']").getText()).contains("30 days");
            assertThat(b.find("tr[data-namespace='metrics'] time").getAttribute("title")).startsWith("UTC 20");
            assertLabelled(b, "namespaces");
            // edit retention; delete another one only after typing its name
            b.find("tr[data-namespace='metrics'] button[aria-label='Edit metrics']").click();
            WebElement retention = b.await("input[name=retention][value='P30D']");
            retention.clear();
            retention.sendKeys("P60D", Keys.ENTER);
            b.awaitText("tr[data-namespace='metrics']", "60 days");
            b.find("#create-namespace input[name=name]").sendKeys("scratch", Keys.ENTER);
            b.await("tr[data-namespace='scratch'] button.danger").click();
            WebElement confirm = b.await("dialog[open] button.danger");
            assertThat(confirm.isEnabled()).isFalse();
            b.find("dialog[open] input").sendKeys("scratc");
            assertThat(confirm.isEnabled()).isFalse();
            b.find("dialog[open] input").sendKeys("h");
            assertThat(confirm.isEnabled()).isTrue();
            confirm.click();
            b.awaitGone("tr[data-namespace='scratch']");
            assertThat(json("GET", "/api/v1/namespaces/scratch", acme.adminToken(), null).statusCode()).isEqualTo(404);
            b.fullPage("namespaces", 1366);

            // tokens: scopes per namespace, the secret shown once, never in the list
            b.page("tokens");
            b.find("#create-token input[name=description]").sendKeys("e2e writer");
            b.find("input[value='write:metrics']").click();
            b.find("input[value='read:metrics']").click();
            b.find("#create-token button[type=submit]").click();
            String token = b.await("#new-token").getText();
            assertThat(token).startsWith("cx_");
            assertThat(b.find("#token-result").getText()).contains("will not be shown again");
            String tokenId = token.split("_")[1];
            b.await("tr[data-token='" + tokenId + "']");
            assertThat(b.find("tr[data-token='" + tokenId + "']").getText()).contains("write:metrics").contains("read:metrics").doesNotContain(token);
            assertLabelled(b, "tokens");
            b.fullPage("tokens", 1366);

            // the token works with the write API
            StringBuilder lines = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                long ts = now - (200 - i) * 10_000_000_000L;
                lines.append("cpu,host=h").append(i % 2 + 1).append(" usage=").append(20 + 30 * Math.sin(i / 12.0) + (i % 2) * 25)
                        .append(",count=").append(i).append("i ").append(ts).append('\n');
            }
            assertThat(write(token, "metrics", lines.toString()).statusCode()).isEqualTo(204);

            // explorer: measurements and columns, a query by Ctrl+Enter, its table and chart
            b.open(service.uri("/console/#/explorer?ns=metrics").toString());
            b.await("[data-page='explorer'][data-ready='true']");
            assertThat(b.find("#columns").getText()).contains("host").contains("tag").contains("usage").contains("DOUBLE").contains("BIGINT");
            assertThat(b.find("#write-snippet").getText()).contains("/api/v1/namespaces/metrics/write").contains("cpu,host=");
            b.find("#snippet-token").sendKeys(token);
            assertThat(b.find("#write-snippet").getText()).contains("Bearer " + token);
            WebElement sql = b.find("#sql");
            sql.clear();
            sql.sendKeys("SELECT time, host, usage FROM cpu ORDER BY time", Keys.chord(Keys.CONTROL, Keys.ENTER));
            b.await("#query-chart canvas");
            b.awaitText("#stat-rows", "200 rows");
            assertThat(b.find("#stat-scanned").getText()).isEqualTo("200 rows scanned");
            assertThat(b.find("#stat-bytes").getText()).endsWith("scanned");
            assertThat(b.all("#query-result tbody tr")).hasSize(200);
            assertThat(b.find("#query-chart").getText()).contains("host=h1 usage").contains("host=h2 usage");
            assertThat(b.colouredPixels("#query-chart canvas")).as("coloured pixels of the chart").isGreaterThan(500);
            assertLabelled(b, "explorer");
            b.fullPage("explorer", 1366);
            b.find("#download-csv").click();
            String csv = b.downloaded("metrics-query.csv");
            assertThat(csv.lines().toList()).hasSize(201).first().isEqualTo("time,host,usage");
            // an SQL error is shown with its position (Chromium logs the 400 it answered)
            sql.clear();
            sql.sendKeys("SELECT time,\n  nope FROM cpu", Keys.chord(Keys.CONTROL, Keys.ENTER));
            b.await("#query-error");
            assertThat(b.find("#query-error").getText()).contains("Binder Error").contains("line 2");
            assertThat(b.find("#sql-error-position").getText()).contains("nope FROM cpu").contains("^");
            assertThat(b.consoleErrors(Pattern.compile("/api/v1/namespaces/metrics/query .*status of 400"))).isEmpty();

            // a quota refuses a write: the overview shows the series bar red and the event
            assertThat(json("PUT", "/api/v1/tenants/" + acme.id() + "/quotas", OPERATOR, "{\"maxSeries\": 2}").statusCode()).isEqualTo(200);
            Thread.sleep(1100); // the service caches quotas for a second
            assertThat(write(token, "metrics", "cpu,host=h3 usage=1 " + now).statusCode()).isEqualTo(422);

            // the overview now shows the day's points. The series count comes with the usage report,
            // every few seconds: until it has arrived, the page shows the count before the writes
            b.page("overview");
            long reported = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!b.find("[data-quota='Series']").getText().contains("2 of 2") && System.nanoTime() < reported) {
                Thread.sleep(500);
                b.page("tokens");
                b.page("overview");
            }
            b.await("#points-chart canvas");
            assertThat(b.find("[data-quota='Series']").getAttribute("class")).contains("red");
            assertThat(b.find("[data-quota='Series']").getText()).contains("2 of 2").contains("at the limit");
            assertThat(b.find("main").getText()).contains("Series: 1").contains("quota-max-series");
            assertThat(b.find("main time").getAttribute("title")).startsWith("UTC 20");
            assertThat(b.colouredPixels("#points-chart canvas")).as("coloured pixels of the points chart").isGreaterThan(20);
            b.fullPage("overview", 1366);

            // lifecycle: the dry-run count comes first (rollups: rollupsAreCreatedListedWithTheirWatermarkAndDeleted)
            b.page("lifecycle");
            assertThat(b.find("#no-rollups").getText()).contains("No rollups in this namespace yet");
            new Select(b.find("#delete-namespace")).selectByValue("metrics");
            b.awaitText("#delete-measurement", "cpu");
            assertThat(b.find("#delete-run").isEnabled()).isFalse();
            b.find("#delete-tags").sendKeys("host=h1");
            b.find("#delete-dry-run").click();
            b.awaitText("#dry-run-count", "100 points in 1 series");
            assertThat(b.find("#delete-run").isEnabled()).isTrue();
            assertThat(b.find("#delete-run").getText()).isEqualTo("Delete 100 points");
            b.find("#flush-now").click();
            b.awaitText("#maintenance-result", "Flushed ");
            b.find("#compact-now").click();
            b.awaitText("#maintenance-result", " ms.");
            assertLabelled(b, "lifecycle");
            b.fullPage("lifecycle", 1366);

            // a phone-sized window
            b.driver.manage().window().setSize(new Dimension(390, 844));
            b.page("overview");
            assertThat(((Number) b.js("return document.documentElement.scrollWidth")).intValue()).as("no sideways scrolling").isLessThanOrEqualTo(390);
            b.screenshot("overview-phone");
            b.driver.manage().window().setSize(new Dimension(1366, 900));

            // CSRF: the session alone cannot change anything
            HttpResponse<String> forged = withSession(b, "POST", "/api/v1/namespaces", "application/json", "{\"name\": \"forged\"}");
            assertThat(forged.statusCode()).isEqualTo(403);
            assertThat(JSON.readTree(forged.body()).get("errorId").asString()).isEqualTo("csrf-token-invalid");
            assertThat(withSession(b, "DELETE", "/api/v1/tokens/" + tokenId, null, null).statusCode()).isEqualTo(403);
            assertThat(withSession(b, "POST", "/console/logout", "application/x-www-form-urlencoded", "").statusCode()).isEqualTo(403);
            assertThat(withSession(b, "GET", "/api/v1/namespaces", null, null).body()).doesNotContain("forged");

            // revoke: the write fails at once
            b.page("tokens");
            b.find("tr[data-token='" + tokenId + "'] button.danger").click();
            b.await("dialog[open] button.danger").click();
            b.awaitGone("tr[data-token='" + tokenId + "']");
            assertThat(write(token, "metrics", "cpu,host=h1 usage=1 " + now).statusCode()).isEqualTo(401);

            // sign out
            b.find("#sign-out").click();
            b.awaitText("#login-message", "Signed out.");
            b.open(service.uri("/console/").toString());
            b.await("#login-form");
            assertThat(b.driver.getCurrentUrl()).endsWith("/console/login");
            assertThat(b.consoleErrors()).as("browser console errors").isEmpty();
        }
    }

    @Test
    void rollupsAreCreatedListedWithTheirWatermarkAndDeleted() throws Exception {
        Tenant t = tenant("rollups");
        assertThat(json("POST", "/api/v1/namespaces", t.adminToken(), "{\"name\": \"metrics\", \"retention\": \"P30D\"}").statusCode())
                .isEqualTo(201);
        long hour = 3_600_000_000_000L;
        long first = (System.currentTimeMillis() * 1_000_000L / hour - 10) * hour;
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 6 * 60; i++) { // six hours of history, a point a minute, loaded with backfill=true
            lines.append("mem,host=h1 used=").append(40 + i % 17).append(' ').append(first + i * 60_000_000_000L).append('\n');
        }
        HttpResponse<String> loaded = service.send(HttpRequest.newBuilder(service.uri("/api/v1/namespaces/metrics/write?backfill=true"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(lines.toString())), t.adminToken());
        assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(204);
        try (Browser b = Browser.start()) {
            try {
                rollups(b, t, first);
            } catch (Throwable e) {
                throw new AssertionError(e.getMessage() + "\n" + b.diagnose("rollups"), e);
            }
        }
    }

    private static void rollups(Browser b, Tenant t, long first) throws Exception {
        signIn(b, t, PASSWORD);
        b.await("[data-page='overview'][data-ready='true']");
        b.page("lifecycle");
        b.awaitText("#rollup-source", "mem");
        assertThat(b.find("#no-rollups").getText()).contains("No rollups");
        // a width the service refuses: its message at the field
        b.find("#rollup-name").sendKeys("mem_1h");
        b.find("#rollup-every").sendKeys("7x");
        b.find("#create-rollup button[type=submit]").click();
        b.await("#rollup-every-error");
        assertThat(b.find("#rollup-every-error").getText()).contains("bucket width not understood");
        assertThat(b.find("#rollup-every").getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(b.consoleErrors(Pattern.compile("/api/v1/namespaces/metrics/rollups .*status of 400"))).isEmpty();
        // then a good one, by keyboard: width, zone, aggregates, Enter
        WebElement every = b.find("#rollup-every");
        every.clear();
        every.sendKeys("1h");
        WebElement zone = b.find("#rollup-timezone");
        zone.clear();
        zone.sendKeys("Europe/Berlin");
        b.find("#rollup-agg-last").click();
        zone.sendKeys(Keys.ENTER);
        b.await("tr[data-rollup='mem_1h']");
        assertThat(b.find("#rollup-result").getText()).contains("Rollup mem_1h created");
        assertThat(b.find("tr[data-rollup='mem_1h']").getText()).contains("mem → mem_1h").contains("1h").contains("Europe/Berlin")
                .contains("avg, min, max, last, sum, count").contains("not yet");
        // compaction materialises it: the watermark appears, in the browser's zone with UTC on hover
        new Select(b.find("#maintenance-namespace")).selectByValue("metrics");
        b.find("#compact-now").click();
        b.awaitText("#compact-rollups", "Rollup mem_1h: materialised until");
        b.await("tr[data-rollup='mem_1h'] td.watermark time");
        String watermark = b.find("tr[data-rollup='mem_1h'] td.watermark time").getAttribute("datetime");
        JsonNode api = JSON.readTree(json("GET", "/api/v1/namespaces/metrics/rollups/mem_1h", t.adminToken(), null).body());
        assertThat(watermark).isEqualTo(api.get("materialisedUntil").asString());
        assertThat(b.find("tr[data-rollup='mem_1h'] td.watermark time").getAttribute("title")).isEqualTo("UTC " + watermark);
        assertThat(b.find("tr[data-rollup='mem_1h'] td.pending").getText()).isEqualTo("none");
        // a range recomputed
        assertThat(new Select(b.find("#refresh-rollup")).getFirstSelectedOption().getText()).isEqualTo("mem_1h");
        b.js("const local = (ms) => new Date(ms - new Date(ms).getTimezoneOffset() * 60000).toISOString().slice(0, 19);"
                + "document.getElementById('refresh-start').value = local(arguments[0]);"
                + "document.getElementById('refresh-end').value = local(arguments[1]);", first / 1_000_000L, first / 1_000_000L + 7_200_000L);
        b.find("#refresh-form button[type=submit]").click();
        b.awaitText("#rollup-result", "Recomputed mem_1h.");
        assertLabelled(b, "lifecycle with a rollup");
        b.fullPage("rollups", 1366);
        // delete, after a confirmation
        b.find("tr[data-rollup='mem_1h'] button.danger").click();
        b.await("dialog[open] button.danger").click();
        b.awaitGone("tr[data-rollup='mem_1h']");
        assertThat(b.find("#rollup-result").getText()).contains("Rollup mem_1h deleted");
        assertThat(json("GET", "/api/v1/namespaces/metrics/rollups/mem_1h", t.adminToken(), null).statusCode()).isEqualTo(404);
        assertThat(b.consoleErrors()).as("browser console errors").isEmpty();
    }

    @Test
    void anotherTenantsUserSeesNoneOfItsObjects() throws Exception {
        Tenant first = tenant("first");
        Tenant second = tenant("second");
        assertThat(json("POST", "/api/v1/namespaces", first.adminToken(), "{\"name\": \"private\"}").statusCode()).isEqualTo(201);
        HttpResponse<String> issued = json("POST", "/api/v1/tokens", first.adminToken(), "{\"description\": \"first's secret\", \"scopes\": [\"read:*\"]}");
        String firstTokenId = JSON.readTree(issued.body()).get("id").asString();
        assertThat(write(first.adminToken(), "private", "mem,host=a used=1 " + System.currentTimeMillis() * 1_000_000L).statusCode()).isEqualTo(204);
        assertThat(json("POST", "/api/v1/namespaces", second.adminToken(), "{\"name\": \"own\"}").statusCode()).isEqualTo(201);

        try (Browser b = Browser.start()) {
            try {
                isolation(b, first, second, firstTokenId);
            } catch (Throwable t) {
                throw new AssertionError(t.getMessage() + "\n" + b.diagnose("isolation"), t);
            }
        }
    }

    private static void isolation(Browser b, Tenant first, Tenant second, String firstTokenId) throws Exception {
        {
            signIn(b, second, PASSWORD);
            b.await("[data-page='overview'][data-ready='true']");
            b.page("namespaces");
            assertThat(b.all("tr[data-namespace]")).extracting(e -> e.getAttribute("data-namespace")).containsExactly("own");
            b.page("tokens");
            assertThat(b.find("main").getText()).doesNotContain(firstTokenId).doesNotContain("first's secret");
            b.open(service.uri("/console/#/explorer?ns=private").toString());
            b.await("[data-page='explorer'][data-ready='true']");
            assertThat(new Select(b.find("#namespace")).getFirstSelectedOption().getText()).isEqualTo("own");
            assertThat(b.find("#no-measurements").getText()).contains("Nothing written here yet");
            assertThat(b.all("[data-measurement]")).isEmpty();
            b.page("lifecycle");
            assertThat(b.find("main").getText()).doesNotContain("private");
            // and the API refuses the session what the pages do not show
            for (String path : List.of("/api/v1/namespaces/private", "/api/v1/namespaces/private/measurements",
                    "/api/v1/namespaces/private/query?sql=SELECT%201")) {
                assertThat(withSession(b, "GET", path, null, null).statusCode()).as(path).isEqualTo(404);
            }
            JsonNode session = JSON.readTree(withSession(b, "GET", "/console/session", null, null).body());
            String csrfHeader = session.get("csrf").get("headerName").asString();
            String csrf = session.get("csrf").get("token").asString();
            assertThat(withSession(b, "DELETE", "/api/v1/tokens/" + firstTokenId, null, null, csrfHeader, csrf).statusCode()).isEqualTo(404);
            assertThat(json("GET", "/api/v1/tokens", first.adminToken(), null).body()).contains(firstTokenId);
            assertThat(b.consoleErrors()).as("browser console errors").isEmpty();
        }
    }
}

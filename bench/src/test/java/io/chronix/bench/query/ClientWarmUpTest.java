package io.chronix.bench.query;

import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClientWarmUpTest {

    @Test
    void sendsTheTargetsRequestShapesToALocalServerOnlyAndOnlyOncePerProcess() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort(); // closed again: a request reaching the target would fail
        }
        URI target = URI.create("http://127.0.0.1:" + closedPort);
        List<HttpRequest> shapes = List.of(
                HttpRequest.newBuilder(target.resolve("/api/v1/namespaces/bench/query")).timeout(Duration.ofSeconds(5))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"sql\":\"SELECT 1\"}")).build(),
                HttpRequest.newBuilder(target.resolve("/exec?query=SELECT%20count(*)%20FROM%20cpu"))
                        .timeout(Duration.ofSeconds(5)).GET().build());
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        assertThat(ClientWarmUp.run(client, () -> shapes, 40)).isPositive();
        assertThat(ClientWarmUp.run(client, () -> shapes, 40)).as("a second warm-up in the same process").isZero();
    }

    @Test
    void theLocalAnswerIsJsonOfTheGivenRows() {
        String body = new String(ClientWarmUp.answer(3), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(body).startsWith("{\"columns\":[").contains("\"rows\":[[\"2016-01-01T00:00:00Z\",40.5],")
                .endsWith("[\"2016-01-01T00:02:00Z\",42.5]]}");
    }
}

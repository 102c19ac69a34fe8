package io.chronix.bench.query;

import com.sun.net.httpserver.HttpServer;
import io.chronix.bench.query.dialect.QueryDialect;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Interleaved runs: each query goes to every target before the next goes to any, the first of them
 * taking turns; each target gets its own figures; a target that fails a kind gets no more of it while
 * the others finish theirs.
 */
class QueryRunnerInterleaveTest {

    private static final ResultTable ANSWER = new ResultTable(List.of("n"), List.of(List.of(1L)));

    @Test
    void everyQueryGoesToEveryTargetInTurnsAndEachGetsItsOwnFigures() throws Exception {
        List<String> hits = Collections.synchronizedList(new ArrayList<>());
        HttpServer server = server(hits, "none");
        try {
            List<QueryInstance> plan = List.of(new QueryInstance(QueryKind.LASTPOINT, List.of(), 0, 1),
                    new QueryInstance(QueryKind.SINGLE_GROUPBY_1_1_1, List.of(), 0, 1));
            Map<QueryInstance, ResultTable> reference = Map.of(plan.get(0), ANSWER, plan.get(1), ANSWER);
            List<QueryRunner> runners = List.of(runner(server, "a", false), runner(server, "b", false), runner(server, "c", false));
            List<List<QueryStats>> stats = QueryRunner.interleave(runners, plan, reference);

            // 1 warm-up and 3 timed runs per kind, two kinds; the target asked first rotates a, b, c, a
            List<String> oneKind = List.of("a", "b", "c", "b", "c", "a", "c", "a", "b", "a", "b", "c");
            List<String> expected = new ArrayList<>(oneKind);
            expected.addAll(oneKind);
            assertThat(hits).isEqualTo(expected);
            assertThat(stats).hasSize(3).allSatisfy(perTarget -> {
                assertThat(perTarget).extracting(QueryStats::kind).containsExactly(QueryKind.LASTPOINT, QueryKind.SINGLE_GROUPBY_1_1_1);
                assertThat(perTarget).allSatisfy(s -> {
                    assertThat(s.failed()).isFalse();
                    assertThat(s.samples()).hasSize(3);
                    assertThat(java.util.Arrays.stream(s.samples()).min().orElseThrow()).isPositive();
                });
            });
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aTargetThatFailsAKindIsAskedNoMoreOfItWhileTheOthersFinish() throws Exception {
        List<String> hits = Collections.synchronizedList(new ArrayList<>());
        HttpServer server = server(hits, "b");
        try {
            List<QueryInstance> plan = List.of(new QueryInstance(QueryKind.LASTPOINT, List.of(), 0, 1));
            List<QueryRunner> runners = List.of(runner(server, "a", true), runner(server, "b", true));
            List<List<QueryStats>> stats = QueryRunner.interleave(runners, plan, Map.of(plan.getFirst(), ANSWER));

            assertThat(hits).isEqualTo(List.of("a", "b", "a", "a", "a"));
            assertThat(stats.get(0)).singleElement().satisfies(s -> {
                assertThat(s.failed()).isFalse();
                assertThat(s.samples()).hasSize(3);
            });
            assertThat(stats.get(1)).singleElement().satisfies(s -> assertThat(s.error()).contains("answered 500"));
        } finally {
            server.stop(0);
        }
    }

    /** A server answering {@code /a}, {@code /b}, … with "1", recording which was asked; {@code failing} answers 500. */
    private static HttpServer server(List<String> hits, String failing) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/", exchange -> {
            String target = exchange.getRequestURI().getPath().substring(1);
            hits.add(target);
            byte[] body = "1".getBytes(StandardCharsets.UTF_8);
            try (OutputStream out = exchange.getResponseBody()) {
                exchange.sendResponseHeaders(target.equals(failing) ? 500 : 200, body.length);
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    private static QueryRunner runner(HttpServer server, String target, boolean keepGoing) {
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/" + target);
        AtomicInteger cpu = new AtomicInteger();
        QueryDialect dialect = new FixedAnswerDialect(target, uri, ANSWER);
        return new QueryRunner(dialect, 1, 3, keepGoing, cpu::incrementAndGet).clientWarmUp(0);
    }
}

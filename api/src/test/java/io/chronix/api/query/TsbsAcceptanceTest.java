package io.chronix.api.query;

import io.chronix.api.security.TenantAccess;
import io.chronix.bench.engine.EngineTickSink;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.query.AnswerChecker;
import io.chronix.bench.query.QueryInstance;
import io.chronix.bench.query.QueryKind;
import io.chronix.bench.query.QueryPlanner;
import io.chronix.bench.query.ReferenceEvaluator;
import io.chronix.bench.query.ResultTable;
import io.chronix.bench.query.dialect.ChronixSqlDialect;
import io.chronix.engine.Chronix;
import io.chronix.tenancy.TenancyDirectory;
import org.apache.arrow.memory.BufferAllocator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.chronix.api.query.QueryWebFixture.TENANT;
import static io.chronix.api.query.QueryWebFixture.ns;
import static io.chronix.api.query.QueryWebFixture.quotas;
import static io.chronix.api.query.QueryWebFixture.tenant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The TSBS cpu-only query set in our dialect ({@code bench}'s {@link ChronixSqlDialect}) through the
 * query endpoint, on a small generated data set written through the engine API — half of it flushed
 * to segments, half in the memtable — every answer checked against {@link ReferenceEvaluator}, then
 * again after a restart of the engine.
 */
@WebMvcTest(QueryController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import({TenantAccess.class, QueryService.class, QueryConfiguration.class, QueryWebFixture.class})
class TsbsAcceptanceTest {

    static final long NS_ID = 10;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    @Autowired QueryWebFixture.Engines engines;
    @Autowired BufferAllocator queryAllocator;
    @MockitoBean TenancyDirectory directory;

    @Test
    void everyTsbsQueryGivesTheReferenceAnswer() throws Exception {
        when(directory.namespace(TENANT, "tsbs")).thenReturn(Optional.of(ns(NS_ID, "tsbs")));
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofMinutes(1), 8));
        CpuOnlyConfig data = CpuOnlyConfig.of(12, Duration.ofHours(13), 123, true);
        Chronix engine = engines.engine(NS_ID);
        long half = data.ticks() / 2;
        try (EngineTickSink sink = new EngineTickSink(engine, 60)) {
            new CpuOnlyGenerator(data).generate(new TickSink() {
                long ticks;

                @Override
                public void open(Dataset dataset) {
                    sink.open(dataset);
                }

                @Override
                public void tick(long timeNanos, double[][] values) {
                    sink.tick(timeNanos, values);
                    if (++ticks == half) {
                        sink.close();
                        engine.flush();
                    }
                }

                @Override
                public void close() {
                    sink.close();
                }
            });
        }
        assertThat(engine.segmentCount()).as("part of the data is in segments").isPositive();
        assertThat(engine.memtablePoints()).as("part of the data is in the memtable").isPositive();

        List<QueryInstance> queries = new QueryPlanner(data, 7).plan(QueryKind.all(), 2);
        Map<QueryInstance, ResultTable> expected = ReferenceEvaluator.evaluate(data, queries);
        ChronixSqlDialect dialect = new ChronixSqlDialect(URI.create("http://localhost"), "tsbs", null, Duration.ofMinutes(1));

        checkAll(queries, expected, dialect);
        engines.open.remove(NS_ID).close();
        checkAll(queries, expected, dialect); // reopened: the WAL replays the memtable half
        assertThat(queryAllocator.getAllocatedMemory()).isZero();
    }

    private void checkAll(List<QueryInstance> queries, Map<QueryInstance, ResultTable> expected, ChronixSqlDialect dialect) throws Exception {
        for (QueryInstance q : queries) {
            String sql = dialect.render(q);
            MvcResult r = mvc.perform(post("/api/v1/namespaces/tsbs/query").principal(tenant("read:tsbs"))
                    .contentType(MediaType.APPLICATION_JSON).content(JSON.writeValueAsString(Map.of("sql", sql)))).andReturn();
            String body = r.getResponse().getContentAsString();
            assertThat(r.getResponse().getStatus()).as(q.describe() + ": " + sql + " → " + body).isEqualTo(200);
            ResultTable actual = dialect.parse(body);
            if (q.kind().family() != QueryKind.Family.HIGH_CPU) { // a host may never pass 90 %
                assertThat(expected.get(q).size()).as("the reference of " + q.describe() + " is not empty").isPositive();
            }
            AnswerChecker.check(q.describe(), expected.get(q), actual, dialect.ordersRows(q.kind()));
        }
    }
}

package io.chronix.bench.query;

import io.chronix.bench.query.dialect.ChronixSqlDialect;
import io.chronix.bench.query.dialect.InfluxQlDialect;
import io.chronix.bench.query.dialect.QueryFailedException;
import io.chronix.bench.query.dialect.QuestDbDialect;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DialectParsingTest {
    private static final URI BASE = URI.create("http://127.0.0.1:1");
    private static final Duration T = Duration.ofSeconds(1);

    @Test
    void chronixJsonIsNormalised() {
        ResultTable t = new ChronixSqlDialect(BASE, "bench", null, T).parse("""
                {"columns": [{"name": "time", "type": "TIMESTAMP"}, {"name": "hostname", "type": "VARCHAR"},
                             {"name": "max_usage_user", "type": "BIGINT"}],
                 "rows": [["2016-01-01T00:01:00Z", "host_3", 58], ["2016-01-01T00:02:00.000000001Z", null, 1.5]]}""");
        assertThat(t.columns()).containsExactly("time", "hostname", "max_usage_user");
        assertThat(t.rows().get(0)).containsExactly(1451606460000000000L, "host_3", 58.0);
        assertThat(t.rows().get(1)).containsExactly(1451606520000000001L, null, 1.5);
    }

    @Test
    void questDbTimestampColumnBecomesTimeAndErrorsThrow() {
        QuestDbDialect d = new QuestDbDialect(BASE, T);
        ResultTable t = d.parse("""
                {"query":"x","columns":[{"name":"timestamp","type":"TIMESTAMP"},{"name":"max_usage_user","type":"LONG"}],
                 "timestamp":0,"dataset":[["2016-01-01T00:00:00.000000Z",99]],"count":1}""");
        assertThat(t.columns()).containsExactly("time", "max_usage_user");
        assertThat(t.rows().getFirst()).containsExactly(1451606400000000000L, 99.0);
        assertThatThrownBy(() -> d.parse("{\"query\":\"x\",\"error\":\"unexpected token\",\"position\":3}"))
                .isInstanceOf(QueryFailedException.class).hasMessageContaining("unexpected token");
    }

    @Test
    void influxSeriesTagsBecomeColumnsAndErrorsInside200Throw() {
        InfluxQlDialect d = new InfluxQlDialect(BASE, "bench", 0, T);
        ResultTable t = d.parse("""
                {"results":[{"statement_id":0,"series":[
                  {"name":"cpu","tags":{"hostname":"host_0"},"columns":["time","mean_usage_user"],"values":[[0,1.5],[3600000000000,2]]},
                  {"name":"cpu","tags":{"hostname":"host_1"},"columns":["time","mean_usage_user"],"values":[[0,3]]}]}]}""");
        assertThat(t.columns()).containsExactly("time", "mean_usage_user", "hostname");
        assertThat(t.rows()).containsExactly(
                Arrays.asList(0L, 1.5, "host_0"), Arrays.asList(3_600_000_000_000L, 2.0, "host_0"), Arrays.asList(0L, 3.0, "host_1"));
        assertThat(d.parse("{\"results\":[{\"statement_id\":0}]}").size()).isZero();
        assertThatThrownBy(() -> d.parse("{\"results\":[{\"statement_id\":0,\"error\":\"database not found: bench\"}]}"))
                .isInstanceOf(QueryFailedException.class).hasMessageContaining("database not found");
    }

    @Test
    void everyKindRendersInEveryDialect() {
        var data = io.chronix.bench.generator.CpuOnlyConfig.of(10, Duration.ofHours(13), 1, true);
        List<QueryInstance> plan = new QueryPlanner(data, 1).plan(QueryKind.all(), 1);
        for (QueryInstance q : plan) {
            assertThat(new ChronixSqlDialect(BASE, "bench", null, T).render(q)).contains("cpu");
            assertThat(new QuestDbDialect(BASE, T).render(q)).contains("cpu");
            assertThat(new InfluxQlDialect(BASE, "bench", data.startNanos(), T).render(q)).contains("cpu");
        }
        QueryInstance single = plan.getFirst();
        assertThat(new ChronixSqlDialect(BASE, "bench", null, T).render(single))
                .startsWith("SELECT time_bucket(INTERVAL '60 seconds', time) AS time, max(usage_user) AS max_usage_user FROM cpu WHERE hostname IN ('host_")
                .endsWith("GROUP BY 1 ORDER BY 1");
    }
}

package io.chronix.api.query;

import io.chronix.api.security.TenantAccess;
import io.chronix.archive.parquet.ArchiveFormat;
import io.chronix.archive.parquet.ColdCache;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.archive.parquet.ParquetCodec;
import io.chronix.archive.parquet.ParquetColdTier;
import io.chronix.archive.store.FileSystemBackend;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import static io.chronix.api.query.QueryWebFixture.T0;
import static io.chronix.api.query.QueryWebFixture.TENANT;
import static io.chronix.api.query.QueryWebFixture.ns;
import static io.chronix.api.query.QueryWebFixture.quotas;
import static io.chronix.api.query.QueryWebFixture.tenant;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * SQL over a namespace whose every segment is archived: the same tables, rows, NULLs and
 * nanosecond timestamps as when hot (the expectations are {@link QueryEndpointTest}'s), read from
 * Parquet by our code, never by the tenant's statement.
 */
@WebMvcTest(QueryController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import({TenantAccess.class, QueryService.class, QueryConfiguration.class, ArchivedQueryTest.ColdEngines.class})
class ArchivedQueryTest {

    static final long S = 1_000_000_000L;
    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired MockMvc mvc;
    @Autowired ColdEngines.Tables tables;
    @MockitoBean TenancyDirectory directory;

    Authentication reader = tenant("read:metrics");

    @TestConfiguration(proxyBeanMethods = false)
    static class ColdEngines {
        /** One engine (namespace 1) over a Parquet cold tier on the filesystem. */
        static final class Tables implements NamespaceTables, AutoCloseable {
            final MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
            final Path root;
            final ParquetCodec codec;
            final Chronix engine;

            Tables() throws Exception {
                root = Files.createTempDirectory("chronix-archived-query");
                codec = new ParquetCodec(1, ArchiveFormat.ROW_GROUP_ROWS, root);
                Path nsDir = root.resolve("1");
                ParquetColdTier tier = new ParquetColdTier(new FileSystemBackend(root.resolve("cold")), new NamespaceId(1), codec,
                        new ColdCache(nsDir.resolve("cold-cache"), 16L << 20), new ColdTierMetrics());
                engine = Chronix.open(nsDir, EngineConfig.defaults()
                        .withClock(Clock.fixed(Instant.ofEpochSecond(T0 / S + 86_400), ZoneOffset.UTC)), scheduler, tier);
            }

            @Override
            public Handle open(Namespace namespace) {
                return new Handle() {
                    @Override
                    public Chronix engine() {
                        return engine;
                    }

                    @Override
                    public void close() {
                    }
                };
            }

            @Override
            public void close() throws java.io.IOException {
                engine.close();
                codec.close();
                scheduler.close();
                org.springframework.util.FileSystemUtils.deleteRecursively(root);
            }
        }

        @Bean(destroyMethod = "close")
        Tables tables() throws Exception {
            return new Tables();
        }
    }

    @BeforeEach
    void archivedData() {
        when(directory.namespace(TENANT, "metrics")).thenReturn(Optional.of(ns(1, "metrics")));
        when(directory.quotas(eq(TENANT))).thenReturn(quotas(Duration.ofSeconds(30), 8));
        Chronix m = tables.engine;
        if (m.measurements().isEmpty()) {
            m.write(PointBatch.builder()
                    .beginPoint("cpu", T0).tag("host", "a").floatField("usage", 1.5).integerField("n", 3).endPoint()
                    .beginPoint("cpu", T0 + 1).tag("host", "a").floatField("usage", 2.5).stringField("note", "x,\"y\"").endPoint()
                    .beginPoint("cpu", T0 + 3600 * S).tag("host", "b").tag("rack", "r1").integerField("n", 0).endPoint()
                    .build());
            m.flush();
            m.write(PointBatch.builder()
                    .beginPoint("cpu", T0 + 7200 * S + 999_999_999).tag("host", "a").floatField("usage", 9.0).endPoint()
                    .build());
            m.flush();
            assertThat(m.archive(Duration.ofHours(1)).failure()).isEmpty();
            assertThat(m.segmentCount()).as("every segment archived").isZero();
            assertThat(m.archivedSegments()).isNotEmpty();
        }
    }

    JsonNode json(String sql) throws Exception {
        return JSON.readTree(mvc.perform(post("/api/v1/namespaces/metrics/query").principal(reader)
                        .contentType(MediaType.APPLICATION_JSON).accept("application/json")
                        .content(JSON.writeValueAsString(Map.of("sql", sql))))
                .andExpect(status().isOk()).andReturn().getResponse().getContentAsString());
    }

    @Test
    void archivedRowsAnswerWithTheirColumnsNullsAndNanoseconds() throws Exception {
        JsonNode r = json("SELECT * FROM cpu ORDER BY time");
        assertThat(r.get("columns").toString()).isEqualTo("[{\"name\":\"time\",\"type\":\"TIMESTAMP\"},{\"name\":\"host\",\"type\":\"VARCHAR\"},"
                + "{\"name\":\"rack\",\"type\":\"VARCHAR\"},{\"name\":\"n\",\"type\":\"BIGINT\"},{\"name\":\"note\",\"type\":\"VARCHAR\"},"
                + "{\"name\":\"usage\",\"type\":\"DOUBLE\"}]");
        assertThat(r.get("rows").toString()).isEqualTo("[[\"2026-01-01T00:00:00Z\",\"a\",null,3,null,1.5],"
                + "[\"2026-01-01T00:00:00.000000001Z\",\"a\",null,null,\"x,\\\"y\\\"\",2.5],"
                + "[\"2026-01-01T01:00:00Z\",\"b\",\"r1\",0,null,null],"
                + "[\"2026-01-01T02:00:00.999999999Z\",\"a\",null,null,null,9.0]]");
    }

    @Test
    void nullSemanticsHoldOverArchivedRows() throws Exception {
        JsonNode r = json("SELECT count(*), count(usage), avg(usage), count(n), sum(n), count(*) FILTER (WHERE usage IS NULL),"
                + " count(*) FILTER (WHERE n = 0), count(*) FILTER (WHERE rack IS NULL) FROM cpu");
        assertThat(r.get("rows").toString()).isEqualTo("[[4,3,4.333333333333333,2,3,1,1,3]]");
    }

    @Test
    void timeAndTagPredicatesSelectArchivedRows() throws Exception {
        JsonNode r = json("SELECT host, count(*) FROM cpu WHERE time >= TIMESTAMP_NS '2026-01-01 00:30:00' AND host = 'a' GROUP BY host");
        assertThat(r.get("rows").toString()).isEqualTo("[[\"a\",1]]");
    }

    @Test
    void theTenantsSqlStillCannotReadFiles() throws Exception {
        Path object;
        try (var s = Files.walk(tables.root.resolve("cold"))) {
            object = s.filter(p -> p.toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        mvc.perform(post("/api/v1/namespaces/metrics/query").principal(reader).contentType(MediaType.APPLICATION_JSON)
                        .content(JSON.writeValueAsString(Map.of("sql", "SELECT * FROM read_parquet('" + object + "')"))))
                .andExpect(status().isBadRequest());
    }
}

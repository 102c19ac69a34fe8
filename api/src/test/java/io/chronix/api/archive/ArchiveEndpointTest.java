package io.chronix.api.archive;

import io.chronix.api.config.DataDirectory;
import io.chronix.api.engine.EngineProperties;
import io.chronix.api.engine.EngineRegistry;
import io.chronix.api.namespace.NamespaceLocations;
import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.security.TenantTokenResolver;
import io.chronix.archive.parquet.ArchiveFormat;
import io.chronix.archive.parquet.ColdTierMetrics;
import io.chronix.archive.parquet.ParquetCodec;
import io.chronix.archive.store.FileSystemBackend;
import io.chronix.engine.Chronix;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.token.Scope;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.util.unit.DataSize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * {@code POST /api/v1/namespaces/{ns}/archive} in a web slice over a real registry, real engines
 * and a real Parquet cold tier on the filesystem: what it answers, that it needs {@code admin},
 * and that the rows stay readable from the archive.
 */
@WebMvcTest(ArchiveController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import({TenantAccess.class, ArchiveService.class, ArchiveEndpointTest.Fixture.class})
class ArchiveEndpointTest {

    static final UUID TENANT = UUID.fromString("0b6f3f1e-8f3e-4c71-9d0a-6f4f0c7c2a11");
    static final long S = 1_000_000_000L;

    @Autowired MockMvc mvc;
    @Autowired EngineRegistry registry;
    @Autowired ColdTierMetrics metrics;
    @MockitoBean TenancyDirectory directory;
    @MockitoBean NamespaceService namespaces;

    @TestConfiguration(proxyBeanMethods = false)
    static class Fixture {
        /** The data directory's root, deleted once everything built on it is closed. */
        record TempRoot(Path path) implements AutoCloseable {
            @Override
            public void close() throws Exception {
                org.springframework.util.FileSystemUtils.deleteRecursively(path);
            }
        }

        @Bean(destroyMethod = "close")
        TempRoot dataRoot() throws Exception {
            return new TempRoot(Files.createTempDirectory("chronix-archive-endpoint"));
        }

        @Bean(destroyMethod = "close")
        DataDirectory data(TempRoot dataRoot) throws Exception {
            return DataDirectory.open(dataRoot.path());
        }

        @Bean(destroyMethod = "close")
        MaintenanceScheduler scheduler() {
            return MaintenanceScheduler.create(1);
        }

        @Bean
        NamespaceLocations locations(DataDirectory data) {
            return new NamespaceLocations(data);
        }

        @Bean
        ArchiveProperties archiveProperties() {
            return new ArchiveProperties(Duration.ofDays(30), Duration.ofHours(1), false, DataSize.ofMegabytes(16), 1);
        }

        @Bean(destroyMethod = "close")
        ParquetCodec codec(DataDirectory data) {
            return new ParquetCodec(1, ArchiveFormat.ROW_GROUP_ROWS, data.root());
        }

        @Bean
        ColdTierMetrics metrics() {
            return new ColdTierMetrics();
        }

        @Bean(destroyMethod = "close")
        EngineRegistry registry(NamespaceLocations locations, MaintenanceScheduler scheduler, DataDirectory data, ParquetCodec codec,
                                ColdTierMetrics metrics) {
            ColdTiers tiers = new ColdTiers(new FileSystemBackend(data.cold()), codec, metrics, 16L << 20);
            return new EngineRegistry(locations, EngineProperties.defaults(), scheduler, System::nanoTime, c -> c, tiers::create);
        }
    }

    static Authentication tenant(String... scopes) {
        Set<Scope> s = Arrays.stream(scopes).map(x -> Scope.parse("scope", x)).collect(Collectors.toSet());
        return UsernamePasswordAuthenticationToken.authenticated(new TenantPrincipal(TENANT, "acme", "abcdefghijklmnop", null, s),
                null, TenantTokenResolver.authorities(s));
    }

    static Namespace ns(long id, String name, Duration coldAfter) {
        return new Namespace(id, TENANT, name, Duration.ofDays(400), coldAfter, "{}", Instant.parse("2026-12-01T20:00:00Z"));
    }

    @Test
    void aPassMovesOldSegmentsAnswersWhatMovedAndTheRowsStayReadable() throws Exception {
        Namespace ns = ns(61, "metrics", Duration.ofDays(1));
        when(directory.namespace(TENANT, "metrics")).thenReturn(Optional.of(ns));
        long old = Instant.now().minus(Duration.ofDays(3)).getEpochSecond() * S;
        long recent = Instant.now().getEpochSecond() * S;
        registry.apply(ns, c -> c.write(PointBatch.builder()
                .beginPoint("cpu", old).tag("host", "a").floatField("usage", 1.5).endPoint()
                .beginPoint("cpu", old + S).tag("host", "b").integerField("n", 2).endPoint()
                .build()));
        registry.apply(ns, c -> {
            c.flush(); // the old points in a segment of their own
            return c.write(PointBatch.builder().beginPoint("cpu", recent).tag("host", "a").floatField("usage", 9).endPoint().build());
        });

        mvc.perform(post("/api/v1/namespaces/metrics/archive").principal(tenant("admin:metrics")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.segments").value(1))
                .andExpect(jsonPath("$.rows").value(2))
                .andExpect(jsonPath("$.pending").value(0))
                .andExpect(jsonPath("$.failure").doesNotExist())
                .andExpect(jsonPath("$.coldAfter").value("P1D"));
        assertThat(metrics.objectsArchived()).isEqualTo(1);

        try (RootAllocator allocator = new RootAllocator()) {
            long rows = registry.apply(ns, c -> {
                assertThat(c.archivedSegments()).hasSize(1);
                assertThat(c.segmentCount()).as("the recent point, flushed by the endpoint, stays hot").isEqualTo(1);
                try (ScanResult r = c.scan(ScanRequest.all("cpu"), allocator)) {
                    return r.rowCount();
                }
            });
            assertThat(rows).isEqualTo(3);
        }
        Path objects = registry.apply(ns, Chronix::directory).getParent().getParent().resolve("cold").resolve("ns_61");
        assertThat(Files.isDirectory(objects)).isTrue();
    }

    @Test
    void aTokenWithoutAdminIsForbidden() throws Exception {
        when(directory.namespace(TENANT, "metrics")).thenReturn(Optional.of(ns(62, "metrics", null)));
        mvc.perform(post("/api/v1/namespaces/metrics/archive").principal(tenant("read:metrics", "write:metrics")))
                .andExpect(status().isForbidden());
    }

    @Test
    void theServiceDefaultAppliesWithoutANamespaceColdAfter() throws Exception {
        when(directory.namespace(TENANT, "fresh")).thenReturn(Optional.of(ns(63, "fresh", null)));
        mvc.perform(post("/api/v1/namespaces/fresh/archive").principal(tenant("admin:*")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.segments").value(0))
                .andExpect(jsonPath("$.coldAfter").value("P30D"));
    }
}

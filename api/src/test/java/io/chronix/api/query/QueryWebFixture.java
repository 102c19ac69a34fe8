package io.chronix.api.query;

import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.security.TenantTokenResolver;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.Scope;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.util.FileSystemUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Engines in a temporary directory behind {@link NamespaceTables} (one per namespace id, opened on
 * first use), tenants and namespaces as the slice tests use them.
 */
@TestConfiguration(proxyBeanMethods = false)
class QueryWebFixture {

    static final UUID TENANT = UUID.fromString("0b6f3f1e-8f3e-4c71-9d0a-6f4f0c7c2a11");
    static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;

    static Namespace ns(long id, String name) {
        return new Namespace(id, TENANT, name, Duration.ofDays(30), null, "{}", Instant.parse("2026-12-01T20:00:00Z"));
    }

    static Quotas quotas(Duration timeout, int concurrent) {
        return new Quotas(100, 1_000_000, 1_000_000, 1L << 40, 10 << 20, Duration.ofDays(3650), timeout, concurrent);
    }

    static Authentication tenant(String... scopes) {
        Set<Scope> s = Arrays.stream(scopes).map(x -> Scope.parse("scope", x)).collect(Collectors.toSet());
        return UsernamePasswordAuthenticationToken.authenticated(new TenantPrincipal(TENANT, "acme", "abcdefghijklmnop", null, s),
                null, TenantTokenResolver.authorities(s));
    }

    /** The engines, by namespace id. */
    static final class Engines implements NamespaceTables, AutoCloseable {
        final MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
        final Path root;
        final Map<Long, Chronix> open = new ConcurrentHashMap<>();

        Engines() {
            try {
                root = Files.createTempDirectory("chronix-query-test");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Chronix engine(long id) {
            return open.computeIfAbsent(id, k -> Chronix.open(root.resolve(Long.toString(k)),
                    EngineConfig.defaults().withClock(Clock.fixed(Instant.ofEpochSecond(T0 / 1_000_000_000L + 86_400), ZoneOffset.UTC)),
                    scheduler));
        }

        @Override
        public Handle open(Namespace namespace) {
            Chronix c = engine(namespace.id());
            return new Handle() {
                @Override
                public Chronix engine() {
                    return c;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public void close() throws IOException {
            open.values().forEach(Chronix::close);
            scheduler.close();
            FileSystemUtils.deleteRecursively(root);
        }
    }

    /** Where the query service records its metrics, for the tests to read. */
    @Bean
    io.micrometer.core.instrument.MeterRegistry queryMeters() {
        return new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    }

    @Bean(destroyMethod = "close")
    Engines engines() {
        return new Engines();
    }
}

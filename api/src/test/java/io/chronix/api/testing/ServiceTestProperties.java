package io.chronix.api.testing;

import io.chronix.tenancy.testing.PostgresTestServer;
import org.springframework.test.context.DynamicPropertyRegistry;

import java.nio.file.Path;

/**
 * The properties every in-process service test needs: a fresh database on the shared test
 * PostgreSQL, its own data directory and a known operator token. Tests add their own on top.
 */
public final class ServiceTestProperties {

    private ServiceTestProperties() {
    }

    public static void register(DynamicPropertyRegistry registry, Path dataDir, String operatorToken) {
        PostgresTestServer pg = PostgresTestServer.get();
        String url = pg.newDatabase();
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", pg::user);
        registry.add("spring.datasource.password", pg::password);
        registry.add("chronix.data-dir", dataDir::toString);
        registry.add("chronix.operator-token", () -> operatorToken);
    }
}

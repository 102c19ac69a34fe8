package io.chronix.tenancy;

import io.chronix.tenancy.testing.PostgresTestServer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** Base of the repository tests: the tenancy services on a fresh, migrated, real PostgreSQL database (one per test run: the context is cached, so tests use unique names). */
@SpringBootTest(classes = TenancyTestApplication.class)
public abstract class DatabaseTest {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        PostgresTestServer pg = PostgresTestServer.get();
        String url = pg.newDatabase();
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", pg::user);
        registry.add("spring.datasource.password", pg::password);
        registry.add("chronix.quotas.max-namespaces", () -> "3");
        registry.add("chronix.quotas.max-retention", () -> "P400D");
    }
}

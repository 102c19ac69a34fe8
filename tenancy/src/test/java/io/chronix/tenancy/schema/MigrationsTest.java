package io.chronix.tenancy.schema;

import io.chronix.tenancy.Installation;
import io.chronix.tenancy.testing.PostgresTestServer;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MigrationsTest {

    private PGSimpleDataSource freshDatabase() {
        PostgresTestServer pg = PostgresTestServer.get();
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setUrl(pg.newDatabase());
        ds.setUser(pg.user());
        ds.setPassword(pg.password());
        return ds;
    }

    @Test
    void migrationsApplyToAnEmptyDatabaseAndAreIdempotent() {
        PGSimpleDataSource ds = freshDatabase();
        Flyway flyway = Flyway.configure().dataSource(ds).load();
        assertThat(flyway.migrate().migrationsExecuted).isGreaterThan(0);
        assertThat(flyway.migrate().migrationsExecuted).isZero();
        assertThat(flyway.validateWithResult().validationSuccessful).isTrue();
    }

    @Test
    void installationHasExactlyOneStableRow() {
        PGSimpleDataSource ds = freshDatabase();
        Flyway.configure().dataSource(ds).load().migrate();
        JdbcClient jdbc = JdbcClient.create(ds);
        Installation first = Installation.load(jdbc);
        assertThat(Installation.load(jdbc)).isEqualTo(first);
        assertThatThrownBy(() -> jdbc.sql("INSERT INTO installation (id) VALUES (gen_random_uuid())").update())
                .hasMessageContaining("duplicate key");
    }
}

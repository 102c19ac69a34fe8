package io.chronix.api.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The service's own settings ({@code chronix.*}); Spring's own ({@code server.port},
 * {@code spring.datasource.*}) are read where Spring reads them.
 *
 * @param dataDir       where the service keeps its data: engines, embedded PostgreSQL, cold tier
 * @param operatorToken the operator's bearer token; when unset one is generated at first start and
 *                      kept in {@code <dataDir>/operator-token}
 * @param cold          the cold tier; the filesystem under {@code <dataDir>/cold} unless S3 is set
 */
@ConfigurationProperties("chronix")
public record ChronixProperties(
        @DefaultValue("./data") Path dataDir,
        String operatorToken,
        @DefaultValue Cold cold) {

    /** @param s3 an S3-compatible store; used when {@code endpoint} is set */
    public record Cold(@DefaultValue S3 s3) {
    }

    /**
     * @param endpoint       e.g. {@code http://minio:9000}; setting it switches the cold tier to S3
     * @param bucket         required with {@code endpoint}
     * @param createBucket   create the bucket at start if it is missing
     * @param connectTimeout how long the start-up check waits for the endpoint
     */
    public record S3(URI endpoint, String bucket, String accessKey, String secretKey, String region,
                     @DefaultValue("true") boolean createBucket,
                     @DefaultValue("5s") Duration connectTimeout) {

        public boolean configured() {
            return endpoint != null;
        }

        @Override
        public String toString() {
            return "S3[endpoint=" + endpoint + ", bucket=" + bucket + "]"; // never the secret
        }
    }
}

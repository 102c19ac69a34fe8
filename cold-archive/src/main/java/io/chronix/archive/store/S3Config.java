package io.chronix.archive.store;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the S3-compatible store is and how to reach it.
 *
 * @param endpoint       e.g. {@code http://minio:9000}
 * @param bucket         the bucket holding every namespace's cold segments
 * @param region         region to sign for; MinIO accepts any
 * @param createBucket   create the bucket at start if it is missing
 * @param connectTimeout how long a connection attempt may take before the store counts as down
 */
public record S3Config(URI endpoint, String bucket, String accessKey, String secretKey, String region,
                       boolean createBucket, Duration connectTimeout) {

    public S3Config {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(accessKey, "accessKey");
        Objects.requireNonNull(secretKey, "secretKey");
        if (!isValidBucketName(bucket)) {
            throw new IllegalArgumentException("invalid S3 bucket name [bucket=" + bucket
                    + "]: 3-63 characters of lowercase letters, digits, '.' and '-', starting and ending with a letter or digit");
        }
        region = region == null || region.isBlank() ? "us-east-1" : region;
        connectTimeout = connectTimeout == null ? Duration.ofSeconds(5) : connectTimeout;
    }

    /** S3's bucket naming rules, as MinIO and AWS enforce them. */
    public static boolean isValidBucketName(String name) {
        return name.length() >= 3 && name.length() <= 63
                && name.matches("[a-z0-9][a-z0-9.-]*[a-z0-9]")
                && !name.contains("..")
                && !name.matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
    }

    @Override
    public String toString() {
        // never print the secret
        return "S3Config[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + "]";
    }
}

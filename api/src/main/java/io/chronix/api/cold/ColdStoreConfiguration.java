package io.chronix.api.cold;

import io.chronix.api.config.ChronixProperties;
import io.chronix.api.config.DataDirectory;
import io.chronix.api.config.StartupCheckException;
import io.chronix.archive.store.FileSystemBackend;
import io.chronix.archive.store.S3Backend;
import io.chronix.archive.store.S3Config;
import io.chronix.engine.error.StorageBackendException;
import io.chronix.engine.storage.StorageBackend;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class ColdStoreConfiguration {

    private static final Logger log = LoggerFactory.getLogger(ColdStoreConfiguration.class);

    @Bean(destroyMethod = "close")
    StorageBackend coldStore(ChronixProperties properties, DataDirectory data) {
        ChronixProperties.S3 s3 = properties.cold().s3();
        StorageBackend backend = s3.configured() ? s3Backend(s3) : new FileSystemBackend(data.cold());
        try {
            backend.checkAvailable();
        } catch (StorageBackendException e) {
            String property = s3.configured() ? "chronix.cold.s3.endpoint" : "chronix.data-dir";
            throw new StartupCheckException(property, "cold store " + backend.describe() + " is not usable: " + e.getMessage(),
                    s3.configured() ? "Check that the S3 endpoint answers, the credentials are right and the bucket exists (or chronix.cold.s3.create-bucket=true)."
                            : "Make sure the cold directory is a writable directory.", e);
        }
        log.info("cold store: {}", backend.describe());
        return backend;
    }

    private static S3Backend s3Backend(ChronixProperties.S3 s3) {
        require("chronix.cold.s3.bucket", s3.bucket());
        require("chronix.cold.s3.access-key", s3.accessKey());
        require("chronix.cold.s3.secret-key", s3.secretKey());
        if (!S3Config.isValidBucketName(s3.bucket())) {
            throw new StartupCheckException("chronix.cold.s3.bucket", "'" + s3.bucket() + "' is not a valid S3 bucket name",
                    "Use 3-63 characters of lowercase letters, digits, '.' and '-', starting and ending with a letter or digit.");
        }
        String scheme = s3.endpoint().getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme) || s3.endpoint().getHost() == null) {
            throw new StartupCheckException("chronix.cold.s3.endpoint", "'" + s3.endpoint() + "' is not an http(s) URL",
                    "Set chronix.cold.s3.endpoint to the store's URL, e.g. http://minio:9000.");
        }
        return new S3Backend(new S3Config(s3.endpoint(), s3.bucket(), s3.accessKey(), s3.secretKey(), s3.region(),
                s3.createBucket(), s3.connectTimeout()));
    }

    private static void require(String property, String value) {
        if (value == null || value.isBlank()) {
            throw new StartupCheckException(property, "is required when chronix.cold.s3.endpoint is set",
                    "Set " + property + ", or unset chronix.cold.s3.endpoint to use the filesystem cold tier.");
        }
    }
}

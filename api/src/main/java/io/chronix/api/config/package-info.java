/**
 * Service configuration: the validated {@code chronix.*} properties, the start-up checks that turn a
 * bad setting into one clear line naming the property, and the data directory with its lock.
 */
package io.chronix.api.config;

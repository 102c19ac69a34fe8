/**
 * The black-box harness: {@link io.chronix.it.support.ServiceProcess} starts the service jar as a
 * child process (the JDK running the tests, so JDK 25) and talks to it over HTTP;
 * {@link io.chronix.it.support.ExternalServices} provides the real PostgreSQL and S3 it is pointed at.
 */
package io.chronix.it.support;

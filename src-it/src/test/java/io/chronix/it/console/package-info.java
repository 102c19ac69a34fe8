/**
 * End-to-end tests of the tenant admin console: a real headless Chromium (Debian's {@code chromium}
 * and {@code chromium-driver}, driven by Selenium) against the service jar with real PostgreSQL.
 * Screenshots of every page go to {@code target/console-screenshots/}.
 */
package io.chronix.it.console;

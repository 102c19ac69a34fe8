/**
 * The console's login and session: its security chain (form login, session, CSRF), the throttle
 * on failed logins, the login page, the entry point that forwards to the admin UI's page, and the session probe.
 *
 * <p>Threading: the throttle is a concurrent map; everything else is stateless.
 */
package io.chronix.api.console;

/**
 * The console's login and session: its security chain (form login, session, CSRF), the throttle
 * on failed logins, the login page and the session probe. The console pages come with the admin UI.
 *
 * <p>Threading: the throttle is a concurrent map; everything else is stateless.
 */
package io.chronix.api.console;

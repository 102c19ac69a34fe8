package io.chronix.api.console;

import io.chronix.api.security.TenantPrincipal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.util.HtmlUtils;

import java.time.Duration;

/**
 * The console's login page, its entry point and the session probe. The pages themselves are static
 * resources of the {@code admin-ui} jar under {@code /console/}; they learn who is signed in, and
 * the CSRF token to send, from {@code /console/session}.
 */
@RestController
@Tag(name = "Console", description = "Form login with session and CSRF for the tenant admin console.")
class ConsoleController {

    private final ConsoleLoginProperties login;

    ConsoleController(ConsoleLoginProperties login) {
        this.login = login;
    }

    /** @param csrf what a page must send with state-changing requests */
    record Session(String kind, String email, Tenant tenant, Csrf csrf) {
    }

    record Tenant(String id, String name) {
    }

    record Csrf(String headerName, String parameterName, String token) {
    }

    @GetMapping(value = "/console/login", produces = MediaType.TEXT_HTML_VALUE)
    @Operation(summary = "Console login page", description = "POST /console/login with email, password and _csrf (form-encoded) signs in; too many failures answer 429.")
    String loginPage(HttpServletRequest request) {
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        String message = request.getParameter("error") != null
                ? "<p class=\"notice error\" role=\"alert\" id=\"login-message\">Wrong e-mail or password.</p>"
                : request.getParameter("logout") != null
                ? "<p class=\"notice\" role=\"status\" id=\"login-message\">Signed out.</p>"
                : "<p class=\"notice\" role=\"status\" id=\"login-message\" hidden></p>";
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Sign in · Chronix console</title>
                <link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml">
                <link rel="stylesheet" href="/console/assets/console.css">
                <script type="module" src="/console/assets/login.js"></script>
                </head>
                <body class="login">
                <main class="login-card">
                <h1><span class="logo" aria-hidden="true"></span>Chronix console</h1>
                <p class="muted">Sign in with your tenant administrator's e-mail and password.</p>
                %s
                <form method="post" action="/console/login" id="login-form">
                <label for="email">E-mail</label>
                <input id="email" type="email" name="email" autocomplete="username" required autofocus>
                <label for="password">Password</label>
                <input id="password" type="password" name="password" autocomplete="current-password" required>
                <input type="hidden" name="%s" value="%s">
                <button type="submit" class="primary">Sign in</button>
                </form>
                <p class="muted small">After %d failed attempts an account is locked for %s.</p>
                </main></body></html>
                """.formatted(message, HtmlUtils.htmlEscape(csrf.getParameterName()), HtmlUtils.htmlEscape(csrf.getToken()),
                login.maxFailuresPerAccount(), lockTime(login.window()));
    }

    private static String lockTime(Duration window) {
        long minutes = window.toMinutes();
        return minutes >= 1 ? minutes + (minutes == 1 ? " minute" : " minutes") : window.toSeconds() + " seconds";
    }

    /** The console's single page; its router works with {@code #/…} fragments, so one document serves every page. */
    @GetMapping({"/console", "/console/"})
    @Operation(summary = "The console", description = "The tenant admin console (a session is needed; without one, 302 to the login page).")
    ModelAndView console(HttpServletRequest request) {
        return request.getRequestURI().endsWith("/") ? new ModelAndView("forward:/console/index.html")
                : new ModelAndView("redirect:/console/");
    }

    @GetMapping("/console/session")
    @Operation(summary = "The console session", description = "Who is signed in, and the CSRF token to send with state-changing requests.")
    Session session(Authentication auth, HttpServletRequest request) {
        TenantPrincipal p = (TenantPrincipal) auth.getPrincipal();
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        return new Session(p.kind(), p.email(), new Tenant(p.tenantId().toString(), p.tenantName()),
                new Csrf(csrf.getHeaderName(), csrf.getParameterName(), csrf.getToken()));
    }
}

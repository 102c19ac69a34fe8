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
import org.springframework.web.util.HtmlUtils;

/**
 * The console's login page and session probe. The console pages themselves come with the admin UI;
 * until then {@code /console/session} is how a browser (or a test) sees that the session works.
 */
@RestController
@Tag(name = "Console", description = "Form login with session and CSRF for the tenant admin console.")
class ConsoleController {

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
        String error = request.getParameter("error") != null ? "<p role=\"alert\">Wrong e-mail or password.</p>" : "";
        String out = request.getParameter("logout") != null ? "<p>Signed out.</p>" : "";
        return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Chronix console: sign in</title></head>
                <body><h1>Chronix console</h1>%s%s
                <form method="post" action="/console/login">
                <label>E-mail <input type="email" name="email" autocomplete="username" required></label>
                <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
                <input type="hidden" name="%s" value="%s">
                <button type="submit">Sign in</button>
                </form></body></html>
                """.formatted(error, out, HtmlUtils.htmlEscape(csrf.getParameterName()), HtmlUtils.htmlEscape(csrf.getToken()));
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

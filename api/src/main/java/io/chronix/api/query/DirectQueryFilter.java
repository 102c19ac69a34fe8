package io.chronix.api.query;

import io.chronix.api.security.BearerTokenFilter;
import io.chronix.api.security.TenantMdcFilter;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.ResourceName;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;
import org.springframework.http.HttpHeaders;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.security.web.header.HeaderWriter;
import org.springframework.security.web.header.writers.CacheControlHeadersWriter;
import org.springframework.security.web.header.writers.HstsHeaderWriter;
import org.springframework.security.web.header.writers.XContentTypeOptionsHeaderWriter;
import org.springframework.security.web.header.writers.XXssProtectionHeaderWriter;
import org.springframework.security.web.header.writers.frameoptions.XFrameOptionsHeaderWriter;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code GET /api/v1/namespaces/{ns}/query} with a tenant's token, answered without the generic
 * web stack: a servlet filter that authenticates the token as the security chain does ({@link
 * BearerTokenFilter#authenticate}), writes the chain's security headers, and calls the controller's
 * own handler ({@link QueryController#query}); an exception is answered by the same
 * {@code @ExceptionHandler} methods the dispatcher would use (its exception resolvers, in its
 * order). What it skips is what a small query cannot afford: a dozen security filters and the
 * dispatcher's mapping, argument resolution and reflection (measured on a warm service, one-series
 * query: median 0.77 → 0.67 ms, server CPU per query 1.12 → 0.94 ms).
 *
 * <p>It takes only what it can answer exactly as the dispatcher would, and passes everything else
 * down the chain untouched: another method (POST with its JSON body, HEAD), a path that is not
 * exactly {@code /api/v1/namespaces/<name>/query} with a valid namespace name (so nothing for the
 * firewall to normalise or refuse), no credential or one that is not a tenant's (the chain answers
 * 401 or 403 then). The answer's scopes, namespace lookup and errors are the controller's. The
 * request is still observed as {@code http.server.requests} (this filter runs inside the
 * observation filter) under the controller's path pattern, and the tenant is in the log MDC.
 */
final class DirectQueryFilter implements Filter {

    static final String PATH_PATTERN = "/api/v1/namespaces/{ns}/query";
    private static final String PREFIX = "/api/v1/namespaces/";
    private static final String SUFFIX = "/query";
    private static final Pattern NAME = Pattern.compile(ResourceName.PATTERN);

    private final BearerTokenFilter bearer;
    private final QueryController controller;
    /** The dispatcher's exception resolvers, in its order (every bean of the type, as it detects them). */
    private final List<HandlerExceptionResolver> errors;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();
    /** The security chains' default header writers (HeaderWriterFilter's set); HSTS writes only over TLS. */
    private final List<HeaderWriter> securityHeaders = List.of(new XContentTypeOptionsHeaderWriter(), new XXssProtectionHeaderWriter(),
            new CacheControlHeadersWriter(), new HstsHeaderWriter(), new XFrameOptionsHeaderWriter());

    DirectQueryFilter(BearerTokenFilter bearer, QueryController controller, List<HandlerExceptionResolver> errors) {
        this.bearer = bearer;
        this.controller = controller;
        this.errors = List.copyOf(errors);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        if (!(req instanceof HttpServletRequest request) || !(res instanceof HttpServletResponse response)
                || request.getDispatcherType() != DispatcherType.REQUEST || !"GET".equals(request.getMethod())) {
            chain.doFilter(req, res);
            return;
        }
        String ns = namespace(request.getRequestURI(), request.getContextPath());
        Authentication auth = ns == null ? null : bearer.authenticate(request)
                .filter(a -> a.getPrincipal() instanceof TenantPrincipal).orElse(null);
        if (auth == null) {
            chain.doFilter(req, res);
            return;
        }
        answer(request, response, ns, auth);
    }

    /** The namespace name of {@code <context>/api/v1/namespaces/<name>/query}, or null for any other path. */
    static String namespace(String uri, String contextPath) {
        int from = contextPath.length() + PREFIX.length();
        if (!uri.startsWith(contextPath) || !uri.startsWith(PREFIX, contextPath.length()) || !uri.endsWith(SUFFIX)
                || uri.length() <= from + SUFFIX.length()) {
            return null;
        }
        String name = uri.substring(from, uri.length() - SUFFIX.length());
        return NAME.matcher(name).matches() ? name : null;
    }

    private void answer(HttpServletRequest request, HttpServletResponse response, String ns, Authentication auth)
            throws IOException, ServletException {
        ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setPathPattern(PATH_PATTERN));
        for (HeaderWriter w : securityHeaders) {
            w.writeHeaders(request, response);
        }
        SecurityContext context = contexts.createEmptyContext();
        context.setAuthentication(auth);
        contexts.setContext(context);
        MDC.put(TenantMdcFilter.KEY, ((TenantPrincipal) auth.getPrincipal()).tenantId().toString());
        try {
            // as the dispatcher binds them: repeated parameters or headers joined with commas
            controller.query(ns, joined(request.getParameterValues("sql")), joined(request.getHeaders(HttpHeaders.ACCEPT)), auth, response);
        } catch (Exception e) {
            ModelAndView handled = null;
            for (int i = 0; i < errors.size() && handled == null; i++) {
                handled = errors.get(i).resolveException(request, response, null, e);
            }
            if (handled == null) {
                switch (e) {
                    case IOException io -> throw io;
                    case ServletException se -> throw se;
                    case RuntimeException re -> throw re;
                    default -> throw new ServletException(e);
                }
            }
            ServerHttpObservationFilter.findObservationContext(request).ifPresent(c -> c.setError(e));
        } finally {
            MDC.remove(TenantMdcFilter.KEY);
            contexts.clearContext();
        }
    }

    private static String joined(String[] values) {
        return values == null ? null : String.join(",", values);
    }

    private static String joined(Enumeration<String> values) {
        return values == null || !values.hasMoreElements() ? null : String.join(",", Collections.list(values));
    }
}

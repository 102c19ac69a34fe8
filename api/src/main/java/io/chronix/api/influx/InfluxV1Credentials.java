package io.chronix.api.influx;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs before the security filters on the write endpoints and does two things:
 * <ul>
 *   <li>parameters come from the query string only: a write body is line protocol whatever its
 *       {@code Content-Type} says (curl sends {@code application/x-www-form-urlencoded}), so it must
 *       never be parsed as a form — that would consume it;</li>
 *   <li>on {@code /write} (InfluxDB 1), a token given as {@code p=} or as the Basic-auth password,
 *       with no {@code Bearer}/{@code Token} header, is presented to the security chain as
 *       {@code Authorization: Token <token>}; the bearer filter then verifies it like any token.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class InfluxV1Credentials {

    /** Before Spring Security's filter chain (-100) and the request-context filters. */
    static final int ORDER = -110;

    @Bean
    FilterRegistrationBean<Filter> influxWriteRequestFilter() {
        FilterRegistrationBean<Filter> r = new FilterRegistrationBean<>(new WriteRequestFilter());
        r.addUrlPatterns("/write", "/api/v2/write", "/api/v1/namespaces/*");
        r.setOrder(ORDER);
        r.setName("influxWriteRequestFilter");
        return r;
    }

    static final class WriteRequestFilter implements Filter {
        @Override
        public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
            if (req instanceof HttpServletRequest http && "POST".equals(http.getMethod()) && isWrite(http.getRequestURI())) {
                chain.doFilter(new QueryOnly(http), res);
                return;
            }
            chain.doFilter(req, res);
        }

        private static boolean isWrite(String uri) {
            return uri.equals("/write") || uri.equals("/api/v2/write") || (uri.startsWith("/api/v1/namespaces/") && uri.endsWith("/write"));
        }
    }

    static final class QueryOnly extends HttpServletRequestWrapper {
        private final Map<String, String[]> params;
        private final String authorization;

        QueryOnly(HttpServletRequest request) {
            super(request);
            this.params = parseQuery(request.getQueryString());
            this.authorization = request.getRequestURI().equals("/write") ? v1Authorization(request.getHeader(HttpHeaders.AUTHORIZATION), params)
                    : request.getHeader(HttpHeaders.AUTHORIZATION);
        }

        static String v1Authorization(String header, Map<String, String[]> params) {
            if (header != null) {
                String h = header.strip();
                if (h.regionMatches(true, 0, "Basic ", 0, 6)) {
                    try {
                        String decoded = new String(Base64.getDecoder().decode(h.substring(6).strip()), StandardCharsets.UTF_8);
                        int colon = decoded.indexOf(':');
                        if (colon >= 0 && colon < decoded.length() - 1) {
                            return "Token " + decoded.substring(colon + 1);
                        }
                    } catch (IllegalArgumentException e) {
                        return header; // not base64: the chain answers 401
                    }
                }
                return header;
            }
            String[] p = params.get("p");
            return p != null && p.length > 0 && !p[0].isBlank() ? "Token " + p[0] : null;
        }

        static Map<String, String[]> parseQuery(String query) {
            Map<String, List<String>> m = new LinkedHashMap<>();
            if (query != null && !query.isEmpty()) {
                for (String pair : query.split("&")) {
                    if (pair.isEmpty()) {
                        continue;
                    }
                    int eq = pair.indexOf('=');
                    String k = decode(eq < 0 ? pair : pair.substring(0, eq));
                    String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
                    m.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                }
            }
            Map<String, String[]> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, v.toArray(String[]::new)));
            return Collections.unmodifiableMap(out);
        }

        private static String decode(String s) {
            try {
                return URLDecoder.decode(s, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return s;
            }
        }

        @Override
        public String getParameter(String name) {
            String[] v = params.get(name);
            return v == null || v.length == 0 ? null : v[0];
        }

        @Override
        public Map<String, String[]> getParameterMap() {
            return params;
        }

        @Override
        public Enumeration<String> getParameterNames() {
            return Collections.enumeration(params.keySet());
        }

        @Override
        public String[] getParameterValues(String name) {
            String[] v = params.get(name);
            return v == null ? null : v.clone();
        }

        @Override
        public String getHeader(String name) {
            if (HttpHeaders.AUTHORIZATION.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return authorization;
            }
            return super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            if (HttpHeaders.AUTHORIZATION.equalsIgnoreCase(name)) {
                return authorization == null ? Collections.emptyEnumeration() : Collections.enumeration(List.of(authorization));
            }
            return super.getHeaders(name);
        }
    }
}

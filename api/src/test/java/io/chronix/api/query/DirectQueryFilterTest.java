package io.chronix.api.query;

import io.chronix.api.security.BearerTokenFilter;
import io.chronix.api.security.CredentialResolver;
import io.chronix.api.security.OperatorPrincipal;
import io.chronix.api.security.TenantMdcFilter;
import io.chronix.api.sql.SqlErrorException;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which requests {@link DirectQueryFilter} answers itself and which it leaves to the chain, and how
 * it hands an error to the dispatcher's resolvers. (That its answers equal the dispatcher's, status,
 * body and headers, is QueryIT's, against the real service.)
 */
class DirectQueryFilterTest {

    static final Authentication TENANT = QueryWebFixture.tenant("read:metrics");
    static final CredentialResolver TOKENS = credential -> switch (credential) {
        case "tenant-token" -> Optional.of(TENANT);
        case "operator-token" -> Optional.of(UsernamePasswordAuthenticationToken.authenticated(OperatorPrincipal.INSTANCE, null, List.of()));
        default -> Optional.empty();
    };

    /** What the controller was asked, and what the MDC and security context held while it ran. */
    final List<String> calls = new ArrayList<>();
    RuntimeException failure;

    final QueryController controller = new QueryController(null, null, null) {
        @Override
        void query(String ns, String sql, String accept, Authentication auth, HttpServletResponse response) {
            calls.add(ns + "|" + sql + "|" + accept + "|" + (auth == TENANT) + "|" + MDC.get(TenantMdcFilter.KEY)
                    + "|" + (SecurityContextHolder.getContext().getAuthentication() == TENANT));
            if (failure != null) {
                throw failure;
            }
            response.setStatus(200);
        }
    };

    final List<Exception> resolved = new ArrayList<>();
    final HandlerExceptionResolver problems = (request, response, handler, ex) -> {
        if (!(ex instanceof SqlErrorException)) {
            return null;
        }
        resolved.add(ex);
        response.setStatus(400);
        return new ModelAndView();
    };

    DirectQueryFilter filter = new DirectQueryFilter(new BearerTokenFilter(List.of(TOKENS), null), controller, List.of(problems));

    static MockHttpServletRequest request(String method, String uri, String authorization) {
        MockHttpServletRequest r = new MockHttpServletRequest(method, uri);
        if (authorization != null) {
            r.addHeader("Authorization", authorization);
        }
        r.addParameter("sql", "SELECT 1");
        return r;
    }

    /** True if the filter passed the request down the chain. */
    boolean passedOn(MockHttpServletRequest request) throws Exception {
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(request, new MockHttpServletResponse(), chain);
        return chain.getRequest() != null;
    }

    @Test
    void answersATenantsGetOfTheQueryPathItself() throws Exception {
        MockHttpServletRequest r = request("GET", "/api/v1/namespaces/metrics/query", "Bearer tenant-token");
        r.addParameter("sql", "SELECT 2");
        r.addHeader("Accept", "text/csv");
        r.addHeader("Accept", "application/json");
        MockHttpServletResponse response = new MockHttpServletResponse();
        MockFilterChain chain = new MockFilterChain();
        filter.doFilter(r, response, chain);
        assertThat(chain.getRequest()).as("not passed on").isNull();
        // repeated parameters and headers joined with commas, as the dispatcher binds them to a String
        assertThat(calls).containsExactly("metrics|SELECT 1,SELECT 2|text/csv,application/json|true|" + QueryWebFixture.TENANT + "|true");
        assertThat(response.getHeader("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(response.getHeader("X-Frame-Options")).isEqualTo("DENY");
        assertThat(response.getHeader("Cache-Control")).contains("no-store");
        assertThat(MDC.get(TenantMdcFilter.KEY)).as("MDC cleared").isNull();
        assertThat(SecurityContextHolder.getContext().getAuthentication()).as("context cleared").isNull();
        assertThat(passedOn(request("GET", "/api/v1/namespaces/metrics/query", "Token tenant-token"))).isFalse();
    }

    @Test
    void leavesEverythingElseToTheChain() throws Exception {
        assertThat(passedOn(request("POST", "/api/v1/namespaces/metrics/query", "Bearer tenant-token"))).as("POST").isTrue();
        assertThat(passedOn(request("HEAD", "/api/v1/namespaces/metrics/query", "Bearer tenant-token"))).as("HEAD").isTrue();
        assertThat(passedOn(request("GET", "/api/v1/namespaces/metrics/query", null))).as("no credential").isTrue();
        assertThat(passedOn(request("GET", "/api/v1/namespaces/metrics/query", "Bearer unknown"))).as("unknown token").isTrue();
        assertThat(passedOn(request("GET", "/api/v1/namespaces/metrics/query", "Basic dXNlcjpwdw=="))).as("basic").isTrue();
        assertThat(passedOn(request("GET", "/api/v1/namespaces/metrics/query", "Bearer operator-token"))).as("not a tenant").isTrue();
        for (String uri : List.of("/api/v1/namespaces/metrics/last", "/api/v1/namespaces//query", "/api/v1/namespaces/Metrics/query",
                "/api/v1/namespaces/a/b/query", "/api/v1/namespaces/metrics;x=1/query", "/api/v1/namespaces/m%2Fx/query",
                "/api/v1/namespaces/../query", "/api/v1/namespaces/query", "/api/v1/namespaces/metrics/query/")) {
            assertThat(passedOn(request("GET", uri, "Bearer tenant-token"))).as(uri).isTrue();
        }
        MockHttpServletRequest error = request("GET", "/api/v1/namespaces/metrics/query", "Bearer tenant-token");
        error.setDispatcherType(DispatcherType.ERROR);
        assertThat(passedOn(error)).as("an error dispatch").isTrue();
        assertThat(calls).isEmpty();
    }

    @Test
    void namespaceIsTheOneValidSegmentBetweenPrefixAndSuffix() {
        assertThat(DirectQueryFilter.namespace("/api/v1/namespaces/metrics-1_a/query", "")).isEqualTo("metrics-1_a");
        assertThat(DirectQueryFilter.namespace("/ctx/api/v1/namespaces/m/query", "/ctx")).isEqualTo("m");
        assertThat(DirectQueryFilter.namespace("/api/v1/namespaces/m/query", "/ctx")).isNull();
        assertThat(DirectQueryFilter.namespace("/api/v1/namespaces/-m/query", "")).isNull();
        assertThat(DirectQueryFilter.namespace("/api/v1/namespaces/" + "m".repeat(64) + "/query", "")).isNull();
    }

    @Test
    void errorsGoToTheDispatchersResolversAndWhatNoneHandlesIsRethrown() throws Exception {
        failure = new SqlErrorException("Parser Error", "syntax error at end of input", 26);
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(request("GET", "/api/v1/namespaces/metrics/query", "Bearer tenant-token"), response, new MockFilterChain());
        assertThat(response.getStatus()).isEqualTo(400);
        assertThat(resolved).containsExactly(failure);

        failure = new IllegalStateException("not ours to answer");
        assertThatThrownBy(() -> filter.doFilter(request("GET", "/api/v1/namespaces/metrics/query", "Bearer tenant-token"),
                new MockHttpServletResponse(), new MockFilterChain())).isSameAs(failure);
        assertThat(MDC.get(TenantMdcFilter.KEY)).as("MDC cleared after a failure").isNull();
        assertThat(SecurityContextHolder.getContext().getAuthentication()).isNull();
    }
}

package io.chronix.api.security;

import io.chronix.tenancy.token.Scope;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TenantMdcFilterTest {

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
        MDC.clear();
    }

    @Test
    void tenantIsInTheMdcDuringTheRequestAndGoneAfterEvenOnFailure() {
        UUID tenant = UUID.randomUUID();
        TenantPrincipal p = new TenantPrincipal(tenant, "acme", "abcdefghijklmnop", null, Set.of(new Scope(Scope.Action.READ, "*")));
        SecurityContextHolder.getContext().setAuthentication(UsernamePasswordAuthenticationToken.authenticated(p, null, java.util.List.of()));
        AtomicReference<String> seen = new AtomicReference<>();
        assertThatThrownBy(() -> new TenantMdcFilter().doFilter(new MockHttpServletRequest(), new MockHttpServletResponse(), (req, res) -> {
            seen.set(MDC.get(TenantMdcFilter.KEY));
            throw new IllegalStateException("handler failed");
        })).hasMessage("handler failed");
        assertThat(seen.get()).isEqualTo(tenant.toString());
        assertThat(MDC.get(TenantMdcFilter.KEY)).isNull();
    }

    @Test
    void theOperatorLeavesTheMdcAlone() throws Exception {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(OperatorPrincipal.INSTANCE, null, java.util.List.of()));
        AtomicReference<String> seen = new AtomicReference<>("unset");
        new TenantMdcFilter().doFilter(new MockHttpServletRequest(), new MockHttpServletResponse(),
                (req, res) -> seen.set(MDC.get(TenantMdcFilter.KEY)));
        assertThat(seen.get()).isNull();
    }
}

package io.chronix.api.namespace;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.security.TenantTokenResolver;
import io.chronix.tenancy.LimitExceededException;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.usage.UsageService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * The namespace endpoints in a web slice: JSON shapes, status codes and problem documents, with
 * tenancy mocked and security filters off (the principal is given directly).
 */
@WebMvcTest(NamespaceController.class)
@AutoConfigureMockMvc(addFilters = false)
@Import(TenantAccess.class)
class NamespaceControllerSliceTest {

    static final UUID TENANT = UUID.fromString("0b6f3f1e-8f3e-4c71-9d0a-6f4f0c7c2a11");

    @Autowired MockMvc mvc;
    @MockitoBean NamespaceService namespaces;
    @MockitoBean UsageService usage;
    @MockitoBean TenancyDirectory directory;

    static Authentication tenant(String... scopes) {
        Set<Scope> s = java.util.Arrays.stream(scopes).map(x -> Scope.parse("scope", x)).collect(java.util.stream.Collectors.toSet());
        return UsernamePasswordAuthenticationToken.authenticated(new TenantPrincipal(TENANT, "acme", "abcdefghijklmnop", null, s),
                null, TenantTokenResolver.authorities(s));
    }

    static Namespace ns(String name) {
        return new Namespace(42, TENANT, name, Duration.ofDays(30), null, "{}", Instant.parse("2026-12-01T20:00:00Z"));
    }

    @Test
    void listAnswersTheContractShape() throws Exception {
        when(namespaces.list(eq(TENANT), any())).thenReturn(List.of(ns("metrics")));
        when(usage.ofNamespaces(TENANT, List.of(42L))).thenReturn(Map.of(42L, new io.chronix.tenancy.usage.NamespaceUsage(42, 123, 4567, 9, 1200)));
        mvc.perform(get("/api/v1/namespaces").principal(tenant("admin:*")))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].name").value("metrics"))
                .andExpect(jsonPath("$[0].retention").value("P30D"))
                .andExpect(jsonPath("$[0].createdAt").value("2026-12-01T20:00:00Z"))
                .andExpect(jsonPath("$[0].series").value(123))
                .andExpect(jsonPath("$[0].storedBytes").value(4567))
                .andExpect(jsonPath("$[0].coldBytes").value(1200));
    }

    @Test
    void createAnswers201WithLocation() throws Exception {
        when(namespaces.create(TENANT, "metrics", Duration.ofDays(30), null)).thenReturn(ns("metrics"));
        mvc.perform(post("/api/v1/namespaces").principal(tenant("admin:*")).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"metrics\", \"retention\": \"P30D\"}"))
                .andExpect(status().isCreated())
                .andExpect(header().string("Location", "/api/v1/namespaces/metrics"))
                .andExpect(jsonPath("$.name").value("metrics"));
    }

    @Test
    void anUnknownFieldIsNamedAndNothingIsCreated() throws Exception {
        mvc.perform(post("/api/v1/namespaces").principal(tenant("admin:*")).contentType(MediaType.APPLICATION_JSON)
                        .content("{\"name\": \"metrics\", \"ttl\": \"P30D\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errorId").value("unknown-field"))
                .andExpect(jsonPath("$.errors[0].field").value("ttl"));
        verify(namespaces, never()).create(any(), any(), any(), any());
    }

    @Test
    void aMissingNamespaceIs404AndAMissingScope403() throws Exception {
        when(directory.namespace(TENANT, "metrics")).thenReturn(Optional.of(ns("metrics")));
        when(directory.namespace(TENANT, "nope")).thenReturn(Optional.empty());
        mvc.perform(get("/api/v1/namespaces/nope").principal(tenant("admin:*")))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.type").value("urn:chronix:problem:namespace-not-found"))
                .andExpect(jsonPath("$.errorId").value("namespace-not-found"));
        mvc.perform(get("/api/v1/namespaces/metrics").principal(tenant("read:metrics")))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.errorId").value("missing-scope"))
                .andExpect(jsonPath("$.requiredScope").value("admin:metrics"));
        mvc.perform(post("/api/v1/namespaces").principal(tenant("write:*")).contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"x\"}"))
                .andExpect(status().isForbidden())
                .andExpect(jsonPath("$.requiredScope").value("admin:*"));
    }

    @Test
    void aLimitNamesTenantLimitAndValue() throws Exception {
        when(namespaces.create(eq(TENANT), eq("x"), any(), any()))
                .thenThrow(new LimitExceededException(TENANT, "maxNamespaces", "10", "the tenant has as many namespaces as its quota allows"));
        mvc.perform(post("/api/v1/namespaces").principal(tenant("admin:*")).contentType(MediaType.APPLICATION_JSON).content("{\"name\": \"x\"}"))
                .andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.errorId").value("quota-exceeded"))
                .andExpect(jsonPath("$.tenant").value(TENANT.toString()))
                .andExpect(jsonPath("$.limit").value("maxNamespaces"))
                .andExpect(jsonPath("$.value").value("10"));
    }
}

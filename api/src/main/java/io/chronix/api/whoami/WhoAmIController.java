package io.chronix.api.whoami;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.chronix.api.security.ChronixPrincipal;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.token.Scope;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

@RestController
class WhoAmIController {

    /**
     * @param kind        {@code operator} or {@code tenant}
     * @param authorities what the credentials grant
     * @param tenant      the tenant, for tenant credentials only
     * @param scopes      the token's scopes, for tenant credentials only
     * @param tokenId     the token's public id, for tenant API tokens only
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record WhoAmI(String kind, List<String> authorities, TenantRef tenant, List<String> scopes, String tokenId) {
    }

    record TenantRef(String id, String name) {
    }

    @GetMapping("/api/v1/whoami")
    @Operation(summary = "Who the bearer is", description = "For the operator token: kind operator. For a tenant token: kind tenant, the tenant's id and name, the token's id and scopes. 401 without valid credentials.",
            security = @SecurityRequirement(name = "bearer"))
    WhoAmI whoami(Authentication auth) {
        ChronixPrincipal p = (ChronixPrincipal) auth.getPrincipal();
        List<String> authorities = auth.getAuthorities().stream().map(GrantedAuthority::getAuthority).sorted().toList();
        if (p instanceof TenantPrincipal t) {
            return new WhoAmI(p.kind(), authorities, new TenantRef(t.tenantId().toString(), t.tenantName()),
                    t.scopes().stream().map(Scope::toString).sorted().toList(), t.tokenId());
        }
        return new WhoAmI(p.kind(), authorities, null, null, null);
    }
}

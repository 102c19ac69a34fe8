package io.chronix.api.whoami;

import io.chronix.api.security.ChronixPrincipal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

@RestController
class WhoAmIController {

    /** @param kind {@code operator} or {@code tenant}; @param authorities what the credentials grant */
    record WhoAmI(String kind, List<String> authorities) {
    }

    @GetMapping("/api/v1/whoami")
    @Operation(summary = "Who the bearer is", description = "Answers for the operator token and, once tenancy exists, tenant tokens. 401 without valid credentials.",
            security = @SecurityRequirement(name = "bearer"))
    WhoAmI whoami(Authentication auth) {
        ChronixPrincipal p = (ChronixPrincipal) auth.getPrincipal();
        return new WhoAmI(p.kind(), auth.getAuthorities().stream().map(GrantedAuthority::getAuthority).sorted().toList());
    }
}

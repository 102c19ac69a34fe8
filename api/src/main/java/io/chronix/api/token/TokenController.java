package io.chronix.api.token;

import io.chronix.api.security.TenantAccess;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.api.security.TenantTokenResolver;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.token.IssuedToken;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.token.TokenInfo;
import io.chronix.tenancy.token.TokenService;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.time.Instant;
import java.util.List;

/** A tenant's API tokens (scope {@code admin:*}). The secret is in the creation answer only. */
@RestController
@RequestMapping("/api/v1/tokens")
@Tag(name = "Tenant: tokens", description = "Create, list and revoke the tenant's API tokens. admin:*.")
@SecurityRequirement(name = "bearer")
class TokenController {

    private final TenantAccess access;
    private final TokenService tokens;
    private final TenantTokenResolver cache;

    TokenController(TenantAccess access, TokenService tokens, TenantTokenResolver cache) {
        this.access = access;
        this.tokens = tokens;
        this.cache = cache;
    }

    record CreateToken(
            @Schema(example = "grafana", maxLength = 200) String description,
            @ArraySchema(schema = @Schema(example = "read:metrics", description = "read|write|admin, a colon, a namespace name or *"),
                    minItems = 1, maxItems = 100) List<String> scopes,
            @Schema(example = "2027-06-01T00:00:00Z", description = "optional; in the future") Instant expiresAt) {
    }

    record TokenCreated(@Schema(example = "abcdefghijklmnop") String id,
                        @Schema(example = "cx_abcdefghijklmnop_abcdefghijklmnopqrstuvwxyz234567", description = "shown only in this answer") String token,
                        @Schema(example = "[\"read:metrics\"]") List<String> scopes,
                        @Schema(example = "grafana") String description,
                        Instant createdAt,
                        @Schema(nullable = true) Instant expiresAt) {

        /** Without the token: Spring MVC logs the value it writes at DEBUG. */
        @Override
        public String toString() {
            return "TokenCreated[id=" + id + ", scopes=" + scopes + "]";
        }
    }

    record TokenView(@Schema(example = "abcdefghijklmnop") String id,
                     @Schema(example = "grafana") String description,
                     @Schema(example = "[\"read:metrics\"]") List<String> scopes,
                     Instant createdAt,
                     @Schema(nullable = true, description = "updated at most once a minute") Instant lastUsedAt,
                     @Schema(nullable = true) Instant expiresAt) {
        static TokenView of(TokenInfo t) {
            return new TokenView(t.id(), t.description(), t.scopes().stream().map(Scope::toString).toList(), t.createdAt(),
                    t.lastUsedAt(), t.expiresAt());
        }
    }

    @PostMapping
    @Operation(summary = "Create a token", description = "The token (cx_<id>_<secret>) is in this answer and nowhere else, ever.")
    @ApiResponse(responseCode = "201", description = "created")
    @ApiResponse(responseCode = "400", description = "invalid-field (scopes, description, expiresAt), unknown-field, malformed-json")
    ResponseEntity<TokenCreated> create(Authentication auth, @RequestBody CreateToken body) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        IssuedToken t = tokens.issue(p.tenantId(), body.description(), body.scopes(), body.expiresAt());
        TokenInfo i = t.info();
        return ResponseEntity.created(URI.create("/api/v1/tokens/" + i.id()))
                .body(new TokenCreated(i.id(), t.token(), i.scopes().stream().map(Scope::toString).toList(), i.description(),
                        i.createdAt(), i.expiresAt()));
    }

    @GetMapping
    @Operation(summary = "List tokens", description = "Live tokens, oldest first, without secrets; limit 1-1000 (default 100), offset from 0.")
    List<TokenView> list(Authentication auth, @RequestParam(defaultValue = "100") int limit, @RequestParam(defaultValue = "0") int offset) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        return tokens.list(p.tenantId(), new Page(limit, offset)).stream().map(TokenView::of).toList();
    }

    @DeleteMapping("/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    @Operation(summary = "Revoke a token", description = "Effective at once: the next request with it answers 401.")
    @ApiResponse(responseCode = "204", description = "revoked")
    @ApiResponse(responseCode = "404", description = "token-not-found (also another tenant's token)")
    void revoke(Authentication auth, @PathVariable String id) {
        TenantPrincipal p = access.requireAll(auth, Scope.Action.ADMIN);
        if (!tokens.revoke(p.tenantId(), id)) {
            throw new NotFoundException(NotFoundException.Kind.TOKEN, id);
        }
        cache.invalidateAll();
    }
}

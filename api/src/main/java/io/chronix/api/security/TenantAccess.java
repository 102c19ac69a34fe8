package io.chronix.api.security;

import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.token.Scope;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Component;

/**
 * Authorization for tenant requests, in the order the contract fixes: the credentials must be a
 * tenant's (else 403 {@code not-a-tenant}); the namespace must be the tenant's and live (else 404
 * {@code namespace-not-found}, the same answer whether it belongs to another tenant, was deleted or
 * never existed); then the scope must allow the action (else 403 {@code missing-scope}).
 *
 * <p>Controllers of the data plane call {@link #namespace}; tenant-wide administration calls
 * {@link #requireAll}.
 */
@Component
public class TenantAccess {

    private final TenancyDirectory directory;

    public TenantAccess(TenancyDirectory directory) {
        this.directory = directory;
    }

    /** The request's tenant. */
    public TenantPrincipal tenant(Authentication auth) {
        if (auth == null || !(auth.getPrincipal() instanceof TenantPrincipal p)) {
            throw AccessRefusedException.notATenant();
        }
        return p;
    }

    /** The tenant of a request that needs {@code <action>:*}. */
    public TenantPrincipal requireAll(Authentication auth, Scope.Action action) {
        TenantPrincipal p = tenant(auth);
        if (!p.allowsAll(action)) {
            throw AccessRefusedException.missingScope(action.wire() + ":*");
        }
        return p;
    }

    /**
     * The tenant's live namespace of that name, if the credentials allow {@code action} on it.
     *
     * @throws NotFoundException       if the tenant has no live namespace of that name
     * @throws AccessRefusedException  if they do not
     */
    public Namespace namespace(Authentication auth, String name, Scope.Action action) {
        TenantPrincipal p = tenant(auth);
        Namespace ns = directory.namespace(p.tenantId(), name)
                .orElseThrow(() -> new NotFoundException(NotFoundException.Kind.NAMESPACE, name));
        if (!p.allows(action, ns.name())) {
            throw AccessRefusedException.missingScope(action.wire() + ":" + ns.name());
        }
        return ns;
    }
}

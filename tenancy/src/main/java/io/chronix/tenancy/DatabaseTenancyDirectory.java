package io.chronix.tenancy;

import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.TokenService;
import io.chronix.tenancy.token.VerifiedToken;
import org.springframework.stereotype.Component;

import java.util.Optional;
import java.util.UUID;

/** {@link TenancyDirectory} over the tenancy services. */
@Component
class DatabaseTenancyDirectory implements TenancyDirectory {

    private final TokenService tokens;
    private final NamespaceService namespaces;
    private final QuotaService quotas;

    DatabaseTenancyDirectory(TokenService tokens, NamespaceService namespaces, QuotaService quotas) {
        this.tokens = tokens;
        this.namespaces = namespaces;
        this.quotas = quotas;
    }

    @Override
    public Optional<VerifiedToken> verify(String presentedToken) {
        return tokens.verify(presentedToken);
    }

    @Override
    public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
        return namespaces.find(tenantId, namespaceName);
    }

    @Override
    public Quotas quotas(UUID tenantId) {
        return quotas.effective(tenantId);
    }
}

package io.chronix.tenancy;

import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.TokenService;
import io.chronix.tenancy.token.VerifiedToken;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link TenancyDirectory} over the tenancy services, with namespace lookups and effective quotas
 * cached in process.
 *
 * <p>The namespace cache holds found namespaces only, keyed by (tenant id, name) — a tenant's key
 * can never answer another tenant's lookup. The quota cache is keyed by tenant id. An entry of
 * either is served while the {@link TenancyChanges} generation it was read under is still current
 * and for at most {@link #NAMESPACE_TTL}: any change made through this process's services (a
 * namespace updated or deleted, a tenant's quotas replaced, a tenant deleted) makes every entry
 * stale from its commit on; a change made elsewhere wins within the TTL. Namespace misses are not
 * cached, so a namespace created a moment ago is found at once. Without the quota cache every
 * query paid a database round trip for its limits (docs/benchmarks.md as of commit 5e95285, "Per-query server costs").
 */
@Component
class DatabaseTenancyDirectory implements TenancyDirectory {

    /** As long as a verified token is kept ({@code TenantTokenResolver}): changes made by another node win within it. */
    static final Duration NAMESPACE_TTL = Duration.ofMillis(500);
    private static final int MAX_ENTRIES = 10_000;

    private record Key(UUID tenantId, String name) {
    }

    private record Entry(Namespace namespace, long generation, long loadedAtNanos) {
    }

    private record QuotaEntry(Quotas quotas, long generation, long loadedAtNanos) {
    }

    private final TokenService tokens;
    private final NamespaceService namespaces;
    private final QuotaService quotas;
    private final TenancyChanges changes;
    private final ConcurrentHashMap<Key, Entry> cache = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<UUID, QuotaEntry> quotaCache = new ConcurrentHashMap<>();

    DatabaseTenancyDirectory(TokenService tokens, NamespaceService namespaces, QuotaService quotas, TenancyChanges changes) {
        this.tokens = tokens;
        this.namespaces = namespaces;
        this.quotas = quotas;
        this.changes = changes;
    }

    @Override
    public Optional<VerifiedToken> verify(String presentedToken) {
        return tokens.verify(presentedToken);
    }

    @Override
    public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
        Key key = new Key(tenantId, namespaceName);
        long generation = changes.current(); // before the read: see TenancyChanges
        long now = System.nanoTime();
        Entry e = cache.get(key);
        if (e != null && e.generation() == generation && now - e.loadedAtNanos() < NAMESPACE_TTL.toNanos()) {
            return Optional.of(e.namespace());
        }
        Optional<Namespace> found = namespaces.find(tenantId, namespaceName);
        if (found.isEmpty()) {
            cache.remove(key);
            return found;
        }
        if (cache.size() >= MAX_ENTRIES) {
            cache.clear(); // crude, but a working set this large is far past what one node serves
        }
        cache.put(key, new Entry(found.get(), generation, now));
        return found;
    }

    @Override
    public Quotas quotas(UUID tenantId) {
        long generation = changes.current(); // before the read: see TenancyChanges
        long now = System.nanoTime();
        QuotaEntry e = quotaCache.get(tenantId);
        if (e != null && e.generation() == generation && now - e.loadedAtNanos() < NAMESPACE_TTL.toNanos()) {
            return e.quotas();
        }
        Quotas q = quotas.effective(tenantId);
        if (quotaCache.size() >= MAX_ENTRIES) {
            quotaCache.clear(); // as for namespaces: far past one node's working set
        }
        quotaCache.put(tenantId, new QuotaEntry(q, generation, now));
        return q;
    }

    @Override
    public long generation() {
        return changes.current();
    }
}

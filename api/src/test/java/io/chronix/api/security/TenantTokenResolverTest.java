package io.chronix.api.security;

import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.token.VerifiedToken;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class TenantTokenResolverTest {

    static final String TOKEN = "cx_abcdefghijklmnop_abcdefghijklmnopqrstuvwxyz234567";

    /** A directory whose verification answer the test sets, counting calls. */
    static class FakeDirectory implements TenancyDirectory {
        final AtomicReference<Optional<VerifiedToken>> answer = new AtomicReference<>(Optional.empty());
        final AtomicInteger calls = new AtomicInteger();
        final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

        @Override
        public Optional<VerifiedToken> verify(String presentedToken) {
            calls.incrementAndGet();
            return answer.get();
        }

        @Override
        public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
            return Optional.empty();
        }

        @Override
        public Quotas quotas(UUID tenantId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long generation() {
            return generation.get();
        }
    }

    private static VerifiedToken token(Instant expiresAt) {
        return new VerifiedToken("abcdefghijklmnop", UUID.randomUUID(), "acme", Set.of(new Scope(Scope.Action.WRITE, "metrics")), expiresAt);
    }

    @Test
    void onlyTenantTokensAreLookedUp() {
        FakeDirectory d = new FakeDirectory();
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        assertThat(r.resolve("cxop_operator")).isEmpty();
        assertThat(r.resolve("something")).isEmpty();
        assertThat(d.calls).hasValue(0);
    }

    @Test
    void aVerifiedTokenIsCachedBrieflyAndInvalidationWinsAtOnce() {
        FakeDirectory d = new FakeDirectory();
        d.answer.set(Optional.of(token(null)));
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        assertThat(r.resolve(TOKEN)).get().satisfies(a -> {
            assertThat(a.getPrincipal()).isInstanceOf(TenantPrincipal.class);
            assertThat(a.getAuthorities()).extracting(Object::toString).contains("ROLE_TENANT", "SCOPE_write:metrics");
        });
        assertThat(r.resolve(TOKEN)).isPresent();
        assertThat(d.calls).hasValue(1);

        d.answer.set(Optional.empty()); // revoked
        r.invalidateAll();
        assertThat(r.resolve(TOKEN)).isEmpty();
    }

    @Test
    void aChangeThroughTheServicesMakesTheCachedVerificationStale() {
        FakeDirectory d = new FakeDirectory();
        d.answer.set(Optional.of(token(null)));
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        assertThat(r.resolve(TOKEN)).isPresent();
        assertThat(r.resolve(TOKEN)).isPresent();
        assertThat(d.calls).hasValue(1);

        d.answer.set(Optional.empty()); // revoked, and the revocation advanced the generation
        d.generation.incrementAndGet();
        assertThat(r.resolve(TOKEN)).isEmpty();
        assertThat(d.calls).hasValue(2);
    }

    @Test
    void aVerificationReadBeforeARevocationCommittedIsNotTrustedAfterIt() {
        FakeDirectory d = new FakeDirectory() {
            @Override
            public Optional<VerifiedToken> verify(String presentedToken) {
                Optional<VerifiedToken> before = super.verify(presentedToken);
                if (calls.get() == 1) { // the revocation commits while this read is in flight
                    answer.set(Optional.empty());
                    generation.incrementAndGet();
                }
                return before;
            }
        };
        d.answer.set(Optional.of(token(null)));
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        assertThat(r.resolve(TOKEN)).isPresent(); // read before the commit: this request may pass
        assertThat(r.resolve(TOKEN)).isEmpty();   // the next one must not
        assertThat(d.calls).hasValue(2);
    }

    @Test
    void revocationElsewhereWinsWithinTheTtl() throws InterruptedException {
        FakeDirectory d = new FakeDirectory();
        d.answer.set(Optional.of(token(null)));
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        assertThat(r.resolve(TOKEN)).isPresent();
        d.answer.set(Optional.empty());
        Thread.sleep(TenantTokenResolver.TTL.toMillis() + 50);
        assertThat(r.resolve(TOKEN)).isEmpty();
        assertThat(TenantTokenResolver.TTL.toMillis()).isLessThan(1000);
    }

    @Test
    void expiryIsCheckedOnEveryCacheHit() {
        FakeDirectory d = new FakeDirectory();
        d.answer.set(Optional.of(token(Instant.now().minusSeconds(1))));
        TenantTokenResolver r = new TenantTokenResolver(d, Optional.empty());
        r.resolve(TOKEN); // the directory says valid (its clock), the cached entry is already expired
        d.answer.set(Optional.empty());
        assertThat(r.resolve(TOKEN)).isEmpty();
        assertThat(d.calls).hasValue(2);
    }
}

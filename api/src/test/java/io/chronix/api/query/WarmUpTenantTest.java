package io.chronix.api.query;

import io.chronix.engine.Chronix;
import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.token.VerifiedToken;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The warm-up tenant's decorators: what they answer while a session is open, and that everything else passes through. */
class WarmUpTenantTest {

    static final UUID REAL = UUID.randomUUID();
    static final VerifiedToken REAL_TOKEN = new VerifiedToken("t1", REAL, "acme", Set.of(new Scope(Scope.Action.READ, "metrics")), null);
    static final Namespace REAL_NS = new Namespace(7, REAL, "metrics", Duration.ofDays(30), null, "{}", Instant.EPOCH);
    static final Quotas REAL_QUOTAS = new Quotas(10, 1000, 1000, 1000, 1000, Duration.ofDays(90), Duration.ofSeconds(30), 8);

    /** The database: one tenant with one token, one namespace and its quotas. */
    final TenancyDirectory database = new TenancyDirectory() {
        @Override
        public Optional<VerifiedToken> verify(String presentedToken) {
            return "cx_real".equals(presentedToken) ? Optional.of(REAL_TOKEN) : Optional.empty();
        }

        @Override
        public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
            return REAL.equals(tenantId) && "metrics".equals(namespaceName) ? Optional.of(REAL_NS) : Optional.empty();
        }

        @Override
        public Quotas quotas(UUID tenantId) {
            return REAL_QUOTAS;
        }

        @Override
        public long generation() {
            return 42;
        }
    };

    final NamespaceTables.Handle registryHandle = handle();
    final NamespaceTables registry = ns -> registryHandle;
    final AtomicInteger warmUpCloses = new AtomicInteger();
    final NamespaceTables.Handle warmUpEngine = new NamespaceTables.Handle() {
        @Override
        public Chronix engine() {
            throw new UnsupportedOperationException("not opened in this test");
        }

        @Override
        public void close() {
            warmUpCloses.incrementAndGet();
        }
    };
    final WarmUpTenant tenant = new WarmUpTenant();
    final TenancyDirectory directory = tenant.directory(database);
    final NamespaceTables tables = tenant.tables(registry);

    /** The warm-up's engine, behind a handle of the session's: closing it is closing the warm-up's. */
    void assertIsTheWarmUps(NamespaceTables.Handle h) {
        assertThat(h).isNotSameAs(registryHandle);
        int before = warmUpCloses.get();
        h.close();
        assertThat(warmUpCloses.get()).isEqualTo(before + 1);
        assertThatThrownBy(h::engine).isInstanceOf(UnsupportedOperationException.class).hasMessage("not opened in this test");
    }

    static NamespaceTables.Handle handle() {
        return new NamespaceTables.Handle() {
            @Override
            public Chronix engine() {
                throw new UnsupportedOperationException("not opened in this test");
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void withoutASessionEverythingIsTheDatabasesAndTheRegistrys() {
        assertThat(directory.verify("cx_real")).contains(REAL_TOKEN);
        assertThat(directory.verify("cx_other")).isEmpty();
        assertThat(directory.namespace(REAL, "metrics")).contains(REAL_NS);
        assertThat(directory.quotas(REAL)).isSameAs(REAL_QUOTAS);
        assertThat(directory.generation()).isEqualTo(42);
        assertThat(tables.open(REAL_NS)).isSameAs(registryHandle);
    }

    @Test
    void aSessionAddsOneTenantWithOneReadableNamespaceAndNothingElse() {
        WarmUpTenant.Session s = tenant.open(warmUpEngine, Duration.ofSeconds(7));
        UUID id = s.verified().tenantId();

        assertThat(s.token()).startsWith("cx_").hasSizeGreaterThan(40);
        assertThat(directory.verify(s.token())).contains(s.verified());
        assertThat(s.verified().scopes()).containsExactly(new Scope(Scope.Action.READ, WarmUpTenant.NAMESPACE));
        assertThat(s.verified().allowsAll(Scope.Action.READ)).isFalse();
        // one character off is another token: the database's answer
        String off = s.token().substring(0, s.token().length() - 1) + (s.token().endsWith("A") ? "B" : "A");
        assertThat(directory.verify(off)).isEmpty();
        assertThat(directory.verify("cx_real")).contains(REAL_TOKEN);

        assertThat(directory.namespace(id, WarmUpTenant.NAMESPACE)).contains(s.namespace());
        assertThat(s.namespace().id()).isEqualTo(WarmUpTenant.NAMESPACE_ID).isNotPositive();
        assertThat(directory.namespace(id, "metrics")).as("the warm-up tenant has no other namespace").isEmpty();
        assertThat(directory.namespace(REAL, WarmUpTenant.NAMESPACE)).as("a real tenant's lookup of that name").isEmpty();
        assertThat(directory.namespace(REAL, "metrics")).contains(REAL_NS);
        assertThat(directory.quotas(id).queryTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(directory.quotas(REAL)).isSameAs(REAL_QUOTAS);

        assertIsTheWarmUps(tables.open(s.namespace()));
        assertThat(tables.open(REAL_NS)).isSameAs(registryHandle);
        // id 0 under another tenant is not the session's namespace
        assertThat(tables.open(new Namespace(WarmUpTenant.NAMESPACE_ID, REAL, WarmUpTenant.NAMESPACE, Duration.ofDays(1), null, "{}",
                Instant.EPOCH))).isSameAs(registryHandle);
    }

    @Test
    void closedSessionsAreForgottenAndNoTwoShareATokenOrATenant() {
        WarmUpTenant.Session first = tenant.open(warmUpEngine, Duration.ofSeconds(5));
        tenant.close();
        assertThat(directory.verify(first.token())).isEmpty();
        assertThat(directory.namespace(first.verified().tenantId(), WarmUpTenant.NAMESPACE)).isEmpty();
        assertThat(tables.open(first.namespace())).isSameAs(registryHandle);

        WarmUpTenant.Session second = tenant.open(warmUpEngine, Duration.ofSeconds(5));
        assertThat(second.token()).isNotEqualTo(first.token());
        assertThat(second.verified().tenantId()).isNotEqualTo(first.verified().tenantId());
        assertThat(directory.verify(first.token())).as("an earlier session's token").isEmpty();
        tenant.close();
    }

    @Test
    void decoratorsMadeWhileASessionIsOpenKnowItAndForgetItWithTheOthers() {
        WarmUpTenant.Session s = tenant.open(warmUpEngine, Duration.ofSeconds(5));
        TenancyDirectory late = tenant.directory(database);
        NamespaceTables lateTables = tenant.tables(registry);
        assertThat(late.verify(s.token())).contains(s.verified());
        assertIsTheWarmUps(lateTables.open(s.namespace()));

        tenant.close();
        for (TenancyDirectory d : new TenancyDirectory[] {directory, late}) {
            assertThat(d.verify(s.token())).isEmpty();
            assertThat(d.namespace(s.verified().tenantId(), WarmUpTenant.NAMESPACE)).isEmpty();
            assertThat(d.verify("cx_real")).contains(REAL_TOKEN);
        }
        assertThat(lateTables.open(s.namespace())).isSameAs(registryHandle);
        assertThat(tables.open(s.namespace())).isSameAs(registryHandle);
    }

    @Test
    void turningThroughTheViewsAnswersTheSameAndNothingAfterTheSession() {
        WarmUpTenant.Session s = tenant.open(warmUpEngine, Duration.ofSeconds(5));
        UUID id = s.verified().tenantId();
        for (int i = 0; i < 7; i++) {
            tenant.turn();
            assertThat(directory.verify(s.token())).as("turn %d", i).contains(s.verified());
            assertThat(directory.namespace(id, WarmUpTenant.NAMESPACE)).contains(s.namespace());
            assertThat(directory.namespace(REAL, "metrics")).contains(REAL_NS);
            assertThat(directory.quotas(id).queryTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(directory.quotas(REAL)).isSameAs(REAL_QUOTAS);
            assertIsTheWarmUps(tables.open(s.namespace()));
            assertThat(tables.open(REAL_NS)).isSameAs(registryHandle);
        }
        tenant.close();
        tenant.turn(); // a turn after the session leaves the database's and the registry's in place
        assertThat(directory.verify(s.token())).isEmpty();
        assertThat(directory.namespace(REAL, "metrics")).contains(REAL_NS);
        assertThat(tables.open(s.namespace())).isSameAs(registryHandle);
    }
}

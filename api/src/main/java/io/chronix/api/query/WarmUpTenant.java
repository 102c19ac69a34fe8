package io.chronix.api.query;

import io.chronix.tenancy.TenancyDirectory;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.quota.Quotas;
import io.chronix.tenancy.token.Scope;
import io.chronix.tenancy.token.VerifiedToken;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The tenant the HTTP warm-up ({@link HttpWarmUp}) queries as: it exists only in this process's
 * memory and only while a warm-up {@link Session} is open, and its one namespace is the warm-up's
 * private engine. Its requests take the path every tenant's do — the token through
 * {@code TenantTokenResolver} and {@link TenancyDirectory#verify}, the namespace through {@link
 * TenancyDirectory#namespace}, the limits through {@link TenancyDirectory#quotas}, the engine through
 * {@link NamespaceTables} — because the service answers these two interfaces with the decorators
 * below, which know the session's tenant and pass every other lookup to the database directory and
 * the engine registry unchanged.
 *
 * <p>What keeps it from being a way in: the token is 256 random bits made when the session opens,
 * held only in memory and sent only over the loopback connection to this process; it is compared in
 * constant time; it grants {@code read} on the warm-up namespace alone (no write, no administration);
 * the tenant id is random, so no real tenant's principal can name it; the namespace has id {@value
 * #NAMESPACE_ID}, which no real namespace has (theirs are positive), and it maps to the warm-up's
 * engine, never to a directory of the registry. When the session closes every lookup passes through
 * again: the token is then unknown (a verification the resolver cached for its half second finds no
 * namespace: 404).
 */
final class WarmUpTenant {

    /** The warm-up namespace's id; real namespaces' ids are positive. */
    static final long NAMESPACE_ID = 0;
    static final String NAMESPACE = "warm-up";

    private static final SecureRandom RANDOM = new SecureRandom();

    /** An open warm-up: the token, the tenant it verifies as, the namespace and its engine. */
    record Session(String token, VerifiedToken verified, Namespace namespace, Quotas quotas, NamespaceTables.Handle engine) {
    }

    private volatile Session session;

    /**
     * Opens a session over {@code engine}: until {@link #close}, its token reads the {@value #NAMESPACE}
     * namespace, which is {@code engine}.
     *
     * @param queryTimeout the warm-up tenant's query timeout
     */
    Session open(NamespaceTables.Handle engine, Duration queryTimeout) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        String token = "cx_" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        UUID tenant = UUID.randomUUID();
        Instant now = Instant.now();
        VerifiedToken verified = new VerifiedToken(NAMESPACE, tenant, NAMESPACE, Set.of(new Scope(Scope.Action.READ, NAMESPACE)), null);
        Namespace ns = new Namespace(NAMESPACE_ID, tenant, NAMESPACE, Duration.ofDays(1), null, "{}", now);
        // the warm-up sends one query at a time, but an answer is out before its query is released,
        // so the next may arrive first: room for a few. Nothing else of these limits is asked for
        Quotas quotas = new Quotas(1, 0, 0, 0, 0, Duration.ZERO, queryTimeout, 4);
        Session s = new Session(token, verified, ns, quotas, engine);
        session = s;
        return s;
    }

    /** Ends the session: from now on the token, the tenant and the namespace are unknown. */
    void close() {
        session = null;
    }

    private Session tenant(UUID tenantId) {
        Session s = session;
        return s != null && s.verified().tenantId().equals(tenantId) ? s : null;
    }

    /** {@code database} with the session's tenant added while one is open. */
    TenancyDirectory directory(TenancyDirectory database) {
        return new TenancyDirectory() {
            @Override
            public Optional<VerifiedToken> verify(String presentedToken) {
                Session s = session;
                if (s != null && presentedToken != null && MessageDigest.isEqual(presentedToken.getBytes(StandardCharsets.UTF_8),
                        s.token().getBytes(StandardCharsets.UTF_8))) {
                    return Optional.of(s.verified());
                }
                return database.verify(presentedToken);
            }

            @Override
            public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
                Session s = tenant(tenantId);
                if (s != null) {
                    return s.namespace().name().equals(namespaceName) ? Optional.of(s.namespace()) : Optional.empty();
                }
                return database.namespace(tenantId, namespaceName);
            }

            @Override
            public Quotas quotas(UUID tenantId) {
                Session s = tenant(tenantId);
                return s != null ? s.quotas() : database.quotas(tenantId);
            }

            @Override
            public long generation() {
                return database.generation();
            }
        };
    }

    /** {@code registry} with the session's namespace answered by the warm-up's engine while one is open. */
    NamespaceTables tables(NamespaceTables registry) {
        return ns -> {
            Session s = session;
            if (s != null && ns.id() == NAMESPACE_ID && ns.tenantId().equals(s.verified().tenantId())) {
                return s.engine();
            }
            return registry.open(ns);
        };
    }

    /** The service's directory and tables: the database's and the registry's, with the warm-up tenant in front. */
    @Configuration(proxyBeanMethods = false)
    static class Wiring {

        @Bean
        WarmUpTenant warmUpTenant() {
            return new WarmUpTenant();
        }

        @Bean
        @Primary
        TenancyDirectory warmUpTenancyDirectory(@Qualifier("databaseTenancyDirectory") TenancyDirectory database, WarmUpTenant warmUp) {
            return warmUp.directory(database);
        }

        @Bean
        @Primary
        NamespaceTables warmUpNamespaceTables(RegistryNamespaceTables registry, WarmUpTenant warmUp) {
            return warmUp.tables(registry);
        }
    }
}

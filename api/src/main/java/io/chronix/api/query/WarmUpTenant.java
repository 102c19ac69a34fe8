package io.chronix.api.query;

import io.chronix.engine.Chronix;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

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
    /** The decorators made so far; each is told when a session opens or closes. */
    private final List<Switch<?>> switches = new CopyOnWriteArrayList<>();

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
        switches.forEach(w -> w.to(s));
        return s;
    }

    /** Ends the session: from now on the token, the tenant and the namespace are unknown. */
    void close() {
        session = null;
        switches.forEach(w -> w.to(null));
    }

    /**
     * Points every decorator at the next of the session's views; the HTTP warm-up calls it before
     * each query. See the note below.
     */
    void turn() {
        switches.forEach(Switch::turn);
    }

    /*
     * Why the decorators forward to a delegate swapped whole, and why a session has three views of
     * three classes that the warm-up turns through. The JIT compiles a call from what it has seen
     * at it. Had each call tested the session (an if), the warm-up would only ever have taken one
     * side, the compiled query path would hold the other as a trap that re-profiles it, and the
     * first tenant query after the warm-up threw the compiled query path away for thousands of
     * queries on slower code. With one delegate class during the warm-up and another after it, the
     * JIT inlines the warm-up's class behind a type check, and the first tenant queries cost a
     * recompile of the query path. With three classes seen at the call and none of them dominant,
     * it compiles a plain virtual call, which the tenant's lookups then take with nothing
     * recompiled, and the database's directory and the registry are compiled on their own from
     * the tenants' traffic (docs/benchmarks.md, "What the first tenant query after the warm-up
     * threw away").
     */

    /** {@code database} with the session's tenant added while one is open. */
    TenancyDirectory directory(TenancyDirectory database) {
        DirectorySwitch d = new DirectorySwitch(database);
        d.to(session);
        switches.add(d);
        return d;
    }

    /** {@code registry} with the session's namespace answered by the warm-up's engine while one is open. */
    NamespaceTables tables(NamespaceTables registry) {
        TablesSwitch t = new TablesSwitch(registry);
        t.to(session);
        switches.add(t);
        return t;
    }

    /**
     * A decorator: {@link #now} is the delegate it forwards to, the undecorated one ({@code base})
     * without a session, one of the session's views with one, turned through by {@link #turn}.
     */
    private abstract static class Switch<T> {
        final T base;
        volatile T now;
        private List<T> views;
        private int next;

        Switch(T base) {
            this.base = base;
            this.now = base;
        }

        /** The session's views: three, of three classes, that answer alike (see the note above). */
        abstract List<T> views(Session s);

        final synchronized void to(Session s) {
            views = s == null ? List.of(base) : views(s);
            next = 0;
            now = views.get(0);
        }

        final synchronized void turn() {
            next = (next + 1) % views.size();
            now = views.get(next);
        }
    }

    private static final class DirectorySwitch extends Switch<TenancyDirectory> implements TenancyDirectory {

        DirectorySwitch(TenancyDirectory database) {
            super(database);
        }

        @Override
        List<TenancyDirectory> views(Session s) {
            return List.of(new SessionDirectory(s, base), new SessionDirectory(s, base) { }, new SessionDirectory(s, base) { });
        }

        @Override
        public Optional<VerifiedToken> verify(String presentedToken) {
            return now.verify(presentedToken);
        }

        @Override
        public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
            return now.namespace(tenantId, namespaceName);
        }

        @Override
        public Quotas quotas(UUID tenantId) {
            return now.quotas(tenantId);
        }

        @Override
        public long generation() {
            return base.generation();
        }
    }

    /**
     * The directory while {@code s} is open: its token, tenant and namespace first, the database's
     * after. Not final: a session has it in three classes (see the note above).
     */
    private static class SessionDirectory implements TenancyDirectory {
        private final Session s;
        private final TenancyDirectory database;

        SessionDirectory(Session s, TenancyDirectory database) {
            this.s = s;
            this.database = database;
        }

        @Override
        public Optional<VerifiedToken> verify(String presentedToken) {
            if (presentedToken != null && MessageDigest.isEqual(presentedToken.getBytes(StandardCharsets.UTF_8),
                    s.token().getBytes(StandardCharsets.UTF_8))) {
                return Optional.of(s.verified());
            }
            return database.verify(presentedToken);
        }

        @Override
        public Optional<Namespace> namespace(UUID tenantId, String namespaceName) {
            if (s.verified().tenantId().equals(tenantId)) {
                return s.namespace().name().equals(namespaceName) ? Optional.of(s.namespace()) : Optional.empty();
            }
            return database.namespace(tenantId, namespaceName);
        }

        @Override
        public Quotas quotas(UUID tenantId) {
            return s.verified().tenantId().equals(tenantId) ? s.quotas() : database.quotas(tenantId);
        }

        @Override
        public long generation() {
            return database.generation();
        }
    }

    /** The session's engine handle as the query path sees it. Not final: see the note above. */
    private static class SessionHandle implements NamespaceTables.Handle {
        private final NamespaceTables.Handle engine;

        SessionHandle(NamespaceTables.Handle engine) {
            this.engine = engine;
        }

        @Override
        public Chronix engine() {
            return engine.engine();
        }

        @Override
        public void close() {
            engine.close();
        }
    }

    private static final class TablesSwitch extends Switch<NamespaceTables> implements NamespaceTables {

        TablesSwitch(NamespaceTables registry) {
            super(registry);
        }

        @Override
        List<NamespaceTables> views(Session s) {
            // three lambdas, three classes (see the note above), each the same lookup; and the
            // handle they give in three classes too, for the query path's calls on it
            Handle ha = new SessionHandle(s.engine());
            Handle hb = new SessionHandle(s.engine()) { };
            Handle hc = new SessionHandle(s.engine()) { };
            return List.of(ns -> isSessions(s, ns) ? ha : base.open(ns), ns -> isSessions(s, ns) ? hb : base.open(ns),
                    ns -> isSessions(s, ns) ? hc : base.open(ns));
        }

        private static boolean isSessions(Session s, Namespace ns) {
            return ns.id() == NAMESPACE_ID && ns.tenantId().equals(s.verified().tenantId());
        }

        @Override
        public Handle open(Namespace namespace) {
            return now.open(namespace);
        }
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

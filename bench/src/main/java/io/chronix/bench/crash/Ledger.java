package io.chronix.bench.crash;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the service acknowledged, and what was asked without an answer. Only an acknowledgement
 * (a 2xx) puts a thing here as a promise; a request the kill cut off leaves it out, or as an upper
 * bound (points attempted), because either outcome is allowed for it.
 */
final class Ledger {

    /** An acknowledged tenant and its first admin token. */
    record Tenant(String id, String name, String adminToken) {
    }

    /** An acknowledged token: its tenant and public id. */
    record Token(String tenantId, String id) {
    }

    /** An acknowledged namespace: points acknowledged and attempted per measurement. */
    static final class Namespace {
        final Tenant tenant;
        final String name;
        final Map<String, AtomicLong> acked = new ConcurrentHashMap<>();
        final Map<String, AtomicLong> attempted = new ConcurrentHashMap<>();

        Namespace(Tenant tenant, String name) {
            this.tenant = tenant;
            this.name = name;
        }

        String key() {
            return tenant.id + "/" + name;
        }
    }

    final Map<String, Tenant> tenants = new ConcurrentHashMap<>();
    /** token secret → its tenant and id; removed before a revoke is sent. */
    final Map<String, Token> liveTokens = new ConcurrentHashMap<>();
    /** token secrets whose revocation was acknowledged */
    final Set<String> revokedTokens = ConcurrentHashMap.newKeySet();
    /** live, acknowledged namespaces by key; removed before a delete is sent */
    final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();
    /** namespaces whose deletion was acknowledged */
    final Map<String, Namespace> deleted = new ConcurrentHashMap<>();
    final AtomicLong pointsAcked = new AtomicLong();
}

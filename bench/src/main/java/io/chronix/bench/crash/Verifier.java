package io.chronix.bench.crash;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks a restarted service against the {@link Ledger}: every acknowledged tenant, token,
 * revocation, namespace and point is there; nothing deleted or revoked is back; every namespace
 * opens; no namespace holds anything its tenant did not write; a new namespace starts empty.
 */
final class Verifier {

    /** What one verification found; all zero is a pass. */
    static final class Findings {
        long lostPoints;
        long phantomPoints;
        int lostNamespaces;
        int lostTenants;
        int lostTokens;
        int resurrected;
        int crossTenant;
        int unopenable;
        final List<String> details = new ArrayList<>();

        boolean clean() {
            return lostPoints == 0 && phantomPoints == 0 && lostNamespaces == 0 && lostTenants == 0 && lostTokens == 0
                    && resurrected == 0 && crossTenant == 0 && unopenable == 0;
        }

        void note(String what) {
            if (details.size() < 20) {
                details.add(what);
            }
        }
    }

    /** Measurements found declared but without rows, all from unacknowledged writes; reported, not a defect. */
    long emptyMeasurements;
    private final Api api;
    private final Ledger ledger;
    private final String operatorToken;

    Verifier(Api api, Ledger ledger, String operatorToken) {
        this.api = api;
        this.ledger = ledger;
        this.operatorToken = operatorToken;
    }

    Findings verify() throws IOException, InterruptedException {
        Findings f = new Findings();
        for (Ledger.Tenant t : ledger.tenants.values()) {
            Api.Answer a = api.get("/api/v1/tenants/" + t.id(), operatorToken);
            if (a.status() != 200) {
                f.lostTenants++;
                f.note("tenant " + t.name() + " answered " + a.status());
            }
        }
        for (Map.Entry<String, Ledger.Token> e : ledger.liveTokens.entrySet()) {
            Api.Answer a = api.get("/api/v1/whoami", e.getKey());
            if (a.status() != 200) {
                f.lostTokens++;
                f.note("token " + e.getValue().id() + " answered " + a.status());
            } else if (!a.json().path("tenant").path("id").asString().equals(e.getValue().tenantId())) {
                f.crossTenant++;
                f.note("token " + e.getValue().id() + " is another tenant's: " + a.body());
            }
        }
        for (String revoked : ledger.revokedTokens) {
            Api.Answer a = api.get("/api/v1/whoami", revoked);
            if (a.status() != 401) {
                f.resurrected++;
                f.note("a revoked token answered " + a.status());
            }
        }
        for (Ledger.Namespace ns : ledger.deleted.values()) {
            Api.Answer a = api.get("/api/v1/namespaces/" + ns.name, ns.tenant.adminToken());
            if (a.status() != 404) {
                f.resurrected++;
                f.note("deleted namespace " + ns.key() + " answered " + a.status());
            }
        }
        for (Ledger.Namespace ns : ledger.namespaces.values()) {
            namespace(ns, f);
        }
        return f;
    }

    /** Creates a namespace for each of up to {@code count} tenants and checks it starts empty; it joins the ledger. */
    void freshNamespacesAreEmpty(int count, String runId, Findings f) throws IOException, InterruptedException {
        List<Ledger.Tenant> tenants = new ArrayList<>(ledger.tenants.values());
        java.util.Collections.shuffle(tenants);
        int n = 0;
        for (Ledger.Tenant t : tenants.subList(0, Math.min(count, tenants.size()))) {
            String name = "fresh" + runId + "-" + n++;
            Api.Answer a = api.json("POST", "/api/v1/namespaces", t.adminToken(), Map.of("name", name));
            if (a.status() != 201) {
                f.unopenable++;
                f.note("creating " + name + " answered " + a.status() + " " + a.body());
                continue;
            }
            Api.Answer m = api.get("/api/v1/namespaces/" + name + "/measurements", t.adminToken());
            if (m.status() != 200 || !m.json().isEmpty()) {
                f.crossTenant++;
                f.note("new namespace " + name + " of " + t.name() + " is not empty: " + m.status() + " " + m.body());
            }
            Ledger.Namespace ns = new Ledger.Namespace(t, name);
            ledger.namespaces.put(ns.key(), ns);
        }
    }

    private void namespace(Ledger.Namespace ns, Findings f) throws IOException, InterruptedException {
        Api.Answer a = api.get("/api/v1/namespaces/" + ns.name + "/measurements", ns.tenant.adminToken());
        if (a.status() == 404) {
            f.lostNamespaces++;
            f.note("namespace " + ns.key() + " is gone");
            return;
        }
        if (a.status() != 200) {
            f.unopenable++;
            f.note("namespace " + ns.key() + " answered " + a.status() + " " + a.body());
            return;
        }
        Set<String> present = new HashSet<>();
        for (JsonNode m : a.json()) {
            present.add(m.isString() ? m.asString() : m.path("name").asString());
        }
        for (String m : present) {
            if (!ns.attempted.containsKey(m)) {
                f.crossTenant++;
                f.note("namespace " + ns.key() + " holds measurement " + m + " its tenant never wrote");
            }
        }
        for (Map.Entry<String, AtomicLong> e : ns.attempted.entrySet()) {
            String m = e.getKey();
            long acked = ns.acked.getOrDefault(m, new AtomicLong()).get();
            if (!present.contains(m)) {
                if (acked > 0) {
                    f.lostPoints += acked;
                    f.note("namespace " + ns.key() + " lost measurement " + m + " with " + acked + " acknowledged points");
                }
                continue;
            }
            Api.Answer q = api.query(ns.name, ns.tenant.adminToken(),
                    "SELECT count(*), count(*) FILTER (WHERE owner IS DISTINCT FROM '" + ns.tenant.name() + "') FROM " + m);
            if (q.status() == 400 && q.body().contains("owner\\\" not found")) {
                // the measurement exists without a row: an unacknowledged write's Schema record was
                // logged (it precedes the points) and the kill came before its points were
                if (acked > 0) {
                    f.lostPoints += acked;
                    f.note(ns.key() + "." + m + " has no rows, " + acked + " acknowledged");
                } else {
                    emptyMeasurements++;
                }
                continue;
            }
            if (q.status() != 200) {
                f.unopenable++;
                f.note("query of " + ns.key() + "." + m + " answered " + q.status() + " " + q.body());
                continue;
            }
            JsonNode row = q.json().path("rows").path(0);
            long count = row.path(0).asLong();
            long foreign = row.path(1).asLong();
            if (count < acked) {
                f.lostPoints += acked - count;
                f.note(ns.key() + "." + m + ": " + count + " rows, " + acked + " acknowledged");
            }
            if (count > e.getValue().get()) {
                f.phantomPoints += count - e.getValue().get();
                f.note(ns.key() + "." + m + ": " + count + " rows, only " + e.getValue().get() + " ever written");
            }
            if (foreign > 0) {
                f.crossTenant++;
                f.note(ns.key() + "." + m + ": " + foreign + " rows of another tenant");
            }
        }
    }
}

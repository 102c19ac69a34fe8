package io.chronix.bench.crash;

import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Concurrent writers of everything the service acknowledges: points (often the first of a
 * measurement or field, from several writers at once), namespaces, tokens, revocations, tenants and
 * namespace deletions. Each acknowledgement goes into the {@link Ledger}; a request the kill cuts
 * off is left out of it. A 5xx answer (the service alive but failing) is counted as an error.
 */
final class Workload {

    private static final String[] FIELDS = {"f0", "f1", "f2", "f3", "f4", "f5"};

    private final Api api;
    private final Ledger ledger;
    private final String operatorToken;
    private final String runId;
    private final AtomicLong names = new AtomicLong();
    final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
    private volatile boolean stop;

    Workload(Api api, Ledger ledger, String operatorToken, String runId) {
        this.api = api;
        this.ledger = ledger;
        this.operatorToken = operatorToken;
        this.runId = runId;
    }

    /** Starts {@code writers} threads; they run until {@link #stop()} or the service stops answering. */
    List<Thread> start(int writers, long seed) {
        stop = false;
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int worker = w;
            SplittableRandom random = new SplittableRandom(seed * 31 + w);
            threads.add(Thread.ofPlatform().name("crash-writer-" + w).start(() -> run(worker, random)));
        }
        return threads;
    }

    void stop() {
        stop = true;
    }

    private void run(int worker, SplittableRandom random) {
        long[] seq = {0};
        while (!stop) {
            try {
                int op = random.nextInt(100);
                if (op < 80) {
                    write(worker, random, seq);
                } else if (op < 86) {
                    createNamespace(random);
                } else if (op < 92) {
                    createToken(random);
                } else if (op < 96) {
                    revokeToken(random);
                } else if (op < 98) {
                    createTenant();
                } else {
                    deleteNamespace(random);
                }
            } catch (IOException e) {
                return; // the service is gone (killed): this writer's in-flight request has no answer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void error(String what, Api.Answer a) {
        errors.computeIfAbsent(what + " " + a.status(), k -> new AtomicLong()).incrementAndGet();
    }

    private static <T> T pick(List<T> list, SplittableRandom random) {
        return list.isEmpty() ? null : list.get(random.nextInt(list.size()));
    }

    void write(int worker, SplittableRandom random, long[] seq) throws IOException, InterruptedException {
        Ledger.Namespace ns = pick(List.copyOf(ledger.namespaces.values()), random);
        if (ns == null) {
            return;
        }
        String measurement = "m" + random.nextInt(12);
        int fields = 1 + random.nextInt(3);
        int points = 1 + random.nextInt(random.nextBoolean() ? 10 : 500);
        StringBuilder body = new StringBuilder(points * 64);
        long now = System.currentTimeMillis() * 1_000_000L;
        for (int p = 0; p < points; p++) {
            body.append(measurement).append(",owner=").append(ns.tenant.name()).append(",w=").append(worker).append(' ');
            int first = random.nextInt(FIELDS.length);
            for (int f = 0; f < fields; f++) {
                body.append(f == 0 ? "" : ",").append(FIELDS[(first + f) % FIELDS.length]).append('=').append(random.nextInt(1000)).append(".5");
            }
            body.append(' ').append(now + (seq[0]++ % 1_000_000L)).append('\n');
        }
        ns.attempted.computeIfAbsent(measurement, k -> new AtomicLong()).addAndGet(points);
        Api.Answer a = api.send("POST", "/api/v1/namespaces/" + ns.name + "/write?precision=ns", ns.tenant.adminToken(), "text/plain", body.toString());
        if (a.status() == 204) {
            ns.acked.computeIfAbsent(measurement, k -> new AtomicLong()).addAndGet(points);
            ledger.pointsAcked.addAndGet(points);
        } else if (a.status() != 404) { // 404: deleted meanwhile by another writer
            error("write", a);
        }
    }

    void createNamespace(SplittableRandom random) throws IOException, InterruptedException {
        Ledger.Tenant t = pick(List.copyOf(ledger.tenants.values()), random);
        if (t == null) {
            return;
        }
        String name = "n" + runId + "-" + names.incrementAndGet();
        Api.Answer a = api.json("POST", "/api/v1/namespaces", t.adminToken(), Map.of("name", name));
        if (a.status() == 201) {
            Ledger.Namespace ns = new Ledger.Namespace(t, name);
            ledger.namespaces.put(ns.key(), ns);
        } else {
            error("create namespace", a);
        }
    }

    void createToken(SplittableRandom random) throws IOException, InterruptedException {
        Ledger.Tenant t = pick(List.copyOf(ledger.tenants.values()), random);
        if (t == null) {
            return;
        }
        Api.Answer a = api.json("POST", "/api/v1/tokens", t.adminToken(), Map.of("description", "crash", "scopes", List.of("read:*")));
        if (a.status() == 201) {
            JsonNode j = a.json();
            ledger.liveTokens.put(j.get("token").asString(), new Ledger.Token(t.id(), j.get("id").asString()));
        } else {
            error("create token", a);
        }
    }

    void revokeToken(SplittableRandom random) throws IOException, InterruptedException {
        String secret = pick(List.copyOf(ledger.liveTokens.keySet()), random);
        if (secret == null) {
            return;
        }
        Ledger.Token token = ledger.liveTokens.remove(secret); // from here either outcome is allowed until acknowledged
        if (token == null) {
            return;
        }
        Ledger.Tenant t = ledger.tenants.get(token.tenantId());
        Api.Answer a = api.send("DELETE", "/api/v1/tokens/" + token.id(), t.adminToken(), null, null);
        if (a.status() == 204) {
            ledger.revokedTokens.add(secret);
        } else {
            error("revoke token", a);
        }
    }

    void createTenant() throws IOException, InterruptedException {
        String name = "t" + runId + "-" + names.incrementAndGet();
        Api.Answer a = api.json("POST", "/api/v1/tenants", operatorToken, Map.of("name", name, "quotas", Map.of("maxNamespaces", 100000)));
        if (a.status() == 201) {
            JsonNode j = a.json();
            Ledger.Tenant t = new Ledger.Tenant(j.get("id").asString(), name, j.get("adminToken").asString());
            ledger.tenants.put(t.id(), t);
        } else {
            error("create tenant", a);
        }
    }

    void deleteNamespace(SplittableRandom random) throws IOException, InterruptedException {
        Ledger.Namespace ns = pick(List.copyOf(ledger.namespaces.values()), random);
        if (ns == null || ledger.namespaces.size() < 4 || ledger.namespaces.remove(ns.key()) == null) {
            return;
        }
        Api.Answer a = api.send("DELETE", "/api/v1/namespaces/" + ns.name, ns.tenant.adminToken(), null, null);
        if (a.status() == 204) {
            ledger.deleted.put(ns.key(), ns);
        } else {
            error("delete namespace", a);
        }
    }
}

package io.chronix.bench.crash;

import io.chronix.bench.cli.Options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code Bench crash}: N cycles of concurrent writers against the built service, each ended by a
 * SIGKILL at a random moment — of the JVM alone, or (every {@code --kill-postgres-every}th cycle)
 * of the JVM and its embedded PostgreSQL together — then a restart and a check of everything the
 * service acknowledged ({@link Verifier}). Prints one line per cycle and a summary; exits 1 on any
 * loss, resurrection, cross-tenant read, unopenable namespace or failed restart.
 */
public final class CrashCommand {

    private CrashCommand() {
    }

    public static void run(Options o) throws Exception {
        Path jar = Path.of(o.string("jar", "api/target/chronix.jar"));
        Path data = Path.of(o.required("data"));
        int cycles = o.integer("cycles", 100);
        int port = o.integer("port", 18095);
        int writers = o.integer("writers", 4);
        long seed = o.longValue("seed", System.nanoTime());
        int pgEvery = o.integer("kill-postgres-every", 2);
        Duration minRun = o.duration("min-run", Duration.ofMillis(300));
        Duration maxRun = o.duration("max-run", Duration.ofSeconds(3));
        Duration readyTimeout = o.duration("ready-timeout", Duration.ofMinutes(5));
        String java = o.string("java", ProcessHandle.current().info().command().orElse("java"));
        List<String> jvm = o.list("jvm", List.of("-Xms1g", "-Xmx1g"));
        o.rejectUnknown();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("no service jar at " + jar + " (build it: ./mvnw -q -DskipTests install)");
        }
        if (Files.exists(data) && !isEmpty(data)) {
            throw new IllegalArgumentException("--data " + data + " is not empty: the suite starts from a new data directory");
        }
        Files.createDirectories(data);
        Path log = data.resolveSibling(data.getFileName() + ".log");
        String runId = Long.toString(Math.abs(seed % 1_000_000L), 36);
        System.out.printf("crash suite: %d cycles, %d writers, PostgreSQL killed too every %d cycles, seed %d, data %s, service log %s%n",
                cycles, writers, pgEvery, seed, data, log);

        SplittableRandom random = new SplittableRandom(seed);
        Ledger ledger = new Ledger();
        Api api = new Api();
        ServiceProcess service = ServiceProcess.start(java, jar, data, port, jvm, List.of(), log);
        api.target(service.base());
        service.awaitReady(readyTimeout);
        String operator = Files.readString(data.resolve("operator-token")).trim();
        Workload workload = new Workload(api, ledger, operator, runId);
        for (int t = 0; t < 3; t++) {
            workload.createTenant();
        }
        for (int n = 0; n < 6; n++) {
            workload.createNamespace(random);
        }

        Verifier verifier = new Verifier(api, ledger, operator);
        List<Duration> restarts = new ArrayList<>();
        Verifier.Findings total = new Verifier.Findings();
        int failedRestarts = 0;
        int jvmOnly = 0;
        int withPostgres = 0;
        for (int cycle = 1; cycle <= cycles; cycle++) {
            List<Thread> threads = workload.start(writers, seed + cycle);
            long runMillis = minRun.toMillis() + random.nextLong(Math.max(1, maxRun.toMillis() - minRun.toMillis()));
            Thread.sleep(runMillis);
            boolean killPostgres = pgEvery > 0 && cycle % pgEvery == 0;
            Optional<ProcessHandle> postmaster = killPostgres ? ServiceProcess.postmaster(data) : Optional.empty();
            postmaster.ifPresent(ProcessHandle::destroyForcibly); // SIGKILL, the same instant as the JVM's
            service.kill();
            workload.stop();
            for (Thread t : threads) {
                t.join(60_000);
            }
            if (killPostgres) {
                withPostgres++;
            } else {
                jvmOnly++;
            }
            service = ServiceProcess.start(java, jar, data, port, jvm, List.of(), log);
            api.target(service.base());
            Duration ready;
            try {
                ready = service.awaitReady(readyTimeout);
            } catch (IOException e) {
                failedRestarts++;
                System.out.printf("cycle %d: RESTART FAILED: %s (see %s)%n", cycle, e.getMessage(), log);
                break;
            }
            restarts.add(ready);
            Verifier.Findings f = verifier.verify();
            verifier.freshNamespacesAreEmpty(2, runId + "c" + cycle, f);
            add(total, f);
            System.out.printf("cycle %d: ran %d ms, killed %s, ready in %d ms, points acknowledged %d, namespaces %d, tenants %d, tokens %d live/%d revoked: %s%n",
                    cycle, runMillis, killPostgres ? "JVM+PostgreSQL" : "JVM", ready.toMillis(), ledger.pointsAcked.get(),
                    ledger.namespaces.size(), ledger.tenants.size(), ledger.liveTokens.size(), ledger.revokedTokens.size(),
                    f.clean() ? "clean" : "FOUND " + f.details);
        }
        service.stop();

        List<Long> ms = restarts.stream().map(Duration::toMillis).sorted().toList();
        System.out.printf("%nsummary: %d kill -9 cycles (%d of the JVM alone, %d of the JVM and PostgreSQL), seed %d%n",
                jvmOnly + withPostgres, jvmOnly, withPostgres, seed);
        System.out.printf("acknowledged: %d points, %d namespaces live + %d deleted, %d tenants, %d tokens live, %d revocations%n",
                ledger.pointsAcked.get(), ledger.namespaces.size(), ledger.deleted.size(), ledger.tenants.size(),
                ledger.liveTokens.size(), ledger.revokedTokens.size());
        System.out.printf("lost points %d, phantom points %d, lost namespaces %d, lost tenants %d, lost tokens %d, resurrected %d, cross-tenant %d, unopenable %d, failed restarts %d%n",
                total.lostPoints, total.phantomPoints, total.lostNamespaces, total.lostTenants, total.lostTokens, total.resurrected,
                total.crossTenant, total.unopenable, failedRestarts);
        System.out.printf("measurements declared by an unacknowledged write and left without rows (allowed): %d sightings%n",
                verifier.emptyMeasurements);
        if (!ms.isEmpty()) {
            System.out.printf("restart to ready: median %d ms, max %d ms (%d restarts)%n", ms.get(ms.size() / 2), ms.getLast(), ms.size());
        }
        for (Map.Entry<String, AtomicLong> e : workload.errors.entrySet()) {
            System.out.printf("answered with an error while running: %s × %d%n", e.getKey(), e.getValue().get());
        }
        if (!total.clean() || failedRestarts > 0) {
            throw new IllegalStateException("the crash suite found defects (above)");
        }
    }

    private static void add(Verifier.Findings total, Verifier.Findings f) {
        total.lostPoints += f.lostPoints;
        total.phantomPoints += f.phantomPoints;
        total.lostNamespaces += f.lostNamespaces;
        total.lostTenants += f.lostTenants;
        total.lostTokens += f.lostTokens;
        total.resurrected += f.resurrected;
        total.crossTenant += f.crossTenant;
        total.unopenable += f.unopenable;
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.findAny().isEmpty();
        }
    }
}

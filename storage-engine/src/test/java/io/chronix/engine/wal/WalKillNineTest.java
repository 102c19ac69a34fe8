package io.chronix.engine.wal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The real thing: a child JVM appends with PER_BATCH and prints every acknowledged sequence; it is
 * killed with SIGKILL ({@link Process#destroyForcibly()}) at a random moment; the log is recovered
 * and every acknowledged sequence must be there with its payload. Repeated {@code
 * chronix.kill9.cycles} times over one growing log (20 by default; the {@code kill9-soak} profile
 * runs 1,000).
 */
class WalKillNineTest {

    private static final long SEED = Long.getLong("chronix.test.seed", System.nanoTime());

    @TempDir
    Path tmp;

    @Test
    void everyAcknowledgedSequenceSurvivesKillNine() throws Exception {
        int cycles = Integer.getInteger("chronix.kill9.cycles", 20);
        Random rnd = new Random(SEED);
        Path dir = tmp.resolve("wal");
        Map<Long, String> allAcked = new HashMap<>();
        long truncations = 0;
        for (int cycle = 0; cycle < cycles; cycle++) {
            Map<Long, String> acked = runAndKill(dir, "c" + cycle, rnd);
            assertThat(acked).as("cycle %d acknowledged something before the kill", cycle).isNotEmpty();
            allAcked.putAll(acked);
            Map<Long, String> recovered = new HashMap<>();
            WalMetrics metrics = new WalMetrics();
            WalWriter.open(WalConfig.defaults(dir), metrics, 0,
                    r -> recovered.put(r.sequence(), new String(r.payloadBytes(), StandardCharsets.US_ASCII))).close();
            truncations += metrics.truncations();
            for (Map.Entry<Long, String> e : allAcked.entrySet()) {
                if (!e.getValue().equals(recovered.get(e.getKey()))) {
                    fail("seed " + SEED + ", cycle " + cycle + ": acknowledged sequence " + e.getKey() + " lost");
                }
            }
        }
        System.out.printf("kill -9: %d cycles, %d acknowledged sequences recovered, %d torn tails cut%n", cycles, allAcked.size(),
                truncations);
    }

    private Map<Long, String> runAndKill(Path dir, String run, Random rnd) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Xshare:auto");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(WalKillNineChild.class.getName());
        command.add(dir.toString());
        command.add(run);
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Map<Long, String> acked = new ConcurrentHashMap<>();
        CountDownLatch firstAck = new CountDownLatch(1);
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                    String[] parts = line.split(" ");
                    // a line cut by the kill has no END: its record may be acknowledged, but we were not told
                    if (parts.length == 4 && parts[0].equals("ACK") && parts[3].equals("END")) {
                        acked.put(Long.parseLong(parts[1]), parts[2]);
                        firstAck.countDown();
                    }
                }
            } catch (java.io.IOException ignored) {
                // the pipe closes when the child dies
            }
        });
        try {
            if (!firstAck.await(60, TimeUnit.SECONDS)) {
                fail("child acknowledged nothing within 60 s");
            }
            Thread.sleep(rnd.nextInt(300));
        } finally {
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        reader.join(10_000);
        assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(128 + 9);
        return acked;
    }
}

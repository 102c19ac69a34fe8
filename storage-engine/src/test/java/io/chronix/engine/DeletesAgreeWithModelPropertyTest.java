package io.chronix.engine;

import io.chronix.engine.lifecycle.DeleteResult;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static io.chronix.engine.EngineFixture.SECOND;
import static io.chronix.engine.EngineFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random writes, overwrites, flushes, compactions, deletes (by tag and range, and whole series), dry runs and
 * restarts, in random order: after every step a scan equals a model in which a delete removes the
 * points visible at that moment and nothing written later. Seeded; prints its seed
 * ({@code -Dchronix.test.seed=N} replays one).
 */
class DeletesAgreeWithModelPropertyTest {

    @TempDir
    Path dir;
    final EngineFixture fx = new EngineFixture();

    @AfterEach
    void tearDown() {
        fx.close();
    }

    /** series "host|dc" → time → value. */
    private final TreeMap<String, TreeMap<Long, Double>> model = new TreeMap<>();

    private List<String> expected() {
        // scan order: series by tag values (dc, then host: tags by name), then time
        TreeMap<String, List<String>> bySeries = new TreeMap<>();
        model.forEach((k, points) -> {
            String[] hd = k.split("\\|");
            String key = hd[1] + "\u0000" + hd[0];
            points.forEach((t, v) -> bySeries.computeIfAbsent(key, x -> new ArrayList<>())
                    .add("time=" + t + "|dc=\"" + hd[1] + "\"|host=\"" + hd[0] + "\"|v=" + v));
        });
        List<String> out = new ArrayList<>();
        bySeries.values().forEach(out::addAll);
        return out;
    }

    @Test
    void scansAlwaysEqualTheModel() {
        long seed = Long.getLong("chronix.test.seed", new Random().nextLong());
        System.out.println("DeletesAgreeWithModelPropertyTest seed: " + seed + " (rerun with -Dchronix.test.seed=" + seed + ")");
        Random rnd = new Random(seed);
        EngineConfig config = EngineFixture.config().withOooToleranceShards(1000).withTargetSegmentSizeBytes(400 + rnd.nextInt(4000));
        Path ns = dir.resolve("ns");
        Chronix c = fx.open(ns, config);
        int deletes = 0;
        try {
            for (int step = 0; step < 120; step++) {
                int op = rnd.nextInt(10);
                if (op < 5) {
                    PointBatch.Builder b = PointBatch.builder();
                    int n = 1 + rnd.nextInt(30);
                    for (int i = 0; i < n; i++) {
                        String host = "h" + rnd.nextInt(5);
                        String dc = rnd.nextBoolean() ? "eu" : "us";
                        long t = T0 + rnd.nextInt(200) * SECOND;
                        double v = rnd.nextInt(1000);
                        b.beginPoint("cpu", t).tag("host", host).tag("dc", dc).floatField("v", v).endPoint();
                        model.computeIfAbsent(host + "|" + dc, k -> new TreeMap<>()).put(t, v);
                    }
                    c.write(b.build());
                } else if (op == 5) {
                    if (rnd.nextBoolean()) {
                        c.flush();
                    } else {
                        c.compact(); // tombstones applied in the merge, then collected
                    }
                } else if (op < 8) {
                    String host = "h" + rnd.nextInt(5);
                    long from = T0 + rnd.nextInt(200) * SECOND;
                    long to = from + rnd.nextInt(100) * SECOND;
                    long expectedPoints = 0;
                    for (Map.Entry<String, TreeMap<Long, Double>> e : model.entrySet()) {
                        if (e.getKey().startsWith(host + "|")) {
                            expectedPoints += e.getValue().subMap(from, true, to, true).size();
                        }
                    }
                    DeleteResult dry = c.delete().measurement("cpu").tag("host", host).range(from, to).dryRun().execute();
                    assertThat(dry.pointsDeleted()).as("dry run at step %d", step).isEqualTo(expectedPoints);
                    DeleteResult r = c.delete().measurement("cpu").tag("host", host).range(from, to).execute();
                    assertThat(r.pointsDeleted()).as("delete at step %d", step).isEqualTo(expectedPoints);
                    for (Map.Entry<String, TreeMap<Long, Double>> e : model.entrySet()) {
                        if (e.getKey().startsWith(host + "|")) {
                            e.getValue().subMap(from, true, to, true).clear();
                        }
                    }
                    deletes++;
                } else if (op == 8) {
                    String host = "h" + rnd.nextInt(5);
                    String dc = rnd.nextBoolean() ? "eu" : "us";
                    c.deleteSeries("cpu", Map.of("host", host, "dc", dc));
                    model.remove(host + "|" + dc);
                    deletes++;
                } else {
                    c.close();
                    c = fx.open(ns, config);
                }
                model.values().removeIf(TreeMap::isEmpty);
                assertThat(fx.rows(c, ScanRequest.all("cpu"))).as("step %d (op %d)", step, op).isEqualTo(expected());
                // the count from segment row counts must see every tombstone and overwrite as the scan does
                long countFrom = T0 + rnd.nextInt(250) * SECOND - 20 * SECOND;
                long countTo = countFrom + rnd.nextInt(250) * SECOND;
                long inRange = model.values().stream().mapToLong(p -> p.subMap(countFrom, true, countTo, true).size()).sum();
                assertThat(c.countRows(ScanRequest.all("cpu"), fx.allocator)).as("count at step %d", step)
                        .isEqualTo(model.values().stream().mapToLong(TreeMap::size).sum());
                assertThat(c.countRows(ScanRequest.all("cpu").withTimeRange(countFrom, countTo), fx.allocator))
                        .as("count in range at step %d", step).isEqualTo(inRange);
                long live = model.size();
                assertThat(c.repairLiveSeries()).as("live series at step %d", step).isEqualTo(live);
            }
        } finally {
            c.close();
        }
        assertThat(deletes).as("the run deleted something").isPositive();
    }
}

package io.chronix.bench.rollup;

import io.chronix.bench.engine.EngineBench;
import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.TsbsValueSets;
import io.chronix.engine.Chronix;
import io.chronix.engine.WriteOptions;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.MaterialiseReport;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.TimeBucket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rollup figures of issue 10, through the {@code Chronix} API, in this thread's CPU time (the
 * machine is shared: wall time counts other processes' turns) and wall time:
 *
 * <ol>
 *   <li>materialisation throughput of a 1-minute rollup (all seven aggregates of the ten fields)
 *       over TSBS cpu-only data, source rows per second and per CPU second;</li>
 *   <li>a 30-day dashboard — {@code avg(usage_user)} per host and hour — over the 1-hour tier
 *       (reading {@code usage_user_avg} through the rollup view, live half included) against the
 *       same computed from the raw rows ({@code scanUnordered} of {@code time, hostname,
 *       usage_user}, averaged per hour); median and min–max over the rounds, and the ratio;</li>
 *   <li>repair latency of one late point (a backfill write into day 5, then {@code
 *       materialiseRollups()}: both tiers repair their bucket).</li>
 * </ol>
 *
 * <pre>java -cp benchmarks.jar io.chronix.bench.rollup.RollupFigures [hosts] [days] [rounds]</pre>
 */
public final class RollupFigures {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final long HOUR = 3_600_000_000_000L;

    private RollupFigures() {
    }

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int days = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        Path dir = EngineBench.newDirectory("rollup-figures");
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
             Chronix engine = Chronix.open(dir, EngineBench.config().withMaintenanceInterval(Duration.ZERO), scheduler);
             BufferAllocator allocator = new RootAllocator()) {
            CpuOnlyConfig data = CpuOnlyConfig.of(hosts, Duration.ofDays(days), 123, false);
            long t0 = System.nanoTime();
            long rows = EngineBench.load(engine, data, 60);
            engine.compact();
            System.out.printf("loaded %,d rows (%d hosts x %d days) in %.1f s, %d segments%n", rows, hosts, days,
                    (System.nanoTime() - t0) / 1e9, engine.segmentCount());

            // 1. a 1-minute rollup, materialised from scratch, three times (each into a fresh target, removed after)
            int materialisations = 3;
            double[] perCpuSecond = new double[materialisations];
            double[] perWallSecond = new double[materialisations];
            for (int k = 0; k < materialisations; k++) {
                String name = "cpu_1m_" + k;
                engine.addRollup(new RollupConfig(name, "cpu", name, TimeBucket.builder().every("1m").build(),
                        EnumSet.allOf(Aggregate.class)));
                long cpu = THREADS.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                MaterialiseReport r = engine.materialiseRollups();
                double cpuS = (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9;
                double wallS = (System.nanoTime() - wall) / 1e9;
                MaterialiseReport.Outcome o = r.outcome(name).orElseThrow();
                perCpuSecond[k] = o.sourceRowsRead() / cpuS;
                perWallSecond[k] = o.sourceRowsRead() / wallS;
                System.out.printf("materialise 1m #%d: %,d source rows -> %,d buckets in %.2f s wall, %.2f s CPU%n", k, o.sourceRowsRead(),
                        o.bucketsWritten(), wallS, cpuS);
                engine.removeRollup(name);
            }
            System.out.printf("materialise 1m: %,.0f source rows per CPU s (%,.0f-%,.0f), %,.0f rows/s wall (%,.0f-%,.0f)%n",
                    median(perCpuSecond), min(perCpuSecond), max(perCpuSecond), median(perWallSecond), min(perWallSecond),
                    max(perWallSecond));
            engine.addRollup(new RollupConfig("cpu_1m", "cpu", "cpu_1m", TimeBucket.builder().every("1m").build(),
                    EnumSet.allOf(Aggregate.class)));
            engine.materialiseRollups();

            // 2. the 1-hour tier (from the raw data) and the dashboard, tier vs raw
            engine.addRollup(new RollupConfig("cpu_1h", "cpu", "cpu_1h", TimeBucket.builder().every("1h").build(),
                    EnumSet.of(Aggregate.AVG, Aggregate.MAX, Aggregate.COUNT)));
            engine.materialiseRollups();
            engine.flush();
            engine.compact();
            long from = Long.MIN_VALUE;
            long to = Long.MAX_VALUE;
            double[] tierCpu = new double[rounds];
            double[] rawCpu = new double[rounds];
            long tierCells = 0;
            long rawCells = 0;
            for (int i = -2; i < rounds; i++) { // two warm-up rounds
                long c0 = THREADS.getCurrentThreadCpuTime();
                tierCells = dashboardFromTier(engine, allocator, from, to);
                long c1 = THREADS.getCurrentThreadCpuTime();
                rawCells = dashboardFromRaw(engine, allocator, from, to);
                long c2 = THREADS.getCurrentThreadCpuTime();
                if (i >= 0) {
                    tierCpu[i] = (c1 - c0) / 1e6;
                    rawCpu[i] = (c2 - c1) / 1e6;
                }
            }
            if (tierCells != rawCells) {
                throw new IllegalStateException("tier and raw dashboards differ in size: " + tierCells + " vs " + rawCells);
            }
            double tierMed = median(tierCpu);
            double rawMed = median(rawCpu);
            System.out.printf("dashboard %d days, %d cells: tier %.1f ms CPU (%.1f-%.1f), raw %.1f ms CPU (%.1f-%.1f), ratio %.1fx%n", days,
                    tierCells, tierMed, min(tierCpu), max(tierCpu), rawMed, min(rawCpu), max(rawCpu), rawMed / tierMed);

            // 3. repair latency of one late point
            double[] repairWall = new double[rounds];
            double[] repairCpu = new double[rounds];
            long first = data.start().getEpochSecond() * 1_000_000_000L;
            for (int i = 0; i < rounds; i++) {
                long ts = first + 5 * 24 * HOUR + i * HOUR + 17_000_000_000L;
                PointBatch late = PointBatch.builder().beginPoint(TsbsValueSets.MEASUREMENT, ts).tag("hostname", "host_0")
                        .floatField("usage_user", 99.5).endPoint().build();
                long c0 = THREADS.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                engine.write(late, WriteOptions.defaults().withBackfill(true));
                MaterialiseReport rep = engine.materialiseRollups();
                repairWall[i] = (System.nanoTime() - w0) / 1e6;
                repairCpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
                if (rep.outcome("cpu_1m").orElseThrow().repairsDone() != 1 || rep.outcome("cpu_1h").orElseThrow().repairsDone() != 1) {
                    throw new IllegalStateException("expected one repair per tier: " + rep);
                }
            }
            System.out.printf("repair of one late point (write + pass, both tiers): %.1f ms wall (%.1f-%.1f), %.1f ms CPU (%.1f-%.1f)%n",
                    median(repairWall), min(repairWall), max(repairWall), median(repairCpu), min(repairCpu), max(repairCpu));
        } finally {
            EngineBench.delete(dir);
        }
    }

    /** avg(usage_user) per host and hour from the 1-hour tier's view: one cell per row. */
    private static long dashboardFromTier(Chronix engine, BufferAllocator allocator, long from, long to) {
        long cells = 0;
        double check = 0;
        try (ScanResult r = engine.scanUnordered(new ScanRequest("cpu_1h", List.of("time", "hostname", "usage_user_avg"), from, to,
                List.of()), allocator)) {
            for (VectorSchemaRoot b : r.batches()) {
                Float8Vector v = (Float8Vector) b.getVector("usage_user_avg");
                for (int i = 0; i < b.getRowCount(); i++) {
                    check += v.get(i);
                    cells++;
                }
            }
        }
        if (Double.isNaN(check)) {
            throw new IllegalStateException("NaN");
        }
        return cells;
    }

    /** avg(usage_user) per host and hour computed from the raw rows. */
    private static long dashboardFromRaw(Chronix engine, BufferAllocator allocator, long from, long to) {
        Map<String, Map<Long, double[]>> sums = new HashMap<>();
        try (ScanResult r = engine.scanUnordered(new ScanRequest("cpu", List.of("time", "hostname", "usage_user"), from, to, List.of()),
                allocator)) {
            for (VectorSchemaRoot b : r.batches()) {
                TimeStampVector t = (TimeStampVector) b.getVector("time");
                VarCharVector h = (VarCharVector) b.getVector("hostname");
                Float8Vector v = (Float8Vector) b.getVector("usage_user");
                String lastHost = null;
                byte[] lastBytes = null;
                Map<Long, double[]> perHost = null;
                for (int i = 0; i < b.getRowCount(); i++) {
                    byte[] hb = h.get(i);
                    if (lastBytes == null || !Arrays.equals(hb, lastBytes)) {
                        lastBytes = hb;
                        lastHost = new String(hb, java.nio.charset.StandardCharsets.UTF_8);
                        perHost = sums.computeIfAbsent(lastHost, k -> new HashMap<>());
                    }
                    double[] acc = perHost.computeIfAbsent(Math.floorDiv(t.get(i), HOUR), k -> new double[2]);
                    acc[0] += v.get(i);
                    acc[1]++;
                }
            }
        }
        long cells = 0;
        for (Map<Long, double[]> m : sums.values()) {
            cells += m.size();
        }
        return cells;
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] xs) {
        return Arrays.stream(xs).min().orElse(Double.NaN);
    }

    private static double max(double[] xs) {
        return Arrays.stream(xs).max().orElse(Double.NaN);
    }

}

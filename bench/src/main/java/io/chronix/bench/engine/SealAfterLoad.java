package io.chronix.bench.engine;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sealing after a load of history: TSBS cpu-only data (from 2016, so every hourly shard but the
 * newest few is closed as soon as the load moves past it) written in time order through {@code
 * Chronix.write}, then, from the last acknowledgement, the seconds until every closed shard is in
 * segments (and the memtables hold only the open windows), and until each closed shard is settled
 * (one segment: what the maintenance pass brings it to). Then the memtables' estimate, the heap
 * after a GC, and a {@code count(*)}.
 *
 * <pre>java -cp benchmarks.jar io.chronix.bench.engine.SealAfterLoad [hosts=400] [hours=24] [ticksPerBatch=12] [flushThresholdMB=64]</pre>
 *
 * With {@code -Dseal.progress=true} it prints the segment count and the points in memtables every
 * two seconds of the load. The engine runs with its defaults and the service's scheduler size (half
 * the processors).
 *
 * A flush threshold under a shard's size (about 15 MB estimated per hour of 400 hosts) makes each
 * closed shard reach its seal with a segment already written, so the settle time is a merge's.
 */
public final class SealAfterLoad {

    private SealAfterLoad() {
    }

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int hours = args.length > 1 ? Integer.parseInt(args[1]) : 24;
        int ticksPerBatch = args.length > 2 ? Integer.parseInt(args[2]) : 12;
        long thresholdMb = args.length > 3 ? Long.parseLong(args[3]) : 64;
        CpuOnlyConfig data = CpuOnlyConfig.of(hosts, Duration.ofHours(hours), 123, false);
        EngineConfig config = EngineBench.config().withFlushThresholdBytes(thresholdMb << 20);
        long shardNanos = config.shardDuration().toNanos();
        long firstShard = Math.floorDiv(data.startNanos(), shardNanos);
        long newestShard = Math.floorDiv(data.endNanos() - 1, shardNanos);
        long openFrom = newestShard - config.oooToleranceShards();
        long rowsPerShard = (long) hosts * (shardNanos / data.intervalNanos());
        Path dir = EngineBench.newDirectory("seal-after-load");
        try (MaintenanceScheduler scheduler = MaintenanceScheduler.createDefault();
                BufferAllocator allocator = new RootAllocator();
                Chronix engine = Chronix.open(dir, config, scheduler)) {
            long start = System.nanoTime();
            Thread.ofPlatform().daemon().start(() -> {
                while (Boolean.getBoolean("seal.progress")) {
                    try {
                        Thread.sleep(2000);
                    } catch (InterruptedException e) {
                        return;
                    }
                    System.out.printf("  %.0f s: segments %d, memtable points %,d%n", (System.nanoTime() - start) / 1e9,
                            engine.segmentCount(), engine.memtablePoints());
                }
            });
            long rows = EngineBench.load(engine, data, ticksPerBatch);
            long last = System.nanoTime();
            System.out.printf("loaded %,d rows (%d hosts x %d h) in %.1f s: %,.0f rows/s; flush threshold %d MB, scheduler threads %d%n",
                    rows, hosts, hours, (last - start) / 1e9, rows / ((last - start) / 1e9), thresholdMb, scheduler.threads());
            long sealed = -1;
            long settled = -1;
            while (settled < 0 && System.nanoTime() - last < Duration.ofMinutes(10).toNanos()) {
                Map<Long, long[]> perShard = new HashMap<>(); // shard -> {segments, rows}
                for (SegmentEntry e : engine.segments()) {
                    long[] s = perShard.computeIfAbsent(e.shard(), k -> new long[2]);
                    s[0]++;
                    s[1] += e.rowCount();
                }
                boolean allIn = engine.memtablePoints() <= (newestShard - openFrom + 1) * rowsPerShard;
                boolean oneEach = true;
                for (long shard = firstShard; shard < openFrom; shard++) {
                    long[] s = perShard.getOrDefault(shard, new long[2]);
                    allIn &= s[1] >= rowsPerShard;
                    oneEach &= s[0] == 1;
                }
                long now = System.nanoTime();
                if (allIn && sealed < 0) {
                    sealed = now;
                }
                if (allIn && oneEach) {
                    settled = now;
                }
                Thread.sleep(5);
            }
            System.out.printf("closed shards (%d) in segments %.2f s after the last write; settled (one segment each) %.2f s after it%n",
                    openFrom - firstShard, (sealed - last) / 1e9, (settled - last) / 1e9);
            System.gc();
            long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            System.out.printf("memtables: %,d points, %,d bytes estimated, shards held %s; heap used after GC %,d MB; segments %d%n",
                    engine.memtablePoints(), engine.memtableBytes(), heldShards(engine.segments(), firstShard, newestShard),
                    heap >> 20, engine.segmentCount());
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                long n = engine.countRows(ScanRequest.all("cpu"), allocator);
                System.out.printf("count(*) = %,d in %.1f ms%n", n, (System.nanoTime() - t0) / 1e6);
            }
        } finally {
            EngineBench.delete(dir);
        }
    }

    /** The shards no segment holds, i.e. those only in memtables. */
    private static String heldShards(List<SegmentEntry> segments, long firstShard, long newestShard) {
        StringBuilder sb = new StringBuilder();
        for (long s = firstShard; s <= newestShard; s++) {
            long shard = s;
            if (segments.stream().noneMatch(e -> e.shard() == shard)) {
                sb.append(sb.isEmpty() ? "" : ",").append(s - firstShard);
            }
        }
        return "[" + sb + "] (hours from the start, without segments)";
    }
}

package io.chronix.bench.cache;

import io.chronix.bench.engine.EngineBench;
import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.cache.BlockCache;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;

import java.nio.file.Path;
import java.util.Random;

/**
 * The namespace the cache benchmarks read: measurement {@code cpu}, {@code hosts} hosts (tags
 * {@code host}, {@code rack}), two float fields with two decimals (a random walk, like TSBS's) and
 * an integer one, one point per host per minute for {@code days} days, 1-hour shards, a flush after
 * every six hours of data — one segment per shard, 24 a day. Seeded, so every fork reads the same
 * bytes.
 */
final class CacheData {

    static final long MINUTE = 60_000_000_000L;
    static final long DAY = 24 * 60 * MINUTE;
    /** 2026-01-01T00:00:00Z. */
    static final long START = 1_767_225_600_000_000_000L;

    private CacheData() {
    }

    static EngineConfig config(BlockCache cache) {
        return EngineConfig.defaults().withFlushThresholdBytes(1L << 40).withBlockCache(cache);
    }

    static Path build(int hosts, int days, MaintenanceScheduler scheduler) throws Exception {
        Path dir = EngineBench.newDirectory("cache-bench");
        Random rnd = new Random(42);
        double[] user = new double[hosts];
        double[] system = new double[hosts];
        try (Chronix engine = Chronix.open(dir, config(BlockCache.create(0)), scheduler)) {
            PointBatch.Builder b = PointBatch.builder();
            long minutes = days * DAY / MINUTE;
            for (long m = 0; m < minutes; m++) {
                long ts = START + m * MINUTE;
                for (int h = 0; h < hosts; h++) {
                    user[h] = Math.clamp(user[h] + rnd.nextGaussian(), 0, 100);
                    system[h] = Math.clamp(system[h] + rnd.nextGaussian() * 0.5, 0, 100);
                    b.beginPoint("cpu", ts).tag("host", "host_" + h).tag("rack", "r" + (h % 4))
                            .floatField("usage_user", Math.round(user[h] * 100) / 100.0)
                            .floatField("usage_system", Math.round(system[h] * 100) / 100.0)
                            .integerField("processes", 100 + rnd.nextInt(50)).endPoint();
                }
                if (m % 60 == 59) {
                    engine.write(b.build());
                    b.reset();
                }
                if (m % (6 * 60) == 6 * 60 - 1) {
                    engine.flush();
                }
            }
            if (b.size() > 0) {
                engine.write(b.build());
            }
            engine.flush();
        }
        return dir;
    }
}

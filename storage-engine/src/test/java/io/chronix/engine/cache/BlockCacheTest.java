package io.chronix.engine.cache;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class BlockCacheTest {

    private static DecodedBlock block(int bytes) {
        return new DecodedBlock(bytes / 8, null, new byte[bytes], null);
    }

    @Test
    void aHitReturnsWhatWasPutAndCountsHitsAndMisses() {
        BlockCache c = BlockCache.create(1 << 20);
        BlockCache.Key k = new BlockCache.Key("/a/seg.csx", 0, 1);
        assertThat(c.get(k)).isNull();
        DecodedBlock b = block(800);
        c.put(k, b);
        assertThat(c.get(k)).isSameAs(b);
        assertThat(c.stats().hits()).isEqualTo(1);
        assertThat(c.stats().misses()).isEqualTo(1);
    }

    @Test
    void aSmallBudgetEvictsAndStaysWithinItsBytes() {
        BlockCache c = BlockCache.create(64 * 1024);
        for (int i = 0; i < 1000; i++) {
            c.put(new BlockCache.Key("/a/seg" + i + ".csx", 0, 0), block(8 * 1024));
        }
        c.cleanUp();
        BlockCache.Stats s = c.stats();
        assertThat(s.evictions()).isPositive();
        assertThat(s.weightBytes()).isLessThanOrEqualTo(64 * 1024);
        assertThat(s.entries()).isLessThan(1000);
    }

    @Test
    void invalidateDropsEveryBlockOfOneSegmentOnly() {
        BlockCache c = BlockCache.create(1 << 20);
        for (int rg = 0; rg < 3; rg++) {
            for (int col = 0; col < 2; col++) {
                c.put(new BlockCache.Key(Path.of("/ns/shard_1/seg_1_1.csx").toString(), rg, col), block(64));
                c.put(new BlockCache.Key(Path.of("/ns/shard_1/seg_1_2.csx").toString(), rg, col), block(64));
            }
        }
        c.invalidate(Path.of("/ns/shard_1/seg_1_1.csx"));
        assertThat(c.get(new BlockCache.Key("/ns/shard_1/seg_1_1.csx", 1, 1))).isNull();
        assertThat(c.get(new BlockCache.Key("/ns/shard_1/seg_1_2.csx", 1, 1))).isNotNull();
        assertThat(c.stats().entries()).isEqualTo(6);
    }

    @Test
    void aZeroBudgetCachesNothing() {
        BlockCache c = BlockCache.create(0);
        BlockCache.Key k = new BlockCache.Key("/a", 0, 0);
        c.put(k, block(8));
        assertThat(c.get(k)).isNull();
    }
}

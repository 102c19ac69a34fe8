package io.chronix.engine.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The decoded column blocks of segments, keyed by (segment, row group, column), bounded by bytes.
 *
 * <h2>Policy</h2>
 * Caffeine's W-TinyLFU (Einziger, Friedman, Manes: "TinyLFU: A Highly Efficient Cache Admission
 * Policy", 2017): a small LRU window in front of a segmented LRU main space, admission decided by a
 * frequency sketch. A one-off scan over months of cold data therefore passes through the window
 * without pushing out the blocks that dashboards read again and again — the scan resistance a plain
 * LRU lacks. Entries weigh their byte size ({@link DecodedBlock#weight()}).
 *
 * <h2>What is cached, and why not Arrow vectors</h2>
 * A {@link DecodedBlock} holds the Arrow buffer images of one decoded block as on-heap byte arrays.
 * A hit allocates the caller's vector in the caller's allocator and copies the bytes in (one
 * memcpy per buffer, no decompression, no decoding, no CRC). Caching vectors or {@code ArrowBuf}s
 * themselves would tie the cache to an allocator, make every eviction a reference-count release
 * racing readers, and make a caller's {@code close()} free memory the cache still hands out; plain
 * arrays make the cache safe by construction and its memory visible to the GC.
 *
 * <h2>One per process</h2>
 * A cache is shared by every engine that is given it (see {@code EngineConfig.withBlockCache}); the
 * default store uses {@link #shared()}, sized by the system property {@code chronix.blockCache.bytes}
 * (default: 1/16 of the maximum heap, at most 512 MiB). Keys hold the segment's path, so engines of
 * different namespaces never collide.
 *
 * <h2>Invalidation</h2>
 * Segment files are immutable and their names are never reused, so an entry can never be stale; a
 * removed segment's entries are still dead weight. Whoever removes a segment (compaction, deletes,
 * retention, the disk budget) calls {@link #invalidate(Path)} — {@code CsxSegmentStore.delete} does
 * it for every caller. A scan still running on a removed segment may put an entry after the
 * invalidation; its key can never be asked for again and it ages out.
 *
 * <p>Caffeine's maintenance runs on the calling thread (the engine owns no thread).
 *
 * <p>Threading: thread-safe.
 */
public final class BlockCache {

    /** Property naming the byte size of {@link #shared()}. */
    public static final String SIZE_PROPERTY = "chronix.blockCache.bytes";

    private static volatile BlockCache shared;

    private final long maxBytes;
    private final Cache<Key, DecodedBlock> cache;

    /** A block's identity: the segment file's path, the row group and the column index within the segment. */
    public record Key(String segment, int rowGroup, int column) {
        public Key {
            Objects.requireNonNull(segment, "segment");
        }
    }

    /** Counts since the cache was created, and its current size. */
    public record Stats(long hits, long misses, long evictions, long weightBytes, long maxBytes, long entries) {
    }

    private BlockCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((Key k, DecodedBlock v) -> (int) Math.min(Integer.MAX_VALUE, v.weight()))
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** A cache of at most {@code maxBytes} (0: caches nothing). */
    public static BlockCache create(long maxBytes) {
        return new BlockCache(maxBytes);
    }

    /** The process-wide default cache, created on first use (see the class comment for its size). */
    public static BlockCache shared() {
        BlockCache c = shared;
        if (c == null) {
            synchronized (BlockCache.class) {
                c = shared;
                if (c == null) {
                    long dflt = Math.min(512L << 20, Runtime.getRuntime().maxMemory() / 16);
                    c = new BlockCache(Long.getLong(SIZE_PROPERTY, dflt));
                    shared = c;
                }
            }
        }
        return c;
    }

    /** The block, or {@code null}; counts a hit or a miss. */
    public DecodedBlock get(Key key) {
        return maxBytes == 0 ? null : cache.getIfPresent(key);
    }

    public void put(Key key, DecodedBlock block) {
        if (maxBytes > 0 && block.weight() <= maxBytes) {
            cache.put(key, block);
        }
    }

    /** Drops every block of the segment at {@code segment} (call when the segment leaves the namespace). */
    public void invalidate(Path segment) {
        String s = segment.toString();
        cache.asMap().keySet().removeIf(k -> k.segment().equals(s));
    }

    /** Drops everything (tests, benchmarks' cold runs). */
    public void invalidateAll() {
        cache.invalidateAll();
    }

    public long maxBytes() {
        return maxBytes;
    }

    public Stats stats() {
        CacheStats s = cache.stats();
        long weight = cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
        return new Stats(s.hitCount(), s.missCount(), s.evictionCount(), weight, maxBytes, cache.estimatedSize());
    }

    /** Runs pending maintenance (evictions) now; for tests. */
    public void cleanUp() {
        cache.cleanUp();
    }
}

package io.chronix.bench.query;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.SplitMix64;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Draws query parameters the way TSBS's query generator does: hosts as a random subset without
 * repetition, and a window of the kind's length placed uniformly at random inside the data set
 * ({@code start} in {@code [dataStart, dataEnd - window)}). Window bounds are whole seconds, as in the
 * RFC 3339 strings TSBS hands to QuestDB and InfluxDB. Same seed and data set → same queries.
 */
public final class QueryPlanner {
    private static final long SECOND = 1_000_000_000L;
    private final CpuOnlyConfig data;
    private final SplitMix64 random;

    public QueryPlanner(CpuOnlyConfig data, long seed) {
        this.data = data;
        this.random = new SplitMix64(seed);
    }

    public QueryInstance next(QueryKind kind) {
        List<Integer> hosts = kind.hosts() == 0 ? List.of() : randomHosts(kind.hosts());
        return switch (kind.family()) {
            case LASTPOINT -> new QueryInstance(kind, hosts, Long.MIN_VALUE, Long.MAX_VALUE);
            case GROUPBY_ORDERBY_LIMIT -> {
                long[] w = randomWindow(kind);
                yield new QueryInstance(kind, hosts, Long.MIN_VALUE, w[1]);
            }
            default -> {
                long[] w = randomWindow(kind);
                yield new QueryInstance(kind, hosts, w[0], w[1]);
            }
        };
    }

    /** {@code count} instances of every kind, kinds in the given order. */
    public List<QueryInstance> plan(List<QueryKind> kinds, int count) {
        List<QueryInstance> out = new ArrayList<>();
        for (QueryKind k : kinds) {
            for (int i = 0; i < count; i++) {
                out.add(next(k));
            }
        }
        return out;
    }

    private List<Integer> randomHosts(int n) {
        if (n > data.hosts()) {
            throw new IllegalArgumentException("query needs " + n + " hosts but the data set has only " + data.hosts());
        }
        Set<Integer> chosen = new LinkedHashSet<>();
        while (chosen.size() < n) {
            chosen.add(random.nextInt(data.hosts()));
        }
        return List.copyOf(chosen);
    }

    private long[] randomWindow(QueryKind kind) {
        long window = kind.window().toNanos();
        long lower = data.startNanos();
        long upper = data.endNanos() - window;
        if (upper <= lower) {
            throw new IllegalArgumentException("query " + kind.label() + " needs a window of " + kind.window()
                    + " but the data set lasts only " + data.duration());
        }
        long start = lower + random.nextLong(upper - lower);
        start -= Math.floorMod(start - lower, SECOND);
        return new long[]{start, start + window};
    }
}

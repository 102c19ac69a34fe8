package io.chronix.engine.catalog;

import java.nio.ByteBuffer;

/**
 * Bodies of the rollup records ({@code docs/format/catalog.md}, types 15–17): ROLLUP_DEFINED,
 * ROLLUP_REMOVED, ROLLUP_STATE.
 */
final class RollupRecords {

    /** Aggregates are a 7-bit mask: avg, min, max, first, last, sum, count. */
    static final int AGGREGATE_MASK = 0x7F;
    /** The invalidation log's cap; a state record with more ranges is damage. */
    static final int MAX_RANGES = 64;

    private RollupRecords() {
    }

    static byte[] encodeDefined(RollupEntry e) {
        return new CatalogFormat.Out().str(e.name()).str(e.source()).str(e.target()).str(e.every()).str(e.zone()).optStr(e.origin())
                .u8(e.aggregates()).bytes();
    }

    static RollupEntry decodeDefined(ByteBuffer body) throws CatalogFormat.BadBody {
        CatalogFormat.In in = new CatalogFormat.In(body);
        String name = in.str();
        String source = in.str();
        String target = in.str();
        String every = in.str();
        String zone = in.str();
        String origin = in.optStr();
        int aggregates = in.u8();
        in.end();
        if (aggregates == 0 || (aggregates & ~AGGREGATE_MASK) != 0) {
            throw new CatalogFormat.BadBody("rollup aggregate mask " + aggregates + " invalid");
        }
        if (name.isEmpty() || source.isEmpty() || target.isEmpty() || source.equals(target)) {
            throw new CatalogFormat.BadBody("rollup definition with an empty name or source equal to target");
        }
        return new RollupEntry(name, source, target, every, zone, origin, aggregates, Long.MIN_VALUE, new long[0]);
    }

    static byte[] encodeRemoved(String name) {
        return new CatalogFormat.Out().str(name).bytes();
    }

    static String decodeRemoved(ByteBuffer body) throws CatalogFormat.BadBody {
        CatalogFormat.In in = new CatalogFormat.In(body);
        String name = in.str();
        in.end();
        return name;
    }

    /** A state record: name, then what {@link #decodeState} reads. */
    record State(String name, long materialisedUntil, long[] invalid) {
    }

    static byte[] encodeState(String name, long until, long[] ranges) {
        CatalogFormat.Out o = new CatalogFormat.Out().str(name).i64(until).u32(ranges.length / 2);
        for (long r : ranges) {
            o.i64(r);
        }
        return o.bytes();
    }

    static State decodeState(ByteBuffer body) throws CatalogFormat.BadBody {
        CatalogFormat.In in = new CatalogFormat.In(body);
        String name = in.str();
        long until = in.i64();
        int n = in.count(16);
        if (n > MAX_RANGES) {
            throw new CatalogFormat.BadBody("rollup state with " + n + " ranges, more than " + MAX_RANGES);
        }
        long[] ranges = new long[2 * n];
        for (int i = 0; i < n; i++) {
            long from = in.i64();
            long to = in.i64();
            if (from >= to || i > 0 && from <= ranges[2 * i - 1]) {
                throw new CatalogFormat.BadBody("rollup invalid ranges not ascending and disjoint at " + from);
            }
            ranges[2 * i] = from;
            ranges[2 * i + 1] = to;
        }
        in.end();
        return new State(name, until, ranges);
    }
}

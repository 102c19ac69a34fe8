package io.chronix.engine;

import io.chronix.engine.catalog.Catalog;
import io.chronix.engine.catalog.RollupEntry;
import io.chronix.engine.rollup.Aggregate;
import io.chronix.engine.rollup.RollupConfig;
import io.chronix.engine.rollup.RollupRegistry;
import io.chronix.engine.rollup.TimeBucket;
import io.chronix.engine.rollup.TimeRange;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Rollup definitions and state in the catalog (record types 15–17, {@code docs/format/catalog.md}):
 * the {@link RollupRegistry.Store} of an engine, and the conversion back at open. Each call
 * returns once the catalog record is fsynced.
 */
final class RollupCatalog implements RollupRegistry.Store {

    private final Catalog catalog;

    RollupCatalog(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public void defined(RollupConfig c) {
        int mask = 0;
        for (Aggregate a : c.aggregates()) {
            mask |= 1 << a.ordinal();
        }
        String origin = c.bucket().origin().map(Object::toString).orElse(null);
        catalog.defineRollup(new RollupEntry(c.name(), c.source(), c.target(), c.bucket().every(), c.bucket().zone().getId(), origin, mask,
                Long.MIN_VALUE, new long[0]));
    }

    @Override
    public void removed(String name) {
        catalog.removeRollup(name);
    }

    @Override
    public void state(String name, long materialisedUntil, List<TimeRange> invalid) {
        long[] flat = new long[invalid.size() * 2];
        for (int i = 0; i < invalid.size(); i++) {
            flat[2 * i] = invalid.get(i).from();
            flat[2 * i + 1] = invalid.get(i).to();
        }
        catalog.rollupState(name, materialisedUntil, flat);
    }

    /** The catalog's rollups as the registry takes them. */
    static List<RollupRegistry.Persisted> load(Catalog catalog) {
        List<RollupRegistry.Persisted> out = new ArrayList<>();
        for (RollupEntry e : catalog.rollups()) {
            TimeBucket bucket = TimeBucket.builder().every(e.every()).timezone(e.zone()).origin(e.origin()).build();
            Set<Aggregate> aggregates = EnumSet.noneOf(Aggregate.class);
            for (Aggregate a : Aggregate.values()) {
                if ((e.aggregates() & (1 << a.ordinal())) != 0) {
                    aggregates.add(a);
                }
            }
            long[] flat = e.invalid();
            List<TimeRange> invalid = new ArrayList<>();
            for (int i = 0; i < flat.length; i += 2) {
                invalid.add(new TimeRange(flat[i], flat[i + 1]));
            }
            out.add(new RollupRegistry.Persisted(new RollupConfig(e.name(), e.source(), e.target(), bucket, aggregates),
                    e.materialisedUntil(), invalid));
        }
        return out;
    }
}

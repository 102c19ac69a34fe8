package io.chronix.engine.rollup;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One rollup: {@code source} measurement → {@code target} measurement, bucketed by {@code bucket},
 * computing {@code aggregates} over every numeric field of the source (float, int64, uint64; NaN
 * skipped). Target series keep the source series' tags; target fields are {@code
 * <field>_<aggregate>} (see {@link RollupSchema} for their types).
 *
 * @param name       {@code [A-Za-z0-9_][A-Za-z0-9_.-]*}, at most 128 characters; unique per namespace
 * @param source     a measurement name (non-blank, no control characters)
 * @param target     a measurement name other than {@code source}
 * @param aggregates at least one; kept in declaration order of {@link Aggregate}
 * @throws InvalidRollupException naming the part refused
 */
public record RollupConfig(String name, String source, String target, TimeBucket bucket, Set<Aggregate> aggregates) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    public RollupConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidRollupException("rollup name must match [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}", "name", name);
        }
        checkMeasurement("source", source);
        checkMeasurement("target", target);
        if (source.equals(target)) {
            throw new InvalidRollupException("rollup source and target must differ", "target", target);
        }
        if (bucket == null) {
            throw new InvalidRollupException("rollup needs a bucket", "every", null);
        }
        if (aggregates == null || aggregates.isEmpty()) {
            throw new InvalidRollupException("rollup needs at least one aggregate", "aggregates", aggregates);
        }
        aggregates = Collections.unmodifiableSet(EnumSet.copyOf(aggregates));
    }

    private static void checkMeasurement(String role, String m) {
        if (m == null || m.isBlank() || m.length() > 256 || m.chars().anyMatch(Character::isISOControl)) {
            throw new InvalidRollupException("rollup " + role + " must be a measurement name (1-256 characters, no control characters)",
                    role, m);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RollupConfig c && c.name.equals(name) && c.source.equals(source) && c.target.equals(target)
                && c.bucket.equals(bucket) && c.aggregates.equals(aggregates);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, source, target, bucket, aggregates);
    }
}

package io.chronix.engine.rollup;

import java.util.Locale;

/** The aggregates a rollup computes per bucket and numeric field; target fields are {@code <field>_<wireName>}. */
public enum Aggregate {
    AVG, MIN, MAX, FIRST, LAST, SUM, COUNT;

    /** The lower-case name of the API and of target field suffixes ({@code avg}, …). */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The target field this aggregate of {@code field} is written to. */
    public String targetField(String field) {
        return field + "_" + wireName();
    }

    /**
     * The aggregate of a wire name (case-insensitive).
     *
     * @throws InvalidRollupException naming the unknown name
     */
    public static Aggregate of(String wireName) {
        if (wireName != null) {
            for (Aggregate a : values()) {
                if (a.wireName().equalsIgnoreCase(wireName.strip())) {
                    return a;
                }
            }
        }
        throw new InvalidRollupException("unknown aggregate (avg, min, max, first, last, sum, count)", "aggregate", wireName);
    }
}

package io.chronix.bench.query;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The TSBS cpu-only queries this runner knows, with TSBS's parameters (its
 * {@code cmd/tsbs_generate_queries} use-case matrix and {@code uses/devops/common.go}): metric count,
 * host count (0 = all hosts), time window, bucket width.
 */
public enum QueryKind {
    SINGLE_GROUPBY_1_1_1("single-groupby-1-1-1", Family.SINGLE_GROUPBY, 1, 1, Duration.ofHours(1)),
    SINGLE_GROUPBY_1_1_12("single-groupby-1-1-12", Family.SINGLE_GROUPBY, 1, 1, Duration.ofHours(12)),
    SINGLE_GROUPBY_1_8_1("single-groupby-1-8-1", Family.SINGLE_GROUPBY, 1, 8, Duration.ofHours(1)),
    SINGLE_GROUPBY_5_1_1("single-groupby-5-1-1", Family.SINGLE_GROUPBY, 5, 1, Duration.ofHours(1)),
    SINGLE_GROUPBY_5_8_1("single-groupby-5-8-1", Family.SINGLE_GROUPBY, 5, 8, Duration.ofHours(1)),
    CPU_MAX_ALL_1("cpu-max-all-1", Family.MAX_ALL, 10, 1, Duration.ofHours(8)),
    CPU_MAX_ALL_8("cpu-max-all-8", Family.MAX_ALL, 10, 8, Duration.ofHours(8)),
    DOUBLE_GROUPBY_1("double-groupby-1", Family.DOUBLE_GROUPBY, 1, 0, Duration.ofHours(12)),
    DOUBLE_GROUPBY_5("double-groupby-5", Family.DOUBLE_GROUPBY, 5, 0, Duration.ofHours(12)),
    DOUBLE_GROUPBY_ALL("double-groupby-all", Family.DOUBLE_GROUPBY, 10, 0, Duration.ofHours(12)),
    HIGH_CPU_1("high-cpu-1", Family.HIGH_CPU, 10, 1, Duration.ofHours(12)),
    HIGH_CPU_ALL("high-cpu-all", Family.HIGH_CPU, 10, 0, Duration.ofHours(12)),
    LASTPOINT("lastpoint", Family.LASTPOINT, 10, 0, Duration.ZERO),
    /** TSBS draws a random one-hour window and uses only its end: the last 5 minutes before it. */
    GROUPBY_ORDERBY_LIMIT("groupby-orderby-limit", Family.GROUPBY_ORDERBY_LIMIT, 1, 0, Duration.ofHours(1));

    /** The shape of a query, which fixes its SQL template and its reference evaluation. */
    public enum Family {
        /** max of N metrics per 1-minute bucket, for H random hosts, over a random window. */
        SINGLE_GROUPBY,
        /** max of all 10 metrics per 1-hour bucket, for H random hosts, over 8 h. */
        MAX_ALL,
        /** mean of N metrics per 1-hour bucket and host, all hosts, over 12 h. */
        DOUBLE_GROUPBY,
        /** every row with usage_user &gt; 90 in a 12 h window, for one or all hosts. */
        HIGH_CPU,
        /** the last row of every host. */
        LASTPOINT,
        /** max usage_user per minute over all hosts, the 5 latest minutes before a random end. */
        GROUPBY_ORDERBY_LIMIT
    }

    private final String label;
    private final Family family;
    private final int metrics;
    private final int hosts;
    private final Duration window;

    QueryKind(String label, Family family, int metrics, int hosts, Duration window) {
        this.label = label;
        this.family = family;
        this.metrics = metrics;
        this.hosts = hosts;
        this.window = window;
    }

    public String label() {
        return label;
    }

    public Family family() {
        return family;
    }

    /** Number of metrics (the first N of TSBS's field order). */
    public int metrics() {
        return metrics;
    }

    /** Number of random hosts; 0 means all hosts. */
    public int hosts() {
        return hosts;
    }

    public Duration window() {
        return window;
    }

    /** Width of the time bucket, or {@code null} for queries without one. */
    public Duration bucket() {
        return switch (family) {
            case SINGLE_GROUPBY, GROUPBY_ORDERBY_LIMIT -> Duration.ofMinutes(1);
            case MAX_ALL, DOUBLE_GROUPBY -> Duration.ofHours(1);
            case HIGH_CPU, LASTPOINT -> null;
        };
    }

    public static QueryKind byLabel(String label) {
        return Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown query '" + label + "'; known: "
                        + Arrays.stream(values()).map(QueryKind::label).toList()));
    }

    public static List<QueryKind> all() {
        return List.of(values());
    }
}

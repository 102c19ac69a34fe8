package io.chronix.bench.segment;

import io.chronix.bench.generator.CpuOnlyConfig;
import io.chronix.bench.generator.CpuOnlyGenerator;
import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.HostTags;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.generator.TsbsValueSets;
import io.chronix.engine.segment.SegmentColumns;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * TSBS cpu-only data laid out the way a flush hands it to the segment writer: one measurement,
 * series by series (tags in ascending cardinality, hostname last, then time), ten fields as float
 * or integer columns.
 */
public final class TsbsSegmentData {

    /** Tag keys in ascending cardinality (TSBS value sets): the segment's sort order. */
    public static final List<String> SORT_ORDER = List.of("arch", "service_version", "os", "service_environment", "team",
            "region", "service", "datacenter", "rack", "hostname");

    public final int rows;
    public final int hosts;
    public final long[] time;
    public final String[][] tags;      // [sort position][row]
    public final double[][] floats;    // [field][row]
    public final long[][] integers;    // [field][row], set when integer fields were generated
    private final boolean integerFields;

    private TsbsSegmentData(int rows, int hosts, boolean integerFields) {
        this.rows = rows;
        this.hosts = hosts;
        this.integerFields = integerFields;
        time = new long[rows];
        tags = new String[SORT_ORDER.size()][rows];
        floats = integerFields ? null : new double[TsbsValueSets.FIELDS.size()][rows];
        integers = integerFields ? new long[TsbsValueSets.FIELDS.size()][rows] : null;
    }

    public static TsbsSegmentData generate(int hosts, java.time.Duration duration, long seed, boolean integerFields) {
        CpuOnlyConfig config = CpuOnlyConfig.of(hosts, duration, seed, integerFields);
        int ticks = (int) config.ticks();
        TsbsSegmentData d = new TsbsSegmentData(ticks * hosts, hosts, integerFields);
        CpuOnlyGenerator gen = new CpuOnlyGenerator(config);
        Dataset ds = gen.dataset();
        // series order: hosts sorted by their tag values in SORT_ORDER
        List<HostTags> hostTags = ds.hosts();
        Integer[] order = new Integer[hosts];
        for (int h = 0; h < hosts; h++) {
            order[h] = h;
        }
        Comparator<Integer> bySeries = (a, b) -> {
            for (String key : SORT_ORDER) {
                int c = tag(hostTags.get(a), key).compareTo(tag(hostTags.get(b), key));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        Arrays.sort(order, bySeries);
        int[] rowBase = new int[hosts]; // first row of host h
        for (int pos = 0; pos < hosts; pos++) {
            rowBase[order[pos]] = pos * ticks;
        }
        for (int pos = 0; pos < hosts; pos++) {
            HostTags t = hostTags.get(order[pos]);
            for (int k = 0; k < SORT_ORDER.size(); k++) {
                Arrays.fill(d.tags[k], pos * ticks, (pos + 1) * ticks, tag(t, SORT_ORDER.get(k)));
            }
        }
        int[] tick = {0};
        gen.generate(new TickSink() {
            @Override
            public void tick(long timeNanos, double[][] values) {
                int k = tick[0]++;
                for (int h = 0; h < hosts; h++) {
                    int row = rowBase[h] + k;
                    d.time[row] = timeNanos;
                    for (int f = 0; f < values.length; f++) {
                        if (integerFields) {
                            d.integers[f][row] = (long) values[f][h];
                        } else {
                            d.floats[f][row] = values[f][h];
                        }
                    }
                }
            }
        });
        return d;
    }

    private static String tag(HostTags t, String key) {
        return t.values().get(TsbsValueSets.TAG_KEYS.indexOf(key));
    }

    public SegmentColumns columns() {
        SegmentColumns.Builder b = SegmentColumns.builder(TsbsValueSets.MEASUREMENT, rows).time(time);
        for (int k = 0; k < SORT_ORDER.size(); k++) {
            b.tag(SORT_ORDER.get(k), tags[k]);
        }
        for (int f = 0; f < TsbsValueSets.FIELDS.size(); f++) {
            if (integerFields) {
                b.integerField(TsbsValueSets.FIELDS.get(f), integers[f], null);
            } else {
                b.floatField(TsbsValueSets.FIELDS.get(f), floats[f], null);
            }
        }
        return b.build();
    }

    public int fieldValues() {
        return rows * TsbsValueSets.FIELDS.size();
    }

    /** The integer data as floats (what a client sending {@code 58} rather than {@code 58i} stores). */
    public double[][] integersAsFloats() {
        double[][] out = new double[integers.length][rows];
        for (int f = 0; f < integers.length; f++) {
            for (int i = 0; i < rows; i++) {
                out[f][i] = integers[f][i];
            }
        }
        return out;
    }

    static List<String> names() {
        return new ArrayList<>(TsbsValueSets.FIELDS);
    }
}

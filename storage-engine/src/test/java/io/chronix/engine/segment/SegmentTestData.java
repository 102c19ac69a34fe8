package io.chronix.engine.segment;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Random measurement data for segment tests, with NULLs in every nullable column, already sorted
 * series by series. Rows are kept both columnar (to write) and as a plain model (to compare).
 */
final class SegmentTestData {

    final int rows;
    final long[] time;
    final String[] host;     // sort key 0
    final String[] region;   // sort key 1, sometimes absent
    final double[] f;
    final long[] fValid;
    final long[] i;
    final long[] iValid;
    final long[] u;
    final long[] uValid;
    final boolean[] b;
    final long[] bValid;
    final String[] s;

    private record Row(String host, String region, long time) {
    }

    SegmentTestData(long seed, int series, int pointsPerSeries) {
        Random r = new Random(seed);
        List<Row> keys = new ArrayList<>();
        for (int k = 0; k < series; k++) {
            String host = "host_" + k;
            String region = r.nextInt(4) == 0 ? null : "region_" + r.nextInt(3);
            long t = 1_451_606_400_000_000_000L + r.nextInt(1000) * 1_000_000L;
            long step = r.nextBoolean() ? 10_000_000_000L : 1 + r.nextInt(1_000_000);
            for (int p = 0; p < pointsPerSeries; p++) {
                keys.add(new Row(host, region, t));
                t += r.nextInt(10) == 0 ? step + r.nextInt(1000) : step;
            }
        }
        keys.sort(Comparator.comparing(Row::host).thenComparing(Row::region, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparingLong(Row::time));
        rows = keys.size();
        time = new long[rows];
        host = new String[rows];
        region = new String[rows];
        f = new double[rows];
        i = new long[rows];
        u = new long[rows];
        b = new boolean[rows];
        s = new String[rows];
        fValid = new long[(rows + 63) / 64];
        iValid = new long[(rows + 63) / 64];
        uValid = new long[(rows + 63) / 64];
        bValid = new long[(rows + 63) / 64];
        double walk = 50;
        long iw = 0;
        for (int k = 0; k < rows; k++) {
            Row row = keys.get(k);
            time[k] = row.time();
            host[k] = row.host();
            region[k] = row.region();
            walk += r.nextGaussian();
            f[k] = switch (r.nextInt(20)) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> Double.POSITIVE_INFINITY;
                case 3 -> Double.NEGATIVE_INFINITY;
                case 4 -> Math.round(walk * 10) / 10.0;
                default -> walk;
            };
            iw += r.nextInt(7) - 3;
            i[k] = switch (r.nextInt(50)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                default -> iw;
            };
            u[k] = r.nextInt(30) == 0 ? -1L : (long) r.nextInt(1000) << 54;
            b[k] = r.nextBoolean();
            s[k] = r.nextInt(5) == 0 ? null : "msg-" + r.nextInt(6) + (r.nextInt(50) == 0 ? "\u00e9\u6f22" : "");
            setIf(fValid, k, r.nextInt(7) != 0);
            setIf(iValid, k, r.nextInt(9) != 0);
            setIf(uValid, k, true);
            setIf(bValid, k, r.nextInt(3) != 0);
        }
    }

    private static void setIf(long[] bits, int k, boolean v) {
        if (v) {
            bits[k >>> 6] |= 1L << k;
        }
    }

    static boolean valid(long[] bits, int k) {
        return bits == null || (bits[k >>> 6] & (1L << k)) != 0;
    }

    /** Rows {@code [from, to)} as one part. */
    SegmentColumns part(int from, int to) {
        int n = to - from;
        return SegmentColumns.builder("cpu", n)
                .time(Arrays.copyOfRange(time, from, to))
                .tag("host", Arrays.copyOfRange(host, from, to))
                .tag("region", Arrays.copyOfRange(region, from, to))
                .floatField("f", Arrays.copyOfRange(f, from, to), shift(fValid, from, n))
                .integerField("i", Arrays.copyOfRange(i, from, to), shift(iValid, from, n))
                .unsignedField("u", Arrays.copyOfRange(u, from, to), null)
                .booleanField("b", Arrays.copyOfRange(b, from, to), shift(bValid, from, n))
                .stringField("s", Arrays.copyOfRange(s, from, to))
                .build();
    }

    SegmentColumns all() {
        return part(0, rows);
    }

    private static long[] shift(long[] bits, int from, int n) {
        long[] out = new long[(n + 63) / 64 + 1];
        for (int k = 0; k < n; k++) {
            if (valid(bits, from + k)) {
                out[k >>> 6] |= 1L << k;
            }
        }
        return out;
    }
}

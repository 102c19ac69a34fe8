package io.chronix.engine.rollup;

import io.chronix.engine.model.FieldType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RollupAccumulatorTest {

    private static final TimeBucket TEN = TimeBucket.builder().every("10ns").build();
    private static final FieldType[] TYPES = {FieldType.FLOAT, FieldType.INTEGER, FieldType.UNSIGNED};

    private static void row(RollupAccumulator acc, List<String> g, long ts, double f, long i, long u) {
        BucketAccumulator s = acc.row(g, ts);
        if (s != null) {
            s.add(0, ts, Double.doubleToRawLongBits(f));
            s.add(1, ts, i);
            s.add(2, ts, u);
        }
    }

    @Test
    void orderedInputEmitsABucketOnceTheNextBegins() {
        List<RollupAccumulator.Bucket> out = new ArrayList<>();
        RollupAccumulator acc = RollupAccumulator.ordered(TEN, TYPES, out::add);
        List<String> a = List.of("a");
        row(acc, a, 1, 1.5, 5, -1L);
        row(acc, a, 3, Double.NaN, -7, 3);
        row(acc, a, 9, 2.5, 2, 4);
        assertThat(out).isEmpty();
        row(acc, a, 10, 9, 9, 9);
        assertThat(out).hasSize(1);
        BucketAccumulator s = out.getFirst().stats();
        assertThat(out.getFirst().start()).isZero();
        assertThat(s.count(0)).as("NaN skipped").isEqualTo(2);
        assertThat(Double.longBitsToDouble(s.bits(0, Aggregate.AVG))).isEqualTo(2.0);
        assertThat(Double.longBitsToDouble(s.bits(0, Aggregate.FIRST))).isEqualTo(1.5);
        assertThat(Double.longBitsToDouble(s.bits(0, Aggregate.LAST))).isEqualTo(2.5);
        assertThat(s.bits(1, Aggregate.MIN)).isEqualTo(-7);
        assertThat(s.bits(1, Aggregate.MAX)).isEqualTo(5);
        assertThat(Double.longBitsToDouble(s.bits(1, Aggregate.SUM))).isZero();
        assertThat(s.bits(2, Aggregate.MAX)).as("uint64 compares unsigned").isEqualTo(-1L);
        assertThat(s.bits(2, Aggregate.MIN)).isEqualTo(3);
        assertThat(Double.longBitsToDouble(s.bits(2, Aggregate.SUM))).isEqualTo(18446744073709551615.0 + 7);
        assertThat(s.bits(2, Aggregate.COUNT)).isEqualTo(3);
        assertThat(acc.sawUnorderedInput()).isFalse();
        acc.finish();
        assertThat(out).hasSize(2);
    }

    @Test
    void orderedInputGoingBackIsReportedAndNotFolded() {
        List<RollupAccumulator.Bucket> out = new ArrayList<>();
        RollupAccumulator acc = RollupAccumulator.ordered(TEN, TYPES, out::add);
        row(acc, List.of("a"), 15, 1, 1, 1);
        row(acc, List.of("b"), 2, 1, 1, 1); // another group: its own order
        assertThat(acc.sawUnorderedInput()).isFalse();
        row(acc, List.of("a"), 4, 1, 1, 1);
        assertThat(acc.sawUnorderedInput()).isTrue();
        acc.finish();
        assertThat(out).extracting(b -> b.stats().count(0)).containsOnly(1L);
    }

    @Test
    void unorderedInputGivesTheSameBucketsAsOrdered() {
        List<RollupAccumulator.Bucket> ordered = new ArrayList<>();
        List<RollupAccumulator.Bucket> unordered = new ArrayList<>();
        RollupAccumulator o = RollupAccumulator.ordered(TEN, TYPES, ordered::add);
        RollupAccumulator u = RollupAccumulator.unordered(TEN, TYPES, unordered::add);
        long[] ts = {0, 2, 5, 11, 12, 25, 29};
        for (long t : ts) {
            row(o, List.of("a"), t, t * 0.5, t, t);
        }
        for (int i = ts.length - 1; i >= 0; i--) {
            row(u, List.of("a"), ts[i], ts[i] * 0.5, ts[i], ts[i]);
        }
        o.finish();
        u.finish();
        assertThat(u.sawUnorderedInput()).isFalse();
        assertThat(unordered).hasSameSizeAs(ordered);
        for (int i = 0; i < ordered.size(); i++) {
            for (Aggregate a : Aggregate.values()) {
                for (int f = 0; f < TYPES.length; f++) {
                    assertThat(unordered.get(i).stats().bits(f, a)).as("%s of field %d", a, f).isEqualTo(ordered.get(i).stats().bits(f, a));
                }
            }
        }
    }
}

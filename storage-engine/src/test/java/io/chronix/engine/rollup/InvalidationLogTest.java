package io.chronix.engine.rollup;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class InvalidationLogTest {

    private static TimeRange r(long from, long to) {
        return new TimeRange(from, to);
    }

    @Test
    void touchingAndOverlappingRangesCoalesceAndStayAscending() {
        List<TimeRange> log = List.of();
        log = InvalidationLog.add(log, r(50, 60));
        log = InvalidationLog.add(log, r(10, 20));
        log = InvalidationLog.add(log, r(20, 30));
        log = InvalidationLog.add(log, r(55, 70));
        log = InvalidationLog.add(log, r(35, 40));
        assertThat(log).containsExactly(r(10, 30), r(35, 40), r(50, 70));
        log = InvalidationLog.add(log, r(0, 100));
        assertThat(log).containsExactly(r(0, 100));
    }

    @Test
    void subtractCutsRangesApart() {
        List<TimeRange> log = List.of(r(0, 100), r(200, 300));
        assertThat(InvalidationLog.subtract(log, List.of(r(10, 20), r(250, 400)))).containsExactly(r(0, 10), r(20, 100), r(200, 250));
        assertThat(InvalidationLog.subtract(log, log)).isEmpty();
    }

    @Test
    void scatteredPointsAreCappedAtSixtyFourRangesMergingTheClosest() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random rnd = new Random(seed);
        List<TimeRange> log = List.of();
        List<Long> points = new java.util.ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            long t = rnd.nextLong(1_000_000) * 10;
            points.add(t);
            log = InvalidationLog.add(log, r(t, t + 10));
            assertThat(log.size()).as("seed=%d", seed).isLessThanOrEqualTo(InvalidationLog.CAP);
            for (int k = 1; k < log.size(); k++) {
                assertThat(log.get(k).from()).as("seed=%d disjoint, ascending, not touching", seed).isGreaterThan(log.get(k - 1).to());
            }
        }
        for (long t : points) {
            assertThat(log.stream().anyMatch(x -> x.from() <= t && t + 10 <= x.to())).as("seed=%d covers %d", seed, t).isTrue();
        }
        assertThat(log).hasSize(InvalidationLog.CAP);
    }
}

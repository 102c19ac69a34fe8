package io.chronix.engine.lifecycle;

import io.chronix.engine.catalog.SegmentEntry;
import io.chronix.engine.catalog.TombstoneEntry;
import io.chronix.engine.read.RowMask;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The in-memory tombstone set: what it masks, per segment and series, and when it can be collected. */
class TombstonesTest {

    static SegmentEntry segment(long id, String measurement) {
        return new SegmentEntry(id, "shard_0/seg_1_" + id + ".csx", 0, measurement, 0, 1000, 10, 1, 100, 1, List.of());
    }

    final Tombstones set = new Tombstones();

    {
        set.load(List.of(new TombstoneEntry(1, "cpu", Map.of("host", "a"), 10, 20, new long[] {1, 2}),
                new TombstoneEntry(2, "cpu", Map.of("host", "a"), 50, 60, new long[] {2}),
                new TombstoneEntry(3, "cpu", Map.of("host", "a", "rack", "r1"), 0, 1000, new long[] {1})));
    }

    @Test
    void aMaskCoversOnlyItsSeriesInTheSegmentsItWasIssuedAgainst() {
        String[] keys = {"host", "rack"};
        RowMask one = set.maskFor(segment(1, "cpu"), keys);
        assertThat(one.deletedRanges(new String[] {"a", null})).containsExactly(10, 20);
        assertThat(one.deletedRanges(new String[] {"a", "r1"})).containsExactly(0, 1000);
        assertThat(one.deletedRanges(new String[] {"b", null})).isNull();
        RowMask two = set.maskFor(segment(2, "cpu"), keys);
        assertThat(two.deletedRanges(new String[] {"a", null})).containsExactly(10, 20, 50, 60);
        assertThat(two.deletedRanges(new String[] {"a", "r1"})).as("not issued against segment 2").isNull();
        assertThat(set.maskFor(segment(3, "cpu"), keys)).as("a later segment").isSameAs(RowMask.NONE);
        assertThat(set.maskFor(segment(1, "mem"), keys)).isSameAs(RowMask.NONE);
        assertThat(set.maskFor(segment(1, "cpu"), new String[] {"host"}).deletedRanges(new String[] {"a"}))
                .as("a reader without the rack tag sees only the host=a series").containsExactly(10, 20);
    }

    @Test
    void deletedTimesAnswersPerInputSegmentAndSeries() {
        LongPredicate a = set.deletedTimes(segment(2, "cpu"), List.of("host", "rack"), Arrays.asList("a", null));
        assertThat(a).isNotNull();
        assertThat(a.test(9)).isFalse();
        assertThat(a.test(10)).isTrue();
        assertThat(a.test(20)).isTrue();
        assertThat(a.test(55)).isTrue();
        assertThat(a.test(61)).isFalse();
        assertThat(set.deletedTimes(segment(3, "cpu"), List.of("host", "rack"), Arrays.asList("a", null))).isNull();
        assertThat(set.deletedTimes(segment(1, "cpu"), List.of("host", "rack"), Arrays.asList("a", "r2"))).isNull();
        assertThat(set.deletedTimes(segment(1, "cpu"), List.of("host", "rack"), Arrays.asList("a", "r1")).test(999)).isTrue();
    }

    @Test
    void aTombstoneIsCollectibleOnlyOnceNoneOfItsSegmentsIsLive() {
        assertThat(set.collectible(Set.of(1L, 2L))).isEmpty();
        assertThat(set.collectible(Set.of(2L))).containsExactly(3L);
        assertThat(set.collectible(Set.of(7L))).containsExactly(1L, 2L, 3L);
        set.remove(Set.of(1L, 3L));
        assertThat(set.all()).extracting(TombstoneEntry::id).containsExactly(2L);
        assertThat(set.size()).isEqualTo(1);
    }
}

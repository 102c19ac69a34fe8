package io.chronix.engine.store;

import io.chronix.engine.catalog.SegmentEntry;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The metadata cache stays true through the calls flush, compaction, deletes and retention make. */
class MetadataCacheTest {

    private static SegmentEntry entry(long id, String measurement, long min, long max) {
        return new SegmentEntry(id, "shard_1/seg_5_" + id + ".csx", 1, measurement, min, max, 10, 1, 100, id, List.of());
    }

    private static List<Long> ids(List<SegmentEntry> l) {
        return l.stream().map(SegmentEntry::id).toList();
    }

    @Test
    void flushAddsNewestLast() {
        MetadataCache c = new MetadataCache();
        c.load(List.of(entry(1, "m", 0, 9), entry(2, "m", 10, 19)));
        c.add(List.of(entry(3, "m", 5, 25), entry(4, "n", 0, 1)));
        assertThat(ids(c.segments("m"))).containsExactly(1L, 2L, 3L);
        assertThat(ids(c.segments("n"))).containsExactly(4L);
    }

    @Test
    void compactionReplacesInputsAndOutputsJoinInIdOrderSoLaterSegmentsStillWin() {
        // compaction gives its output an id that sorts it before segments flushed after its inputs
        MetadataCache c = new MetadataCache();
        c.load(List.of(entry(1, "m", 0, 9), entry(2, "m", 0, 9), entry(5, "m", 0, 9), entry(6, "m", 0, 9)));
        c.replace(Set.of(entry(2, "m", 0, 0).file(), entry(5, "m", 0, 0).file()), List.of(entry(3, "m", 0, 9)));
        assertThat(ids(c.segments("m"))).containsExactly(1L, 3L, 6L);
        assertThat(ids(c.candidates("m", 0, 9, List.of()))).containsExactly(1L, 3L, 6L);
    }

    @Test
    void replaceWithoutRemovalsOfAMeasurementAdds() {
        MetadataCache c = new MetadataCache();
        c.load(List.of(entry(1, "m", 0, 9)));
        c.replace(Set.of(), List.of(entry(2, "m", 0, 9), entry(3, "x", 0, 9)));
        assertThat(ids(c.segments("m"))).containsExactly(1L, 2L);
        assertThat(ids(c.segments("x"))).containsExactly(3L);
    }

    @Test
    void deleteAndRetentionRemoveSegmentsAndEmptyMeasurementsDisappear() {
        MetadataCache c = new MetadataCache();
        c.load(List.of(entry(1, "m", 0, 9), entry(2, "m", 10, 19), entry(3, "n", 0, 9)));
        c.remove(Set.of(entry(1, "m", 0, 0).file(), entry(3, "n", 0, 0).file(), "shard_1/seg_5_77.csx"));
        assertThat(ids(c.segments("m"))).containsExactly(2L);
        assertThat(c.measurements()).containsExactly("m");
        assertThat(c.candidates("m", 0, 9, List.of())).isEmpty();
        assertThat(c.all()).hasSize(1);
    }

    @Test
    void aSnapshotTakenBeforeAReplaceIsUnchanged() {
        MetadataCache c = new MetadataCache();
        c.load(List.of(entry(1, "m", 0, 9), entry(2, "m", 0, 9)));
        List<SegmentEntry> before = c.segments("m");
        c.replace(Set.of(entry(1, "m", 0, 0).file(), entry(2, "m", 0, 0).file()), List.of(entry(3, "m", 0, 9)));
        assertThat(ids(before)).containsExactly(1L, 2L);
        assertThat(ids(c.segments("m"))).containsExactly(3L);
    }
}

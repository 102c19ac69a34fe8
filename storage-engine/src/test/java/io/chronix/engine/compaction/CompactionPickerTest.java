package io.chronix.engine.compaction;

import io.chronix.engine.catalog.SegmentEntry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CompactionPickerTest {

    private static long nextId = 1;

    private static List<SegmentEntry> segments(long shard, String measurement, int n) {
        List<SegmentEntry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long id = nextId++;
            out.add(new SegmentEntry(id, "shard_" + shard + "/seg_1_" + id + ".csx", shard, measurement, 0, 1000, 10, 1, 100, id, List.of()));
        }
        return out;
    }

    @Test
    void aClosedShardsGroupIsPickedFromTwoSegmentsAnOpenOneAtTheTrigger() {
        List<SegmentEntry> live = new ArrayList<>();
        live.addAll(segments(5, "cpu", 2));  // closed, two: picked
        live.addAll(segments(5, "mem", 1));  // closed, one: settled already
        live.addAll(segments(8, "cpu", 3));  // open, under the trigger
        live.addAll(segments(9, "cpu", 4));  // open, at the trigger
        List<CompactionPicker.Group> groups = CompactionPicker.pick(live, 4, 7);
        assertThat(groups).extracting(g -> g.shard() + "/" + g.measurement() + "/" + g.segments().size())
                .containsExactly("5/cpu/2", "9/cpu/4");
        assertThat(CompactionPicker.pick(live, 4)).as("without a window: the trigger alone")
                .extracting(CompactionPicker.Group::shard).containsExactly(9L);
    }
}

package io.chronix.engine.memtable;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SeriesRefTest {

    @Test
    void indexOfTagFindsEveryTagFromAnyStartAndNothingElse() {
        SeriesRef s = new SeriesRegistry().resolve("cpu", new String[] {"dc", "host", "rack"}, new String[] {"east", "a", "r1"});
        for (int from = 0; from < 3; from++) {
            assertThat(s.indexOfTag("dc", from)).as("from %d", from).isZero();
            assertThat(s.indexOfTag("host", from)).isEqualTo(1);
            assertThat(s.indexOfTag("rack", from)).isEqualTo(2);
            assertThat(s.indexOfTag("region", from)).isEqualTo(-1);
        }
        assertThat(s.tagValue(s.indexOfTag("host", 2))).isEqualTo("a").isEqualTo(s.tag("host"));
        SeriesRef none = new SeriesRegistry().resolve("cpu", new String[0], new String[0]);
        assertThat(none.indexOfTag("host", 0)).isEqualTo(-1);
    }

    @Test
    void alignedTagsFollowTheNamesAskedForAndAreKeptPerKey() {
        SeriesRef s = new SeriesRegistry().resolve("cpu", new String[] {"dc", "host"}, new String[] {"Zürich", "h\"1"});
        Object schema = new Object();
        SeriesRef.AlignedTags a = s.alignedTags(schema, new String[] {"arch", "dc", "host", "rack"});
        assertThat(a.values()).containsExactly(null, "Zürich", "h\"1", null);
        assertThat(a.utf8()).isDeepEqualTo(new byte[][] {null, "Zürich".getBytes(StandardCharsets.UTF_8), "h\"1".getBytes(StandardCharsets.UTF_8), null});
        assertThat(s.alignedTags(schema, new String[] {"arch", "dc", "host", "rack"})).isSameAs(a);
        // another schema (a tag column added): aligned again
        SeriesRef.AlignedTags b = s.alignedTags(new Object(), new String[] {"host"});
        assertThat(b.values()).containsExactly("h\"1");
        assertThat(b.utf8()).isDeepEqualTo(new byte[][] {"h\"1".getBytes(StandardCharsets.UTF_8)});
    }

    /**
     * Series ordered by tag values: ascending, a series without the tag last, ties in canonical
     * order; the order kept is the same array until a series is registered or other tags are asked for.
     */
    @Test
    void seriesInTagOrderAreSortedAndKeptUntilASeriesIsRegistered() {
        SeriesRegistry r = new SeriesRegistry();
        r.resolve("cpu", new String[] {"dc", "host"}, new String[] {"west", "b"});
        r.resolve("cpu", new String[] {"dc", "host"}, new String[] {"east", "c"});
        r.resolve("cpu", new String[] {"dc"}, new String[] {"east"});
        r.resolve("cpu", new String[] {"dc", "host"}, new String[] {"west", "a"});
        r.resolve("cpu", new String[] {"dc", "host"}, new String[] {"east", "a"});
        assertThat(hosts(r.seriesInOrder("cpu", List.of("host")))).containsExactly("east/a", "west/a", "west/b", "east/c", "east/-");
        assertThat(hosts(r.seriesInOrder("cpu", List.of("host", "dc")))).containsExactly("east/a", "west/a", "west/b", "east/c", "east/-");
        assertThat(hosts(r.seriesInOrder("cpu", List.of("dc")))).containsExactly("east/-", "east/a", "east/c", "west/a", "west/b");
        assertThat(r.seriesInOrder("cpu", List.of())).isSameAs(r.seriesInOrder("cpu"));
        SeriesRef[] byHost = r.seriesInOrder("cpu", List.of("host"));
        assertThat(r.seriesInOrder("cpu", List.of("host"))).isSameAs(byHost);
        r.resolve("cpu", new String[] {"dc", "host"}, new String[] {"north", "a"});
        assertThat(hosts(r.seriesInOrder("cpu", List.of("host")))).containsExactly("east/a", "north/a", "west/a", "west/b", "east/c", "east/-");
        assertThat(r.seriesInOrder("mem", List.of("host"))).isEmpty();
    }

    private static List<String> hosts(SeriesRef[] series) {
        return Arrays.stream(series).map(s -> s.tag("dc") + "/" + (s.tag("host") == null ? "-" : s.tag("host"))).toList();
    }
}

package io.chronix.engine.memtable;

import org.junit.jupiter.api.Test;

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
}

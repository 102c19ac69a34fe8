package io.chronix.engine.memtable;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Dead series stop counting, and a write brings them back (what repairLiveSeries relies on). */
class SeriesRegistryLivenessTest {

    @Test
    void markDeadStopsCountingAndAWriteRevives() {
        SeriesRegistry r = new SeriesRegistry();
        PointBatch b = PointBatch.builder().beginPoint("m", 1).tag("h", "a").floatField("v", 1).endPoint()
                .beginPoint("m", 1).tag("h", "b").floatField("v", 1).endPoint().build();
        SeriesRef a = r.resolve(b, 0);
        r.resolve(b, 1);
        assertThat(r.liveSize()).isEqualTo(2);
        r.markDead(a);
        r.markDead(a);
        assertThat(r.liveSize()).isEqualTo(1);
        assertThat(r.size()).isEqualTo(2);
        assertThat(a.isLive()).isFalse();
        assertThat(r.resolve(b, 0)).isSameAs(a);
        assertThat(a.isLive()).isTrue();
        assertThat(r.liveSize()).isEqualTo(2);
        r.markDead(a);
        assertThat(r.resolve("m", new String[] {"h"}, new String[] {"a"})).isSameAs(a);
        assertThat(r.liveSize()).isEqualTo(2);
    }
}

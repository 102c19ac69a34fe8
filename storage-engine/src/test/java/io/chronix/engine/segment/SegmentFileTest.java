package io.chronix.engine.segment;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SegmentFileTest {

    @Test
    void nameRoundTripsAndResolvesUnderTheSegmentsDirectory() {
        SegmentFile f = SegmentFile.of(-12, 1_700_000_000_000_000_000L, 3);
        assertThat(f.relativeName()).isEqualTo("shard_-12/seg_1700000000000000000_3.csx");
        assertThat(SegmentFile.parse(f.relativeName())).isEqualTo(f);
        Path segments = Path.of("/data/ns/segments");
        assertThat(f.resolve(segments)).isEqualTo(Path.of("/data/ns/segments/shard_-12/seg_1700000000000000000_3.csx"));
        assertThat(f.resolveSidecar(segments).getFileName().toString()).isEqualTo("seg_1700000000000000000_3.series");
        assertThat(f.resolve(segments).normalize().startsWith(segments)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "seg_1_1.csx", "/shard_1/seg_1_1.csx", "shard_1/../seg_1_1.csx", "../shard_1/seg_1_1.csx",
            "shard_1/seg_1_1.csx/..", "shard_1\\seg_1_1.csx", "shard_1/sub/seg_1_1.csx", "shard_01/seg_1_1.csx",
            "shard_1/seg_01_1.csx", "shard_1/seg_1_1.series", "shard_1/seg_-1_1.csx", "shard_+1/seg_1_1.csx",
            "shard_1/seg_1.csx", "shard_1/seg_1_1_1.csx", "shard_/seg_1_1.csx", "shard_1/seg__1.csx",
            "shard_99999999999999999999/seg_1_1.csx", "shard_1/seg_1_1.csx\u0000", "shard_-/seg_1_1.csx", ".", ".."})
    void anythingButTheCanonicalShapeIsRefused(String name) {
        assertThatThrownBy(() -> SegmentFile.parse(name)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negativeNanosOrCounterAreRefused() {
        assertThatThrownBy(() -> SegmentFile.of(0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SegmentFile.of(0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}

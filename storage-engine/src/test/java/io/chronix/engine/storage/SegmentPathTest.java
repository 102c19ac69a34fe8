package io.chronix.engine.storage;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SegmentPathTest {

    @Test
    void keyIsNamespacePrefixedShardThenName() {
        SegmentPath path = new SegmentPath(new NamespaceId(7), new ShardId(493_000), "seg_1_0.parquet");
        assertThat(path.key()).isEqualTo("ns_7/shard_493000/seg_1_0.parquet");
        assertThat(SegmentPath.parse(path.key())).contains(path);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "a\\b", "x\u0000"})
    void unsafeSegmentNamesAreRefused(String name) {
        assertThatThrownBy(() -> new SegmentPath(new NamespaceId(1), new ShardId(0), name))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ns_1/shard_0/a/b", "ns_x/shard_0/a", "ns_01/shard_0/a", "ns_1/shard_0/..", "other/key", "ns_0/shard_1/a"})
    void foreignKeysDoNotParse(String key) {
        assertThat(SegmentPath.parse(key)).isEmpty();
    }

    @Test
    void namespaceIdMustBePositive() {
        assertThatThrownBy(() -> new NamespaceId(0)).isInstanceOf(IllegalArgumentException.class);
    }
}

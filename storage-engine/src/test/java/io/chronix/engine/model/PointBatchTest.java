package io.chronix.engine.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PointBatchTest {

    @Test
    void tagsAndFieldsComeOutInCanonicalOrder() {
        PointBatch b = PointBatch.builder().beginPoint("cpu", 1).tag("zone", "z").tag("host", "h").tag("dc", "d")
                .integerField("b", 2).floatField("a", 1).endPoint().build();
        assertThat(b.tagKey(0, 0)).isEqualTo("dc");
        assertThat(b.tagKey(0, 1)).isEqualTo("host");
        assertThat(b.tagValue(0, 2)).isEqualTo("z");
        assertThat(b.fieldName(0, 0)).isEqualTo("a");
        assertThat(b.fieldType(0, 1)).isEqualTo(FieldType.INTEGER);
        assertThat(b.longValue(0, 1)).isEqualTo(2);
    }

    @Test
    void repeatedStringsAreStoredOnce() {
        PointBatch.Builder builder = PointBatch.builder();
        for (int i = 0; i < 1000; i++) {
            builder.beginPoint("cpu", i).tag("host", "h" + (i % 10)).floatField("usage", i).endPoint();
        }
        PointBatch b = builder.build();
        assertThat(b.size()).isEqualTo(1000);
        assertThat(b.stringCount()).as("cpu, host, usage and ten host names").isEqualTo(13);
    }

    @Test
    void duplicateTagKeyIsRefusedAndTheBuilderStaysUsable() {
        PointBatch.Builder builder = PointBatch.builder();
        builder.beginPoint("cpu", 1).tag("host", "a").tag("host", "b").floatField("v", 1);
        assertThatThrownBy(builder::endPoint).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host");
        PointBatch b = builder.beginPoint("cpu", 2).floatField("v", 2).endPoint().build();
        assertThat(b.size()).isEqualTo(1);
        assertThat(b.timestamp(0)).isEqualTo(2);
        assertThat(b.tagCount(0)).isZero();
    }

    @Test
    void pointWithoutFieldsIsRefused() {
        assertThatThrownBy(() -> PointBatch.builder().beginPoint("cpu", 1).tag("a", "b").endPoint())
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wrongTypedAccessIsAnError() {
        PointBatch b = PointBatch.builder().beginPoint("m", 1).stringField("s", "x").endPoint().build();
        assertThat(b.stringValue(0, 0)).isEqualTo("x");
        assertThatThrownBy(() -> b.floatValue(0, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void columnsViolatingAnInvariantAreRefused() {
        assertThatThrownBy(() -> PointBatch.ofColumns(new String[] {"m", "f"}, new long[] {1}, new int[] {0}, new int[] {0, 0},
                new int[0], new int[0], new int[] {0, 1}, new int[] {7}, new byte[] {0}, new long[] {0}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
    }

    @Test
    void resetBuilderStartsEmpty() {
        PointBatch.Builder builder = PointBatch.builder();
        builder.beginPoint("a", 1).floatField("v", 1).endPoint().build();
        PointBatch b = builder.reset().beginPoint("b", 2).floatField("w", 2).endPoint().build();
        assertThat(b.stringCount()).isEqualTo(2);
        assertThat(b.measurement(0)).isEqualTo("b");
    }
}

package io.chronix.engine.ingest;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The byte-range side of {@link PointBatch.Builder} the parser relies on. */
class InternUtf8Test {

    @Test
    void bytesAndStringsShareOneDictionary() {
        PointBatch.Builder b = PointBatch.builder();
        byte[] buf = "xxcpuxxhostxx".getBytes(StandardCharsets.UTF_8);
        int cpu = b.internUtf8(buf, 2, 3);
        assertThat(b.internUtf8("cpu".getBytes(StandardCharsets.UTF_8), 0, 3)).isEqualTo(cpu);
        b.beginPoint("host", 1).tag("host", "cpu").floatField("v", 1).endPoint(); // by String
        int host = b.internUtf8(buf, 7, 4);
        assertThat(b.string(host)).isEqualTo("host");
        assertThat(b.internUtf8(buf, 7, 4)).isEqualTo(host);
        PointBatch batch = b.build();
        assertThat(batch.stringCount()).as("cpu, host, v once each").isEqualTo(3);
    }

    @Test
    void manyDistinctStringsSurviveRehashingAndReset() {
        PointBatch.Builder b = PointBatch.builder();
        Random rnd = new Random(7);
        for (int round = 0; round < 3; round++) {
            int[] ids = new int[5000];
            for (int i = 0; i < ids.length; i++) {
                byte[] s = ("s" + i).getBytes(StandardCharsets.UTF_8);
                ids[i] = b.internUtf8(s, 0, s.length);
            }
            for (int k = 0; k < 2000; k++) {
                int i = rnd.nextInt(ids.length);
                byte[] s = ("s" + i).getBytes(StandardCharsets.UTF_8);
                assertThat(b.internUtf8(s, 0, s.length)).isEqualTo(ids[i]);
                assertThat(b.string(ids[i])).isEqualTo("s" + i);
            }
            b.reset();
        }
    }

    @Test
    void idMethodsBuildTheSameBatchAsStringMethods() {
        PointBatch.Builder a = PointBatch.builder();
        int m = a.internUtf8(bytes("cpu"), 0, 3);
        int k = a.internUtf8(bytes("host"), 0, 4);
        int v = a.internUtf8(bytes("a"), 0, 1);
        int f = a.internUtf8(bytes("note"), 0, 4);
        int s = a.internUtf8(bytes("hi"), 0, 2);
        int g = a.internUtf8(bytes("ok"), 0, 2);
        a.beginPoint(m, 5).tag(k, v).field(f, FieldType.STRING, s).field(g, FieldType.BOOLEAN, 1).endPoint();
        PointBatch expected = PointBatch.builder().beginPoint("cpu", 5).tag("host", "a").stringField("note", "hi")
                .booleanField("ok", true).endPoint().build();
        assertThat(a.build()).isEqualTo(expected);
        PointBatch.Builder c = PointBatch.builder();
        assertThatThrownBy(() -> c.beginPoint(3, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        int n = c.internUtf8(bytes("n"), 0, 1);
        c.beginPoint(n, 1);
        assertThatThrownBy(() -> c.field(n, FieldType.STRING, 9)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> c.field(n, FieldType.BOOLEAN, 2)).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}

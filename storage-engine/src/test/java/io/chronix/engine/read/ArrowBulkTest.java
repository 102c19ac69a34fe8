package io.chronix.engine.read;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ArrowBulkTest {

    /** What the bulk copies read is what the vectors' own getters read, value for value, bit for bit. */
    @Test
    void copiesReadTheValuesTheVectorsHold() {
        Random r = new Random(11);
        try (BufferAllocator a = new RootAllocator();
             BigIntVector longs = new BigIntVector("l", a);
             Float8Vector doubles = new Float8Vector("d", a);
             VarCharVector strings = new VarCharVector("s", a)) {
            int rows = 1_000;
            longs.allocateNew(rows);
            doubles.allocateNew(rows);
            strings.allocateNew(rows);
            for (int i = 0; i < rows; i++) {
                longs.set(i, i % 7 == 0 ? Long.MIN_VALUE + i : r.nextLong());
                doubles.set(i, i % 11 == 0 ? Double.longBitsToDouble(0x7ff8_0000_0000_0001L) : r.nextGaussian());
                strings.setSafe(i, ("v" + "x".repeat(r.nextInt(9))).getBytes(StandardCharsets.UTF_8));
            }
            longs.setValueCount(rows);
            doubles.setValueCount(rows);
            strings.setValueCount(rows);

            long[] l = new long[rows + 3];
            ArrowBulk.longs(longs.getDataBuffer(), l, rows);
            double[] d = new double[rows];
            ArrowBulk.doubles(doubles.getDataBuffer(), d, rows);
            int[] o = new int[rows + 1];
            ArrowBulk.ints(strings.getOffsetBuffer(), o, rows + 1);
            for (int i = 0; i < rows; i++) {
                assertThat(l[i]).as("long %d", i).isEqualTo(longs.get(i));
                assertThat(Double.doubleToRawLongBits(d[i])).as("double %d", i).isEqualTo(Double.doubleToRawLongBits(doubles.get(i)));
                assertThat(o[i + 1] - o[i]).as("length %d", i).isEqualTo(strings.get(i).length);
            }
            assertThat(Arrays.copyOfRange(l, rows, rows + 3)).as("past the count, untouched").containsOnly(0L);
        }
    }

    @Test
    void nothingToCopyTouchesNothing() {
        try (BufferAllocator a = new RootAllocator(); ArrowBuf empty = a.buffer(0)) {
            long[] l = {42};
            ArrowBulk.longs(empty, l, 0);
            assertThat(l).containsExactly(42L);
        }
    }

    /** A count past the buffer's capacity is refused before any byte is read. */
    @Test
    void aCopyPastTheBufferIsRefused() {
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(64)) {
            long capacity = buf.capacity();
            long[] l = new long[(int) (capacity / Long.BYTES) + 1];
            assertThatThrownBy(() -> ArrowBulk.longs(buf, l, l.length))
                    .isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining(String.valueOf(capacity));
            int[] ints = new int[(int) (capacity / Integer.BYTES)];
            ArrowBulk.ints(buf, ints, ints.length); // exactly the capacity: allowed
        }
    }
}

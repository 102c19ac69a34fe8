package io.chronix.engine.segment;

import io.chronix.engine.cache.DecodedBlock;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A string block's dictionary image gives the same rows as its materialised image, per row and per
 * run; a fixed-width image its values and nulls.
 */
class BlockImagesTest {

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void noLeak() {
        allocator.close();
    }

    @Test
    void dictionaryImagesGiveTheRowsOfTheMaterialisedOne() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random random = new Random(seed);
        BlockImages.Scratch scratch = new BlockImages.Scratch();
        for (int round = 0; round < 60; round++) {
            int n = 1 + random.nextInt(3000);
            String[] entries = {"", "host_0", "host_17", "\u00e9\u6f22-region", "a-much-longer-value-than-the-others"};
            boolean runs = random.nextBoolean();
            boolean nulls = random.nextBoolean();
            int[] codes = new int[n];
            String[] rows = new String[n];
            int code = random.nextInt(entries.length);
            for (int i = 0; i < n; i++) {
                if (!runs || random.nextInt(40) == 0) {
                    code = random.nextInt(entries.length);
                }
                codes[i] = code;
                rows[i] = nulls && random.nextInt(7) == 0 ? null : entries[code];
            }
            DecodedBlock materialised = materialised(rows);
            DecodedBlock dictionary = dictionary(entries, codes, materialised.validity(), runs);
            int[] ranges = randomRanges(random, n);
            int asked = BlockImages.checkRanges(ranges, n);
            try (VarCharVector expected = new VarCharVector("s", allocator); VarCharVector actual = new VarCharVector("s", allocator)) {
                BlockImages.fillRanges(expected, materialised, ranges, asked, scratch);
                BlockImages.fillRanges(actual, dictionary, ranges, asked, scratch);
                assertThat(actual.getValueCount()).isEqualTo(asked);
                int k = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    for (int row = ranges[i]; row < ranges[i] + ranges[i + 1]; row++, k++) {
                        String want = rows[row];
                        assertThat(actual.isNull(k)).as("seed %d round %d row %d", seed, round, row).isEqualTo(want == null);
                        if (want != null) {
                            assertThat(new String(actual.get(k), StandardCharsets.UTF_8)).as("seed %d row %d", seed, row).isEqualTo(want);
                        }
                        assertThat(actual.getEndOffset(k)).isEqualTo(expected.getEndOffset(k));
                    }
                }
            }
        }
    }

    @Test
    void aFixedWidthImageGivesItsRowsAndNullsInBuffersOfTheirSizeWithNothingPastThem() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random random = new Random(seed);
        BlockImages.Scratch scratch = new BlockImages.Scratch();
        for (int round = 0; round < 60; round++) {
            int n = 1 + random.nextInt(70_000);
            boolean nulls = random.nextBoolean();
            long[] values = new long[n];
            byte[] data = new byte[n * 8];
            byte[] validity = new byte[(n + 7) / 8];
            boolean[] isNull = new boolean[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextLong();
                java.nio.ByteBuffer.wrap(data, i * 8, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(values[i]);
                isNull[i] = nulls && random.nextInt(5) == 0;
                if (!isNull[i]) {
                    validity[i >>> 3] |= (byte) (1 << (i & 7));
                }
            }
            DecodedBlock block = new DecodedBlock(n, nulls ? validity : null, data, null);
            int[] ranges = randomRanges(random, n);
            int asked = BlockImages.checkRanges(ranges, n);
            try (org.apache.arrow.vector.BigIntVector v = new org.apache.arrow.vector.BigIntVector("x", allocator)) {
                BlockImages.fillRanges(v, block, ranges, asked, scratch);
                assertThat(v.getValueCount()).isEqualTo(asked);
                int k = 0;
                int expectedNulls = 0;
                for (int i = 0; i < ranges.length; i += 2) {
                    for (int row = ranges[i]; row < ranges[i] + ranges[i + 1]; row++, k++) {
                        assertThat(v.isNull(k)).as("seed %d round %d row %d", seed, round, row).isEqualTo(isNull[row]);
                        if (!isNull[row]) {
                            assertThat(v.get(k)).as("seed %d round %d row %d", seed, round, row).isEqualTo(values[row]);
                        }
                        expectedNulls += isNull[row] ? 1 : 0;
                    }
                }
                assertThat(v.getNullCount()).isEqualTo(expectedNulls);
                // the data buffer is the rows' own size, not the rounded one allocateNew asks for, and
                // holds zeros past them
                org.apache.arrow.memory.ArrowBuf buf = v.getDataBuffer();
                assertThat(buf.capacity()).as("seed %d", seed).isGreaterThanOrEqualTo(asked * 8L).isLessThan(Math.max(2L * asked * 8, 16));
                for (long b = asked * 8L; b < buf.capacity(); b++) {
                    assertThat(buf.getByte(b)).as("seed %d byte %d", seed, b).isZero();
                }
            }
        }
    }

    @Test
    void aDictionaryImageNeedsItsOffsetsAndOneCodePerRowOrRun() {
        byte[] offsets = new byte[8];
        assertThatThrownBy(() -> new DecodedBlock(3, null, new byte[0], offsets, new int[2], null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DecodedBlock(3, null, new byte[0], offsets, new int[2], new int[] {3}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DecodedBlock(3, null, new byte[0], null, new int[3], null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new DecodedBlock(3, null, new byte[0], offsets, new int[1], new int[] {3}).weight())
                .isEqualTo(64 + 8 + 4 + 4);
    }

    private static int[] randomRanges(Random random, int n) {
        List<Integer> ranges = new ArrayList<>();
        if (random.nextInt(4) == 0) {
            return new int[] {0, n};
        }
        int at = random.nextInt(Math.min(n, 50));
        while (at < n) {
            int count = 1 + random.nextInt(Math.min(200, n - at));
            ranges.add(at);
            ranges.add(count);
            at += count + random.nextInt(100);
        }
        return ranges.stream().mapToInt(Integer::intValue).toArray();
    }

    private static DecodedBlock materialised(String[] rows) {
        int n = rows.length;
        byte[] validity = new byte[(n + 7) / 8];
        byte[] offsets = new byte[(n + 1) * 4];
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        boolean anyNull = false;
        for (int i = 0; i < n; i++) {
            if (rows[i] != null) {
                validity[i >>> 3] |= (byte) (1 << (i & 7));
                data.writeBytes(rows[i].getBytes(StandardCharsets.UTF_8));
            } else {
                anyNull = true;
            }
            BlockImages.INT_LE.set(offsets, (i + 1) * 4, data.size());
        }
        return new DecodedBlock(n, anyNull ? validity : null, data.toByteArray(), offsets);
    }

    private static DecodedBlock dictionary(String[] entries, int[] codes, byte[] validity, boolean perRun) {
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        byte[] offsets = new byte[(entries.length + 1) * 4];
        for (int e = 0; e < entries.length; e++) {
            data.writeBytes(entries[e].getBytes(StandardCharsets.UTF_8));
            BlockImages.INT_LE.set(offsets, (e + 1) * 4, data.size());
        }
        if (!perRun) {
            return new DecodedBlock(codes.length, validity, data.toByteArray(), offsets, codes.clone(), null);
        }
        int[] runCodes = new int[codes.length];
        int[] runEnds = new int[codes.length];
        int r = -1;
        for (int i = 0; i < codes.length; i++) {
            if (i == 0 || codes[i] != codes[i - 1]) {
                runCodes[++r] = codes[i];
            }
            runEnds[r] = i + 1;
        }
        return new DecodedBlock(codes.length, validity, data.toByteArray(), offsets,
                Arrays.copyOf(runCodes, r + 1), Arrays.copyOf(runEnds, r + 1));
    }
}

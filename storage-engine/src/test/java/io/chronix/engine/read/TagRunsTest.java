package io.chronix.engine.read;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TagRunsTest {

    /**
     * Where a batch's tag combination changes, found run by run ({@link TagRuns#markChanges}),
     * is where a row-by-row comparison finds it: runs of one value, values of one length that
     * differ ({@code host_1}, {@code host_2}) or are one another shifted ({@code ab}, {@code ba}),
     * empty strings, NULLs, one or two columns.
     */
    @Test
    void tagChangesFoundRunByRunAreThoseOfARowByRowComparison() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        String[] pool = {"", "a", "b", "ab", "ba", "aa", "host_1", "host_2", "host_10", "t\u00e9", null};
        try (BufferAllocator a = new RootAllocator()) {
            for (int round = 0; round < 300; round++) {
                int columns = 1 + r.nextInt(2);
                boolean nulls = r.nextBoolean();
                String[][] values = new String[columns][];
                int rows = r.nextInt(400);
                for (int c = 0; c < columns; c++) {
                    values[c] = new String[rows];
                    for (int i = 0; i < rows; ) {
                        String v = pool[r.nextInt(nulls ? pool.length : pool.length - 1)];
                        for (int n = 1 + r.nextInt(r.nextBoolean() ? 3 : 60); n > 0 && i < rows; n--) {
                            values[c][i++] = v;
                        }
                    }
                }
                TagRuns[] tags = new TagRuns[columns];
                List<VarCharVector> vectors = new ArrayList<>();
                try {
                    for (int c = 0; c < columns; c++) {
                        VarCharVector v = new VarCharVector("t" + c, a);
                        vectors.add(v);
                        for (int i = 0; i < rows; i++) {
                            if (values[c][i] == null) {
                                v.setNull(i);
                            } else {
                                v.setSafe(i, values[c][i].getBytes(StandardCharsets.UTF_8));
                            }
                        }
                        v.setValueCount(rows);
                        tags[c] = new TagRuns();
                        tags[c].load(v, rows);
                    }
                    boolean[] changed = new boolean[rows + r.nextInt(3)];
                    Arrays.fill(changed, true); // left over from a larger batch before
                    TagRuns.markChanges(tags, rows, changed);
                    for (int i = 0; i < rows; i++) {
                        boolean expected = i == 0;
                        for (int c = 0; c < columns; c++) {
                            expected |= i > 0 && !Objects.equals(values[c][i], values[c][i - 1]);
                        }
                        assertThat(changed[i]).as("seed %d, round %d, row %d", seed, round, i).isEqualTo(expected);
                    }
                } finally {
                    vectors.forEach(VarCharVector::close);
                }
            }
        }
    }

    /** The per-row accessors read the copied arrays as the vector holds them. */
    @Test
    void valuesStringsAndMatchesAreTheVectors() {
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("t", a)) {
            String[] values = {"host_1", null, "", "t\u00e9"};
            for (int i = 0; i < values.length; i++) {
                if (values[i] == null) {
                    v.setNull(i);
                } else {
                    v.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
                }
            }
            v.setValueCount(values.length);
            TagRuns t = new TagRuns();
            t.load(v, values.length);
            for (int i = 0; i < values.length; i++) {
                assertThat(t.isNull(i)).isEqualTo(values[i] == null);
                assertThat(t.string(i)).isEqualTo(values[i]);
                assertThat(t.value(i)).isEqualTo(values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8));
                assertThat(t.holds(i, "host_1".getBytes(StandardCharsets.UTF_8))).isEqualTo("host_1".equals(values[i]));
                assertThat(t.holds(i, new byte[0])).isEqualTo("".equals(values[i]));
            }
        }
    }
}

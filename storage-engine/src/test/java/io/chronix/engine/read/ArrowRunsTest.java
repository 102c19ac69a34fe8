package io.chronix.engine.read;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ArrowRuns#copy} against a value-by-value reference: random runs over vectors of every
 * kind a scan hands over, with and without NULLs, runs of one row, runs at both ends, empty strings.
 */
class ArrowRunsTest {

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void tearDown() {
        assertThat(allocator.getAllocatedMemory()).as("every buffer closed").isZero();
        allocator.close();
    }

    @Test
    void copiesTheRowsOfEveryRunOfEveryVectorKind() {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int rows = 1 + r.nextInt(300);
            boolean nulls = r.nextBoolean();
            List<FieldVector> sources = new ArrayList<>();
            try {
                sources.add(filled(new BigIntVector("n", allocator), rows, nulls, r, (v, i) -> ((BigIntVector) v).set(i, r.nextLong())));
                sources.add(filled(new Float8Vector("f", allocator), rows, nulls, r, (v, i) -> ((Float8Vector) v).set(i, r.nextGaussian())));
                sources.add(filled(new TimeStampNanoVector("time", allocator), rows, nulls, r,
                        (v, i) -> ((TimeStampNanoVector) v).set(i, r.nextLong())));
                sources.add(filled(new BitVector("b", allocator), rows, nulls, r, (v, i) -> ((BitVector) v).set(i, r.nextInt(2))));
                sources.add(filled(new VarCharVector("s", allocator), rows, nulls, r, (v, i) -> ((VarCharVector) v).setSafe(i,
                        (r.nextInt(1000) + "xyz").substring(0, r.nextInt(4)).getBytes(StandardCharsets.UTF_8))));
                // random runs: ascending, disjoint, non-empty
                List<Integer> runs = new ArrayList<>();
                int kept = 0;
                for (int at = 0; at < rows; ) {
                    int gap = r.nextInt(4) == 0 ? 0 : r.nextInt(5);
                    int start = at + gap;
                    if (start >= rows) {
                        break;
                    }
                    int length = 1 + r.nextInt(Math.min(40, rows - start));
                    if (!runs.isEmpty() && gap == 0) {
                        start++; // keep runs apart so each is a run of its own
                        if (start >= rows) {
                            break;
                        }
                        length = Math.min(length, rows - start);
                    }
                    runs.add(start);
                    runs.add(length);
                    kept += length;
                    at = start + length;
                }
                if (kept == 0) {
                    continue;
                }
                int[] pairs = runs.stream().mapToInt(Integer::intValue).toArray();
                for (FieldVector src : sources) {
                    try (FieldVector dst = src.getField().createVector(allocator)) {
                        ArrowRuns.copy(src, dst, pairs, pairs.length / 2, kept);
                        assertThat(dst.getValueCount()).isEqualTo(kept);
                        int out = 0;
                        for (int k = 0; k < pairs.length; k += 2) {
                            for (int i = pairs[k]; i < pairs[k] + pairs[k + 1]; i++, out++) {
                                assertThat(dst.getObject(out)).as("seed %d, %s row %d from %d", seed, src.getName(), out, i)
                                        .isEqualTo(src.getObject(i));
                                assertThat(dst.isNull(out)).isEqualTo(src.isNull(i));
                            }
                        }
                    }
                }
            } finally {
                sources.forEach(FieldVector::close);
            }
        }
    }

    private interface Setter {
        void set(FieldVector v, int row);
    }

    private static FieldVector filled(FieldVector v, int rows, boolean nulls, Random r, Setter setter) {
        v.setInitialCapacity(rows);
        v.allocateNew();
        for (int i = 0; i < rows; i++) {
            if (nulls && r.nextInt(4) == 0) {
                v.setNull(i);
            } else {
                setter.set(v, i);
            }
        }
        v.setValueCount(rows);
        return v;
    }
}

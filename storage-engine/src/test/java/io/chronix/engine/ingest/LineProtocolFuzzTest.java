package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A bounded, seeded mutation fuzz run (part of the default build): valid bodies are mutated byte
 * by byte — flips, specials inserted, ranges deleted and duplicated, truncation — and the parser
 * must never throw, must account for every line, report positions inside the input, and produce
 * a batch that round-trips. The seed is printed; {@code -Dchronix.lp.seed=<n>} replays a run and
 * {@code -Dchronix.lp.fuzz.iterations=<n>} makes it longer.
 */
class LineProtocolFuzzTest {

    private static final byte[] SPECIALS = " ,=\\\"\n\r\t#-.eiu0123456789tfTF".getBytes(StandardCharsets.US_ASCII);

    @Test
    void mutatedInputNeverBreaksTheParser() {
        long seed = LineProtocolPropertyTest.seed();
        int iterations = Integer.getInteger("chronix.lp.fuzz.iterations", 10_000);
        System.out.println("LineProtocolFuzzTest seed=" + seed + " iterations=" + iterations);
        Random rnd = new Random(seed);
        LineProtocolParser parser = new LineProtocolParser();
        LineProtocolParser check = new LineProtocolParser();
        PointBatch.Builder into = PointBatch.builder();
        PointBatch.Builder again = PointBatch.builder();
        long totalPoints = 0;
        long totalRejected = 0;
        for (int it = 0; it < iterations; it++) {
            Precision precision = Precision.values()[rnd.nextInt(Precision.values().length)];
            byte[] input = mutate(rnd, LineProtocolWriter.write(LineProtocolPropertyTest.randomBatch(rnd, precision), precision)
                    .getBytes(StandardCharsets.UTF_8));
            into.reset();
            ParseResult r;
            try {
                r = parser.parse(input, precision, 42, into);
            } catch (RuntimeException e) {
                throw new AssertionError("parser threw on seed=" + seed + " iteration=" + it + " input="
                        + Arrays.toString(input), e);
            }
            PointBatch batch = into.build();
            totalPoints += r.points();
            totalRejected += r.rejected();
            assertThat(r.points()).isEqualTo(batch.size());
            assertThat(r.points() + r.rejected()).as("every line is a point or an error").isEqualTo(r.lines());
            long newlines = 0;
            for (byte x : input) {
                newlines += x == '\n' ? 1 : 0;
            }
            for (LineError e : r.errors()) {
                if (e.line() < 1 || e.line() > newlines + 1 || e.column() < 1 || e.message().isBlank()) {
                    fail("bad error position " + e + " seed=" + seed + " iteration=" + it);
                }
            }
            if (batch.size() > 0) {
                String text = LineProtocolWriter.write(batch, Precision.NANOSECONDS);
                again.reset();
                ParseResult r2 = check.parse(text.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 42, again);
                assertThat(r2.errors()).as("seed=%d iteration=%d", seed, it).isEmpty();
                assertThat(again.build()).as("seed=%d iteration=%d", seed, it).isEqualTo(batch);
            }
        }
        assertThat(totalRejected).as("the mutations must have produced bad lines").isPositive();
        assertThat(totalPoints).as("and left good ones").isPositive();
    }

    private static byte[] mutate(Random rnd, byte[] in) {
        byte[] b = in;
        int n = 1 + rnd.nextInt(4);
        for (int k = 0; k < n && b.length > 0; k++) {
            int at = rnd.nextInt(b.length);
            switch (rnd.nextInt(6)) {
                case 0 -> b[at] = (byte) rnd.nextInt(256);
                case 1 -> b[at] = SPECIALS[rnd.nextInt(SPECIALS.length)];
                case 2 -> {
                    int len = Math.min(b.length - at, 1 + rnd.nextInt(8));
                    byte[] c = new byte[b.length - len];
                    System.arraycopy(b, 0, c, 0, at);
                    System.arraycopy(b, at + len, c, at, b.length - at - len);
                    b = c;
                }
                case 3 -> {
                    byte[] c = new byte[b.length + 1];
                    System.arraycopy(b, 0, c, 0, at);
                    c[at] = SPECIALS[rnd.nextInt(SPECIALS.length)];
                    System.arraycopy(b, at, c, at + 1, b.length - at);
                    b = c;
                }
                case 4 -> {
                    int len = Math.min(b.length - at, 1 + rnd.nextInt(16));
                    byte[] c = new byte[b.length + len];
                    System.arraycopy(b, 0, c, 0, at + len);
                    System.arraycopy(b, at, c, at + len, b.length - at);
                    b = c;
                }
                default -> b = Arrays.copyOf(b, at);
            }
        }
        return b;
    }
}

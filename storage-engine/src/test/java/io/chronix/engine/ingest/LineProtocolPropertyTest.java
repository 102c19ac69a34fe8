package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Round trips: any batch, written as line protocol and parsed back, is equal — bit for bit for
 * floats. Seeded loops; the seed is printed, and {@code -Dchronix.lp.seed=<n>} replays one.
 */
class LineProtocolPropertyTest {

    private static final String ALPHABET = "abcxyz019_-. ,=\\\"'#\tüé☀晴\uD83D\uDE00";

    static long seed() {
        String s = System.getProperty("chronix.lp.seed");
        return s != null ? Long.parseLong(s) : System.nanoTime();
    }

    @Test
    void anyBatchWrittenAndParsedBackIsEqual() {
        long seed = seed();
        System.out.println("LineProtocolPropertyTest seed=" + seed);
        Random rnd = new Random(seed);
        LineProtocolParser parser = new LineProtocolParser();
        PointBatch.Builder into = PointBatch.builder();
        for (int round = 0; round < 300; round++) {
            Precision precision = Precision.values()[rnd.nextInt(Precision.values().length)];
            PointBatch batch = randomBatch(rnd, precision);
            String text = LineProtocolWriter.write(batch, precision);
            into.reset();
            ParseResult r = parser.parse(text.getBytes(StandardCharsets.UTF_8), precision, 0, into);
            assertThat(r.errors()).as("seed=%d round=%d text=%s", seed, round, text).isEmpty();
            assertThat(into.build()).as("seed=%d round=%d text=%s", seed, round, text).isEqualTo(batch);
        }
    }

    static PointBatch randomBatch(Random rnd, Precision precision) {
        PointBatch.Builder b = PointBatch.builder();
        int points = 1 + rnd.nextInt(20);
        for (int p = 0; p < points; p++) {
            long ts = (rnd.nextLong() / precision.nanos()) * precision.nanos();
            String m = name(rnd);
            while (m.startsWith("#") || m.startsWith("\t")) {
                m = name(rnd);
            }
            b.beginPoint(m, ts);
            int tags = rnd.nextInt(4);
            java.util.Set<String> keys = new java.util.HashSet<>();
            for (int t = 0; t < tags; t++) {
                String k = name(rnd);
                if (keys.add(k)) {
                    b.tag(k, name(rnd));
                }
            }
            int fields = 1 + rnd.nextInt(5);
            java.util.Set<String> names = new java.util.HashSet<>();
            for (int f = 0; f < fields; f++) {
                String n = name(rnd);
                if (!names.add(n)) {
                    continue;
                }
                switch (rnd.nextInt(5)) {
                    case 0 -> b.floatField(n, randomDouble(rnd));
                    case 1 -> b.integerField(n, rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(1000) - 500);
                    case 2 -> b.unsignedField(n, rnd.nextLong());
                    case 3 -> b.booleanField(n, rnd.nextBoolean());
                    default -> b.stringField(n, string(rnd));
                }
            }
            b.endPoint();
        }
        return b.build();
    }

    static double randomDouble(Random rnd) {
        double d;
        do {
            d = switch (rnd.nextInt(5)) {
                case 0 -> rnd.nextDouble() * 100;
                case 1 -> Double.longBitsToDouble(rnd.nextLong());
                case 2 -> rnd.nextInt(10_000) / 100.0;
                case 3 -> rnd.nextBoolean() ? -0.0 : 0.0;
                default -> rnd.nextGaussian() * Math.pow(10, rnd.nextInt(40) - 20);
            };
        } while (Double.isNaN(d) || Double.isInfinite(d));
        return d;
    }

    /** A non-empty name of any characters a name may hold (no newline). */
    static String name(Random rnd) {
        int len = 1 + rnd.nextInt(8);
        StringBuilder sb = new StringBuilder();
        while (sb.length() < len) {
            int i = rnd.nextInt(ALPHABET.length());
            char c = ALPHABET.charAt(i);
            if (Character.isHighSurrogate(c)) {
                sb.append(c).append(ALPHABET.charAt(i + 1));
            } else if (!Character.isLowSurrogate(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A string field value: anything, newlines included. */
    static String string(Random rnd) {
        String s = rnd.nextInt(4) == 0 ? "" : name(rnd);
        return rnd.nextInt(5) == 0 ? s + "\n" + name(rnd) : s;
    }
}

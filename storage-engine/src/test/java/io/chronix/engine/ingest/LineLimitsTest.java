package io.chronix.engine.ingest;

import io.chronix.engine.model.PointBatch;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Every {@link LineLimit}: a line at the limit is accepted, one over it is refused at the column
 * where the element over it starts, naming the limit and its value, and the lines after it are
 * parsed as usual.
 */
class LineLimitsTest {

    /**
     * One limit's lines: {@code line.apply(n)} holds n of the bounded thing (bytes or elements),
     * and the element over the limit starts at {@code column.apply(n)} (1-based) of that line.
     */
    record Case(LineLimit limit, IntFunction<String> line, IntFunction<Integer> column) {
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                named(new Case(LineLimit.MEASUREMENT_BYTES, n -> "m".repeat(n) + " v=1 1", n -> 1)),
                named(new Case(LineLimit.TAGS_PER_LINE, n -> "m" + tags(n) + " v=1 1",
                        n -> ("m" + tags(n - 1) + ",").length() + 1)),
                named(new Case(LineLimit.TAG_KEY_BYTES, n -> "m," + "k".repeat(n) + "=v v=1 1", n -> 3)),
                named(new Case(LineLimit.TAG_VALUE_BYTES, n -> "m,k=" + "v".repeat(n) + " v=1 1", n -> 5)),
                named(new Case(LineLimit.FIELDS_PER_LINE, n -> "m " + fields(n) + " 1",
                        n -> ("m " + fields(n - 1) + ",").length() + 1)),
                named(new Case(LineLimit.FIELD_KEY_BYTES, n -> "m " + "f".repeat(n) + "=1 1", n -> 3)),
                named(new Case(LineLimit.STRING_FIELD_BYTES, n -> "m s=\"" + "s".repeat(n) + "\" 1", n -> 5)),
                // blanks may end a line, and count toward its length
                named(new Case(LineLimit.LINE_BYTES, n -> "m v=1 1" + " ".repeat(n - 7), n -> 1)));
    }

    private static Arguments named(Case c) {
        return arguments(Named.of(c.limit().id(), c));
    }

    static String tags(int n) {
        StringBuilder sb = new StringBuilder();
        for (int t = 0; t < n; t++) {
            sb.append(",t").append(t).append("=v");
        }
        return sb.toString();
    }

    static String fields(int n) {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < n; f++) {
            sb.append(f == 0 ? "" : ",").append('f').append(f).append("=1");
        }
        return sb.toString();
    }

    private static ParseResult parse(String body, PointBatch.Builder into) {
        return new LineProtocolParser().parse(body.getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0, into);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aLineAtTheLimitIsAccepted(Case c) {
        if (c.limit() == LineLimit.LINE_BYTES) {
            assertThat(c.line().apply(c.limit().value())).hasSize(c.limit().value());
        }
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = parse(c.line().apply(c.limit().value()), into);
        assertThat(r.errors()).isEmpty();
        assertThat(into.build().size()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aLineOneOverTheLimitIsRefusedNamingLineColumnAndLimit(Case c) {
        int over = c.limit().value() + 1;
        String body = "m v=1 1\n# a comment\n" + c.line().apply(over) + "\nm v=2 2\n";
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = parse(body, into);
        assertThat(r.rejected()).isEqualTo(1);
        LineError e = r.errors().getFirst();
        assertThat(e.line()).as("line").isEqualTo(3);
        assertThat(e.column()).as("column").isEqualTo(c.column().apply(over));
        assertThat(e.limit()).isEqualTo(c.limit());
        assertThat(e.message()).contains("(limit " + c.limit().id() + " = " + c.limit().value() + ")");
        assertThat(r.points()).as("the lines around it are written").isEqualTo(2);
        assertThat(r.lineOfPoint(1)).isEqualTo(4);
    }

    @Test
    void lengthsCountTheValueWithoutItsEscapes() {
        int max = LineLimit.TAG_VALUE_BYTES.value();
        // max - 1 plain bytes and one escaped comma: max bytes of value, max + 1 bytes on the line
        String atLimit = "m,k=" + "v".repeat(max - 1) + "\\, v=1 1";
        PointBatch.Builder into = PointBatch.builder();
        assertThat(parse(atLimit, into).errors()).isEmpty();
        assertThat(into.build().size()).isEqualTo(1);

        int maxString = LineLimit.STRING_FIELD_BYTES.value();
        String stringAtLimit = "m s=\"" + "\\\"".repeat(maxString) + "\" 1";
        into = PointBatch.builder();
        assertThat(parse(stringAtLimit, into).errors()).isEmpty();
        assertThat(into.build().size()).isEqualTo(1);
        assertThat(parse("m s=\"" + "\\\"".repeat(maxString) + "x\" 1", PointBatch.builder()).errors())
                .singleElement().extracting(LineError::limit).isEqualTo(LineLimit.STRING_FIELD_BYTES);
    }

    @Test
    void lengthsAreUtf8Bytes() {
        // "é" is two bytes: half the limit in characters is the whole limit in bytes
        int max = LineLimit.MEASUREMENT_BYTES.value();
        assertThat(parse("é".repeat(max / 2) + " v=1 1", PointBatch.builder()).errors()).isEmpty();
        assertThat(parse("é".repeat(max / 2) + "x v=1 1", PointBatch.builder()).errors())
                .singleElement().extracting(LineError::limit).isEqualTo(LineLimit.MEASUREMENT_BYTES);
    }

    @Test
    void aStringOverItsLimitSpanningLinesDoesNotBecomeLinesOfItsOwn() {
        int max = LineLimit.STRING_FIELD_BYTES.value();
        String body = "m s=\"" + "a\n".repeat(max / 2) + "x\",v=\"still the string\" 1\nm v=2 2\n";
        PointBatch.Builder into = PointBatch.builder();
        ParseResult r = parse(body, into);
        assertThat(r.rejected()).isEqualTo(1);
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.limit()).isEqualTo(LineLimit.STRING_FIELD_BYTES);
            assertThat(e.line()).isEqualTo(1);
            assertThat(e.column()).isEqualTo(5);
        });
        assertThat(r.points()).isEqualTo(1);
        assertThat(r.lineOfPoint(0)).as("the string's newlines are counted").isEqualTo(max / 2 + 2);
    }

    @Test
    void aLineMadeTooLongByAStringSpanningLinesIsRefused() {
        int max = LineLimit.LINE_BYTES.value();
        String chunk = "x".repeat(30_000) + "\n";
        // twenty strings, each within its own limit, spanning lines: 1.2 MB of one line
        String longLines = "m " + fields(20).replace("=1", "=\"" + chunk.repeat(2) + "\"");
        assertThat(longLines.length()).isGreaterThan(max);
        String body = "m v=1 1\n" + longLines + " 3\nm v=2 2";
        ParseResult r = parse(body, PointBatch.builder());
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.limit()).isEqualTo(LineLimit.LINE_BYTES);
            assertThat(e.line()).isEqualTo(2);
            assertThat(e.column()).isEqualTo(1);
        });
        assertThat(r.points()).isEqualTo(2);
    }

    @Test
    void aKnownSeriesKeyStillHasItsFieldsCounted() {
        // the second line's key is taken from the per-call series-key cache; its fields are still bounded
        int max = LineLimit.FIELDS_PER_LINE.value();
        String body = "m,h=a v=1 1\nm,h=a " + fields(max + 1) + " 2\n";
        ParseResult r = parse(body, PointBatch.builder());
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.limit()).isEqualTo(LineLimit.FIELDS_PER_LINE);
            assertThat(e.line()).isEqualTo(2);
        });
    }

    @Test
    void aLineOfOneHundredThousandFieldsIsRefusedAtTheFirstFieldOverTheLimitWithoutScanningTheRest() {
        int max = LineLimit.FIELDS_PER_LINE.value();
        // past the limit the line turns bad: had the parser read on, it would have reported that instead
        String huge = "m " + fields(max) + "," + fields(100_000 - max).replace("f1=1", "f1=not-a-value") + " 1";
        assertThat(huge.length()).as("under the line limit: the field count is what refuses it")
                .isLessThan(LineLimit.LINE_BYTES.value());
        byte[] body = (huge + "\nm v=2 2\n").getBytes(StandardCharsets.UTF_8);

        // warm up the error path (string concatenation, class loading) before counting allocations
        new LineProtocolParser().parse(body, Precision.NANOSECONDS, 0, PointBatch.builder());
        LineProtocolParser parser = new LineProtocolParser();
        PointBatch.Builder into = PointBatch.builder();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        // HotSpot supports it on every platform we build on: a JVM without it fails the test, never skips it
        assertThat(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled()).as("thread allocation counter").isTrue();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        ParseResult r = parser.parse(body, Precision.NANOSECONDS, 0, into);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;

        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.limit()).isEqualTo(LineLimit.FIELDS_PER_LINE);
            assertThat(e.message()).contains("more than 1000 fields").contains("maxFieldsPerLine = 1000");
            assertThat(e.line()).isEqualTo(1);
            assertThat(e.column()).isEqualTo(("m " + fields(max) + ",").length() + 1);
        });
        assertThat(r.points()).as("the next line is parsed").isEqualTo(1);
        // a list per field would be megabytes (100,000 fields of several ints each); the line is about 0.9 MB
        assertThat(allocated).as("bytes allocated while parsing").isLessThan(64 * 1024);
    }

    /**
     * Random counts and lengths around each limit: a line is accepted exactly when every count and
     * length is within its limit, and otherwise refused naming a limit it is over.
     */
    @Test
    void anyLineIsAcceptedExactlyWhenWithinEveryLimit() {
        long seed = LineProtocolPropertyTest.seed();
        System.out.println("LineLimitsTest seed=" + seed);
        Random rnd = new Random(seed);
        LineProtocolParser parser = new LineProtocolParser();
        PointBatch.Builder into = PointBatch.builder();
        int checkedOver = 0;
        for (int round = 0; round < 60; round++) {
            int measurement = near(rnd, LineLimit.MEASUREMENT_BYTES);
            int tags = near(rnd, LineLimit.TAGS_PER_LINE) / (rnd.nextInt(4) == 0 ? 1 : 50);
            int tagKey = near(rnd, LineLimit.TAG_KEY_BYTES);
            int tagValue = near(rnd, LineLimit.TAG_VALUE_BYTES);
            int fields = Math.max(1, near(rnd, LineLimit.FIELDS_PER_LINE) / (rnd.nextInt(4) == 0 ? 1 : 50));
            int fieldKey = near(rnd, LineLimit.FIELD_KEY_BYTES);
            int string = near(rnd, LineLimit.STRING_FIELD_BYTES);
            StringBuilder line = new StringBuilder("m".repeat(measurement));
            for (int t = 0; t < tags; t++) {
                line.append(',').append(t == 0 ? "k".repeat(tagKey) : "t" + t).append('=').append(t == 0 ? "v".repeat(tagValue) : "v");
            }
            line.append(' ');
            for (int f = 0; f < fields; f++) {
                line.append(f == 0 ? "" : ",").append(f == 0 ? "f".repeat(fieldKey) : "f" + f).append('=')
                        .append(f == 0 ? "\"" + "s".repeat(string) + "\"" : "1");
            }
            line.append(" 1");
            boolean within = measurement <= LineLimit.MEASUREMENT_BYTES.value() && tags <= LineLimit.TAGS_PER_LINE.value()
                    && (tags == 0 || tagKey <= LineLimit.TAG_KEY_BYTES.value() && tagValue <= LineLimit.TAG_VALUE_BYTES.value())
                    && fields <= LineLimit.FIELDS_PER_LINE.value() && fieldKey <= LineLimit.FIELD_KEY_BYTES.value()
                    && string <= LineLimit.STRING_FIELD_BYTES.value() && line.length() <= LineLimit.LINE_BYTES.value();
            into.reset();
            ParseResult r = parser.parse(line.toString().getBytes(StandardCharsets.UTF_8), Precision.NANOSECONDS, 0, into);
            if (within) {
                assertThat(r.errors()).as("seed=%d round=%d", seed, round).isEmpty();
                assertThat(into.build().size()).isEqualTo(1);
            } else {
                checkedOver++;
                assertThat(r.errors()).as("seed=%d round=%d", seed, round).singleElement()
                        .satisfies(e -> assertThat(e.limit()).isNotNull());
                assertThat(into.build().size()).isZero();
            }
        }
        assertThat(checkedOver).as("some lines must have been over a limit").isPositive();
    }

    /** A value within ±2 of the limit (half the time), or anywhere from 1 to the limit. */
    private static int near(Random rnd, LineLimit limit) {
        return rnd.nextBoolean() ? limit.value() - 2 + rnd.nextInt(5) : 1 + rnd.nextInt(limit.value());
    }
}

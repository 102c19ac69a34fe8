package io.chronix.api.query;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import io.chronix.engine.read.BatchListReader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The byte-level JSON writer and the timestamp printer, held to what the JDK prints. */
class ResultFormatTest {

    private static final long NS = 1_000_000_000L;

    @Test
    void timestampsPrintAsInstantToString() {
        List<Long> values = new ArrayList<>(List.of(0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, 999_999_999L, -999_999_999L,
                1_000_000L, 1_000L, 951_782_400L * NS, 951_868_800L * NS - 1, 4_107_542_400L * NS, -2_208_988_800L * NS + 5_000));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            long v = random.nextLong();
            values.add(v);
            values.add(v - Math.floorMod(v, 1_000_000L)); // whole milliseconds
            values.add(v - Math.floorMod(v, 1_000L));     // whole microseconds
            values.add(v - Math.floorMod(v, NS));         // whole seconds
        }
        for (long v : values) {
            String expected = Instant.ofEpochSecond(Math.floorDiv(v, NS), Math.floorMod(v, NS)).toString();
            assertThat(Rfc3339.format(v)).as("epoch ns %d", v).isEqualTo(expected);
        }
    }

    @Test
    void integersPrintAsLongToString() throws IOException {
        List<Long> values = new ArrayList<>(List.of(0L, -1L, 9L, 10L, -10L, 99L, 100L, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1,
                999_999_999_999_999_999L, 1_000_000_000_000_000_000L));
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 100_000; i++) {
            values.add(random.nextLong() >> random.nextInt(64));
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        JsonBytes w = new JsonBytes(bytes);
        StringBuilder expected = new StringBuilder();
        for (long v : values) {
            w.decimal(v);
            w.ascii(',');
            expected.append(v).append(',');
        }
        w.finish();
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    }

    /** Strings, escapes, every plane and lone surrogates: the same bytes as jsonString through a UTF-8 writer. */
    @Test
    void stringsMatchTheWriterPathByteForByte() throws IOException {
        List<String> values = new ArrayList<>(List.of("", "plain", "quote\"back\\slash", "\n\r\t\b\f\u0000\u001f", "\u2028\u2029",
                "é ü 中文", "\uD83D\uDE00 emoji", "lone \uD800 high", "lone \uDC00 low", "end high \uD800", "\uDC00\uD800"));
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            int n = random.nextInt(40);
            for (int j = 0; j < n; j++) {
                s.append((char) switch (random.nextInt(4)) {
                    case 0 -> random.nextInt(0x80);
                    case 1 -> random.nextInt(0x800);
                    case 2 -> 0xD800 + random.nextInt(0x800); // surrogates, paired or not
                    default -> random.nextInt(0x10000);
                });
            }
            values.add(s.toString());
        }
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        JsonBytes w = new JsonBytes(fast);
        ByteArrayOutputStream slow = new ByteArrayOutputStream();
        Writer writer = new OutputStreamWriter(slow, StandardCharsets.UTF_8);
        for (String s : values) {
            w.string(s);
            ResultFormat.jsonString(writer, s);
        }
        w.finish();
        writer.flush();
        assertThat(fast.toByteArray()).isEqualTo(slow.toByteArray());
    }

    /**
     * VARCHAR cells go from Arrow's bytes to JSON without a String when they are ASCII; every cell,
     * ASCII or not (malformed UTF-8 and texts longer than the buffer included), must print exactly
     * as the String path prints the decoded text.
     */
    @Test
    void varcharCellsPrintAsTheirDecodedTextDoes() throws IOException {
        List<byte[]> cells = new ArrayList<>();
        for (String s : List.of("", "host_0", "quote\"back\\slash", "\n\r\t\b\f\u0000\u001f\u007f", "\u2028", "é ü 中文", "\uD83D\uDE00")) {
            cells.add(s.getBytes(StandardCharsets.UTF_8));
        }
        cells.add(new byte[]{'a', (byte) 0xC3}); // truncated sequence
        cells.add(new byte[]{(byte) 0xFF, 'b', (byte) 0x80}); // not UTF-8 at all
        cells.add("x".repeat(20_000).getBytes(StandardCharsets.US_ASCII)); // longer than the buffer
        cells.add("\"".repeat(5_000).getBytes(StandardCharsets.US_ASCII)); // escapes across drains
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[random.nextInt(30)];
            for (int j = 0; j < b.length; j++) {
                b[j] = (byte) (random.nextInt(8) == 0 ? random.nextInt(256) : random.nextInt(0x80));
            }
            cells.add(b);
        }
        Printed printed = printed(cells);
        assertThat(printed.fast()).isEqualTo(printed.slow());
    }

    /**
     * Cells of every length up to 17 bytes (the lengths a word-at-a-time check would split at), each
     * with one byte that needs a second look (a quote, a backslash, a control character, the first
     * byte of a two-byte character) at every position, or none, print as the String path prints them.
     */
    @Test
    void shortCellsWithASpecialByteAnywherePrintAsTheirDecodedTextDoes() throws IOException {
        List<byte[]> cells = new ArrayList<>();
        byte[][] specials = {{'"'}, {'\\'}, {0x1f}, {0x00}, {0x7f}, {(byte) 0xC3, (byte) 0xA9}};
        for (int len = 0; len <= 17; len++) {
            cells.add("abcdefghijklmnopq".substring(0, len).getBytes(StandardCharsets.US_ASCII));
            for (int pos = 0; pos < len; pos++) {
                for (byte[] special : specials) {
                    byte[] cell = new byte[len + special.length - 1];
                    for (int i = 0; i < cell.length; i++) {
                        cell[i] = (byte) ('a' + i % 26);
                    }
                    System.arraycopy(special, 0, cell, pos, special.length);
                    cells.add(cell);
                }
            }
        }
        Printed printed = printed(cells);
        assertThat(new String(printed.fast(), StandardCharsets.UTF_8)).isEqualTo(new String(printed.slow(), StandardCharsets.UTF_8));
    }

    /** VARCHAR cells printed as JSON strings two ways: from Arrow's bytes (String path where not ASCII), and by the Writer path. */
    private record Printed(byte[] fast, byte[] slow) {
    }

    private static Printed printed(List<byte[]> cells) throws IOException {
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        ByteArrayOutputStream slow = new ByteArrayOutputStream();
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            v.allocateNew(cells.size());
            for (int i = 0; i < cells.size(); i++) {
                v.setSafe(i, cells.get(i));
            }
            v.setValueCount(cells.size());
            JsonBytes w = new JsonBytes(fast);
            Writer writer = new OutputStreamWriter(slow, StandardCharsets.UTF_8);
            for (int i = 0; i < cells.size(); i++) {
                long start = v.getStartOffset(i);
                if (!w.asciiUtf8(v.getDataBuffer(), start, (int) (v.getEndOffset(i) - start))) {
                    w.string(new String(cells.get(i), StandardCharsets.UTF_8));
                }
                ResultFormat.jsonString(writer, new String(cells.get(i), StandardCharsets.UTF_8));
            }
            w.finish();
            writer.flush();
        }
        return new Printed(fast.toByteArray(), slow.toByteArray());
    }

    /**
     * A whole result crossing the buffer many times, checked cell by cell against the JDK's own
     * printing: NULLs in every column kind, plain and escaped strings (columns plain throughout and
     * mixed ones), NaN and infinities, and a type without a fast path.
     */
    @Test
    void aResultOfManyBatchesIsWholeAndExact() throws IOException {
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = new ArrayList<>();
            StringBuilder expected = new StringBuilder("{\"columns\":[{\"name\":\"time\",\"type\":\"TIMESTAMP\"},"
                    + "{\"name\":\"host\",\"type\":\"VARCHAR\"},{\"name\":\"n\",\"type\":\"BIGINT\"},{\"name\":\"v\",\"type\":\"DOUBLE\"},"
                    + "{\"name\":\"k\",\"type\":\"INTEGER\"}],\"rows\":[");
            Schema schema = null;
            SplittableRandom random = new SplittableRandom(11);
            int row = 0;
            for (int b = 0; b < 5; b++) {
                VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(
                        org.apache.arrow.vector.types.pojo.Field.nullable("time", new org.apache.arrow.vector.types.pojo.ArrowType.Timestamp(
                                org.apache.arrow.vector.types.TimeUnit.NANOSECOND, null)),
                        org.apache.arrow.vector.types.pojo.Field.nullable("host", new org.apache.arrow.vector.types.pojo.ArrowType.Utf8()),
                        org.apache.arrow.vector.types.pojo.Field.nullable("n", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)),
                        org.apache.arrow.vector.types.pojo.Field.nullable("v", new org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint(
                                org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)),
                        // a type without a fast path of its own: written through its cell writer
                        org.apache.arrow.vector.types.pojo.Field.nullable("k", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)))), allocator);
                schema = root.getSchema();
                int n = 1_000 + b;
                for (FieldVector v : root.getFieldVectors()) {
                    v.setInitialCapacity(n);
                    v.allocateNew();
                }
                for (int r = 0; r < n; r++, row++) {
                    long t = random.nextLong();
                    long i = random.nextLong();
                    double d = random.nextDouble() * 1e6;
                    boolean nullTime = b == 3 && r % 9 == 0; // a batch whose time column has NULLs
                    if (!nullTime) {
                        ((TimeStampNanoVector) root.getVector(0)).set(r, t);
                    }
                    boolean nullHost = r % 7 == 0;
                    // plain ASCII (copied as it is) and text with a quote and a non-ASCII letter (escaped,
                    // decoded); in even batches the column is plain throughout (copied once per batch),
                    // with a cell longer than the writer's buffer in the last
                    String host = b % 2 == 0 ? (b == 4 && r == 3 ? "x".repeat(70_000) : "host_" + r)
                            : r % 2 == 0 ? "host_" + r : "h\"" + r + "é";
                    if (!nullHost) {
                        ((VarCharVector) root.getVector(1)).setSafe(r, host.getBytes(StandardCharsets.UTF_8));
                    }
                    boolean nullN = r % 11 == 0;
                    if (!nullN) {
                        ((BigIntVector) root.getVector(2)).set(r, i);
                    }
                    double v = r % 13 == 0 ? Double.NaN : r % 17 == 0 ? Double.NEGATIVE_INFINITY : d;
                    ((Float8Vector) root.getVector(3)).set(r, v);
                    boolean nullK = r % 5 == 0;
                    if (!nullK) {
                        ((IntVector) root.getVector(4)).set(r, (int) i);
                    }
                    expected.append(row == 0 ? "[" : ",[")
                            .append(nullTime ? "null" : "\"" + Instant.ofEpochSecond(Math.floorDiv(t, NS), Math.floorMod(t, NS)) + "\"").append(',')
                            .append(nullHost ? "null" : "\"" + host.replace("\"", "\\\"") + "\"").append(',')
                            .append(nullN ? "null" : Long.toString(i)).append(',')
                            .append(Double.isNaN(v) ? "\"NaN\"" : Double.isInfinite(v) ? "\"-Infinity\"" : Double.toString(v)).append(',')
                            .append(nullK ? "null" : Integer.toString((int) i)).append(']');
                }
                root.setRowCount(n);
                batches.add(root);
            }
            expected.append("]}");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (ArrowReader reader = new BatchListReader(allocator, schema, batches)) {
                assertThat(ResultFormat.JSON.write(reader, out)).isEqualTo(row);
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
        }
    }
}

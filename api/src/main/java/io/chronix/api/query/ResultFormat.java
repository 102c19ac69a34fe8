package io.chronix.api.query;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.springframework.http.MediaType;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;

/**
 * The three answer formats of a query, each written batch by batch as DuckDB produces them (a
 * result is never built in memory first). Shared cell rules: timestamps RFC 3339 UTC with as
 * many fraction digits as the value needs, in groups of three, up to nanoseconds
 * ({@code 2026-12-01T00:00:00.000000001Z}); SQL NULL is JSON {@code null} / an empty CSV field;
 * unsigned 64-bit integers print unsigned; non-finite doubles are the strings {@code NaN},
 * {@code Infinity}, {@code -Infinity} in JSON.
 */
enum ResultFormat {
    JSON(MediaType.APPLICATION_JSON),
    CSV(new MediaType("text", "csv", StandardCharsets.UTF_8)),
    ARROW(MediaType.parseMediaType("application/vnd.apache.arrow.stream"));

    final MediaType mediaType;

    ResultFormat(MediaType mediaType) {
        this.mediaType = mediaType;
    }

    /** The format an {@code Accept} header asks for: the first supported type listed; JSON by default. */
    static ResultFormat negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return JSON;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (org.springframework.util.InvalidMimeTypeException e) {
            return JSON;
        }
        org.springframework.util.MimeTypeUtils.sortBySpecificity(types);
        types.sort(java.util.Comparator.comparingDouble(MediaType::getQualityValue).reversed());
        for (MediaType t : types) {
            for (ResultFormat f : values()) {
                if (t.isWildcardType() || (t.getType().equals(f.mediaType.getType()) && (t.isWildcardSubtype()
                        || t.getSubtype().equals(f.mediaType.getSubtype())))) {
                    return t.isWildcardType() ? JSON : f;
                }
            }
            if (t.getType().equals("application") && t.getSubtype().endsWith("json")) {
                return JSON;
            }
        }
        return null;
    }

    /**
     * Writes the whole result to {@code out} and returns the number of rows written. Leaves
     * {@code out} unflushed: its owner ends the answer. A servlet stream closed without a flush
     * sends an answer that fits its buffer in one write with a {@code Content-Length}; a flush
     * first would commit it as a chunk and send the closing chunk in a second write (measured on a
     * one-host query: a tenth of the request thread's time in the two socket writes).
     */
    long write(ArrowReader reader, OutputStream out) throws IOException {
        // ENUM columns arrive dictionary-encoded: every format writes their values, not their indices
        ArrowReader answer = DictionaryDecodingReader.decoding(reader);
        try {
            return switch (this) {
                case JSON -> writeJson(answer, out);
                case CSV -> writeCsv(answer, out);
                case ARROW -> writeArrow(answer, out);
            };
        } finally {
            if (answer != reader) {
                answer.close(); // its own root and decoded vectors; the caller closes the source
            }
        }
    }

    /**
     * JSON straight to UTF-8 bytes ({@link JsonBytes}): no {@code Writer} and encoder, no per-query
     * 64 K char buffer, integers and nanosecond timestamps written without an intermediate
     * {@code String} or {@code Instant} (ResultFormatTest holds the text to what the JDK prints).
     */
    private static long writeJson(ArrowReader reader, OutputStream out) throws IOException {
        JsonBytes w = new JsonBytes(out);
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        w.ascii("{\"columns\":[");
        List<Field> fields = root.getSchema().getFields();
        for (int c = 0; c < fields.size(); c++) {
            if (c > 0) {
                w.ascii(',');
            }
            w.ascii("{\"name\":");
            w.string(fields.get(c).getName());
            w.ascii(",\"type\":");
            w.string(typeName(fields.get(c).getType()));
            w.ascii('}');
        }
        w.ascii("],\"rows\":[");
        long rows = 0;
        while (reader.loadNextBatch()) {
            int n = root.getRowCount();
            JsonColumns columns = new JsonColumns(root.getFieldVectors(), n); // types decided once per column and batch
            for (int r = 0; r < n; r++) {
                if (rows++ > 0) {
                    w.ascii(',');
                }
                w.ascii('[');
                columns.writeRow(w, r);
                w.ascii(']');
            }
        }
        w.ascii("]}");
        w.finish();
        return rows;
    }

    private static long writeCsv(ArrowReader reader, OutputStream out) throws IOException {
        // the writer's flush would reach out: it goes through a stream that keeps flushes to itself
        Writer w = new BufferedWriter(new OutputStreamWriter(unflushed(out), StandardCharsets.UTF_8), 1 << 16);
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        List<Field> fields = root.getSchema().getFields();
        for (int c = 0; c < fields.size(); c++) {
            if (c > 0) {
                w.write(',');
            }
            csvField(w, fields.get(c).getName());
        }
        w.write("\r\n");
        long rows = 0;
        while (reader.loadNextBatch()) {
            List<FieldVector> vectors = root.getFieldVectors();
            for (int r = 0; r < root.getRowCount(); r++) {
                for (int c = 0; c < vectors.size(); c++) {
                    if (c > 0) {
                        w.write(',');
                    }
                    FieldVector v = vectors.get(c);
                    if (!v.isNull(r)) {
                        csvField(w, text(v, r));
                    }
                }
                w.write("\r\n");
                rows++;
            }
        }
        w.flush();
        return rows;
    }

    private static long writeArrow(ArrowReader reader, OutputStream out) throws IOException {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        long rows = 0;
        try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            while (reader.loadNextBatch()) {
                writer.writeBatch();
                rows += root.getRowCount();
            }
            writer.end();
        }
        return rows;
    }

    /** {@code out} with flushes dropped (writes pass straight through). */
    private static OutputStream unflushed(OutputStream out) {
        return new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() {
            }
        };
    }

    /** The SQL type name of a result column, in DuckDB's spelling. */
    static String typeName(ArrowType t) {
        return switch (t) {
            case ArrowType.Timestamp ts -> ts.getTimezone() == null ? "TIMESTAMP" : "TIMESTAMPTZ";
            case ArrowType.Int i -> switch (i.getBitWidth()) {
                case 8 -> i.getIsSigned() ? "TINYINT" : "UTINYINT";
                case 16 -> i.getIsSigned() ? "SMALLINT" : "USMALLINT";
                case 32 -> i.getIsSigned() ? "INTEGER" : "UINTEGER";
                default -> i.getIsSigned() ? "BIGINT" : "UBIGINT";
            };
            case ArrowType.FloatingPoint f -> switch (f.getPrecision()) {
                case DOUBLE -> "DOUBLE";
                default -> "FLOAT";
            };
            case ArrowType.Bool b -> "BOOLEAN";
            case ArrowType.Utf8 u -> "VARCHAR";
            case ArrowType.LargeUtf8 u -> "VARCHAR";
            case ArrowType.Utf8View u -> "VARCHAR";
            case ArrowType.Decimal d -> d.getScale() == 0 && d.getPrecision() == 38 ? "HUGEINT" : "DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")";
            case ArrowType.Date d -> "DATE";
            case ArrowType.Time tm -> "TIME";
            case ArrowType.Interval iv -> "INTERVAL";
            case ArrowType.Binary bin -> "BLOB";
            case ArrowType.List l -> "LIST";
            case ArrowType.Struct s -> "STRUCT";
            default -> t.getTypeID().name().toUpperCase(Locale.ROOT);
        };
    }

    static String instant(long value, TimeUnit unit) {
        if (unit == TimeUnit.NANOSECOND) {
            return Rfc3339.format(value);
        }
        long seconds;
        long nanos;
        switch (unit) {
            case SECOND -> {
                seconds = value;
                nanos = 0;
            }
            case MILLISECOND -> {
                seconds = Math.floorDiv(value, 1_000L);
                nanos = Math.floorMod(value, 1_000L) * 1_000_000L;
            }
            case MICROSECOND -> {
                seconds = Math.floorDiv(value, 1_000_000L);
                nanos = Math.floorMod(value, 1_000_000L) * 1_000L;
            }
            default -> {
                seconds = Math.floorDiv(value, 1_000_000_000L);
                nanos = Math.floorMod(value, 1_000_000_000L);
            }
        }
        return Instant.ofEpochSecond(seconds, nanos).toString();
    }

    /** {@code HH:mm:ss} and the fraction of a second, as many digits as it needs. */
    private static final java.time.format.DateTimeFormatter TIME_OF_DAY = java.time.format.DateTimeFormatter.ISO_LOCAL_TIME;

    /** A non-null cell as text (CSV, and JSON strings). */
    static String text(FieldVector v, int r) {
        return switch (v) {
            case TimeStampVector t -> instant(t.get(r), ((ArrowType.Timestamp) t.getField().getType()).getUnit());
            case UInt8Vector u -> Long.toUnsignedString(u.get(r));
            // BLOB: base64, as JSON carries bytes (getObject's byte[] would print as an object id)
            case org.apache.arrow.vector.VarBinaryVector b -> java.util.Base64.getEncoder().encodeToString(b.get(r));
            case org.apache.arrow.vector.LargeVarBinaryVector b -> java.util.Base64.getEncoder().encodeToString(b.get(r));
            // TIME: the time of day as DuckDB prints it (getObject answers a count of microseconds)
            case org.apache.arrow.vector.TimeMicroVector t -> TIME_OF_DAY.format(java.time.LocalTime.ofNanoOfDay(t.get(r) * 1_000L));
            case org.apache.arrow.vector.TimeNanoVector t -> TIME_OF_DAY.format(java.time.LocalTime.ofNanoOfDay(t.get(r)));
            case VarCharVector s -> new String(s.get(r), StandardCharsets.UTF_8);
            case LargeVarCharVector s -> new String(s.get(r), StandardCharsets.UTF_8);
            case BitVector b -> b.get(r) != 0 ? "true" : "false";
            case Float8Vector f -> Double.toString(f.get(r));
            case DateDayVector d -> LocalDate.ofEpochDay(d.get(r)).toString();
            case DecimalVector d -> d.getObject(r).toPlainString();
            default -> String.valueOf(v.getObject(r));
        };
    }

    /** Writes row {@code r} of one column, known not to be null, as a JSON value. */
    @FunctionalInterface
    private interface JsonCell {
        void write(JsonBytes w, int r) throws IOException;
    }

    /**
     * One batch's columns, ready to write row by row. The common column types (nanosecond
     * timestamps, 64-bit integers and floats, UTF-8 strings) are read from their Arrow buffers in
     * one {@code switch} over a kind decided per column, with the validity bit tested only where
     * the column has NULLs; any other type goes through its {@link JsonCell}. A lambda per column
     * called for every cell had many implementations at one call site, which the JIT does not
     * inline: the call and the vector's own null check cost about as much as writing the cell.
     */
    private static final class JsonColumns {
        private static final byte OTHER = 0;
        private static final byte TIMESTAMP_NS = 1;
        private static final byte INT64 = 2;
        private static final byte FLOAT64 = 3;
        private static final byte UTF8 = 4;

        private final FieldVector[] vectors;
        private final byte[] kinds;
        private final boolean[] mayBeNull;
        private final org.apache.arrow.memory.ArrowBuf[] validity;
        private final org.apache.arrow.memory.ArrowBuf[] data;
        private final org.apache.arrow.memory.ArrowBuf[] offsets;
        private final JsonCell[] cells;
        /**
         * A {@code VARCHAR} column's bytes, copied to the heap once per batch, if every byte can go
         * into JSON as itself (ASCII, nothing to escape: tags, usually); {@code null} otherwise, and
         * each cell is looked at on its own.
         */
        private final byte[][] plainText;

        JsonColumns(List<FieldVector> columns, int rows) {
            int n = columns.size();
            vectors = columns.toArray(new FieldVector[0]);
            kinds = new byte[n];
            mayBeNull = new boolean[n];
            validity = new org.apache.arrow.memory.ArrowBuf[n];
            data = new org.apache.arrow.memory.ArrowBuf[n];
            offsets = new org.apache.arrow.memory.ArrowBuf[n];
            cells = new JsonCell[n];
            plainText = new byte[n][];
            for (int c = 0; c < n; c++) {
                FieldVector v = vectors[c];
                kinds[c] = switch (v) {
                    case TimeStampVector t when ((ArrowType.Timestamp) t.getField().getType()).getUnit() == TimeUnit.NANOSECOND -> TIMESTAMP_NS;
                    case BigIntVector i -> INT64;
                    case Float8Vector f -> FLOAT64;
                    case VarCharVector s -> UTF8;
                    default -> OTHER;
                };
                if (kinds[c] == OTHER) {
                    // nested and other vectors may have no buffers of these kinds (a list's data is a child vector)
                    cells[c] = jsonCell(v);
                } else {
                    mayBeNull[c] = v.getNullCount() > 0;
                    validity[c] = v.getValidityBuffer();
                    data[c] = v.getDataBuffer();
                    offsets[c] = kinds[c] == UTF8 ? v.getOffsetBuffer() : null;
                    if (kinds[c] == UTF8 && rows > 0) {
                        plainText[c] = plainText(data[c], offsets[c].getInt(0), offsets[c].getInt((long) rows << 2));
                    }
                }
            }
        }

        void writeRow(JsonBytes w, int r) throws IOException {
            for (int c = 0; c < kinds.length; c++) {
                if (c > 0) {
                    w.ascii(',');
                }
                if (kinds[c] == OTHER ? vectors[c].isNull(r) : mayBeNull[c] && (validity[c].getByte(r >>> 3) & (1 << (r & 7))) == 0) {
                    w.ascii("null");
                    continue;
                }
                switch (kinds[c]) {
                    case TIMESTAMP_NS -> w.timestamp(data[c].getLong((long) r << 3));
                    case INT64 -> w.decimal(data[c].getLong((long) r << 3));
                    case FLOAT64 -> jsonDouble(w, Double.longBitsToDouble(data[c].getLong((long) r << 3)));
                    case UTF8 -> {
                        int start = offsets[c].getInt((long) r << 2);
                        int end = offsets[c].getInt(((long) r + 1) << 2);
                        if (plainText[c] != null) {
                            w.plainString(plainText[c], start - offsets[c].getInt(0), end - start);
                        } else if (!w.asciiUtf8(data[c], start, end - start)) {
                            w.string(text(vectors[c], r)); // not ASCII: decoded as before, so malformed bytes print alike
                        }
                    }
                    default -> cells[c].write(w, r);
                }
            }
        }
    }

    /** Bytes [from, to) of {@code data} on the heap if all are ASCII with nothing to escape, else {@code null}. */
    private static byte[] plainText(org.apache.arrow.memory.ArrowBuf data, int from, int to) {
        byte[] bytes = new byte[to - from];
        data.getBytes(from, bytes, 0, bytes.length);
        boolean plain = true;
        for (byte b : bytes) {
            plain &= b >= 0x20 & b != '"' & b != '\\'; // a byte of a multi-byte character is negative
        }
        return plain ? bytes : null;
    }

    private static JsonCell jsonCell(FieldVector v) {
        return switch (v) {
            case Float8Vector f -> (w, r) -> jsonDouble(w, f.get(r));
            case Float4Vector f -> (w, r) -> jsonDouble(w, f.get(r));
            case BigIntVector i -> (w, r) -> w.decimal(i.get(r));
            case IntVector i -> (w, r) -> w.decimal(i.get(r));
            case SmallIntVector i -> (w, r) -> w.decimal(i.get(r));
            case TinyIntVector i -> (w, r) -> w.decimal(i.get(r));
            case UInt8Vector u -> (w, r) -> w.ascii(Long.toUnsignedString(u.get(r)));
            case BitVector b -> (w, r) -> w.ascii(b.get(r) != 0 ? "true" : "false");
            case DecimalVector d -> (w, r) -> w.ascii(d.getObject(r).toPlainString());
            case org.apache.arrow.vector.UInt4Vector u -> (w, r) -> w.decimal(Integer.toUnsignedLong(u.get(r)));
            case org.apache.arrow.vector.UInt2Vector u -> (w, r) -> w.decimal(u.get(r));
            case org.apache.arrow.vector.UInt1Vector u -> (w, r) -> w.decimal(Byte.toUnsignedInt(u.get(r)));
            case TimeStampVector t -> {
                TimeUnit unit = ((ArrowType.Timestamp) t.getField().getType()).getUnit();
                yield unit == TimeUnit.NANOSECOND
                        ? (w, r) -> w.timestamp(t.get(r)) // the usual column: no Instant, no String
                        : (w, r) -> w.string(instant(t.get(r), unit));
            }
            case VarCharVector s -> (w, r) -> {
                long start = s.getStartOffset(r);
                if (!w.asciiUtf8(s.getDataBuffer(), start, (int) (s.getEndOffset(r) - start))) {
                    w.string(text(v, r)); // not ASCII: decoded as before, so malformed bytes print alike
                }
            };
            default -> (w, r) -> w.string(text(v, r));
        };
    }

    private static void jsonDouble(JsonBytes w, double d) throws IOException {
        if (Double.isFinite(d)) {
            w.ascii(Double.toString(d));
        } else {
            w.ascii(Double.isNaN(d) ? "\"NaN\"" : d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        }
    }

    static void jsonString(Writer w, String s) throws IOException {
        w.write('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '"' -> w.write("\\\"");
                case '\\' -> w.write("\\\\");
                case '\n' -> w.write("\\n");
                case '\r' -> w.write("\\r");
                case '\t' -> w.write("\\t");
                default -> {
                    if (ch < 0x20 || ch == 0x2028 || ch == 0x2029) {
                        w.write(String.format("\\u%04x", (int) ch));
                    } else {
                        w.write(ch);
                    }
                }
            }
        }
        w.write('"');
    }

    private static void csvField(Writer w, String s) throws IOException {
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0
                || (!s.isEmpty() && (s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' '));
        if (!quote && !s.isEmpty()) {
            w.write(s);
            return;
        }
        w.write('"');
        w.write(s.replace("\"", "\"\""));
        w.write('"');
    }
}

package io.chronix.engine.ingest;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The InfluxDB line protocol, parsed from bytes straight into a {@link PointBatch.Builder}: no
 * String per line and no object per point (a string costs one dictionary entry per batch, see
 * {@link PointBatch.Builder#internUtf8}).
 *
 * <pre>
 *   measurement[,tag_key=tag_value...] field_key=field_value[,field_key=field_value...] [timestamp]
 * </pre>
 *
 * <ul>
 *   <li>Lines end at {@code \n} ({@code \r\n} too); blank lines and lines whose first non-blank
 *       character is {@code #} (comments) are skipped. Leading spaces and tabs are ignored.</li>
 *   <li>Escapes, a backslash before the character: in a measurement {@code , space \}; in tag keys,
 *       tag values and field keys {@code , = space \}; in string field values {@code " \}. A
 *       backslash before any other character is itself (so {@code \\} is one backslash, and so is a
 *       lone {@code \}). An unescaped {@code =} in a tag value is an error, as in InfluxDB.</li>
 *   <li>Sections are separated by one space or more; spaces and tabs may end the line. (Tabs do
 *       not separate sections: a tab is an ordinary character of a name, as in InfluxDB.)</li>
 *   <li>Field values: floats ({@code 1}, {@code -1.5}, {@code .5}, {@code 1.}, {@code 1e-3},
 *       {@code 1.5E+10}; finite only), integers {@code 1i} (int64), unsigned {@code 1u} (uint64),
 *       booleans {@code t T true True TRUE f F false False FALSE}, strings {@code "…"} (may span
 *       lines).</li>
 *   <li>Timestamp: an optional signed integer in the given {@link Precision}; absent, it is the
 *       receipt time passed in (truncated to the precision; every such point of a request shares
 *       it). A timestamp whose nanoseconds overflow int64 is an error.</li>
 *   <li>Names, tag values and strings must be valid UTF-8. A point needs at least one field;
 *       a duplicate tag key or field name in one line is an error.</li>
 * </ul>
 *
 * <p>Bounds ({@link LineLimit}; lengths in UTF-8 bytes with escapes removed, the line as sent):
 * <table>
 *   <caption>What one line may hold</caption>
 *   <tr><th>limit</th><th>value</th><th>of</th></tr>
 *   <tr><td>{@code maxLineBytes}</td><td>1 MiB (1,048,576)</td><td>a line, newline excluded (a string spanning lines joins them)</td></tr>
 *   <tr><td>{@code maxMeasurementBytes}</td><td>1,024</td><td>the measurement name</td></tr>
 *   <tr><td>{@code maxTagsPerLine}</td><td>250</td><td>tags of the line</td></tr>
 *   <tr><td>{@code maxTagKeyBytes}</td><td>1,024</td><td>a tag key</td></tr>
 *   <tr><td>{@code maxTagValueBytes}</td><td>16 KiB (16,384)</td><td>a tag value</td></tr>
 *   <tr><td>{@code maxFieldsPerLine}</td><td>1,000</td><td>fields of the line</td></tr>
 *   <tr><td>{@code maxFieldKeyBytes}</td><td>1,024</td><td>a field key</td></tr>
 *   <tr><td>{@code maxStringFieldBytes}</td><td>64 KiB (65,536)</td><td>a string field's value</td></tr>
 * </table>
 * Each is checked as the line is scanned, before anything is allocated for the element: a count
 * when its next element starts (so a line of 100,000 fields is refused at the 1,001st, which is
 * never scanned, and the scratch arrays never grow past the limit), a length when its element
 * ends, the line's length before the line is parsed at all — a line longer than the limit before
 * its first newline is skipped to it — and again once it is parsed when strings spanning lines
 * made it longer. A string value over its limit is still scanned to its closing quote, so that a
 * string spanning lines does not turn into lines of its own.
 *
 * Every rejected line is counted and the first {@link #MAX_REPORTED_ERRORS} reported with line,
 * column (in characters) and what was expected; a line over a limit is reported at the column
 * where the element over it starts, naming the limit and its value ({@link LineError#limit()}).
 * Parsing continues with the next line, so the caller decides between all-or-nothing and
 * partial writes.
 *
 * <p>Threading: not thread-safe; reusable (it keeps its scratch arrays between calls).
 */
public final class LineProtocolParser {

    public static final int MAX_REPORTED_ERRORS = 100;

    // eight bytes at a time for the two whole-input scans (newlines, non-ASCII bytes)
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = ONES * '\n';
    private static final long SPACES = ONES * ' ';
    private static final long BACKSLASHES = ONES * '\\';

    private static final int MEASUREMENT = 0;
    private static final int KEY = 1;
    private static final int STRING = 2;

    // the input of the running call
    private byte[] b;
    private int end;
    private int lineNo;
    private int lineStart;
    private int eol;   // end of the current line's content ('\r' of "\r\n" excluded)
    private int nl;    // index of the line's '\n', or end
    private int extraLines; // newlines inside string values of the current line
    private boolean ascii;  // the whole input is ASCII: no line needs a UTF-8 check

    // the current line's tokens
    private int mOff;
    private int mLen;
    private boolean mEsc;
    private int tagCount;
    private int[] tkOff = new int[16];
    private int[] tkLen = new int[16];
    private int[] tvOff = new int[16];
    private int[] tvLen = new int[16];
    private byte[] tagEsc = new byte[16]; // bit 0 key, bit 1 value
    private int fieldCount;
    private int[] fkOff = new int[16];
    private int[] fkLen = new int[16];
    private boolean[] fkEsc = new boolean[16];
    private byte[] fType = new byte[16];
    private long[] fBits = new long[16];
    private int[] fvOff = new int[16];
    private int[] fvLen = new int[16];
    private boolean[] fvEsc = new boolean[16];
    private long timestamp;

    private byte[] unescaped = new byte[256];
    private final TokenIds measurementIds = new TokenIds(1);
    private TokenIds tagKeyIds = new TokenIds(16);
    private TokenIds tagValueIds = new TokenIds(16);
    private TokenIds fieldNameIds = new TokenIds(16);
    private final SeriesKeys seriesKeys = new SeriesKeys();
    private int keyEnd;       // the current line's series key (measurement and tags) ends here, at a space; -1 if no space
    private int keyHash;
    private int seriesEnd;    // where the full parse found the series key's end
    private int cachedSeries; // the series-key cache entry of the current line, or -1
    private int[] tagKeyId = new int[16];   // the ids the current line's tags were interned as, for the cache
    private int[] tagValueId = new int[16];
    private int[] pointLines = new int[256];
    private int points;
    private List<LineError> errors;
    private int rejected;

    // the error of the line being parsed
    private int errPos;
    private String errMsg;
    private LineLimit errLimit; // the limit the line went over, or null

    /** Parses all of {@code buf}; see {@link #parse(byte[], int, int, Precision, long, PointBatch.Builder)}. */
    public ParseResult parse(byte[] buf, Precision precision, long receiptNanos, PointBatch.Builder into) {
        return parse(buf, 0, buf.length, precision, receiptNanos, into);
    }

    /**
     * Parses {@code buf[off, off + len)} and adds every valid line's point to {@code into}.
     *
     * @param receiptNanos the server's time at receipt, for lines without a timestamp
     * @return counts, the first {@value #MAX_REPORTED_ERRORS} errors, and each point's line
     */
    public ParseResult parse(byte[] buf, int off, int len, Precision precision, long receiptNanos, PointBatch.Builder into) {
        Objects.checkFromIndexSize(off, len, buf.length);
        Objects.requireNonNull(precision, "precision");
        Objects.requireNonNull(into, "into");
        this.b = buf;
        this.end = off + len;
        this.errors = new ArrayList<>();
        this.rejected = 0;
        this.points = 0;
        measurementIds.clear(); // ids and offsets belong to the previous call's builder and buffer
        tagKeyIds.clear();
        tagValueIds.clear();
        fieldNameIds.clear();
        seriesKeys.clear();
        long unit = precision.nanos();
        long defaultTs = Math.floorDiv(receiptNanos, unit) * unit;
        ascii = isAscii(off, end);
        int lines = 0;
        int p = off;
        lineNo = 0;
        while (p < end) {
            lineNo++;
            lineStart = p;
            nl = indexOfNewline(p);
            eol = nl > p && b[nl - 1] == '\r' ? nl - 1 : nl;
            int q = p;
            while (q < eol && (b[q] == ' ' || b[q] == '\t')) {
                q++;
            }
            if (q == eol || b[q] == '#') {
                p = nl + 1;
                continue;
            }
            lines++;
            extraLines = 0;
            if (eol - lineStart > LineLimit.LINE_BYTES.value()) {
                // not parsed at all: skipped to its first newline
                exceed(lineStart, LineLimit.LINE_BYTES, "line of " + (eol - lineStart) + " bytes is too long");
                reject();
            } else if (parseLine(q, unit, defaultTs) && withinLineLimit() && (ascii || checkUtf8(q, eol))) {
                emit(into);
            } else {
                reject();
            }
            p = nl + 1;
            lineNo += extraLines;
        }
        this.b = null;
        return new ParseResult(lines, points, rejected, errors, Arrays.copyOf(pointLines, points));
    }

    /**
     * A line that strings spanning lines made longer than the limit: checked once it is parsed, so
     * that the next line starts after its last string, not inside one.
     */
    private boolean withinLineLimit() {
        return eol - lineStart <= LineLimit.LINE_BYTES.value()
                || exceed(lineStart, LineLimit.LINE_BYTES, "line of " + (eol - lineStart) + " bytes is too long");
    }

    private int indexOfNewline(int from) {
        int i = from;
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            // SWAR zero-byte test on word ^ "\n\n…": the lowest flagged byte is the first newline (higher
            // flags may be false positives, never the lowest)
            long x = (long) LONG_LE.get(b, i) ^ NEWLINES;
            long found = (x - ONES) & ~x & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < end; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return end;
    }

    /** No byte of {@code [from, to)} has its high bit set. */
    private boolean isAscii(int from, int to) {
        int i = from;
        long or = 0;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            or |= (long) LONG_LE.get(b, i);
        }
        for (; i < to; i++) {
            or |= b[i];
        }
        return (or & HIGHS) == 0;
    }

    private boolean fail(int pos, String message) {
        errPos = pos;
        errMsg = message;
        errLimit = null;
        return false;
    }

    /** {@link #fail} for a line over {@code limit}: the message names it and its value. */
    private boolean exceed(int pos, LineLimit limit, String message) {
        fail(pos, message + limit.named());
        errLimit = limit;
        return false;
    }

    /** {@link #exceed}, for the methods that answer an index: -1. */
    private int exceedAt(int pos, LineLimit limit, String message) {
        exceed(pos, limit, message);
        return -1;
    }

    /** {@link #fail}, for the methods that answer an index: -1. */
    private int failAt(int pos, String message) {
        fail(pos, message);
        return -1;
    }

    private void reject() {
        rejected++;
        if (errors.size() < MAX_REPORTED_ERRORS) {
            int line = lineNo;
            int from = lineStart;
            for (int i = lineStart; i < errPos && i < end; i++) {
                if (b[i] == '\n') {
                    line++;
                    from = i + 1;
                }
            }
            int column = 1;
            for (int i = from; i < errPos && i < end; i++) {
                if ((b[i] & 0xC0) != 0x80) {
                    column++;
                }
            }
            errors.add(new LineError(line, column, errMsg, errLimit));
        }
    }

    // ------------------------------------------------------------------------------ one line

    private boolean parseLine(int p, long unit, long defaultTs) {
        // A series key seen before in this call (byte for byte) was parsed and validated then: take its
        // ids from the cache and go straight to the fields. The bytes of a key decide its parse alone.
        mOff = p;
        cachedSeries = -1;
        keyEnd = seriesKeyEnd(p);
        int i;
        if (keyEnd > p) {
            keyHash = hash(p, keyEnd);
            cachedSeries = seriesKeys.find(b, p, keyEnd - p, keyHash);
        }
        if (cachedSeries >= 0) {
            tagCount = 0; // the tags were not tokenised; the cache entry holds their ids
            i = keyEnd;
        } else {
            i = parseSeriesKey(p);
            if (i < 0) {
                return false;
            }
            seriesEnd = i;
        }
        return parseFieldsAndTimestamp(i, unit, defaultTs);
    }

    /**
     * The first space of {@code [p, eol)} that no backslash escapes, or -1. A backslash always takes
     * the next byte with it: in a measurement or tag a backslash before a non-escapable byte is a
     * literal, but that byte is neither ',' nor ' ' then, so no separator is missed or invented.
     */
    private int seriesKeyEnd(int p) {
        int i = p;
        while (i < eol) {
            if (i + Long.BYTES <= eol) {
                long w = (long) LONG_LE.get(b, i);
                long x = w ^ SPACES;
                long y = w ^ BACKSLASHES;
                long found = (((x - ONES) & ~x) | ((y - ONES) & ~y)) & HIGHS; // lowest flag is exact
                if (found == 0) {
                    i += Long.BYTES;
                    continue;
                }
                i += Long.numberOfTrailingZeros(found) >>> 3;
            }
            byte c = b[i];
            if (c == ' ') {
                return i;
            }
            i += c == '\\' ? 2 : 1;
        }
        return -1;
    }

    private int hash(int from, int to) {
        long h = to - from;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            h = (h ^ (long) LONG_LE.get(b, i)) * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (int shift = 0; i < to; i++, shift += 8) {
            tail |= (b[i] & 0xFFL) << shift;
        }
        h = (h ^ tail) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The measurement and tag set from {@code p}: the index after them, or -1 after {@link #fail}. */
    private int parseSeriesKey(int p) {
        // measurement
        int i = p;
        int escapes = 0; // each escape pair is one byte of the name
        while (i < eol) {
            byte c = b[i];
            if (c == ',' || c == ' ') {
                break;
            }
            if (c == '\\' && i + 1 < eol) {
                byte n = b[i + 1];
                if (n == ',' || n == ' ' || n == '\\') {
                    escapes++;
                    i += 2;
                    continue;
                }
            }
            i++;
        }
        if (i == p) {
            return failAt(i, "expected a measurement name");
        }
        mLen = i - p;
        mEsc = escapes > 0;
        if (mLen - escapes > LineLimit.MEASUREMENT_BYTES.value()) {
            return exceedAt(p, LineLimit.MEASUREMENT_BYTES, "measurement name of " + (mLen - escapes) + " bytes is too long");
        }
        // tags
        tagCount = 0;
        while (i < eol && b[i] == ',') {
            i++;
            if (tagCount == LineLimit.TAGS_PER_LINE.value()) {
                return exceedAt(i, LineLimit.TAGS_PER_LINE, "more than " + tagCount + " tags in one line");
            }
            int k = i;
            escapes = 0;
            while (true) {
                if (i == eol) {
                    return failAt(i, "expected '=' after tag key");
                }
                byte c = b[i];
                if (c == '=') {
                    break;
                }
                if (c == ',' || c == ' ') {
                    return failAt(i, i == k ? "expected a tag key" : "expected '=' after tag key");
                }
                if (c == '\\' && i + 1 < eol && isKeyEscapable(b[i + 1])) {
                    escapes++;
                    i += 2;
                } else {
                    i++;
                }
            }
            if (i == k) {
                return failAt(i, "expected a tag key");
            }
            int kLen = i - k;
            boolean kEsc = escapes > 0;
            if (kLen - escapes > LineLimit.TAG_KEY_BYTES.value()) {
                return exceedAt(k, LineLimit.TAG_KEY_BYTES, "tag key of " + (kLen - escapes) + " bytes is too long");
            }
            i++;
            int v = i;
            escapes = 0;
            while (i < eol) {
                byte c = b[i];
                if (c == ',' || c == ' ') {
                    break;
                }
                if (c == '=') {
                    return failAt(i, "expected ',' or ' ' after tag value (write '=' in a tag value as '\\=')");
                }
                if (c == '\\' && i + 1 < eol && isKeyEscapable(b[i + 1])) {
                    escapes++;
                    i += 2;
                } else {
                    i++;
                }
            }
            if (i == v) {
                return failAt(i, "expected a tag value");
            }
            if (i - v - escapes > LineLimit.TAG_VALUE_BYTES.value()) {
                return exceedAt(v, LineLimit.TAG_VALUE_BYTES, "tag value of " + (i - v - escapes) + " bytes is too long");
            }
            addTag(k, kLen, kEsc, v, i - v, escapes > 0);
        }
        return i;
    }

    private boolean parseFieldsAndTimestamp(int i, long unit, long defaultTs) {
        if (i == eol) {
            return fail(i, "expected a space and a field set (key=value)");
        }
        assert b[i] == ' ';
        i = skipSpaces(i + 1);
        if (i == eol) {
            return fail(i, "expected a field set (key=value)");
        }
        // fields
        fieldCount = 0;
        while (true) {
            if (fieldCount == LineLimit.FIELDS_PER_LINE.value()) {
                return exceed(i, LineLimit.FIELDS_PER_LINE, "more than " + fieldCount + " fields in one line");
            }
            int k = i;
            int escapes = 0;
            while (true) {
                if (i == eol) {
                    return fail(i, i == k ? "expected a field key" : "expected '=' after field key");
                }
                byte c = b[i];
                if (c == '=') {
                    break;
                }
                if (c == ',' || c == ' ') {
                    return fail(i, i == k ? "expected a field key" : "expected '=' after field key");
                }
                if (c == '\\' && i + 1 < eol && isKeyEscapable(b[i + 1])) {
                    escapes++;
                    i += 2;
                } else {
                    i++;
                }
            }
            if (i == k) {
                return fail(i, "expected a field key");
            }
            int kLen = i - k;
            if (kLen - escapes > LineLimit.FIELD_KEY_BYTES.value()) {
                return exceed(k, LineLimit.FIELD_KEY_BYTES, "field key of " + (kLen - escapes) + " bytes is too long");
            }
            i++;
            i = fieldValue(i, k, kLen, escapes > 0);
            if (i < 0) {
                return false;
            }
            if (i == eol) {
                timestamp = defaultTs;
                return true;
            }
            byte c = b[i];
            if (c == ',') {
                i++;
                continue;
            }
            if (c != ' ') {
                return fail(i, "expected ',' or ' ' after field value");
            }
            break;
        }
        i = skipSpaces(i);
        if (i == eol) {
            timestamp = defaultTs;
            return true;
        }
        return parseTimestamp(i, unit);
    }

    private int skipSpaces(int i) {
        while (i < eol && b[i] == ' ') {
            i++;
        }
        return i;
    }

    private int skipBlanks(int i) {
        while (i < eol && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isKeyEscapable(byte n) {
        return n == ',' || n == '=' || n == ' ' || n == '\\';
    }

    private void addTag(int k, int kLen, boolean kEsc, int v, int vLen, boolean vEsc) {
        if (tagCount == tkOff.length) {
            int n = tagCount * 2;
            tkOff = Arrays.copyOf(tkOff, n);
            tkLen = Arrays.copyOf(tkLen, n);
            tvOff = Arrays.copyOf(tvOff, n);
            tvLen = Arrays.copyOf(tvLen, n);
            tagEsc = Arrays.copyOf(tagEsc, n);
        }
        tkOff[tagCount] = k;
        tkLen[tagCount] = kLen;
        tvOff[tagCount] = v;
        tvLen[tagCount] = vLen;
        tagEsc[tagCount] = (byte) ((kEsc ? 1 : 0) | (vEsc ? 2 : 0));
        tagCount++;
    }

    private void addField(int k, int kLen, boolean kEsc, FieldType type, long bits, int v, int vLen, boolean vEsc) {
        if (fieldCount == fkOff.length) {
            int n = fieldCount * 2;
            fkOff = Arrays.copyOf(fkOff, n);
            fkLen = Arrays.copyOf(fkLen, n);
            fkEsc = Arrays.copyOf(fkEsc, n);
            fType = Arrays.copyOf(fType, n);
            fBits = Arrays.copyOf(fBits, n);
            fvOff = Arrays.copyOf(fvOff, n);
            fvLen = Arrays.copyOf(fvLen, n);
            fvEsc = Arrays.copyOf(fvEsc, n);
        }
        fkOff[fieldCount] = k;
        fkLen[fieldCount] = kLen;
        fkEsc[fieldCount] = kEsc;
        fType[fieldCount] = (byte) type.code();
        fBits[fieldCount] = bits;
        fvOff[fieldCount] = v;
        fvLen[fieldCount] = vLen;
        fvEsc[fieldCount] = vEsc;
        fieldCount++;
    }

    /** Parses the value at {@code i}; returns the index after it, or -1 after {@link #fail}. */
    private int fieldValue(int i, int k, int kLen, boolean kEsc) {
        if (i == eol) {
            fail(i, "expected a field value");
            return -1;
        }
        byte c = b[i];
        if (c == '"') {
            return stringValue(i, k, kLen, kEsc);
        }
        if (c == '-' || c == '.' || (c >= '0' && c <= '9')) {
            return numberValue(i, k, kLen, kEsc);
        }
        if (c == 't' || c == 'T' || c == 'f' || c == 'F') {
            int j = i;
            while (j < eol && b[j] != ',' && b[j] != ' ') {
                j++;
            }
            int bool = booleanOf(i, j - i);
            if (bool < 0) {
                fail(i, "expected a boolean: t, T, true, True, TRUE, f, F, false, False or FALSE");
                return -1;
            }
            addField(k, kLen, kEsc, FieldType.BOOLEAN, bool, 0, 0, false);
            return j;
        }
        fail(i, "expected a field value: a float (1.5), an integer (1i), an unsigned integer (1u), a \"string\" or a boolean");
        return -1;
    }

    private int booleanOf(int i, int len) {
        byte c = b[i];
        if (len == 1) {
            return c == 't' || c == 'T' ? 1 : 0; // c is one of t T f F
        }
        if (len == 4 && (matches(i, "true") || matches(i, "True") || matches(i, "TRUE"))) {
            return 1;
        }
        if (len == 5 && (matches(i, "false") || matches(i, "False") || matches(i, "FALSE"))) {
            return 0;
        }
        return -1;
    }

    private boolean matches(int i, String ascii) {
        for (int j = 0; j < ascii.length(); j++) {
            if (b[i + j] != ascii.charAt(j)) {
                return false;
            }
        }
        return true;
    }

    private int stringValue(int open, int k, int kLen, boolean kEsc) {
        int j = open + 1;
        int escapes = 0;
        int newlines = 0;
        while (true) {
            if (j >= end) {
                fail(open, "expected a closing '\"' of the string value");
                return -1;
            }
            byte c = b[j];
            if (c == '"') {
                break;
            }
            if (c == '\\' && j + 1 < end && (b[j + 1] == '"' || b[j + 1] == '\\')) {
                escapes++;
                j += 2;
                continue;
            }
            if (c == '\n') {
                newlines++;
            }
            j++;
        }
        if (j >= eol) {
            // the string spans lines: the line now ends at the first newline after its closing quote
            extraLines += newlines;
            nl = indexOfNewline(j + 1);
            eol = nl > j + 1 && b[nl - 1] == '\r' ? nl - 1 : nl;
        }
        // checked after the closing quote is found, so that the next line starts where it should
        int len = j - open - 1 - escapes;
        if (len > LineLimit.STRING_FIELD_BYTES.value()) {
            return exceedAt(open, LineLimit.STRING_FIELD_BYTES, "string field value of " + len + " bytes is too long");
        }
        addField(k, kLen, kEsc, FieldType.STRING, 0, open + 1, j - open - 1, escapes > 0);
        return j + 1;
    }

    private int numberValue(int s, int k, int kLen, boolean kEsc) {
        int i = s;
        boolean neg = b[i] == '-';
        if (neg) {
            i++;
        }
        // integer digits, accumulated as unsigned 64 bits with an overflow flag
        int intStart = i;
        long acc = 0;
        boolean overflow = false;
        long mant = 0;
        int mantDigits = 0;   // significant digits in mant (leading zeros skipped); 19 fit in 64 unsigned bits
        int dropped = 0;      // integer digits beyond what mant can hold
        boolean truncated = false;
        while (i < eol && b[i] >= '0' && b[i] <= '9') {
            int d = b[i] - '0';
            if (Long.compareUnsigned(acc, 1844674407370955161L) > 0 || (acc == 1844674407370955161L && d > 5)) {
                overflow = true;
            } else {
                acc = acc * 10 + d;
            }
            if (mantDigits < 19) {
                if (mant != 0 || d != 0) {
                    mant = mant * 10 + d;
                    mantDigits++;
                }
            } else {
                dropped++;
                truncated = true;
            }
            i++;
        }
        int intDigits = i - intStart;
        if (i < eol && (b[i] == 'i' || b[i] == 'u')) {
            boolean unsigned = b[i] == 'u';
            if (intDigits == 0) {
                fail(i, "expected digits before '" + (char) b[i] + "'");
                return -1;
            }
            if (unsigned && neg) {
                fail(s, "expected an unsigned integer: it cannot be negative");
                return -1;
            }
            long value;
            if (unsigned) {
                if (overflow) {
                    fail(s, "unsigned integer out of range: expected at most 18446744073709551615");
                    return -1;
                }
                value = acc;
            } else if (neg) {
                if (overflow || Long.compareUnsigned(acc, Long.MIN_VALUE) > 0) {
                    fail(s, "integer out of range: expected at least -9223372036854775808");
                    return -1;
                }
                value = -acc;
            } else {
                if (overflow || acc < 0) {
                    fail(s, "integer out of range: expected at most 9223372036854775807");
                    return -1;
                }
                value = acc;
            }
            addField(k, kLen, kEsc, unsigned ? FieldType.UNSIGNED : FieldType.INTEGER, value, 0, 0, false);
            return i + 1;
        }
        // float: [digits] [. [digits]] [e [+-] digits]
        int fracDigits = 0;
        if (i < eol && b[i] == '.') {
            i++;
            int f0 = i;
            while (i < eol && b[i] >= '0' && b[i] <= '9') {
                int d = b[i] - '0';
                if (mantDigits < 19) {
                    if (mant != 0 || d != 0) {
                        mant = mant * 10 + d;
                        mantDigits++;
                    }
                    fracDigits++;
                } else {
                    truncated = true;
                }
                i++;
            }
            if (intDigits == 0 && i == f0) {
                fail(s, "expected digits in the number");
                return -1;
            }
        } else if (intDigits == 0) {
            fail(i, "expected digits in the number");
            return -1;
        }
        int exp = 0;
        if (i < eol && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean expNeg = false;
            if (i < eol && (b[i] == '+' || b[i] == '-')) {
                expNeg = b[i] == '-';
                i++;
            }
            int e0 = i;
            while (i < eol && b[i] >= '0' && b[i] <= '9') {
                if (exp < 100_000) {
                    exp = exp * 10 + (b[i] - '0');
                }
                i++;
            }
            if (i == e0) {
                fail(i, "expected digits in the exponent");
                return -1;
            }
            if (expNeg) {
                exp = -exp;
            }
        }
        if (i < eol && b[i] != ',' && b[i] != ' ') {
            fail(i, "expected ',' or ' ' after the number (integers end in i, unsigned in u)");
            return -1;
        }
        // mant holds the first 19 significant digits (unsigned); with more, only the exact parser can round right
        double v = truncated && mant != 0 ? Double.NaN : DecimalToDouble.of(mant, exp - fracDigits + dropped);
        if (Double.isNaN(v)) {
            v = Math.abs(Double.parseDouble(new String(b, s, i - s, StandardCharsets.ISO_8859_1)));
        }
        if (Double.isInfinite(v)) {
            fail(s, "float out of range: expected a finite float");
            return -1;
        }
        addField(k, kLen, kEsc, FieldType.FLOAT, Double.doubleToRawLongBits(neg ? -v : v), 0, 0, false);
        return i;
    }

    private boolean parseTimestamp(int i, long unit) {
        int s = i;
        boolean neg = i < eol && b[i] == '-';
        if (neg) {
            i++;
        }
        int d0 = i;
        long acc = 0;
        boolean overflow = false;
        while (i < eol && b[i] >= '0' && b[i] <= '9') {
            int d = b[i] - '0';
            if (acc > (Long.MAX_VALUE - d) / 10) {
                overflow = true;
            } else {
                acc = acc * 10 + d;
            }
            i++;
        }
        if (i == d0 || (i < eol && b[i] != ' ' && b[i] != '\t')) {
            return fail(i == d0 ? s : i, i == d0 ? "expected a timestamp (an integer) or the end of the line"
                    : "expected the end of the line after the timestamp");
        }
        if (skipBlanks(i) != eol) {
            return fail(skipBlanks(i), "expected the end of the line after the timestamp");
        }
        long t = neg ? -acc : acc;
        if (!overflow) {
            long r = t * unit;
            if (unit == 1 || (Math.abs(t) <= Long.MAX_VALUE / unit)) {
                timestamp = r;
                return true;
            }
        }
        return fail(s, "timestamp out of range: expected nanoseconds since the epoch to fit in 64 bits");
    }

    // ------------------------------------------------------------------------------ UTF-8

    /** Valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF) in {@code [from, to)}; else {@link #fail}. */
    private boolean checkUtf8(int from, int to) {
        int i = from;
        // fast skip over ASCII
        while (i < to && b[i] >= 0) {
            i++;
        }
        while (i < to) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
                min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                min = 0x10000;
            } else {
                return fail(i, "expected valid UTF-8");
            }
            if (i + n >= to) {
                return fail(i, "expected valid UTF-8");
            }
            int cp = c & (0x3F >> n);
            for (int j = 1; j <= n; j++) {
                int cc = b[i + j] & 0xFF;
                if ((cc & 0xC0) != 0x80) {
                    return fail(i, "expected valid UTF-8");
                }
                cp = (cp << 6) | (cc & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                return fail(i, "expected valid UTF-8");
            }
            i += n + 1;
        }
        return true;
    }

    // ------------------------------------------------------------------------------ into the batch

    private void emit(PointBatch.Builder into) {
        if (tagCount > tagKeyIds.length || fieldCount > fieldNameIds.length) {
            tagKeyIds = tagKeyIds.grow(2 * tagCount);
            tagValueIds = tagValueIds.grow(2 * tagCount);
            fieldNameIds = fieldNameIds.grow(2 * fieldCount);
        }
        int m;
        if (cachedSeries >= 0) {
            m = seriesKeys.measurement(cachedSeries);
            into.beginPoint(m, timestamp);
            seriesKeys.addTags(cachedSeries, into);
        } else {
            m = measurementIds.intern(this, into, 0, mOff, mLen, mEsc, MEASUREMENT);
            into.beginPoint(m, timestamp);
            if (tagKeyId.length < tagCount) {
                tagKeyId = new int[tagKeyIds.length];
                tagValueId = new int[tagKeyIds.length];
            }
            for (int t = 0; t < tagCount; t++) {
                int key = tagKeyIds.intern(this, into, t, tkOff[t], tkLen[t], (tagEsc[t] & 1) != 0, KEY);
                int value = tagValueIds.intern(this, into, t, tvOff[t], tvLen[t], (tagEsc[t] & 2) != 0, KEY);
                into.tag(key, value);
                tagKeyId[t] = key;
                tagValueId[t] = value;
            }
        }
        for (int f = 0; f < fieldCount; f++) {
            int name = fieldNameIds.intern(this, into, f, fkOff[f], fkLen[f], fkEsc[f], KEY);
            FieldType type = FieldType.ofCode(fType[f]);
            long bits = type == FieldType.STRING ? intern(into, fvOff[f], fvLen[f], fvEsc[f], STRING) : fBits[f];
            into.field(name, type, bits);
        }
        try {
            into.endPoint();
        } catch (IllegalArgumentException e) {
            fail(duplicatePosition(), e.getMessage() + " (expected each tag key and field name once per line)");
            reject();
            return;
        }
        if (cachedSeries < 0 && keyEnd == seriesEnd) {
            // only a key whose line was accepted (so no duplicate tag key) enters the cache
            seriesKeys.add(mOff, keyEnd - mOff, keyHash, m, tagKeyId, tagValueId, tagCount);
        }
        if (points == pointLines.length) {
            pointLines = Arrays.copyOf(pointLines, points * 2);
        }
        pointLines[points++] = lineNo;
    }

    /** Where the second of two equal tag keys or field names starts (the error path only). */
    private int duplicatePosition() {
        for (int t = 1; t < tagCount; t++) {
            for (int u = 0; u < t; u++) {
                if (sameBytes(tkOff[t], tkLen[t], tkOff[u], tkLen[u])) {
                    return tkOff[t];
                }
            }
        }
        for (int f = 1; f < fieldCount; f++) {
            for (int g = 0; g < f; g++) {
                if (sameBytes(fkOff[f], fkLen[f], fkOff[g], fkLen[g])) {
                    return fkOff[f];
                }
            }
        }
        return mOff;
    }

    private boolean sameBytes(int a, int aLen, int c, int cLen) {
        return Arrays.equals(b, a, a + aLen, b, c, c + cLen);
    }

    /**
     * The dictionary ids of the previous line's tokens, by position (the n-th tag key, the n-th
     * field name, …). Lines of one request usually repeat their keys, and often their values, in the
     * same order, so comparing a token's bytes with the previous line's token at its position
     * (a vectorised mismatch) answers most lookups without hashing. Equal raw bytes mean an equal
     * unescaped string, so the id is right whatever the escapes.
     */
    private static final class TokenIds {
        final int[] off;
        final int[] len;
        final int[] id;
        final int length;

        TokenIds(int n) {
            off = new int[n];
            len = new int[n];
            id = new int[n];
            length = n;
            Arrays.fill(off, -1);
        }

        TokenIds grow(int n) {
            return new TokenIds(Math.max(n, length));
        }

        void clear() {
            Arrays.fill(off, -1);
        }

        int intern(LineProtocolParser p, PointBatch.Builder into, int slot, int tokenOff, int tokenLen, boolean escaped, int kind) {
            int o = off[slot];
            if (o >= 0 && len[slot] == tokenLen && Arrays.equals(p.b, o, o + tokenLen, p.b, tokenOff, tokenOff + tokenLen)) {
                return id[slot];
            }
            int i = p.intern(into, tokenOff, tokenLen, escaped, kind);
            off[slot] = tokenOff;
            len[slot] = tokenLen;
            id[slot] = i;
            return i;
        }
    }

    /**
     * The series keys (measurement and tag set, as raw bytes of the input) of this call's accepted
     * lines, with the ids their measurement and tags were interned as. The lines of one host repeat
     * one tag set, and a batch interleaves hosts, so the previous line's tokens ({@link TokenIds})
     * miss on every tag value, while one hash of the key and one byte comparison find all its ids.
     * Bounded: past {@link #MAX_ENTRIES} keys (a body of ever new series) nothing more is added.
     */
    private static final class SeriesKeys {
        static final int MAX_ENTRIES = 1 << 14;

        private int[] slots = new int[64]; // entry + 1; 0 = empty
        private int count;
        private int[] hashes = new int[32];
        private int[] off = new int[32];
        private int[] len = new int[32];
        private int[] measurement = new int[32];
        private int[] tagFrom = new int[33]; // entry e's tags: ids[2 * tagFrom[e] ...2 * tagFrom[e + 1])
        private int[] ids = new int[64];     // key id, value id, key id, value id, ...

        void clear() {
            if (count > 0) {
                Arrays.fill(slots, 0);
                count = 0;
            }
        }

        int find(byte[] b, int keyOff, int keyLen, int h) {
            int mask = slots.length - 1;
            for (int i = h & mask, e; (e = slots[i] - 1) >= 0; i = (i + 1) & mask) {
                if (hashes[e] == h && len[e] == keyLen && Arrays.equals(b, off[e], off[e] + keyLen, b, keyOff, keyOff + keyLen)) {
                    return e;
                }
            }
            return -1;
        }

        int measurement(int e) {
            return measurement[e];
        }

        void addTags(int e, PointBatch.Builder into) {
            for (int t = 2 * tagFrom[e], to = 2 * tagFrom[e + 1]; t < to; t += 2) {
                into.tag(ids[t], ids[t + 1]);
            }
        }

        void add(int keyOff, int keyLen, int h, int measurementId, int[] keyIds, int[] valueIds, int tags) {
            if (count == MAX_ENTRIES) {
                return;
            }
            if (count == hashes.length) {
                int n = count * 2;
                hashes = Arrays.copyOf(hashes, n);
                off = Arrays.copyOf(off, n);
                len = Arrays.copyOf(len, n);
                measurement = Arrays.copyOf(measurement, n);
                tagFrom = Arrays.copyOf(tagFrom, n + 1);
            }
            int from = tagFrom[count];
            if (ids.length < 2 * (from + tags)) {
                ids = Arrays.copyOf(ids, Math.max(ids.length * 2, 2 * (from + tags)));
            }
            for (int t = 0; t < tags; t++) {
                ids[2 * (from + t)] = keyIds[t];
                ids[2 * (from + t) + 1] = valueIds[t];
            }
            int e = count++;
            hashes[e] = h;
            off[e] = keyOff;
            len[e] = keyLen;
            measurement[e] = measurementId;
            tagFrom[e + 1] = from + tags;
            if (count * 2 > slots.length) {
                rehash(slots.length * 2);
            } else {
                insert(e);
            }
        }

        private void insert(int e) {
            int mask = slots.length - 1;
            int i = hashes[e] & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = e + 1;
        }

        private void rehash(int capacity) {
            slots = new int[capacity];
            for (int e = 0; e < count; e++) {
                insert(e);
            }
        }
    }

    private int intern(PointBatch.Builder into, int off, int len, boolean escaped, int kind) {
        if (!escaped) {
            return into.internUtf8(b, off, len);
        }
        if (unescaped.length < len) {
            unescaped = new byte[Math.max(len, unescaped.length * 2)];
        }
        int n = 0;
        for (int i = off, to = off + len; i < to; i++) {
            byte c = b[i];
            if (c == '\\' && i + 1 < to) {
                byte x = b[i + 1];
                boolean pair = switch (kind) {
                    case MEASUREMENT -> x == ',' || x == ' ' || x == '\\';
                    case KEY -> isKeyEscapable(x);
                    default -> x == '"' || x == '\\';
                };
                if (pair) {
                    unescaped[n++] = x;
                    i++;
                    continue;
                }
            }
            unescaped[n++] = c;
        }
        return into.internUtf8(unescaped, 0, n);
    }
}

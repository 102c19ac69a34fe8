package io.chronix.engine.segment.encoding;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tags and strings: a block-local dictionary of the distinct values in first-seen order, then the
 * rows as codes — or, when the column runs (a tag in a series-by-series segment changes once per
 * series), as (code, length) runs. Codes and run lengths are {@link PatchedPacking patched-bit-packed}.
 *
 * <pre>
 * block := size u32 LE | entry* | mode u8 | body
 * entry := length (unsigned LEB128) | UTF-8 bytes
 * mode 0 (codes) := frames of n codes
 * mode 1 (runs)  := runs u32 LE | frames of run codes | frames of (run length - 1)
 * </pre>
 * A NULL row repeats the previous row's code (the validity bitmap says it is NULL), so NULLs do not
 * break runs.
 */
public final class Dictionary {

    public static final int MODE_CODES = 0;
    public static final int MODE_RUNS = 1;

    private Dictionary() {
    }

    /** Reusable encoder state. Not thread-safe. */
    public static final class Encoder {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> entries = new ArrayList<>();
        private long[] codes = new long[1024];
        private long[] runCodes = new long[256];
        private long[] runLengths = new long[256];
        private final int[] histogram = new int[65];

        /** Encodes {@code values[from, from+count)}; {@code null} entries are NULL rows. */
        public void encode(String[] values, int from, int count, BlockBuffer out) {
            ids.clear();
            entries.clear();
            if (codes.length < count) {
                codes = new long[count];
            }
            int prev = 0;
            int runs = 0;
            for (int i = 0; i < count; i++) {
                String s = values[from + i];
                int code;
                if (s == null) {
                    code = i == 0 ? 0 : prev;
                } else {
                    Integer id = ids.get(s);
                    if (id == null) {
                        id = entries.size();
                        ids.put(s, id);
                        entries.add(s);
                    }
                    code = id;
                }
                if (i == 0 || code != prev) {
                    runs++;
                }
                codes[i] = code;
                prev = code;
            }
            if (entries.isEmpty() && count > 0) {
                entries.add(""); // all rows NULL: code 0 must still name an entry
            }
            out.putInt(entries.size());
            for (String s : entries) {
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                out.putVarLong(b.length);
                out.putBytes(b, 0, b.length);
            }
            if (runs * 4L <= count) {
                if (runCodes.length < runs) {
                    runCodes = new long[runs];
                    runLengths = new long[runs];
                }
                int r = -1;
                for (int i = 0; i < count; i++) {
                    if (i == 0 || codes[i] != codes[i - 1]) {
                        r++;
                        runCodes[r] = codes[i];
                        runLengths[r] = 0;
                    } else {
                        runLengths[r]++;
                    }
                }
                out.putByte(MODE_RUNS);
                out.putInt(runs);
                PatchedPacking.encode(runCodes, 0, runs, out, histogram);
                PatchedPacking.encode(runLengths, 0, runs, out, histogram);
            } else {
                out.putByte(MODE_CODES);
                PatchedPacking.encode(codes, 0, count, out, histogram);
            }
        }
    }

    /**
     * A decoded block: the dictionary as (offset, length) ranges of the source bytes, and one code
     * per row. Reusable. Not thread-safe.
     */
    public static final class Decoded {
        public int size;
        public int[] entryOffset = new int[16];
        public int[] entryLength = new int[16];
        public int[] codes = new int[1024];
        private long[] scratch = new long[1024];
        private long[] scratch2 = new long[256];

        /** Entry {@code code} as a String. */
        public String entry(byte[] src, int code) {
            return new String(src, entryOffset[code], entryLength[code], StandardCharsets.UTF_8);
        }

        /**
         * Decodes {@code count} rows from {@code src[pos, end)}.
         *
         * @return the position after the data
         */
        public int decode(byte[] src, int pos, int end, int count) {
            Encodings.need(pos, 4, end, "dictionary size");
            int n = Encodings.getInt(src, pos);
            pos += 4;
            if (n < 0 || n > end - pos || (count > 0 && n == 0)) {
                throw new EncodingException("bad dictionary size [size=" + n + "]");
            }
            if (entryOffset.length < n) {
                entryOffset = new int[n];
                entryLength = new int[n];
            }
            for (int i = 0; i < n; i++) {
                long len = 0;
                int shift = 0;
                while (true) {
                    Encodings.need(pos, 1, end, "dictionary entry length");
                    int b = src[pos++];
                    len |= (long) (b & 0x7F) << shift;
                    if (b >= 0) {
                        break;
                    }
                    shift += 7;
                    if (shift > 28) {
                        throw new EncodingException("dictionary entry length too long");
                    }
                }
                if (len > end - pos) {
                    throw new EncodingException("dictionary entry runs past the end of the block [entry=" + i + "]");
                }
                entryOffset[i] = pos;
                entryLength[i] = (int) len;
                pos += (int) len;
            }
            size = n;
            if (codes.length < count) {
                codes = new int[count];
            }
            Encodings.need(pos, 1, end, "dictionary mode");
            int mode = src[pos++];
            if (mode == MODE_CODES) {
                if (scratch.length < count) {
                    scratch = new long[count];
                }
                pos = PatchedPacking.decode(src, pos, end, scratch, 0, count);
                for (int i = 0; i < count; i++) {
                    long c = scratch[i];
                    if (c < 0 || c >= n) {
                        throw new EncodingException("dictionary code out of range [row=" + i + ", code=" + c + "]");
                    }
                    codes[i] = (int) c;
                }
            } else if (mode == MODE_RUNS) {
                Encodings.need(pos, 4, end, "run count");
                int runs = Encodings.getInt(src, pos);
                pos += 4;
                if (runs < 0 || runs > count || (count > 0 && runs == 0)) {
                    throw new EncodingException("bad run count [runs=" + runs + ", rows=" + count + "]");
                }
                if (scratch.length < runs) {
                    scratch = new long[runs];
                }
                if (scratch2.length < runs) {
                    scratch2 = new long[runs];
                }
                pos = PatchedPacking.decode(src, pos, end, scratch, 0, runs);
                pos = PatchedPacking.decode(src, pos, end, scratch2, 0, runs);
                int row = 0;
                for (int r = 0; r < runs; r++) {
                    long c = scratch[r];
                    long len = scratch2[r] + 1;
                    if (c < 0 || c >= n || len <= 0 || len > count - row) {
                        throw new EncodingException("bad run [run=" + r + ", code=" + c + ", length=" + len + "]");
                    }
                    java.util.Arrays.fill(codes, row, row + (int) len, (int) c);
                    row += (int) len;
                }
                if (row != count) {
                    throw new EncodingException("runs cover " + row + " rows, block has " + count);
                }
            } else {
                throw new EncodingException("unknown dictionary mode " + mode);
            }
            return pos;
        }
    }
}

package io.chronix.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Cuts a line-protocol stream into {@link Batch}es of at most N points, at line boundaries, and
 * counts the field values of each line on the way (the load report's values/s).
 *
 * <p>Counting follows line protocol's grammar just enough: a backslash escapes the next byte; the
 * first unescaped space ends the measurement and tags; inside the field set, commas outside double
 * quotes separate fields; the next unquoted space starts the timestamp.
 */
public final class LineBatcher {
    private final InputStream in;
    private final int batchLines;
    private final byte[] readBuffer = new byte[1 << 20];
    private int readPos;
    private int readLimit;
    private boolean eof;
    private long nextIndex;
    /** Size of the previous batch: the next one is usually as large, so start there, not at 64 KiB. */
    private int lastSize = 1 << 16;

    public LineBatcher(InputStream in, int batchLines) {
        this.in = in;
        this.batchLines = batchLines;
    }

    /** The next batch, or {@code null} at the end of the input. */
    public Batch next() throws IOException {
        byte[] out = new byte[lastSize + (lastSize >> 3)];
        int size = 0;
        int lines = 0;
        long values = 0;
        // per-line parser state
        int section = 0;
        boolean escaped = false;
        boolean quoted = false;
        boolean lineHasContent = false;
        boolean comment = false;
        while (lines < batchLines) {
            if (readPos == readLimit) {
                if (eof || !fill()) {
                    break;
                }
            }
            byte b = readBuffer[readPos++];
            if (size == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            out[size++] = b;
            if (b == '\n') {
                if (lineHasContent && !comment) {
                    lines++;
                }
                section = 0;
                escaped = false;
                quoted = false;
                lineHasContent = false;
                comment = false;
                continue;
            }
            if (!lineHasContent) {
                if (b == ' ' || b == '\t' || b == '\r') {
                    continue;
                }
                lineHasContent = true;
                comment = b == '#';
            }
            if (comment) {
                continue;
            }
            if (escaped) {
                escaped = false;
                continue;
            }
            if (b == '\\') {
                escaped = true;
            } else if (section == 1 && b == '"') {
                quoted = !quoted;
            } else if (!quoted && b == ' ') {
                if (section == 0) {
                    section = 1;
                    values++;
                } else if (section == 1) {
                    section = 2;
                }
            } else if (!quoted && section == 1 && b == ',') {
                values++;
            }
        }
        if (lineHasContent && !comment) {
            lines++; // a last line without a newline
        }
        if (size == 0) {
            return null;
        }
        lastSize = size;
        return new Batch(nextIndex++, Arrays.copyOf(out, size), lines, values);
    }

    private boolean fill() throws IOException {
        int n = in.read(readBuffer);
        if (n <= 0) {
            eof = true;
            return false;
        }
        readPos = 0;
        readLimit = n;
        return true;
    }
}

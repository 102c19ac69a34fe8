package io.chronix.api.query;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * JSON text as UTF-8 into a buffer (8 KiB, 64 KiB once an answer has filled that) written to the response as it fills: what a
 * {@code BufferedWriter} over an {@code OutputStreamWriter} gives, minus the char buffer, the
 * encoder and a {@code String} per integer or timestamp. Strings are escaped as
 * {@link ResultFormat#jsonString} escapes them; text that is not valid UTF-16 (a lone surrogate)
 * becomes {@code ?}, as the encoder's replacement does.
 */
final class JsonBytes {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

    /** The buffer of an answer that has not filled it yet: most answers are a few rows. */
    private static final int FIRST_BUFFER = 8 << 10;
    /** The buffer once an answer has filled the first one: an eighth of the writes (and system calls) per byte. */
    private static final int LARGE_BUFFER = 64 << 10;

    private final OutputStream out;
    private byte[] buf = new byte[FIRST_BUFFER];
    private int at;
    /** A cell's bytes, copied out of Arrow memory once instead of read byte by byte through its checks. */
    private byte[] scratch = new byte[256];

    JsonBytes(OutputStream out) {
        this.out = out;
    }

    /** Text known to be ASCII with nothing to escape (punctuation, numbers, literals). */
    void ascii(String s) throws IOException {
        int n = s.length();
        if (n > buf.length - at) {
            drain();
            if (n > buf.length) {
                out.write(s.getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
        }
        s.getBytes(0, n, buf, at); // ASCII: the low byte of each char is the char
        at += n;
    }

    void ascii(char c) throws IOException {
        room(1);
        buf[at++] = (byte) c;
    }

    void decimal(long v) throws IOException {
        room(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii("-9223372036854775808");
                return;
            }
            buf[at++] = '-';
            v = -v;
        }
        int len = 1;
        for (long p = 10; len < 19 && v >= p; p *= 10) {
            len++;
        }
        for (int i = at + len - 1; i >= at; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        at += len;
    }

    /** A nanosecond timestamp as a JSON string, {@link Rfc3339}. */
    void timestamp(long epochNanos) throws IOException {
        room(32);
        buf[at++] = '"';
        at = Rfc3339.write(epochNanos, buf, at);
        buf[at++] = '"';
    }

    void string(String s) throws IOException {
        ascii('"');
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(i);
            if (ch >= 0x20 && ch < 0x80 && ch != '"' && ch != '\\') {
                room(1);
                buf[at++] = (byte) ch;
            } else if (ch < 0x80 || ch == 0x2028 || ch == 0x2029) {
                escape(ch);
            } else if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(ch, s.charAt(++i));
                room(4);
                buf[at++] = (byte) (0xF0 | (cp >> 18));
                buf[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[at++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(ch)) {
                ascii('?'); // unpaired: the encoder's replacement
            } else if (ch < 0x800) {
                room(2);
                buf[at++] = (byte) (0xC0 | (ch >> 6));
                buf[at++] = (byte) (0x80 | (ch & 0x3F));
            } else {
                room(3);
                buf[at++] = (byte) (0xE0 | (ch >> 12));
                buf[at++] = (byte) (0x80 | ((ch >> 6) & 0x3F));
                buf[at++] = (byte) (0x80 | (ch & 0x3F));
            }
        }
        ascii('"');
    }

    /**
     * A string whose UTF-8 bytes are {@code bytes[off, off + len)}, e.g. a {@code VARCHAR} cell:
     * ASCII text is copied and escaped byte by byte, with no {@code String}; anything else goes
     * through {@link #string(String)}, so both paths write the same bytes for the same text
     * (malformed UTF-8 included: it is decoded with replacement first, as before).
     *
     * @return false if the bytes are not all ASCII and nothing was written
     */
    boolean asciiUtf8(org.apache.arrow.memory.ArrowBuf bytes, long off, int len) throws IOException {
        if (len + 2 <= buf.length - at) {
            // the usual cell (a tag): read straight into place and keep it if no byte needs a second look
            bytes.getBytes(off, buf, at + 1, len);
            boolean plain = true;
            for (int i = at + 1, end = at + 1 + len; i < end; i++) {
                byte b = buf[i];
                plain &= b >= 0x20 & b != '"' & b != '\\'; // a byte of a multi-byte character is negative
            }
            if (plain) {
                buf[at] = '"';
                buf[at + 1 + len] = '"';
                at += len + 2;
                return true;
            }
        }
        if (scratch.length < len) {
            scratch = new byte[Math.max(len, 2 * scratch.length)];
        }
        byte[] in = scratch;
        bytes.getBytes(off, in, 0, len);
        for (int i = 0; i < len; i++) {
            if (in[i] < 0) {
                return false;
            }
        }
        ascii('"');
        for (int i = 0; i < len; i++) {
            byte b = in[i];
            if (b >= 0x20 && b != '"' && b != '\\') {
                if (at == buf.length) {
                    drain();
                }
                buf[at++] = b;
            } else {
                escape(b);
            }
        }
        ascii('"');
        return true;
    }

    /** A string whose bytes, {@code bytes[off, off + len)}, are known to be ASCII with nothing to escape. */
    void plainString(byte[] bytes, int off, int len) throws IOException {
        if (len + 2 > buf.length - at) {
            drain();
            if (len + 2 > buf.length) {
                ascii('"');
                writeOut(); // the quote ahead of the text
                out.write(bytes, off, len);
                ascii('"');
                return;
            }
        }
        buf[at] = '"';
        System.arraycopy(bytes, off, buf, at + 1, len);
        buf[at + 1 + len] = '"';
        at += len + 2;
    }

    /** The escape of a character JSON text may not hold as itself: a quote, a backslash, a control character, U+2028/9. */
    private void escape(int ch) throws IOException {
        switch (ch) {
            case '"' -> ascii("\\\"");
            case '\\' -> ascii("\\\\");
            case '\n' -> ascii("\\n");
            case '\r' -> ascii("\\r");
            case '\t' -> ascii("\\t");
            default -> {
                room(6);
                buf[at++] = '\\';
                buf[at++] = 'u';
                buf[at++] = HEX[ch >> 12];
                buf[at++] = HEX[(ch >> 8) & 0xF];
                buf[at++] = HEX[(ch >> 4) & 0xF];
                buf[at++] = HEX[ch & 0xF];
            }
        }
    }

    /**
     * Writes what is buffered to the stream and leaves the stream unflushed: its owner ends the
     * answer (see {@link ResultFormat#write}).
     */
    void finish() throws IOException {
        writeOut();
    }

    private void room(int n) throws IOException {
        if (buf.length - at < n) {
            drain();
        }
    }

    /** Makes room: writes the buffer out, and from the first time on uses the large one. */
    private void drain() throws IOException {
        writeOut();
        if (buf.length < LARGE_BUFFER) {
            buf = new byte[LARGE_BUFFER];
        }
    }

    private void writeOut() throws IOException {
        if (at > 0) {
            out.write(buf, 0, at);
            at = 0;
        }
    }
}

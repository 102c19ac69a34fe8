package io.chronix.api.write;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a write body into memory within the tenant's {@code maxRequestBytes}, counted twice: on
 * the wire (what the client sent, compressed or not) and decompressed. {@code Content-Encoding:
 * gzip} bodies are inflated member after member (a multi-member body is the concatenation of its
 * members, as gzip(1) and Telegraf produce). A body that claims gzip and is not: 400.
 *
 * <p>The body is read into a buffer the caller lends (and gets back, grown if it had to be), so a
 * steady stream of same-sized requests allocates nothing per request: at 5,000 lines a body is
 * 1.5–2.5 MB, which the collector would otherwise allocate as a humongous object on every write.
 * An identity body with a {@code Content-Length} is read into a buffer of exactly that size plus
 * one byte (the byte that proves the end), never grown by copying.
 */
final class RequestBodies {

    private RequestBodies() {
    }

    /** The body in {@code bytes[0, length)} ({@code bytes} is the lent buffer or its grown copy), and its size on the wire. */
    record Body(byte[] bytes, int length, long wireBytes) {
    }

    /** Gzip bodies grow the buffer from this size on; a lent buffer that is larger is used as it is. */
    static final int MIN_BUFFER = 64 * 1024;

    /**
     * @param buffer a buffer to read into, reused between requests; null or too small: a larger one is allocated
     */
    static Body read(HttpServletRequest request, String tenant, long maxBytes, byte[] buffer) throws IOException {
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw tooLarge(tenant, maxBytes, "on the wire");
        }
        String encoding = request.getHeader("Content-Encoding");
        boolean gzip = false;
        if (encoding != null && !encoding.isBlank()) {
            String e = encoding.strip().toLowerCase(Locale.ROOT);
            if (e.equals("gzip") || e.equals("x-gzip")) {
                gzip = true;
            } else if (!e.equals("identity")) {
                throw WriteException.of(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-content-encoding", "Unsupported content encoding",
                        "Content-Encoding " + encoding + " is not supported; send identity or gzip.", "invalid");
            }
        }
        CountingInput wire = new CountingInput(request.getInputStream(), maxBytes, tenant, "on the wire");
        // plain with a length: that length and the byte that proves the end; else what was lent, grown as needed
        long want = !gzip && declared >= 0 ? declared + 1 : MIN_BUFFER;
        // a new buffer gets a quarter more room, so the next body of about the same size fits it too
        byte[] buf = buffer != null && buffer.length >= want ? buffer : new byte[(int) Math.min(want + want / 4, cap(maxBytes))];
        if (!gzip) {
            return readAll(wire, buf, maxBytes, tenant, wire);
        }
        try {
            return readAll(new GZIPInputStream(wire, 64 * 1024), buf, maxBytes, tenant, wire);
        } catch (ZipException | EOFException e) {
            throw WriteException.of(HttpStatus.BAD_REQUEST, "invalid-gzip", "Body is not gzip",
                    "The request says Content-Encoding: gzip but its body is not valid gzip (" + e.getMessage() + ").", "invalid");
        }
    }

    private static Body readAll(InputStream in, byte[] buf, long maxBytes, String tenant, CountingInput wire) throws IOException {
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > maxBytes || n >= Integer.MAX_VALUE - 16) { // past the limit, or past what one array holds
                    throw tooLarge(tenant, maxBytes, "decompressed");
                }
                buf = Arrays.copyOf(buf, (int) Math.min(Math.max((long) n * 2, MIN_BUFFER), cap(maxBytes)));
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                break;
            }
            n += r;
            if (n > maxBytes) {
                throw tooLarge(tenant, maxBytes, "decompressed");
            }
        }
        return new Body(buf, n, wire.count);
    }

    /** The largest buffer a body within {@code maxBytes} needs: the limit and one byte past it (which proves "too large"). */
    private static long cap(long maxBytes) {
        return Math.min(maxBytes, Integer.MAX_VALUE - 16) + 1;
    }

    static WriteException tooLarge(String tenant, long maxBytes, String where) {
        return new WriteException(HttpStatus.CONTENT_TOO_LARGE, "quota-max-request-bytes", "Request too large",
                "The body is larger than the tenant's maxRequestBytes (" + maxBytes + " bytes, " + where + ") [tenant=" + tenant + "].",
                Map.of("tenant", tenant, "limit", "maxRequestBytes", "value", maxBytes), "request too large", null, null);
    }

    /** Counts bytes read from the wire and stops past the limit. */
    private static final class CountingInput extends InputStream {
        private final InputStream in;
        private final long max;
        private final String tenant;
        private final String where;
        long count;

        CountingInput(InputStream in, long max, String tenant, String where) {
            this.in = in;
            this.max = max;
            this.tenant = tenant;
            this.where = where;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0 && ++count > max) {
                throw tooLarge(tenant, max, where);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int r = in.read(b, off, len);
            if (r > 0 && (count += r) > max) {
                throw tooLarge(tenant, max, where);
            }
            return r;
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }
    }
}

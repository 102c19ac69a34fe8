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
 */
final class RequestBodies {

    private RequestBodies() {
    }

    /** The body, and its size on the wire. */
    record Body(byte[] bytes, int length, long wireBytes) {
    }

    static Body read(HttpServletRequest request, String tenant, long maxBytes) throws IOException {
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
        if (!gzip) {
            return readAll(wire, maxBytes, tenant, wire);
        }
        try {
            return readAll(new GZIPInputStream(wire, 64 * 1024), maxBytes, tenant, wire);
        } catch (ZipException | EOFException e) {
            throw WriteException.of(HttpStatus.BAD_REQUEST, "invalid-gzip", "Body is not gzip",
                    "The request says Content-Encoding: gzip but its body is not valid gzip (" + e.getMessage() + ").", "invalid");
        }
    }

    private static Body readAll(InputStream in, long maxBytes, String tenant, CountingInput wire) throws IOException {
        byte[] buf = new byte[(int) Math.min(Math.max(wire.declaredHint(), 8192), Math.min(maxBytes + 1, 1 << 20))];
        int n = 0;
        while (true) {
            if (n == buf.length) {
                if (n > maxBytes) {
                    throw tooLarge(tenant, maxBytes, "decompressed");
                }
                buf = Arrays.copyOf(buf, (int) Math.min((long) n * 2, maxBytes + 1));
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

        long declaredHint() {
            return 0;
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

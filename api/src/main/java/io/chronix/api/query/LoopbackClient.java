package io.chronix.api.query;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * The HTTP warm-up's client: HTTP/1.1 over one kept-alive loopback connection, one request at a
 * time, the answer read whole (by {@code Content-Length} or chunk by chunk). Why not the JDK's
 * {@code HttpClient}: its code runs in this process and is compiled by the same JIT as the
 * service's; recorded over a warm-up, C2 spent 1.4 of its 20 seconds on the client's classes, and
 * the client's CPU per request left fewer requests in the warm-up's budget. This one is a socket,
 * two buffers and a header loop. What Tomcat receives is what any HTTP/1.1 client sends: a request
 * line, {@code Host}, {@code User-Agent}, the caller's headers, {@code Content-Length} when there is
 * a body.
 *
 * <p>Threading: one request at a time; not thread-safe.
 */
final class LoopbackClient implements Closeable {

    /** An answer: its status and its body (decoded from chunks, not from any content coding). */
    record Response(int status, byte[] body) {
        String bodyText(int max) {
            return new String(body, 0, Math.min(max, body.length), StandardCharsets.UTF_8);
        }
    }

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 16);
    private final StringBuilder line = new StringBuilder(256);

    /**
     * @param host    an address literal as it goes in {@code Host} (an IPv6 one in brackets)
     * @param timeout for connecting and for each read
     */
    LoopbackClient(String host, int port, Duration timeout) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = Math.toIntExact(timeout.toMillis());
    }

    /**
     * Sends one request and reads its whole answer.
     *
     * @param target  path and query, already encoded
     * @param headers name, value, name, value… (no {@code Host} or {@code Content-Length})
     * @param content the body, or null for none
     */
    Response send(String method, String target, byte[] content, String... headers) throws IOException {
        boolean reused = socket != null;
        try {
            return exchange(method, target, content, headers);
        } catch (EOFException e) {
            close();
            if (!reused) {
                throw e;
            }
            // the server closed the kept-alive connection between two requests: once more on a new one
            return exchange(method, target, content, headers);
        }
    }

    private Response exchange(String method, String target, byte[] content, String... headers) throws IOException {
        if (socket == null) {
            connect();
        }
        StringBuilder h = new StringBuilder(256 + target.length());
        h.append(method).append(' ').append(target).append(" HTTP/1.1\r\nHost: ").append(host).append(':').append(port)
                .append("\r\nUser-Agent: chronix-warm-up\r\n");
        for (int i = 0; i < headers.length; i += 2) {
            h.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        if (content != null) {
            h.append("Content-Length: ").append(content.length).append("\r\n");
        }
        h.append("\r\n");
        out.write(h.toString().getBytes(StandardCharsets.UTF_8));
        if (content != null) {
            out.write(content);
        }
        out.flush();
        return read(method.equals("HEAD"));
    }

    private void connect() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            s.connect(new InetSocketAddress(host.startsWith("[") ? host.substring(1, host.length() - 1) : host, port), timeoutMillis);
            in = new BufferedInputStream(s.getInputStream(), 1 << 16);
            out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
            socket = s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    private Response read(boolean head) throws IOException {
        String status = readLine();
        if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
            close();
            throw new IOException("not an HTTP/1.1 status line: " + status);
        }
        int code = Integer.parseInt(status, 9, 12, 10);
        long length = -1;
        boolean chunked = false;
        boolean closes = false;
        for (String header = readLine(); !header.isEmpty(); header = readLine()) {
            int colon = header.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = header.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).strip();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> closes = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        body.reset();
        if (head || code == 204 || code == 304 || code / 100 == 1) {
            // no body
        } else if (chunked) {
            for (long size = chunkSize(); size > 0; size = chunkSize()) {
                copy(size);
                readLine(); // the CRLF after the chunk
            }
            while (!readLine().isEmpty()) {
                // trailers
            }
        } else if (length >= 0) {
            copy(length);
        } else {
            in.transferTo(body); // to the end of the connection
            closes = true;
        }
        if (closes) {
            close();
        }
        return new Response(code, body.toByteArray());
    }

    private long chunkSize() throws IOException {
        String s = readLine();
        int end = s.indexOf(';');
        return Long.parseLong((end < 0 ? s : s.substring(0, end)).strip(), 16);
    }

    private void copy(long n) throws IOException {
        byte[] buffer = new byte[(int) Math.min(n, 1 << 16)];
        while (n > 0) {
            int r = in.read(buffer, 0, (int) Math.min(n, buffer.length));
            if (r < 0) {
                throw new EOFException("the answer ended " + n + " bytes early");
            }
            body.write(buffer, 0, r);
            n -= r;
        }
    }

    /** A line of the head, without its CRLF; ISO-8859-1, as HTTP's head is. */
    private String readLine() throws IOException {
        line.setLength(0);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("the connection closed in the middle of an answer");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        Socket s = socket;
        socket = null;
        if (s != null) {
            s.close();
        }
    }
}

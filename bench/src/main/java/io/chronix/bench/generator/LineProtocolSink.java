package io.chronix.bench.generator;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes ticks as InfluxDB line protocol with nanosecond timestamps, one line per host per tick,
 * tags and fields in TSBS's order:
 * {@code cpu,hostname=host_0,region=...,service_environment=test usage_user=58i,...,usage_guest_nice=7i 1451606400000000000}.
 *
 * <p>Each host's measurement-and-tags prefix is encoded once; numbers are formatted into a reused
 * buffer, so the steady state allocates nothing per integer row. Floats print as the shortest decimal
 * that round-trips ({@link Double#toString}), in plain notation — some line-protocol parsers refuse
 * an exponent — so a reader recovers the exact double.
 */
public final class LineProtocolSink implements TickSink {
    private static final byte[][] FIELD_PREFIXES;

    static {
        List<String> fields = TsbsValueSets.FIELDS;
        FIELD_PREFIXES = new byte[fields.size()][];
        for (int f = 0; f < fields.size(); f++) {
            FIELD_PREFIXES[f] = ((f == 0 ? "" : ",") + fields.get(f) + "=").getBytes(StandardCharsets.US_ASCII);
        }
    }

    private final OutputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private byte[][] hostPrefixes;
    private boolean integers;
    private long bytesWritten;

    public LineProtocolSink(OutputStream out) {
        this.out = out;
    }

    @Override
    public void open(Dataset dataset) {
        integers = dataset.config().integerFields();
        List<HostTags> hosts = dataset.hosts();
        hostPrefixes = new byte[hosts.size()][];
        for (int h = 0; h < hosts.size(); h++) {
            StringBuilder sb = new StringBuilder(TsbsValueSets.MEASUREMENT);
            List<String> values = hosts.get(h).values();
            for (int k = 0; k < values.size(); k++) {
                // TSBS's value sets contain no character that line protocol escapes (comma, space, equals).
                sb.append(',').append(TsbsValueSets.TAG_KEYS.get(k)).append('=').append(values.get(k));
            }
            sb.append(' ');
            hostPrefixes[h] = sb.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void tick(long timeNanos, double[][] values) {
        int hosts = hostPrefixes.length;
        for (int h = 0; h < hosts; h++) {
            ensure(1024);
            put(hostPrefixes[h]);
            for (int f = 0; f < values.length; f++) {
                put(FIELD_PREFIXES[f]);
                double v = values[f][h];
                if (integers) {
                    putLong((long) v);
                    buffer[position++] = 'i';
                } else {
                    putDouble(v);
                }
            }
            buffer[position++] = ' ';
            putLong(timeNanos);
            buffer[position++] = '\n';
        }
    }

    /** Bytes handed to the stream so far (including what is still buffered). */
    public long bytesWritten() {
        return bytesWritten + position;
    }

    @Override
    public void close() {
        drain();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void ensure(int room) {
        if (buffer.length - position < room) {
            drain();
        }
    }

    private void drain() {
        try {
            out.write(buffer, 0, position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        bytesWritten += position;
        position = 0;
    }

    private void put(byte[] bytes) {
        System.arraycopy(bytes, 0, buffer, position, bytes.length);
        position += bytes.length;
    }

    private void putLong(long v) {
        if (v == 0) {
            buffer[position++] = '0';
            return;
        }
        if (v < 0) {
            buffer[position++] = '-';
            // values here never reach Long.MIN_VALUE (fields are in [0, 100], timestamps positive)
            v = -v;
        }
        int digits = 1;
        for (long p = v; p >= 10; p /= 10) {
            digits++;
        }
        int end = position + digits;
        for (int i = end - 1; i >= position; i--) {
            buffer[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        position = end;
    }

    private void putDouble(double v) {
        String s = Double.toString(v);
        if (s.indexOf('E') >= 0) {
            s = new BigDecimal(s).toPlainString();
        }
        for (int i = 0; i < s.length(); i++) {
            buffer[position++] = (byte) s.charAt(i);
        }
    }
}

package io.chronix.api.query;

import io.chronix.engine.read.BatchListReader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A figure, not a test: thread CPU time of {@link ResultFormat#JSON} writing an answer shaped like
 * TSBS high-cpu-all's (170,000 rows of a nanosecond time, ten ASCII tags and ten BIGINT fields, one
 * field NULL in every seventh row) to a stream that discards it, in DuckDB's 65,536-row batches.
 * Run with the test classpath (docs/benchmarks.md):
 * {@code java ... io.chronix.api.query.JsonAnswerCpuTime [rows] [rounds]}.
 */
public final class JsonAnswerCpuTime {

    private static final String[] TAGS = {"arch", "datacenter", "hostname", "os", "rack", "region", "service",
            "service_environment", "service_version", "team"};

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 170_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        List<Field> fields = new ArrayList<>();
        fields.add(Field.nullable("time", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)));
        for (String t : TAGS) {
            fields.add(Field.nullable(t, ArrowType.Utf8.INSTANCE));
        }
        for (int f = 0; f < 10; f++) {
            fields.add(Field.nullable("usage_" + f, new ArrowType.Int(64, true)));
        }
        Schema schema = new Schema(fields);
        try (BufferAllocator a = new RootAllocator()) {
            long[] times = new long[rounds];
            long bytes = 0;
            for (int round = -5; round < rounds; round++) { // five rounds of warm-up
                List<VectorSchemaRoot> batches = batches(a, schema, rows);
                CountingStream out = new CountingStream();
                long t0 = cpu.getCurrentThreadCpuTime();
                try (BatchListReader reader = new BatchListReader(a, schema, batches)) {
                    ResultFormat.JSON.write(reader, out);
                } finally {
                    batches.forEach(VectorSchemaRoot::close); // the reader hands them out, the caller owns them
                }
                long t1 = cpu.getCurrentThreadCpuTime();
                if (round >= 0) {
                    times[round] = t1 - t0;
                }
                bytes = out.count;
            }
            Arrays.sort(times);
            System.out.printf("%,d rows, %,d bytes of JSON: median %.1f ms of thread CPU (min %.1f, max %.1f) over %d rounds%n",
                    rows, bytes, times[rounds / 2] / 1e6, times[0] / 1e6, times[rounds - 1] / 1e6, rounds);
        }
    }

    private static List<VectorSchemaRoot> batches(BufferAllocator a, Schema schema, int rows) {
        List<VectorSchemaRoot> out = new ArrayList<>();
        for (int from = 0; from < rows; from += 65_536) {
            int n = Math.min(65_536, rows - from);
            VectorSchemaRoot root = VectorSchemaRoot.create(schema, a);
            root.allocateNew();
            TimeStampNanoVector time = (TimeStampNanoVector) root.getVector(0);
            for (int r = 0; r < n; r++) {
                int i = from + r;
                time.setSafe(r, 1_451_606_400_000_000_000L + i * 25_000_000L + i % 7);
                for (int t = 0; t < TAGS.length; t++) {
                    ((VarCharVector) root.getVector(1 + t)).setSafe(r, (TAGS[t] + "_" + (i / 43 % (t == 2 ? 400 : 9)))
                            .getBytes(StandardCharsets.US_ASCII));
                }
                for (int f = 0; f < 10; f++) {
                    BigIntVector v = (BigIntVector) root.getVector(11 + f);
                    if (f == 3 && i % 7 == 0) {
                        v.setNull(r);
                    } else {
                        v.setSafe(r, (i * 31L + f * 17L) % 101);
                    }
                }
            }
            root.setRowCount(n);
            out.add(root);
        }
        return out;
    }

    /** Discards what it is given and counts it, so the bytes written are known. */
    private static final class CountingStream extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}

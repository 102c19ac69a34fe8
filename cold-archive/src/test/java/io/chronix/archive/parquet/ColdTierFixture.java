package io.chronix.archive.parquet;

import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.StorageBackend;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Engines over a Parquet cold tier for the tests of this package, and rows rendered as text. */
final class ColdTierFixture implements AutoCloseable {

    static final long SECOND = 1_000_000_000L;
    static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * SECOND;

    final MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
    final BufferAllocator allocator = new RootAllocator();
    final MutableClock clock = new MutableClock(Instant.ofEpochSecond(T0 / SECOND + 3600));
    final ColdTierMetrics metrics = new ColdTierMetrics();
    final ParquetCodec codec;

    ColdTierFixture(Path spill) {
        codec = new ParquetCodec(1, ArchiveFormat.ROW_GROUP_ROWS, spill);
    }

    static final class MutableClock extends Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    EngineConfig config() {
        return EngineConfig.defaults().withClock(clock).withShardDuration(Duration.ofMinutes(10)).withOooToleranceShards(1000);
    }

    ParquetColdTier tier(StorageBackend backend, long namespace, Path nsDir) {
        return new ParquetColdTier(backend, new NamespaceId(namespace), codec, new ColdCache(nsDir.resolve("cold-cache"), 64L << 20), metrics);
    }

    Chronix open(StorageBackend backend, long namespace, Path nsDir) {
        return Chronix.open(nsDir, config(), scheduler, tier(backend, namespace, nsDir));
    }

    /** Two 10-minute shards of {@code measurement}; absent tags and fields; every field type. */
    static PointBatch batch(String measurement) {
        PointBatch.Builder b = PointBatch.builder();
        for (int i = 0; i < 40; i++) {
            b.beginPoint(measurement, T0 + i * 30 * SECOND).tag("host", "h" + (i % 3));
            if (i % 4 == 0) {
                b.tag("rack", "r" + (i % 2));
            }
            b.floatField("usage", i * 1.5);
            if (i % 5 == 0) {
                b.integerField("errors", -i);
            }
            if (i % 7 == 0) {
                b.unsignedField("bytes", Long.MIN_VALUE + i).booleanField("ok", i % 2 == 0).stringField("note", "n'" + i);
            }
            b.endPoint();
        }
        return b.build();
    }

    List<String> rows(Chronix c, String measurement) {
        try (ScanResult r = c.scan(ScanRequest.all(measurement), allocator)) {
            List<String> out = new ArrayList<>();
            for (VectorSchemaRoot b : r.batches()) {
                for (int row = 0; row < b.getRowCount(); row++) {
                    StringBuilder sb = new StringBuilder();
                    for (FieldVector v : b.getFieldVectors()) {
                        sb.append(sb.isEmpty() ? "" : "|").append(v.getName()).append('=').append(cell(v, row));
                    }
                    out.add(sb.toString());
                }
            }
            return out;
        }
    }

    private static String cell(FieldVector v, int row) {
        if (v.isNull(row)) {
            return "<null>";
        }
        return switch (v) {
            case TimeStampVector t -> Long.toString(t.get(row));
            case Float8Vector f -> Double.toString(f.get(row));
            case BigIntVector i -> i.get(row) + "i";
            case UInt8Vector u -> Long.toUnsignedString(u.get(row)) + "u";
            case BitVector b -> Boolean.toString(b.get(row) != 0);
            case VarCharVector s -> "\"" + new String(s.get(row), StandardCharsets.UTF_8) + "\"";
            default -> String.valueOf(v.getObject(row));
        };
    }

    /** The rows of a JDBC result in the same text form; {@code time} must come as epoch nanoseconds. */
    static List<String> rows(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                Object o = rs.getObject(i);
                String type = md.getColumnTypeName(i);
                String cell;
                if (o == null) {
                    cell = "<null>";
                } else if (md.getColumnName(i).equals("time")) {
                    cell = o.toString();
                } else {
                    cell = switch (type) {
                        case "DOUBLE" -> Double.toString(((Number) o).doubleValue());
                        case "BIGINT" -> o + "i";
                        case "UBIGINT" -> new BigInteger(o.toString()) + "u";
                        case "BOOLEAN" -> o.toString();
                        case "VARCHAR" -> "\"" + o + "\"";
                        default -> type + ":" + o;
                    };
                }
                sb.append(sb.isEmpty() ? "" : "|").append(md.getColumnName(i)).append('=').append(cell);
            }
            out.add(sb.toString());
        }
        return out;
    }

    @Override
    public void close() {
        scheduler.close();
        allocator.close();
        codec.close();
    }
}

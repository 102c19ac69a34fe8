package io.chronix.engine;

import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.read.ScanRequest;
import io.chronix.engine.read.ScanResult;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
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

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Shared pieces of engine tests: a fixed clock, a small scheduler, and scans rendered as text rows. */
final class EngineFixture implements AutoCloseable {

    /** 2026-01-01T00:00:00Z in epoch nanoseconds; the fixed clock stands one hour later. */
    static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;
    static final long SECOND = 1_000_000_000L;

    final MaintenanceScheduler scheduler = MaintenanceScheduler.create(2);
    final BufferAllocator allocator = new RootAllocator();

    static EngineConfig config() {
        return EngineConfig.defaults().withClock(Clock.fixed(Instant.ofEpochSecond(T0 / SECOND + 3600), ZoneOffset.UTC));
    }

    Chronix open(Path dir) {
        return Chronix.open(dir, config(), scheduler);
    }

    Chronix open(Path dir, EngineConfig config) {
        return Chronix.open(dir, config, scheduler);
    }

    /**
     * Waits, polling, until {@code condition} holds — for what the engine does in the background
     * (flushes, compaction). Fails after {@code timeout}: a bound generous enough for a loaded
     * machine, never a performance figure.
     */
    static void await(String what, Duration timeout, java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }

    /** Every row of a scan as {@code col=value|col=value...}, NULL as {@code <null>}, in scan order. */
    List<String> rows(Chronix engine, ScanRequest request) {
        try (ScanResult r = engine.scan(request, allocator)) {
            return render(r);
        }
    }

    /** {@link Chronix#scanUnordered}'s rows, rendered like {@link #rows}; the order is not part of the answer. */
    List<String> rowsUnordered(Chronix engine, ScanRequest request) {
        try (ScanResult r = engine.scanUnordered(request, allocator)) {
            settledSegments += r.settledSegments();
            return render(r);
        }
    }

    /** Segments {@link #rowsUnordered} saw answered without the row merge, so far. */
    long settledSegments;

    static List<String> render(ScanResult r) {
        List<String> out = new ArrayList<>();
        for (VectorSchemaRoot b : r.batches()) {
            out.addAll(render(b));
        }
        return out;
    }

    /** One batch's rows, rendered as {@link #render(ScanResult)} renders them. */
    static List<String> render(VectorSchemaRoot b) {
        List<String> out = new ArrayList<>();
        for (int row = 0; row < b.getRowCount(); row++) {
            StringBuilder sb = new StringBuilder();
            for (FieldVector v : b.getFieldVectors()) {
                if (!sb.isEmpty()) {
                    sb.append('|');
                }
                sb.append(v.getName()).append('=').append(cell(v, row));
            }
            out.add(sb.toString());
        }
        return out;
    }

    static String cell(FieldVector v, int row) {
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

    static List<String> columnNames(MeasurementSchema s) {
        return s.columns().stream().map(Column::name).toList();
    }

    @Override
    public void close() {
        scheduler.close();
        allocator.close();
    }
}

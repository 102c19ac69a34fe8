package io.chronix.api.sql;

import io.chronix.engine.Chronix;
import io.chronix.engine.EngineConfig;
import io.chronix.engine.maintenance.MaintenanceScheduler;
import io.chronix.engine.model.PointBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An engine in a temporary directory, a sandbox, and queries rendered as text rows
 * ({@code v|v|…}, NULL as {@code null}); the allocator must be empty when the fixture closes.
 */
public final class SqlFixture implements AutoCloseable {

    /** 2026-01-01T00:00:00Z in epoch nanoseconds; the engine's clock stands a day later. */
    public static final long T0 = Instant.parse("2026-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L;
    public static final long SECOND = 1_000_000_000L;

    public final MaintenanceScheduler scheduler = MaintenanceScheduler.create(1);
    public final BufferAllocator allocator = new RootAllocator();
    public SqlSandbox sandbox = SqlSandbox.open(new SqlSandbox.Limits(2, 256L << 20));
    private final Path dir;
    public Chronix engine;

    private final EngineConfig config;

    public SqlFixture(Path dir) {
        this(dir, config());
    }

    public SqlFixture(Path dir, EngineConfig config) {
        this.dir = dir;
        this.config = config;
        this.engine = Chronix.open(dir, config, scheduler);
    }

    public static EngineConfig config() {
        return EngineConfig.defaults().withClock(Clock.fixed(Instant.ofEpochSecond(T0 / SECOND + 86_400), ZoneOffset.UTC));
    }

    public void write(Consumer<PointBatch.Builder> points) {
        PointBatch.Builder b = PointBatch.builder();
        points.accept(b);
        engine.write(b.build());
    }

    /**
     * One random step between writes of {@code cpu} over four hourly shards from {@link #T0}: a
     * flush, a delete of host {@code a} over up to half an hour, a compaction, or nothing.
     */
    public void randomMaintenance(java.util.Random r) {
        switch (r.nextInt(4)) {
            case 0 -> engine.flush();
            case 1 -> {
                long from = T0 + r.nextInt(4 * 3600) * SECOND;
                engine.delete().measurement("cpu").tag("host", "a").range(from, from + r.nextInt(1800) * SECOND).execute();
            }
            case 2 -> engine.compact();
            default -> {
            }
        }
    }

    public void reopen() {
        engine.close();
        engine = Chronix.open(dir, config, scheduler);
    }

    public EngineTables tables() {
        return new EngineTables(engine);
    }

    /** An answer: columns as {@code name:type:nullable}, rows as {@link #render} prints them, and who answered. */
    public record Answer(List<String> columns, List<String> rows, SqlQuery.AnsweredBy by) {
    }

    /** Runs a statement and keeps its whole answer. */
    public Answer answer(String sql) {
        return answer(sql, tables());
    }

    /** Runs a statement over the given view of the engine (scan helpers, say) and keeps its whole answer. */
    public Answer answer(String sql, SqlQuery.Tables tables) {
        try (SqlQuery q = SqlQuery.prepare(sandbox, tables, sql, allocator)) {
            ArrowReader reader = q.execute();
            List<String> columns = new ArrayList<>();
            for (org.apache.arrow.vector.types.pojo.Field field : reader.getVectorSchemaRoot().getSchema().getFields()) {
                columns.add(field.getName() + ":" + field.getType() + ":" + field.isNullable());
            }
            return new Answer(columns, render(reader), q.answeredBy());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Runs a statement; rows as {@code a|b|c}. */
    public List<String> rows(String sql) {
        try (SqlQuery q = SqlQuery.prepare(sandbox, tables(), sql, allocator)) {
            return render(q.execute());
        }
    }

    public static List<String> render(ArrowReader reader) {
        List<String> out = new ArrayList<>();
        try {
            while (reader.loadNextBatch()) {
                VectorSchemaRoot root = reader.getVectorSchemaRoot();
                for (int r = 0; r < root.getRowCount(); r++) {
                    StringBuilder sb = new StringBuilder();
                    for (FieldVector v : root.getFieldVectors()) {
                        if (!sb.isEmpty()) {
                            sb.append('|');
                        }
                        Object o = v.isNull(r) ? null : v.getObject(r);
                        sb.append(o instanceof org.apache.arrow.vector.util.Text t ? t.toString() : String.valueOf(o));
                    }
                    out.add(sb.toString());
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    @Override
    public void close() {
        engine.close();
        sandbox.close();
        scheduler.close();
        long leaked = allocator.getAllocatedMemory();
        allocator.close();
        if (leaked != 0) {
            throw new AssertionError("Arrow memory leaked: " + leaked + " bytes");
        }
    }
}

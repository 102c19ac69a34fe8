package io.chronix.archive.parquet;

import io.chronix.engine.read.BatchListReader;
import io.chronix.engine.read.TagPredicate;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBResultSet;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes and reads cold-segment Parquet files through a <em>trusted</em> DuckDB instance of our own
 * — never the tenant-facing, locked-down one: only this class's statements run here, built from
 * paths we chose and identifiers we quote; values (tag values, time bounds) are bound parameters.
 *
 * <p>Writing: the rows arrive as Arrow batches, are registered as a stream (C Data Interface,
 * zero-copy) and copied out with {@code COPY … TO … (FORMAT parquet, COMPRESSION zstd,
 * ROW_GROUP_SIZE …, KV_METADATA …)} in the batches' order (DuckDB keeps insertion order). DuckDB
 * writes min/max statistics of every column chunk. Reading: {@code read_parquet} with the
 * projection, the time range and tag predicates in {@code WHERE} (DuckDB prunes row groups by
 * their statistics), answered as Arrow batches.
 *
 * <p>Threading: thread-safe; each call takes its own connection ({@code duplicate()}, microseconds).
 */
public final class ParquetCodec implements AutoCloseable {

    private static final int READ_BATCH_ROWS = 64 * 1024;

    private final DuckDBConnection root;
    private final int rowGroupRows;

    /**
     * @param threads DuckDB worker threads for writing and reading archives
     * @param rowGroupRows rows per Parquet row group
     * @param spillDir where DuckDB may spill, a directory we own
     */
    public ParquetCodec(int threads, int rowGroupRows, Path spillDir) {
        if (threads < 1 || rowGroupRows < 1024) {
            throw new IllegalArgumentException("bad codec settings [threads=" + threads + ", rowGroupRows=" + rowGroupRows + "]");
        }
        this.rowGroupRows = rowGroupRows;
        try {
            DuckDBConnection c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
            DuckDbLibrary.unlinkLoadedCopy();
            try (Statement s = c.createStatement()) {
                s.execute("SET threads = " + threads);
                s.execute("SET temp_directory = " + literal(spillDir.toAbsolutePath().toString()));
                s.execute("SET autoinstall_known_extensions = false");
                s.execute("SET autoload_known_extensions = false");
                s.execute("SET allow_community_extensions = false");
                s.execute("SET allow_persistent_secrets = false");
            } catch (SQLException | RuntimeException e) {
                c.close();
                throw e;
            }
            this.root = c;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot start the archive's DuckDB instance: " + e.getMessage(), e);
        }
    }

    /** A connection of the instance for trusted work on one thread (tests read archives through it). */
    public DuckDBConnection connect() throws SQLException {
        return root.duplicate();
    }

    public int rowGroupRows() {
        return rowGroupRows;
    }

    /**
     * Writes {@code batches} (all of {@code schema}, owned by the caller, allocated from
     * {@code allocator}) as a Parquet file at {@code target}.
     *
     * @param metadata key-value metadata for the file footer; keys are ours, values may be user
     *     strings (quoted here)
     */
    public void write(BufferAllocator allocator, Schema schema, List<VectorSchemaRoot> batches, Path target,
            Map<String, String> metadata) throws IOException {
        StringBuilder kv = new StringBuilder("{");
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            if (!e.getKey().matches("[a-z][a-z0-9_.]*")) {
                throw new IllegalArgumentException("metadata key must be an identifier of ours [key=" + e.getKey() + "]");
            }
            kv.append(kv.length() > 1 ? ", " : "").append('"').append(e.getKey()).append("\": ").append(literal(e.getValue()));
        }
        kv.append('}');
        String sql = "COPY (SELECT * FROM __chronix_segment) TO " + literal(target.toAbsolutePath().toString())
                + " (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE " + rowGroupRows + ", KV_METADATA " + kv + ")";
        try (DuckDBConnection c = root.duplicate();
             ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator)) {
            Data.exportArrayStream(allocator, new BatchListReader(allocator, schema, batches), stream);
            c.registerArrowStream("__chronix_segment", stream);
            try (Statement s = c.createStatement()) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IOException("writing Parquet failed [file=" + target + "]: " + e.getMessage(), e);
        }
    }

    /**
     * Reads {@code columns} of the Parquet file at {@code file}, rows with {@code from <= time <= to}
     * passing {@code tags} (predicates on columns not in {@code columns} are left to the caller),
     * and passes each batch to {@code sink}; a batch is valid only during that call.
     *
     * @param fileMin the file's smallest time, so a bound that excludes nothing is left out
     * @param fileMax the file's largest time
     */
    public void read(Path file, List<String> columns, long from, long to, long fileMin, long fileMax, List<TagPredicate> tags,
            BufferAllocator allocator, Consumer<VectorSchemaRoot> sink) throws IOException {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i > 0 ? ", " : "").append(identifier(columns.get(i)));
        }
        sql.append(" FROM read_parquet(").append(literal(file.toAbsolutePath().toString())).append(")");
        List<Object> params = new ArrayList<>();
        List<String> where = new ArrayList<>();
        if (from > fileMin) {
            where.add("\"time\" >= make_timestamp_ns(?)");
            params.add(from);
        }
        if (to < fileMax) {
            where.add("\"time\" <= make_timestamp_ns(?)");
            params.add(to);
        }
        for (TagPredicate p : tags) {
            if (!columns.contains(p.key())) {
                continue;
            }
            String col = identifier(p.key());
            switch (p) {
                case TagPredicate.Eq eq -> {
                    where.add(col + " = ?");
                    params.add(eq.value());
                }
                case TagPredicate.In in -> {
                    if (in.values().isEmpty()) {
                        where.add("false");
                    } else {
                        where.add(col + " IN (" + "?, ".repeat(in.values().size() - 1) + "?)");
                        params.addAll(in.values());
                    }
                }
                case TagPredicate.IsNull ignored -> where.add(col + " IS NULL");
            }
        }
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        try (DuckDBConnection c = root.duplicate();
             PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            try (DuckDBResultSet rs = (DuckDBResultSet) ps.executeQuery();
                 ArrowReader reader = (ArrowReader) rs.arrowExportStream(allocator, READ_BATCH_ROWS)) {
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot b = reader.getVectorSchemaRoot();
                    if (b.getRowCount() > 0) {
                        sink.accept(b);
                    }
                }
            }
        } catch (SQLException e) {
            throw new IOException("reading Parquet failed [file=" + file + "]: " + e.getMessage(), e);
        }
    }

    /** The footer's value of {@code key}, or null if the file has none. */
    public String footerValue(Path file, String key) throws IOException {
        String sql = "SELECT decode(value) FROM parquet_kv_metadata(" + literal(file.toAbsolutePath().toString()) + ") WHERE decode(key) = ?";
        try (DuckDBConnection c = root.duplicate(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new IOException("reading the Parquet footer failed [file=" + file + "]: " + e.getMessage(), e);
        }
    }

    /** A SQL string literal. */
    static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A quoted SQL identifier. */
    static String identifier(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }

    @Override
    public void close() {
        try {
            root.close();
        } catch (SQLException e) {
            throw new IllegalStateException("closing the archive's DuckDB instance failed: " + e.getMessage(), e);
        }
    }
}

package io.chronix.bench.live;

import io.chronix.bench.generator.Dataset;
import io.chronix.bench.generator.HostTags;
import io.chronix.bench.generator.TickSink;
import io.chronix.bench.generator.TsbsValueSets;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The reference: an in-memory DuckDB holding its own table {@code cpu} of the generated rows, with
 * the columns Chronix exposes for the measurement (docs/api.md, "Tables"): {@code time}
 * {@code TIMESTAMP_NS}, then the tags as {@code VARCHAR} by name, then the fields by name as
 * {@code BIGINT} (TSBS's integers) or {@code DOUBLE} ({@code --floats}) — so {@code SELECT *} names
 * the same columns in the same order. {@link LiveCommand} checks that order against the service's
 * {@code GET …/measurements/cpu}.
 *
 * <p>Filled through {@link #filler()}, a {@link TickSink} over DuckDB's appender. Not thread-safe:
 * one caller at a time.
 */
final class DuckDbReference implements AutoCloseable {

    private final DuckDBConnection connection;

    DuckDbReference() throws SQLException {
        connection = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:");
    }

    /** A sink that creates the table on {@code open} and appends every generated row to it. */
    TickSink filler() {
        return new Filler();
    }

    /** The table's columns in order, each {@code name TYPE}. */
    static List<String> columns(boolean integerFields) {
        List<String> out = new ArrayList<>();
        out.add("time TIMESTAMP_NS");
        TsbsValueSets.TAG_KEYS.stream().sorted().forEach(t -> out.add(t + " VARCHAR"));
        TsbsValueSets.FIELDS.stream().sorted().forEach(f -> out.add(f + (integerFields ? " BIGINT" : " DOUBLE")));
        return out;
    }

    private final class Filler implements TickSink {
        private DuckDBAppender appender;
        private List<HostTags> hosts;
        private boolean integers;
        /** {@code fieldOrder[i]}: index into {@link TsbsValueSets#FIELDS} of the i-th field column. */
        private int[] fieldOrder;
        /** {@code tagOrder[i]}: index into {@link TsbsValueSets#TAG_KEYS} of the i-th tag column. */
        private int[] tagOrder;

        @Override
        public void open(Dataset dataset) {
            hosts = dataset.hosts();
            integers = dataset.config().integerFields();
            tagOrder = TsbsValueSets.TAG_KEYS.stream().sorted().mapToInt(TsbsValueSets.TAG_KEYS::indexOf).toArray();
            fieldOrder = TsbsValueSets.FIELDS.stream().sorted().mapToInt(TsbsValueSets.FIELDS::indexOf).toArray();
            try (Statement s = connection.createStatement()) {
                s.execute("CREATE TABLE " + TsbsValueSets.MEASUREMENT + " (" + String.join(", ", columns(integers)) + ")");
                appender = connection.createAppender(TsbsValueSets.MEASUREMENT);
            } catch (SQLException e) {
                throw new IllegalStateException("creating the reference table: " + e.getMessage(), e);
            }
        }

        @Override
        public void tick(long timeNanos, double[][] values) {
            try {
                for (int h = 0; h < hosts.size(); h++) {
                    List<String> tags = hosts.get(h).values();
                    appender.beginRow().appendEpochNanos(timeNanos);
                    for (int t : tagOrder) {
                        appender.append(tags.get(t));
                    }
                    for (int f : fieldOrder) {
                        if (integers) {
                            appender.append((long) values[f][h]); // truncated, as the line protocol's 58i
                        } else {
                            appender.append(values[f][h]);
                        }
                    }
                    appender.endRow();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("appending to the reference table: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            try {
                appender.close();
            } catch (SQLException e) {
                throw new IllegalStateException("closing the reference table's appender: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /** Runs {@code sql} and reads every row into an {@link Answer}. */
    Answer query(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            List<String> names = new ArrayList<>(n);
            Answer.Kind[] kinds = new Answer.Kind[n];
            String[] types = new String[n];
            for (int c = 0; c < n; c++) {
                names.add(md.getColumnLabel(c + 1));
                types[c] = md.getColumnTypeName(c + 1);
                kinds[c] = Answer.kindOf(types[c]);
            }
            List<List<Object>> rows = new ArrayList<>();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int c = 0; c < n; c++) {
                    row.add(cell(rs, c + 1, kinds[c], types[c]));
                }
                rows.add(row);
            }
            return new Answer(names, rows);
        }
    }

    private static Object cell(ResultSet rs, int c, Answer.Kind kind, String type) throws SQLException {
        if (rs.getObject(c) == null) {
            return null;
        }
        return switch (kind) {
            case TIME -> type.toUpperCase().contains("TIME ZONE") || type.equalsIgnoreCase("TIMESTAMPTZ")
                    ? rs.getObject(c, OffsetDateTime.class).toInstant()
                    : rs.getObject(c, LocalDateTime.class).toInstant(ZoneOffset.UTC);
            case EXACT -> Answer.exact(rs.getString(c));
            case DOUBLE -> rs.getDouble(c);
            case BOOLEAN -> rs.getBoolean(c);
            case TEXT -> rs.getString(c);
        };
    }
}

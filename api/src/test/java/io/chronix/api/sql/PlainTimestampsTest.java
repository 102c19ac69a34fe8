package io.chronix.api.sql;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.OptionalLong;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java reading of plain timestamp literals must give exactly DuckDB's cast, or nothing: random
 * literals, well-formed and damaged, each compared with {@code epoch_ns(CAST(… AS type))} in DuckDB.
 */
class PlainTimestampsTest {

    @Test
    void plainLiteralsReadAsDuckDbCastsThemAndOthersAreLeftToDuckDb() throws SQLException {
        long seed = Long.getLong("chronix.test.seed", System.nanoTime());
        Random random = new Random(seed);
        int taken = 0;
        int left = 0;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            for (int i = 0; i < 3_000; i++) {
                String type = switch (random.nextInt(3)) {
                    case 0 -> "TIMESTAMP";
                    case 1 -> "DATETIME";
                    default -> "TIMESTAMP_NS";
                };
                String text = literal(random);
                OptionalLong ours = PlainTimestamps.epochNanos(text, type);
                OptionalLong duck = duckDb(c, text, type);
                if (ours.isPresent()) {
                    taken++;
                    assertThat(duck).as("seed %d: '%s' as %s", seed, text, type).isEqualTo(ours);
                } else {
                    left++;
                }
            }
        }
        // both branches must have been exercised, or the comparison proved little
        assertThat(taken).as("seed %d", seed).isGreaterThan(1_000);
        assertThat(left).as("seed %d", seed).isGreaterThan(100);
        assertThat(PlainTimestamps.epochNanos("2016-01-01T00:00:00.123456789", "TIMESTAMP")).isEmpty(); // DuckDB rounds: not ours
        assertThat(PlainTimestamps.epochNanos("2016-01-01 00:00:00", "DATE")).isEmpty();
        assertThat(PlainTimestamps.epochNanos("1970-01-01", "TIMESTAMP_NS")).hasValue(0);
    }

    /** Mostly plain literals, some with a zone, blanks, an impossible date, or a long fraction. */
    private static String literal(Random r) {
        int year = switch (r.nextInt(10)) {
            case 0 -> 1677 + r.nextInt(3); // near the edge of the nanosecond range
            case 1 -> 2261 + r.nextInt(3);
            default -> 1900 + r.nextInt(200);
        };
        String date = "%04d-%02d-%02d".formatted(year, 1 + r.nextInt(r.nextInt(20) == 0 ? 13 : 12), 1 + r.nextInt(r.nextInt(10) == 0 ? 31 : 28));
        StringBuilder sb = new StringBuilder(date);
        if (r.nextInt(6) != 0) {
            sb.append(r.nextBoolean() ? 'T' : ' ').append("%02d:%02d:%02d".formatted(r.nextInt(24), r.nextInt(60), r.nextInt(60)));
            if (r.nextBoolean()) {
                int digits = 1 + r.nextInt(r.nextInt(8) == 0 ? 10 : 9);
                sb.append('.');
                for (int d = 0; d < digits; d++) {
                    sb.append((char) ('0' + r.nextInt(10)));
                }
            }
        }
        switch (r.nextInt(12)) {
            case 0 -> sb.append('Z');
            case 1 -> sb.append("+02:00");
            case 2 -> sb.insert(0, ' ');
            case 3 -> sb.append(' ');
            default -> {
            }
        }
        return sb.toString();
    }

    private static OptionalLong duckDb(Connection c, String text, String type) {
        String cast = type.equals("TIMESTAMP_NS") ? "TIMESTAMP_NS" : "TIMESTAMP";
        try (PreparedStatement ps = c.prepareStatement("SELECT epoch_ns(CAST(CAST(?::VARCHAR AS " + cast + ") AS TIMESTAMP_NS))")) {
            ps.setString(1, text);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long v = rs.getLong(1);
                return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(v);
            }
        } catch (SQLException e) {
            return OptionalLong.empty();
        }
    }
}

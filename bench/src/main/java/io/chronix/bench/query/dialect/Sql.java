package io.chronix.bench.query.dialect;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Collectors;

/** Pieces of SQL text the SQL dialects share. */
final class Sql {
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    private Sql() {
    }

    /** {@code 'host_1', 'host_7'}: host names are generated ({@code host_N}), never user input. */
    static String quotedList(List<String> values) {
        return values.stream().map(v -> "'" + v.replace("'", "''") + "'").collect(Collectors.joining(", "));
    }

    /** {@code 2016-01-01 03:00:00[.fraction]}, UTC, no zone suffix. */
    static String plainTimestamp(Instant i) {
        String s = SECONDS.format(i);
        if (i.getNano() != 0) {
            s += String.format(".%09d", i.getNano());
        }
        return s;
    }

    static String aggregates(String function, String prefix, List<String> metrics) {
        return metrics.stream().map(m -> function + "(" + m + ") AS " + prefix + m).collect(Collectors.joining(", "));
    }
}

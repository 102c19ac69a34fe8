package io.chronix.api.sql;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Comparisons of {@code time} with a value that carries a time zone, made between instants. The
 * column is {@code TIMESTAMP_NS} (UTC), and DuckDB compares it with neither kind of zoned value
 * the way a user means it: a {@code TIMESTAMP WITH TIME ZONE} ({@code now()},
 * {@code current_timestamp}, {@code now() - INTERVAL '1 minute'}, {@code TIMESTAMPTZ '…'},
 * {@code to_timestamp(epoch)}) is refused ({@code Cannot compare values of type TIMESTAMP_NS and
 * type TIMESTAMP WITH TIME ZONE}), and a string with a zone offset ({@code '2016-01-01
 * 00:00:00+02'}) is cast to {@code TIMESTAMP_NS} with its offset dropped.
 *
 * <p>So the statement DuckDB runs has each such operand of a comparison ({@code = <> < <= > >=},
 * {@code BETWEEN}) with a column named {@code time} cast to the column's type through the instant
 * it names: {@code CAST((v) AS TIMESTAMP_NS)} for a zoned timestamp (exact: it is a whole
 * microsecond), {@code CAST(CAST((v) AS TIMESTAMPTZ_NS) AS TIMESTAMP_NS)} for a string whose
 * zoned reading differs from DuckDB's plain one (exact at the nanosecond). The session time zone is
 * UTC, so a string without a zone reads the same either way and is left as it is. Nothing else of
 * the text changes: the casts are inserted around the operand, and {@link Rewrite#original} maps a
 * position in the rewritten text (DuckDB's error positions) back to the statement's. An operand
 * whose extent in the text is not certain (a comment or parenthesis between the column and the
 * operator) is left as it is, and DuckDB answers as it would have.
 *
 * <p>The analysis reads such a string's bound the same way (its pushdown is the instant); a bound
 * computed from {@code now()} is never pushed down.
 */
final class ZonedTimes {

    static final String TIMESTAMPTZ = "TIMESTAMP WITH TIME ZONE";

    /** What DuckDB says of a statement's parts, on a connection of the sandbox. */
    interface Probe {
        /** True if DuckDB reads {@code text} as another instant through {@code TIMESTAMPTZ_NS} than through {@code TIMESTAMP_NS}. */
        boolean zonedString(String text);

        /** DuckDB's type of {@code expression} bound alone (nothing run), empty if it does not bind alone. */
        Optional<String> typeOf(String expression);
    }

    /** The statement DuckDB runs, and where text was inserted into the tenant's. */
    record Rewrite(String sql, int[] at, int[] length) {

        /** The position in {@link #sql} of {@code position} in the tenant's statement (not inside an inserted cast). */
        int rewritten(int position) {
            int shift = 0;
            for (int i = 0; i < at.length && at[i] <= position; i++) {
                shift += length[i];
            }
            return position + shift;
        }

        /** The position in the tenant's statement of {@code position} in {@link #sql}; -1 stays -1. */
        int original(int position) {
            if (position < 0) {
                return position;
            }
            int shift = 0;
            for (int i = 0; i < at.length; i++) {
                int start = at[i] + shift; // where insertion i begins in the rewritten text
                if (position < start) {
                    break;
                }
                if (position < start + length[i]) {
                    return at[i]; // inside inserted text: where it was inserted
                }
                shift += length[i];
            }
            return position - shift;
        }
    }

    private static final Set<String> COMPARISONS = Set.of("COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_LESSTHAN",
            "COMPARE_GREATERTHAN", "COMPARE_LESSTHANOREQUALTO", "COMPARE_GREATERTHANOREQUALTO");
    private static final List<String> OPERATORS = List.of(">=", "<=", "<>", "!=", "==", ">", "<", "=");
    /** Column references DuckDB binds to a function of the clock, not to a column. */
    private static final Set<String> CLOCK_NAMES = Set.of("current_timestamp", "current_date", "current_time", "localtimestamp",
            "localtime", "current_localtimestamp");
    private static final String ZONED_OPEN = "CAST((";
    private static final String ZONED_CLOSE = ") AS TIMESTAMP_NS)";
    private static final String STRING_OPEN = "CAST(CAST((";
    private static final String STRING_CLOSE = ") AS TIMESTAMPTZ_NS) AS TIMESTAMP_NS)";

    private ZonedTimes() {
    }

    /**
     * True if {@code node} compares a column named {@code time} with anything but a plain literal:
     * the statements worth {@link #rewrite}'s look (most compare with literals of the plain shape).
     */
    static boolean candidate(JsonNode node) {
        String cls = node.path("class").asString("");
        if (cls.equals("COMPARISON") && COMPARISONS.contains(node.path("type").asString(""))) {
            JsonNode l = node.path("left");
            JsonNode r = node.path("right");
            return (isTime(l) && !plain(r)) || (isTime(r) && !plain(l));
        }
        if (cls.equals("BETWEEN")) {
            return isTime(node.path("input")) && (!plain(node.path("lower")) || !plain(node.path("upper")));
        }
        return false;
    }

    /**
     * The statement with its zoned operands cast (see the class comment), or null if it has none.
     *
     * @param root DuckDB's parse tree of {@code sql} itself ({@code json_serialize_sql}, read), whose
     *             locations are byte offsets into {@code sql}
     */
    static Rewrite rewrite(String sql, JsonNode root, Probe probe) {
        List<int[]> inserts = new ArrayList<>(); // {at, kind}: kind 0 opens a zoned cast, 1 closes it, 2 and 3 a string's
        walk(sql, root, probe, inserts);
        if (inserts.isEmpty()) {
            return null;
        }
        inserts.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(closing(b[1]), closing(a[1])));
        StringBuilder out = new StringBuilder(sql.length() + inserts.size() * 20);
        int[] at = new int[inserts.size()];
        int[] length = new int[inserts.size()];
        int from = 0;
        for (int i = 0; i < inserts.size(); i++) {
            int[] ins = inserts.get(i);
            String text = switch (ins[1]) {
                case 0 -> ZONED_OPEN;
                case 1 -> ZONED_CLOSE;
                case 2 -> STRING_OPEN;
                default -> STRING_CLOSE;
            };
            out.append(sql, from, ins[0]).append(text);
            from = ins[0];
            at[i] = ins[0];
            length[i] = text.length();
        }
        out.append(sql, from, sql.length());
        return new Rewrite(out.toString(), at, length);
    }

    /** Closing casts before opening ones at the same place: {@code a) AS …)(CAST((b}. */
    private static int closing(int kind) {
        return kind % 2;
    }

    private static void walk(String sql, JsonNode node, Probe probe, List<int[]> inserts) {
        if (node.isArray()) {
            for (JsonNode child : node) {
                walk(sql, child, probe, inserts);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if (candidate(node)) {
            List<Operand> operands = operands(sql, node);
            operands.forEach(o -> cast(sql, o, probe, inserts));
            for (JsonNode other : others(node)) {
                Optional<String> string = string(other);
                if (operands.stream().noneMatch(o -> o.node() == other) && string.isPresent() && !plain(other)
                        && probe.zonedString(string.get())) {
                    // the analysis reads it as an instant, DuckDB would not: refused rather than answered two ways
                    throw new SqlErrorException("Not implemented Error", "a time with a zone offset can be compared with time"
                            + " only as `time <op> '…'` or `time BETWEEN '…' AND '…'` [literal='" + string.get() + "']",
                            offset(sql, other.path("query_location").asLong(-1)));
                }
            }
        }
        for (JsonNode child : node) {
            walk(sql, child, probe, inserts);
        }
    }

    /** The operands of a candidate comparison that are not {@code time}. */
    private static List<JsonNode> others(JsonNode node) {
        if (node.path("class").asString("").equals("BETWEEN")) {
            return List.of(node.path("lower"), node.path("upper"));
        }
        return List.of(isTime(node.path("left")) ? node.path("right") : node.path("left"));
    }

    /** An operand compared with {@code time}, and its extent {@code [from, to)} in the statement. */
    private record Operand(JsonNode node, int from, int to) {
    }

    private static void cast(String sql, Operand o, Probe probe, List<int[]> inserts) {
        if (plain(o.node()) || !closed(o.node())) {
            return;
        }
        Optional<String> string = string(o.node());
        if (string.isPresent()) {
            if (probe.zonedString(string.get())) {
                inserts.add(new int[]{o.from(), 2});
                inserts.add(new int[]{o.to(), 3});
            }
            return;
        }
        if (probe.typeOf(sql.substring(o.from(), o.to())).filter(TIMESTAMPTZ::equals).isPresent()) {
            inserts.add(new int[]{o.from(), 0});
            inserts.add(new int[]{o.to(), 1});
        }
    }

    /** The operands of a candidate comparison that are not {@code time}, with their extents; none where uncertain. */
    private static List<Operand> operands(String sql, JsonNode node) {
        List<Operand> found = new ArrayList<>();
        int start = offset(sql, node.path("query_location").asLong(-1));
        long length = node.path("query_location_length").asLong(-1);
        if (start < 0 || length <= 0) {
            return found;
        }
        int end = offset(sql, node.path("query_location").asLong(-1) + length);
        if (end < 0) {
            return found;
        }
        if (node.path("class").asString("").equals("BETWEEN")) {
            between(sql, node, start, end, found);
            return found;
        }
        JsonNode left = node.path("left");
        JsonNode right = node.path("right");
        int[] col = extent(sql, isTime(left) ? left : right);
        if (col == null) {
            return found;
        }
        if (isTime(left) && col[0] == start) {
            int p = skipOperator(sql, col[1], end);
            if (p > 0 && p < end) {
                found.add(new Operand(right, p, end));
            }
        } else if (isTime(right) && col[1] == end) {
            int p = operatorBefore(sql, start, col[0]);
            if (p > start) {
                found.add(new Operand(left, start, p));
            }
        }
        return found;
    }

    /** {@code [NOT] BETWEEN lower AND upper}: DuckDB's extent starts at the keyword and ends with {@code upper}. */
    private static void between(String sql, JsonNode node, int start, int end, List<Operand> found) {
        int p = word(sql, start, end, "NOT");
        p = word(sql, p < 0 ? start : skipBlanks(sql, p, end), end, "BETWEEN");
        if (p < 0) {
            return;
        }
        int lower = skipBlanks(sql, p, end);
        int and = topLevelAnd(sql, lower, end);
        if (and < 0) {
            return;
        }
        int lowerEnd = and;
        while (lowerEnd > lower && Character.isWhitespace(sql.charAt(lowerEnd - 1))) {
            lowerEnd--;
        }
        int upper = skipBlanks(sql, and + 3, end);
        if (lowerEnd > lower && upper < end) {
            found.add(new Operand(node.path("lower"), lower, lowerEnd));
            found.add(new Operand(node.path("upper"), upper, end));
        }
    }

    /** After {@code word} (any case, whole) at {@code p}; -1 if it is not there. */
    private static int word(String sql, int p, int end, String word) {
        int e = p + word.length();
        if (e > end || !sql.regionMatches(true, p, word, 0, word.length()) || (e < end && isWordChar(sql.charAt(e)))) {
            return -1;
        }
        return e;
    }

    /** The first {@code AND} outside parentheses and quotes in {@code [from, end)}; -1 if none. */
    private static int topLevelAnd(String sql, int from, int end) {
        int depth = 0;
        for (int i = from; i < end; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int close = sql.indexOf(c, i + 1);
                if (close < 0 || close >= end) {
                    return -1;
                }
                i = close; // a doubled quote inside is two strings, back to back: the same
            } else if (c == '-' && i + 1 < end && sql.charAt(i + 1) == '-' || c == '/' && i + 1 < end && sql.charAt(i + 1) == '*') {
                return -1; // a comment: not certain
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && (c == 'a' || c == 'A') && (i == from || !isWordChar(sql.charAt(i - 1))) && word(sql, i, end, "AND") > 0) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private static int skipBlanks(String sql, int p, int end) {
        while (p < end && Character.isWhitespace(sql.charAt(p))) {
            p++;
        }
        return p;
    }

    /** After the blanks, the operator and the blanks that follow {@code p}; -1 if anything else is there. */
    private static int skipOperator(String sql, int p, int end) {
        p = skipBlanks(sql, p, end);
        for (String op : OPERATORS) {
            if (sql.startsWith(op, p)) {
                return skipBlanks(sql, p + op.length(), end);
            }
        }
        return -1;
    }

    /** Where the operand before the operator that precedes {@code p} ends; -1 if anything else is there. */
    private static int operatorBefore(String sql, int start, int p) {
        while (p > start && Character.isWhitespace(sql.charAt(p - 1))) {
            p--;
        }
        for (String op : OPERATORS) {
            if (p - op.length() >= start && sql.startsWith(op, p - op.length())) {
                p -= op.length();
                while (p > start && Character.isWhitespace(sql.charAt(p - 1))) {
                    p--;
                }
                return p;
            }
        }
        return -1;
    }

    /** {@code [from, to)} of a node in the statement; null if DuckDB gave none. */
    private static int[] extent(String sql, JsonNode node) {
        long loc = node.path("query_location").asLong(-1);
        long len = node.path("query_location_length").asLong(-1);
        int from = offset(sql, loc);
        int to = len <= 0 ? -1 : offset(sql, loc + len);
        return from < 0 || to < 0 ? null : new int[]{from, to};
    }

    private static int offset(String sql, long byteOffset) {
        return byteOffset < 0 ? -1 : StatementAnalysis.charOffset(sql, byteOffset);
    }

    /** A reference to a column named {@code time}, however qualified or quoted. */
    private static boolean isTime(JsonNode e) {
        if (!"COLUMN_REF".equals(e.path("class").asString(""))) {
            return false;
        }
        JsonNode names = e.path("column_names");
        return !names.isEmpty() && names.get(names.size() - 1).asString("").equalsIgnoreCase("time");
    }

    /** A string literal of the plain shape, bare or cast to a timestamp without zone: read alike in any zone. */
    private static boolean plain(JsonNode e) {
        Optional<String> s = string(e);
        if (s.isEmpty() && "CAST".equals(e.path("class").asString("")) && !e.path("try_cast").asBoolean(false)) {
            String type = e.path("type_expr").path("type_name").asString("").toUpperCase(Locale.ROOT);
            if (type.equals("TIMESTAMP") || type.equals("TIMESTAMP_NS") || type.equals("DATETIME")) {
                s = string(e.path("child"));
            }
        }
        return s.isPresent() && PlainTimestamps.epochNanos(s.get(), "TIMESTAMP_NS").isPresent();
    }

    /** The text of a string constant (bare, or cast to {@code VARCHAR}). */
    private static Optional<String> string(JsonNode e) {
        if ("CAST".equals(e.path("class").asString("")) && e.path("type_expr").path("type_name").asString("").equalsIgnoreCase("VARCHAR")) {
            e = e.path("child");
        }
        if (!"CONSTANT".equals(e.path("class").asString("")) || !"STRING".equals(e.path("literal").path("kind").asString(""))) {
            return Optional.empty();
        }
        return Optional.of(e.path("literal").path("text").asString());
    }

    /** An expression that binds alone: no column but the clock's, no subquery, parameter or star. */
    private static boolean closed(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode child : node) {
                if (!closed(child)) {
                    return false;
                }
            }
            return true;
        }
        if (!node.isObject()) {
            return true;
        }
        String cls = node.path("class").asString("");
        switch (cls) {
            case "SUBQUERY", "PARAMETER", "STAR", "WINDOW", "LAMBDA", "COLUMNS", "POSITIONAL_REFERENCE" -> {
                return false;
            }
            case "COLUMN_REF" -> {
                JsonNode names = node.path("column_names");
                return names.size() == 1 && CLOCK_NAMES.contains(names.get(0).asString("").toLowerCase(Locale.ROOT));
            }
            default -> {
            }
        }
        for (JsonNode child : node) {
            if (!closed(child)) {
                return false;
            }
        }
        return true;
    }
}

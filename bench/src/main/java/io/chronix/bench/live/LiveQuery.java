package io.chronix.bench.live;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One statement of the live suite: a name and the SQL text, sent unchanged to Chronix and to DuckDB.
 * The set is the resource {@code queries.sql} beside this class: each statement follows a line
 * {@code -- name: <name>}; other comment lines are notes for the reader.
 *
 * @param name    short label for the tables
 * @param sql     the statement, without a trailing semicolon
 * @param ordered whether the statement has a top-level {@code ORDER BY}, so the row order is part of the answer
 */
public record LiveQuery(String name, String sql, boolean ordered) {

    private static final String RESOURCE = "queries.sql";
    private static final String NAME = "-- name:";

    /** The suite's statements, in the file's order. */
    public static List<LiveQuery> suite() {
        try (InputStream in = LiveQuery.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " missing beside " + LiveQuery.class.getName());
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Statements of a file in {@code queries.sql}'s format; a name given twice or a name without SQL is an error. */
    static List<LiveQuery> parse(String text) {
        List<LiveQuery> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        String name = null;
        StringBuilder sql = new StringBuilder();
        for (String line : (text + "\n" + NAME + " <end>").split("\n")) {
            String l = line.strip();
            if (l.startsWith(NAME)) {
                if (name != null) {
                    String s = sql.toString().strip();
                    s = s.endsWith(";") ? s.substring(0, s.length() - 1).strip() : s;
                    if (s.isEmpty()) {
                        throw new IllegalArgumentException("query '" + name + "' has no SQL");
                    }
                    if (!names.add(name)) {
                        throw new IllegalArgumentException("query name '" + name + "' given twice");
                    }
                    out.add(new LiveQuery(name, s, hasTopLevelOrderBy(s)));
                }
                name = l.substring(NAME.length()).strip();
                sql.setLength(0);
            } else if (name != null && !l.startsWith("--") && !l.isEmpty()) {
                sql.append(line.stripTrailing()).append('\n');
            }
        }
        return List.copyOf(out);
    }

    /**
     * Whether {@code ORDER BY} stands outside every parenthesis, string literal and quoted name:
     * the order of a window ({@code OVER (… ORDER BY …)}) or of a subquery does not order the answer.
     */
    static boolean hasTopLevelOrderBy(String sql) {
        String s = sql.toUpperCase(Locale.ROOT);
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                int end = s.indexOf(c, i + 1);
                i = end < 0 ? s.length() : end; // a doubled quote is two literals back to back: same outcome
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && s.startsWith("ORDER", i) && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)))) {
                int j = i + 5;
                if (j < s.length() && Character.isWhitespace(s.charAt(j))) {
                    while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
                        j++;
                    }
                    if (s.startsWith("BY", j) && (j + 2 == s.length() || !Character.isLetterOrDigit(s.charAt(j + 2)))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}

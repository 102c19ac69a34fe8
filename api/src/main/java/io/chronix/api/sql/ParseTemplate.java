package io.chronix.api.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement with its plain string literals replaced by markers of the same length, so that
 * statements differing only in those literals — a dashboard refreshed with a later time range, the
 * same panel for another host — share one parse by DuckDB. The tree of the template is the tree of
 * the statement once each marker is replaced by its literal: DuckDB's parser copies a string
 * literal's content into its constant node and reads nothing else of it, and because each marker
 * has its literal's length, every {@code query_location} in the tree (a byte offset) is the same
 * in both texts. {@link #fill} checks what it can: each marker must appear exactly once in the
 * tree, as a whole JSON string; otherwise the caller parses the statement itself.
 *
 * <p>Only what the scan below is sure of is templated: literals written {@code '…'} with no prefix
 * (not {@code E'…'}, {@code X'…'}), at least {@link #MIN_LENGTH} characters long, of characters that
 * JSON writes as they are ({@link #plain}). A statement with a comment or a {@code $} anywhere
 * outside a literal, or a quote left open, has no template.
 */
final class ParseTemplate {

    /** Shorter literals stay in the template: a marker needs room for its number and its delimiters. */
    static final int MIN_LENGTH = 6;

    private final String text;
    private final List<String> markers;
    private final List<String> values;

    private ParseTemplate(String text, List<String> markers, List<String> values) {
        this.text = text;
        this.markers = markers;
        this.values = values;
    }

    /** The text DuckDB parses in the statement's place. */
    String text() {
        return text;
    }

    int literals() {
        return values.size();
    }

    /**
     * The template of {@code sql}, or {@code null} if it has no literal to replace or a form the
     * scan does not follow.
     */
    static ParseTemplate of(String sql) {
        StringBuilder out = null;
        List<String> markers = new ArrayList<>();
        List<String> values = new ArrayList<>();
        int copied = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            switch (c) {
                case '\'' -> {
                    if (i > 0 && isIdentifierChar(sql.charAt(i - 1))) {
                        return null; // E'…', X'…', B'…', U&'…' and the like: other escape rules
                    }
                    int end = closingQuote(sql, i + 1);
                    if (end < 0) {
                        return null;
                    }
                    String content = sql.substring(i + 1, end);
                    String marker = content.length() >= MIN_LENGTH && plain(content) ? marker(values.size(), content.length()) : null;
                    if (marker != null) {
                        if (sql.contains(marker)) {
                            return null; // the statement names the marker itself: it could not be told apart
                        }
                        if (out == null) {
                            out = new StringBuilder(n);
                        }
                        out.append(sql, copied, i + 1).append(marker);
                        copied = end;
                        markers.add(marker);
                        values.add(content);
                    }
                    i = end;
                }
                case '"' -> {
                    int end = sql.indexOf('"', i + 1);
                    while (end >= 0 && end + 1 < n && sql.charAt(end + 1) == '"') {
                        end = sql.indexOf('"', end + 2);
                    }
                    if (end < 0) {
                        return null;
                    }
                    i = end;
                }
                case '-' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '-') {
                        return null;
                    }
                }
                case '/' -> {
                    if (i + 1 < n && sql.charAt(i + 1) == '*') {
                        return null;
                    }
                }
                case '$' -> {
                    return null; // dollar quoting
                }
                default -> {
                }
            }
        }
        if (out == null) {
            return null;
        }
        out.append(sql, copied, n);
        return new ParseTemplate(out.toString(), List.copyOf(markers), List.copyOf(values));
    }

    /**
     * {@code tree} (DuckDB's parse of {@link #text()}) with each marker replaced by its literal, or
     * {@code null} if it is an error, or a marker is not in it exactly once as a whole JSON string.
     */
    String fill(String tree) {
        if (tree.contains("\"error\":true")) {
            return null; // DuckDB refused the template: the statement's own error names its own text
        }
        // where each marker's JSON string starts, as {position, literal}, in tree order
        long[] at = new long[markers.size()];
        for (int k = 0; k < markers.size(); k++) {
            String quoted = '"' + markers.get(k) + '"';
            int first = tree.indexOf(quoted);
            if (first < 0 || tree.indexOf(quoted, first + 1) >= 0) {
                return null;
            }
            at[k] = (long) first << 32 | k;
        }
        java.util.Arrays.sort(at);
        StringBuilder out = new StringBuilder(tree.length());
        int copied = 0;
        for (long a : at) {
            int position = (int) (a >>> 32);
            int k = (int) a;
            out.append(tree, copied, position + 1).append(values.get(k));
            copied = position + 1 + markers.get(k).length();
        }
        out.append(tree, copied, tree.length());
        return out.toString();
    }

    /**
     * Literal {@code k} of {@code length} characters: {@code ~k~} then filler, unlike any value a
     * statement holds by chance; {@code null} if {@code ~k~} does not fit (the literal stays).
     */
    private static String marker(int k, int length) {
        String head = "~" + k + "~";
        if (head.length() > length) {
            return null;
        }
        StringBuilder m = new StringBuilder(length).append(head);
        for (int i = m.length(); i < length; i++) {
            m.append(FILLER.charAt(i % FILLER.length()));
        }
        return m.toString();
    }

    private static final String FILLER = "qZxJvKwQ";

    /** Whether DuckDB writes {@code s} into JSON as it is: letters, digits, space and {@code _:.+-}. */
    static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == ' ' || c == '_' || c == ':' || c == '.' || c == '+' || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIdentifierChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '&';
    }

    /** The index of the quote ending a literal whose content starts at {@code from} ({@code ''} is a quote inside it), or -1. */
    private static int closingQuote(String sql, int from) {
        int i = from;
        while (true) {
            int q = sql.indexOf('\'', i);
            if (q < 0) {
                return -1;
            }
            if (q + 1 < sql.length() && sql.charAt(q + 1) == '\'') {
                i = q + 2;
                continue;
            }
            return q;
        }
    }
}

package io.chronix.api.sql;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A statement with its plain string literals replaced by markers, so that statements differing
 * only in those literals — a dashboard refreshed with a later time range, the same panel for
 * another host, {@code 'host_7'} or {@code 'host_123'} — share one parse by DuckDB. Every marker
 * has the same length ({@link #MIN_LENGTH}), whatever its literal's, so one template serves them
 * all. The tree of the template is the tree of the statement once each marker is replaced by its
 * literal and each {@code query_location} (a byte offset into the text) and its length are moved
 * by what the literals before them added or took away: DuckDB's parser copies a string literal's
 * content into its constant node and reads nothing else of it. {@link #fill} checks what it can:
 * each marker must appear exactly once in the tree, as a whole JSON string; otherwise the caller
 * parses the statement itself.
 *
 * <p>Only what the scan below is sure of is templated: literals written {@code '…'} with no prefix
 * (not {@code E'…'}, {@code X'…'}), at least {@link #MIN_LENGTH} characters long, of characters that
 * JSON writes as they are ({@link #plain}). A statement with a comment or a {@code $} anywhere
 * outside a literal, or a quote left open, has no template.
 */
final class ParseTemplate {

    /**
     * The length of every marker; shorter literals stay in the template. A marker needs room for
     * its number and its delimiters: a statement's 1,000th literal and later ones stay too.
     */
    static final int MIN_LENGTH = 6;

    private static final String LOCATION_KEY = "\"query_location\":";
    private static final String LENGTH_KEY = ",\"query_location_length\":";

    private final String text;
    private final List<String> markers;
    private final List<String> values;
    /** Where each marker's content starts in {@link #text}, in UTF-8 bytes (DuckDB's offsets), ascending. */
    private final int[] markerBytes;
    /** Each marker's literal's length less the marker's, in the order of {@link #markerBytes}. */
    private final int[] shifts;

    private ParseTemplate(String text, List<String> markers, List<String> values, int[] markerBytes, int[] shifts) {
        this.text = text;
        this.markers = markers;
        this.values = values;
        this.markerBytes = markerBytes;
        this.shifts = shifts;
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
        List<int[]> places = new ArrayList<>(); // {byte offset of the marker's content, shift}
        long bytes = 0; // UTF-8 bytes of out so far
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
                    String marker = content.length() >= MIN_LENGTH && plain(content) ? marker(values.size()) : null;
                    if (marker != null) {
                        if (sql.contains(marker)) {
                            return null; // the statement names the marker itself: it could not be told apart
                        }
                        if (out == null) {
                            out = new StringBuilder(n);
                        }
                        bytes += utf8Length(sql, copied, i + 1);
                        if (bytes > Integer.MAX_VALUE) {
                            return null;
                        }
                        places.add(new int[] {(int) bytes, content.length() - marker.length()});
                        out.append(sql, copied, i + 1).append(marker);
                        bytes += marker.length();
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
        int[] markerBytes = new int[places.size()];
        int[] shifts = new int[places.size()];
        for (int k = 0; k < markerBytes.length; k++) {
            markerBytes[k] = places.get(k)[0];
            shifts[k] = places.get(k)[1];
        }
        return new ParseTemplate(out.toString(), List.copyOf(markers), List.copyOf(values), markerBytes, shifts);
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
        return moveLocations(out.toString());
    }

    /**
     * {@code tree} with each {@code query_location} (a byte offset into the template) and the
     * {@code query_location_length} after it made a span of the statement: each end moved by the
     * shift of every marker whose content starts before it. DuckDB's "no location" (2^64 - 1) and
     * anything else too long to be an offset into a statement stay as they are. The keys cannot
     * occur inside a JSON string (their quotes would be escaped there).
     */
    private String moveLocations(String tree) {
        boolean any = false;
        for (int shift : shifts) {
            any |= shift != 0;
        }
        if (!any) {
            return tree;
        }
        StringBuilder out = new StringBuilder(tree.length() + 64);
        int copied = 0;
        int key;
        while ((key = tree.indexOf(LOCATION_KEY, copied)) >= 0) {
            int start = key + LOCATION_KEY.length();
            int end = numberEnd(tree, start);
            out.append(tree, copied, start);
            copied = start;
            if (end < 0) {
                continue;
            }
            long location = Long.parseLong(tree, start, end, 10);
            out.append(moved(location));
            copied = end;
            if (tree.startsWith(LENGTH_KEY, end)) {
                int from = end + LENGTH_KEY.length();
                int to = numberEnd(tree, from);
                if (to >= 0) {
                    long length = Long.parseLong(tree, from, to, 10);
                    out.append(LENGTH_KEY).append(moved(location + length) - moved(location));
                    copied = to;
                }
            }
        }
        out.append(tree, copied, tree.length());
        return out.toString();
    }

    /**
     * DuckDB's tree of a template's text, read once and shared by every statement of the template:
     * never modified ({@link #bind} copies what it changes). Usable when each marker is exactly one
     * whole string of it and no other string or name contains one.
     */
    static final class Tree {
        private final JsonNode root;
        /** Per marker, the names and indices from the root to its string; null when not usable. */
        private final Object[][] paths;
        private final int chars;

        private Tree(JsonNode root, Object[][] paths, int chars) {
            this.root = root;
            this.paths = paths;
            this.chars = chars;
        }

        /** The characters of the answer it was read from, to weigh a kept tree by. */
        int chars() {
            return chars;
        }
    }

    /** {@code serialized}, DuckDB's parse of {@link #text()}, read for {@link #bind}. */
    Tree tree(String serialized) {
        JsonNode root = StatementAnalysis.read(serialized);
        if (root.path("error").asBoolean(false)) {
            return new Tree(root, null, serialized.length()); // the statement's own error names its own text
        }
        Object[][] paths = new Object[markers.size()][];
        boolean usable = find(root, new ArrayList<>(), paths);
        for (Object[] p : paths) {
            usable &= p != null;
        }
        return new Tree(root, usable ? paths : null, serialized.length());
    }

    /** Records where each marker is under {@code node}; false if one is there twice, or inside a longer string or a name. */
    private boolean find(JsonNode node, List<Object> path, Object[][] paths) {
        boolean ok = true;
        if (node.isObject()) {
            for (java.util.Map.Entry<String, JsonNode> e : node.properties()) {
                ok &= !holdsMarker(e.getKey());
                path.add(e.getKey());
                ok &= find(e.getValue(), path, paths);
                path.removeLast();
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                path.add(i);
                ok &= find(node.get(i), path, paths);
                path.removeLast();
            }
        } else if (node.isString()) {
            String s = node.asString();
            int k = markers.indexOf(s);
            if (k >= 0) {
                ok &= paths[k] == null;
                paths[k] = path.toArray();
            } else {
                ok &= !holdsMarker(s);
            }
        }
        return ok;
    }

    private boolean holdsMarker(String s) {
        if (s.indexOf('~') < 0) {
            return false;
        }
        for (String m : markers) {
            if (s.contains(m)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The statement's tree: {@code tree} with each marker's string replaced by its literal, as
     * {@link #fill} does to the text, built by copying only the objects and arrays on the way from
     * the root to each literal (a few dozen, where reading the statement's whole answer builds
     * hundreds); the rest is shared with {@code tree}. Its {@code query_location}s are the
     * template's: {@link #moved} turns them into the statement's. Null if {@code tree} is not usable.
     */
    JsonNode bind(Tree tree) {
        if (tree.paths == null || tree.paths.length != values.size()) {
            return null;
        }
        java.util.Set<JsonNode> copies = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        JsonNode root = tree.root;
        for (int k = 0; k < values.size(); k++) {
            root = withString(root, tree.paths[k], 0, values.get(k), copies);
        }
        return root;
    }

    /** {@code node} with the string at {@code path[depth..]} replaced by {@code value}; nodes in {@code copies} are this bind's own. */
    private static JsonNode withString(JsonNode node, Object[] path, int depth, String value, java.util.Set<JsonNode> copies) {
        if (depth == path.length) {
            return JsonNodeFactory.instance.stringNode(value);
        }
        if (node instanceof ObjectNode o) {
            String name = (String) path[depth];
            ObjectNode copy = copies.contains(o) ? o : JsonNodeFactory.instance.objectNode().setAll(o);
            copies.add(copy);
            copy.set(name, withString(o.get(name), path, depth + 1, value, copies));
            return copy;
        }
        ArrayNode a = (ArrayNode) node;
        int index = (Integer) path[depth];
        ArrayNode copy = copies.contains(a) ? a : JsonNodeFactory.instance.arrayNode(a.size()).addAll(a);
        copies.add(copy);
        copy.set(index, withString(a.get(index), path, depth + 1, value, copies));
        return copy;
    }

    /** Template offset {@code at} as an offset into the statement. */
    long moved(long at) {
        long moved = at;
        for (int k = 0; k < markerBytes.length && markerBytes[k] < at; k++) {
            moved += shifts[k];
        }
        return moved;
    }

    /** The end of the number of at most 9 digits starting at {@code from}, or -1 if there is none such. */
    private static int numberEnd(CharSequence s, int from) {
        int end = from;
        while (end < s.length() && end - from < 10 && Character.isDigit(s.charAt(end))) {
            end++;
        }
        return end == from || end - from == 10 ? -1 : end;
    }

    /** UTF-8 bytes of {@code s[from, to)} (a lone surrogate counted as the 3 bytes of its replacement). */
    private static long utf8Length(String s, int from, int to) {
        long bytes = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * The marker of literal {@code k}, {@link #MIN_LENGTH} characters: {@code ~k~} then filler,
     * unlike any value a statement holds by chance; {@code null} if {@code ~k~} does not fit (the
     * literal stays).
     */
    private static String marker(int k) {
        String head = "~" + k + "~";
        if (head.length() > MIN_LENGTH) {
            return null;
        }
        StringBuilder m = new StringBuilder(MIN_LENGTH).append(head);
        for (int i = m.length(); i < MIN_LENGTH; i++) {
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

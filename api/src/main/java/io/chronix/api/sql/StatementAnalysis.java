package io.chronix.api.sql;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.read.FieldPredicate;
import io.chronix.engine.read.TagPredicate;
import io.chronix.engine.schema.Column;
import io.chronix.engine.schema.MeasurementSchema;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;

/**
 * What a statement reads, from DuckDB's own parse tree ({@code json_serialize_sql}), never from a
 * parser of ours: the measurements it names, and for each a {@link ScanPlan} — the time range and
 * tag predicates of the {@code WHERE} conjuncts that bind to it, and the columns it references.
 *
 * <p>Pushed: in a {@code SELECT} whose {@code FROM} is a single measurement, top-level
 * {@code AND} conjuncts {@code time <op> literal} (op {@code = < <= > >=}, either side,
 * {@code BETWEEN}; the literal a string, optionally cast to {@code TIMESTAMP},
 * {@code TIMESTAMP_NS} or {@code TIMESTAMPTZ}; a bare string with a zone read as the instant it
 * names, as the statement DuckDB runs reads it: {@link ZonedTimes}), {@code tag = 'v'}, {@code tag IN ('v', …)}, {@code tag IS NULL}, and
 * {@code field <op> number} or {@code field BETWEEN number AND number} on a numeric field (a range
 * the engine applies where no newer row can replace the one it leaves out).
 * Nothing under {@code OR}/{@code NOT}, nothing in a join (those scans get the whole time range).
 * Literals become nanoseconds through DuckDB's own cast ({@link TimestampLiterals}), and the range
 * is exactly what DuckDB keeps: it compares a {@code TIMESTAMP} literal with the {@code
 * TIMESTAMP_NS} column by casting the literal up, never the column down. Projection: every column
 * name any column reference, {@code USING} list or tag predicate mentions; a {@code *}, a natural
 * join or a column alias list means every column.
 *
 * <p>A table name that is neither a measurement nor a CTE of the statement is an error naming it
 * (so other namespaces, DuckDB's catalogs and schema-qualified names are refused before running),
 * and so is a function that reads the instance rather than the statement's rows
 * ({@link TenantFunctions}: {@code duckdb_settings()}, {@code current_setting}, {@code query('…')}…).
 * Names resolve as DuckDB resolves them: exact match first, else the one case-insensitive match.
 */
public final class StatementAnalysis {

    /**
     * Turns a timestamp literal into epoch nanoseconds the way DuckDB casts it to {@code castType}
     * ({@code TIMESTAMP}, {@code DATETIME}, {@code TIMESTAMP_NS}, {@code TIMESTAMPTZ}; {@code VARCHAR}
     * for a bare string compared with {@code time}, which is read through its zone if it has one:
     * {@link ZonedTimes}); empty if it does not.
     */
    public interface TimestampLiterals {
        OptionalLong epochNanos(String text, String castType);
    }

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final String NO_LOCATION = "\"query_location\":18446744073709551615";

    private final String sql;
    /** The tree's {@code query_location} as a byte offset into {@link #sql} ({@link StatementTree}). */
    private final java.util.function.LongUnaryOperator location;
    private final Function<String, Optional<MeasurementSchema>> schemas;
    private final Set<String> measurements;
    private final TimestampLiterals literals;

    private final Map<String, ScanPlan> plans = new LinkedHashMap<>();
    private final Map<String, Integer> references = new LinkedHashMap<>();
    private final List<Site> sites = new ArrayList<>();
    private final Set<String> cteNames = new HashSet<>();
    private final Set<String> referencedColumns = new HashSet<>();
    private final IdentityHashMap<JsonNode, ScanPlan> pushed = new IdentityHashMap<>();
    private boolean everyColumn;
    /** Some comparison of {@code time} is with something other than a plain literal ({@link ZonedTimes#candidate}). */
    private boolean zonedTime;

    private StatementAnalysis(String sql, java.util.function.LongUnaryOperator location, Set<String> measurements,
                              Function<String, Optional<MeasurementSchema>> schemas, TimestampLiterals literals) {
        this.sql = sql;
        this.location = location;
        this.measurements = measurements;
        this.schemas = schemas;
        this.literals = literals;
    }

    /**
     * The outcome: per measurement, the scan serving every reference, and how often it is referenced.
     *
     * @param sites where the statement names a measurement, in the order of the tree: one per
     *     reference that resolves to a measurement (a name that is a CTE's too is a reference
     *     without a site)
     * @param zonedTime true if some comparison of {@code time} may be with a zoned value, for
     *     {@link ZonedTimes#rewrite} to look at
     */
    public record Result(Map<String, ScanPlan> plans, Map<String, Integer> references, boolean hasCtes, List<Site> sites,
                         boolean zonedTime) {
        public Result {
            plans = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(plans));
            references = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(references));
            sites = List.copyOf(sites);
        }
    }

    /**
     * One place the statement names a measurement as a table.
     *
     * @param position the character offset of the name in the statement; -1 if DuckDB gave none
     * @param aliased  whether the reference has an alias of its own ({@code FROM cpu c})
     */
    public record Site(String measurement, int position, boolean aliased) {
    }

    /**
     * DuckDB's parse tree of a statement ({@code json_serialize_sql}), read, and what turns the
     * byte offsets in its {@code query_location}s into offsets into the statement: the identity for
     * a tree of the statement itself, a shift for one bound from a template's
     * ({@link ParseTemplate#bind}), whose locations are the template's. The tree is only read.
     */
    public record StatementTree(JsonNode root, java.util.function.LongUnaryOperator location) {
        /** The tree of {@code json_serialize_sql}'s answer for the statement itself. */
        public static StatementTree of(String serialized) {
            return new StatementTree(read(serialized), java.util.function.LongUnaryOperator.identity());
        }
    }

    /** {@code json_serialize_sql}'s answer as a tree. */
    static JsonNode read(String serialized) {
        // DuckDB writes "no location" as 2^64 - 1, which the tree parser would read into a BigInteger
        // (a measurable part of a small query's analysis); -1 means the same to charOffset
        return JSON.readTree(serialized.replace(NO_LOCATION, "\"query_location\":-1"));
    }

    /**
     * @param serialized   the answer of {@code json_serialize_sql(sql)}
     * @param measurements the namespace's measurement names
     * @throws SqlErrorException for a syntax error, not exactly one statement, a statement other
     *                           than a query, or an unknown table
     */
    public static Result analyse(String sql, String serialized, Set<String> measurements,
                                 Function<String, Optional<MeasurementSchema>> schemas, TimestampLiterals literals) {
        return analyse(sql, StatementTree.of(serialized), measurements, schemas, literals);
    }

    /** {@link #analyse(String, String, Set, Function, TimestampLiterals)} of a tree already read. */
    public static Result analyse(String sql, StatementTree tree, Set<String> measurements,
                                 Function<String, Optional<MeasurementSchema>> schemas, TimestampLiterals literals) {
        JsonNode root = tree.root();
        if (root.path("error").asBoolean(false)) {
            String type = root.path("error_type").asString("");
            String message = root.path("error_message").asString("invalid statement");
            if (type.equals("not implemented") && message.startsWith("Only SELECT")) {
                throw new SqlErrorException("Statement Error", "only queries (SELECT, WITH, FROM, VALUES …) can be run here", -1);
            }
            int position = root.has("position") ? charOffset(sql, root.path("position").asInt(-1)) : -1;
            throw new SqlErrorException(type.isEmpty() ? "Parser Error" : capitalised(type) + " Error", message, position);
        }
        JsonNode statements = root.path("statements");
        if (statements.size() != 1) {
            throw new SqlErrorException("Statement Error", "exactly one statement per query [statements=" + statements.size() + "]", -1);
        }
        StatementAnalysis a = new StatementAnalysis(sql, tree.location(), measurements, schemas, literals);
        a.collect(statements.get(0));
        a.walk(statements.get(0));
        if (a.everyColumn) {
            a.plans.replaceAll((m, p) -> p.withColumns(Set.of()));
        } else {
            a.plans.replaceAll((m, p) -> p.columns().isEmpty() ? p : a.projected(p));
        }
        return new Result(a.plans, a.references, !a.cteNames.isEmpty(), a.sites, a.zonedTime);
    }

    /** First pass: CTE names, column names, anything that forces every column. */
    private void collect(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode child : node) {
                collect(child);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        String cls = node.path("class").asString("");
        if ("TABLE_FUNCTION".equals(node.path("type").asString(""))) {
            String name = node.path("function").path("function_name").asString("");
            TenantFunctions.refusedTableFunction(name).ifPresent(why -> refuse(why, node));
        } else if (cls.equals("FUNCTION")) {
            TenantFunctions.refusedFunction(node.path("function_name").asString("")).ifPresent(why -> refuse(why, node));
        }
        zonedTime |= ZonedTimes.candidate(node);
        if (cls.equals("STAR")) {
            everyColumn = true;
        } else if (cls.equals("COLUMN_REF")) {
            for (JsonNode n : node.path("column_names")) {
                referencedColumns.add(n.asString().toLowerCase(Locale.ROOT));
            }
        }
        if ("NATURAL".equals(node.path("ref_type").asString(""))) {
            everyColumn = true;
        }
        for (JsonNode n : node.path("using_columns")) {
            referencedColumns.add(n.asString().toLowerCase(Locale.ROOT));
        }
        JsonNode ctes = node.path("cte_map").path("map");
        for (JsonNode e : ctes) {
            cteNames.add(e.path("key").asString("").toLowerCase(Locale.ROOT));
        }
        for (JsonNode child : node) {
            collect(child);
        }
    }

    /** A function tenant SQL may not call ({@link TenantFunctions}), at the node's position. */
    private void refuse(String why, JsonNode node) {
        throw new SqlErrorException("Permission Error", why, charOffset(sql, location.applyAsLong(node.path("query_location").asLong(-1))));
    }

    /** Second pass: table references, with pushdown where a SELECT reads one measurement. */
    private void walk(JsonNode node) {
        if (node.isArray()) {
            for (JsonNode child : node) {
                walk(child);
            }
            return;
        }
        if (!node.isObject()) {
            return;
        }
        if ("SELECT_NODE".equals(node.path("type").asString(""))) {
            JsonNode from = node.path("from_table");
            if ("BASE_TABLE".equals(from.path("type").asString(""))) {
                resolve(from).ifPresent(m -> {
                    ScanPlan plan = pushdown(m, from, node.path("where_clause"));
                    if (plan.to() == Long.MAX_VALUE && newestPerSeries(node, m, from)) {
                        plan = plan.keepingNewestOnly();
                    }
                    pushed.put(from, plan);
                });
            }
        }
        if ("BASE_TABLE".equals(node.path("type").asString("")) && node.has("table_name")) {
            reference(node);
        }
        for (JsonNode child : node) {
            walk(child);
        }
    }

    private void reference(JsonNode table) {
        Optional<String> m = resolve(table);
        if (m.isEmpty()) {
            return; // a CTE
        }
        ScanPlan plan = pushed.getOrDefault(table, ScanPlan.everything(m.get()));
        if (table.path("column_name_alias").size() > 0) {
            plan = plan.withColumns(Set.of()); // positional renames
        } else if (plan.columns().isEmpty() && !pushed.containsKey(table)) {
            plan = plan.withColumns(Set.of(Column.TIME)); // marks "projected"
        }
        plans.merge(m.get(), plan, ScanPlan::union);
        references.merge(m.get(), 1, Integer::sum);
        sites.add(new Site(m.get(), charOffset(sql, location.applyAsLong(table.path("query_location").asLong(-1))),
                !table.path("alias").asString("").isEmpty()));
    }

    /** The measurement a base-table reference names; empty for a CTE; an error for anything else. */
    private Optional<String> resolve(JsonNode table) {
        String name = table.path("table_name").asString("");
        String schema = table.path("schema_name").asString("");
        String catalog = table.path("catalog_name").asString("");
        int position = charOffset(sql, location.applyAsLong(table.path("query_location").asLong(-1)));
        if (!schema.isEmpty() || !catalog.isEmpty()) {
            String shown = (catalog.isEmpty() ? "" : catalog + ".") + (schema.isEmpty() ? "" : schema + ".") + name;
            throw new SqlErrorException("Catalog Error", "unknown measurement '" + shown + "' (measurements are not schema-qualified)", position);
        }
        Optional<String> measurement = measurementNamed(name);
        if (cteNames.contains(name.toLowerCase(Locale.ROOT))) {
            // a CTE; if a measurement has the name too, the CTE's own body may read it: keep it whole
            measurement.ifPresent(m -> {
                plans.merge(m, ScanPlan.everything(m), ScanPlan::union);
                references.merge(m, 1, Integer::sum);
            });
            return Optional.empty();
        }
        if (measurement.isEmpty()) {
            throw new SqlErrorException("Catalog Error", "unknown measurement '" + name + "'", position);
        }
        return measurement;
    }

    private Optional<String> measurementNamed(String name) {
        if (measurements.contains(name)) {
            return Optional.of(name);
        }
        String found = null;
        for (String m : measurements) {
            if (m.equalsIgnoreCase(name)) {
                if (found != null) {
                    return Optional.empty();
                }
                found = m;
            }
        }
        return Optional.ofNullable(found);
    }

    private ScanPlan pushdown(String measurement, JsonNode table, JsonNode where) {
        MeasurementSchema schema = schemas.apply(measurement).orElse(null);
        if (schema == null) {
            return ScanPlan.everything(measurement);
        }
        String qualifier = qualifier(table);
        List<JsonNode> conjuncts = new ArrayList<>();
        flattenAnd(where, conjuncts);
        long from = Long.MIN_VALUE;
        long to = Long.MAX_VALUE;
        Map<String, TagPredicate> tags = new LinkedHashMap<>();
        Map<String, FieldPredicate> fields = new LinkedHashMap<>();
        for (JsonNode c : conjuncts) {
            String cls = c.path("class").asString("");
            String type = c.path("type").asString("");
            if (cls.equals("COMPARISON")) {
                Comparison cmp = Comparison.of(c);
                JsonNode right = cmp.value();
                String op = cmp.op();
                Optional<Column> col = column(cmp.column(), qualifier, schema);
                if (col.isEmpty() || op == null) {
                    continue;
                }
                if (col.get().kind() == Column.Kind.TIME) {
                    long[] range = timeRange(op, right);
                    from = Math.max(from, range[0]);
                    to = Math.min(to, range[1]);
                } else if (col.get().kind() == Column.Kind.TAG && op.equals("COMPARE_EQUAL")) {
                    stringLiteral(right).ifPresent(v -> tags.putIfAbsent(col.get().name(), new TagPredicate.Eq(col.get().name(), v)));
                } else if (numeric(col.get())) {
                    fieldRange(col.get().name(), op, right).ifPresent(r -> fields.merge(r.field(), r, FieldPredicate::and));
                }
            } else if (cls.equals("BETWEEN")) {
                Optional<Column> col = column(c.path("input"), qualifier, schema);
                if (col.isPresent() && col.get().kind() == Column.Kind.TIME) {
                    from = Math.max(from, timeRange("COMPARE_GREATERTHANOREQUALTO", c.path("lower"))[0]);
                    to = Math.min(to, timeRange("COMPARE_LESSTHANOREQUALTO", c.path("upper"))[1]);
                } else if (col.isPresent() && numeric(col.get())) {
                    Optional<FieldPredicate> lo = fieldRange(col.get().name(), "COMPARE_GREATERTHANOREQUALTO", c.path("lower"));
                    Optional<FieldPredicate> hi = fieldRange(col.get().name(), "COMPARE_LESSTHANOREQUALTO", c.path("upper"));
                    if (lo.isPresent() && hi.isPresent()) {
                        fields.merge(col.get().name(), lo.get().and(hi.get()), FieldPredicate::and);
                    }
                }
            } else if (type.equals("COMPARE_IN") && c.path("children").size() >= 2) {
                JsonNode children = c.path("children");
                Optional<Column> col = column(children.get(0), qualifier, schema);
                if (col.isEmpty() || col.get().kind() != Column.Kind.TAG) {
                    continue;
                }
                Set<String> values = new LinkedHashSet<>();
                boolean allStrings = true;
                for (int i = 1; i < children.size(); i++) {
                    Optional<String> v = stringLiteral(children.get(i));
                    if (v.isEmpty()) {
                        allStrings = false;
                        break;
                    }
                    values.add(v.get());
                }
                if (allStrings) {
                    tags.putIfAbsent(col.get().name(), new TagPredicate.In(col.get().name(), values));
                }
            } else if (type.equals("OPERATOR_IS_NULL") && c.path("children").size() == 1) {
                Optional<Column> col = column(c.path("children").get(0), qualifier, schema);
                if (col.isPresent() && col.get().kind() == Column.Kind.TAG) {
                    tags.putIfAbsent(col.get().name(), new TagPredicate.IsNull(col.get().name()));
                }
            }
        }
        return new ScanPlan(measurement, from, to, List.copyOf(tags.values()), Set.of(Column.TIME))
                .withFields(List.copyOf(fields.values()));
    }

    private static boolean numeric(Column c) {
        return c.kind() == Column.Kind.FIELD
                && (c.type() == FieldType.FLOAT || c.type() == FieldType.INTEGER || c.type() == FieldType.UNSIGNED);
    }

    /**
     * The range {@code field <op> literal} keeps, for a plain numeric literal ({@code 90},
     * {@code 90.0}, {@code -1.5e3}); empty for anything else, {@code <>} included. DuckDB may
     * compare in {@code DECIMAL} or {@code DOUBLE}, and the engine converts integers to
     * {@code double}: the bound is widened by a billionth of its magnitude (far above either
     * rounding), so no row DuckDB keeps is left out; the few extra ones it drops itself.
     */
    private static Optional<FieldPredicate> fieldRange(String field, String op, JsonNode literal) {
        if (!"CONSTANT".equals(literal.path("class").asString(""))) {
            return Optional.empty();
        }
        JsonNode lit = literal.path("literal");
        String kind = lit.path("kind").asString("");
        if (!kind.equals("INTEGER") && !kind.equals("NUMERIC")) {
            return Optional.empty();
        }
        double v;
        try {
            v = new java.math.BigDecimal(lit.path("text").asString("")).doubleValue();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (Double.isInfinite(v) || Double.isNaN(v)) {
            return Optional.empty();
        }
        double slack = Math.abs(v) * 1e-9 + Double.MIN_NORMAL;
        return switch (op) {
            case "COMPARE_GREATERTHAN", "COMPARE_GREATERTHANOREQUALTO" -> Optional.of(FieldPredicate.atLeast(field, v - slack));
            case "COMPARE_LESSTHAN", "COMPARE_LESSTHANOREQUALTO" -> Optional.of(FieldPredicate.atMost(field, v + slack));
            case "COMPARE_EQUAL" -> Optional.of(new FieldPredicate(field, v - slack, v + slack));
            default -> Optional.empty();
        };
    }

    /** Columns of the measurement the statement names anywhere (a superset of what it reads). */
    private ScanPlan projected(ScanPlan p) {
        MeasurementSchema schema = schemas.apply(p.measurement()).orElse(null);
        if (schema == null) {
            return p.withColumns(Set.of());
        }
        Set<String> cols = new LinkedHashSet<>();
        cols.add(Column.TIME);
        for (Column c : schema.columns()) {
            if (referencedColumns.contains(c.name().toLowerCase(Locale.ROOT))) {
                cols.add(c.name());
            }
        }
        for (TagPredicate t : p.tags()) {
            cols.add(t.key());
        }
        return p.withColumns(cols);
    }

    /**
     * Whether a SELECT over one measurement keeps, of each series, nothing but its newest row — the
     * lastpoint shape {@code SELECT DISTINCT ON (tags) … FROM m [WHERE …] ORDER BY those tags, time
     * DESC [, …] [LIMIT …]} — so that a table of each series' newest row gives the same answer as
     * the whole measurement. Only when nothing looks at the other rows first: no grouping,
     * aggregate, {@code HAVING}, {@code QUALIFY} or sample; a select list of plain columns or a
     * plain {@code *}; every {@code WHERE} conjunct a tag predicate or a lower bound on {@code time}
     * (a condition on a field, or an upper bound on time, could make an older row the one kept).
     * The DISTINCT ON keys must be tags: the newest row of a group of series is the newest row of
     * one of them.
     */
    private boolean newestPerSeries(JsonNode select, String measurement, JsonNode table) {
        MeasurementSchema schema = schemas.apply(measurement).orElse(null);
        if (schema == null || !ungrouped(select)) {
            return false;
        }
        String qualifier = qualifier(table);
        for (JsonNode e : select.path("select_list")) {
            if (!plainStar(e) && !(isColumn(e) && column(e, qualifier, schema).isPresent())) {
                return false;
            }
        }
        JsonNode distinct = null;
        JsonNode order = null;
        for (JsonNode mod : select.path("modifiers")) {
            switch (mod.path("type").asString("")) {
                case "DISTINCT_MODIFIER" -> distinct = mod;
                case "ORDER_MODIFIER" -> order = mod;
                case "LIMIT_MODIFIER", "LIMIT_PERCENT_MODIFIER" -> {
                    // applied to the chosen rows: the same rows either way
                }
                default -> {
                    return false;
                }
            }
        }
        if (distinct == null || order == null) {
            return false;
        }
        Set<String> keys = new HashSet<>();
        for (JsonNode e : distinct.path("distinct_on_targets")) {
            Optional<Column> c = column(e, qualifier, schema);
            if (c.isEmpty() || c.get().kind() != Column.Kind.TAG) {
                return false;
            }
            keys.add(c.get().name());
        }
        JsonNode orders = order.path("orders");
        if (keys.isEmpty() || orders.size() < keys.size() + 1) {
            return false;
        }
        Set<String> ordered = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            column(orders.get(i).path("expression"), qualifier, schema).ifPresent(c -> ordered.add(c.name()));
        }
        JsonNode byTime = orders.get(keys.size());
        Optional<Column> time = column(byTime.path("expression"), qualifier, schema);
        if (!ordered.equals(keys) || time.isEmpty() || time.get().kind() != Column.Kind.TIME
                || !"DESCENDING".equals(byTime.path("type").asString(""))) {
            return false;
        }
        List<JsonNode> conjuncts = new ArrayList<>();
        flattenAnd(select.path("where_clause"), conjuncts);
        for (JsonNode c : conjuncts) {
            if (!tagOrTimeLowerBound(c, qualifier, schema)) {
                return false;
            }
        }
        return true;
    }

    /** No {@code GROUP BY}, {@code HAVING}, {@code QUALIFY}, sample, or aggregate without a group. */
    private static boolean ungrouped(JsonNode select) {
        return select.path("group_expressions").size() == 0 && select.path("group_sets").size() == 0
                && !present(select.path("having")) && !present(select.path("qualify")) && !present(select.path("sample"))
                && "STANDARD_HANDLING".equals(select.path("aggregate_handling").asString(""));
    }

    /** A {@code *} without {@code REPLACE}, {@code EXCLUDE}, {@code COLUMNS(…)} or an expression. */
    private static boolean plainStar(JsonNode e) {
        return "STAR".equals(e.path("class").asString("")) && e.path("replace_list").isEmpty() && e.path("exclude_list").isEmpty()
                && !present(e.path("expr")) && !e.path("columns").asBoolean(false);
    }

    /** What a column reference may be qualified by: the table's alias, else its name. */
    private static String qualifier(JsonNode table) {
        String alias = table.path("alias").asString("");
        return alias.isEmpty() ? table.path("table_name").asString("") : alias;
    }

    private static boolean present(JsonNode n) {
        return n != null && !n.isMissingNode() && !n.isNull();
    }

    /** A conjunct the newest-row table answers exactly: a tag predicate pushed into scans, or {@code time >(=) literal}. */
    private boolean tagOrTimeLowerBound(JsonNode c, String qualifier, MeasurementSchema schema) {
        String cls = c.path("class").asString("");
        String type = c.path("type").asString("");
        if (cls.equals("COMPARISON")) {
            Comparison cmp = Comparison.of(c);
            JsonNode right = cmp.value();
            String op = cmp.op();
            Optional<Column> col = column(cmp.column(), qualifier, schema);
            if (col.isEmpty() || op == null) {
                return false;
            }
            if (col.get().kind() == Column.Kind.TIME) {
                return (op.equals("COMPARE_GREATERTHAN") || op.equals("COMPARE_GREATERTHANOREQUALTO"))
                        && timeRange(op, right)[0] != Long.MIN_VALUE;
            }
            return col.get().kind() == Column.Kind.TAG && op.equals("COMPARE_EQUAL") && stringLiteral(right).isPresent();
        }
        if (type.equals("COMPARE_IN") && c.path("children").size() >= 2) {
            JsonNode children = c.path("children");
            Optional<Column> col = column(children.get(0), qualifier, schema);
            if (col.isEmpty() || col.get().kind() != Column.Kind.TAG) {
                return false;
            }
            for (int i = 1; i < children.size(); i++) {
                if (stringLiteral(children.get(i)).isEmpty()) {
                    return false;
                }
            }
            return true;
        }
        if (type.equals("OPERATOR_IS_NULL") && c.path("children").size() == 1) {
            Optional<Column> col = column(c.path("children").get(0), qualifier, schema);
            return col.isPresent() && col.get().kind() == Column.Kind.TAG;
        }
        return false;
    }

    private static void flattenAnd(JsonNode e, List<JsonNode> out) {
        if (e == null || e.isMissingNode() || e.isNull()) {
            return;
        }
        if ("CONJUNCTION_AND".equals(e.path("type").asString(""))) {
            for (JsonNode c : e.path("children")) {
                flattenAnd(c, out);
            }
        } else {
            out.add(e);
        }
    }

    /**
     * A comparison with the column (if either side is one) on the left: {@code 5 < time} reads as
     * {@code time > 5}. {@code op} is null for an operator that has no flipped form.
     */
    private record Comparison(JsonNode column, String op, JsonNode value) {
        static Comparison of(JsonNode c) {
            JsonNode left = c.path("left");
            JsonNode right = c.path("right");
            String op = c.path("type").asString("");
            return !isColumn(left) && isColumn(right) ? new Comparison(right, flipped(op), left) : new Comparison(left, op, right);
        }
    }

    private static boolean isColumn(JsonNode e) {
        return "COLUMN_REF".equals(e.path("class").asString(""));
    }

    private static Optional<Column> column(JsonNode e, String qualifier, MeasurementSchema schema) {
        if (!isColumn(e)) {
            return Optional.empty();
        }
        JsonNode names = e.path("column_names");
        String name;
        if (names.size() == 1) {
            name = names.get(0).asString();
        } else if (names.size() == 2 && names.get(0).asString().equalsIgnoreCase(qualifier)) {
            name = names.get(1).asString();
        } else {
            return Optional.empty();
        }
        Optional<Column> exact = schema.column(name);
        if (exact.isPresent()) {
            return exact;
        }
        List<Column> loose = schema.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).toList();
        return loose.size() == 1 ? Optional.of(loose.getFirst()) : Optional.empty();
    }

    private static String flipped(String op) {
        return switch (op) {
            case "COMPARE_EQUAL" -> "COMPARE_EQUAL";
            case "COMPARE_LESSTHAN" -> "COMPARE_GREATERTHAN";
            case "COMPARE_LESSTHANOREQUALTO" -> "COMPARE_GREATERTHANOREQUALTO";
            case "COMPARE_GREATERTHAN" -> "COMPARE_LESSTHAN";
            case "COMPARE_GREATERTHANOREQUALTO" -> "COMPARE_LESSTHANOREQUALTO";
            default -> null;
        };
    }

    /**
     * {@code [from, to]} (inclusive) implied by {@code time <op> literal}, exactly as DuckDB
     * compares, at the nanosecond; everything if unknown. A {@code TIMESTAMP} literal is a whole
     * microsecond, and DuckDB casts it to {@code TIMESTAMP_NS} to compare it with the column (its
     * plan shows {@code time >= '…'::TIMESTAMP_NS}), so a row a nanosecond outside the bound is
     * outside the answer too.
     */
    private long[] timeRange(String op, JsonNode literal) {
        long[] all = {Long.MIN_VALUE, Long.MAX_VALUE};
        String castType = "";
        JsonNode value = literal;
        if ("CAST".equals(literal.path("class").asString("")) && !literal.path("try_cast").asBoolean(false)) {
            castType = literal.path("type_expr").path("type_name").asString("").toUpperCase(Locale.ROOT);
            value = literal.path("child");
        }
        Optional<String> text = stringLiteral(value);
        if (text.isEmpty() || !(castType.isEmpty() || castType.equals("TIMESTAMP") || castType.equals("TIMESTAMP_NS")
                || castType.equals("DATETIME") || castType.equals("TIMESTAMPTZ") || castType.equals(ZonedTimes.TIMESTAMPTZ))) {
            return all;
        }
        // a bare string is read as the statement DuckDB runs reads it: through its zone, if it has one (ZonedTimes)
        OptionalLong ns = literals.epochNanos(text.get(), castType.isEmpty() ? "VARCHAR"
                : castType.equals(ZonedTimes.TIMESTAMPTZ) ? "TIMESTAMPTZ" : castType);
        if (ns.isEmpty()) {
            return all;
        }
        long t = ns.getAsLong();
        return switch (op) {
            case "COMPARE_EQUAL" -> new long[]{t, t};
            case "COMPARE_GREATERTHAN" -> new long[]{saturatingAdd(t, 1), Long.MAX_VALUE};
            case "COMPARE_GREATERTHANOREQUALTO" -> new long[]{t, Long.MAX_VALUE};
            case "COMPARE_LESSTHAN" -> new long[]{Long.MIN_VALUE, saturatingAdd(t, -1)};
            case "COMPARE_LESSTHANOREQUALTO" -> new long[]{Long.MIN_VALUE, t};
            default -> all;
        };
    }

    private static long saturatingAdd(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            return b < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r;
    }

    private static Optional<String> stringLiteral(JsonNode e) {
        if ("CAST".equals(e.path("class").asString(""))
                && e.path("type_expr").path("type_name").asString("").equalsIgnoreCase("VARCHAR")) {
            e = e.path("child");
        }
        if (!"CONSTANT".equals(e.path("class").asString(""))) {
            return Optional.empty();
        }
        JsonNode lit = e.path("literal");
        if (!"STRING".equals(lit.path("kind").asString(""))) {
            return Optional.empty();
        }
        return Optional.of(lit.path("text").asString());
    }

    /** DuckDB's positions are byte offsets into the UTF-8 statement; ours are character offsets. */
    static int charOffset(String sql, long byteOffset) {
        if (byteOffset < 0 || byteOffset > Integer.MAX_VALUE) {
            return -1;
        }
        byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
        if (byteOffset > bytes.length) {
            return -1;
        }
        return new String(bytes, 0, (int) byteOffset, StandardCharsets.UTF_8).length();
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}

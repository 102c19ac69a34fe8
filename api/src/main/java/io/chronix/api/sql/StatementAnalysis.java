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
     * @param countColumn non-null if the statement is {@code SELECT count(*) [AS name] FROM m [WHERE …]}
     *     with nothing else and every conjunct answered exactly by the one plan's scan — its answer
     *     is then the plan's row count, in one {@code BIGINT} column of this name (DuckDB's own:
     *     the alias, else {@code count_star()})
     * @param aggregate non-null if the engine's aggregation answers the statement over the one
     *     plan's scan ({@link AggregateShape}, {@link EngineAggregation})
     * @param newest non-null if the engine answers the statement from each series' newest row
     *     ({@link NewestShape}, {@link EngineNewest})
     * @param filter non-null if the engine answers the statement by keeping rows of the plan's scan
     *     ({@link FilterShape}, {@link EngineFilter})
     * @param zonedTime true if some comparison of {@code time} may be with a zoned value, for
     *     {@link ZonedTimes#rewrite} to look at
     */
    public record Result(Map<String, ScanPlan> plans, Map<String, Integer> references, boolean hasCtes, String countColumn,
                         AggregateShape aggregate, NewestShape newest, FilterShape filter, boolean zonedTime) {
        public Result {
            plans = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(plans));
            references = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(references));
        }
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
        boolean oneScan = a.cteNames.isEmpty() && a.plans.size() == 1 && a.references.values().iterator().next() == 1;
        String countColumn = oneScan ? a.countOfRows(statements.get(0).path("node")) : null;
        AggregateShape aggregate = oneScan && countColumn == null ? a.aggregateShape(statements.get(0).path("node")) : null;
        NewestShape newest = oneScan && a.plans.values().iterator().next().newestOnly() ? a.newestShape(statements.get(0).path("node")) : null;
        FilterShape filter = oneScan && countColumn == null && aggregate == null && newest == null
                && !a.plans.values().iterator().next().newestOnly() ? a.filterShape(statements.get(0).path("node")) : null;
        return new Result(a.plans, a.references, !a.cteNames.isEmpty(), countColumn, aggregate, newest, filter, a.zonedTime);
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

    /**
     * The output column name if {@code select} is exactly {@code SELECT count(*) [AS name] FROM m
     * [WHERE c AND …]} — no grouping, modifier, sample, filter or DISTINCT — and each conjunct is
     * one the scan applies exactly (tags as {@link #tagOrTimeLowerBound} lists them, time compared
     * with a literal read at the nanosecond); otherwise {@code null}.
     */
    private String countOfRows(JsonNode select) {
        Read read = lone(select);
        if (read == null || !ungrouped(select) || select.path("modifiers").size() > 0 || select.path("select_list").size() != 1) {
            return null;
        }
        MeasurementSchema schema = read.schema();
        JsonNode f = select.path("select_list").get(0);
        if (!plainFunction(f) || !"count_star".equals(f.path("function_name").asString("")) || f.path("arguments").size() > 0) {
            return null;
        }
        String qualifier = read.qualifier();
        List<JsonNode> conjuncts = new ArrayList<>();
        flattenAnd(select.path("where_clause"), conjuncts);
        Set<String> tagsSeen = new HashSet<>();
        for (JsonNode c : conjuncts) {
            if (exactTimeComparison(c, qualifier, schema)) {
                continue; // the pushdown intersects every time bound
            }
            if (isTimeComparison(c, qualifier, schema) || !tagOrTimeLowerBound(c, qualifier, schema)) {
                return null;
            }
            JsonNode tag = "COMPARISON".equals(c.path("class").asString("")) ? Comparison.of(c).column() : c.path("children").get(0);
            if (!tagsSeen.add(column(tag, qualifier, schema).orElseThrow().name())) {
                return null; // the pushdown keeps one predicate per tag
            }
        }
        String name = f.path("alias").asString("");
        return name.isEmpty() ? "count_star()" : name;
    }

    /**
     * The statement as an {@link AggregateShape}, or null if it is not exactly one. Beyond the
     * shape itself: the {@code FROM} is the measurement alone (no sample, alias list or time
     * travel); no {@code HAVING}, {@code QUALIFY}, {@code DISTINCT}, window or CTE; every
     * aggregate named by an alias (DuckDB's own names for them are not ours to reproduce), plain
     * ({@code DISTINCT}, {@code FILTER} or an {@code ORDER BY} inside refuse it) and over a field:
     * {@code count} of any field, {@code min}, {@code max} and {@code avg} of a {@code DOUBLE} or
     * {@code BIGINT} one, {@code sum} of a {@code DOUBLE} one (an integer sum is a
     * {@code HUGEINT}); the bucket width a literal interval of whole microseconds, milliseconds,
     * seconds, minutes or hours; every {@code WHERE} conjunct a time comparison with a literal or a
     * tag predicate the scan applies exactly, at most one per tag; a {@code LIMIT} only under an
     * {@code ORDER BY} of every group key, so which rows it keeps is defined.
     */
    private AggregateShape aggregateShape(JsonNode select) {
        Read read = lone(select);
        if (read == null || present(select.path("having")) || present(select.path("qualify")) || present(select.path("sample"))
                || !"STANDARD_HANDLING".equals(select.path("aggregate_handling").asString(""))) {
            return null;
        }
        MeasurementSchema schema = read.schema();
        String qualifier = read.qualifier();
        List<AggregateShape.Output> outputs = new ArrayList<>();
        for (JsonNode e : select.path("select_list")) {
            AggregateShape.Output o = output(e, qualifier, schema);
            if (o == null || o instanceof AggregateShape.Bucket && outputs.stream().anyMatch(AggregateShape.Bucket.class::isInstance)) {
                return null; // one bucket at most
            }
            outputs.add(o);
        }
        Set<Integer> keys = new HashSet<>();
        for (JsonNode g : select.path("group_expressions")) {
            int i = ordinal(g, outputs.size());
            if (i < 0) {
                Optional<Column> c = column(g, qualifier, schema);
                for (int j = 0; j < outputs.size() && c.isPresent(); j++) {
                    if (outputs.get(j) instanceof AggregateShape.Tag t && t.column().equals(c.get().name())) {
                        i = j;
                        break;
                    }
                }
            }
            if (i < 0 || outputs.get(i) instanceof AggregateShape.Aggregate) {
                return null;
            }
            keys.add(i);
        }
        JsonNode sets = select.path("group_sets");
        if (keys.isEmpty() ? sets.size() > 0 : sets.size() != 1 || sets.get(0).size() != select.path("group_expressions").size()) {
            return null; // GROUPING SETS, ROLLUP, CUBE
        }
        for (int i = 0; i < outputs.size(); i++) {
            if (!(outputs.get(i) instanceof AggregateShape.Aggregate) && !keys.contains(i)) {
                return null;
            }
        }
        List<AggregateShape.Order> orders = new ArrayList<>();
        long limit = Long.MAX_VALUE;
        long offset = 0;
        boolean limited = false;
        for (JsonNode mod : select.path("modifiers")) {
            switch (mod.path("type").asString("")) {
                case "ORDER_MODIFIER" -> {
                    for (JsonNode o : mod.path("orders")) {
                        int i = ordinal(o.path("expression"), outputs.size());
                        SortOrder order = SortOrder.of(o);
                        if (i < 0 || !keys.contains(i) || order == null) {
                            return null;
                        }
                        orders.add(new AggregateShape.Order(i, order.descending(), order.nullsFirst()));
                    }
                }
                case "LIMIT_MODIFIER" -> {
                    long[] lk = rowLimit(mod);
                    if (lk == null) {
                        return null;
                    }
                    limit = lk[0];
                    offset = lk[1];
                    limited = true;
                }
                default -> {
                    return null; // DISTINCT, LIMIT PERCENT
                }
            }
        }
        Set<Integer> ordered = new HashSet<>();
        orders.forEach(o -> ordered.add(o.output()));
        if (limited && !ordered.containsAll(keys)) {
            return null;
        }
        long[] range = exactWhere(select, qualifier, schema);
        return range == null ? null : new AggregateShape(read.measurement(), range[0], range[1], outputs, orders, limit, offset);
    }

    /**
     * The statement as a {@link NewestShape}, or null. On top of {@link #newestPerSeries} (which
     * already holds): a select list of a plain {@code *} or column references (named as written,
     * or aliased); {@code ORDER BY} exactly the {@code DISTINCT ON} tags then {@code time DESC};
     * every {@code WHERE} conjunct a tag predicate the scan applies exactly (one per tag) or a
     * lower bound on {@code time} with a literal; constant {@code LIMIT} and {@code OFFSET}.
     */
    private NewestShape newestShape(JsonNode select) {
        Read read = lone(select);
        if (read == null || !newestPerSeries(select, read.measurement(), read.from())) {
            return null;
        }
        List<SelectedColumn> outputs = selectedColumns(select, read.qualifier(), read.schema());
        if (outputs == null) {
            return null;
        }
        int distinctKeys = 0;
        JsonNode orders = null;
        long limit = Long.MAX_VALUE;
        long offset = 0;
        for (JsonNode mod : select.path("modifiers")) {
            switch (mod.path("type").asString("")) {
                case "DISTINCT_MODIFIER" -> distinctKeys = mod.path("distinct_on_targets").size();
                case "ORDER_MODIFIER" -> orders = mod.path("orders");
                case "LIMIT_MODIFIER" -> {
                    long[] lk = rowLimit(mod);
                    if (lk == null) {
                        return null;
                    }
                    limit = lk[0];
                    offset = lk[1];
                }
                default -> {
                    return null;
                }
            }
        }
        if (orders == null || orders.size() != distinctKeys + 1) {
            return null; // newestPerSeries checked the first keys + 1 orders; nothing may follow
        }
        List<NewestShape.Key> keys = new ArrayList<>();
        for (int i = 0; i < distinctKeys; i++) {
            JsonNode o = orders.get(i);
            SortOrder order = SortOrder.of(o);
            if (order == null) {
                return null;
            }
            keys.add(new NewestShape.Key(column(o.path("expression"), read.qualifier(), read.schema()).orElseThrow().name(),
                    order.descending(), order.nullsFirst()));
        }
        long[] range = exactWhere(select, read.qualifier(), read.schema());
        // an upper bound could make an older row the one kept (newestPerSeries refuses it as well)
        return range == null || range[1] != Long.MAX_VALUE ? null : new NewestShape(read.measurement(), range[0], outputs, keys, limit, offset);
    }

    /**
     * The statement as a {@link FilterShape}, or null: a {@code SELECT} of one measurement without
     * grouping, {@code DISTINCT} or {@code ORDER BY}; a select list of a plain {@code *} or column
     * references; every {@code WHERE} conjunct a time comparison with a literal, a tag predicate the
     * scan applies exactly (one per tag) or a field compared with a number ({@link #fieldTest});
     * constant {@code LIMIT} and {@code OFFSET}.
     */
    private FilterShape filterShape(JsonNode select) {
        Read read = lone(select);
        if (read == null || !ungrouped(select)) {
            return null;
        }
        List<SelectedColumn> outputs = selectedColumns(select, read.qualifier(), read.schema());
        if (outputs == null) {
            return null;
        }
        long limit = Long.MAX_VALUE;
        long offset = 0;
        for (JsonNode mod : select.path("modifiers")) {
            long[] lk = "LIMIT_MODIFIER".equals(mod.path("type").asString("")) ? rowLimit(mod) : null;
            if (lk == null) {
                return null; // DISTINCT, ORDER BY, LIMIT PERCENT
            }
            limit = lk[0];
            offset = lk[1];
        }
        List<FilterShape.FieldTest> fields = new ArrayList<>();
        long[] range = exactWhere(select, read.qualifier(), read.schema(), fields);
        return range == null ? null : new FilterShape(read.measurement(), range[0], range[1], outputs, fields, limit, offset);
    }

    /**
     * {@code field <op> number}, as DuckDB evaluates it; null for any other conjunct. An
     * {@code INTEGER} field against an integer (in 64 bits) or a decimal of at most 18 digits is
     * compared exactly, as DuckDB compares in {@code DECIMAL}. Against a number in exponent
     * notation (a {@code DOUBLE} literal) it is compared as a double. A {@code FLOAT} field is
     * compared as a double with any number whose conversion DuckDB rounds once, exactly as Java
     * does: an integer or decimal of at most 53 bits of digits (and at most 22 decimals), or an
     * exponent literal. {@code UNSIGNED}, booleans and strings are left to DuckDB.
     */
    private static FilterShape.FieldTest fieldTest(JsonNode c, String qualifier, MeasurementSchema schema) {
        if (!"COMPARISON".equals(c.path("class").asString(""))) {
            return null;
        }
        Comparison cmp = Comparison.of(c);
        Optional<Column> col = column(cmp.column(), qualifier, schema);
        if (cmp.op() == null || col.isEmpty() || col.get().kind() != Column.Kind.FIELD
                || !"CONSTANT".equals(cmp.value().path("class").asString(""))) {
            return null;
        }
        FilterShape.Op op = switch (cmp.op()) {
            case "COMPARE_LESSTHAN" -> FilterShape.Op.LT;
            case "COMPARE_LESSTHANOREQUALTO" -> FilterShape.Op.LE;
            case "COMPARE_EQUAL" -> FilterShape.Op.EQ;
            case "COMPARE_GREATERTHANOREQUALTO" -> FilterShape.Op.GE;
            case "COMPARE_GREATERTHAN" -> FilterShape.Op.GT;
            default -> null;
        };
        JsonNode lit = cmp.value().path("literal");
        String kind = lit.path("kind").asString("");
        String text = lit.path("text").asString("");
        if (op == null || !(kind.equals("INTEGER") || kind.equals("NUMERIC"))) {
            return null;
        }
        java.math.BigDecimal d;
        try {
            d = new java.math.BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
        boolean exponent = text.indexOf('e') >= 0 || text.indexOf('E') >= 0;
        String field = col.get().name();
        if (col.get().type() == FieldType.INTEGER && !exponent) {
            boolean fits = kind.equals("INTEGER") ? d.toBigInteger().bitLength() < 64 : d.precision() <= 18;
            return fits ? longRange(field, op, d) : null;
        }
        if (col.get().type() != FieldType.FLOAT && !(col.get().type() == FieldType.INTEGER && exponent)) {
            return null;
        }
        double v = exponent ? Double.parseDouble(text) : d.doubleValue();
        boolean onceRounded = exponent || (d.unscaledValue().bitLength() <= 53 && d.scale() >= 0 && d.scale() <= 22);
        return onceRounded && Double.isFinite(v) ? new FilterShape.FieldTest.DoubleCompare(field, op, v) : null;
    }

    /** The integers {@code x} with {@code x <op> d}, for {@code d} within ±10^18 or a 64-bit integer. */
    private static FilterShape.FieldTest longRange(String field, FilterShape.Op op, java.math.BigDecimal d) {
        long floor = d.setScale(0, java.math.RoundingMode.FLOOR).longValueExact();
        long ceil = d.setScale(0, java.math.RoundingMode.CEILING).longValueExact();
        long min = Long.MIN_VALUE;
        long max = Long.MAX_VALUE;
        switch (op) {
            case GT -> {
                if (floor == Long.MAX_VALUE) {
                    return new FilterShape.FieldTest.LongRange(field, 1, 0);
                }
                min = floor + 1;
            }
            case GE -> min = ceil;
            case LT -> {
                if (ceil == Long.MIN_VALUE) {
                    return new FilterShape.FieldTest.LongRange(field, 1, 0);
                }
                max = ceil - 1;
            }
            case LE -> max = floor;
            case EQ -> {
                if (floor != ceil) {
                    return new FilterShape.FieldTest.LongRange(field, 1, 0);
                }
                min = floor;
                max = floor;
            }
        }
        return new FilterShape.FieldTest.LongRange(field, min, max);
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

    /**
     * The select list as columns of the measurement shown as they are — plain {@code *} (every
     * column, canonical order) and column references named as DuckDB names them — or null if it
     * holds anything else.
     */
    private static List<SelectedColumn> selectedColumns(JsonNode select, String qualifier, MeasurementSchema schema) {
        List<SelectedColumn> outputs = new ArrayList<>();
        for (JsonNode e : select.path("select_list")) {
            if (plainStar(e)) {
                for (Column c : schema.columns()) {
                    outputs.add(new SelectedColumn(c.name(), c.name()));
                }
                continue;
            }
            Optional<Column> c = column(e, qualifier, schema);
            String name = c.isPresent() ? outputName(e, c.get()) : null;
            if (name == null) {
                return null;
            }
            outputs.add(new SelectedColumn(name, c.get().name()));
        }
        return outputs;
    }

    /**
     * The one measurement a {@code SELECT} reads as it is, for the shapes the engine answers itself.
     *
     * @param from      its {@code FROM} ({@link #measurementAlone})
     * @param qualifier what its column references may be qualified by ({@link #qualifier})
     */
    private record Read(String measurement, MeasurementSchema schema, JsonNode from, String qualifier) {
    }

    /**
     * The measurement a {@code SELECT} reads alone ({@link #measurementAlone}) and its schema; null
     * if it reads anything else, or one the namespace has no schema for.
     */
    private Read lone(JsonNode select) {
        JsonNode from = measurementAlone(select);
        if (from == null) {
            return null;
        }
        Optional<String> m = resolve(from);
        MeasurementSchema schema = m.flatMap(schemas).orElse(null);
        return schema == null ? null : new Read(m.get(), schema, from, qualifier(from));
    }

    /**
     * The {@code FROM} of a {@code SELECT} that reads one measurement as it is — no sample, column
     * alias list, time travel or CTE — for the shapes the engine answers itself; null otherwise.
     */
    private static JsonNode measurementAlone(JsonNode select) {
        JsonNode from = select.path("from_table");
        if (!"SELECT_NODE".equals(select.path("type").asString("")) || !"BASE_TABLE".equals(from.path("type").asString(""))
                || present(from.path("sample")) || present(from.path("at_clause")) || from.path("column_name_alias").size() > 0
                || select.path("cte_map").path("map").size() > 0) {
            return null;
        }
        return from;
    }

    /** A call of a function by its bare name, without {@code DISTINCT}, {@code FILTER}, an {@code ORDER BY} inside or exported state. */
    private static boolean plainFunction(JsonNode f) {
        return "FUNCTION".equals(f.path("class").asString("")) && f.path("schema").asString("").isEmpty()
                && f.path("catalog").asString("").isEmpty() && !f.path("distinct").asBoolean(false) && !present(f.path("filter"))
                && f.path("order_bys").path("orders").size() == 0 && !f.path("export_state").asBoolean(false);
    }

    /**
     * The name DuckDB gives a selected column reference: its alias, or the column's name when
     * written exactly so (other spellings DuckDB may keep as written); null for the latter.
     */
    private static String outputName(JsonNode ref, Column c) {
        String alias = ref.path("alias").asString("");
        if (!alias.isEmpty()) {
            return alias;
        }
        JsonNode names = ref.path("column_names");
        return names.size() > 0 && names.get(names.size() - 1).asString().equals(c.name()) ? c.name() : null;
    }

    /** What a column reference may be qualified by: the table's alias, else its name. */
    private static String qualifier(JsonNode table) {
        String alias = table.path("alias").asString("");
        return alias.isEmpty() ? table.path("table_name").asString("") : alias;
    }

    /**
     * {@code [from, to]} the {@code WHERE} keeps, exactly as DuckDB compares, if every conjunct is a
     * time comparison with a literal or a tag predicate the scan applies exactly, at most one per
     * tag (the pushdown keeps one); null otherwise.
     */
    private long[] exactWhere(JsonNode select, String qualifier, MeasurementSchema schema) {
        return exactWhere(select, qualifier, schema, null);
    }

    /**
     * As {@link #exactWhere(JsonNode, String, MeasurementSchema)}, and where {@code fields} is not
     * null, also {@code field <op> number} conjuncts ({@link #fieldTest}), added to it.
     */
    private long[] exactWhere(JsonNode select, String qualifier, MeasurementSchema schema, List<FilterShape.FieldTest> fields) {
        long lo = Long.MIN_VALUE;
        long hi = Long.MAX_VALUE;
        List<JsonNode> conjuncts = new ArrayList<>();
        flattenAnd(select.path("where_clause"), conjuncts);
        Set<String> tagsSeen = new HashSet<>();
        for (JsonNode c : conjuncts) {
            long[] range = exactTimeRange(c, qualifier, schema);
            if (range != null) {
                lo = Math.max(lo, range[0]);
                hi = Math.min(hi, range[1]);
                continue;
            }
            FilterShape.FieldTest test = fields == null ? null : fieldTest(c, qualifier, schema);
            if (test != null) {
                fields.add(test);
                continue;
            }
            if (isTimeComparison(c, qualifier, schema) || !tagOrTimeLowerBound(c, qualifier, schema)) {
                return null;
            }
            JsonNode tag = "COMPARISON".equals(c.path("class").asString("")) ? Comparison.of(c).column() : c.path("children").get(0);
            if (!tagsSeen.add(column(tag, qualifier, schema).orElseThrow().name())) {
                return null;
            }
        }
        return new long[]{lo, hi};
    }

    /** An {@code ORDER BY} item's direction and NULL placement; null for a form the engine does not sort by. */
    private record SortOrder(boolean descending, boolean nullsFirst) {
        static SortOrder of(JsonNode o) {
            String type = o.path("type").asString("");
            String nulls = o.path("null_order").asString("").replace(' ', '_');
            if (!(type.equals("ORDER_DEFAULT") || type.equals("ASCENDING") || type.equals("DESCENDING"))
                    || !(nulls.equals("ORDER_DEFAULT") || nulls.equals("NULLS_LAST") || nulls.equals("NULLS_FIRST"))) {
                return null;
            }
            return new SortOrder(type.equals("DESCENDING"), nulls.equals("NULLS_FIRST"));
        }
    }

    /** The range a time conjunct keeps, exactly as DuckDB compares; null if it is no time conjunct with literals. */
    private long[] exactTimeRange(JsonNode c, String qualifier, MeasurementSchema schema) {
        if (isTimeComparison(c, qualifier, schema)) {
            Comparison cmp = Comparison.of(c);
            long[] r = cmp.op() == null ? null : timeRange(cmp.op(), cmp.value());
            return r == null || (r[0] == Long.MIN_VALUE && r[1] == Long.MAX_VALUE) ? null : r;
        }
        if ("BETWEEN".equals(c.path("class").asString(""))) {
            Optional<Column> col = column(c.path("input"), qualifier, schema);
            if (col.isPresent() && col.get().kind() == Column.Kind.TIME) {
                long[] lower = timeRange("COMPARE_GREATERTHANOREQUALTO", c.path("lower"));
                long[] upper = timeRange("COMPARE_LESSTHANOREQUALTO", c.path("upper"));
                if (lower[0] != Long.MIN_VALUE && upper[1] != Long.MAX_VALUE) {
                    return new long[]{lower[0], upper[1]};
                }
            }
        }
        return null;
    }

    /** One select-list item of an {@link AggregateShape}; null if it cannot be one. */
    private AggregateShape.Output output(JsonNode e, String qualifier, MeasurementSchema schema) {
        String alias = e.path("alias").asString("");
        String cls = e.path("class").asString("");
        if (cls.equals("COLUMN_REF")) {
            Optional<Column> c = column(e, qualifier, schema);
            String name = c.isPresent() && c.get().kind() == Column.Kind.TAG ? outputName(e, c.get()) : null;
            return name == null ? null : new AggregateShape.Tag(name, c.get().name());
        }
        if (!plainFunction(e) || e.path("is_operator").asBoolean(false)) {
            return null;
        }
        String function = e.path("function_name").asString("").toLowerCase(Locale.ROOT);
        JsonNode args = e.path("arguments");
        for (JsonNode a : args) {
            if (!a.path("name").asString("").isEmpty()) {
                return null;
            }
        }
        if (function.equals("count_star") && args.isEmpty()) {
            return new AggregateShape.Aggregate(alias.isEmpty() ? "count_star()" : alias, AggregateShape.Function.COUNT_STAR, null, false);
        }
        if (alias.isEmpty()) {
            return null;
        }
        if ((function.equals("time_bucket") || function.equals("date_bin")) && args.size() == 2) {
            long width = microsecondInterval(args.get(0).path("expression"));
            Optional<Column> t = column(args.get(1).path("expression"), qualifier, schema);
            if (width <= 0 || t.isEmpty() || t.get().kind() != Column.Kind.TIME) {
                return null;
            }
            return new AggregateShape.Bucket(alias, width, function.equals("time_bucket") ? SqlSandbox.TIME_BUCKET_ORIGIN : 0);
        }
        if (args.size() != 1) {
            return null;
        }
        Optional<Column> c = column(args.get(0).path("expression"), qualifier, schema);
        if (c.isEmpty() || c.get().kind() != Column.Kind.FIELD) {
            return null;
        }
        boolean integer = c.get().type() == FieldType.INTEGER;
        boolean numeric = integer || c.get().type() == FieldType.FLOAT;
        AggregateShape.Function f = switch (function) {
            case "count" -> AggregateShape.Function.COUNT;
            case "min" -> numeric ? AggregateShape.Function.MIN : null;
            case "max" -> numeric ? AggregateShape.Function.MAX : null;
            case "avg", "mean" -> numeric ? AggregateShape.Function.AVG : null;
            case "sum" -> numeric && !integer ? AggregateShape.Function.SUM : null;
            default -> null;
        };
        return f == null ? null : new AggregateShape.Aggregate(alias, f, c.get().name(), integer);
    }

    private static final java.util.regex.Pattern INTERVAL_TEXT = java.util.regex.Pattern.compile(
            "\\s*(\\d{1,12})\\s*(microseconds?|milliseconds?|seconds?|minutes?|hours?)\\s*", java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Nanoseconds of {@code INTERVAL 'n unit'} for the units that are a fixed number of them; -1 otherwise. */
    private static long microsecondInterval(JsonNode e) {
        if (!"CAST".equals(e.path("class").asString("")) || e.path("try_cast").asBoolean(false)
                || !e.path("type_expr").path("type_name").asString("").equalsIgnoreCase("INTERVAL")) {
            return -1;
        }
        JsonNode lit = e.path("child");
        if (!"CONSTANT".equals(lit.path("class").asString("")) || !"STRING".equals(lit.path("literal").path("kind").asString(""))) {
            return -1;
        }
        java.util.regex.Matcher m = INTERVAL_TEXT.matcher(lit.path("literal").path("text").asString(""));
        if (!m.matches()) {
            return -1;
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        long per = unit.startsWith("micro") ? 1_000L : unit.startsWith("milli") ? 1_000_000L : unit.startsWith("second") ? 1_000_000_000L
                : unit.startsWith("minute") ? 60_000_000_000L : 3_600_000_000_000L;
        long n = Long.parseLong(m.group(1));
        return n > Long.MAX_VALUE / per ? -1 : n * per;
    }

    /** The 0-based select-list index an ordinal ({@code GROUP BY 1}) names; -1 if it is no ordinal in range. */
    /**
     * {@code [limit, offset]} of a {@code LIMIT} modifier that counts rows with constants
     * ({@code Long.MAX_VALUE} for no limit); null for a percentage ({@code LIMIT 10 PERCENT} is a
     * {@code LIMIT_MODIFIER} too) or anything not a non-negative integer.
     */
    private static long[] rowLimit(JsonNode mod) {
        if (!"ROW_COUNT".equals(mod.path("limit_type").asString(""))) {
            return null;
        }
        long limit = present(mod.path("limit")) ? nonNegativeInteger(mod.path("limit")) : Long.MAX_VALUE;
        long offset = present(mod.path("offset")) ? nonNegativeInteger(mod.path("offset")) : 0;
        return limit < 0 || offset < 0 ? null : new long[]{limit, offset};
    }

    private static int ordinal(JsonNode e, int outputs) {
        long v = nonNegativeInteger(e);
        return v >= 1 && v <= outputs ? (int) v - 1 : -1;
    }

    /** The value of a non-negative integer constant; -1 for anything else. */
    private static long nonNegativeInteger(JsonNode e) {
        if (!"CONSTANT".equals(e.path("class").asString("")) || !"INTEGER".equals(e.path("literal").path("kind").asString(""))) {
            return -1;
        }
        try {
            long v = Long.parseLong(e.path("literal").path("text").asString(""));
            return v >= 0 ? v : -1;
        } catch (NumberFormatException x) {
            return -1;
        }
    }

    private boolean isTimeComparison(JsonNode c, String qualifier, MeasurementSchema schema) {
        return "COMPARISON".equals(c.path("class").asString(""))
                && column(Comparison.of(c).column(), qualifier, schema).map(col -> col.kind() == Column.Kind.TIME).orElse(false);
    }

    /**
     * {@code time <op> literal} whose bound the scan holds exactly: any literal {@link #timeRange}
     * reads (it refuses other casts and {@code TRY_CAST}), since the range it gives is exact.
     */
    private boolean exactTimeComparison(JsonNode c, String qualifier, MeasurementSchema schema) {
        if (!isTimeComparison(c, qualifier, schema)) {
            return false;
        }
        Comparison cmp = Comparison.of(c);
        long[] range = cmp.op() == null ? null : timeRange(cmp.op(), cmp.value());
        return range != null && (range[0] != Long.MIN_VALUE || range[1] != Long.MAX_VALUE);
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

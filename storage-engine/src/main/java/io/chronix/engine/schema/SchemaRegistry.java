package io.chronix.engine.schema;

import io.chronix.engine.codec.WalEntry.FieldDeclaration;
import io.chronix.engine.error.ColumnConflictException;
import io.chronix.engine.error.FieldTypeConflictException;
import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per measurement: its tag keys and each field's type, fixed by the field's first write.
 *
 * <p>A write goes through two steps. {@link #validate} checks a whole batch and returns what it
 * would add, throwing before anything changes; {@link #commit} then registers the additions under
 * the registry lock, re-checking them against a concurrent commit, and returns the field
 * declarations that were really new. Replay and the catalog feed {@link #declareField} and {@link
 * #declareTag}.
 *
 * <p><b>Declarations waiting for the WAL.</b> A field committed by a write (or by {@link
 * #commitField}) is visible to every other writer at once, but it is durable only once a WAL
 * {@code Schema} record holds it, and no record that uses it may reach the WAL before that one.
 * So such a field is also <em>unlogged</em> until the caller, having appended the record, calls
 * {@link #markLogged}. The unlogged count is raised before the field is published (the put into
 * the measurement's map that {@link #validate} and {@link #field} read) and lowered only after the
 * record is appended: a writer that has seen a field and then reads {@link #hasUnlogged()} false
 * knows its record is in the WAL. Fields from replay and the catalog are durable already and are
 * never unlogged. A failed append leaves them unlogged, for the next writer to log.
 *
 * <p>Each field also gets an <em>ordinal</em>, dense per measurement in registration order, that
 * the memtable indexes its columns by. Ordinals live for the process only; nothing persists them.
 *
 * <p>Threading: thread-safe. Lookups are lock-free; registration takes the registry's monitor.
 */
public final class SchemaRegistry {

    /** A registered field. */
    public record FieldInfo(String name, FieldType type, int ordinal) {
    }

    private static final class Measurement {
        final String name;
        final Map<String, FieldInfo> fields = new ConcurrentHashMap<>();
        final Set<String> tags = ConcurrentHashMap.newKeySet();
        volatile FieldInfo[] byOrdinal = new FieldInfo[0];
        volatile MeasurementSchema schema;

        Measurement(String name) {
            this.name = name;
        }
    }

    /** What a validated batch would add. Empty in the common case, when it adds nothing. */
    public static final class Plan {
        private final List<FieldDeclaration> fields = new ArrayList<>(0);
        private final List<String[]> tags = new ArrayList<>(0);

        public boolean isEmpty() {
            return fields.isEmpty() && tags.isEmpty();
        }

        public List<FieldDeclaration> fields() {
            return fields;
        }
    }

    private final Map<String, Measurement> measurements = new ConcurrentHashMap<>();
    /** Declarations (fields and tags) not yet written to the catalog; guarded by this. */
    private final List<CatalogDeclaration> unpersisted = new ArrayList<>();
    /** Committed fields no WAL record is known to hold yet, in commit order; guarded by this. */
    private final List<FieldDeclaration> unlogged = new ArrayList<>();
    /** {@code unlogged.size()}, written under this before a field is published; read without a lock. */
    private volatile int unloggedCount;

    /** A column declaration as the catalog stores it: a tag ({@code type == null}) or a typed field. */
    public record CatalogDeclaration(String measurement, String column, FieldType type) {
    }

    /**
     * Checks every point of {@code batch}: no field of a type other than its registered one (or than
     * an earlier point of the same batch gave a new field), no tag and field of one name, no column
     * named {@code time}.
     *
     * @throws FieldTypeConflictException naming measurement, field, stored and offered type
     * @throws ColumnConflictException for a tag/field name clash or the reserved name
     */
    public Plan validate(PointBatch batch) {
        Plan plan = new Plan();
        Map<String, FieldType> pendingFields = null; // "measurement\0field" -> type, only if the batch adds fields
        Set<String> pendingTags = null;
        for (int p = 0; p < batch.size(); p++) {
            // a point of the same shape as the one before it (same measurement, tag keys, field
            // names and types) passes or fails exactly as that one did: a batch from one source is
            // mostly such runs, and comparing string ids is ~20 map lookups cheaper per point
            if (p > 0 && sameShape(batch, p - 1, p)) {
                continue;
            }
            String m = batch.measurement(p);
            Measurement known = measurements.get(m);
            for (int t = 0; t < batch.tagCount(p); t++) {
                String key = batch.tagKey(p, t);
                if (known != null && known.tags.contains(key)) {
                    continue;
                }
                if (key.equals(Column.TIME)) {
                    throw new ColumnConflictException(m, key, "the name of the timestamp column");
                }
                if (known != null && known.fields.containsKey(key)
                        || pendingFields != null && pendingFields.containsKey(m + '\0' + key)) {
                    throw new ColumnConflictException(m, key, "a tag of the name of a field");
                }
                if (pendingTags == null) {
                    pendingTags = new java.util.HashSet<>();
                }
                if (pendingTags.add(m + '\0' + key)) {
                    plan.tags.add(new String[] {m, key});
                }
            }
            for (int f = 0; f < batch.fieldCount(p); f++) {
                String name = batch.fieldName(p, f);
                FieldType offered = batch.fieldType(p, f);
                FieldInfo info = known == null ? null : known.fields.get(name);
                if (info != null) {
                    if (info.type() != offered) {
                        throw new FieldTypeConflictException(m, name, info.type(), offered);
                    }
                    continue;
                }
                if (name.equals(Column.TIME)) {
                    throw new ColumnConflictException(m, name, "the name of the timestamp column");
                }
                if (known != null && known.tags.contains(name) || pendingTags != null && pendingTags.contains(m + '\0' + name)) {
                    throw new ColumnConflictException(m, name, "a field of the name of a tag");
                }
                if (pendingFields == null) {
                    pendingFields = new HashMap<>();
                }
                FieldType earlier = pendingFields.putIfAbsent(m + '\0' + name, offered);
                if (earlier == null) {
                    plan.fields.add(new FieldDeclaration(m, name, offered));
                } else if (earlier != offered) {
                    throw new FieldTypeConflictException(m, name, earlier, offered);
                }
            }
        }
        return plan;
    }

    /** Same measurement, tag keys and (field name, type) pairs, in order; ids are the batch's interned strings. */
    private static boolean sameShape(PointBatch batch, int a, int b) {
        if (batch.measurementId(a) != batch.measurementId(b)) {
            return false;
        }
        int tags = batch.tagCount(a);
        int fields = batch.fieldCount(a);
        if (tags != batch.tagCount(b) || fields != batch.fieldCount(b)) {
            return false;
        }
        for (int t = 0; t < tags; t++) {
            if (batch.tagKeyId(a, t) != batch.tagKeyId(b, t)) {
                return false;
            }
        }
        for (int f = 0; f < fields; f++) {
            if (batch.fieldNameId(a, f) != batch.fieldNameId(b, f) || batch.fieldType(a, f) != batch.fieldType(b, f)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Registers what {@code plan} adds. A concurrent commit may have registered some of it since
     * {@link #validate}: the same type is fine, another type fails here, still before anything of
     * the batch is written.
     *
     * @return the field declarations that are new; they are {@linkplain #unlogged() unlogged} until
     *     the caller has appended them to the WAL ahead of the batch
     */
    public synchronized List<FieldDeclaration> commit(Plan plan) {
        if (plan.isEmpty()) {
            return List.of();
        }
        for (FieldDeclaration d : plan.fields) {
            Measurement m = measurements.get(d.measurement());
            FieldInfo info = m == null ? null : m.fields.get(d.field());
            if (info != null && info.type() != d.type()) {
                throw new FieldTypeConflictException(d.measurement(), d.field(), info.type(), d.type());
            }
            if (m != null && m.tags.contains(d.field())) {
                throw new ColumnConflictException(d.measurement(), d.field(), "a field of the name of a tag");
            }
        }
        for (String[] t : plan.tags) {
            Measurement m = measurements.get(t[0]);
            if (m != null && m.fields.containsKey(t[1])) {
                throw new ColumnConflictException(t[0], t[1], "a tag of the name of a field");
            }
        }
        List<FieldDeclaration> added = new ArrayList<>(plan.fields.size());
        for (FieldDeclaration d : plan.fields) {
            if (declareFieldLocked(d.measurement(), d.field(), d.type(), true)) {
                added.add(d);
            }
        }
        for (String[] t : plan.tags) {
            declareTagLocked(t[0], t[1]);
        }
        return added;
    }

    /**
     * Registers a field that is durable already (replay, catalog). Returns whether it was new; a
     * conflicting type fails.
     */
    public synchronized boolean declareField(String measurement, String field, FieldType type) {
        FieldInfo info = field(measurement, field);
        if (info != null && info.type() != type) {
            throw new FieldTypeConflictException(measurement, field, info.type(), type);
        }
        return declareFieldLocked(measurement, field, type, false);
    }

    /**
     * Registers a field the engine declares itself (a rollup target's shape), as {@link #commit}
     * does a write's: if new, it is {@linkplain #unlogged() unlogged} until the caller has logged it.
     * Returns whether it was new; a conflicting type fails.
     */
    public synchronized boolean commitField(String measurement, String field, FieldType type) {
        FieldInfo info = field(measurement, field);
        if (info != null && info.type() != type) {
            throw new FieldTypeConflictException(measurement, field, info.type(), type);
        }
        return declareFieldLocked(measurement, field, type, true);
    }

    /**
     * Whether some committed field is not yet known to be in the WAL. One volatile read: the write
     * path asks it on every write and takes the schema-log lock only when it is true.
     */
    public boolean hasUnlogged() {
        return unloggedCount != 0;
    }

    /** Committed fields not yet known to be in the WAL, in commit order: what the next {@code Schema} record must hold. */
    public synchronized List<FieldDeclaration> unlogged() {
        return List.copyOf(unlogged);
    }

    /** Forgets the first {@code count} unlogged fields, which a WAL record now holds. */
    public synchronized void markLogged(int count) {
        unlogged.subList(0, count).clear();
        unloggedCount = unlogged.size();
    }

    public synchronized void declareTag(String measurement, String tag) {
        declareTagLocked(measurement, tag);
    }

    /** Registers every tag key of {@code batch}'s points that is not yet known (replay). */
    public void declareTags(PointBatch batch) {
        for (int p = 0; p < batch.size(); p++) {
            Measurement known = measurements.get(batch.measurement(p));
            for (int t = 0; t < batch.tagCount(p); t++) {
                if (known == null || !known.tags.contains(batch.tagKey(p, t))) {
                    declareTag(batch.measurement(p), batch.tagKey(p, t));
                    known = measurements.get(batch.measurement(p));
                }
            }
        }
    }

    private boolean declareFieldLocked(String measurement, String field, FieldType type, boolean toLog) {
        Measurement m = measurements.computeIfAbsent(measurement, Measurement::new);
        if (m.fields.containsKey(field)) {
            return false;
        }
        if (toLog) {
            // counted before the put below publishes the field (see the class comment)
            unlogged.add(new FieldDeclaration(measurement, field, type));
            unloggedCount = unlogged.size();
        }
        FieldInfo[] old = m.byOrdinal;
        FieldInfo info = new FieldInfo(field, type, old.length);
        FieldInfo[] grown = java.util.Arrays.copyOf(old, old.length + 1);
        grown[old.length] = info;
        m.byOrdinal = grown;
        m.fields.put(field, info);
        m.schema = null;
        unpersisted.add(new CatalogDeclaration(measurement, field, type));
        return true;
    }

    private void declareTagLocked(String measurement, String tag) {
        Measurement m = measurements.computeIfAbsent(measurement, Measurement::new);
        if (m.tags.add(tag)) {
            m.schema = null;
            unpersisted.add(new CatalogDeclaration(measurement, tag, null));
        }
    }

    /** The registered field, or {@code null}. Lock-free. */
    public FieldInfo field(String measurement, String field) {
        Measurement m = measurements.get(measurement);
        return m == null ? null : m.fields.get(field);
    }

    /** The field with {@code ordinal} in {@code measurement}. */
    public FieldInfo fieldByOrdinal(String measurement, int ordinal) {
        return measurements.get(measurement).byOrdinal[ordinal];
    }

    /** Fields registered in {@code measurement} (the exclusive upper bound of its ordinals). */
    public int fieldCount(String measurement) {
        Measurement m = measurements.get(measurement);
        return m == null ? 0 : m.byOrdinal.length;
    }

    /** Measurement names, sorted. */
    public List<String> measurements() {
        return new ArrayList<>(new TreeSet<>(measurements.keySet()));
    }

    /** The measurement's columns in canonical order, if it has any. */
    public Optional<MeasurementSchema> schema(String measurement) {
        Measurement m = measurements.get(measurement);
        if (m == null) {
            return Optional.empty();
        }
        MeasurementSchema s = m.schema;
        if (s == null) {
            synchronized (this) {
                List<Column> columns = new ArrayList<>();
                columns.add(Column.time());
                for (String tag : new TreeSet<>(m.tags)) {
                    columns.add(Column.tag(tag));
                }
                TreeSet<String> names = new TreeSet<>(m.fields.keySet());
                for (String f : names) {
                    columns.add(Column.field(f, m.fields.get(f).type()));
                }
                s = new MeasurementSchema(measurement, columns);
                m.schema = s;
            }
        }
        return Optional.of(s);
    }

    /** Declarations made since the last {@link #markPersisted}, in order; the catalog stores them. */
    public synchronized List<CatalogDeclaration> unpersisted() {
        return List.copyOf(unpersisted);
    }

    /** Forgets the first {@code count} unpersisted declarations, which the catalog now holds. */
    public synchronized void markPersisted(int count) {
        unpersisted.subList(0, count).clear();
    }
}

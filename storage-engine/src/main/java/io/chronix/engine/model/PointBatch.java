package io.chronix.engine.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A batch of points in columnar form: parallel primitive arrays indexed by point, with each point's
 * tags and fields as a range of further parallel arrays, and every string (measurement, tag key and
 * value, field name, string value) stored once in a per-batch dictionary and referred to by id.
 *
 * <pre>
 *   point i:  timestamps[i], measurements[i]            (string id)
 *             tags   tagStart[i]   .. tagStart[i+1]    -> tagKeys[], tagValues[]          (string ids)
 *             fields fieldStart[i] .. fieldStart[i+1]  -> fieldNames[], fieldTypes[], fieldValues[]
 * </pre>
 *
 * A field value is stored as 64 raw bits: {@link Double#doubleToRawLongBits} for FLOAT, the value
 * for INTEGER and UNSIGNED (unsigned interpretation), 0/1 for BOOLEAN, a string id for STRING.
 *
 * <p>Invariants (checked when a batch is built): within a point, tags are strictly ascending by key
 * and fields strictly ascending by name, so a point's tag range is its canonical series key and its
 * fields come in canonical column order; every id is a valid dictionary index; every point has at
 * least one field.
 *
 * <p>Why this shape: the line-protocol parser fills it without a {@code Point} object per line, the
 * WAL codec encodes it by walking the arrays, and the memtable can insert from it directly. Repeated
 * strings — the common case in time series — cost one dictionary entry per batch.
 *
 * <p>Threading: immutable once built; safe to share. The arrays are never exposed.
 */
public final class PointBatch {

    private final String[] strings;
    private final int size;
    private final long[] timestamps;
    private final int[] measurements;
    private final int[] tagStart;
    private final int[] tagKeys;
    private final int[] tagValues;
    private final int[] fieldStart;
    private final int[] fieldNames;
    private final byte[] fieldTypes;
    private final long[] fieldValues;

    private PointBatch(String[] strings, int size, long[] timestamps, int[] measurements, int[] tagStart, int[] tagKeys,
            int[] tagValues, int[] fieldStart, int[] fieldNames, byte[] fieldTypes, long[] fieldValues) {
        this.strings = strings;
        this.size = size;
        this.timestamps = timestamps;
        this.measurements = measurements;
        this.tagStart = tagStart;
        this.tagKeys = tagKeys;
        this.tagValues = tagValues;
        this.fieldStart = fieldStart;
        this.fieldNames = fieldNames;
        this.fieldTypes = fieldTypes;
        this.fieldValues = fieldValues;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A batch over arrays the caller hands over (they are not copied; the caller must not touch them
     * again). Used by decoders. Checks every invariant in the class comment.
     *
     * @throws IllegalArgumentException naming the first violated invariant
     */
    public static PointBatch ofColumns(String[] strings, long[] timestamps, int[] measurements, int[] tagStart, int[] tagKeys,
            int[] tagValues, int[] fieldStart, int[] fieldNames, byte[] fieldTypes, long[] fieldValues) {
        int size = timestamps.length;
        require(measurements.length == size && tagStart.length == size + 1 && fieldStart.length == size + 1,
                "point column lengths differ");
        require(tagKeys.length == tagValues.length && tagStart[0] == 0 && tagStart[size] == tagKeys.length, "tag ranges do not cover the tag columns");
        require(fieldNames.length == fieldTypes.length && fieldNames.length == fieldValues.length && fieldStart[0] == 0
                && fieldStart[size] == fieldNames.length, "field ranges do not cover the field columns");
        for (String s : strings) {
            require(s != null, "null dictionary string");
        }
        for (int i = 0; i < size; i++) {
            requireId(strings, measurements[i]);
            require(tagStart[i] <= tagStart[i + 1], "tag ranges go backwards");
            require(fieldStart[i] < fieldStart[i + 1], "point without fields");
            for (int t = tagStart[i]; t < tagStart[i + 1]; t++) {
                requireId(strings, tagKeys[t]);
                requireId(strings, tagValues[t]);
                require(t == tagStart[i] || strings[tagKeys[t - 1]].compareTo(strings[tagKeys[t]]) < 0,
                        "tags not strictly ascending by key");
            }
            for (int f = fieldStart[i]; f < fieldStart[i + 1]; f++) {
                requireId(strings, fieldNames[f]);
                FieldType type = FieldType.ofCode(fieldTypes[f]);
                require(type != null, "unknown field type code " + fieldTypes[f]);
                if (type == FieldType.STRING) {
                    require(fieldValues[f] >= 0 && fieldValues[f] < strings.length, "string value id out of range");
                } else if (type == FieldType.BOOLEAN) {
                    require(fieldValues[f] == 0 || fieldValues[f] == 1, "boolean value not 0 or 1");
                }
                require(f == fieldStart[i] || strings[fieldNames[f - 1]].compareTo(strings[fieldNames[f]]) < 0,
                        "fields not strictly ascending by name");
            }
        }
        return new PointBatch(strings, size, timestamps, measurements, tagStart, tagKeys, tagValues, fieldStart, fieldNames,
                fieldTypes, fieldValues);
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalArgumentException(what);
        }
    }

    private static void requireId(String[] strings, int id) {
        if (id < 0 || id >= strings.length) {
            throw new IllegalArgumentException("string id " + id + " out of range [0, " + strings.length + ")");
        }
    }

    public int size() {
        return size;
    }

    public int stringCount() {
        return strings.length;
    }

    public String string(int id) {
        return strings[id];
    }

    public long timestamp(int point) {
        return timestamps[Objects.checkIndex(point, size)];
    }

    public int measurementId(int point) {
        return measurements[Objects.checkIndex(point, size)];
    }

    public String measurement(int point) {
        return strings[measurementId(point)];
    }

    public int tagCount(int point) {
        return tagStart[point + 1] - tagStart[Objects.checkIndex(point, size)];
    }

    public int tagKeyId(int point, int tag) {
        return tagKeys[tagIndex(point, tag)];
    }

    public int tagValueId(int point, int tag) {
        return tagValues[tagIndex(point, tag)];
    }

    public String tagKey(int point, int tag) {
        return strings[tagKeyId(point, tag)];
    }

    public String tagValue(int point, int tag) {
        return strings[tagValueId(point, tag)];
    }

    public int fieldCount(int point) {
        return fieldStart[point + 1] - fieldStart[Objects.checkIndex(point, size)];
    }

    public int fieldNameId(int point, int field) {
        return fieldNames[fieldIndex(point, field)];
    }

    public String fieldName(int point, int field) {
        return strings[fieldNameId(point, field)];
    }

    public FieldType fieldType(int point, int field) {
        return FieldType.ofCode(fieldTypes[fieldIndex(point, field)]);
    }

    /** The value's raw 64 bits, as described in the class comment. */
    public long fieldBits(int point, int field) {
        return fieldValues[fieldIndex(point, field)];
    }

    public double floatValue(int point, int field) {
        return Double.longBitsToDouble(fieldValues[fieldIndex(point, field, FieldType.FLOAT)]);
    }

    /** An INTEGER's value, or an UNSIGNED's bits (read with {@link Long#toUnsignedString}). */
    public long longValue(int point, int field) {
        int f = fieldIndex(point, field);
        if (fieldTypes[f] != FieldType.INTEGER.code() && fieldTypes[f] != FieldType.UNSIGNED.code()) {
            throw new IllegalStateException("field is " + FieldType.ofCode(fieldTypes[f]) + ", not INTEGER or UNSIGNED");
        }
        return fieldValues[f];
    }

    public boolean booleanValue(int point, int field) {
        return fieldValues[fieldIndex(point, field, FieldType.BOOLEAN)] != 0;
    }

    public String stringValue(int point, int field) {
        return strings[(int) fieldValues[fieldIndex(point, field, FieldType.STRING)]];
    }

    /** Tags across all points. */
    public int totalTags() {
        return tagKeys.length;
    }

    /** Fields across all points. */
    public int totalFields() {
        return fieldNames.length;
    }

    private int tagIndex(int point, int tag) {
        int start = tagStart[Objects.checkIndex(point, size)];
        return start + Objects.checkIndex(tag, tagStart[point + 1] - start);
    }

    private int fieldIndex(int point, int field) {
        int start = fieldStart[Objects.checkIndex(point, size)];
        return start + Objects.checkIndex(field, fieldStart[point + 1] - start);
    }

    private int fieldIndex(int point, int field, FieldType expected) {
        int f = fieldIndex(point, field);
        if (fieldTypes[f] != expected.code()) {
            throw new IllegalStateException("field is " + FieldType.ofCode(fieldTypes[f]) + ", not " + expected);
        }
        return f;
    }

    /** Logical equality: same points with the same strings, regardless of dictionary order. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PointBatch other) || other.size != size || other.totalTags() != totalTags()
                || other.totalFields() != totalFields()) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (timestamps[i] != other.timestamps[i] || !measurement(i).equals(other.measurement(i))
                    || tagCount(i) != other.tagCount(i) || fieldCount(i) != other.fieldCount(i)) {
                return false;
            }
            for (int t = 0; t < tagCount(i); t++) {
                if (!tagKey(i, t).equals(other.tagKey(i, t)) || !tagValue(i, t).equals(other.tagValue(i, t))) {
                    return false;
                }
            }
            for (int f = 0; f < fieldCount(i); f++) {
                FieldType type = fieldType(i, f);
                if (!fieldName(i, f).equals(other.fieldName(i, f)) || type != other.fieldType(i, f)) {
                    return false;
                }
                boolean same = type == FieldType.STRING
                        ? stringValue(i, f).equals(other.stringValue(i, f))
                        : fieldBits(i, f) == other.fieldBits(i, f);
                if (!same) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = size;
        for (int i = 0; i < size; i++) {
            h = 31 * h + Long.hashCode(timestamps[i]);
            h = 31 * h + measurement(i).hashCode();
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("PointBatch[");
        for (int i = 0; i < Math.min(size, 8); i++) {
            sb.append(i == 0 ? "" : "; ").append(measurement(i));
            for (int t = 0; t < tagCount(i); t++) {
                sb.append(',').append(tagKey(i, t)).append('=').append(tagValue(i, t));
            }
            sb.append(' ');
            for (int f = 0; f < fieldCount(i); f++) {
                sb.append(f == 0 ? "" : ",").append(fieldName(i, f)).append('=');
                switch (fieldType(i, f)) {
                    case FLOAT -> sb.append(floatValue(i, f));
                    case INTEGER -> sb.append(longValue(i, f)).append('i');
                    case UNSIGNED -> sb.append(Long.toUnsignedString(longValue(i, f))).append('u');
                    case BOOLEAN -> sb.append(booleanValue(i, f));
                    case STRING -> sb.append('"').append(stringValue(i, f)).append('"');
                }
            }
            sb.append(' ').append(timestamps[i]);
        }
        return sb.append(size > 8 ? "; ...]" : "]").toString();
    }

    /**
     * Fills a batch point by point: {@code beginPoint}, any tags and fields in any order, {@code
     * endPoint}; repeat; {@code build}. Strings are interned per batch. {@code endPoint} sorts the
     * point's tags and fields into canonical order and refuses duplicates.
     *
     * <p>A builder can be {@link #reset()} and reused, keeping its arrays, so a parser filling one
     * batch per request allocates only the built batch.
     */
    public static final class Builder {

        private final Map<String, Integer> ids = new HashMap<>();
        private String[] strings = new String[16];
        private int stringCount;

        // The same dictionary keyed by UTF-8 bytes, for parsers: an open-addressing table of id + 1
        // (0 = empty) with each slot's hash, and each entry's bytes (null for strings interned as a
        // String and not yet looked up by bytes). A subset of {@code ids}, never disagreeing with it.
        private int[] byteSlots = new int[32];
        private int[] byteSlotHashes = new int[32];
        private byte[][] utf8 = new byte[16][];
        private int byteEntries;

        private int size;
        private long[] timestamps = new long[16];
        private int[] measurements = new int[16];
        private int[] tagStart = new int[17];
        private int[] fieldStart = new int[17];

        private int tagCount;
        private int[] tagKeys = new int[32];
        private int[] tagValues = new int[32];

        private int fieldCount;
        private int[] fieldNames = new int[32];
        private byte[] fieldTypes = new byte[32];
        private long[] fieldValues = new long[32];

        private boolean open;
        private final KeyOrder tagOrder = new KeyOrder();
        private final KeyOrder fieldOrder = new KeyOrder();
        private int[] scratchIds = new int[32];
        private int[] scratchIds2 = new int[32];
        private long[] scratchBits = new long[32];

        private Builder() {
        }

        public Builder beginPoint(String measurement, long timestamp) {
            return beginPointId(intern(measurement), timestamp);
        }

        private Builder beginPointId(int measurementId, long timestamp) {
            if (open) {
                throw new IllegalStateException("previous point not ended");
            }
            if (size == timestamps.length) {
                int n = size * 2;
                timestamps = Arrays.copyOf(timestamps, n);
                measurements = Arrays.copyOf(measurements, n);
                tagStart = Arrays.copyOf(tagStart, n + 1);
                fieldStart = Arrays.copyOf(fieldStart, n + 1);
            }
            timestamps[size] = timestamp;
            measurements[size] = measurementId;
            open = true;
            return this;
        }

        public Builder tag(String key, String value) {
            requireOpen();
            return tagId(intern(key), intern(value));
        }

        private Builder tagId(int keyId, int valueId) {
            requireOpen();
            if (tagCount == tagKeys.length) {
                tagKeys = Arrays.copyOf(tagKeys, tagCount * 2);
                tagValues = Arrays.copyOf(tagValues, tagCount * 2);
            }
            tagKeys[tagCount] = keyId;
            tagValues[tagCount] = valueId;
            tagCount++;
            return this;
        }

        public Builder floatField(String name, double value) {
            return field(name, FieldType.FLOAT, Double.doubleToRawLongBits(value));
        }

        public Builder integerField(String name, long value) {
            return field(name, FieldType.INTEGER, value);
        }

        /** {@code bits} read as an unsigned 64-bit integer. */
        public Builder unsignedField(String name, long bits) {
            return field(name, FieldType.UNSIGNED, bits);
        }

        public Builder booleanField(String name, boolean value) {
            return field(name, FieldType.BOOLEAN, value ? 1 : 0);
        }

        public Builder stringField(String name, String value) {
            requireOpen();
            return field(name, FieldType.STRING, intern(value));
        }

        private Builder field(String name, FieldType type, long bits) {
            requireOpen();
            return fieldId(intern(name), type, bits);
        }

        private Builder fieldId(int nameId, FieldType type, long bits) {
            requireOpen();
            if (fieldCount == fieldNames.length) {
                int n = fieldCount * 2;
                fieldNames = Arrays.copyOf(fieldNames, n);
                fieldTypes = Arrays.copyOf(fieldTypes, n);
                fieldValues = Arrays.copyOf(fieldValues, n);
            }
            fieldNames[fieldCount] = nameId;
            fieldTypes[fieldCount] = (byte) type.code();
            fieldValues[fieldCount] = bits;
            fieldCount++;
            return this;
        }

        /**
         * The dictionary id of the UTF-8 string in {@code bytes[off, off + len)}, adding it if new. A
         * string already in the batch costs no allocation (a hash and a byte comparison); a new one
         * costs its String and a copy of its bytes. The caller guarantees valid UTF-8 (a parser
         * validates it, to report where it is not); invalid sequences would become U+FFFD.
         */
        public int internUtf8(byte[] bytes, int off, int len) {
            Objects.checkFromIndexSize(off, len, bytes.length);
            int h = 0;
            for (int i = off, end = off + len; i < end; i++) {
                h = 31 * h + bytes[i];
            }
            h ^= h >>> 16;
            int mask = byteSlots.length - 1;
            int i = h & mask;
            for (int slot; (slot = byteSlots[i]) != 0; i = (i + 1) & mask) {
                if (byteSlotHashes[i] == h) {
                    byte[] e = utf8[slot - 1];
                    if (Arrays.equals(e, 0, e.length, bytes, off, off + len)) {
                        return slot - 1;
                    }
                }
            }
            int id = intern(new String(bytes, off, len, StandardCharsets.UTF_8));
            if (utf8.length < strings.length) {
                utf8 = Arrays.copyOf(utf8, strings.length);
            }
            utf8[id] = Arrays.copyOfRange(bytes, off, off + len);
            byteSlots[i] = id + 1;
            byteSlotHashes[i] = h;
            if (++byteEntries * 2 > byteSlots.length) {
                rehashBytes(byteSlots.length * 2);
            }
            return id;
        }

        private void rehashBytes(int capacity) {
            int[] oldSlots = byteSlots;
            int[] oldHashes = byteSlotHashes;
            byteSlots = new int[capacity];
            byteSlotHashes = new int[capacity];
            int mask = capacity - 1;
            for (int j = 0; j < oldSlots.length; j++) {
                if (oldSlots[j] != 0) {
                    int i = oldHashes[j] & mask;
                    while (byteSlots[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    byteSlots[i] = oldSlots[j];
                    byteSlotHashes[i] = oldHashes[j];
                }
            }
        }

        /** The dictionary string of an id this builder returned. */
        public String string(int id) {
            return strings[Objects.checkIndex(id, stringCount)];
        }

        /** {@link #beginPoint(String, long)} with an interned measurement. */
        public Builder beginPoint(int measurementId, long timestamp) {
            Objects.checkIndex(measurementId, stringCount);
            return beginPointId(measurementId, timestamp);
        }

        /** {@link #tag(String, String)} with interned key and value. */
        public Builder tag(int keyId, int valueId) {
            Objects.checkIndex(keyId, stringCount);
            Objects.checkIndex(valueId, stringCount);
            return tagId(keyId, valueId);
        }

        /**
         * A field with an interned name and its raw bits as in the {@link PointBatch} class comment
         * (for STRING, an interned id; for BOOLEAN, 0 or 1).
         */
        public Builder field(int nameId, FieldType type, long bits) {
            Objects.checkIndex(nameId, stringCount);
            Objects.requireNonNull(type, "type");
            if (type == FieldType.STRING) {
                Objects.checkIndex(bits, (long) stringCount);
            } else if (type == FieldType.BOOLEAN && bits != 0 && bits != 1) {
                throw new IllegalArgumentException("boolean bits must be 0 or 1: " + bits);
            }
            return fieldId(nameId, type, bits);
        }

        /**
         * Ends the open point: sorts its tags by key and fields by name.
         *
         * @throws IllegalArgumentException on a duplicate tag key or field name, or no field; the
         *     point is then discarded and the builder is ready for the next one
         */
        public Builder endPoint() {
            requireOpen();
            open = false;
            int t0 = tagStart[size];
            int f0 = fieldStart[size];
            try {
                if (fieldCount == f0) {
                    throw new IllegalArgumentException("point has no fields");
                }
                sortTags(t0, tagCount);
                sortFields(f0, fieldCount);
            } catch (IllegalArgumentException e) {
                tagCount = t0;
                fieldCount = f0;
                throw e;
            }
            size++;
            tagStart[size] = tagCount;
            fieldStart[size] = fieldCount;
            return this;
        }

        /** Points ended so far. */
        public int size() {
            return size;
        }

        public PointBatch build() {
            if (open) {
                throw new IllegalStateException("point not ended");
            }
            return new PointBatch(Arrays.copyOf(strings, stringCount), size, Arrays.copyOf(timestamps, size),
                    Arrays.copyOf(measurements, size), Arrays.copyOf(tagStart, size + 1), Arrays.copyOf(tagKeys, tagCount),
                    Arrays.copyOf(tagValues, tagCount), Arrays.copyOf(fieldStart, size + 1), Arrays.copyOf(fieldNames, fieldCount),
                    Arrays.copyOf(fieldTypes, fieldCount), Arrays.copyOf(fieldValues, fieldCount));
        }

        /** Forgets every point and string, keeping the arrays for reuse. */
        public Builder reset() {
            ids.clear();
            if (byteEntries > 0) {
                Arrays.fill(byteSlots, 0);
                Arrays.fill(utf8, 0, Math.min(stringCount, utf8.length), null);
                byteEntries = 0;
            }
            Arrays.fill(strings, 0, stringCount, null);
            stringCount = 0;
            tagOrder.forget(); // ids mean other strings after a reset
            fieldOrder.forget();
            size = 0;
            tagCount = 0;
            fieldCount = 0;
            open = false;
            return this;
        }

        private void requireOpen() {
            if (!open) {
                throw new IllegalStateException("no point begun");
            }
        }

        private int intern(String s) {
            Objects.requireNonNull(s, "string");
            Integer id = ids.get(s);
            if (id != null) {
                return id;
            }
            if (stringCount == strings.length) {
                strings = Arrays.copyOf(strings, stringCount * 2);
            }
            strings[stringCount] = s;
            ids.put(s, stringCount);
            return stringCount++;
        }

        // A point has a handful of tags and fields, so an insertion sort of their order beats anything
        // fancier and allocates nothing; and since the points of one request usually name the same
        // keys in the same order, the order found for one point is kept and reused by the next.
        private void sortTags(int from, int to) {
            int n = to - from;
            if (n < 2) {
                return;
            }
            int[] perm = tagOrder.of(tagKeys, from, to, strings, "duplicate tag key: ");
            if (scratchIds.length < n) {
                scratchIds = new int[n * 2];
                scratchIds2 = new int[n * 2];
            }
            for (int i = 0; i < n; i++) {
                scratchIds[i] = tagKeys[from + perm[i]];
                scratchIds2[i] = tagValues[from + perm[i]];
            }
            System.arraycopy(scratchIds, 0, tagKeys, from, n);
            System.arraycopy(scratchIds2, 0, tagValues, from, n);
        }

        private void sortFields(int from, int to) {
            int n = to - from;
            if (n < 2) {
                return;
            }
            int[] perm = fieldOrder.of(fieldNames, from, to, strings, "duplicate field name: ");
            if (scratchIds.length < n) {
                scratchIds = new int[n * 2];
                scratchIds2 = new int[n * 2];
            }
            if (scratchBits.length < n) {
                scratchBits = new long[n * 2];
            }
            for (int i = 0; i < n; i++) {
                scratchIds[i] = fieldNames[from + perm[i]];
                scratchIds2[i] = fieldTypes[from + perm[i]];
                scratchBits[i] = fieldValues[from + perm[i]];
            }
            System.arraycopy(scratchIds, 0, fieldNames, from, n);
            for (int i = 0; i < n; i++) {
                fieldTypes[from + i] = (byte) scratchIds2[i];
            }
            System.arraycopy(scratchBits, 0, fieldValues, from, n);
        }
    }

    /**
     * The canonical order of one point's keys, remembered for the next point: {@code perm[i]} is the
     * position, among the keys as given, of the i-th key in name order.
     */
    private static final class KeyOrder {
        private int[] given = new int[16];
        private int[] perm = new int[16];
        private int n = -1;

        /** The order of {@code ids[from, to)} by name; refuses a duplicate (naming it with {@code what}). */
        int[] of(int[] ids, int from, int to, String[] strings, String what) {
            int len = to - from;
            if (len == n && Arrays.equals(ids, from, to, given, 0, n)) {
                return perm; // the same keys in the same order as last time: sorted before, no duplicate
            }
            n = -1;
            if (perm.length < len) {
                perm = new int[len * 2];
                given = new int[len * 2];
            }
            for (int i = 0; i < len; i++) {
                perm[i] = i;
            }
            for (int i = 1; i < len; i++) {
                int k = perm[i];
                String key = strings[ids[from + k]];
                int j = i - 1;
                while (j >= 0 && strings[ids[from + perm[j]]].compareTo(key) > 0) {
                    perm[j + 1] = perm[j];
                    j--;
                }
                perm[j + 1] = k;
            }
            for (int i = 1; i < len; i++) {
                if (ids[from + perm[i]] == ids[from + perm[i - 1]]) {
                    throw new IllegalArgumentException(what + strings[ids[from + perm[i]]]);
                }
            }
            System.arraycopy(ids, from, given, 0, len);
            n = len;
            return perm;
        }

        void forget() {
            n = -1;
        }
    }
}

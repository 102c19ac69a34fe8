package io.chronix.engine.ingest;

/**
 * The bounds {@link LineProtocolParser} puts on one line, so that no line can make it (or the
 * engine behind it) hold memory or do work out of proportion to a point. A line over one of them
 * is rejected like any malformed line, with a {@link LineError} naming the limit.
 *
 * <p>Lengths are UTF-8 bytes of the element's value, escapes removed ({@code a\,b} is three
 * bytes); the line length is the bytes of the line as sent, from its first byte to its newline
 * (a string value spanning lines makes one line of them). Counts are per line.
 *
 * <p>Where the values come from: a string field holds at most 64 KiB, as in InfluxDB 1.x and 2.x;
 * a tag set at most 250 tags, InfluxDB 3's tag columns per table; a tag value at most 16 KiB and a
 * name (measurement, tag key, field key) at most 1 KiB, well inside the segment and sidecar formats'
 * {@code u16} lengths (names up to 65,535 bytes, tag values up to 65,534); 1,000 fields, twice
 * InfluxDB 3 Core's 500 columns per table; and 1 MiB a line, a bound on what one point can cost
 * whatever it holds.
 */
public enum LineLimit {

    /** Bytes of one line. */
    LINE_BYTES("maxLineBytes", 1 << 20),
    /** Bytes of a measurement name. */
    MEASUREMENT_BYTES("maxMeasurementBytes", 1024),
    /** Tags in one line. */
    TAGS_PER_LINE("maxTagsPerLine", 250),
    /** Bytes of a tag key. */
    TAG_KEY_BYTES("maxTagKeyBytes", 1024),
    /** Bytes of a tag value. */
    TAG_VALUE_BYTES("maxTagValueBytes", 16 * 1024),
    /** Fields in one line. */
    FIELDS_PER_LINE("maxFieldsPerLine", 1000),
    /** Bytes of a field key. */
    FIELD_KEY_BYTES("maxFieldKeyBytes", 1024),
    /** Bytes of a string field's value. */
    STRING_FIELD_BYTES("maxStringFieldBytes", 64 * 1024);

    private final String id;
    private final int value;

    LineLimit(String id, int value) {
        this.id = id;
        this.value = value;
    }

    /** The limit's stable name, as an error names it ({@code maxFieldsPerLine}). */
    public String id() {
        return id;
    }

    /** The bound: the largest length or count accepted. */
    public int value() {
        return value;
    }

    /** {@code " (limit maxFieldsPerLine = 1000)"}: how an error message names the limit. */
    String named() {
        return " (limit " + id + " = " + value + ")";
    }
}

package io.chronix.engine.model;

/**
 * The type of a field value. A field's type is fixed by its first write in a measurement. The code
 * is what the WAL codec stores; never renumber.
 */
public enum FieldType {
    FLOAT(0),
    INTEGER(1),
    UNSIGNED(2),
    BOOLEAN(3),
    STRING(4);

    private static final FieldType[] BY_CODE = values();

    private final int code;

    FieldType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** An {@code UNSIGNED} value's 64 bits as the nearest {@code double} (values above 2^63 included). */
    public static double unsignedToDouble(long bits) {
        double d = (double) (bits >>> 1) * 2.0;
        return d + (bits & 1);
    }

    /** The type with {@code code}, or {@code null} if there is none (the caller reports it). */
    public static FieldType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}

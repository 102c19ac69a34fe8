package io.chronix.engine.wal;

/**
 * The {@code record_type} byte of a WAL frame. The codes are the format; never renumber. New kinds
 * get new codes, which is what lets the log grow record kinds without a format change.
 */
public enum WalRecordType {
    /** One point. */
    DATA(0),
    /** A batch of points written by one request. */
    BATCH(1),
    /** Field type registrations. */
    SCHEMA(2),
    /** A delete of a series' time range. */
    TOMBSTONE(3);

    private static final WalRecordType[] BY_CODE = values();

    private final int code;

    WalRecordType(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The type with {@code code}, or {@code null} if this build knows none (the caller reports it). */
    public static WalRecordType ofCode(int code) {
        return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}

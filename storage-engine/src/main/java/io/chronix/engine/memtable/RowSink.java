package io.chronix.engine.memtable;

import io.chronix.engine.model.FieldType;

/**
 * Receives rows read out of a memtable, one series at a time in time order: {@code beginRow},
 * the fields present (by field ordinal), {@code endRow}. Absent fields are simply not reported.
 */
public interface RowSink {

    void beginRow(SeriesRef series, long timestamp);

    /** A non-string field: its raw 64 bits as {@code PointBatch} stores them. */
    void bitsField(int ordinal, FieldType type, long bits);

    void stringField(int ordinal, String value);

    void endRow();
}

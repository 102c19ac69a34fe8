package io.chronix.engine.codec;

import io.chronix.engine.model.FieldType;
import io.chronix.engine.model.PointBatch;
import io.chronix.engine.wal.WalRecordType;

import java.util.List;
import java.util.Objects;
import java.util.SortedMap;

/** A decoded WAL payload. Each kind has the codec discriminant equal to its WAL record type code. */
public sealed interface WalEntry {

    /** The WAL record type a payload of this entry is written under. */
    WalRecordType recordType();

    /** Points: a single point is a {@code DATA} record, more are a {@code BATCH}. */
    record Points(PointBatch points) implements WalEntry {
        public Points {
            Objects.requireNonNull(points, "points");
        }

        @Override
        public WalRecordType recordType() {
            return points.size() == 1 ? WalRecordType.DATA : WalRecordType.BATCH;
        }
    }

    /** Field types fixed by first writes, in the order they were fixed. */
    record Schema(List<FieldDeclaration> fields) implements WalEntry {
        public Schema {
            fields = List.copyOf(fields);
        }

        @Override
        public WalRecordType recordType() {
            return WalRecordType.SCHEMA;
        }
    }

    /** One field's type in one measurement. */
    record FieldDeclaration(String measurement, String field, FieldType type) {
        public FieldDeclaration {
            Objects.requireNonNull(measurement, "measurement");
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(type, "type");
        }
    }

    /** A delete of one series' points with timestamps in {@code [start, end]}. */
    record Tombstone(String measurement, SortedMap<String, String> tags, long start, long end) implements WalEntry {
        public Tombstone {
            Objects.requireNonNull(measurement, "measurement");
            tags = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(tags));
        }

        @Override
        public WalRecordType recordType() {
            return WalRecordType.TOMBSTONE;
        }
    }
}

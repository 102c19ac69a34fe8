package io.chronix.engine.read;

import io.chronix.engine.memtable.SeriesRef;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/** A predicate on one tag, pushed into the scan. A series without the tag has a NULL value for it. */
public sealed interface TagPredicate {

    String key();

    /** Whether a series whose tag {@code key} is {@code value} (null: absent) passes. */
    boolean test(String value);

    /** {@code key = value}; NULL never equals. */
    record Eq(String key, String value) implements TagPredicate {
        public Eq {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public boolean test(String v) {
            return value.equals(v);
        }
    }

    /** {@code key IN (values)}; NULL is in no set. */
    record In(String key, Set<String> values) implements TagPredicate {
        public In {
            Objects.requireNonNull(key, "key");
            values = Set.copyOf(values);
        }

        @Override
        public boolean test(String v) {
            return v != null && values.contains(v);
        }
    }

    /** {@code key IS NULL}: the series has no such tag. */
    record IsNull(String key) implements TagPredicate {
        public IsNull {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public boolean test(String v) {
            return v == null;
        }
    }

    /** Whether {@code series} passes every one of {@code predicates} (with none, every series does). */
    static boolean allHold(List<TagPredicate> predicates, SeriesRef series) {
        for (TagPredicate p : predicates) {
            if (!p.test(series.tag(p.key()))) {
                return false;
            }
        }
        return true;
    }

    static TagPredicate eq(String key, String value) {
        return new Eq(key, value);
    }

    static TagPredicate in(String key, Set<String> values) {
        return new In(key, values);
    }

    static TagPredicate isNull(String key) {
        return new IsNull(key);
    }
}

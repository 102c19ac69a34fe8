package io.chronix.engine.store;

import io.chronix.engine.read.TagPredicate;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Row tests shared by the {@link SegmentStore} implementations. */
final class SegmentStores {

    private SegmentStores() {
    }

    /** Whether row {@code row} of {@code root} passes every tag predicate (a missing tag column is NULL). */
    static boolean passes(VectorSchemaRoot root, int row, List<TagPredicate> tags) {
        for (TagPredicate p : tags) {
            FieldVector v = root.getVector(p.key());
            String value = v == null || v.isNull(row) ? null : new String(((VarCharVector) v).get(row), StandardCharsets.UTF_8);
            if (!p.test(value)) {
                return false;
            }
        }
        return true;
    }
}

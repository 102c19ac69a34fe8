package io.chronix.engine.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Unmodifiable, null-free list copies whose class does not depend on their size. {@code
 * List.copyOf} gives one class for one or two elements and another for none or more, and compiled
 * callers of {@code iterator}, {@code get} and {@code size} are specialised to the classes they have
 * seen: the query warm-up's one-row-group segments and one-predicate scans produced code that the
 * first real segment with three row groups, or the first scan with none or three predicates, threw
 * away (a {@code class_check} deoptimisation and a recompilation inside the first queries). The
 * engine's metadata and requests that the per-query path walks hold their lists in this one class.
 */
public final class SameClassList {

    private SameClassList() {
    }

    /** A copy of {@code list}, always of the same class; throws on a null element. */
    public static <T> List<T> copyOf(List<T> list) {
        List<T> copy = new ArrayList<>(list.size());
        for (T t : list) {
            copy.add(Objects.requireNonNull(t, "element"));
        }
        return Collections.unmodifiableList(copy);
    }
}

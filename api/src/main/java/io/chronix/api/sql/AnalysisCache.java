package io.chronix.api.sql;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.chronix.engine.schema.MeasurementSchema;

import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Statement analyses ({@link StatementAnalysis.Result}) kept per scope and statement text, the way
 * a database keeps a compiled query per text: a dashboard refreshing the same panel, or a client
 * repeating a query, skips reading DuckDB's parse tree again (about a fifth of a one-series query's
 * request-thread CPU). An analysis is a function of the statement's text, the namespace's
 * measurement names, the schemas it looked up and the timestamp literals it had DuckDB cast; a kept
 * one is used only while the names and every schema it looked up are still equal to what they were
 * (a new field, a new measurement: analysed again), and one that cast a literal that is not a plain
 * date and time (whose value could depend on when it is cast) is never kept. Errors are never kept.
 * The scope (a namespace's) keeps one tenant from learning, by timing, what another has run.
 *
 * <p>Threading: safe; an analysis is immutable and shared by the queries that find it.
 */
final class AnalysisCache {

    /** Bytes of statement text kept, each entry counted with a fixed share for its analysis. */
    static final long BYTES = 16L << 20;
    /** A literal cast whose text is this (digits, separators, a zone offset) has one value whenever it is cast. */
    private static final Pattern PLAIN_TIME = Pattern.compile("[0-9 T:.+\\-Z]*");

    /** What an analysis read. */
    @FunctionalInterface
    interface Analysis {
        StatementAnalysis.Result analyse(Function<String, Optional<MeasurementSchema>> schemas,
                                         StatementAnalysis.TimestampLiterals literals) throws SQLException;
    }

    private record Key(int scope, String sql) {
    }

    private record Kept(StatementAnalysis.Result result, Set<String> measurements, Map<String, Optional<MeasurementSchema>> schemas) {
        boolean holds(Set<String> now, Function<String, Optional<MeasurementSchema>> lookup) {
            if (!measurements.equals(now)) {
                return false;
            }
            for (Map.Entry<String, Optional<MeasurementSchema>> e : schemas.entrySet()) {
                if (!lookup.apply(e.getKey()).equals(e.getValue())) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * Maintenance on the calling thread: with Caffeine's default (the common pool), each new text's
     * put woke a pool thread to drain the write buffer — a second thread scheduled per query, on
     * the cores the query itself runs on (see {@link SqlSandbox}'s parse cache).
     */
    private final Cache<Key, Kept> kept;
    private final java.util.concurrent.atomic.LongAdder reused = new java.util.concurrent.atomic.LongAdder();

    AnalysisCache() {
        this(BYTES);
    }

    /** @param bytes the weight kept: statement text and a fixed share per analysis (see {@link #weight}) */
    AnalysisCache(long bytes) {
        kept = Caffeine.newBuilder().maximumWeight(bytes).weigher((Key k, Kept v) -> weight(k.sql())).executor(Runnable::run).build();
    }

    /** What a kept analysis of {@code sql} counts against the bound. */
    static int weight(String sql) {
        return 512 + 2 * sql.length();
    }

    /** Analyses kept now. */
    long size() {
        return kept.estimatedSize();
    }

    /**
     * The analysis of {@code sql} in {@code scope}: the kept one if it still holds, else {@code
     * analysis} run now (and kept if it may be).
     */
    StatementAnalysis.Result analyse(int scope, String sql, Set<String> measurements,
                                     Function<String, Optional<MeasurementSchema>> schemas,
                                     StatementAnalysis.TimestampLiterals literals, Analysis analysis) throws SQLException {
        Key key = new Key(scope, sql);
        Kept k = kept.getIfPresent(key);
        if (k != null && k.holds(measurements, schemas)) {
            reused.increment();
            return k.result();
        }
        Map<String, Optional<MeasurementSchema>> read = new HashMap<>();
        boolean[] plain = {true};
        StatementAnalysis.Result result = analysis.analyse(m -> read.computeIfAbsent(m, schemas), (text, type) -> {
            plain[0] &= PLAIN_TIME.matcher(text).matches();
            return literals.epochNanos(text, type);
        });
        if (plain[0]) {
            kept.put(key, new Kept(result, Set.copyOf(measurements), Map.copyOf(read)));
        } else {
            kept.invalidate(key);
        }
        return result;
    }

    /** Analyses answered from a kept one that still held. */
    long reused() {
        return reused.sum();
    }
}

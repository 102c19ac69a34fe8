package io.chronix.api.sql;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class AnalysisCacheTest {

    private static final StatementAnalysis.Result EMPTY = new StatementAnalysis.Result(Map.of(), Map.of(), false, java.util.List.of(), false);
    private static final StatementAnalysis.TimestampLiterals NO_CASTS = (text, type) -> OptionalLong.empty();

    @Test
    void aFullCacheHasEvictedByTheTimeAPutReturnsWithNoOtherThreadToWaitFor() throws Exception {
        String sql = "SELECT max(usage_user) FROM cpu WHERE hostname = 'host_%03d'";
        int fits = 8;
        AnalysisCache cache = new AnalysisCache((long) fits * AnalysisCache.weight(sql.formatted(0)));
        for (int i = 0; i < 500; i++) {
            cache.analyse(1, sql.formatted(i), Set.of("cpu"), m -> Optional.empty(), NO_CASTS, (schemas, literals) -> EMPTY);
            // maintenance runs inside the put: on a pool thread the cache would sit over its bound
            // until that thread was scheduled
            assertThat(cache.size()).as("analyses kept after put %d", i).isLessThanOrEqualTo(fits);
        }
    }

    @Test
    void aKeptAnalysisIsReusedForTheSameTextInTheSameScopeOnly() throws Exception {
        AnalysisCache cache = new AnalysisCache();
        AtomicInteger analysed = new AtomicInteger();
        AnalysisCache.Analysis counting = (schemas, literals) -> {
            analysed.incrementAndGet();
            return EMPTY;
        };
        String sql = "SELECT count(*) FROM cpu";
        cache.analyse(1, sql, Set.of("cpu"), m -> Optional.empty(), NO_CASTS, counting);
        cache.analyse(1, sql, Set.of("cpu"), m -> Optional.empty(), NO_CASTS, counting);
        cache.analyse(2, sql, Set.of("cpu"), m -> Optional.empty(), NO_CASTS, counting);
        assertThat(analysed).hasValue(2);
        assertThat(cache.reused()).isEqualTo(1);
    }
}

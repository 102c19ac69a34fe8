package io.chronix.bench.live;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LiveQueryTest {

    @Test
    void onlyATopLevelOrderByOrdersTheAnswer() {
        assertThat(LiveQuery.hasTopLevelOrderBy("SELECT * FROM cpu ORDER BY time")).isTrue();
        assertThat(LiveQuery.hasTopLevelOrderBy("SELECT a FROM cpu UNION ALL SELECT b FROM cpu\nORDER\n  BY 1")).isTrue();
        assertThat(LiveQuery.hasTopLevelOrderBy(
                "SELECT * FROM cpu QUALIFY row_number() OVER (PARTITION BY hostname ORDER BY time DESC) = 1")).isFalse();
        assertThat(LiveQuery.hasTopLevelOrderBy("SELECT * FROM (SELECT * FROM cpu ORDER BY time LIMIT 3)")).isFalse();
        assertThat(LiveQuery.hasTopLevelOrderBy("SELECT 'x ORDER BY y' AS s, \"ORDER BY\" FROM cpu")).isFalse();
        assertThat(LiveQuery.hasTopLevelOrderBy("SELECT border_by FROM cpu")).isFalse();
    }

    @Test
    void statementsFollowTheirNameLines() {
        List<LiveQuery> qs = LiveQuery.parse("""
                -- a note
                -- name: first
                SELECT 1;

                -- name: second
                -- what it asks
                SELECT a
                FROM cpu
                ORDER BY a;
                """);
        assertThat(qs).extracting(LiveQuery::name).containsExactly("first", "second");
        assertThat(qs.get(1).sql()).isEqualTo("SELECT a\nFROM cpu\nORDER BY a");
        assertThat(qs.get(0).ordered()).isFalse();
        assertThat(qs.get(1).ordered()).isTrue();
    }

    @Test
    void aNameGivenTwiceOrWithoutSqlIsRefused() {
        assertThatThrownBy(() -> LiveQuery.parse("-- name: a\nSELECT 1;\n-- name: a\nSELECT 2;")).hasMessageContaining("twice");
        assertThatThrownBy(() -> LiveQuery.parse("-- name: a\n-- name: b\nSELECT 2;")).hasMessageContaining("no SQL");
    }

    @Test
    void theSuiteHasAtLeastThirtyStatementsOverTheCpuTable() {
        List<LiveQuery> suite = LiveQuery.suite();
        assertThat(suite).hasSizeGreaterThanOrEqualTo(30);
        assertThat(suite).allSatisfy(q -> assertThat(q.sql()).containsIgnoringCase("FROM cpu").doesNotContainIgnoringCase("now()"));
    }
}

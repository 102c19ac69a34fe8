package io.chronix.bench.query;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AnswerCheckerTest {
    private static final ResultTable EXPECTED = new ResultTable(List.of("time", "hostname", "mean_usage_user"), List.of(
            List.of(0L, "host_1", 50.25),
            List.of(0L, "host_10", 12.0),
            List.of(3_600_000_000_000L, "host_1", 49.0)));

    @Test
    void theSameAnswerInAnyRowOrderWithExtraColumnsPasses() {
        ResultTable actual = new ResultTable(List.of("hostname", "TIME", "mean_usage_user", "region"), List.of(
                List.of("host_1", 3_600_000_000_000L, 49.0, "eu-west-1"),
                List.of("host_10", 0L, 12.0, "eu-west-1"),
                List.of("host_1", 0L, 50.25 + 1e-12, "eu-west-1")));
        assertThatCode(() -> AnswerChecker.check("q", EXPECTED, actual, false)).doesNotThrowAnyException();
    }

    @Test
    void aWrongValueFails() {
        List<List<Object>> rows = new ArrayList<>(EXPECTED.rows());
        rows.set(2, List.of(3_600_000_000_000L, "host_1", 49.5));
        assertThatThrownBy(() -> AnswerChecker.check("q", EXPECTED, new ResultTable(EXPECTED.columns(), rows), false))
                .isInstanceOf(WrongAnswerException.class)
                .hasMessageContaining("mean_usage_user").hasMessageContaining("49.5");
    }

    @Test
    void aMissingRowFails() {
        ResultTable actual = new ResultTable(EXPECTED.columns(), EXPECTED.rows().subList(0, 2));
        assertThatThrownBy(() -> AnswerChecker.check("q", EXPECTED, actual, false))
                .isInstanceOf(WrongAnswerException.class).hasMessageContaining("expected 3 rows, got 2");
    }

    @Test
    void aMissingColumnFails() {
        ResultTable actual = new ResultTable(List.of("time", "hostname", "avg"), EXPECTED.rows());
        assertThatThrownBy(() -> AnswerChecker.check("q", EXPECTED, actual, false))
                .isInstanceOf(WrongAnswerException.class).hasMessageContaining("lacks column 'mean_usage_user'");
    }

    @Test
    void aWrongOrderFailsOnlyWhenOrderIsChecked() {
        List<List<Object>> reversed = new ArrayList<>(EXPECTED.rows().reversed());
        ResultTable actual = new ResultTable(EXPECTED.columns(), reversed);
        assertThatCode(() -> AnswerChecker.check("q", EXPECTED, actual, false)).doesNotThrowAnyException();
        assertThatThrownBy(() -> AnswerChecker.check("q", EXPECTED, actual, true)).isInstanceOf(WrongAnswerException.class);
    }

    @Test
    void aNullWhereAValueIsExpectedFails() {
        List<List<Object>> rows = new ArrayList<>(EXPECTED.rows());
        List<Object> withNull = new ArrayList<>();
        withNull.add(0L);
        withNull.add("host_10");
        withNull.add(null);
        rows.set(1, withNull);
        assertThatThrownBy(() -> AnswerChecker.check("q", EXPECTED, new ResultTable(EXPECTED.columns(), rows), false))
                .isInstanceOf(WrongAnswerException.class);
    }

    @Test
    void toleranceIsRelativeAndTight() {
        assertThat(AnswerChecker.same(1e6, 1e6 + 1e-4)).isTrue();
        assertThat(AnswerChecker.same(1e6, 1e6 + 1e-2)).isFalse();
        assertThat(AnswerChecker.same(0.5, 0.5000001)).isFalse();
    }
}

package io.chronix.tenancy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IsoDurationTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"P30D, P30D", "p30d, P30D", "PT24H, P1D", "PT1H, PT1H", "P2W, P14D", "P1DT12H, PT36H", "PT0.5S, PT0.5S"})
    void parsesAndFormatsTheUsualForms(String in, String out) {
        assertThat(IsoDuration.format(IsoDuration.parse("retention", in))).isEqualTo(out);
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"30d", "P1Y", "P1M", "", "PT0S", "-P1D", "P-1D", "PT0.0001S", "forever"})
    void refusesWhatDoesNotParseOrHasNoFixedLengthNamingTheField(String in) {
        assertThatThrownBy(() -> IsoDuration.parse("retention", in))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errors().getFirst().field()).isEqualTo("retention"));
    }
}

package io.chronix.api.security;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class BearerTokenFilterTest {

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "Bearer abc       | abc",
            "bearer abc       | abc",
            "Token abc        | abc",
            "TOKEN   abc      | abc",
            "Basic dXNlcjpwdw== | NULL",
            "Bearer           | NULL",
            "Bearerabc        | NULL",
            "NULL             | NULL",
    })
    void credentialIsTakenFromBearerAndTokenSchemesOnly(String header, String expected) {
        assertThat(BearerTokenFilter.credential(header).orElse(null)).isEqualTo(expected);
    }
}

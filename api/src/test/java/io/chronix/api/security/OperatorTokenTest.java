package io.chronix.api.security;

import io.chronix.api.config.ChronixProperties;
import io.chronix.api.config.DataDirectory;
import io.chronix.api.config.StartupCheckException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OperatorTokenTest {

    @TempDir
    Path dir;

    private DataDirectory data;

    @BeforeEach
    void open() {
        data = DataDirectory.open(dir);
    }

    @AfterEach
    void close() {
        data.close();
    }

    private static ChronixProperties props(String token) {
        return new ChronixProperties(Path.of("unused"), token, new ChronixProperties.Cold(
                new ChronixProperties.S3(null, null, null, null, null, true, null)));
    }

    @Test
    void generatedTokenIsStoredOwnerOnlyAndReusedAfterRestart() throws Exception {
        OperatorToken first = new OperatorToken(props(null), data);
        assertThat(first.source()).isEqualTo(OperatorToken.Source.GENERATED);
        Path file = data.operatorTokenFile();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        String token = Files.readString(file).strip();
        assertThat(token).startsWith(OperatorToken.PREFIX).hasSizeGreaterThan(40);

        OperatorToken second = new OperatorToken(props(null), data);
        assertThat(second.source()).isEqualTo(OperatorToken.Source.FILE);
        assertThat(Files.readString(file).strip()).isEqualTo(token);
        assertThat(second.resolve(token)).isPresent();
        assertThat(second.resolve(token + "x")).isEmpty();
    }

    @Test
    void configuredTokenWinsAndNothingIsWritten() {
        OperatorToken t = new OperatorToken(props("a-configured-operator-token"), data);
        assertThat(t.source()).isEqualTo(OperatorToken.Source.CONFIGURED);
        assertThat(t.resolve("a-configured-operator-token")).get()
                .satisfies(a -> assertThat(a.getPrincipal()).isEqualTo(OperatorPrincipal.INSTANCE));
        assertThat(data.operatorTokenFile()).doesNotExist();
    }

    @Test
    void aShortConfiguredTokenIsRefused() {
        assertThatThrownBy(() -> new OperatorToken(props("short"), data))
                .isInstanceOf(StartupCheckException.class).hasMessageStartingWith("chronix.operator-token:");
    }
}

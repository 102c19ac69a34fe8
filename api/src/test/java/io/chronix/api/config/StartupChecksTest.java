package io.chronix.api.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StartupChecksTest {

    @TempDir
    Path dir;

    private void check(MockEnvironment env) {
        new StartupChecks().postProcessEnvironment(env, new SpringApplication());
    }

    @Test
    void aPortThatIsNotANumberNamesTheProperty() {
        MockEnvironment env = new MockEnvironment().withProperty("server.port", "http").withProperty("chronix.data-dir", dir.toString());
        assertThatThrownBy(() -> check(env)).isInstanceOf(StartupCheckException.class)
                .hasMessage("server.port: 'http' is not a port number");
    }

    @Test
    void aPortOutOfRangeNamesTheProperty() {
        MockEnvironment env = new MockEnvironment().withProperty("server.port", "70000").withProperty("chronix.data-dir", dir.toString());
        assertThatThrownBy(() -> check(env)).isInstanceOf(StartupCheckException.class)
                .hasMessage("server.port: 70000 is outside 0-65535");
    }

    @Test
    void aDataDirThatIsAFileIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        MockEnvironment env = new MockEnvironment().withProperty("chronix.data-dir", file.toString());
        assertThatThrownBy(() -> check(env)).isInstanceOf(StartupCheckException.class)
                .hasMessage("chronix.data-dir: " + file + " is a file, not a directory");
    }

    @Test
    void aDataDirThatCannotBeCreatedIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        MockEnvironment env = new MockEnvironment().withProperty("chronix.data-dir", file.resolve("below").toString());
        assertThatThrownBy(() -> check(env)).isInstanceOf(StartupCheckException.class)
                .hasMessageStartingWith("chronix.data-dir: cannot create " + file.resolve("below"));
    }

    @Test
    void aMissingDataDirIsCreated() {
        Path data = dir.resolve("a/b/data");
        check(new MockEnvironment().withProperty("chronix.data-dir", data.toString()).withProperty("server.port", "0"));
        assertThat(data).isDirectory();
    }

    @Test
    void aSecondOpenOfTheSameDataDirNamesTheLock() {
        try (DataDirectory first = DataDirectory.open(dir)) {
            assertThatThrownBy(() -> DataDirectory.open(dir)).isInstanceOf(StartupCheckException.class)
                    .hasMessageContaining("is in use by another process")
                    .hasMessageContaining(dir.resolve("LOCK").toString());
            assertThat(first.root()).isEqualTo(dir.toAbsolutePath().normalize());
        }
    }
}

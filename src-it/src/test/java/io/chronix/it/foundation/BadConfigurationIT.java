package io.chronix.it.foundation;

import io.chronix.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A bad setting stops start-up with one clear line naming the property, never a stack trace. */
class BadConfigurationIT {

    @TempDir
    Path dir;

    private String failedStart(Path data, List<String> args) throws Exception {
        ServiceProcess p = ServiceProcess.launch(data, args);
        assertThat(p.awaitExit(Duration.ofSeconds(90))).as("exit status").isNotZero();
        String out = p.output();
        assertThat(out).contains("APPLICATION FAILED TO START").doesNotContain("\tat ");
        return out;
    }

    @Test
    void aPortThatIsNotANumber() throws Exception {
        assertThat(failedStart(dir.resolve("d"), List.of("--server.port=eighty")))
                .contains("server.port: 'eighty' is not a port number");
    }

    @Test
    void aDataDirThatIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");
        assertThat(failedStart(file, List.of())).contains("chronix.data-dir: " + file + " is a file, not a directory");
    }

    @Test
    void anS3EndpointThatDoesNotAnswer() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String out = failedStart(dir.resolve("d"), List.of(
                "--chronix.cold.s3.endpoint=http://127.0.0.1:" + port,
                "--chronix.cold.s3.bucket=chronix-cold",
                "--chronix.cold.s3.access-key=k", "--chronix.cold.s3.secret-key=s",
                "--chronix.cold.s3.connect-timeout=2s"));
        assertThat(out).contains("chronix.cold.s3.endpoint: cold store s3 http://127.0.0.1:" + port + "/chronix-cold is not usable")
                .contains("does not answer");
    }

    @Test
    void anS3SettingMissingBesideTheEndpoint() throws Exception {
        assertThat(failedStart(dir.resolve("d"), List.of("--chronix.cold.s3.endpoint=http://127.0.0.1:9")))
                .contains("chronix.cold.s3.bucket: is required when chronix.cold.s3.endpoint is set");
    }
}

package io.chronix.api.config;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * Checks the settings that would otherwise fail deep inside start-up with a long stack trace: the
 * port and the data directory. Runs once the environment is complete (all property sources
 * loaded), before any bean exists.
 */
public final class StartupChecks implements EnvironmentPostProcessor, Ordered {

    static final String DATA_DIR = "chronix.data-dir";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        checkPort(env, "server.port");
        checkPort(env, "management.server.port");
        checkDataDir(env.getProperty(DATA_DIR, "./data"));
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE; // after the config-data processor has loaded every source
    }

    private static void checkPort(ConfigurableEnvironment env, String property) {
        String value = env.getProperty(property);
        if (value == null) {
            return;
        }
        int port;
        try {
            port = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new StartupCheckException(property, "'" + value + "' is not a port number", "Set " + property + " to a number from 0 to 65535.");
        }
        if (port < 0 || port > 65535) {
            throw new StartupCheckException(property, port + " is outside 0-65535", "Set " + property + " to a number from 0 to 65535.");
        }
    }

    static Path checkDataDir(String value) {
        String action = "Set " + DATA_DIR + " to a directory this process can create and write.";
        Path dir;
        try {
            dir = Path.of(value).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new StartupCheckException(DATA_DIR, "'" + value + "' is not a valid path", action);
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StartupCheckException(DATA_DIR, dir + " is a file, not a directory", action);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new StartupCheckException(DATA_DIR, "cannot create " + dir + " (" + reason(e) + ")", action);
        }
        // a real write, because permission bits say nothing when running as root or on a
        // read-only mount
        try {
            Path probe = Files.createTempFile(dir, ".write-probe", ".tmp");
            Files.delete(probe);
        } catch (IOException | SecurityException e) {
            throw new StartupCheckException(DATA_DIR, dir + " is not writable (" + reason(e) + ")", action);
        }
        return dir;
    }

    private static String reason(Exception e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}

package io.chronix.api.engine;

import io.chronix.engine.EngineConfig;
import io.chronix.engine.io.FaultInjectingFileIO;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * TEST ONLY: storage faults injected into every namespace engine, for the black-box tests of what
 * the service does about a failing disk. Off unless the JVM is started with the system property
 * {@value #PROPERTY} set to a directory — a {@code -D} option only, never a Spring property, so no
 * configuration file, environment variable or command-line argument of the service turns it on.
 * When on, every fsync of an engine's files fails (EIO) while {@code <dir>/fail-fsync} exists, and
 * every write finds the device full (ENOSPC) while {@code <dir>/disk-full} exists; the service
 * logs a WARN at start saying so, and the health component {@code engine} shows the directory.
 */
final class InjectedFaults {

    static final String PROPERTY = "chronix.test.inject-faults";
    static final String FAIL_FSYNC = "fail-fsync";
    static final String DISK_FULL = "disk-full";

    private static final Logger log = LoggerFactory.getLogger(InjectedFaults.class);

    private InjectedFaults() {
    }

    /** The trigger directory, when fault injection is on. */
    static Optional<Path> directory() {
        String dir = System.getProperty(PROPERTY);
        return dir == null || dir.isBlank() ? Optional.empty() : Optional.of(Path.of(dir).toAbsolutePath().normalize());
    }

    /** The engines' configuration hook: the identity, unless fault injection is on. */
    static Function<EngineConfig, EngineConfig> configHook() {
        Optional<Path> dir = directory();
        if (dir.isEmpty()) {
            return Function.identity();
        }
        Path failFsync = dir.get().resolve(FAIL_FSYNC);
        Path diskFull = dir.get().resolve(DISK_FULL);
        log.warn("TEST-ONLY STORAGE FAULT INJECTION IS ON (-D{}={}): every engine fsync fails while {} exists and every engine "
                        + "write finds the disk full while {} exists. Never run a service that holds real data this way.",
                PROPERTY, dir.get(), failFsync, diskFull);
        return c -> c.withIo(new FaultInjectingFileIO(c.io(), p -> Files.exists(failFsync), p -> Files.exists(diskFull)));
    }
}

package io.chronix.it.support;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A small memory file system mounted on a directory, so a test can fill a disk for real. Needs
 * root (or CAP_SYS_ADMIN); where it cannot be mounted the test is skipped, except under {@code
 * CI=true}, where it fails, as a missing service does.
 */
public final class Tmpfs implements AutoCloseable {

    private final Path mountPoint;

    private Tmpfs(Path mountPoint) {
        this.mountPoint = mountPoint;
    }

    /** Mounts a tmpfs of {@code megabytes} on {@code dir} (created if missing). */
    public static Tmpfs mount(Path dir, int megabytes) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        String why = run("mount", "-t", "tmpfs", "-o", "size=" + megabytes + "m", "tmpfs", dir.toString());
        if (why != null) {
            String message = "cannot mount a tmpfs on " + dir + " (" + why + "); the test needs root";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException(message + " (CI=true)");
            }
            Assumptions.abort(message);
        }
        return new Tmpfs(dir);
    }

    public Path path() {
        return mountPoint;
    }

    /** Writes {@code name} in 64 KiB pieces until the file system is full; returns the bytes written. */
    public long fill(String name) throws IOException {
        byte[] chunk = new byte[64 << 10];
        long written = 0;
        try (var out = Files.newOutputStream(mountPoint.resolve(name))) {
            while (true) {
                out.write(chunk);
                written += chunk.length;
            }
        } catch (IOException full) {
            if (full.getMessage() == null || !full.getMessage().contains("No space left on device")) {
                throw full;
            }
        }
        return written;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        String why = run("umount", "-l", mountPoint.toString());
        if (why != null) {
            throw new IOException("cannot unmount " + mountPoint + ": " + why);
        }
    }

    /** Runs a command; null if it succeeded, else what went wrong. */
    private static String run(String... command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return e.getMessage();
        }
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return "timed out";
        }
        return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    }
}

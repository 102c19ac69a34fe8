package io.chronix.api.embedded;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Finds and stops a PostgreSQL server that an earlier process of this service left running on the
 * embedded cluster. {@code pg_ctl} starts the server in its own session, so when the service's JVM
 * is killed the server lives on (parent 1), holding the cluster; the next start would wait for a
 * cluster it cannot have and give up. The service holds the data directory's lock before this runs,
 * so no live service owns the cluster: a server on it is a leftover and safe to stop.
 *
 * <p>A server is recognised only when all of these hold, so a recycled process id is never
 * signalled: {@code postmaster.pid} names a live process, that process's executable is
 * {@code postgres}, and its working directory (PostgreSQL runs in its cluster directory) is the
 * cluster. It is asked for a fast shutdown (SIGINT: open transactions roll back, a checkpoint is
 * written); one that does not stop within the timeout gets an immediate shutdown (SIGQUIT: like a
 * crash, which the next start recovers from its WAL — safe with fsync on) and then SIGKILL.
 */
final class LeftoverPostmaster {

    private static final Logger log = LoggerFactory.getLogger(LeftoverPostmaster.class);

    private LeftoverPostmaster() {
    }

    /**
     * Stops the leftover server on {@code cluster}, if there is one.
     *
     * @return the stopped server's process id, if one was found
     * @throws IOException if a leftover server could not be stopped
     */
    static Optional<Long> stop(Path cluster, Duration timeout) throws IOException {
        Optional<ProcessHandle> server = find(cluster);
        if (server.isEmpty()) {
            return Optional.empty();
        }
        ProcessHandle p = server.get();
        log.warn("a PostgreSQL left running by an earlier process of this service holds the embedded cluster; stopping it"
                + " [pid={}, dir={}, timeout={}]", p.pid(), cluster, timeout);
        signal(p, "INT");
        if (!awaitExit(p, timeout)) {
            log.warn("the leftover PostgreSQL did not stop in time; stopping it immediately [pid={}]", p.pid());
            signal(p, "QUIT");
            if (!awaitExit(p, Duration.ofSeconds(10))) {
                p.destroyForcibly();
                if (!awaitExit(p, Duration.ofSeconds(10))) {
                    throw new IOException("a PostgreSQL left running on " + cluster + " (pid " + p.pid() + ") does not stop");
                }
            }
        }
        log.info("leftover PostgreSQL stopped [pid={}]", p.pid());
        return Optional.of(p.pid());
    }

    /** The live server whose {@code postmaster.pid} is in {@code cluster}, verified as described above. */
    static Optional<ProcessHandle> find(Path cluster) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(cluster.resolve("postmaster.pid"));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (lines.isEmpty()) {
            return Optional.empty(); // written and not yet filled, or torn by a crash: no live server announced
        }
        long pid;
        try {
            pid = Long.parseLong(lines.getFirst().trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (p.isEmpty() || !isPostgres(p.get()) || !runsIn(pid, cluster)) {
            return Optional.empty(); // the server died with the crash, or its id now belongs to another process
        }
        return p;
    }

    private static boolean isPostgres(ProcessHandle p) {
        return p.info().command().map(c -> Path.of(c).getFileName().toString().equals("postgres")).orElse(false);
    }

    private static boolean runsIn(long pid, Path cluster) {
        try {
            Path cwd = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd"));
            return cwd.equals(cluster.toRealPath());
        } catch (IOException | UnsupportedOperationException e) {
            return false; // cannot tell: never signal a process we cannot identify
        }
    }

    private static void signal(ProcessHandle p, String signal) throws IOException {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping a leftover PostgreSQL", e);
        }
    }

    private static boolean awaitExit(ProcessHandle p, Duration timeout) throws IOException {
        try {
            p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return !p.isAlive();
        } catch (ExecutionException e) {
            return !p.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping a leftover PostgreSQL", e);
        }
    }
}

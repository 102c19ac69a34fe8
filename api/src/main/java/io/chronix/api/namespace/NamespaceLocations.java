package io.chronix.api.namespace;

import io.chronix.api.config.DataDirectory;
import io.chronix.engine.error.CorruptFileException;
import io.chronix.engine.error.UnsupportedFormatVersionException;
import io.chronix.engine.identity.IdentityReader;
import io.chronix.engine.identity.IdentityWriter;
import io.chronix.engine.identity.NamespaceIdentity;
import io.chronix.engine.io.FileIO;
import io.chronix.engine.io.NioFileIO;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.tenancy.namespace.Namespace;
import io.chronix.tenancy.namespace.NamespaceProvisioner;
import io.chronix.tenancy.namespace.NamespaceService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where a namespace's data lives, from its internal id only: the engine directory
 * {@code <data>/namespaces/<id>} and the cold objects under {@code ns_<id>/}. The user-facing name
 * never takes part, so no client input becomes a path or a key.
 *
 * <p>A directory belongs to one namespace forever. Ids are never reused (drawn at random, see
 * {@code NamespaceService}), and each directory carries an {@code IDENTITY} file (namespace id and
 * tenant, {@code docs/format/identity.md}) written and fsynced before the namespace is acknowledged.
 * {@link #openable} checks it before every open: a directory that says it belongs to another
 * namespace or tenant — or a directory of a random-id namespace with no identity at all — is never
 * served; it is moved to {@code <data>/quarantine/} and reported (an ERROR log line naming both
 * identities, and {@link #quarantined()}), and the namespace starts from a new empty directory.
 * Directories from before identities existed (sequence ids, below {@link #FIRST_RANDOM_ID}) with no
 * identity are adopted by their row once, with a WARN.
 *
 * <p>Threading: {@link #openable} for one namespace is serialised by the engine registry's entry
 * lock; different namespaces touch different directories.
 */
@Component
public class NamespaceLocations implements NamespaceProvisioner {

    private static final Logger log = LoggerFactory.getLogger(NamespaceLocations.class);

    /** Ids at or above this are drawn at random; below it are the sequence ids of earlier releases. */
    public static final long FIRST_RANDOM_ID = NamespaceService.FIRST_RANDOM_ID;

    private final Path root;
    private final Path quarantine;
    private final FileIO files;
    private final Clock clock;
    private final LongAdder quarantined = new LongAdder();

    @Autowired
    public NamespaceLocations(DataDirectory data) {
        this(data.namespaces(), data.root().resolve("quarantine"), NioFileIO.INSTANCE, Clock.systemUTC());
    }

    NamespaceLocations(Path root, Path quarantine, FileIO io, Clock clock) {
        this.root = root;
        this.quarantine = quarantine;
        this.files = io;
        this.clock = clock;
    }

    /** The engine's id of the namespace. */
    public static NamespaceId engineId(Namespace ns) {
        return new NamespaceId(ns.id());
    }

    /** {@code <data>/namespaces/<id>}; not created here. */
    public Path directory(NamespaceId id) {
        Path dir = root.resolve(Long.toString(id.value()));
        assert dir.getParent().equals(root) : "a namespace directory is a direct child of <data>/namespaces";
        return dir;
    }

    /** Whether an engine has ever opened the namespace's directory (a provisioned one holds only its identity). */
    public boolean hasEngineData(NamespaceId id) {
        return Files.exists(directory(id).resolve("VERSION")); // written at an engine's first open (docs/format/version.md)
    }

    /** Where directories that are never served are moved. */
    public Path quarantineDirectory() {
        return quarantine;
    }

    /** How many directories this process has quarantined. */
    public long quarantined() {
        return quarantined.sum();
    }

    static NamespaceIdentity identityOf(Namespace ns) {
        return new NamespaceIdentity(ns.id(), ns.tenantId(), ns.createdAt().toEpochMilli());
    }

    /**
     * Makes the new namespace's directory with its identity, durably; called inside the transaction
     * that creates the row, so the namespace is acknowledged only after both.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the directory exists (the caller draws another id)
     */
    @Override
    public void provision(Namespace ns) throws IOException {
        files.createDirectories(root);
        IdentityWriter.create(files, directory(engineId(ns)), identityOf(ns));
    }

    /** Removes a directory {@link #provision} made for a row that was then not committed. */
    @Override
    public void unprovision(Namespace ns) {
        Path dir = directory(engineId(ns));
        try {
            if (!files.exists(dir)) {
                return;
            }
            Optional<NamespaceIdentity> found = IdentityReader.read(files, dir);
            if (found.isEmpty() || found.get().sameOwnerAs(identityOf(ns))) {
                DataDirectory.deleteTree(dir); // ours, or a start of ours that never got its identity
            }
        } catch (IOException | RuntimeException e) {
            log.warn("could not remove the directory of a namespace that was not created; the start-up audit reports it [dir={}]", dir, e);
        }
    }

    /**
     * The directory to open the namespace's engine on, checked as the class comment says: created
     * with the identity when missing, adopted when it predates identities, quarantined and replaced
     * when it belongs to someone else.
     *
     * @throws CorruptFileException              if the identity file is damaged: the directory is not
     *                                           served until an operator looks (it may be the namespace's own data)
     * @throws UnsupportedFormatVersionException if the identity file is of another version
     */
    public Path openable(Namespace ns) {
        Path dir = directory(engineId(ns));
        NamespaceIdentity expected = identityOf(ns);
        try {
            if (!files.exists(dir)) {
                files.createDirectories(root);
                IdentityWriter.create(files, dir, expected);
                return dir;
            }
            Optional<NamespaceIdentity> found = IdentityReader.read(files, dir);
            if (found.isPresent() && found.get().sameOwnerAs(expected)) {
                return dir;
            }
            if (found.isEmpty() && ns.id() < FIRST_RANDOM_ID) {
                IdentityWriter.write(files, dir, expected);
                log.warn("namespace directory from before identities adopted by its namespace [namespace={}, tenant={}, dir={}]",
                        ns.id(), ns.tenantId(), dir);
                return dir;
            }
            quarantine(dir, "its identity " + found.map(NamespaceIdentity::toString).orElse("is missing")
                    + " does not match namespace " + ns.id() + " of tenant " + ns.tenantId());
            IdentityWriter.create(files, dir, expected);
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the namespace directory [dir=" + dir + "]", e);
        }
    }

    /**
     * Moves {@code dir} to the quarantine directory, never to be served, and reports it.
     *
     * @return where it went
     */
    public Path quarantine(Path dir, String why) throws IOException {
        Files.createDirectories(quarantine);
        Path target = quarantine.resolve(dir.getFileName() + "-" + clock.millis());
        files.rename(dir, target);
        files.syncDirectory(dir.getParent());
        files.syncDirectory(quarantine);
        quarantined.increment();
        log.error("namespace directory quarantined: it is not served to anyone; inspect it and delete it or restore it by hand"
                + " [dir={}, movedTo={}, reason={}]", dir, target, why);
        return target;
    }
}

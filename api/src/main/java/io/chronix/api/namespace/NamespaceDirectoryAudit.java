package io.chronix.api.namespace;

import io.chronix.engine.error.EngineException;
import io.chronix.engine.identity.IdentityReader;
import io.chronix.engine.identity.NamespaceIdentity;
import io.chronix.engine.io.NioFileIO;
import io.chronix.tenancy.namespace.NamespaceService;
import io.chronix.tenancy.namespace.NamespaceService.RowOwner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * At start, before the service takes requests, checks every directory under
 * {@code <data>/namespaces} against the namespace rows: a directory with no row at all (its
 * namespace's creation never committed, or the row was lost) and a directory whose identity names
 * another namespace or tenant are quarantined and reported, never adopted by a later namespace.
 * Directories of deleted namespaces are left to the reaper; a damaged identity is reported and
 * left, and the namespace is not served until an operator looks ({@link NamespaceLocations#openable}).
 *
 * <p>Runs once, after all singletons exist and before the web server starts listening, so no
 * namespace is being created while it looks.
 */
@Component
class NamespaceDirectoryAudit implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(NamespaceDirectoryAudit.class);

    private final NamespaceLocations locations;
    private final NamespaceService namespaces;
    private final Path root;

    NamespaceDirectoryAudit(NamespaceLocations locations, NamespaceService namespaces, io.chronix.api.config.DataDirectory data) {
        this.locations = locations;
        this.namespaces = namespaces;
        this.root = data.namespaces();
    }

    @Override
    public void afterSingletonsInstantiated() {
        try {
            Report r = audit(namespaces::allRows);
            if (r.quarantined() > 0 || r.damaged() > 0 || r.unknown() > 0) {
                log.warn("namespace directories audited: some are not served [checked={}, quarantined={}, damaged={}, unknown={}]",
                        r.checked(), r.quarantined(), r.damaged(), r.unknown());
            } else {
                log.info("namespace directories audited [checked={}]", r.checked());
            }
        } catch (IOException | RuntimeException e) {
            // the per-open check still guards every directory; the audit only reports early
            log.error("namespace directory audit failed; each directory is still checked when its namespace opens", e);
        }
    }

    /** What one audit found. */
    record Report(int checked, int quarantined, int damaged, int unknown) {
    }

    /** @param allRows every namespace row by id, read only if there is a directory to check */
    Report audit(java.util.function.Supplier<Map<Long, RowOwner>> allRows) throws IOException {
        if (!Files.isDirectory(root)) {
            return new Report(0, 0, 0, 0);
        }
        List<Path> dirs;
        try (Stream<Path> s = Files.list(root)) {
            dirs = s.filter(Files::isDirectory).sorted().toList();
        }
        if (dirs.isEmpty()) {
            return new Report(0, 0, 0, 0);
        }
        Map<Long, RowOwner> rows = allRows.get();
        int quarantined = 0;
        int damaged = 0;
        int unknown = 0;
        for (Path dir : dirs) {
            long id = idOf(dir);
            if (id <= 0) {
                unknown++;
                log.warn("a directory among the namespace directories is not one the service makes; it is left alone [dir={}]", dir);
                continue;
            }
            RowOwner row = rows.get(id);
            if (row == null) {
                locations.quarantine(dir, "no namespace has this id (its creation never committed, or its row was lost)");
                quarantined++;
                continue;
            }
            if (!row.live()) {
                continue; // deleted: the reaper removes it
            }
            Optional<NamespaceIdentity> found;
            try {
                found = IdentityReader.read(NioFileIO.INSTANCE, dir);
            } catch (EngineException e) {
                damaged++;
                log.error("namespace directory has a damaged identity; the namespace is not served until it is repaired [dir={}]", dir, e);
                continue;
            }
            if (found.isPresent() && (found.get().namespaceId() != id || !found.get().owner().equals(row.tenant()))) {
                locations.quarantine(dir, "its identity " + found.get() + " does not match namespace " + id + " of tenant " + row.tenant());
                quarantined++;
            }
        }
        return new Report(dirs.size(), quarantined, damaged, unknown);
    }

    private static long idOf(Path dir) {
        String name = dir.getFileName().toString();
        if (name.isEmpty() || name.length() > 19 || !name.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        try {
            return Long.parseLong(name);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}

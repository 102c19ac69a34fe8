package io.chronix.api.namespace;

import io.chronix.api.config.DataDirectory;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.engine.storage.SegmentPath;
import io.chronix.engine.storage.StorageBackend;
import io.chronix.tenancy.namespace.PendingDeletion;
import io.chronix.tenancy.namespace.PendingDeletions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Removes the data of deleted namespaces: polls the {@code pending_deletions} queue (which the
 * deletion wrote in its own transaction, so the work survives restarts), tells every
 * {@link NamespaceDataListener}, deletes {@code <data>/namespaces/<id>} and every cold object of the
 * namespace, and only then marks the entry done. A failure leaves the entry for a later attempt
 * with back-off. Paths and keys come from the numeric id only.
 *
 * <p>Threading: runs on Spring's scheduler, one pass at a time ({@code synchronized}).
 */
@Component
public class NamespaceDataReaper {

    private static final Logger log = LoggerFactory.getLogger(NamespaceDataReaper.class);
    static final int BATCH = 20;

    private final PendingDeletions pending;
    private final NamespaceLocations locations;
    private final StorageBackend cold;
    private final List<NamespaceDataListener> listeners;

    NamespaceDataReaper(PendingDeletions pending, NamespaceLocations locations, StorageBackend cold, List<NamespaceDataListener> listeners) {
        this.pending = pending;
        this.locations = locations;
        this.cold = cold;
        this.listeners = List.copyOf(listeners);
    }

    @Scheduled(initialDelayString = "${chronix.deletion.initial-delay:PT2S}", fixedDelayString = "${chronix.deletion.poll-interval:PT5S}")
    void scheduled() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            log.warn("namespace data removal pass failed; retrying at the next pass", e);
        }
    }

    /** One pass over the due entries; returns how many namespaces were removed completely. */
    public synchronized int runOnce() {
        int removed = 0;
        for (PendingDeletion p : pending.due(BATCH)) {
            NamespaceId id = new NamespaceId(p.namespaceId());
            try {
                listeners.forEach(l -> l.beforeDataRemoval(id));
                DataDirectory.deleteTree(locations.directory(id));
                int objects = 0;
                for (SegmentPath s : cold.list(id)) {
                    cold.delete(s);
                    objects++;
                }
                pending.completed(id.value());
                removed++;
                log.info("removed the data of deleted namespace [id={}, coldObjects={}]", id, objects);
            } catch (IOException | RuntimeException e) {
                pending.failed(id.value(), e.getClass().getSimpleName() + ": " + e.getMessage());
                log.warn("could not remove the data of deleted namespace [id={}, attempt={}]; will retry", id, p.attempts() + 1, e);
            }
        }
        return removed;
    }
}

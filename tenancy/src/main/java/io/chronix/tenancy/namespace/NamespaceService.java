package io.chronix.tenancy.namespace;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.IsoDuration;
import io.chronix.tenancy.LimitExceededException;
import io.chronix.tenancy.NameTakenException;
import io.chronix.tenancy.NotFoundException;
import io.chronix.tenancy.Page;
import io.chronix.tenancy.ResourceName;
import io.chronix.tenancy.TenancyChanges;
import io.chronix.tenancy.quota.QuotaService;
import io.chronix.tenancy.quota.Quotas;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.security.SecureRandom;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A tenant's namespaces. Creating one writes only rows (the engine directory appears on first use);
 * deleting one marks it deleted and queues its data for removal in the same transaction, so every
 * later lookup misses at once and the removal survives restarts ({@link PendingDeletions}).
 *
 * <p>Ids: each new namespace's id is drawn at random from [{@link #FIRST_RANDOM_ID}, 2^63), never
 * from a sequence, so an id — which names the namespace's directory and object prefix — cannot come
 * round again, whatever a crash did to the database; earlier releases' sequence ids all lie below.
 * A {@link NamespaceProvisioner}, when there is one, makes the namespace's storage inside the
 * creating transaction, so the namespace is acknowledged only once its storage is durable.
 *
 * <p>Lookups take any string: a name that breaks the rules is simply not found, so hostile input
 * never reaches SQL as anything but a parameter, and never a path.
 */
@Service
public class NamespaceService {

    /** The smallest id drawn at random; every sequence id of earlier releases is below it. */
    public static final long FIRST_RANDOM_ID = 1L << 62;
    /** Draws before giving up: a clash is a one-in-2^62 event per existing id, so more than one means something is wrong. */
    private static final int ID_ATTEMPTS = 8;

    private final JdbcClient jdbc;
    private final QuotaService quotas;
    private final TenancyChanges changes;
    private final ObjectProvider<NamespaceProvisioner> provisioner;
    private final SecureRandom random = new SecureRandom();

    NamespaceService(JdbcClient jdbc, QuotaService quotas, TenancyChanges changes, ObjectProvider<NamespaceProvisioner> provisioner) {
        this.jdbc = jdbc;
        this.quotas = quotas;
        this.changes = changes;
        this.provisioner = provisioner;
    }

    /**
     * @param retention null = the tenant's {@code maxRetention}
     * @param coldAfter null = the service's default policy
     * @throws NotFoundException       if the tenant is not live
     * @throws LimitExceededException  over {@code maxNamespaces} or {@code maxRetention}
     * @throws NameTakenException      if a live namespace of the tenant has the name
     */
    @Transactional
    public Namespace create(UUID tenant, String name, Duration retention, Duration coldAfter) {
        ResourceName.check("name", name);
        lockLiveTenant(tenant);
        Quotas q = quotas.effective(tenant);
        Duration r = retention == null ? q.maxRetention() : retention;
        checkDurations(tenant, q, r, coldAfter);
        long live = jdbc.sql("SELECT count(*) FROM namespaces WHERE tenant_id = ? AND deleted_at IS NULL").param(tenant)
                .query(Long.class).single();
        if (live >= q.maxNamespaces()) {
            throw new LimitExceededException(tenant, "maxNamespaces", Integer.toString(q.maxNamespaces()),
                    "the tenant has as many namespaces as its quota allows");
        }
        if (find(tenant, name).isPresent()) {
            throw new NameTakenException("name", name);
        }
        NamespaceProvisioner storage = provisioner.getIfAvailable();
        for (int attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
            long id = FIRST_RANDOM_ID + random.nextLong(Long.MAX_VALUE - FIRST_RANDOM_ID);
            Optional<Namespace> inserted;
            try {
                inserted = jdbc.sql("INSERT INTO namespaces (id, tenant_id, name, retention_ms, cold_after_ms) VALUES (?, ?, ?, ?, ?)"
                                + " ON CONFLICT (id) DO NOTHING RETURNING " + NamespaceRows.COLUMNS)
                        .params(id, tenant, name, r.toMillis(), coldAfter == null ? null : coldAfter.toMillis())
                        .query(NamespaceRows::namespace).optional();
            } catch (DuplicateKeyException e) {
                throw new NameTakenException("name", name); // lost a race the tenant lock makes unlikely
            }
            if (inserted.isEmpty()) {
                continue; // the id is a row's already: draw again
            }
            Namespace ns = inserted.get();
            if (storage != null && !provision(storage, ns)) {
                jdbc.sql("DELETE FROM namespaces WHERE id = ?").param(id).update();
                continue; // the id's directory exists without a row (an orphan): never reuse it
            }
            jdbc.sql("INSERT INTO namespace_usage (namespace_id) VALUES (?)").param(ns.id()).update();
            return ns;
        }
        throw new IllegalStateException("no free namespace id after " + ID_ATTEMPTS + " random draws");
    }

    /** False if the id's storage exists already; on success, undone if the transaction does not commit. */
    private static boolean provision(NamespaceProvisioner storage, Namespace ns) {
        try {
            storage.provision(ns);
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            storage.unprovision(ns); // whatever part of it was made
            throw new UncheckedIOException("cannot make the new namespace's storage [namespace=" + ns.id() + "]", e);
        }
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    if (status != STATUS_COMMITTED) {
                        storage.unprovision(ns);
                    }
                }
            });
        }
        return true;
    }

    /**
     * Every namespace row, live or deleted, by id: the owner and whether it is live — for the
     * data plane's audit of its directories at start.
     */
    @Transactional(readOnly = true)
    public Map<Long, RowOwner> allRows() {
        Map<Long, RowOwner> rows = new HashMap<>();
        jdbc.sql("SELECT id, tenant_id, deleted_at IS NULL AS live FROM namespaces").query((rs, n) -> {
            rows.put(rs.getLong("id"), new RowOwner(rs.getObject("tenant_id", UUID.class), rs.getBoolean("live")));
            return null;
        }).list();
        return rows;
    }

    /** A namespace row's tenant, and whether the namespace is live (not deleted). */
    public record RowOwner(UUID tenant, boolean live) {
    }

    /** The tenant's live namespaces by name. */
    @Transactional(readOnly = true)
    public List<Namespace> list(UUID tenant, Page page) {
        return jdbc.sql("SELECT " + NamespaceRows.COLUMNS + " FROM namespaces WHERE tenant_id = ? AND deleted_at IS NULL ORDER BY name LIMIT ? OFFSET ?")
                .params(tenant, page.limit(), page.offset()).query(NamespaceRows::namespace).list();
    }

    /**
     * Live namespaces of every live tenant with an id above {@code afterId}, by id, at most
     * {@code limit}: for maintenance passes over all namespaces (page by the last id seen).
     */
    @Transactional(readOnly = true)
    public List<Namespace> allAfter(long afterId, int limit) {
        return jdbc.sql("SELECT " + NamespaceRows.COLUMNS + " FROM namespaces n WHERE id > ? AND deleted_at IS NULL"
                        + " AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = n.tenant_id AND t.deleted_at IS NULL) ORDER BY id LIMIT ?")
                .params(afterId, limit).query(NamespaceRows::namespace).list();
    }

    /** The tenant's live namespace of that name; empty for another tenant's, a deleted or a malformed one alike. */
    @Transactional(readOnly = true)
    public Optional<Namespace> find(UUID tenant, String name) {
        if (!ResourceName.isValid(name)) {
            return Optional.empty();
        }
        return jdbc.sql("SELECT " + NamespaceRows.COLUMNS + " FROM namespaces n WHERE tenant_id = ? AND name = ? AND deleted_at IS NULL"
                        + " AND EXISTS (SELECT 1 FROM tenants t WHERE t.id = n.tenant_id AND t.deleted_at IS NULL)")
                .params(tenant, name).query(NamespaceRows::namespace).optional();
    }

    /**
     * Changes retention and/or cold-after; a null argument leaves that setting as it is.
     *
     * @throws NotFoundException if the tenant has no live namespace of that name
     */
    @Transactional
    public Namespace update(UUID tenant, String name, Duration retention, Duration coldAfter) {
        Namespace current = lockLive(tenant, name);
        Quotas q = quotas.effective(tenant);
        Duration r = retention == null ? current.retention() : retention;
        Duration c = coldAfter == null ? current.coldAfter() : coldAfter;
        checkDurations(tenant, q, r, c);
        changes.changed(); // cached lookups of the namespace carry its old settings
        return jdbc.sql("UPDATE namespaces SET retention_ms = ?, cold_after_ms = ? WHERE id = ? RETURNING " + NamespaceRows.COLUMNS)
                .params(r.toMillis(), c == null ? null : c.toMillis(), current.id())
                .query(NamespaceRows::namespace).single();
    }

    /**
     * Marks the namespace deleted and queues its data for removal; false if there was none.
     */
    @Transactional
    public boolean delete(UUID tenant, String name) {
        if (!ResourceName.isValid(name)) {
            return false;
        }
        changes.changed(); // a cached lookup must miss from the commit on
        List<Long> ids = jdbc.sql("UPDATE namespaces SET deleted_at = now() WHERE tenant_id = ? AND name = ? AND deleted_at IS NULL RETURNING id")
                .params(tenant, name).query(Long.class).list();
        ids.forEach(id -> queueRemoval(jdbc, id));
        return !ids.isEmpty();
    }

    /**
     * Marks every live namespace of the tenant deleted and queues each for removal, in the caller's
     * transaction; the caller reports the change to {@link TenancyChanges}.
     */
    public static List<Long> deleteAllOf(JdbcClient jdbc, UUID tenant) {
        List<Long> ids = jdbc.sql("UPDATE namespaces SET deleted_at = now() WHERE tenant_id = ? AND deleted_at IS NULL RETURNING id")
                .param(tenant).query(Long.class).list();
        ids.forEach(id -> queueRemoval(jdbc, id));
        return ids;
    }

    private static void queueRemoval(JdbcClient jdbc, long id) {
        jdbc.sql("DELETE FROM namespace_usage WHERE namespace_id = ?").param(id).update();
        jdbc.sql("INSERT INTO pending_deletions (namespace_id) VALUES (?) ON CONFLICT DO NOTHING").param(id).update();
    }

    private void checkDurations(UUID tenant, Quotas q, Duration retention, Duration coldAfter) {
        if (retention.compareTo(q.maxRetention()) > 0) {
            throw new LimitExceededException(tenant, "maxRetention", IsoDuration.format(q.maxRetention()),
                    "retention " + IsoDuration.format(retention) + " is longer than the tenant's maxRetention");
        }
        if (coldAfter != null && coldAfter.compareTo(retention) > 0) {
            throw new InvalidInputException("coldAfter", "must not be longer than retention (" + IsoDuration.format(retention) + ")");
        }
    }

    private void lockLiveTenant(UUID tenant) {
        boolean live = jdbc.sql("SELECT 1 FROM tenants WHERE id = ? AND deleted_at IS NULL FOR UPDATE").param(tenant)
                .query(Integer.class).optional().isPresent();
        if (!live) {
            throw new NotFoundException(NotFoundException.Kind.TENANT, tenant.toString());
        }
    }

    private Namespace lockLive(UUID tenant, String name) {
        if (!ResourceName.isValid(name)) {
            throw new NotFoundException(NotFoundException.Kind.NAMESPACE, name);
        }
        return jdbc.sql("SELECT " + NamespaceRows.COLUMNS + " FROM namespaces WHERE tenant_id = ? AND name = ? AND deleted_at IS NULL FOR UPDATE")
                .params(tenant, name).query(NamespaceRows::namespace).optional()
                .orElseThrow(() -> new NotFoundException(NotFoundException.Kind.NAMESPACE, name));
    }
}

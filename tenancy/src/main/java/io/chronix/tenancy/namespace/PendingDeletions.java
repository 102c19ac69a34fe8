package io.chronix.tenancy.namespace;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * The queue of deleted namespaces whose data is still to be removed. The service's reaper takes due
 * entries, removes {@code <data>/namespaces/<id>} and the cold objects under {@code ns_<id>/}, and
 * reports each as {@link #completed} or {@link #failed} (retried later with back-off).
 */
@Service
public class PendingDeletions {

    private final JdbcClient jdbc;

    PendingDeletions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Entries due now, oldest first. */
    @Transactional(readOnly = true)
    public List<PendingDeletion> due(int limit) {
        return jdbc.sql("SELECT namespace_id, requested_at, attempts FROM pending_deletions WHERE next_attempt_at <= now() ORDER BY requested_at LIMIT ?")
                .param(limit)
                .query((rs, n) -> new PendingDeletion(rs.getLong("namespace_id"),
                        rs.getObject("requested_at", OffsetDateTime.class).toInstant(), rs.getInt("attempts")))
                .list();
    }

    /** All entries, due or not (for tests and operators). */
    @Transactional(readOnly = true)
    public long count() {
        return jdbc.sql("SELECT count(*) FROM pending_deletions").query(Long.class).single();
    }

    /** The namespace's data is gone: the entry is removed and the namespace marked purged. */
    @Transactional
    public void completed(long namespaceId) {
        jdbc.sql("DELETE FROM pending_deletions WHERE namespace_id = ?").param(namespaceId).update();
        jdbc.sql("UPDATE namespaces SET purged_at = now() WHERE id = ? AND deleted_at IS NOT NULL").param(namespaceId).update();
    }

    /** Removal failed; tried again after an exponential back-off (capped at one hour). */
    @Transactional
    public void failed(long namespaceId, String error) {
        jdbc.sql("""
                        UPDATE pending_deletions SET attempts = attempts + 1, last_error = left(?, 1000),
                            next_attempt_at = now() + least(interval '1 hour', interval '10 seconds' * power(2, least(attempts, 12)))
                        WHERE namespace_id = ?""")
                .params(error, namespaceId).update();
    }
}

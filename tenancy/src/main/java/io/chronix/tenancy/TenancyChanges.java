package io.chronix.tenancy;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A generation number of the access-deciding rows — tokens, tenants, namespaces, quotas — that every
 * change made through this process's services advances, so an in-process cache of lookups can tell
 * a stale entry from a fresh one without knowing what changed.
 *
 * <p>How a cache uses it: read {@link #current()} <em>before</em> the database read, keep the value
 * with the entry, and trust the entry only while {@link #current()} still returns it. A change
 * calls {@link #changed()} inside its transaction; the generation advances then and once more
 * after the transaction completes. The second step is what makes the scheme safe: a lookup that
 * read the row before the commit took its generation before that second advance, so its entry is
 * stale from the commit on; a lookup that took its generation after the second advance ran its
 * query after the commit and saw it (PostgreSQL's read committed starts each statement with a new
 * snapshot). The first step only keeps a change's own later lookups in its transaction from being
 * served an older entry. A rolled-back change advances it too: that costs a few database reads,
 * never a wrong answer.
 *
 * <p>Changes made by another process (another node, or SQL by hand) are not seen here: caches
 * bound how long they serve an entry for that.
 *
 * <p>Threading: thread-safe, lock-free.
 */
@Component
public class TenancyChanges {

    private final AtomicLong generation = new AtomicLong();

    /** The generation now; take it before the read whose result a cache keeps. */
    public long current() {
        return generation.get();
    }

    /** Records a change of tokens, tenants, namespaces or quotas, now and (inside a transaction) again after it completes. */
    public void changed() {
        generation.incrementAndGet();
        if (TransactionSynchronizationManager.isSynchronizationActive()) {
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    generation.incrementAndGet();
                }
            });
        }
    }
}

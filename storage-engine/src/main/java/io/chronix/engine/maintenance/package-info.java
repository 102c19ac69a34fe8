/**
 * The maintenance scheduler: one bounded pool shared by every engine of a process, on which
 * flushes (and later compaction, rollups, retention, archiving) and the WAL's periodic sync run.
 * An engine owns no thread; the service holds thousands of engines and a handful of these threads.
 *
 * <p>Threading: thread-safe. Nullness: non-null.
 */
package io.chronix.engine.maintenance;

/**
 * The cold archive in the service: each namespace's engine gets a Parquet cold tier over the
 * configured object store ({@link io.chronix.api.archive.ColdTiers}); an archiving pass runs on
 * request ({@code POST /api/v1/namespaces/{ns}/archive}) and periodically on the shared
 * maintenance scheduler ({@link io.chronix.api.archive.ArchiveService}).
 *
 * <p>Threading: the service and the factory are thread-safe; a pass per engine runs one at a time
 * (the engine's archiver holds a lock). Nullness: a namespace's {@code coldAfter} may be null
 * (the service default applies).
 */
package io.chronix.api.archive;

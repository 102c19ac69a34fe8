/**
 * The per-namespace engine registry: one {@link io.chronix.engine.Chronix} per namespace id, opened
 * lazily from {@code <data>/namespaces/<id>}, closed when idle, reopened transparently; a memtable
 * budget shared by all open engines; every engine on the one shared
 * {@link io.chronix.engine.maintenance.MaintenanceScheduler}.
 *
 * <p>Threading: {@link io.chronix.api.engine.EngineRegistry} is thread-safe; a
 * {@link io.chronix.api.engine.EngineRegistry.Lease} belongs to the thread that took it.
 * Nullness: nothing here returns or accepts {@code null} unless its Javadoc says so.
 */
package io.chronix.api.engine;

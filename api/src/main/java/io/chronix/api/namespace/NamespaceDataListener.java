package io.chronix.api.namespace;

import io.chronix.engine.storage.NamespaceId;

/**
 * Told before a deleted namespace's data is removed, so that whoever holds it open (the engine
 * registry) closes it first. Called on the reaper's thread; must be idempotent (a failed removal
 * is retried, calling it again).
 */
public interface NamespaceDataListener {

    void beforeDataRemoval(NamespaceId namespace);
}

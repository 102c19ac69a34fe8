package io.chronix.api.namespace;

import io.chronix.api.config.DataDirectory;
import io.chronix.engine.storage.NamespaceId;
import io.chronix.tenancy.namespace.Namespace;
import org.springframework.stereotype.Component;

import java.nio.file.Path;

/**
 * Where a namespace's data lives, from its internal id only: the engine directory
 * {@code <data>/namespaces/<id>} and the cold objects under {@code ns_<id>/}. The user-facing name
 * never takes part, so no client input becomes a path or a key.
 */
@Component
public class NamespaceLocations {

    private final Path root;

    public NamespaceLocations(DataDirectory data) {
        this.root = data.namespaces();
    }

    /** The engine's id of the namespace. */
    public static NamespaceId engineId(Namespace ns) {
        return new NamespaceId(ns.id());
    }

    /** {@code <data>/namespaces/<id>}; not created here (the engine creates it on first use). */
    public Path directory(NamespaceId id) {
        Path dir = root.resolve(Long.toString(id.value()));
        assert dir.getParent().equals(root) : "a namespace directory is a direct child of <data>/namespaces";
        return dir;
    }
}

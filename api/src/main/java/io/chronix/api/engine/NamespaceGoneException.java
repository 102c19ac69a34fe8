package io.chronix.api.engine;

/**
 * The namespace's data is being removed (it was deleted after the request looked it up). The
 * service answers it as an unknown namespace: 404.
 */
public final class NamespaceGoneException extends RuntimeException {

    private final long namespaceId;

    public NamespaceGoneException(long namespaceId) {
        super("namespace deleted [id=" + namespaceId + "]");
        this.namespaceId = namespaceId;
    }

    public long namespaceId() {
        return namespaceId;
    }
}

package io.chronix.engine.storage;

/**
 * A namespace's numeric id, assigned by the tenancy database. Object keys carry this id, never the
 * namespace's user-chosen name, so nothing a user types becomes part of a key.
 */
public record NamespaceId(long value) {

    public NamespaceId {
        if (value <= 0) {
            throw new IllegalArgumentException("namespace id must be positive [id=" + value + "]");
        }
    }

    /** The key prefix of this namespace's objects, {@code ns_{id}/}. */
    public String keyPrefix() {
        return "ns_" + value + "/";
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}

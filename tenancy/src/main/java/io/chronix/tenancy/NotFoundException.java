package io.chronix.tenancy;

/**
 * No live object of this kind and key is visible to the caller. Deliberately says nothing about
 * whether it exists for another tenant or was deleted: the answer is the same in every case.
 */
public final class NotFoundException extends TenancyException {

    /** What was looked for. */
    public enum Kind { TENANT, NAMESPACE, TOKEN }

    private final Kind kind;
    private final String key;

    public NotFoundException(Kind kind, String key) {
        super(kind.name().toLowerCase(java.util.Locale.ROOT) + " not found [key=" + key + "]");
        this.kind = kind;
        this.key = key;
    }

    public Kind kind() {
        return kind;
    }

    /** The key as the client gave it (a name or id), for the answer's detail. */
    public String key() {
        return key;
    }
}

package io.chronix.tenancy;

/** A live tenant, namespace or user already has this name or e-mail. Nothing was written. */
public final class NameTakenException extends TenancyException {

    private final String field;
    private final String value;

    public NameTakenException(String field, String value) {
        super("already taken [" + field + "=" + value + "]");
        this.field = field;
        this.value = value;
    }

    public String field() {
        return field;
    }

    public String value() {
        return value;
    }
}

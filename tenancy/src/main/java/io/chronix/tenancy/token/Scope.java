package io.chronix.tenancy.token;

import io.chronix.tenancy.InvalidInputException;
import io.chronix.tenancy.ResourceName;

import java.util.Locale;

/**
 * A token's permission: an action on one namespace of the tenant ({@code read:metrics}) or on all
 * of them ({@code read:*}). {@code admin} is tenant administration; tenant-wide administration
 * (namespaces, tokens, usage) needs {@code admin:*}. A scope names a namespace by name, so it also
 * covers a namespace of that name created later.
 *
 * @param namespace a namespace name or {@link #ALL}
 */
public record Scope(Action action, String namespace) {

    public static final String ALL = "*";

    public enum Action {
        READ, WRITE, ADMIN;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Scope {
        if (action == null || namespace == null || !(ALL.equals(namespace) || ResourceName.isValid(namespace))) {
            throw new IllegalArgumentException("invalid scope [action=" + action + ", namespace=" + namespace + "]");
        }
    }

    /** Parses {@code read:metrics} / {@code write:*} / {@code admin:*}; a bad value throws naming {@code field}. */
    public static Scope parse(String field, String text) {
        if (text == null) {
            throw new InvalidInputException(field, "is required");
        }
        int colon = text.indexOf(':');
        if (colon > 0) {
            Action action = switch (text.substring(0, colon)) {
                case "read" -> Action.READ;
                case "write" -> Action.WRITE;
                case "admin" -> Action.ADMIN;
                default -> null;
            };
            String ns = text.substring(colon + 1);
            if (action != null && (ALL.equals(ns) || ResourceName.isValid(ns))) {
                return new Scope(action, ns);
            }
        }
        throw new InvalidInputException(field, "must be read, write or admin, a colon, and a namespace name or *; e.g. read:metrics, write:*");
    }

    /** Whether this scope allows {@code wanted} on the namespace named {@code ns}. */
    public boolean allows(Action wanted, String ns) {
        return action == wanted && (ALL.equals(namespace) || namespace.equals(ns));
    }

    /** Whether this scope allows {@code wanted} on every namespace of the tenant. */
    public boolean allowsAll(Action wanted) {
        return action == wanted && ALL.equals(namespace);
    }

    @Override
    public String toString() {
        return action.wire() + ":" + namespace;
    }
}

package io.chronix.api.security;

/**
 * Valid credentials that may not do this: a tenant token without the scope, or a credential that
 * is not a tenant's on a tenant endpoint. Answered 403.
 */
public final class AccessRefusedException extends RuntimeException {

    /** Why, as the stable errorId of the answer. */
    public enum Reason { MISSING_SCOPE, NOT_A_TENANT }

    private final Reason reason;
    private final String requiredScope;

    private AccessRefusedException(Reason reason, String requiredScope, String message) {
        super(message);
        this.reason = reason;
        this.requiredScope = requiredScope;
    }

    public static AccessRefusedException missingScope(String requiredScope) {
        return new AccessRefusedException(Reason.MISSING_SCOPE, requiredScope, "The token lacks the scope " + requiredScope + " this request needs.");
    }

    public static AccessRefusedException notATenant() {
        return new AccessRefusedException(Reason.NOT_A_TENANT, null,
                "This endpoint acts for a tenant: use a tenant API token or a console session, not the operator token.");
    }

    public Reason reason() {
        return reason;
    }

    /** The scope that would have allowed the request; null for {@link Reason#NOT_A_TENANT}. */
    public String requiredScope() {
        return requiredScope;
    }
}

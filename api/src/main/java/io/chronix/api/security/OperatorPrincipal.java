package io.chronix.api.security;

/** The operator: whoever holds the operator token runs the service. */
public enum OperatorPrincipal implements ChronixPrincipal {
    INSTANCE;

    @Override
    public String kind() {
        return "operator";
    }
}

package io.chronix.api.security;

/** Who a request acts for, once its credentials are verified. */
public interface ChronixPrincipal {

    /** {@code operator}, or {@code tenant} for tenant API tokens and console users. */
    String kind();
}

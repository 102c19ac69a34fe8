package io.chronix.tenancy;

/**
 * What tenancy refuses, as a small closed family the service maps to problem documents one to one.
 * Messages follow {@code what [key=value, …]}; none carries a secret.
 */
public abstract sealed class TenancyException extends RuntimeException
        permits InvalidInputException, NameTakenException, NotFoundException, LimitExceededException {

    protected TenancyException(String message) {
        super(message);
    }
}

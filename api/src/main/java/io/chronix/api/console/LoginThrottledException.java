package io.chronix.api.console;

import org.springframework.security.core.AuthenticationException;

import java.time.Duration;

/** Too many failed logins for the account or the address; answered 429 with {@code Retry-After}. */
final class LoginThrottledException extends AuthenticationException {

    private final Duration retryAfter;

    LoginThrottledException(Duration retryAfter) {
        super("too many failed logins; retry after " + retryAfter.toSeconds() + "s");
        this.retryAfter = retryAfter;
    }

    Duration retryAfter() {
        return retryAfter;
    }
}

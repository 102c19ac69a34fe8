package io.chronix.api.console;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Limits on failed console logins ({@code chronix.console.login.*}). Within one {@code window}, an
 * account is locked after {@code maxFailuresPerAccount} failures and an address after
 * {@code maxFailuresPerAddress}, until the window that began with the first failure ends.
 */
@ConfigurationProperties("chronix.console.login")
public record ConsoleLoginProperties(
        @DefaultValue("5") int maxFailuresPerAccount,
        @DefaultValue("20") int maxFailuresPerAddress,
        @DefaultValue("15m") Duration window) {

    public ConsoleLoginProperties {
        if (maxFailuresPerAccount < 1 || maxFailuresPerAddress < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("chronix.console.login: limits must be at least 1 and the window positive");
        }
    }
}

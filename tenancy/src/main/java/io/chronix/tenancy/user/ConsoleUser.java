package io.chronix.tenancy.user;

import java.util.UUID;

/**
 * A console login of one tenant. {@link #toString()} leaves the hash out.
 *
 * @param email        lower case; the login name
 * @param passwordHash Spring Security's delegating format, e.g. {@code {bcrypt}$2a$…}
 */
public record ConsoleUser(UUID id, UUID tenantId, String tenantName, String email, String passwordHash) {

    @Override
    public String toString() {
        return "ConsoleUser[id=" + id + ", tenant=" + tenantId + ", email=" + email + "]";
    }
}

package io.chronix.api.security;

import org.springframework.security.core.Authentication;

import java.util.Optional;

/**
 * Turns a bearer credential into an authentication, or empty if the credential is not one this
 * resolver knows. Implementations compare secrets in constant time.
 */
public interface CredentialResolver {

    Optional<Authentication> resolve(String credential);
}

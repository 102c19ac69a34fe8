package io.chronix.api.security;

import org.springframework.security.config.annotation.web.builders.HttpSecurity;

/**
 * Adds to the data and admin API's chain after its stateless bearer set-up; every bean of this
 * type is applied. The console uses it to let its session (with CSRF) reach the admin API.
 */
public interface ApiChainCustomizer {

    void customize(HttpSecurity http) throws Exception;
}

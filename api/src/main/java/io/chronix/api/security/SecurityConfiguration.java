package io.chronix.api.security;

import io.chronix.api.error.ProblemWriter;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;

import java.util.List;

/**
 * One filter chain per surface, tried in order:
 * <ol>
 *   <li>actuator: health (with its liveness and readiness groups) open, everything else operator-only;</li>
 *   <li>open documents: the OpenAPI description, Swagger UI, and {@code /ping} that Influx clients probe;</li>
 *   <li>the data and admin API ({@code /api/**} and the Influx-compatible {@code /write}, {@code /query}):
 *       stateless bearer tokens; {@code /api/v1/tenants/**} for the operator only; the tenant in the log MDC;</li>
 *   <li>the console ({@code /console/**}, in {@code io.chronix.api.console}): form login, session, CSRF;</li>
 *   <li>everything else: authenticated, so an unknown path says 401, not what exists.</li>
 * </ol>
 * Error dispatches are let through so that a problem document already chosen is not replaced.
 *
 * <p>Spring Security's own observations are off ({@link #noSecurityObservations()}): with them, each
 * of a chain's filters runs wrapped in an observation of its own — a dozen per request, measured at
 * several per cent of a write's CPU and a tenth of the JIT's work while a service warms up. Requests
 * are still observed once, as {@code http.server.requests}.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    BearerTokenFilter bearerTokenFilter(List<CredentialResolver> resolvers, ProblemWriter problems) {
        return new BearerTokenFilter(resolvers, problems);
    }

    /**
     * No observation per security filter, authentication or authorization (the filter chains are then
     * not wrapped at all); the request's own {@code http.server.requests} observation stays.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /** Stops Boot from creating a default user with a generated password; we have none. */
    @Bean
    UserDetailsService noUsers() {
        return new InMemoryUserDetailsManager();
    }

    @Bean
    @Order(1)
    SecurityFilterChain actuatorChain(HttpSecurity http, BearerTokenFilter bearer, ProblemWriter problems) throws Exception {
        http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(a -> a
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
                        .anyRequest().hasAuthority(OperatorToken.ROLE));
        return stateless(http, bearer, problems).build();
    }

    @Bean
    @Order(2)
    SecurityFilterChain openDocumentsChain(HttpSecurity http) throws Exception {
        http.securityMatcher("/v3/api-docs", "/v3/api-docs/**", "/swagger-ui.html", "/swagger-ui/**", "/ping")
                .authorizeHttpRequests(a -> a.anyRequest().permitAll())
                .csrf(c -> c.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(r -> r.disable());
        return http.build();
    }

    @Bean
    @Order(3)
    SecurityFilterChain apiChain(HttpSecurity http, BearerTokenFilter bearer, ProblemWriter problems,
                                 List<ApiChainCustomizer> customizers) throws Exception {
        http.securityMatcher("/api/**", "/write", "/query")
                .authorizeHttpRequests(a -> a
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        // operator endpoints; tenant endpoints check scopes per request (TenantAccess)
                        .requestMatchers("/api/v1/tenants", "/api/v1/tenants/**").hasAuthority(OperatorToken.ROLE)
                        .anyRequest().authenticated())
                .addFilterBefore(new TenantMdcFilter(), AuthorizationFilter.class);
        stateless(http, bearer, problems);
        for (ApiChainCustomizer c : customizers) {
            c.customize(http);
        }
        return http.build();
    }

    @Bean
    @Order(100)
    SecurityFilterChain fallbackChain(HttpSecurity http, BearerTokenFilter bearer, ProblemWriter problems) throws Exception {
        http.authorizeHttpRequests(a -> a
                .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                .anyRequest().authenticated());
        return stateless(http, bearer, problems).build();
    }

    private static HttpSecurity stateless(HttpSecurity http, BearerTokenFilter bearer, ProblemWriter problems) throws Exception {
        ProblemAuthenticationEntryPoint entryPoint = new ProblemAuthenticationEntryPoint(problems);
        return http
                .csrf(c -> c.disable()) // bearer tokens, no cookies: nothing for CSRF to forge
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .requestCache(r -> r.disable())
                .httpBasic(b -> b.disable())
                .formLogin(f -> f.disable())
                .logout(l -> l.disable())
                .anonymous(Customizer.withDefaults())
                .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint).accessDeniedHandler(entryPoint))
                .addFilterBefore(bearer, AnonymousAuthenticationFilter.class);
    }
}

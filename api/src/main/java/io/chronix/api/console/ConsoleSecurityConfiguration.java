package io.chronix.api.console;

import io.chronix.api.error.ProblemWriter;
import io.chronix.api.error.Problems;
import io.chronix.api.security.TenantMdcFilter;
import io.chronix.api.security.TenantPrincipal;
import io.chronix.tenancy.user.UserService;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;

/**
 * The console's chain ({@code /console/**}): form login at {@code /console/login} (fields
 * {@code email}, {@code password}, {@code _csrf}), a server-side session (id changed at login),
 * CSRF on every state-changing request, logout at {@code POST /console/logout}. Failed logins are
 * throttled per account and per address ({@link LoginThrottle}); a throttled attempt is answered
 * 429 with {@code Retry-After}. A session ends when its user does ({@link ConsoleSessionCheck}). Everything under {@code /console/} except the login page and
 * {@code /console/assets/} (its style sheet and script) needs a session. Console answers carry a
 * Content-Security-Policy that allows only the console's own origin.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ConsoleLoginProperties.class)
class ConsoleSecurityConfiguration {

    /** The console loads only its own scripts and styles and talks only to its own origin. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
            + "base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

    @Bean
    LoginThrottle consoleLoginThrottle(ConsoleLoginProperties properties) {
        return new LoginThrottle(properties, System::nanoTime);
    }

    @Bean
    @Order(4)
    SecurityFilterChain consoleChain(HttpSecurity http, UserService users, LoginThrottle throttle, ProblemWriter problems) throws Exception {
        ProviderManager manager = new ProviderManager(new ConsoleAuthenticationProvider(users, throttle));
        SimpleUrlAuthenticationFailureHandler badLogin = new SimpleUrlAuthenticationFailureHandler("/console/login?error");
        AuthenticationFailureHandler failure = (request, response, e) -> {
            if (e instanceof LoginThrottledException t) {
                long seconds = Math.max(1, (t.retryAfter().toMillis() + 999) / 1000);
                response.setHeader("Retry-After", Long.toString(seconds));
                problems.write(response, Problems.of(HttpStatus.TOO_MANY_REQUESTS, "login-throttled", "Too many failed logins",
                        "Too many failed logins for this account or address; try again in " + seconds + " s."));
            } else {
                badLogin.onAuthenticationFailure(request, response, e);
            }
        };
        http.securityMatcher("/console", "/console/**")
                .authorizeHttpRequests(a -> a
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers("/console/login", "/console/assets/**").permitAll()
                        .anyRequest().hasAuthority(TenantPrincipal.ROLE))
                .authenticationManager(manager)
                .formLogin(f -> f.loginPage("/console/login").loginProcessingUrl("/console/login")
                        .usernameParameter("email").passwordParameter("password")
                        .defaultSuccessUrl("/console/", false)
                        .failureHandler(failure))
                .logout(l -> l.logoutUrl("/console/logout").logoutSuccessUrl("/console/login?logout"))
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.IF_REQUIRED)
                        .sessionFixation(f -> f.changeSessionId()))
                .httpBasic(b -> b.disable())
                .headers(h -> h.contentSecurityPolicy(c -> c.policyDirectives(CONTENT_SECURITY_POLICY)))
                .addFilterBefore(new ConsoleSessionCheck(users), AuthorizationFilter.class)
                .addFilterBefore(new TenantMdcFilter(), AuthorizationFilter.class);
        return http.build();
    }
}

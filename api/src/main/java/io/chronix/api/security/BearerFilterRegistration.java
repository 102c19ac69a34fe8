package io.chronix.api.security;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The bearer filter is a bean (so chains can share one instance) but must run only inside the
 * security chains, never a second time as a plain servlet filter.
 */
@Configuration(proxyBeanMethods = false)
class BearerFilterRegistration {

    @Bean
    FilterRegistrationBean<BearerTokenFilter> bearerTokenFilterRegistration(BearerTokenFilter filter) {
        FilterRegistrationBean<BearerTokenFilter> registration = new FilterRegistrationBean<>(filter);
        registration.setEnabled(false);
        return registration;
    }
}

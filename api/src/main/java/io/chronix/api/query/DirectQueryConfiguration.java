package io.chronix.api.query;

import io.chronix.api.security.BearerTokenFilter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Registers {@link DirectQueryFilter} right inside the request observation filter (Boot orders
 * character encoding first, then {@code ServerHttpObservationFilter}), ahead of every other filter
 * and the security chains.
 */
@Configuration(proxyBeanMethods = false)
class DirectQueryConfiguration {

    @Bean
    FilterRegistrationBean<DirectQueryFilter> directQueryFilter(BearerTokenFilter bearer, QueryController controller,
                                                                ObjectProvider<HandlerExceptionResolver> resolvers) {
        FilterRegistrationBean<DirectQueryFilter> registration = new FilterRegistrationBean<>(
                new DirectQueryFilter(bearer, controller, resolvers.orderedStream().toList()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        registration.addUrlPatterns("/api/v1/namespaces/*");
        return registration;
    }
}

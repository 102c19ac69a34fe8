package io.chronix.api.tenant;

import io.chronix.tenancy.TenancyConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** Brings the tenancy module's services into the application context. */
@Configuration(proxyBeanMethods = false)
@Import(TenancyConfiguration.class)
class TenancyWiring {
}

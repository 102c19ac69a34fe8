package io.chronix.tenancy;

import io.chronix.tenancy.quota.QuotaDefaults;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;

/**
 * Import this to get the tenancy services; they need a {@code JdbcClient} and transaction
 * management (Spring Boot's JDBC auto-configuration gives both) and a schema migrated by Flyway
 * from {@code classpath:db/migration}.
 */
@Configuration(proxyBeanMethods = false)
@ComponentScan
@EnableConfigurationProperties(QuotaDefaults.class)
public class TenancyConfiguration {
}

package io.chronix.tenancy;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** The tenancy services on Boot's JDBC, Flyway and transaction auto-configuration, for repository tests. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(TenancyConfiguration.class)
public class TenancyTestApplication {
}

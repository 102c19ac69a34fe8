package io.chronix.api;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI chronixOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Chronix API").version("v1")
                        .description("Multi-tenant time-series database: write line protocol, query with SQL, manage tenants, namespaces, tokens, rollups and retention."))
                .components(new Components().addSecuritySchemes("bearer",
                        new SecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("An operator token, or a tenant API token cx_<id>_<secret>. 'Authorization: Token <token>' is accepted too.")));
    }
}

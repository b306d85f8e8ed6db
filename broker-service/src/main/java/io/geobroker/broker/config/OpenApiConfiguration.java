package io.geobroker.broker.config;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/** OpenAPI description (served at /v3/api-docs, Swagger UI at /swagger-ui.html). */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    @Bean
    public OpenAPI brokerApi() {
        return new OpenAPI()
                .info(new Info().title("geobroker broker API").version("v1")
                        .description("Orders, accounts and quotes of one region's broker. Amounts and prices are "
                                + "integer minor units (cents). Errors are RFC 7807 problem details."))
                .components(new Components().addSecuritySchemes("bearer", new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("Customer token from POST /admin/v1/customers; operator endpoints take the "
                                + "admin token")))
                .servers(List.of(new Server().url("/").description("this broker")));
    }
}

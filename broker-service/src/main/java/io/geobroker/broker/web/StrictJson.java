package io.geobroker.broker.web;

import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * JSON as strict as the API documents it: no scalar coercion in either direction ({@code "10"} is not
 * a number, {@code 10} or {@code true} is not a string, {@code 1} is not a boolean), and a key twice
 * in one object is an error. Unknown fields, floats for integers, numbers for enums and null for
 * primitives are refused by the {@code spring.jackson} settings in {@code application.yml}.
 */
@Configuration(proxyBeanMethods = false)
public class StrictJson {

    @Bean
    public Jackson2ObjectMapperBuilderCustomizer strictJsonCoercion() {
        return builder -> builder.postConfigurer(mapper -> {
            mapper.coercionConfigFor(LogicalType.Textual)
                    .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        });
    }
}

package io.geobroker.broker.web;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidNullException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.IOException;
import java.math.BigDecimal;

/**
 * JSON as strict as the API documents it: no scalar coercion in either direction ({@code "10"} is not
 * a number, {@code 10} or {@code true} is not a string, {@code 1} is not a boolean), a key twice in
 * one object is an error, and {@code null} is never a value (a field without a value is left out).
 * Whole numbers may be written as JSON Schema allows ({@code 68.0}, {@code 1e2}); {@code 68.5} for
 * an integer is refused. Unknown fields, numbers for enums and null for primitives are refused by
 * the {@code spring.jackson} settings in {@code application.yml}.
 */
@Configuration(proxyBeanMethods = false)
public class StrictJson {

    /** Registered by Spring Boot with the other modules of the application's ObjectMapper. */
    @Bean
    public Module strictJsonModule() {
        SimpleModule module = new SimpleModule("strict-json");
        module.addDeserializer(Long.class, new WholeLong(Long.class));
        module.addDeserializer(long.class, new WholeLong(long.class));
        module.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                          JsonDeserializer<?> deserializer) {
                return new NoNull(deserializer);
            }

            @Override
            public JsonDeserializer<?> modifyEnumDeserializer(DeserializationConfig config, JavaType type,
                                                              BeanDescription description,
                                                              JsonDeserializer<?> deserializer) {
                return new NoNull(deserializer);
            }
        });
        return module;
    }

    @Bean
    public Jackson2ObjectMapperBuilderCustomizer strictJsonCoercion() {
        return builder -> builder.postConfigurer(mapper -> mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    /** A long from a JSON number with no fractional part ({@code 68}, {@code 68.0}, {@code 1e2}), nothing else. */
    static final class WholeLong extends StdScalarDeserializer<Long> {

        WholeLong(Class<Long> type) {
            super(type);
        }

        @Override
        public Long deserialize(JsonParser p, DeserializationContext context) throws IOException {
            if (p.hasToken(JsonToken.VALUE_NUMBER_INT)) {
                return p.getLongValue();
            }
            if (p.hasToken(JsonToken.VALUE_NUMBER_FLOAT)) {
                BigDecimal value = p.getDecimalValue();
                try {
                    return value.longValueExact();
                } catch (ArithmeticException e) {
                    return (Long) context.handleWeirdNumberValue(handledType(), value, "not a whole number");
                }
            }
            return (Long) context.handleUnexpectedToken(handledType(), p);
        }
    }

    /** Refuses an explicit JSON {@code null}; a field left out stays absent. */
    static final class NoNull extends DelegatingDeserializer {

        NoNull(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new NoNull(delegate);
        }

        @Override
        public Object getNullValue(DeserializationContext context) throws JsonMappingException {
            throw InvalidNullException.from(context, null,
                    handledType() == null ? null : context.constructType(handledType()));
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) throws JsonMappingException {
            return _delegatee.getAbsentValue(context);
        }
    }
}

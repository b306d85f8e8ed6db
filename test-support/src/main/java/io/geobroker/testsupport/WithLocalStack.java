package io.geobroker.testsupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against the real local stack (see {@link LocalStackExtension}); test
 * methods, constructors and {@code @BeforeAll} methods can take a {@link StackContext}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(LocalStackExtension.class)
public @interface WithLocalStack {

    /**
     * The schema version the class's keyspace is created at: the current one by default; an older
     * one for a test of an upgrade, which applies the rest itself ({@code SchemaTool.apply}).
     */
    int schemaVersion() default Integer.MAX_VALUE;
}

package io.geobroker.testsupport;

import com.datastax.oss.driver.api.core.CqlSession;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.stack.LocalStack;
import java.nio.file.Path;

/**
 * What a test class gets from {@link LocalStackExtension}: the shared stack, and data of its own
 * — a keyspace with the current schema and a Kafka topic prefix no other class uses.
 */
public interface StackContext {

    Topology topology();

    /**
     * This test class's keyspace ({@code it_<class name>}), freshly created with the schema (at
     * {@link WithLocalStack#schemaVersion()}).
     */
    String keyspace();

    /** Topic names with this test class's own prefix. */
    Topics topics();

    /**
     * A session whose local DC is the region's DC, with {@link #keyspace()} as its keyspace.
     * Created on first use, closed after the test class.
     */
    CqlSession session(String region);

    /** {@code host:port} of the region's Kafka broker. */
    String kafkaBootstrap(String region);

    /** The stack, for {@code cutLink}, {@code restoreLink}, {@code inRegion}, {@code serviceAddress}. */
    LocalStack stack();

    Path workDir();
}

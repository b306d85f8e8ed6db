package io.geobroker.loadgen.chaos;

import java.time.Duration;
import java.util.List;

/**
 * What the chaos scenario needs of a deployment on this machine to hurt it: the local stack's
 * processes (Cassandra nodes, Kafka brokers) killed and started again, the brokers likewise, and the
 * emulated WAN cut and restored. The demo implements it.
 */
public interface FaultTarget {

    /** The regions, in the topology's order. */
    List<String> regions();

    /** The stack's process names, e.g. {@code cassandra-sydney-1}, {@code kafka-nvirginia}. */
    List<String> stackProcesses();

    /** SIGKILL to a stack process; returns once it is gone. */
    void killStackProcess(String name);

    /** Starts a killed stack process again; returns once it serves (CQL accepted, Kafka answering). */
    void restartStackProcess(String name, Duration timeout);

    /** SIGKILL to the region's broker; returns once it is gone. */
    void killBroker(String region) throws InterruptedException;

    /** Starts the region's killed broker again with its command; returns at once. */
    void restartBroker(String region) throws java.io.IOException;

    /** The region's broker base URL, for the readiness probe. */
    String brokerUrl(String region);

    /** Whether the emulated WAN runs (only then can a link be cut). */
    boolean wanOn();

    void cutLink(String a, String b);

    void restoreLink(String a, String b);
}

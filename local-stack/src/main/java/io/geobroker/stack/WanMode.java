package io.geobroker.stack;

/** Whether the local stack emulates the WAN between its regions. */
public enum WanMode {
    /** On where it can run (Linux, root), otherwise off with the reason in {@link LocalStack#wanStatus()}. */
    AUTO,
    /** On, or the stack refuses to start and says why. */
    ON,
    /** Off: all regions share the loopback interface, without delay. */
    OFF
}

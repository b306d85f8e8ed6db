package io.geobroker.stack;

import java.util.List;
import java.util.Map;

/** The WAN between the stack's regions as the stack uses it: on (emulated) or off (with the reason). */
interface Wan extends AutoCloseable {

    boolean on();

    /** One line, e.g. {@code WAN on: 115 ms one way} or {@code WAN off: not root}. */
    String status();

    /** Network namespace per region name, empty when off. */
    Map<String, String> namespaces();

    /** Pids of the WAN's own processes (the forwarder), for the state file. */
    default List<Long> pids() {
        return List.of();
    }

    void cut(String a, String b);

    void restore(String a, String b);

    ProcessBuilder wrap(String region, ProcessBuilder pb);

    @Override
    void close();

    static Wan off(String reason) {
        return new Wan() {
            @Override
            public boolean on() {
                return false;
            }

            @Override
            public String status() {
                return "WAN off: " + reason;
            }

            @Override
            public Map<String, String> namespaces() {
                return Map.of();
            }

            @Override
            public void cut(String a, String b) {
                throw new StackException("cannot cut the link between " + a + " and " + b + ": " + status());
            }

            @Override
            public void restore(String a, String b) {
                throw new StackException("cannot restore the link between " + a + " and " + b + ": " + status());
            }

            @Override
            public ProcessBuilder wrap(String region, ProcessBuilder pb) {
                return pb;
            }

            @Override
            public void close() {
            }
        };
    }
}

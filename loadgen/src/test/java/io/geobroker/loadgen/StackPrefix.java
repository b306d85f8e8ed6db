package io.geobroker.loadgen;

import io.geobroker.stack.LocalStack;

/** Address prefixes of the stacks this module's integration tests start for themselves. */
final class StackPrefix {

    private StackPrefix() {
    }

    /**
     * The shared test stack's address prefix ({@code GEOBROKER_STACK_PREFIX}, or the property
     * {@code geobroker.stack.prefix}, or 127.0) with {@code offset} added to its second byte, e.g.
     * 127.7 for 7: a stack of the test's own beside the shared one.
     */
    static String offset(int offset) {
        String shared = System.getenv("GEOBROKER_STACK_PREFIX");
        if (shared == null || shared.isBlank()) {
            shared = System.getProperty("geobroker.stack.prefix", LocalStack.DEFAULT_PREFIX);
        }
        String[] parts = shared.trim().split("\\.");
        return parts[0] + "." + (Integer.parseInt(parts[1]) + offset);
    }
}

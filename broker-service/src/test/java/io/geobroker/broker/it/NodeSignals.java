package io.geobroker.broker.it;

import io.geobroker.stack.LocalStack;
import io.geobroker.testsupport.StackContext;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** Pauses and resumes one process of the test stack, by pid (SIGSTOP, SIGCONT). */
final class NodeSignals {

    private NodeSignals() {
    }

    /** The pid of the stack's running process {@code name}, e.g. {@code cassandra-nvirginia-1}. */
    static long pid(StackContext context, String name) {
        return context.stack().processes().stream().filter(p -> p.name().equals(name) && p.alive())
                .mapToLong(LocalStack.ProcessInfo::pid).findFirst()
                .orElseThrow(() -> new IllegalStateException("no running " + name + " in " + context.stack().processes()));
    }

    /** Sends SIGSTOP or SIGCONT to one process of the test stack, by pid. */
    static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }
}

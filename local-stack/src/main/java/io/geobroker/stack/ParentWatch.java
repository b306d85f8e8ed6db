package io.geobroker.stack;

import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;

/**
 * Entry point of every child JVM of the local stack: {@code ParentWatch <pid> <main class> <args>}.
 * Runs the real main class and ends the JVM when the process with the given pid (the stack's
 * owner) is gone, so a SIGKILLed owner leaves no orphan Cassandra or Kafka behind.
 *
 * <p>Uses only the JDK: the launcher copies this one class file next to each child's class path.
 * No nested classes for the same reason.
 */
public final class ParentWatch {

    private ParentWatch() {
    }

    public static void main(String[] args) throws Throwable {
        long parent = Long.parseLong(args[0]);
        Thread watch = new Thread(() -> watch(parent), "geobroker-parent-watch");
        watch.setDaemon(true);
        watch.start();
        try {
            Class.forName(args[1]).getMethod("main", String[].class)
                    .invoke(null, (Object) Arrays.copyOfRange(args, 2, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void watch(long parent) {
        while (ProcessHandle.of(parent).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
        System.err.println("geobroker: owner process " + parent + " is gone, stopping");
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(20_000);
            } catch (InterruptedException ignored) {
                // halting anyway
            }
            Runtime.getRuntime().halt(137);
        }, "geobroker-halt");
        halt.setDaemon(true);
        halt.start();
        System.exit(143);
    }
}

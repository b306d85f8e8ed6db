package io.geobroker.stack;

/**
 * A failure the user can act on (bad input, a busy address, a missing JDK, a process that would
 * not start). Its message is complete on its own: the command line prints it without a stack trace.
 */
public class StackException extends RuntimeException {

    public StackException(String message) {
        super(message);
    }

    public StackException(String message, Throwable cause) {
        super(message, cause);
    }
}

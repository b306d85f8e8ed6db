package io.geobroker.loadgen.ackbench;

/**
 * What became of one order the benchmark sent: accepted (REST 201/202, FIX ExecType New or Pending
 * New), rejected by the broker (REST 4xx, FIX ExecType Rejected) or an error (no answer in time, a
 * broken connection, a 5xx, a FIX session-level reject); {@code detail} says why for the last two.
 */
public record Ack(Outcome outcome, String detail) {

    public enum Outcome { ACCEPTED, REJECTED, ERROR }

    public static final Ack ACCEPTED = new Ack(Outcome.ACCEPTED, "");

    public static Ack rejected(String detail) {
        return new Ack(Outcome.REJECTED, detail);
    }

    public static Ack error(String detail) {
        return new Ack(Outcome.ERROR, detail);
    }

    /** Whether the broker answered the order (accepted or rejected), as opposed to an error. */
    public boolean answered() {
        return outcome != Outcome.ERROR;
    }
}

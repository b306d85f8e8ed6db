package io.geobroker.loadgen.report;

import java.util.List;

/**
 * The chaos scenario's part of a report: each fault's time line, then the invariants table, each
 * row a check that can fail, what it checks and its figures. Times in milliseconds from the start
 * of the measured phase.
 *
 * @param convergedMillis how long after the run's drain every invariant held (-1: not within the bound)
 * @param notes           what was not done and why (a fault the deployment cannot have, a schedule that stopped)
 */
public record ChaosReport(List<Fault> faults, List<Invariant> invariants, long convergedMillis, long convergeBoundMillis,
                          List<String> notes) {

    /**
     * One fault's time line.
     *
     * @param fault             {@code cassandra}, {@code kafka}, {@code broker} or {@code wan}
     * @param what              what was done, e.g. {@code SIGKILL cassandra-sydney-1, started again after 20.0 s}
     * @param endMillis         when it was undone (the process started again, the link restored)
     * @param servedAgainMillis when the system served again ({@code -1}: not within the serve timeout)
     * @param servedAgainAs     what serving again means for this fault
     */
    public record Fault(String fault, String region, String what, long startMillis, long endMillis,
                        long servedAgainMillis, String servedAgainAs) {

        public boolean servedAgain() {
            return servedAgainMillis >= 0;
        }

        /** Seconds from the fault's end to serving again ({@code NaN} if it did not). */
        public double recoverySeconds() {
            return servedAgain() ? (servedAgainMillis - endMillis) / 1000.0 : Double.NaN;
        }
    }

    /** One row of the invariants table. */
    public record Invariant(String name, boolean holds, String checks, String figures) {
    }

    public ChaosReport {
        faults = List.copyOf(faults);
        invariants = List.copyOf(invariants);
        notes = List.copyOf(notes);
    }

    /** Every invariant held, and every fault was served again. */
    public boolean passed() {
        return invariants.stream().allMatch(Invariant::holds) && faults.stream().allMatch(Fault::servedAgain);
    }
}

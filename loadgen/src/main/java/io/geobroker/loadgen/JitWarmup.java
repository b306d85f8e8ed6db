package io.geobroker.loadgen;

import io.geobroker.domain.SymbolInfo;
import io.geobroker.loadgen.driver.CompilerCpu;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.Workload;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The demo's warm-up of its JVMs' C2 compilers ({@code --jit=warm-c2}), before the run and not
 * measured: the run's own workload, in passes, until over the last pass every JVM's C2 compiler
 * threads took at most {@link #QUIET_SHARE} of a core, within {@link #LEAST} and {@link #MOST}. Then
 * the run starts with its own warm-up and measurement, unchanged.
 *
 * <p>Why: with C2's code the default load took 1.46-1.73 cores instead of 1.93-1.94 with C1's
 * (docs/results.md), but C2 compiles for minutes of that load first, on the cores the load needs,
 * and a 45 s warm-up ends in the middle of it. Long-running servers are past it. A load of the
 * stack's own (writes and reads of a scratch keyspace, a scratch topic) did not do: C2 compiled as
 * much again once the services' load came, so the warm-up is that load.
 */
final class JitWarmup {

    /** The first pass's measured part (after the workload's own warm-up and ramp). */
    static final Duration FIRST = Duration.ofSeconds(15);
    /** Each later pass: a short warm-up at the full rates, then this. */
    static final Duration PASS = Duration.ofSeconds(25);
    static final Duration PASS_WARMUP = Duration.ofSeconds(5);
    static final Duration LEAST = Duration.ofSeconds(60);
    static final Duration MOST = Duration.ofSeconds(300);
    /** The compilers' share of a core over a pass at which they count as done. */
    static final double QUIET_SHARE = 0.06;

    /** What the warm-up did. */
    record Outcome(Duration took, int passes, boolean quiet, double lastShare, String spent) {
        String describe() {
            return String.format(Locale.ROOT, "%d s of the run's workload in %d passes, %s (the busiest C2 compiler %.0f %% of a "
                            + "core over the last pass); C2 compile time in it: %s", took.toSeconds(), passes,
                    quiet ? "until the C2 compilers were quiet" : "stopped at " + MOST.toSeconds() + " s",
                    lastShare * 100, spent);
        }
    }

    private JitWarmup() {
    }

    /**
     * Whether the warm-up ends after a pass whose busiest compiler took {@code share} of a core, at
     * {@code elapsed} from its start: quiet and at least {@link #LEAST} in, or {@link #MOST} reached.
     */
    static boolean done(double share, Duration elapsed) {
        return (share <= QUIET_SHARE && elapsed.compareTo(LEAST) >= 0) || elapsed.compareTo(MOST) >= 0;
    }

    /** Runs passes of {@code workload} until the compilers {@code compilers} reads are quiet. */
    static Outcome run(Driver driver, Workload workload, List<Driver.Customer> customers, List<SymbolInfo> symbols,
                       Supplier<Map<String, Double>> compilers) throws InterruptedException {
        long start = System.nanoTime();
        Map<String, Double> first = compilers.get();
        Map<String, Double> before = first;
        long passStart = start;
        int passes = 0;
        double share;
        boolean quiet;
        while (true) {
            Workload pass = passes == 0 ? workload.withDuration(FIRST) : workload.withDurations(PASS_WARMUP, PASS);
            driver.run(pass, customers, symbols, "JIT warm-up " + (passes + 1));
            passes++;
            Map<String, Double> after = compilers.get();
            long now = System.nanoTime();
            share = CompilerCpu.busiestShare(before, after, (now - passStart) / 1e9);
            before = after;
            passStart = now;
            quiet = share <= QUIET_SHARE;
            System.err.printf(Locale.ROOT, "JIT warm-up pass %d: the busiest C2 compiler took %.0f %% of a core%n",
                    passes, share * 100);
            if (done(share, Duration.ofNanos(now - start))) {
                break;
            }
        }
        return new Outcome(Duration.ofNanos(System.nanoTime() - start), passes, quiet, share,
                CompilerCpu.describe(first, before));
    }
}

package io.geobroker.loadgen.ackbench;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One round of the benchmark: {@code clients} clients at once, each sending {@code ordersPerClient}
 * orders one after another. {@code wallNanos} runs from the moment every client may start to the
 * last client's last ack; {@code latency} covers every answered order (accepted or rejected).
 * {@code causes} counts the rejects and errors by reason. {@code fills} is {@code -1} where the
 * protocol does not deliver them (REST). {@code cpu} is the CPU line of the round ("" if unknown).
 */
public record RoundResult(int clients, int ordersPerClient, long accepted, long rejected, long errors,
                          Map<String, Long> causes, long fills, long wallNanos, LatencySummary latency, String cpu) {

    public RoundResult {
        causes = Collections.unmodifiableMap(new TreeMap<>(causes));
    }

    /** Orders the round meant to send. */
    public long orders() {
        return (long) clients * ordersPerClient;
    }

    /** Accepted orders per second of the round's wall time. */
    public double ordersPerSecond() {
        return wallNanos <= 0 ? 0 : accepted * 1e9 / wallNanos;
    }

    public boolean fillsKnown() {
        return fills >= 0;
    }
}

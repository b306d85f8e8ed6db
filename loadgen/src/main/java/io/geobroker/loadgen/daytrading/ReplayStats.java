package io.geobroker.loadgen.daytrading;

import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The figures of a replay, from each batch's outcome: commands sent and answered, latency per
 * command type (the batch's round trip, and the engine's own time the server reports), answers per
 * 1 s window, errors by command and cause (the course's expected errors: counted, not failures; see
 * {@link #cause}),
 * failures (HTTP errors, lines without an answer) and the symbol mapping seen. Used from one thread
 * (the scheduler's listener). Its memory is bounded: histograms per command type, at most
 * {@value #MAX_CAUSES} causes per command and {@value #MAX_SYMBOLS} symbols.
 */
public final class ReplayStats {

    static final int MAX_CAUSES = 40;
    static final int MAX_SYMBOLS = 10_000;
    static final String OTHER_CAUSES = "(other causes)";
    static final String MALFORMED = "(malformed line)";
    static final String ALL = "all";

    /** Percentiles of one command type, in microseconds. */
    public record Latency(String command, long count, long p50, long p90, long p99, long p999, long p9999, long max,
                          double mean) {
        static Latency of(String command, Histogram h) {
            return new Latency(command, h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                    h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), h.getMaxValue(),
                    h.getTotalCount() == 0 ? 0 : h.getMean());
        }
    }

    private final Map<String, Histogram> roundTrip = new TreeMap<>();
    private final Map<String, Histogram> engine = new TreeMap<>();
    private final Map<String, Long> commands = new TreeMap<>();
    private final Map<String, Map<String, Long>> errors = new TreeMap<>();
    private final Map<String, Long> failures = new TreeMap<>();
    private final Map<String, String> symbols = new TreeMap<>();
    private long symbolConflicts;
    private long[] perSecond = new long[64];
    private long startNanos = Long.MIN_VALUE;
    private long lastAnswerNanos;
    private long sent;
    private long answered;
    private long ok;
    private long failed;

    /** The replay's start: the moment before its first batch is sent (else the first batch's send time). */
    public void start(long nanos) {
        startNanos = nanos;
    }

    /** Records one batch: its answer's results in line order, or its failure ({@code results} null). */
    public void batch(List<WorkloadLine> batch, List<CommandResult> results, String failure, long sentNanos,
                      long answeredNanos) {
        if (startNanos == Long.MIN_VALUE || sentNanos - startNanos < 0) {
            startNanos = sentNanos;
        }
        sent += batch.size();
        long micros = Math.max(1, (answeredNanos - sentNanos) / 1_000);
        int answeredHere = 0;
        for (int i = 0; i < batch.size(); i++) {
            WorkloadLine line = batch.get(i);
            String command = line.malformed() ? MALFORMED : line.command();
            commands.merge(command, 1L, Long::sum);
            CommandResult r = results != null && i < results.size() ? results.get(i) : null;
            if (r == null) {
                failed++;
                failures.merge(results == null ? failure : "no result for the line in the batch's answer", 1L, Long::sum);
                continue;
            }
            answeredHere++;
            record(roundTrip, command, micros);
            record(engine, command, Math.max(1, r.engineMicros()));
            if (r.ok()) {
                ok++;
            } else {
                String cause = cause(r);
                Map<String, Long> causes = errors.computeIfAbsent(command, c -> new TreeMap<>());
                causes.merge(causes.size() < MAX_CAUSES || causes.containsKey(cause) ? cause : OTHER_CAUSES, 1L, Long::sum);
            }
            if (r.stockSymbol() != null && r.symbol() != null) {
                String before = symbols.get(r.stockSymbol());
                if (before == null && symbols.size() < MAX_SYMBOLS) {
                    symbols.put(r.stockSymbol(), r.symbol());
                } else if (before != null && !before.equals(r.symbol())) {
                    symbolConflicts++;
                }
            }
        }
        answered += answeredHere;
        if (answeredHere > 0) {
            lastAnswerNanos = Math.max(lastAnswerNanos, answeredNanos);
            int second = (int) Math.max(0, (answeredNanos - startNanos) / 1_000_000_000L);
            if (second >= perSecond.length) {
                perSecond = Arrays.copyOf(perSecond, Math.max(second + 1, perSecond.length * 2));
            }
            perSecond[second] += answeredHere;
        }
    }

    private static final Pattern NUMBER = Pattern.compile("[+-]?\\d+(?:\\.\\d+)?");

    /**
     * An error's cause, its variable parts replaced so that errors of one kind count together: the
     * user by {@code <user>}, the symbols by {@code <symbol>}, numbers by {@code #} ("the amount # buys
     * no whole share at #").
     */
    static String cause(CommandResult r) {
        if (r.error() == null) {
            return "(no message)";
        }
        String cause = r.error();
        if (r.user() != null && !r.user().isEmpty()) {
            cause = cause.replace(r.user(), "<user>");
        }
        for (String symbol : new String[] {r.stockSymbol(), r.symbol()}) {
            if (symbol != null && !symbol.isEmpty()) {
                cause = cause.replaceAll("\\b" + Pattern.quote(symbol) + "\\b", "<symbol>");
            }
        }
        return NUMBER.matcher(cause).replaceAll("#");
    }

    private static void record(Map<String, Histogram> histograms, String command, long micros) {
        Histogram h = histograms.computeIfAbsent(command, c -> new Histogram(1, 3_600_000_000L, 3));
        long v = Math.min(micros, h.getHighestTrackableValue());
        h.recordValue(v);
        histograms.computeIfAbsent(ALL, c -> new Histogram(1, 3_600_000_000L, 3)).recordValue(v);
    }

    public long sent() {
        return sent;
    }

    public long answered() {
        return answered;
    }

    public long ok() {
        return ok;
    }

    /** Answered with {@code ok: false}: the course's errors, not failures of the run. */
    public long errors() {
        return answered - ok;
    }

    /** Lines without an answer (HTTP errors, transport errors, short answers): failures of the run. */
    public long failed() {
        return failed;
    }

    /** From the first batch sent to the last answer, in nanoseconds (0 before any answer). */
    public long wallNanos() {
        return startNanos == Long.MIN_VALUE || lastAnswerNanos == 0 ? 0 : lastAnswerNanos - startNanos;
    }

    public long startNanos() {
        return startNanos;
    }

    /** Answers per 1 s window since the first batch was sent; the last window may be partial. */
    public long[] perSecond() {
        long wall = wallNanos();
        int windows = wall == 0 ? 0 : (int) Math.min(perSecond.length, wall / 1_000_000_000L + 1);
        return Arrays.copyOf(perSecond, windows);
    }

    /** The most answers of one 1 s window. */
    public long peakPerSecond() {
        return Arrays.stream(perSecond).max().orElse(0);
    }

    public Map<String, Long> commands() {
        return commands;
    }

    public List<Latency> roundTrip() {
        return latencies(roundTrip);
    }

    public List<Latency> engine() {
        return latencies(engine);
    }

    private static List<Latency> latencies(Map<String, Histogram> histograms) {
        Map<String, Histogram> ordered = new LinkedHashMap<>(histograms);
        Histogram all = ordered.remove(ALL);
        List<Latency> list = new java.util.ArrayList<>();
        ordered.forEach((c, h) -> list.add(Latency.of(c, h)));
        if (all != null) {
            list.add(Latency.of(ALL, all));
        }
        return list;
    }

    public Map<String, Map<String, Long>> errorsByCommand() {
        return errors;
    }

    public Map<String, Long> failures() {
        return failures;
    }

    /** Workload symbol to the broker symbol it maps to, as the answers said. */
    public Map<String, String> symbols() {
        return symbols;
    }

    /** Answers that mapped a workload symbol to another broker symbol than an earlier answer did. */
    public long symbolConflicts() {
        return symbolConflicts;
    }
}

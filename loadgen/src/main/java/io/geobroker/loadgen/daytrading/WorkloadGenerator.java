package io.geobroker.loadgen.daytrading;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Writes a day-trading workload file in the course's format with the command mix of its
 * 100-user, 100,000-command file, streamed, the same bytes for the same seed:
 * <ul>
 *   <li>user ids of 10 letters and digits; symbols of 1-3 upper-case letters from a pool of
 *       {@value #SYMBOLS};</li>
 *   <li>each line's command drawn from {@link #MIX}; a user's first command is an ADD;</li>
 *   <li>COMMIT_BUY / CANCEL_BUY usually (4 times in 5) go to the user of the latest BUY not yet
 *       followed up, so they follow it within a few lines, as in the real files; the same for SELL,
 *       and for SET_BUY_TRIGGER / CANCEL_SET_BUY after a SET_BUY_AMOUNT of the same user and
 *       symbol (SET_SELL_* alike);</li>
 *   <li>amounts in the real file's ranges (ADD 12,728.13-131,417.80; BUY, SELL and the SET_*_AMOUNTs
 *       0.06-750.00; trigger prices 0.02-737.01), uniform in cents;</li>
 *   <li>exactly one admin {@code DUMPLOG,./testLOG}, last, with no newline after it.</li>
 * </ul>
 */
public final class WorkloadGenerator {

    /** The 100,000-command file's mix, DUMPLOG aside (README of the day-trading material). */
    public static final Map<String, Integer> MIX = mix();

    static final int SYMBOLS = 30;
    private static final double FOLLOW = 0.8;
    private static final int RECENT = 16;
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private static Map<String, Integer> mix() {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("BUY", 13_945);
        m.put("QUOTE", 13_206);
        m.put("ADD", 11_034);
        m.put("DISPLAY_SUMMARY", 9_118);
        m.put("SET_BUY_TRIGGER", 8_564);
        m.put("COMMIT_BUY", 8_048);
        m.put("SET_SELL_TRIGGER", 7_309);
        m.put("SELL", 6_222);
        m.put("SET_BUY_AMOUNT", 5_012);
        m.put("SET_SELL_AMOUNT", 4_415);
        m.put("COMMIT_SELL", 4_206);
        m.put("CANCEL_SET_SELL", 2_480);
        m.put("CANCEL_BUY", 2_446);
        m.put("CANCEL_SELL", 2_027);
        m.put("CANCEL_SET_BUY", 1_967);
        return java.util.Collections.unmodifiableMap(m);
    }

    /** What a generated file holds. */
    public record Settings(int users, long commands, long seed) {
        public Settings {
            if (users < 1 || commands < 2) {
                throw new IllegalArgumentException("--users must be at least 1 and --commands at least 2");
            }
        }
    }

    private record Step(int user, int symbol) {
    }

    private final SplittableRandom random;
    private final List<String> users;
    private final List<String> symbols;
    private final boolean[] started;
    private final String[] commands;
    private final long[] cumulative;
    private final Map<String, ArrayDeque<Step>> recent = new LinkedHashMap<>();

    private WorkloadGenerator(Settings s) {
        this.random = new SplittableRandom(s.seed());
        this.users = distinct(s.users(), () -> text(10, ALPHANUMERIC));
        this.symbols = distinct(SYMBOLS, () -> {
            double r = random.nextDouble();
            return text(r < 0.1 ? 1 : r < 0.3 ? 2 : 3, ALPHANUMERIC.substring(0, 26));
        });
        this.started = new boolean[s.users()];
        this.commands = MIX.keySet().toArray(String[]::new);
        this.cumulative = new long[commands.length];
        long sum = 0;
        for (int i = 0; i < commands.length; i++) {
            sum += MIX.get(commands[i]);
            cumulative[i] = sum;
        }
        for (String source : List.of("BUY", "SELL", "SET_BUY_AMOUNT", "SET_SELL_AMOUNT")) {
            recent.put(source, new ArrayDeque<>());
        }
    }

    /** Writes the file at {@code out}. */
    public static void write(Path out, Settings s) throws IOException {
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            write(w, s);
        }
    }

    public static void write(Writer out, Settings s) throws IOException {
        new WorkloadGenerator(s).generate(out instanceof BufferedWriter ? out : new BufferedWriter(out, 1 << 16), s.commands());
    }

    private void generate(Writer out, long count) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (long n = 1; n < count; n++) {
            line.setLength(0);
            line.append('[').append(n).append("] ");
            command(line);
            out.append(line).append(" \n");
        }
        out.append("[").append(Long.toString(count)).append("] DUMPLOG,./testLOG");
        out.flush();
    }

    /** Appends one command and its fields. */
    private void command(StringBuilder line) {
        String command = draw();
        String source = switch (command) {
            case "COMMIT_BUY", "CANCEL_BUY" -> "BUY";
            case "COMMIT_SELL", "CANCEL_SELL" -> "SELL";
            case "SET_BUY_TRIGGER", "CANCEL_SET_BUY" -> "SET_BUY_AMOUNT";
            case "SET_SELL_TRIGGER", "CANCEL_SET_SELL" -> "SET_SELL_AMOUNT";
            default -> null;
        };
        Step step = null;
        if (source != null && !recent.get(source).isEmpty() && random.nextDouble() < FOLLOW) {
            ArrayDeque<Step> steps = recent.get(source);
            // a trigger leaves its amount's entry for a later cancel; commits and cancels use it up
            step = command.startsWith("SET_") ? steps.peekLast() : steps.pollLast();
        }
        if (step == null) {
            step = new Step(random.nextInt(users.size()), random.nextInt(symbols.size()));
            if (!started[step.user()]) {
                command = "ADD";
            }
        }
        started[step.user()] = true;
        String user = users.get(step.user());
        String symbol = symbols.get(step.symbol());
        line.append(command).append(',').append(user);
        switch (command) {
            case "ADD" -> line.append(',').append(cents(1_272_813, 13_141_780));
            case "QUOTE", "CANCEL_SET_BUY", "CANCEL_SET_SELL" -> line.append(',').append(symbol);
            case "BUY", "SELL", "SET_BUY_AMOUNT", "SET_SELL_AMOUNT" -> line.append(',').append(symbol).append(',')
                    .append(cents(6, 75_000));
            case "SET_BUY_TRIGGER", "SET_SELL_TRIGGER" -> line.append(',').append(symbol).append(',').append(cents(2, 73_701));
            default -> {
                // COMMIT_*, CANCEL_BUY, CANCEL_SELL, DISPLAY_SUMMARY: the user only
            }
        }
        if (recent.containsKey(command)) {
            ArrayDeque<Step> steps = recent.get(command);
            if (steps.size() == RECENT) {
                steps.pollFirst();
            }
            steps.addLast(step);
        }
    }

    private String draw() {
        long r = random.nextLong(cumulative[cumulative.length - 1]);
        for (int i = 0; i < cumulative.length; i++) {
            if (r < cumulative[i]) {
                return commands[i];
            }
        }
        throw new IllegalStateException("unreachable");
    }

    /** Dollars with cents, uniform in cents from {@code min} to {@code max}. */
    private String cents(long min, long max) {
        long c = min + random.nextLong(max - min + 1);
        return String.format(Locale.ROOT, "%d.%02d", c / 100, c % 100);
    }

    private String text(int length, String alphabet) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    private static List<String> distinct(int count, java.util.function.Supplier<String> next) {
        Set<String> seen = new HashSet<>();
        List<String> list = new ArrayList<>(count);
        while (list.size() < count) {
            String s = next.get();
            if (seen.add(s)) {
                list.add(s);
            }
        }
        return list;
    }
}

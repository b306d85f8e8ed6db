package io.geobroker.loadgen.daytrading;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Writes a day-trading workload file in the course's format with the command mix of its
 * 100-user, 100,000-command file, streamed, the same bytes for the same seed:
 * <ul>
 *   <li>user ids of 10 letters and digits; symbols of 1-3 upper-case letters from a pool of
 *       {@value #SYMBOLS};</li>
 *   <li>each line's command drawn from {@link #MIX}; a user's first command is an ADD;</li>
 *   <li>4 in 5 of the COMMIT_BUYs and CANCEL_BUYs follow a BUY of the same user 1 to
 *       {@value #FOLLOW_WITHIN} lines later, as in the real files; the other fifth are drawn like any
 *       command (mostly with nothing pending). The same for SELL, and for SET_BUY_TRIGGER /
 *       CANCEL_SET_BUY after a SET_BUY_AMOUNT of the same user and symbol (SET_SELL_* alike). The
 *       drawn commands' weights are lowered by what the follow-ups bring, so the mix stays
 *       {@link #MIX};</li>
 *   <li>amounts in the real file's ranges (ADD 12,728.13-131,417.80; BUY, SELL and the SET_*_AMOUNTs
 *       0.06-750.00; trigger prices 0.02-737.01), uniform in cents;</li>
 *   <li>exactly one admin {@code DUMPLOG,./testLOG}, last, with no newline after it.</li>
 * </ul>
 */
public final class WorkloadGenerator {

    /** The 100,000-command file's mix, DUMPLOG aside (README of the day-trading material). */
    public static final Map<String, Integer> MIX = mix();

    static final int SYMBOLS = 30;
    /** Share of the follow-up commands (COMMIT_*, CANCEL_*, SET_*_TRIGGER) that follow their BUY, SELL or SET_*_AMOUNT. */
    private static final double FOLLOW = 0.8;
    static final int FOLLOW_WITHIN = 6;
    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    /** The commands that follow each source command, and the source of each follow-up. */
    private static final Map<String, List<String>> FOLLOW_UPS = Map.of(
            "BUY", List.of("COMMIT_BUY", "CANCEL_BUY"),
            "SELL", List.of("COMMIT_SELL", "CANCEL_SELL"),
            "SET_BUY_AMOUNT", List.of("SET_BUY_TRIGGER", "CANCEL_SET_BUY"),
            "SET_SELL_AMOUNT", List.of("SET_SELL_TRIGGER", "CANCEL_SET_SELL"));

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

    /** A follow-up command due at line {@code due} (or the first free line after it). */
    private record FollowUp(long due, long order, String command, Step step) {
    }

    private final SplittableRandom random;
    private final List<String> users;
    private final List<String> symbols;
    private final boolean[] started;
    private final String[] commands;
    private final double[] cumulative;
    private final PriorityQueue<FollowUp> due = new PriorityQueue<>(
            Comparator.comparingLong(FollowUp::due).thenComparingLong(FollowUp::order));
    private long order;

    private WorkloadGenerator(Settings s) {
        this.random = new SplittableRandom(s.seed());
        this.users = distinct(s.users(), () -> text(10, ALPHANUMERIC));
        this.symbols = distinct(SYMBOLS, () -> {
            double r = random.nextDouble();
            return text(r < 0.1 ? 1 : r < 0.3 ? 2 : 3, ALPHANUMERIC.substring(0, 26));
        });
        this.started = new boolean[s.users()];
        this.commands = MIX.keySet().toArray(String[]::new);
        this.cumulative = new double[commands.length];
        double sum = 0;
        for (int i = 0; i < commands.length; i++) {
            String command = commands[i];
            boolean followUp = FOLLOW_UPS.values().stream().anyMatch(l -> l.contains(command));
            sum += MIX.get(command) * (followUp ? 1 - FOLLOW : 1);
            cumulative[i] = sum;
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
            command(line, n);
            out.append(line).append(" \n");
        }
        out.append("[").append(Long.toString(count)).append("] DUMPLOG,./testLOG");
        out.flush();
    }

    /** Appends line {@code n}'s command and its fields: a follow-up due by now, else a drawn one. */
    private void command(StringBuilder line, long n) {
        String command;
        Step step;
        if (!due.isEmpty() && due.peek().due() <= n) {
            FollowUp f = due.poll();
            command = f.command();
            step = f.step();
        } else {
            command = draw();
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
        List<String> followUps = FOLLOW_UPS.get(command);
        if (followUps != null) {
            schedule(n, command, followUps, step);
        }
    }

    /**
     * Schedules the follow-ups of a source command: on average {@code FOLLOW} times the mix's
     * follow-ups per source command (0.6 for a BUY, 1.7 for a SET_BUY_AMOUNT), each of a type drawn by
     * the mix's weights, each 1 to {@value #FOLLOW_WITHIN} lines later.
     */
    private void schedule(long n, String source, List<String> followUps, Step step) {
        double weight = followUps.stream().mapToDouble(MIX::get).sum();
        double expected = FOLLOW * weight / MIX.get(source);
        long count = (long) expected + (random.nextDouble() < expected - Math.floor(expected) ? 1 : 0);
        long at = n;
        for (long i = 0; i < count; i++) {
            double r = random.nextDouble() * weight;
            String command = r < MIX.get(followUps.get(0)) ? followUps.get(0) : followUps.get(1);
            at += 1 + random.nextInt(FOLLOW_WITHIN);
            due.add(new FollowUp(at, order++, command, step));
        }
    }

    private String draw() {
        double r = random.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < cumulative.length; i++) {
            if (r < cumulative[i]) {
                return commands[i];
            }
        }
        return commands[commands.length - 1];
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

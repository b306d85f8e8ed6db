package io.geobroker.loadgen.daytrading;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The replay's end-of-run checks, per user of the workload: the log's cash and shares against the
 * final DISPLAY_SUMMARY's totals (available + reserved), and the log's trigger fill events against
 * the summary's trigger counts.
 */
public final class Invariants {

    private static final int KEPT = 5;

    /**
     * One check over every user: how many users it covered, how many did not match, the first few,
     * and what it counted over all users ({@code totals}, empty when the check counts nothing more).
     */
    public record Check(String name, String rule, long users, long mismatches, List<String> first, String totals) {
        public Check {
            first = List.copyOf(first);
        }

        public boolean holds() {
            return mismatches == 0;
        }

        public String describe() {
            return String.format(Locale.ROOT, "%s: %s, %,d users%s, %s", name, rule, users,
                    totals.isEmpty() ? "" : " (" + totals + ")", holds() ? "holds"
                    : String.format(Locale.ROOT, "%,d mismatch(es), first: %s", mismatches, String.join("; ", first)));
        }
    }

    private Invariants() {
    }

    /** The checks for {@code summaries} (user to their final DISPLAY_SUMMARY, {@code null} if none came back ok). */
    public static List<Check> check(LogLedger ledger, Map<String, CommandResult> summaries) {
        Tally cash = new Tally();
        Tally shares = new Tally();
        Tally triggers = new Tally();
        long fired = 0;
        long filled = 0;
        long partlyFilled = 0;
        long endedPartlyFilled = 0;
        for (Map.Entry<String, CommandResult> e : summaries.entrySet()) {
            String user = e.getKey();
            CommandResult s = e.getValue();
            LogLedger.Account log = ledger.of(user);
            if (s == null || !s.ok() || s.cash() == null) {
                cash.mismatch(user + ": no DISPLAY_SUMMARY answer with cash");
            } else if (s.cash().total().compareTo(log.cash()) != 0) {
                cash.mismatch(user + ": log " + log.cash().toPlainString() + ", summary " + s.cash().total().toPlainString());
            } else {
                cash.match();
            }
            if (s == null || !s.ok() || s.holdings() == null) {
                shares.mismatch(user + ": no DISPLAY_SUMMARY answer with holdings");
            } else {
                List<String> wrong = new ArrayList<>();
                TreeSet<String> symbols = new TreeSet<>(log.shares().keySet());
                symbols.addAll(s.holdings().keySet());
                for (String symbol : symbols) {
                    long fromLog = log.shares().getOrDefault(symbol, 0L);
                    long held = s.holdings().getOrDefault(symbol, 0L);
                    if (fromLog != held) {
                        wrong.add(symbol + " log " + fromLog + ", summary " + held);
                    }
                }
                if (wrong.isEmpty()) {
                    shares.match();
                } else {
                    shares.mismatch(user + ": " + String.join(", ", wrong));
                }
            }
            if (s == null || !s.ok() || s.triggersFilled() == null) {
                triggers.mismatch(user + ": no DISPLAY_SUMMARY answer with triggersFilled");
            } else if (s.triggersFilled() + s.triggersPartlyFilled() + s.triggersEndedPartlyFilled()
                    != log.triggersFired()) {
                triggers.mismatch(user + ": log " + log.triggersFired() + " trigger(s) with fill events, summary "
                        + s.triggersFilled() + " filled + " + s.triggersPartlyFilled() + " partly filled + "
                        + s.triggersEndedPartlyFilled() + " ended partly filled");
            } else {
                triggers.match();
            }
            fired += log.triggersFired();
            if (s != null && s.ok() && s.triggersFilled() != null) {
                filled += s.triggersFilled();
                partlyFilled += s.triggersPartlyFilled();
                endedPartlyFilled += s.triggersEndedPartlyFilled();
            }
        }
        List<Check> checks = new ArrayList<>();
        checks.add(cash.check("cash", "Σ accountTransaction add − remove = summary cash available + reserved"));
        checks.add(shares.check("shares", "Σ debugEvent 'shares ±N SYMBOL' = summary holdings available + reserved, "
                + "per symbol"));
        checks.add(triggers.check("trigger fills", "triggers with fill systemEvents (SET_BUY_TRIGGER/SET_SELL_TRIGGER, "
                + "distinct transaction numbers) = summary triggersFilled + its triggers still PARTIALLY_FILLED "
                + "+ triggersEndedPartlyFilled", String.format(Locale.ROOT, "log %,d; summaries %,d filled, %,d partly filled, "
                + "%,d ended partly filled", fired, filled, partlyFilled, endedPartlyFilled)));
        return checks;
    }

    private static final class Tally {
        long users;
        long mismatches;
        final List<String> first = new ArrayList<>();

        void match() {
            users++;
        }

        void mismatch(String what) {
            users++;
            mismatches++;
            if (first.size() < KEPT) {
                first.add(what);
            }
        }

        Check check(String name, String rule) {
            return check(name, rule, "");
        }

        Check check(String name, String rule, String totals) {
            return new Check(name, rule, users, mismatches, first, totals);
        }
    }
}

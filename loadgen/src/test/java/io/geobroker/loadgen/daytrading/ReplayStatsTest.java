package io.geobroker.loadgen.daytrading;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayStatsTest {

    private static CommandResult result(WorkloadLine line, boolean ok, String error, String stockSymbol, String symbol,
                                        long engineMicros) {
        return new CommandResult(line.transactionNum(), line.command(), line.user(), ok, error, engineMicros, stockSymbol,
                symbol, null, null, null, 0, 0, null);
    }

    @Test
    void errors_of_one_kind_count_together() {
        WorkloadLine buy = WorkloadLine.parse("[1] BUY,p-abc,ZUL,101.34");
        assertThat(ReplayStats.cause(result(buy, false, "the amount 101.34 buys no whole share at 170.03", "ZUL", "AAPL", 1)))
                .isEqualTo("the amount # buys no whole share at #");
        WorkloadLine cancel = WorkloadLine.parse("[2] CANCEL_SET_BUY,p-abc,BFD");
        assertThat(ReplayStats.cause(result(cancel, false, "no automatic buy of BFD to cancel for p-abc", "BFD", "MSFT", 1)))
                .isEqualTo("no automatic buy of <symbol> to cancel for <user>");
        assertThat(ReplayStats.cause(result(cancel, false, "no pending BUY younger than 60 s", "B", "MSFT", 1)))
                .as("a symbol is replaced as a word only").isEqualTo("no pending BUY younger than # s");
    }

    @Test
    void counts_answers_errors_failures_windows_and_symbols() {
        WorkloadLine a = WorkloadLine.parse("[1] QUOTE,p-a,ZUL");
        WorkloadLine b = WorkloadLine.parse("[2] COMMIT_BUY,p-a");
        WorkloadLine c = WorkloadLine.parse("[3] QUOTE,p-b,XY");
        ReplayStats stats = new ReplayStats();
        stats.batch(List.of(a, b), List.of(result(a, true, null, "ZUL", "AAPL", 10),
                result(b, false, "no pending BUY younger than 60 s", null, null, 4)), null, 0, 2_000_000);
        stats.batch(List.of(c), null, "HTTP 503", 1_000_000, 1_500_000_000L);
        stats.batch(List.of(c), List.of(), null, 1_600_000_000L, 1_700_000_000L);

        assertThat(stats.sent()).isEqualTo(4);
        assertThat(stats.answered()).isEqualTo(2);
        assertThat(stats.ok()).isEqualTo(1);
        assertThat(stats.errors()).isEqualTo(1);
        assertThat(stats.failed()).isEqualTo(2);
        assertThat(stats.failures()).containsOnly(Map.entry("HTTP 503", 1L),
                Map.entry("no result for the line in the batch's answer", 1L));
        assertThat(stats.errorsByCommand()).containsOnly(Map.entry("COMMIT_BUY", Map.of("no pending BUY younger than # s", 1L)));
        assertThat(stats.symbols()).containsOnly(Map.entry("ZUL", "AAPL"));
        assertThat(stats.peakPerSecond()).isEqualTo(2);
        assertThat(stats.wallNanos()).as("first send to last answer").isEqualTo(2_000_000);
        ReplayStats.Latency quote = stats.roundTrip().get(stats.roundTrip().size() - 1);
        assertThat(quote.command()).isEqualTo("all");
        assertThat(quote.count()).isEqualTo(2);
        assertThat(stats.engine()).extracting(ReplayStats.Latency::command).containsExactly("COMMIT_BUY", "QUOTE", "all");
    }
}

package io.geobroker.loadgen.daytrading;

import org.junit.jupiter.api.Test;

import javax.xml.transform.stream.StreamSource;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The log's validation against the course's schema, what the log says per user, and the invariants. */
class LogCheckTest {

    private static final String TS = "<timestamp>1764115200000</timestamp><server>nvirginia</server>";

    static final String LOG = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<log>\n"
            + "<userCommand>" + TS + "<transactionNum>1</transactionNum><command>ADD</command><username>p-a</username>"
            + "<funds>100.00</funds></userCommand>\n"
            + "<accountTransaction>" + TS + "<transactionNum>1</transactionNum><action>add</action><username>p-a</username>"
            + "<funds>100.00</funds></accountTransaction>\n"
            + "<quoteServer>" + TS + "<transactionNum>2</transactionNum><price>10.50</price><stockSymbol>ABC</stockSymbol>"
            + "<username>p-a</username><quoteServerTime>1764115200000</quoteServerTime><cryptokey>k1</cryptokey></quoteServer>\n"
            + "<accountTransaction>" + TS + "<transactionNum>3</transactionNum><action>remove</action><username>p-a</username>"
            + "<funds>21.00</funds></accountTransaction>\n"
            + "<debugEvent>" + TS + "<transactionNum>3</transactionNum><command>COMMIT_BUY</command><username>p-a</username>"
            + "<debugMessage>shares +2 AAPL</debugMessage></debugEvent>\n"
            + "<systemEvent>" + TS + "<transactionNum>4</transactionNum><command>SET_SELL_TRIGGER</command>"
            + "<username>p-a</username><stockSymbol>ABC</stockSymbol><funds>12.00</funds></systemEvent>\n"
            + "<debugEvent>" + TS + "<transactionNum>4</transactionNum><command>SET_SELL_TRIGGER</command>"
            + "<username>p-a</username><debugMessage>shares -1 AAPL</debugMessage></debugEvent>\n"
            + "<accountTransaction>" + TS + "<transactionNum>4</transactionNum><action>add</action><username>p-a</username>"
            + "<funds>12.00</funds></accountTransaction>\n"
            + "<errorEvent>" + TS + "<transactionNum>5</transactionNum><command>COMMIT_SELL</command><username>p-b</username>"
            + "<errorMessage>no pending SELL</errorMessage></errorEvent>\n"
            + "<accountTransaction>" + TS + "<transactionNum>9</transactionNum><action>add</action><username>q-a</username>"
            + "<funds>5.00</funds></accountTransaction>\n"
            + "</log>\n";

    private static LogValidator.Validation validate(String xml) throws Exception {
        return new LogValidator().validate(new StreamSource(new StringReader(xml)));
    }

    @Test
    void a_log_of_the_courses_shape_validates() throws Exception {
        LogValidator.Validation v = validate(LOG);
        assertThat(v.firstErrors()).isEmpty();
        assertThat(v.valid()).isTrue();
        assertThat(v.describe()).isEqualTo("valid");
    }

    @Test
    void an_invalid_log_fails_with_its_errors_counted() throws Exception {
        String bad = LOG.replace("<command>ADD</command>", "<command>DEPOSIT</command>")
                .replace("<stockSymbol>ABC</stockSymbol><username>p-a", "<stockSymbol>ABCD</stockSymbol><username>p-a")
                .replace("<funds>21.00</funds>", "<funds>lots</funds>");
        LogValidator.Validation v = validate(bad);
        assertThat(v.valid()).isFalse();
        assertThat(v.errors()).isGreaterThanOrEqualTo(3);
        assertThat(v.describe()).startsWith("INVALID").contains("DEPOSIT");
        assertThat(validate(LOG.replace("1764115200000</timestamp>", "1500000000000</timestamp>")).valid())
                .as("before 2021: outside the schema's range").isFalse();
        assertThat(v.wellFormed()).isTrue();
        LogValidator.Validation cut = validate(LOG.substring(0, LOG.length() / 2));
        assertThat(cut.valid()).as("a log cut short").isFalse();
        assertThat(cut.wellFormed()).isFalse();
        assertThat(cut.describe()).contains("not well-formed");
    }

    @Test
    void the_schemas_bound_is_widened_to_2100_and_only_that() throws Exception {
        assertThat(validate(LOG.replace("1764115200000</timestamp>", "4102444800000</timestamp>")).valid()).isTrue();
        assertThat(validate(LOG.replace("1764115200000</timestamp>", "4102444800001</timestamp>")).valid()).isFalse();
    }

    private static LogLedger ledger() throws Exception {
        return LogLedger.read(new ByteArrayInputStream(LOG.getBytes(StandardCharsets.UTF_8)), u -> u.startsWith("p-"));
    }

    @Test
    void the_ledger_sums_cash_shares_and_trigger_fills_of_this_runs_users() throws Exception {
        LogLedger ledger = ledger();
        assertThat(ledger.of("p-a").cash()).isEqualByComparingTo("91.00");
        assertThat(ledger.of("p-a").shares()).containsExactly(Map.entry("AAPL", 1L));
        assertThat(ledger.of("p-a").triggerFills()).isEqualTo(1);
        assertThat(ledger.of("p-a").triggersFired()).isEqualTo(1);
        assertThat(ledger.of("p-b").cash()).isEqualByComparingTo("0");
        assertThat(ledger.of("q-a").cash()).as("another run's user").isEqualByComparingTo("0");
        assertThat(ledger.entries()).containsEntry("accountTransaction", 4L).containsEntry("errorEvent", 1L);
        assertThat(ledger.repeatedTriggerFills()).isZero();
    }

    @Test
    void a_trigger_filled_in_parts_counts_once_as_fired() throws Exception {
        String second = "<systemEvent>" + TS + "<transactionNum>4</transactionNum><command>SET_SELL_TRIGGER</command>"
                + "<username>p-a</username><stockSymbol>ABC</stockSymbol><funds>12.00</funds></systemEvent>\n";
        String xml = LOG.replace("</log>", second + "</log>");
        LogLedger ledger = LogLedger.read(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), u -> u.startsWith("p-"));
        assertThat(ledger.of("p-a").triggerFills()).isEqualTo(2);
        assertThat(ledger.of("p-a").triggersFired()).isEqualTo(1);
        assertThat(ledger.repeatedTriggerFills()).isEqualTo(1);
    }

    @Test
    void a_summary_answer_is_read_as_the_broker_writes_it() throws Exception {
        String json = "{\"transactionNum\":10001,\"command\":\"DISPLAY_SUMMARY\",\"user\":\"p-a\",\"ok\":true,"
                + "\"engineMicros\":12,\"cash\":{\"currency\":\"USD\",\"available\":\"81.00\",\"reserved\":\"10.00\"},"
                + "\"holdings\":[{\"symbol\":\"AAPL\",\"available\":1,\"reserved\":2},{\"symbol\":\"MSFT\",\"available\":0,"
                + "\"reserved\":0}],\"pendingBuys\":[],\"pendingSells\":[],\"triggers\":[{\"side\":\"BUY\",\"symbol\":\"AAPL\","
                + "\"stockSymbol\":\"ZUL\",\"amount\":\"10.00\",\"price\":\"5.00\",\"orderId\":\"x\","
                + "\"status\":\"PARTIALLY_FILLED\"},{\"side\":\"SELL\",\"symbol\":\"AAPL\",\"stockSymbol\":\"ZUL\","
                + "\"amount\":\"10.00\",\"status\":\"AMOUNT_SET\"}],\"triggersFilled\":3,\"triggersEndedPartlyFilled\":2,"
                + "\"commandsLogged\":40}";
        CommandResult r = CommandResult.of(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json));
        assertThat(r.ok()).isTrue();
        assertThat(r.error()).isNull();
        assertThat(r.cash().total()).isEqualByComparingTo("91.00");
        assertThat(r.holdings()).containsExactly(Map.entry("AAPL", 3L), Map.entry("MSFT", 0L));
        assertThat(r.triggersFilled()).isEqualTo(3);
        assertThat(r.triggersPartlyFilled()).isEqualTo(1);
        assertThat(r.triggersEndedPartlyFilled()).isEqualTo(2);
        assertThat(r.log()).isNull();
    }

    private static CommandResult summary(String user, String available, String reserved, Map<String, Long> holdings,
                                         long triggersFilled) {
        return summary(user, available, reserved, holdings, triggersFilled, 0);
    }

    private static CommandResult summary(String user, String available, String reserved, Map<String, Long> holdings,
                                         long triggersFilled, long endedPartlyFilled) {
        return new CommandResult(100, "DISPLAY_SUMMARY", user, true, null, 5, null, null,
                new CommandResult.Cash("USD", new BigDecimal(available), new BigDecimal(reserved)), holdings, triggersFilled, 0,
                endedPartlyFilled, null);
    }

    @Test
    void invariants_hold_when_the_summaries_agree_with_the_log() throws Exception {
        Map<String, CommandResult> summaries = new LinkedHashMap<>();
        summaries.put("p-a", summary("p-a", "81.00", "10.00", Map.of("AAPL", 1L), 1));
        summaries.put("p-b", summary("p-b", "0.00", "0.00", Map.of(), 0));
        List<Invariants.Check> checks = Invariants.check(ledger(), summaries);
        assertThat(checks).extracting(Invariants.Check::name).containsExactly("cash", "shares", "trigger fills");
        assertThat(checks).allMatch(Invariants.Check::holds);
        assertThat(checks).allMatch(c -> c.users() == 2);
    }

    @Test
    void invariants_name_each_mismatch() throws Exception {
        Map<String, CommandResult> summaries = new LinkedHashMap<>();
        summaries.put("p-a", summary("p-a", "91.01", "0.00", Map.of("AAPL", 2L, "MSFT", 0L), 2));
        summaries.put("p-b", null);
        List<Invariants.Check> checks = Invariants.check(ledger(), summaries);
        assertThat(checks).noneMatch(Invariants.Check::holds);
        assertThat(checks.get(0).mismatches()).isEqualTo(2);
        assertThat(checks.get(0).first()).containsExactly("p-a: log 91.00, summary 91.01",
                "p-b: no DISPLAY_SUMMARY answer with cash");
        assertThat(checks.get(1).first().get(0)).isEqualTo("p-a: AAPL log 1, summary 2");
        assertThat(checks.get(2).first().get(0)).isEqualTo("p-a: log 1 trigger(s) with fill events, summary 2 filled + 0 "
                + "partly filled + 0 ended partly filled");
        assertThat(checks.get(0).describe()).contains("2 mismatch(es)");
    }

    @Test
    void a_trigger_cancelled_or_re_armed_after_a_partial_fill_counts_as_one_with_fill_events() throws Exception {
        Map<String, CommandResult> summaries = new LinkedHashMap<>();
        summaries.put("p-a", summary("p-a", "81.00", "10.00", Map.of("AAPL", 1L), 0, 1));
        summaries.put("p-b", summary("p-b", "0.00", "0.00", Map.of(), 0, 1));
        List<Invariants.Check> checks = Invariants.check(ledger(), summaries);
        assertThat(checks.get(2).mismatches()).as("p-a's one trigger with fills ended partly filled; p-b has none")
                .isEqualTo(1);
        assertThat(checks.get(2).first()).containsExactly("p-b: log 0 trigger(s) with fill events, summary 0 filled + 0 "
                + "partly filled + 1 ended partly filled");
        assertThat(checks.get(2).totals()).isEqualTo("log 1; summaries 0 filled, 0 partly filled, 2 ended partly filled");
        assertThat(checks.get(2).describe()).contains("2 users (log 1; summaries");
        assertThat(checks.get(0).totals()).isEmpty();
    }
}

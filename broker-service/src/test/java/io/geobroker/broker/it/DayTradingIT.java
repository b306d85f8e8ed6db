package io.geobroker.broker.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.xml.sax.SAXException;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The day-trading command set on one broker (N. Virginia) on the real stack: quotes, BUY/SELL with
 * their COMMIT and CANCEL, automatic buys and sells filled by tickers, refusals, malformed lines,
 * the customer's own endpoint, and the real 10,000-command workload file of the course, with the
 * audit log validated against the course's schema and the books checked against it.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DayTradingIT {

    private static final String BATCH = "/admin/v1/day-trading/batch";
    private TestStack stack;
    @AutoClose
    private InProcessBroker broker;
    private BrokerApi api;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(34), Map.of());
        api = broker.api;
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    private static String user() {
        return "dt" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    }

    private List<JsonNode> batch(String... lines) {
        BrokerApi.Response r = api.adminText(BATCH, String.join("\n", lines));
        assertThat(r.status()).as("batch answer %s", r.body()).isEqualTo(200);
        List<JsonNode> results = new ArrayList<>();
        r.body().path("results").forEach(results::add);
        return results;
    }

    /** Ticks the symbol until the broker quotes it at {@code price} (minor units). */
    private void quoteAt(String symbol, long price) {
        exchange.tick(symbol, price, 1_000);
        await("quote of " + symbol).atMost(Duration.ofSeconds(15)).until(() -> {
            JsonNode q = batch("[1] QUOTE,quoter," + symbol).get(0);
            return q.path("ok").asBoolean() && q.path("price").asText().equals(BigDecimal.valueOf(price, 2).toPlainString());
        });
    }

    @Test
    void aBuyAndASellCommittedAtTheirQuotesAndEveryEventLogged() throws Exception {
        String u = user();
        String token = api.customer(u);
        quoteAt("MU", 10_000);
        List<JsonNode> r = batch("[1] ADD," + u + ",1000.00 ", "[2] QUOTE," + u + ",MU", "[3] BUY," + u + ",MU,250.00",
                "[4] COMMIT_BUY," + u, "[5] SELL," + u + ",MU,100.00", "[6] CANCEL_SELL," + u, "[7] COMMIT_SELL," + u,
                "[8] DISPLAY_SUMMARY," + u, "[9] DUMPLOG," + u + ",./mine.xml");
        assertThat(r).hasSize(9);
        assertThat(r.subList(0, 6)).allSatisfy(x -> assertThat(x.path("ok").asBoolean()).as("%s", x).isTrue());
        assertThat(r.get(1).path("price").asText()).isEqualTo("100.00");
        assertThat(r.get(2).path("quantity").asLong()).isEqualTo(2);
        assertThat(r.get(2).path("amount").asText()).isEqualTo("200.00");
        assertThat(r.get(2).path("cash").path("reserved").asText()).isEqualTo("200.00");
        assertThat(r.get(3).path("cash").path("available").asText()).isEqualTo("800.00");
        assertThat(r.get(3).path("cash").path("reserved").asText()).isEqualTo("0.00");
        assertThat(r.get(4).path("quantity").asLong()).isEqualTo(1);
        assertThat(r.get(6).path("ok").asBoolean()).isFalse();
        assertThat(r.get(6).path("error").asText()).contains("no pending SELL");
        JsonNode summary = r.get(7);
        assertThat(summary.path("holdings").get(0).path("symbol").asText()).isEqualTo("MU");
        assertThat(summary.path("holdings").get(0).path("available").asLong()).isEqualTo(2);
        assertThat(summary.path("holdings").get(0).path("reserved").asLong()).isZero();
        assertThat(summary.path("commandsLogged").asLong()).isEqualTo(8);
        JsonNode moves = summary.path("transactions");
        assertThat(moves).hasSize(2);
        assertThat(moves.get(0).path("command").asText() + " " + moves.get(0).path("action").asText() + " "
                + moves.get(0).path("amount").asText()).isEqualTo("ADD add 1000.00");
        assertThat(moves.get(1).path("command").asText() + " " + moves.get(1).path("action").asText() + " "
                + moves.get(1).path("amount").asText() + " " + moves.get(1).path("shares").asLong() + " "
                + moves.get(1).path("symbol").asText()).isEqualTo("COMMIT_BUY remove 200.00 2 MU");
        assertThat(moves.get(1).path("transactionNum").asLong()).isEqualTo(4);
        assertThat(r.get(8).path("log").path("path").asText()).isEqualTo("/admin/v1/day-trading/log");

        // the same accounts as the REST API's, and the commit is a FILLED order with its fill published
        assertThat(api.cash(token, "USD")).containsExactly(80_000, 0);
        assertThat(api.shares(token, "MU")[0]).isEqualTo(2);
        await("the commit's fill").atMost(Duration.ofSeconds(15)).until(() -> exchange.fills().stream()
                .anyMatch(f -> f.customerId().equals(u) && f.quantity() == 2 && f.price() == 10_000));

        String xml = log(u, null);
        Map<String, Integer> kinds = validate(xml);
        assertThat(kinds).containsEntry("userCommand", 9).containsEntry("quoteServer", 3)
                .containsEntry("accountTransaction", 2).containsEntry("errorEvent", 1).containsEntry("debugEvent", 1);
        assertThat(xml).contains("<debugMessage>shares +2 MU</debugMessage>").contains("<action>remove</action>")
                .contains("<funds>200.00</funds>");
        assertThat(validate(log(null, token))).isEqualTo(kinds);
    }

    @Test
    void anAutomaticBuyIsFilledByATickerOnceAndAnAutomaticSellCanBeCancelled() throws Exception {
        String u = user();
        String token = api.customer(u);
        quoteAt("GS", 50_000);
        List<JsonNode> r = batch("[1] ADD," + u + ",10000.00", "[2] SET_BUY_AMOUNT," + u + ",GS,1000.00",
                "[3] SET_BUY_TRIGGER," + u + ",GS,400.00");
        assertThat(r).allSatisfy(x -> assertThat(x.path("ok").asBoolean()).as("%s", x).isTrue());
        assertThat(r.get(1).path("cash").path("reserved").asText()).isEqualTo("1000.00");
        assertThat(r.get(2).path("quantity").asLong()).isEqualTo(2);
        assertThat(r.get(2).path("cash").path("reserved").asText()).isEqualTo("800.00");
        assertThat(r.get(2).path("cash").path("available").asText()).isEqualTo("9200.00");

        long sequence = exchange.tick("GS", 39_000, 100);
        await("the automatic buy filled").atMost(Duration.ofSeconds(15))
                .until(() -> batch("[4] DISPLAY_SUMMARY," + u).get(0).path("triggersFilled").asLong() == 1);
        exchange.send("GS", 39_000, 100, sequence);
        exchange.tick("GS", 38_000, 100);
        JsonNode summary = batch("[5] DISPLAY_SUMMARY," + u).get(0);
        assertThat(summary.path("triggersFilled").asLong()).isEqualTo(1);
        assertThat(summary.path("triggers")).isEmpty();
        long[] cash = api.cash(token, "USD");
        long spent = 1_000_000 - cash[0] - cash[1];
        assertThat(spent).as("two shares at the ticker's price or better").isBetween(2 * 38_000L, 2 * 40_000L);
        assertThat(api.shares(token, "GS")[0]).isEqualTo(2);
        assertThat(exchange.fills().stream().filter(f -> f.customerId().equals(u)).map(f -> f.fillId()).distinct())
                .hasSize(1);

        List<JsonNode> sell = batch("[6] SET_SELL_AMOUNT," + u + ",GS,900.00", "[7] SET_SELL_TRIGGER," + u + ",GS,450.00",
                "[8] DISPLAY_SUMMARY," + u, "[9] CANCEL_SET_SELL," + u + ",GS", "[10] CANCEL_SET_BUY," + u + ",GS",
                "[11] SET_BUY_AMOUNT," + u + ",GS,100000.00", "[12] DISPLAY_SUMMARY," + u);
        assertThat(sell.get(1).path("quantity").asLong()).isEqualTo(2);
        assertThat(sell.get(2).path("holdings").get(0).path("reserved").asLong()).isEqualTo(2);
        assertThat(sell.get(2).path("triggers").get(0).path("status").asText()).isEqualTo("OPEN");
        assertThat(sell.get(3).path("ok").asBoolean()).isTrue();
        assertThat(sell.get(4).path("error").asText()).contains("no automatic buy of GS");
        assertThat(sell.get(5).path("error").asText()).contains("insufficient funds");
        assertThat(sell.get(6).path("holdings").get(0).path("available").asLong()).isEqualTo(2);
        assertThat(sell.get(6).path("holdings").get(0).path("reserved").asLong()).isZero();
        assertThat(sell.get(6).path("triggers")).isEmpty();

        String xml = log(u, null);
        validate(xml);
        assertThat(xml).contains("<systemEvent>").contains("<command>SET_BUY_TRIGGER</command>")
                .contains("<debugMessage>shares +2 GS</debugMessage>");
    }

    /**
     * Transactions 1-4 of user {@code u}: 10,000.00 added, an automatic buy of 1,000.00 of the symbol
     * armed at 90.00 (11 shares), and a ticker at 89.00 of volume {@code filled} that fills part of it.
     */
    private void armedAt90AndPartlyFilled(String u, String symbol, long filled) {
        quoteAt(symbol, 10_000);
        List<JsonNode> r = batch("[1] ADD," + u + ",10000.00", "[2] SET_BUY_AMOUNT," + u + "," + symbol + ",1000.00",
                "[3] SET_BUY_TRIGGER," + u + "," + symbol + ",90.00");
        assertThat(r).allSatisfy(x -> assertThat(x.path("ok").asBoolean()).as("%s", x).isTrue());
        assertThat(r.get(2).path("quantity").asLong()).isEqualTo(11);
        exchange.tick(symbol, 8_900, filled);
        await(filled + " of the 11 shares filled").atMost(Duration.ofSeconds(15)).until(() -> "PARTIALLY_FILLED".equals(
                batch("[4] DISPLAY_SUMMARY," + u).get(0).path("triggers").path(0).path("status").asText()));
    }

    @Test
    void anAutomaticBuyReArmedOrCancelledAfterAPartialFillIsCountedAsEndedPartlyFilled() throws Exception {
        String u = user();
        armedAt90AndPartlyFilled(u, "TXN", 3);
        List<JsonNode> reArmed = batch("[5] SET_BUY_TRIGGER," + u + ",TXN,80.00", "[6] DISPLAY_SUMMARY," + u);
        assertThat(reArmed.get(0).path("ok").asBoolean()).as("%s", reArmed.get(0)).isTrue();
        JsonNode summary = reArmed.get(1);
        assertThat(summary.path("triggersFilled").asLong()).isZero();
        assertThat(summary.path("triggersEndedPartlyFilled").asLong()).isEqualTo(1);
        assertThat(summary.path("triggers").get(0).path("status").asText()).isEqualTo("OPEN");

        exchange.tick("TXN", 7_900, 2);
        await("2 shares of the re-armed order filled").atMost(Duration.ofSeconds(15)).until(() -> "PARTIALLY_FILLED"
                .equals(batch("[7] DISPLAY_SUMMARY," + u).get(0).path("triggers").path(0).path("status").asText()));
        List<JsonNode> cancelled = batch("[8] CANCEL_SET_BUY," + u + ",TXN", "[9] DISPLAY_SUMMARY," + u);
        assertThat(cancelled.get(0).path("ok").asBoolean()).as("%s", cancelled.get(0)).isTrue();
        assertThat(cancelled.get(1).path("triggers")).isEmpty();
        assertThat(cancelled.get(1).path("triggersFilled").asLong()).isZero();
        assertThat(cancelled.get(1).path("triggersEndedPartlyFilled").asLong()).isEqualTo(2);
        assertThat(cancelled.get(1).path("holdings").get(0).path("available").asLong()).isEqualTo(5);
        assertThat(cancelled.get(1).path("cash").path("reserved").asText()).isEqualTo("0.00");

        // the log's fill events carry the two transaction numbers the summary counts as ended
        String xml = log(u, null);
        validate(xml);
        assertThat(systemEventTransactions(xml)).containsExactly(3L, 5L);
    }

    @Test
    void anAutomaticBuyOrSellWhoseOrderTheCustomerCancelsOverRestEnds() throws Exception {
        String u = user();
        String token = api.customer(u);
        armedAt90AndPartlyFilled(u, "AMD", 4);
        String buyOrder = batch("[5] DISPLAY_SUMMARY," + u).get(0).path("triggers").path(0).path("orderId").asText();
        BrokerApi.Response cancelled = api.cancel(token, buyOrder);
        assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
        assertThat(cancelled.text("status")).isEqualTo("CANCELLED");

        List<JsonNode> after = batch("[6] DISPLAY_SUMMARY," + u, "[7] CANCEL_SET_BUY," + u + ",AMD");
        JsonNode summary = after.get(0);
        assertThat(summary.path("triggers")).isEmpty();
        assertThat(summary.path("triggersFilled").asLong()).isZero();
        assertThat(summary.path("triggersEndedPartlyFilled").asLong()).isEqualTo(1);
        assertThat(summary.path("holdings").get(0).path("available").asLong()).isEqualTo(4);
        assertThat(summary.path("cash").path("available").asText()).isEqualTo("9644.00");
        assertThat(summary.path("cash").path("reserved").asText()).isEqualTo("0.00");
        assertThat(after.get(1).path("error").asText()).contains("no automatic buy of AMD");

        // an automatic sell of the 4 shares, armed and cancelled before any fill: it ends, nothing counted
        List<JsonNode> sell = batch("[8] SET_SELL_AMOUNT," + u + ",AMD,400.00",
                "[9] SET_SELL_TRIGGER," + u + ",AMD,100.00");
        assertThat(sell).allSatisfy(x -> assertThat(x.path("ok").asBoolean()).as("%s", x).isTrue());
        assertThat(sell.get(1).path("quantity").asLong()).isEqualTo(4);
        String sellOrder = batch("[10] DISPLAY_SUMMARY," + u).get(0).path("triggers").path(0).path("orderId").asText();
        assertThat(api.cancel(token, sellOrder).status()).isEqualTo(200);
        JsonNode last = batch("[11] DISPLAY_SUMMARY," + u).get(0);
        assertThat(last.path("triggers")).isEmpty();
        assertThat(last.path("triggersEndedPartlyFilled").asLong()).isEqualTo(1);
        assertThat(last.path("holdings").get(0).path("available").asLong()).isEqualTo(4);
        assertThat(last.path("holdings").get(0).path("reserved").asLong()).isZero();

        String xml = log(u, null);
        validate(xml);
        assertThat(systemEventTransactions(xml)).containsExactly(3L);
        assertThat(xml).contains("automatic buy of AMD ended").contains("automatic sell of AMD ended");
    }

    @Test
    void aPendingBuyAndAnArmedAutomaticBuyOutliveARestartOfTheBroker() throws Exception {
        String u = user();
        quoteAt("V", 20_000);
        List<JsonNode> before = batch("[1] ADD," + u + ",5000.00", "[2] BUY," + u + ",V,500.00",
                "[3] SET_BUY_AMOUNT," + u + ",V,1000.00", "[4] SET_BUY_TRIGGER," + u + ",V,150.00");
        assertThat(before).allSatisfy(x -> assertThat(x.path("ok").asBoolean()).as("%s", x).isTrue());
        assertThat(before.get(3).path("cash").path("reserved").asText()).isEqualTo("1300.00");

        String address = stack.testAddress(34);
        broker.close();
        broker = new InProcessBroker(stack, "nvirginia", address, Map.of());
        api = broker.api;

        JsonNode commit = batch("[5] COMMIT_BUY," + u).get(0);
        assertThat(commit.path("ok").asBoolean()).as("%s", commit).isTrue();
        assertThat(commit.path("quantity").asLong()).isEqualTo(2);
        assertThat(commit.path("price").asText()).isEqualTo("200.00");
        assertThat(commit.path("cash").path("reserved").asText()).isEqualTo("900.00");
        exchange.tick("V", 14_000, 100);
        await("the automatic buy armed before the restart filled").atMost(Duration.ofSeconds(15))
                .until(() -> batch("[6] DISPLAY_SUMMARY," + u).get(0).path("triggersFilled").asLong() == 1);
        JsonNode summary = batch("[7] DISPLAY_SUMMARY," + u).get(0);
        assertThat(summary.path("holdings").get(0).path("available").asLong()).isEqualTo(8);
        assertThat(summary.path("cash").path("reserved").asText()).isEqualTo("0.00");
        String xml = log(u, null);
        validate(xml);
        assertThat(xml).contains("<systemEvent>");
    }

    @Test
    void malformedLinesAreAnsweredOneByOneAndChangeNothing() {
        String u = user();
        List<JsonNode> r = batch("garbage", "[2] BUY," + u + ",MU", "[3] FOO," + u, "[4] ADD," + u + ",1.234",
                "[5] ADD," + u + ",-5", "[6] ADD," + u + ",5.00", "", "[7] QUOTE," + u + ",TOOLONG");
        assertThat(r).hasSize(7);
        assertThat(r.get(0).path("error").asText()).contains("not a command line");
        assertThat(r.get(1).path("error").asText()).contains("BUY takes 3 fields");
        assertThat(r.get(2).path("error").asText()).contains("unknown command");
        assertThat(r.get(3).path("error").asText()).contains("invalid amount").contains("up to 2 decimals");
        assertThat(r.get(4).path("ok").asBoolean()).isFalse();
        assertThat(r.get(5).path("cash").path("available").asText()).isEqualTo("5.00");
        assertThat(r.get(6).path("error").asText()).contains("invalid stock symbol");

        String tooMany = String.join("\n", java.util.Collections.nCopies(1_001, "[1] DISPLAY_SUMMARY," + u));
        BrokerApi.Response refused = api.adminText(BATCH, tooMany);
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.text("detail")).contains("at most 1000");
    }

    @Test
    void aCustomerRunsItsOwnCommandsAndReadsItsOwnLog() throws Exception {
        String u = user();
        String token = api.customer(u);
        BrokerApi.Response added = api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "ADD", "amount", "10.00"));
        assertThat(added.status()).isEqualTo(200);
        assertThat(added.text("user")).isEqualTo(u);
        assertThat(added.body().path("transactionNum").asLong()).isPositive();
        BrokerApi.Response refused = api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "COMMIT_BUY"));
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.text("error")).contains("no pending BUY");
        assertThat(api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "ADD", "amount", "1.00", "user", "someoneelse")).status()).isEqualTo(403);
        assertThat(api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "QUOTE", "amount", "1.00", "stockSymbol", "MU")).status()).isEqualTo(422);
        assertThat(api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "ADD", "amount", "1e5")).status()).isEqualTo(400);
        assertThat(api.send("POST", "/api/v1/day-trading/commands", token,
                Map.of("command", "ADD", "amount", "1.00", "colour", "red")).status()).isEqualTo(400);
        assertThat(validate(log(null, token))).containsEntry("userCommand", 2).containsEntry("errorEvent", 1);
    }

    /** The course's real 2-user workload, replayed in order in batches: every line answered, the log valid and in balance. */
    @Test
    void theCoursesTwoUserWorkloadReplaysWithTheBooksMatchingTheLog() throws Exception {
        long price = 5_000;
        String last = null;
        for (SymbolInfo s : SymbolDirectory.standard().symbols()) {
            if (s.exchange().equals("NYSE") || s.exchange().equals("NASDAQ")) {
                price += 700;
                last = s.symbol();
                exchange.tick(last, price, 1_000_000);
            }
        }
        quoteAt(last, price);
        String prefix = "w" + UUID.randomUUID().toString().substring(0, 4) + "-";
        List<String> lines;
        try (InputStream in = getClass().getResourceAsStream("/day-trading/WL_2_USER.txt")) {
            lines = List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n"));
        }
        assertThat(lines).hasSize(10_000);
        Map<String, String> users = new HashMap<>();
        List<JsonNode> results = new ArrayList<>();
        for (int i = 0; i < lines.size(); i += 500) {
            List<String> chunk = new ArrayList<>();
            for (String line : lines.subList(i, Math.min(lines.size(), i + 500))) {
                String[] parts = line.strip().split(",", 3);
                if (!parts[0].endsWith("DUMPLOG")) {
                    users.putIfAbsent(parts[1], prefix + parts[1]);
                    parts[1] = prefix + parts[1];
                }
                chunk.add(String.join(",", parts));
            }
            results.addAll(batch(chunk.toArray(String[]::new)));
        }
        assertThat(results).hasSize(10_000);
        assertThat(results).allSatisfy(x -> assertThat(x.path("command").isTextual()).as("%s", x).isTrue());
        long ok = results.stream().filter(x -> x.path("ok").asBoolean()).count();
        assertThat(ok).as("commands that did what they asked").isGreaterThan(3_000);
        assertThat(results.get(9_999).path("log").path("filename").asText()).isEqualTo("./testLOG");

        for (String u : users.values()) {
            String xml = log(u, null);
            validate(xml);
            JsonNode summary = batch("[10001] DISPLAY_SUMMARY," + u).get(0);
            long cash = cents(summary.path("cash").path("available")) + cents(summary.path("cash").path("reserved"));
            assertThat(cash).as("%s's cash against its log's account transactions", u).isEqualTo(fundsOf(xml));
            Map<String, Long> shares = sharesOf(xml);
            for (JsonNode h : summary.path("holdings")) {
                assertThat(h.path("available").asLong() + h.path("reserved").asLong())
                        .as("%s's %s against its log", u, h.path("symbol").asText())
                        .isEqualTo(shares.getOrDefault(h.path("symbol").asText(), 0L));
            }
        }
        Map<String, Integer> all = validate(log(null, null));
        assertThat(all.get("userCommand")).isGreaterThanOrEqualTo(9_999);
    }

    private static long cents(JsonNode decimal) {
        return new BigDecimal(decimal.asText()).movePointRight(2).longValueExact();
    }

    /** Σ add − Σ remove of the log's account transactions, in cents. */
    private static long fundsOf(String xml) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(xml)));
        var list = doc.getElementsByTagName("accountTransaction");
        long total = 0;
        for (int i = 0; i < list.getLength(); i++) {
            var e = (org.w3c.dom.Element) list.item(i);
            long funds = new BigDecimal(e.getElementsByTagName("funds").item(0).getTextContent()).movePointRight(2)
                    .longValueExact();
            total += e.getElementsByTagName("action").item(0).getTextContent().equals("add") ? funds : -funds;
        }
        return total;
    }

    /** The distinct transaction numbers of the log's systemEvents (an automatic buy or sell's fills), ascending. */
    private static SortedSet<Long> systemEventTransactions(String xml) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(xml)));
        var list = doc.getElementsByTagName("systemEvent");
        SortedSet<Long> numbers = new TreeSet<>();
        for (int i = 0; i < list.getLength(); i++) {
            var e = (org.w3c.dom.Element) list.item(i);
            numbers.add(Long.parseLong(e.getElementsByTagName("transactionNum").item(0).getTextContent()));
        }
        return numbers;
    }

    private static Map<String, Long> sharesOf(String xml) throws Exception {
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new StringReader(xml)));
        var list = doc.getElementsByTagName("debugMessage");
        Map<String, Long> shares = new HashMap<>();
        for (int i = 0; i < list.getLength(); i++) {
            String[] m = list.item(i).getTextContent().split(" ");
            if (m.length == 3 && m[0].equals("shares")) {
                shares.merge(m[2], Long.parseLong(m[1].replace("+", "")), Long::sum);
            }
        }
        return shares;
    }

    /** The log of {@code user} as the operator reads it, or (user null) the customer's own with {@code token}, or the whole log. */
    private String log(String user, String token) {
        String path = token != null ? "/api/v1/day-trading/log"
                : "/admin/v1/day-trading/log" + (user == null ? "" : "?user=" + user);
        HttpResponse<String> response = api.getText(path, token);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse("")).startsWith("application/xml");
        return response.body();
    }

    /** Validates against the course's schema (its timestamp bound widened); the count of each event kind. */
    private static Map<String, Integer> validate(String xml) throws SAXException, IOException {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        var schema = factory.newSchema(DayTradingIT.class.getResource("/geobroker/day-trading-logfile.xsd"));
        schema.newValidator().validate(new StreamSource(new StringReader(xml)));
        Map<String, Integer> kinds = new HashMap<>();
        for (String kind : List.of("userCommand", "quoteServer", "accountTransaction", "systemEvent", "errorEvent",
                "debugEvent")) {
            int n = xml.split("<" + kind + ">", -1).length - 1;
            if (n > 0) {
                kinds.put(kind, n);
            }
        }
        return kinds;
    }
}

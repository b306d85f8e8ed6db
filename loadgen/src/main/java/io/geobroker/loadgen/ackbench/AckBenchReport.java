package io.geobroker.loadgen.ackbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The ack benchmark's report: its rounds beside the mock exchange's figures of issue 28, as a
 * console table, Markdown and JSON (schema {@value #SCHEMA}).
 */
public record AckBenchReport(String startedAt, String protocol, String region, int ordersPerClient,
                             Map<String, String> conditions, List<RoundResult> rounds) {

    public static final String SCHEMA = "geobroker-ack-bench/1";

    /** A figure of the reference system: {@code clients} clients sending 1,000 orders each took {@code wallMillis}. */
    public record Reference(int clients, int ordersPerClient, long wallMillis) {
        public double ordersPerSecond() {
            return (double) clients * ordersPerClient * 1000 / wallMillis;
        }
    }

    /**
     * The mock exchange among the project's references (issue 28): FIX, in process, in memory, nothing
     * durable; each client sends 1,000 orders one after another, each after the previous one's ack.
     */
    public static final List<Reference> MOCK_EXCHANGE = List.of(new Reference(5, 1000, 102),
            new Reference(25, 1000, 459), new Reference(250, 1000, 4600));

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public AckBenchReport {
        conditions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(conditions));
        rounds = List.copyOf(rounds);
    }

    /** The reference figure for a round's number of clients, if the mock exchange has one. */
    public static Optional<Reference> reference(int clients) {
        return MOCK_EXCHANGE.stream().filter(r -> r.clients() == clients).findFirst();
    }

    private static final String[] HEADER = {"clients", "orders", "wall", "orders/s", "p50 ms", "p90 ms", "p99 ms",
            "p99.9 ms", "max ms", "rejected", "errors", "fills", "mock exchange"};

    /** Each round as the cells of one table row. */
    List<String[]> rows() {
        List<String[]> rows = new ArrayList<>();
        for (RoundResult r : rounds) {
            LatencySummary l = r.latency();
            rows.add(new String[] {
                    String.format(Locale.ROOT, "%,d", r.clients()),
                    String.format(Locale.ROOT, "%,d", r.orders()),
                    seconds(r.wallNanos()),
                    String.format(Locale.ROOT, "%,.0f", r.ordersPerSecond()),
                    millis(l.p50()), millis(l.p90()), millis(l.p99()), millis(l.p999()), millis(l.max()),
                    String.format(Locale.ROOT, "%,d", r.rejected()),
                    String.format(Locale.ROOT, "%,d", r.errors()),
                    r.fillsKnown() ? String.format(Locale.ROOT, "%,d", r.fills()) : "n.a.",
                    reference(r.clients()).map(ref -> String.format(Locale.ROOT, "%s, %,.0f/s",
                            seconds(ref.wallMillis() * 1_000_000), ref.ordersPerSecond())).orElse("-")});
        }
        return rows;
    }

    /** The table and the CPU lines, for the console. */
    public String console() {
        StringBuilder out = new StringBuilder();
        out.append(title()).append('\n');
        List<String[]> rows = rows();
        int[] width = new int[HEADER.length];
        for (int i = 0; i < HEADER.length; i++) {
            width[i] = HEADER[i].length();
            for (String[] row : rows) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        appendRow(out, HEADER, width);
        for (String[] row : rows) {
            appendRow(out, row, width);
        }
        out.append(footnote()).append('\n');
        for (RoundResult r : rounds) {
            if (!r.cpu().isEmpty()) {
                out.append(String.format(Locale.ROOT, "CPU, %d clients: %s%n", r.clients(), r.cpu()));
            }
            if (!r.causes().isEmpty()) {
                out.append(String.format(Locale.ROOT, "Rejects and errors, %d clients: %s%n", r.clients(), causes(r)));
            }
        }
        return out.toString();
    }

    private static void appendRow(StringBuilder out, String[] cells, int[] width) {
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                out.append("  ");
            }
            // the last column left-aligned, the figures right-aligned
            out.append(i == cells.length - 1 ? cells[i] : " ".repeat(width[i] - cells[i].length()) + cells[i]);
        }
        out.append('\n');
    }

    /** The report as Markdown: title, conditions, the table, CPU per round. */
    public String markdown() {
        StringBuilder out = new StringBuilder("# ").append(title()).append("\n\n");
        for (Map.Entry<String, String> c : conditions.entrySet()) {
            out.append("- ").append(c.getKey()).append(": ").append(c.getValue()).append('\n');
        }
        out.append("\n| ").append(String.join(" | ", HEADER)).append(" |\n|");
        out.append("---|".repeat(HEADER.length)).append('\n');
        for (String[] row : rows()) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        out.append('\n').append(footnote()).append('\n');
        for (RoundResult r : rounds) {
            if (!r.cpu().isEmpty()) {
                out.append(String.format(Locale.ROOT, "%n- CPU, %d clients: %s", r.clients(), r.cpu()));
            }
            if (!r.causes().isEmpty()) {
                out.append(String.format(Locale.ROOT, "%n- rejects and errors, %d clients: %s", r.clients(), causes(r)));
            }
        }
        return out.append('\n').toString();
    }

    private String title() {
        return String.format(Locale.ROOT, "geobroker ack-bench: %s order entry at %s's broker, %,d orders per client, "
                + "each sent when the previous one's ack arrived (LIMIT BUY of 1 share, resting)",
                protocol.toUpperCase(Locale.ROOT), region, ordersPerClient);
    }

    private static String footnote() {
        return "orders/s: accepted orders per second of the round's wall time; latency: send to ack, every answered order; "
                + "mock exchange: issue 28's reference, 1,000 orders per client, in memory, nothing durable.";
    }

    private static String causes(RoundResult r) {
        List<String> parts = new ArrayList<>();
        r.causes().forEach((cause, n) -> parts.add(n + " " + cause));
        return String.join(", ", parts);
    }

    public String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA).put("startedAt", startedAt).put("protocol", protocol).put("region", region)
                .put("ordersPerClient", ordersPerClient);
        ObjectNode c = root.putObject("conditions");
        conditions.forEach(c::put);
        ArrayNode rs = root.putArray("rounds");
        for (RoundResult r : rounds) {
            ObjectNode n = rs.addObject();
            n.put("clients", r.clients()).put("ordersPerClient", r.ordersPerClient()).put("accepted", r.accepted())
                    .put("rejected", r.rejected()).put("errors", r.errors()).put("wallNanos", r.wallNanos())
                    .put("ordersPerSecond", Math.round(r.ordersPerSecond() * 10) / 10.0);
            if (r.fillsKnown()) {
                n.put("fills", r.fills());
            } else {
                n.putNull("fills");
            }
            LatencySummary l = r.latency();
            n.putObject("ackLatencyMicros").put("count", l.count()).put("p50", l.p50()).put("p90", l.p90())
                    .put("p99", l.p99()).put("p999", l.p999()).put("max", l.max())
                    .put("mean", l.mean());
            ObjectNode causes = n.putObject("causes");
            r.causes().forEach(causes::put);
            n.put("cpu", r.cpu());
            reference(r.clients()).ifPresent(ref -> n.putObject("mockExchange").put("ordersPerClient", ref.ordersPerClient())
                    .put("wallMillis", ref.wallMillis()).put("ordersPerSecond", Math.round(ref.ordersPerSecond())));
        }
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the report", e);
        }
    }

    /** Reads a report written by {@link #json}. */
    public static AckBenchReport fromJson(String json) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (!SCHEMA.equals(root.path("schema").asText())) {
            throw new IOException("not an ack-bench report (schema " + root.path("schema").asText() + ")");
        }
        Map<String, String> conditions = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("conditions").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            conditions.put(e.getKey(), e.getValue().asText());
        }
        List<RoundResult> rounds = new ArrayList<>();
        for (JsonNode n : root.path("rounds")) {
            JsonNode l = n.path("ackLatencyMicros");
            Map<String, Long> causes = new LinkedHashMap<>();
            n.path("causes").fields().forEachRemaining(e -> causes.put(e.getKey(), e.getValue().asLong()));
            rounds.add(new RoundResult(n.path("clients").asInt(), n.path("ordersPerClient").asInt(),
                    n.path("accepted").asLong(), n.path("rejected").asLong(), n.path("errors").asLong(), causes,
                    n.path("fills").isNull() ? -1 : n.path("fills").asLong(), n.path("wallNanos").asLong(),
                    new LatencySummary(l.path("count").asLong(), l.path("p50").asLong(), l.path("p90").asLong(),
                            l.path("p99").asLong(), l.path("p999").asLong(), l.path("max").asLong(), l.path("mean").asDouble()),
                    n.path("cpu").asText("")));
        }
        return new AckBenchReport(root.path("startedAt").asText(), root.path("protocol").asText(),
                root.path("region").asText(), root.path("ordersPerClient").asInt(), conditions, rounds);
    }

    /** The files written: {@code ack-bench-<protocol>.json} and {@code .md} in {@code dir}. */
    public record Written(Path json, Path markdown) {
    }

    public Written write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve("ack-bench-" + protocol + ".json");
        Path markdown = dir.resolve("ack-bench-" + protocol + ".md");
        Files.writeString(json, json(), StandardCharsets.UTF_8);
        Files.writeString(markdown, markdown(), StandardCharsets.UTF_8);
        return new Written(json, markdown);
    }

    static String millis(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }
}

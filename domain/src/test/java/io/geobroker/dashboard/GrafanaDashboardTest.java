package io.geobroker.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks the Grafana dashboard checked in at {@code docs/grafana/geobroker.json}: that it is a dashboard Grafana can
 * import (title, uid, a Prometheus data source variable, a region variable, panels whose targets have a PromQL
 * expression), and that every metric it queries is one the broker or the ticker service exports.
 *
 * <p>The exported metrics are the {@link #METERS} list below, in Micrometer's names, each with the place in the
 * services' sources that registers it; the test fails when that place no longer does (a meter renamed or removed) and
 * when the dashboard queries a Prometheus name that none of them produces. It lives in {@code domain}, the lightest
 * module with tests, so that every {@code ./mvnw verify} runs it without starting anything.
 */
class GrafanaDashboardTest {

    enum Kind { TIMER, COUNTER, SUMMARY, GAUGE }

    /**
     * One meter a service registers.
     *
     * @param name      Micrometer's name (dots)
     * @param histogram whether it publishes histogram buckets ({@code _bucket} series)
     * @param region    whether its series carry the {@code region} tag
     * @param source    the file (from the repository root) that registers it
     * @param evidence  text that file holds because it registers the meter
     */
    record Meter(String name, Kind kind, boolean histogram, boolean region, String source, String evidence) {

        /** Micrometer's Prometheus names of this meter's series. */
        Set<String> prometheusNames() {
            String base = name.replace('.', '_');
            Set<String> names = new TreeSet<>();
            switch (kind) {
                case COUNTER -> names.add(base + "_total");
                case GAUGE -> names.add(base);
                case TIMER, SUMMARY -> {
                    String b = kind == Kind.TIMER ? base + "_seconds" : base;
                    names.addAll(List.of(b + "_count", b + "_sum", b + "_max"));
                    if (histogram) {
                        names.add(b + "_bucket");
                    }
                }
            }
            return names;
        }
    }

    private static final String BROKER = "broker-service/src/main/java/io/geobroker/broker/";
    private static final String TICKER = "ticker-service/src/main/java/io/geobroker/ticker/";

    /** The broker's meters carry {@code region} as a common tag (application.yml, management.metrics.tags). */
    static final List<Meter> METERS = List.of(
            broker("geobroker.ticker.to.fill", Kind.TIMER, true, "matching/EngineMetrics.java"),
            broker("geobroker.engine.stage", Kind.TIMER, true, "matching/EngineMetrics.java"),
            broker("geobroker.inbox.accept.lag", Kind.TIMER, true, "matching/EngineMetrics.java"),
            broker("geobroker.engine.group.statements", Kind.SUMMARY, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.group.partitions", Kind.SUMMARY, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.group.unreplicated.partitions", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.orders.placed", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.orders.rejected", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.orders.resting", Kind.GAUGE, false, "matching/EngineMetrics.java"),
            broker("geobroker.tickers.replayed", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.oversized.groups", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.split.groups", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.batchlog.bypassed", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.account.rereads", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.projection", Kind.TIMER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.projection.partitions", Kind.SUMMARY, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.projection.statements", Kind.SUMMARY, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.projection.dropped", Kind.COUNTER, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.projection.lag", Kind.GAUGE, false, "matching/EngineMetrics.java"),
            broker("geobroker.engine.resent.batches", Kind.COUNTER, false, "matching/HealResend.java"),
            broker("geobroker.link.cut", Kind.GAUGE, false, "matching/HealResend.java"),
            broker("geobroker.ticker.delivery", Kind.TIMER, true, "ticker/TickerConsumer.java"),
            broker("geobroker.tickers.dead.lettered", Kind.COUNTER, false, "ticker/TickerConsumer.java"),
            broker("geobroker.http.direct.requests", Kind.COUNTER, false, "web/HotPathFilter.java"),
            broker("geobroker.coalesced.items", Kind.SUMMARY, false, "order/Coalescer.java"),
            broker("geobroker.placement.idempotency", Kind.COUNTER, false, "order/KnownOrderIds.java"),
            broker("geobroker.live.price.push", Kind.TIMER, true, "live/LiveFeed.java"),
            // Kafka's own consumer metrics, bound to the registry by the ticker consumer.
            new Meter("kafka.consumer.fetch.manager.records.lag.max", Kind.GAUGE, false, true,
                    BROKER + "ticker/TickerConsumer.java", "new KafkaClientMetrics("),
            // Spring Boot's server request timer, there with the actuator and Spring MVC.
            new Meter("http.server.requests", Kind.TIMER, false, true,
                    "broker-service/pom.xml", "<artifactId>spring-boot-starter-actuator</artifactId>"),
            ticker("geobroker.ticker.published", Kind.COUNTER, false, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.send.failed", Kind.COUNTER, false, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.publish.lateness", Kind.TIMER, true, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.send.latency", Kind.TIMER, true, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.producer.lingering", Kind.GAUGE, false, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.producer.switches", Kind.COUNTER, false, true, "publish/TickerSender.java"),
            ticker("geobroker.ticker.rate.target", Kind.GAUGE, false, false, "config/TickerConfiguration.java"),
            ticker("geobroker.ticker.pacing.missed", Kind.COUNTER, false, false, "config/TickerConfiguration.java"),
            ticker("geobroker.ticker.replay.lines", Kind.COUNTER, false, false, "replay/ReplayFeed.java"),
            ticker("geobroker.ticker.fills", Kind.COUNTER, false, true, "model/FillsConsumer.java"));

    private static Meter broker(String name, Kind kind, boolean histogram, String file) {
        return new Meter(name, kind, histogram, true, BROKER + file, "\"" + name + "\"");
    }

    private static Meter ticker(String name, Kind kind, boolean histogram, boolean region, String file) {
        return new Meter(name, kind, histogram, region, TICKER + file, "\"" + name + "\"");
    }

    private static final Path ROOT = repositoryRoot();
    private static final JsonNode DASHBOARD = read(ROOT.resolve("docs/grafana/geobroker.json"));

    @Test
    void is_a_grafana_dashboard_with_a_prometheus_source_and_a_region_variable() {
        assertThat(DASHBOARD.path("title").asText()).isNotBlank();
        assertThat(DASHBOARD.path("uid").asText()).isNotBlank();
        assertThat(DASHBOARD.path("schemaVersion").isInt()).isTrue();
        assertThat(DASHBOARD.path("panels").isArray()).isTrue();
        Map<String, JsonNode> variables = new LinkedHashMap<>();
        DASHBOARD.path("templating").path("list").forEach(v -> variables.put(v.path("name").asText(), v));
        assertThat(variables.get("datasource")).isNotNull();
        assertThat(variables.get("datasource").path("type").asText()).isEqualTo("datasource");
        assertThat(variables.get("datasource").path("query").asText()).isEqualTo("prometheus");
        JsonNode region = variables.get("region");
        assertThat(region).isNotNull();
        assertThat(region.path("multi").asBoolean()).isTrue();
        assertThat(region.path("includeAll").asBoolean()).isTrue();
    }

    @Test
    void every_panel_has_a_title_a_place_and_prometheus_targets_with_an_expression() {
        List<JsonNode> panels = panels();
        assertThat(panels).extracting(p -> p.path("type").asText()).contains("row", "timeseries");
        Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : panels) {
            String title = panel.path("title").asText();
            assertThat(title).as("a panel's title").isNotBlank();
            assertThat(ids.add(panel.path("id").asInt(-1))).as("unique id of panel %s", title).isTrue();
            JsonNode grid = panel.path("gridPos");
            assertThat(List.of("x", "y", "w", "h")).allSatisfy(k -> assertThat(grid.path(k).isInt())
                    .as("gridPos.%s of panel %s", k, title).isTrue());
            assertThat(grid.path("x").asInt() + grid.path("w").asInt()).as("width of panel %s", title).isLessThanOrEqualTo(24);
            if (panel.path("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.path("datasource").path("uid").asText()).as("data source of panel %s", title)
                    .isEqualTo("${datasource}");
            assertThat(panel.path("targets").size()).as("targets of panel %s", title).isPositive();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asText()).as("a target's expr in panel %s", title).isNotBlank();
                assertThat(target.path("refId").asText()).as("a target's refId in panel %s", title).isNotBlank();
            }
        }
    }

    @Test
    void the_region_rows_repeat_per_region_and_their_queries_select_that_region() {
        JsonNode repeated = null;
        for (JsonNode panel : panels()) {
            if (panel.path("type").asText().equals("row")) {
                repeated = panel.path("repeat").asText().equals("region") ? panel : null;
                continue;
            }
            if (repeated != null) {
                for (String expr : expressions(panel)) {
                    assertThat(expr).as("a query of panel %s", panel.path("title").asText())
                            .contains("region=\"$region\"");
                }
            }
        }
        assertThat(panels()).anySatisfy(p -> assertThat(p.path("repeat").asText()).isEqualTo("region"));
    }

    @Test
    void every_metric_it_queries_is_one_the_services_export() {
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : panels()) {
            for (String expr : expressions(panel)) {
                queried.addAll(metricNames(expr));
            }
        }
        DASHBOARD.path("templating").path("list").forEach(v -> {
            Matcher m = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)").matcher(v.path("definition").asText());
            while (m.find()) {
                queried.add(m.group(1));
            }
        });
        assertThat(queried).as("metrics the dashboard queries").isNotEmpty();
        assertThat(unknown(queried)).as("metrics no service exports").isEmpty();
    }

    @Test
    void every_meter_the_test_knows_is_registered_where_it_says() {
        for (Meter meter : METERS) {
            Path file = ROOT.resolve(meter.source());
            assertThat(file).as("source of %s", meter.name()).isRegularFile();
            String text = readString(file);
            assertThat(text).as("%s registers %s", meter.source(), meter.name()).contains(meter.evidence());
            if (meter.histogram() && meter.name().startsWith("geobroker.")) {
                assertThat(text).as("%s publishes %s's histogram", meter.source(), meter.name())
                        .contains("publishPercentileHistogram()");
            }
        }
        assertThat(readString(ROOT.resolve("broker-service/src/main/resources/application.yml")))
                .as("the broker's common region tag").contains("region: ${geobroker.region}");
    }

    @Test
    void every_geobroker_meter_in_the_services_sources_is_known_to_the_test() {
        Pattern literal = Pattern.compile("\"(geobroker\\.[a-z.]+)\"");
        Set<String> known = METERS.stream().map(Meter::name).collect(Collectors.toSet());
        Set<String> registered = new TreeSet<>();
        for (String dir : List.of(BROKER, TICKER)) {
            for (Path file : javaFiles(ROOT.resolve(dir))) {
                String text = readString(file);
                if (!text.contains("Counter") && !text.contains("Timer") && !text.contains("Gauge")
                        && !text.contains("DistributionSummary") && !text.contains("meters.counter(")) {
                    continue;
                }
                Matcher m = literal.matcher(text);
                while (m.find()) {
                    String name = m.group(1);
                    int before = Math.max(0, m.start() - 80);
                    String context = text.substring(before, m.start());
                    if (context.matches("(?s).*(builder|counter|timer|gauge|summary)\\(\\s*$")) {
                        registered.add(name);
                    }
                }
            }
        }
        assertThat(registered).as("meters registered in the services").isNotEmpty();
        assertThat(known).as("meters the test knows").containsAll(registered);
    }

    @Test
    void an_expression_naming_a_metric_no_service_exports_is_reported() {
        String expr = "histogram_quantile(0.99, sum by (le, stage) (rate(geobroker_engine_stage_seconds_bucket"
                + "{region=\"$region\", stage=~\"persist|match\"}[$__rate_interval]))) / ignoring(stage) "
                + "sum without (le) (rate(geobroker_engine_stages_seconds_count{region=\"$region\"}[5m] offset 1m)) "
                + "> bool 0.5 and on (region) geobroker_orders_resting";
        assertThat(metricNames(expr)).containsExactly("geobroker_engine_stage_seconds_bucket",
                "geobroker_engine_stages_seconds_count", "geobroker_orders_resting");
        assertThat(unknown(metricNames(expr))).containsExactly("geobroker_engine_stages_seconds_count");
        assertThat(unknown(Set.of("geobroker_engine_group_statements_bucket", "geobroker_orders_placed")))
                .as("a summary without histogram, a counter without _total")
                .containsExactly("geobroker_engine_group_statements_bucket", "geobroker_orders_placed");
    }

    // ---- helpers

    private static Set<String> unknown(Set<String> names) {
        Set<String> exported = METERS.stream().flatMap(m -> m.prometheusNames().stream()).collect(Collectors.toSet());
        return names.stream().filter(n -> !exported.contains(n)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "count", "stddev", "stdvar",
            "topk", "bottomk", "quantile", "count_values", "group");
    private static final Set<String> LABEL_LISTS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "atan2", "inf", "nan");

    /** The metric names a PromQL expression selects: identifiers that are not functions, keywords or label lists. */
    static Set<String> metricNames(String expr) {
        Set<String> names = new TreeSet<>();
        int n = expr.length();
        int i = 0;
        while (i < n) {
            char c = expr.charAt(i);
            if (c == '"' || c == '\'' || c == '`') {
                int end = i + 1;
                while (end < n && expr.charAt(end) != c) {
                    end += expr.charAt(end) == '\\' ? 2 : 1;
                }
                i = end + 1;
            } else if (c == '{') {
                i = closing(expr, i, '}');
            } else if (c == '[') {
                i = closing(expr, i, ']');
            } else if (c == '$') {
                i++;
                if (i < n && expr.charAt(i) == '{') {
                    i = closing(expr, i, '}');
                } else {
                    while (i < n && identifierPart(expr.charAt(i))) {
                        i++;
                    }
                }
            } else if (Character.isDigit(c) || c == '.') {
                while (i < n && (Character.isLetterOrDigit(expr.charAt(i)) || expr.charAt(i) == '.')) {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n && identifierPart(expr.charAt(i))) {
                    i++;
                }
                String word = expr.substring(start, i);
                int next = i;
                while (next < n && Character.isWhitespace(expr.charAt(next))) {
                    next++;
                }
                boolean call = next < n && expr.charAt(next) == '(';
                if (LABEL_LISTS.contains(word)) {
                    if (call) {
                        i = closing(expr, next, ')');
                    }
                } else if (!call && !AGGREGATIONS.contains(word) && !KEYWORDS.contains(word)) {
                    names.add(word);
                }
            } else {
                i++;
            }
        }
        return names;
    }

    private static int closing(String expr, int open, char close) {
        int end = expr.indexOf(close, open);
        assertThat(end).as("'%s' closed in %s", close, expr).isPositive();
        return end + 1;
    }

    private static boolean identifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':';
    }

    private static List<JsonNode> panels() {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode panel : DASHBOARD.path("panels")) {
            all.add(panel);
            panel.path("panels").forEach(all::add);   // panels of a collapsed row
        }
        return all;
    }

    private static List<String> expressions(JsonNode panel) {
        List<String> exprs = new ArrayList<>();
        panel.path("targets").forEach(t -> exprs.add(t.path("expr").asText()));
        return exprs;
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("docs")))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root above %s", Path.of("").toAbsolutePath()).isNotNull();
        return dir;
    }

    private static JsonNode read(Path file) {
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the dashboard " + file, e);
        }
    }

    private static String readString(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> javaFiles(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

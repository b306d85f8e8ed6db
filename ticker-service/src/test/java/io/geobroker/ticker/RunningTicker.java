package io.geobroker.ticker;

import io.geobroker.testsupport.StackContext;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A ticker service running in the test JVM against the local stack, configured like a deployment
 * (the stack's topology, as command-line arguments) with the test class's topic prefix.
 */
final class RunningTicker implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final HttpClient http = HttpClient.newHttpClient();

    private RunningTicker(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** Starts the service; {@code settings} are {@code geobroker.ticker.*} names without the prefix. */
    static RunningTicker start(StackContext stack, String topicPrefix, Map<String, String> settings) {
        return start(stack, topicPrefix, settings, Map.of());
    }

    /** As {@link #start(StackContext, String, Map)}, then {@code overrides} (full property names) on top. */
    static RunningTicker start(StackContext stack, String topicPrefix, Map<String, String> settings,
                               Map<String, String> overrides) {
        Map<String, String> all = new LinkedHashMap<>();
        stack.topology().toProperties().forEach((k, v) -> all.put((String) k, (String) v));
        all.put("GEOBROKER_TOPOLOGY", "does-not-exist.properties");
        // The test class path has the Cassandra driver (from test-support); the service itself has none.
        all.put("spring.autoconfigure.exclude", "org.springframework.boot.autoconfigure.cassandra.CassandraAutoConfiguration,"
                + "org.springframework.boot.actuate.autoconfigure.cassandra.CassandraHealthContributorAutoConfiguration");
        all.put("server.address", "127.0.0.1");
        all.put("server.port", "0");
        all.put("geobroker.ticker.topic-prefix", topicPrefix);
        all.put("geobroker.ticker.producer.linger-ms", "1");
        settings.forEach((k, v) -> all.put("geobroker.ticker." + k, v));
        all.putAll(overrides);
        List<String> args = new ArrayList<>();
        all.forEach((k, v) -> args.add("--" + k + "=" + v));
        return new RunningTicker(new SpringApplicationBuilder(TickerApplication.class).run(args.toArray(String[]::new)));
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> put(String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        return URI.create("http://127.0.0.1:" + port + path);
    }

    @Override
    public void close() {
        context.close();
    }
}

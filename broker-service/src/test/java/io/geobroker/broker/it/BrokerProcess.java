package io.geobroker.broker.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;

/**
 * The broker's boot jar running as its own JVM (512 MB heap), so a test can SIGKILL it and start it
 * again exactly as an operator's process manager would.
 */
final class BrokerProcess implements AutoCloseable {

    private final List<String> command = new ArrayList<>();
    private final UnaryOperator<ProcessBuilder> wrap;
    private final Path log;
    private final String healthUrl;
    final String adminToken = "admin-" + UUID.randomUUID();
    final BrokerApi api;
    private Process process;

    BrokerProcess(TestStack stack, String region, String address, Path log) {
        this(stack, region, address, log, Map.of());
    }

    /** A broker JVM with {@code extra} broker properties on top of the stack's. */
    BrokerProcess(TestStack stack, String region, String address, Path log, Map<String, Object> extra) {
        this(stack, region, address, 0, log, extra, UnaryOperator.identity());
    }

    /**
     * A broker on {@code address:port} (a free port when 0) with extra properties; {@code wrap} may
     * put the process in its region's network namespace ({@code LocalStack.inRegion}).
     */
    BrokerProcess(TestStack stack, String region, String address, int port, Path log, Map<String, Object> extra,
                  UnaryOperator<ProcessBuilder> wrap) {
        this.wrap = wrap;
        String jar = System.getProperty("broker.bootJar");
        if (jar == null || !Files.exists(Path.of(jar))) {
            throw new IllegalStateException("the boot jar is missing (" + jar + "): run through 'mvn verify'");
        }
        if (port == 0) {
            port = freePort(address);
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:TieredStopAtLevel=1", "-Dspring.aot.enabled=true", "-jar", jar));
        Map<String, Object> properties = stack.brokerProperties(region, adminToken);
        properties.put("server.port", port);
        properties.put("server.address", address);
        properties.putAll(extra);
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        this.log = log;
        this.healthUrl = "http://" + address + ":" + port + "/actuator/health";
        this.api = new BrokerApi("http://" + address + ":" + port, adminToken);
    }

    /** Starts the JVM and waits until it reports healthy. */
    void start() {
        launch();
        awaitHealthy();
    }

    /** Starts the JVM without waiting (several brokers start side by side). */
    void launch() {
        try {
            Files.createDirectories(log.getParent());
            process = wrap.apply(new ProcessBuilder(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the launched broker reports healthy. */
    void awaitHealthy() {
        HttpClient http = HttpClient.newHttpClient();
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofMillis(500)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the broker exited with " + process.exitValue() + "; see " + log);
            }
            try {
                return http.send(HttpRequest.newBuilder(URI.create(healthUrl)).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            }
        });
    }

    /** SIGKILL: no shutdown hook, no last group, no offset commit. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    private static int freePort(String address) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package io.geobroker.broker.it;

import io.geobroker.broker.BrokerApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.util.Map;
import java.util.UUID;

/** A broker running in the test JVM against the real stack, with a clock the test can move. */
final class InProcessBroker implements AutoCloseable {

    static final MovableClock CLOCK = new MovableClock();

    /** Replaces the business clock with the test's movable one. */
    @Configuration(proxyBeanMethods = false)
    static class TestClock {
        @Bean
        @Primary
        Clock movableClock() {
            return CLOCK;
        }
    }

    private final ConfigurableApplicationContext context;
    final String adminToken = "admin-" + UUID.randomUUID();
    final BrokerApi api;

    InProcessBroker(TestStack stack, String region, String bindAddress, Map<String, Object> extra) {
        Map<String, Object> properties = stack.brokerProperties(region, adminToken);
        properties.put("server.port", "0");
        properties.put("server.address", bindAddress);
        properties.putAll(extra);
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        context = new SpringApplicationBuilder(BrokerApplication.class, TestClock.class).run(args);
        String port = context.getEnvironment().getProperty("local.server.port");
        api = new BrokerApi("http://" + bindAddress + ":" + port, adminToken);
    }

    <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    @Override
    public void close() {
        context.close();
    }
}

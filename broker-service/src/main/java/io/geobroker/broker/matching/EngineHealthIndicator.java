package io.geobroker.broker.matching;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/** DOWN until the engine has rebuilt its state, and for good if its thread died (the broker must restart). */
@Component
public class EngineHealthIndicator implements HealthIndicator {

    private final Engine engine;

    public EngineHealthIndicator(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        return engine.isHealthy() ? Health.up().build() : Health.down().withDetail("engine", "not running").build();
    }
}

package io.geobroker.broker.fix;

import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * The {@code fix} component of {@code /actuator/health}: DOWN while the FIX acceptor starts (on its own
 * thread, off the way to readiness) and if it could not start. Not part of readiness, which is REST's.
 */
@Component
public class FixHealthIndicator implements HealthIndicator {

    private final FixAcceptor acceptor;

    public FixHealthIndicator(FixAcceptor acceptor) {
        this.acceptor = acceptor;
    }

    @Override
    public Health health() {
        return acceptor.health();
    }
}

package io.geobroker.broker.it;

import io.geobroker.broker.fix.FixAcceptor;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.health.Status;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A broker whose FIX acceptor cannot start (its port is taken) still starts and serves REST: the
 * acceptor starts on its own thread, and its failure shows as the {@code fix} component of the
 * broker's health, not as a broker that never comes up.
 */
@WithLocalStack
class FixStartIT {

    private static final int PORT = 9878;

    @Test
    void a_taken_fix_port_leaves_rest_served_and_the_fix_health_down(StackContext context, @TempDir Path store)
            throws Exception {
        TestStack stack = TestStack.of(context);
        String address = stack.testAddress(44);
        Map<String, Object> fix = new HashMap<>();
        fix.put("geobroker.fix.enabled", "true");
        fix.put("geobroker.fix.port", PORT);
        fix.put("geobroker.fix.store-directory", store.toString());
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(true);
            taken.bind(new InetSocketAddress(InetAddress.getByName(address), PORT));
            try (InProcessBroker broker = new InProcessBroker(stack, "nvirginia", address, fix)) {
                // Ready once the engine has rebuilt its state, which goes on after the context has started.
                await("the broker ready").atMost(Duration.ofSeconds(60))
                        .until(() -> broker.api.get(null, "/actuator/health/readiness").status() == 200);
                String token = broker.api.customer("fixstart" + UUID.randomUUID().toString().substring(0, 8), 1_000_000);
                assertThat(broker.api.get(token, "/api/v1/account/balances").status()).isEqualTo(200);

                FixAcceptor acceptor = broker.bean(FixAcceptor.class);
                await("the FIX acceptor's start to fail").atMost(Duration.ofSeconds(60))
                        .until(() -> "not started".equals(acceptor.health().getDetails().get("state")));
                assertThat(acceptor.health().getStatus()).isEqualTo(Status.DOWN);
                assertThat(String.valueOf(acceptor.health().getDetails().get("error"))).contains(":" + PORT);
                assertThat(broker.api.get(null, "/actuator/health").status()).isEqualTo(503);
                assertThat(broker.api.get(null, "/actuator/health/readiness").status()).isEqualTo(200);
            }
        }
    }
}

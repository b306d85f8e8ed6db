package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The short version of {@code demo --scenario chaos}: the local system started and stopped by the
 * demo itself (its own stack on {@code <shared prefix + 10>}, e.g. {@code 127.10}), a twentieth of
 * the default load, and one round of the faults this stack allows in N. Virginia — its Kafka broker
 * SIGKILLed for 2 s, then its broker SIGKILLed and started again — then the invariants table, every
 * row of which must hold.
 *
 * <p>Left out, each for a reason:
 * <ul>
 *   <li>the Cassandra node loss: this stack has one node per DC, and a SIGKILLed node loses the writes
 *       of up to its last 10 s that it had acknowledged (the stack syncs the commit log every 10 s),
 *       the other region's replicated writes included, which nothing repairs at one replica per DC.
 *       One run of this test with the node loss in it ended with an order FILLED in Sydney and absent
 *       in N. Virginia. Issue 30's node loss is one of three nodes per DC, too heavy for CI; the demo
 *       runs it ({@code --faults cassandra}) and its report shows what happens.</li>
 *   <li>the WAN cut: like the other load generator ITs this stack runs without the emulated WAN,
 *       which needs root and network namespaces (a developer's build may have neither); the cut under
 *       a broker is {@code CrossRegionIT}'s, and the demo's run covers it.</li>
 * </ul>
 */
class ChaosIT {

    @TempDir
    static Path dir;

    @Test
    void a_kafka_and_a_broker_killed_under_load_keep_every_invariant() throws Exception {
        Path out = dir.resolve("report");
        long t0 = System.nanoTime();
        int code = Loadgen.execute("demo", "--scenario", "chaos", "--prefix", StackPrefix.offset(10), "--work-dir",
                dir.resolve("stack").toString(), "--wan", "off", "--broker-heap-mb", "384", "--ticker-heap-mb", "192",
                "--scale", "0.05", "--warmup", "5s", "--ramp", "0s", "--duration", "5s",
                "--faults", "kafka,broker", "--fault-regions", "nvirginia", "--kafka-down", "2s", "--broker-kills", "1",
                "--fault-gap", "3s", "--no-progress", "--out", out.toString());
        System.out.printf("ChaosIT: the demo's chaos scenario took %.1f s%n", (System.nanoTime() - t0) / 1e9);

        JsonNode chaos = new ObjectMapper().readTree(out.resolve("report.json").toFile()).path("chaos");
        List<String> faults = new ArrayList<>();
        for (JsonNode fault : chaos.path("faults")) {
            faults.add(fault.path("fault").asText() + " " + fault.path("region").asText());
            assertThat(fault.path("servedAgainMillis").asLong()).as("served again: %s", fault).isGreaterThanOrEqualTo(0);
        }
        assertThat(faults).containsExactly("kafka nvirginia", "broker nvirginia");
        List<String> invariants = new ArrayList<>();
        for (JsonNode row : chaos.path("invariants")) {
            invariants.add(row.path("name").asText());
            assertThat(row.path("holds").asBoolean()).as("%s", row).isTrue();
        }
        assertThat(invariants).containsExactly("orders placed vs answered", "no fill duplicated", "no fill missing",
                "books balanced", "order status equal in every region");
        assertThat(chaos.path("notes").size()).as("%s", chaos.path("notes")).isZero();
        assertThat(out.resolve("chaos.md")).content().contains("| books balanced | yes |");
        assertThat(code).as("exit code: every invariant held").isZero();
    }
}

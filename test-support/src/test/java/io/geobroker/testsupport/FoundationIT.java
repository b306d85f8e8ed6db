package io.geobroker.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** The local stack is a real two-region deployment: multi-DC Cassandra, Kafka per region, the WAN between. */
@WithLocalStack
class FoundationIT {

    private static final String SYDNEY = "sydney";
    private static final String NVIRGINIA = "nvirginia";
    /** Two crossings of the emulated WAN take at least 2 x 115 ms; 200 ms leaves room for rounding. */
    private static final Duration WAN_ROUND_TRIP_FLOOR = Duration.ofMillis(200);

    @Test
    void a_row_written_at_local_quorum_in_sydney_is_read_at_local_one_in_nvirginia(StackContext stack) {
        String symbol = "T" + UUID.randomUUID().toString().substring(0, 8);
        stack.session(SYDNEY).execute(SimpleStatement.newInstance(
                        "INSERT INTO symbol_state (symbol, quote_price, quote_volume, quote_sequence) VALUES (?, 12345, 10, 1)", symbol)
                .setConsistencyLevel(ConsistencyLevel.LOCAL_QUORUM));

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Row row = stack.session(NVIRGINIA).execute(SimpleStatement.newInstance(
                            "SELECT quote_price FROM symbol_state WHERE symbol = ?", symbol)
                    .setConsistencyLevel(ConsistencyLevel.LOCAL_ONE)).one();
            assertThat(row).isNotNull();
            assertThat(row.getLong("quote_price")).isEqualTo(12345L);
        });
    }

    @Test
    void cluster_metadata_shows_both_data_centres(StackContext stack) {
        List<String> dataCentres = stack.session(SYDNEY).getMetadata().getNodes().values().stream()
                .map(Node::getDatacenter).distinct().sorted().toList();

        assertThat(dataCentres).containsExactly("NorthVirginiaDC", "SydneyDC");
        assertThat(stack.session(SYDNEY).getMetadata().getKeyspace(stack.keyspace()).orElseThrow().getReplication())
                .containsEntry("SydneyDC", "1").containsEntry("NorthVirginiaDC", "1");
    }

    @Test
    void each_quorum_pays_the_wan_round_trip_while_local_quorum_does_not(StackContext stack) {
        assumeThat(stack.stack().wanStatus()).as("needs the emulated WAN").startsWith("WAN on");
        CqlSession sydney = stack.session(SYDNEY);
        List<Duration> eachQuorum = new ArrayList<>();
        List<Duration> localQuorum = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            eachQuorum.add(timedWrite(sydney, ConsistencyLevel.EACH_QUORUM));
            localQuorum.add(timedWrite(sydney, ConsistencyLevel.LOCAL_QUORUM));
        }

        assertThat(Collections.min(eachQuorum)).isGreaterThanOrEqualTo(WAN_ROUND_TRIP_FLOOR);
        assertThat(Collections.min(localQuorum)).isLessThan(WAN_ROUND_TRIP_FLOOR);
    }

    @Test
    void with_the_link_cut_the_remote_dc_is_down_and_local_writes_still_succeed(StackContext stack) {
        assumeThat(stack.stack().wanStatus()).as("needs the emulated WAN").startsWith("WAN on");
        CqlSession sydney = stack.session(SYDNEY);
        stack.stack().cutLink(SYDNEY, NVIRGINIA);
        try {
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                    assertThatThrownBy(() -> write(sydney, ConsistencyLevel.EACH_QUORUM))
                            .as("the Sydney coordinator reports N. Virginia's replica down")
                            .satisfies(e -> assertThat(unavailable(e)).as(e.toString()).isTrue()));

            write(sydney, ConsistencyLevel.LOCAL_QUORUM);
        } finally {
            stack.stack().restoreLink(SYDNEY, NVIRGINIA);
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .untilAsserted(() -> write(sydney, ConsistencyLevel.EACH_QUORUM));
    }

    @Test
    void each_region_has_its_own_kafka_broker(StackContext stack) {
        String topic = stack.topics().fills();
        for (String region : List.of(SYDNEY, NVIRGINIA)) {
            String bootstrap = stack.kafkaBootstrap(region);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig(bootstrap))) {
                producer.send(new ProducerRecord<>(topic, "key", "hello from " + region)).get();
            } catch (Exception e) {
                throw new AssertionError("cannot produce to " + bootstrap, e);
            }
        }
        for (String region : List.of(SYDNEY, NVIRGINIA)) {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig(stack.kafkaBootstrap(region)))) {
                consumer.subscribe(List.of(topic));
                List<String> values = new ArrayList<>();
                await().atMost(Duration.ofSeconds(30)).until(() -> {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        values.add(r.value());
                    }
                    return !values.isEmpty();
                });
                assertThat(values).containsExactly("hello from " + region);
            }
        }
    }

    /** Cassandra's "not enough replicas alive", possibly wrapped by the driver after trying every node. */
    private static boolean unavailable(Throwable e) {
        if (e instanceof UnavailableException) {
            return true;
        }
        return e instanceof AllNodesFailedException all && all.getAllErrors().values().stream()
                .flatMap(List::stream).anyMatch(UnavailableException.class::isInstance);
    }

    private static Duration timedWrite(CqlSession session, ConsistencyLevel level) {
        long t0 = System.nanoTime();
        write(session, level);
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    private static void write(CqlSession session, ConsistencyLevel level) {
        session.execute(SimpleStatement.newInstance(
                        "INSERT INTO symbol_state (symbol, quote_price, quote_updated_at) VALUES (?, 1, ?)",
                        "W" + UUID.randomUUID().toString().substring(0, 8), Instant.now())
                .setConsistencyLevel(level));
    }

    private static Properties producerConfig(String bootstrap) {
        Properties p = new Properties();
        p.setProperty(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.setProperty(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    private static Properties consumerConfig(String bootstrap) {
        Properties p = new Properties();
        p.setProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.setProperty(ConsumerConfig.GROUP_ID_CONFIG, "foundation-it-" + UUID.randomUUID());
        p.setProperty(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.setProperty(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.setProperty(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return p;
    }
}

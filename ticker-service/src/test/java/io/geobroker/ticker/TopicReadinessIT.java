package io.geobroker.ticker;

import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import io.geobroker.kafka.TopicReadiness;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link TopicReadiness} against the real Kafka brokers of the local stack's regions. */
@WithLocalStack
class TopicReadinessIT {

    @Test
    void missing_topics_are_created_in_their_own_region_only(StackContext stack) throws Exception {
        String prefix = stack.topics().prefix() + "missing.";
        TopicReadiness readiness = new TopicReadiness("test-topics", List.of(
                new TopicReadiness.Target("sydney", stack.kafkaBootstrap("sydney"), prefix + "tickers.ASX"),
                new TopicReadiness.Target("nvirginia", stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NYSE"),
                new TopicReadiness.Target("nvirginia", stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NASDAQ")));

        assertThat(readiness.await(() -> false)).isTrue();

        TickerTopics.assertEachOnlyInItsHomeRegion(stack, prefix);
    }

    @Test
    void an_existing_topic_is_left_as_it_is(StackContext stack) throws Exception {
        String topic = stack.topics().prefix() + "existing.tickers.NYSE";
        try (Admin nvirginia = admin(stack, "nvirginia")) {
            nvirginia.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();

            assertThat(new TopicReadiness("test-topics", List.of(new TopicReadiness.Target("nvirginia", stack.kafkaBootstrap("nvirginia"), topic)))
                    .await(() -> false)).isTrue();

            assertThat(nvirginia.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()).hasSize(3);
        }
    }

    @Test
    void an_unreachable_kafka_is_retried_until_publishing_stops() {
        // Nothing listens on port 1: every attempt fails (connection refused) until the admin call times out.
        TopicReadiness readiness = new TopicReadiness("test-topics", List.of(new TopicReadiness.Target("nowhere", "127.0.0.1:1", "tickers.NYSE")));
        AtomicInteger asked = new AtomicInteger();

        boolean ready = readiness.await(() -> asked.incrementAndGet() > 2);

        assertThat(ready).isFalse();
        assertThat(asked.get()).as("times it checked for a stop: once per attempt, and the stop").isEqualTo(3);
    }

    private static Admin admin(StackContext stack, String region) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(region)));
    }
}

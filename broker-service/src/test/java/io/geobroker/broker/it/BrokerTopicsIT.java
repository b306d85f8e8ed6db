package io.geobroker.broker.it;

import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.domain.Topics;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A broker whose fills, order events and dead-letter topics do not exist yet creates them, in its own region's
 * Kafka, from its start and before it sends anything to them, so that an idempotent producer's first
 * send never goes to a partition its leader has not applied yet (see {@link io.geobroker.kafka.TopicReadiness}).
 */
@WithLocalStack
class BrokerTopicsIT {

    @Test
    void missing_fills_order_events_and_dead_letter_topics_are_created_in_the_brokers_region_before_any_record(StackContext context)
            throws Exception {
        TestStack stack = TestStack.of(context);
        String prefix = context.topics().prefix() + "fresh.";
        Topics topics = new Topics(prefix);
        List<String> created = List.of(topics.fills(), topics.orderEvents(), topics.tickersDeadLetter());
        try (Admin nvirginia = admin(stack, "nvirginia"); Admin sydney = admin(stack, "sydney")) {
            assertThat(nvirginia.listTopics().names().get()).doesNotContainAnyElementsOf(created);

            try (InProcessBroker broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(25),
                    Map.of("geobroker.kafka.topic-prefix", prefix))) {
                FillPublisher publisher = broker.bean(FillPublisher.class);
                await().atMost(Duration.ofSeconds(60)).until(publisher::topicChecked);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> nvirginia.listTopics().names().get().containsAll(created));

                for (String name : created) {
                    TopicDescription topic = nvirginia.describeTopics(List.of(name)).allTopicNames().get().get(name);
                    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                    topic.partitions().forEach(p -> latest.put(new TopicPartition(name, p.partition()), OffsetSpec.latest()));
                    assertThat(nvirginia.listOffsets(latest).all().get().values())
                            .as(name + ": nothing was sent to it, every partition answers").isNotEmpty()
                            .allSatisfy(offset -> assertThat(offset.offset()).isZero());
                }
                assertThat(sydney.listTopics().names().get()).doesNotContainAnyElementsOf(created);
            }
        }
    }

    private static Admin admin(TestStack stack, String region) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(region)));
    }
}

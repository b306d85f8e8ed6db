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
 * A broker whose fills topic does not exist yet creates it, in its own region's Kafka, before it
 * sends the first fill, so that the idempotent producer's first send never goes to a partition its
 * leader has not applied yet (see {@link io.geobroker.kafka.TopicReadiness}).
 */
@WithLocalStack
class FillsTopicIT {

    @Test
    void a_missing_fills_topic_is_created_in_the_brokers_region_before_any_fill(StackContext context) throws Exception {
        TestStack stack = TestStack.of(context);
        String prefix = context.topics().prefix() + "fresh.";
        String fills = new Topics(prefix).fills();
        try (Admin nvirginia = admin(stack, "nvirginia"); Admin sydney = admin(stack, "sydney")) {
            assertThat(nvirginia.listTopics().names().get()).doesNotContain(fills);

            try (InProcessBroker broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(25),
                    Map.of("geobroker.kafka.topic-prefix", prefix))) {
                FillPublisher publisher = broker.bean(FillPublisher.class);
                await().atMost(Duration.ofSeconds(60)).until(publisher::topicChecked);

                TopicDescription topic = nvirginia.describeTopics(List.of(fills)).allTopicNames().get().get(fills);
                Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
                topic.partitions().forEach(p -> latest.put(new TopicPartition(fills, p.partition()), OffsetSpec.latest()));
                assertThat(nvirginia.listOffsets(latest).all().get().values())
                        .as("no fill was sent: the topic was made writable first").isNotEmpty()
                        .allSatisfy(offset -> assertThat(offset.offset()).isZero());
                assertThat(sydney.listTopics().names().get()).doesNotContain(fills);
            }
        }
    }

    private static Admin admin(TestStack stack, String region) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap(region)));
    }
}

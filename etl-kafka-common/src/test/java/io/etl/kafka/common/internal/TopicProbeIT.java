package io.etl.kafka.common.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;

/** What the brokers say about topics: existence, partitions and leaders, and the effective message size limit. */
@EmbeddedKafka(shared = true)
class TopicProbeIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private static Admin admin(KafkaTestCluster kafka) {
        return Admin.create(AdminSettings.properties(
                Map.of("bootstrap.servers", kafka.bootstrapServers()), TIMEOUT, "etl-topic-probe-it"));
    }

    @Test
    void anExistingTopicIsDescribedWithItsPartitionsAndLeadersAndAMissingOneIsSaidToBeMissing(KafkaTestCluster kafka)
            throws Exception {
        String present = "present-" + UUID.randomUUID();
        String absent = "absent-" + UUID.randomUUID();
        kafka.createTopic(present, 3);

        Map<String, TopicProbe.Topic> topics;
        try (Admin admin = admin(kafka)) {
            topics = TopicProbe.of(admin, TIMEOUT).describe(List.of(present, absent, present), false);
        }

        assertThat(topics).containsOnlyKeys(present, absent);
        TopicProbe.Topic found = topics.get(present);
        assertThat(found.exists()).isTrue();
        assertThat(found.missing()).isFalse();
        assertThat(found.partitions()).isEqualTo(3);
        assertThat(found.leadersElected()).isTrue();
        TopicProbe.Topic gone = topics.get(absent);
        assertThat(gone.exists()).isFalse();
        assertThat(gone.missing()).isTrue();
        assertThat(gone.timedOut()).isFalse();
        assertThat(gone.failure()).isInstanceOf(UnknownTopicOrPartitionException.class);
        assertThat(gone.partitions()).isZero();
        assertThat(gone.leadersElected()).isFalse();
    }

    @Test
    void theMessageSizeLimitComesFromTheTopicWhenSetThereElseFromTheBroker(KafkaTestCluster kafka) throws Exception {
        String own = "own-limit-" + UUID.randomUUID();
        String inherited = "inherited-limit-" + UUID.randomUUID();
        kafka.createTopic(own, 1, -1, Map.of("max.message.bytes", "123456"));
        kafka.createTopic(inherited, 1);

        Map<String, TopicProbe.MessageLimit> limits;
        try (Admin admin = admin(kafka)) {
            limits = TopicProbe.of(admin, TIMEOUT).maxMessageBytes(List.of(own, inherited));
        }

        assertThat(limits.get(own).bytes()).hasValue(123456);
        assertThat(limits.get(own).source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
        assertThat(limits.get(own).failure()).isNull();
        assertThat(limits.get(inherited).bytes()).isPresent();
        assertThat(limits.get(inherited).bytes().getAsLong()).isPositive().isNotEqualTo(123456);
        assertThat(limits.get(inherited).source()).isNotEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
    }

    @Test
    void brokersThatNeverAnswerLeaveATopicUndescribedButNeverMissing() throws Exception {
        // nothing listens on port 1: the brokers can never answer
        Properties unreachable = AdminSettings.properties(
                Map.of("bootstrap.servers", "127.0.0.1:1"), Duration.ofMillis(300), "etl-topic-probe-it");
        TopicProbe.Topic topic;
        try (Admin admin = Admin.create(unreachable)) {
            topic = TopicProbe.of(admin, Duration.ofMillis(300)).describe("orders");
        }

        assertThat(topic.exists()).isFalse();
        assertThat(topic.missing()).isFalse();
        assertThat(topic.failure()).isNotNull();
    }
}

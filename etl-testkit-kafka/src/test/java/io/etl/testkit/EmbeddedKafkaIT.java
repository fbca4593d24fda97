package io.etl.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

@EmbeddedKafka(brokerProperties = {"auto.create.topics.enable=false", "message.max.bytes=2000000"})
class EmbeddedKafkaIT {

    static KafkaTestCluster staticField;
    KafkaTestCluster instanceField;

    @Test
    void injectsTheSameClusterIntoFieldsAndParameters(KafkaTestCluster kafka) {
        assertThat(staticField).isSameAs(kafka);
        assertThat(instanceField).isSameAs(kafka);
        assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
        assertThat(kafka.clientProperties()).containsEntry("bootstrap.servers", kafka.bootstrapServers());
        assertThat(kafka.security()).isEmpty();
    }

    @Test
    void readsBackProducedKeysValuesAndHeadersInOffsetOrder(KafkaTestCluster kafka) {
        kafka.createTopic("roundtrip", 1);
        kafka.produce(
                "roundtrip",
                List.of(
                        TestRecord.of("k1", "v1").withHeader("trace", "t1"),
                        TestRecord.of(null, "no-key"),
                        TestRecord.of("k3", null)));

        List<TestRecord> records = kafka.readAll("roundtrip");

        assertThat(records).extracting(TestRecord::keyAsString).containsExactly("k1", null, "k3");
        assertThat(records).extracting(TestRecord::valueAsString).containsExactly("v1", "no-key", null);
        assertThat(records).extracting(TestRecord::offset).containsExactly(0L, 1L, 2L);
        assertThat(records.get(0).headerAsString("trace")).isEqualTo("t1");
        assertThat(records.get(0).topic()).isEqualTo("roundtrip");
    }

    @Test
    void createsTopicsWithoutTheAdminClientLoggingAnError(KafkaTestCluster kafka) throws Exception {
        String logged = StandardError.during(() -> {
            for (int i = 0; i < 8; i++) {
                kafka.createTopic("created-quietly-" + i, 6);
            }
        });

        assertThat(kafka.endOffsets("created-quietly-7")).hasSize(6);
        assertThat(logged)
                .as("what the kit's clients logged while creating the topics")
                .doesNotContain("ERROR")
                .doesNotContain("unknown topic");
    }

    @Test
    void producesInBulkAndReportsEndOffsetsPerPartition(KafkaTestCluster kafka) {
        kafka.createTopic("bulk", 4);
        int count = 50_000;
        long start = System.nanoTime();
        kafka.produce(
                "bulk", count, i -> TestRecord.of("key-" + i, "value-" + i).toPartition(i % 4));
        long millis = (System.nanoTime() - start) / 1_000_000;

        Map<TopicPartition, Long> end = kafka.endOffsets("bulk");

        assertThat(end).hasSize(4);
        assertThat(end.values()).allMatch(offset -> offset == count / 4);
        assertThat(kafka.endTotal("bulk")).isEqualTo(count);
        assertThat(kafka.readAll("bulk")).hasSize(count);
        assertThat(millis).as("50k records with acks=all").isLessThan(30_000);
    }

    @Test
    void servesConsumerGroupsAndReportsTheirCommittedOffsets(KafkaTestCluster kafka) {
        kafka.createTopic("grouped", 2);
        kafka.produce("grouped", 10, i -> TestRecord.of("k" + i, "v" + i));
        Map<String, Object> config = new HashMap<>(kafka.clientProperties());
        config.put("group.id", "grouped-reader");
        config.put("auto.offset.reset", "earliest");
        config.put("enable.auto.commit", "false");
        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("grouped"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (seen.size() < 10 && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            consumer.commitSync();
        }

        assertThat(seen).hasSize(10);
        assertThat(kafka.committedOffsets("grouped-reader")).isEqualTo(kafka.endOffsets("grouped"));
        assertThat(kafka.committedOffsets("nobody")).isEmpty();
        assertThat(kafka.committedTotal("grouped-reader")).isEqualTo(10);
        assertThat(kafka.committedTotal("nobody")).isZero();
    }

    @Test
    void appliesExtraBrokerProperties(KafkaTestCluster kafka) throws Exception {
        try (Admin admin = kafka.newAdmin()) {
            String nodeId =
                    admin.describeCluster().nodes().get().iterator().next().idString();
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, nodeId);
            Config config = admin.describeConfigs(List.of(broker)).all().get().get(broker);
            assertThat(config.get("auto.create.topics.enable").value()).isEqualTo("false");
            assertThat(config.get("message.max.bytes").value()).isEqualTo("2000000");
        }
        assertThatThrownBy(() -> kafka.readAll("does-not-exist"))
                .isInstanceOf(KafkaTestClusterException.class)
                .hasMessageContaining("does-not-exist");
    }

    @Test
    void refusesToCreateATopicTwice(KafkaTestCluster kafka) {
        kafka.createTopic("twice", 1);
        assertThatThrownBy(() -> kafka.createTopic("twice", 1))
                .isInstanceOf(KafkaTestClusterException.class)
                .hasMessageContaining("twice");
    }

    @Nested
    class NestedClass {
        @Test
        void sharesTheOuterClassCluster(KafkaTestCluster kafka) {
            assertThat(kafka).isSameAs(staticField);
        }
    }
}

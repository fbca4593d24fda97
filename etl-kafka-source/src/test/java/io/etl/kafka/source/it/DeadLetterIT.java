package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.source.it.DeadLetterOrders.Kind;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dead-letter topics end to end: records that fail at any stage reach the {@code dead_letter} topic as they
 * were read, with {@code etl.dlq.*} headers, and are committed past only once there; everything else is
 * delivered.
 */
@EmbeddedKafka(shared = true)
class DeadLetterIT {

    /** The input, outputs and dead-letter topic of one test. */
    private record Topics(String uid, String input, String eu, String rest, String dlt, String group) {

        static Topics create(
                KafkaTestCluster kafka, String prefix, Map<String, String> euConfigs, Map<String, String> restConfigs) {
            String uid = Delivery.unique(prefix);
            Topics t = new Topics(uid, "in-" + uid, "eu-" + uid, "rest-" + uid, "dlt-" + uid, "group-" + uid);
            kafka.createTopic(t.input, 1);
            kafka.createTopic(t.eu, 1, -1, euConfigs);
            kafka.createTopic(t.rest, 1, -1, restConfigs);
            kafka.createTopic(t.dlt, 1);
            return t;
        }

        PipelineYaml yaml(KafkaTestCluster kafka) {
            return PipelineYaml.of(uid, kafka.bootstrapServers(), input, group)
                    .sink("eu", eu)
                    .sink("rest", rest)
                    .deadLetterOnEveryError(dlt)
                    .pool(4, 4, 200, "10ms")
                    .checkpoint("100ms", "10s");
        }
    }

    private static List<TestRecord> produce(KafkaTestCluster kafka, String topic, int count, IntFunction<Kind> kinds) {
        List<TestRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            records.add(DeadLetterOrders.record(i, kinds.apply(i)));
        }
        kafka.produce(topic, records);
        return records;
    }

    private static PipelineResult runUntilCaughtUp(
            KafkaTestCluster kafka, Topics t, PipelineConfig config, SimpleMeterRegistry registry) {
        RunningPipeline running = DeadLetterOrders.pipeline(config).start(config, registry);
        return Delivery.runUntilCaughtUp(kafka, running, t.group, t.input, Duration.ofSeconds(60));
    }

    private static Map<String, TestRecord> bySource(List<TestRecord> letters) {
        Map<String, TestRecord> out = new HashMap<>();
        for (TestRecord r : letters) {
            out.put(r.headerAsString(DeadLetter.SOURCE_HEADER), r);
        }
        return out;
    }

    private static List<String> outputIds(KafkaTestCluster kafka, Topics t) {
        List<String> ids = new ArrayList<>();
        for (String topic : List.of(t.eu, t.rest)) {
            kafka.readAll(topic).forEach(r -> ids.add(Orders.idOf(r)));
        }
        return ids;
    }

    private static double deadLettered(SimpleMeterRegistry registry) {
        return registry.find(EtlMetrics.RECORDS_DEAD_LETTERED).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    /** The same record as read: key, value bytes and the source headers. */
    private static void assertIsTheInput(TestRecord letter, TestRecord input) {
        assertThat(letter.key()).isEqualTo(input.key());
        assertThat(letter.value()).isEqualTo(input.value());
        assertThat(letter.headerAsString("origin")).isEqualTo(input.headerAsString("origin"));
    }

    @Test
    @Timeout(90)
    void oneFlakyAndOnePersistentFailureGive999OutputsAndOneDeadLetterCommittedPastBoth(KafkaTestCluster kafka) {
        Topics t = Topics.create(kafka, "dlq-connect", Map.of(), Map.of());
        List<TestRecord> input =
                produce(kafka, t.input, 1000, i -> i == 100 ? Kind.FLAKY : i == 500 ? Kind.PERSISTENT : Kind.GOOD);
        PipelineConfig config = t.yaml(kafka).parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        long before = System.currentTimeMillis();

        PipelineResult result = runUntilCaughtUp(kafka, t, config, registry);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<String> ids = outputIds(kafka, t);
        assertThat(ids)
                .hasSize(999)
                .doesNotHaveDuplicates()
                .contains(Orders.id(100))
                .doesNotContain(Orders.id(500));
        List<TestRecord> letters = kafka.readAll(t.dlt);
        assertThat(letters).hasSize(1);
        TestRecord letter = letters.get(0);
        assertIsTheInput(letter, input.get(500));
        assertThat(letter.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("operator:check");
        assertThat(letter.headerAsString(DeadLetter.SOURCE_HEADER)).isEqualTo(t.input + "-0@500");
        assertThat(letter.headerAsString(DeadLetter.ERROR_HEADER))
                .isEqualTo("io.etl.core.error.RetryableException: lookup for o-500 keeps timing out");
        assertThat(letter.headerAsString(DeadLetter.PIPELINE_HEADER)).isEqualTo(t.uid);
        assertThat(letter.headerAsString(DeadLetter.ATTEMPTS_HEADER)).isEqualTo("3");
        assertThat(Long.parseLong(letter.headerAsString(DeadLetter.TIMESTAMP_HEADER)))
                .isBetween(before, System.currentTimeMillis());
        assertThat(kafka.committedOffsets(t.group)).containsEntry(new TopicPartition(t.input, 0), 1000L);
        assertThat(registry.get(EtlMetrics.RECORDS_DEAD_LETTERED)
                        .tags(EtlMetrics.TAG_STAGE, "check", EtlMetrics.TAG_REASON, RecordException.OPERATOR)
                        .counter()
                        .count())
                .isEqualTo(1.0);
    }

    @Test
    @Timeout(90)
    void everyStageDeadLettersTheRecordAsReadWithItsStageAndSource(KafkaTestCluster kafka) {
        Topics t = Topics.create(kafka, "dlq-stages", Map.of("cleanup.policy", "compact"), Map.of());
        Map<Integer, Kind> poison =
                Map.of(10, Kind.MALFORMED, 20, Kind.EXPLODE, 30, Kind.BOOM, 40, Kind.HUGE, 50, Kind.NO_KEY);
        List<TestRecord> input = produce(kafka, t.input, 60, i -> poison.getOrDefault(i, Kind.GOOD));
        PipelineConfig config =
                t.yaml(kafka).eachSink("max_message_bytes", "2KB").parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        PipelineResult result = runUntilCaughtUp(kafka, t, config, registry);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        Map<String, TestRecord> letters = bySource(kafka.readAll(t.dlt));
        assertThat(letters).hasSize(poison.size());
        poison.forEach((offset, kind) -> {
            TestRecord letter = letters.get(t.input + "-0@" + offset);
            assertThat(letter).as("dead letter of offset %d (%s)", offset, kind).isNotNull();
            assertIsTheInput(letter, input.get(offset));
            assertThat(letter.headerAsString(DeadLetter.STAGE_HEADER))
                    .as("stage of %s", kind)
                    .isEqualTo(kind.stage);
            assertThat(letter.headerAsString(DeadLetter.ERROR_HEADER)).isNotBlank();
            assertThat(letter.headers()).doesNotContainKey(DeadLetter.ATTEMPTS_HEADER);
        });
        assertThat(letters.get(t.input + "-0@50").headerAsString(DeadLetter.ERROR_HEADER))
                .startsWith("org.apache.kafka.common.InvalidRecordException");
        // messages that shared a producer batch with the refused one are written again with those after them in
        // their batch, which may then appear twice: every good order is there, and nothing else
        List<String> expectedIds = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            if (!poison.containsKey(i)) {
                expectedIds.add(Orders.id(i));
            }
        }
        assertThat(outputIds(kafka, t)).containsAll(expectedIds).containsOnlyElementsOf(expectedIds);
        assertThat(kafka.committedOffsets(t.group)).containsEntry(new TopicPartition(t.input, 0), 60L);
        assertThat(deadLettered(registry)).isEqualTo(poison.size());
    }

    @Test
    @Timeout(90)
    void aTopicLimitBelowMaxMessageBytesDeadLettersOversizedRecordsAtEncodeWithoutStalling(KafkaTestCluster kafka) {
        Topics t = Topics.create(kafka, "dlq-limit", Map.of(), Map.of("max.message.bytes", "1500"));
        List<TestRecord> input = produce(kafka, t.input, 200, i -> i % 20 == 7 ? Kind.HUGE : Kind.GOOD);
        PipelineConfig config = t.yaml(kafka).parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        PipelineResult result = runUntilCaughtUp(kafka, t, config, registry);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<TestRecord> letters = kafka.readAll(t.dlt);
        assertThat(letters).hasSize(10).allSatisfy(l -> {
            assertThat(l.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("encode:rest");
            assertThat(l.headerAsString(DeadLetter.ERROR_HEADER)).contains("max.message.bytes 1500");
        });
        assertIsTheInput(bySource(letters).get(t.input + "-0@7"), input.get(7));
        assertThat(outputIds(kafka, t)).hasSize(190).doesNotHaveDuplicates();
        assertThat(kafka.committedOffsets(t.group)).containsEntry(new TopicPartition(t.input, 0), 200L);
        assertThat(registry.get(EtlMetrics.RECORDS_DEAD_LETTERED)
                        .tags(EtlMetrics.TAG_STAGE, "rest", EtlMetrics.TAG_REASON, RecordException.OVERSIZED)
                        .counter()
                        .count())
                .isEqualTo(10.0);
    }

    @Test
    @Timeout(90)
    void underSkipARecordAboveTheTopicLimitIsDroppedAtEncodeAndTheRestCommitted(KafkaTestCluster kafka) {
        Topics t = Topics.create(kafka, "dlq-limit-skip", Map.of(), Map.of("max.message.bytes", "1500"));
        produce(kafka, t.input, 100, i -> i % 25 == 3 ? Kind.HUGE : Kind.GOOD);
        PipelineConfig config = t.yaml(kafka).eachSink("on_error", "skip").parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();

        PipelineResult result = runUntilCaughtUp(kafka, t, config, registry);

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(outputIds(kafka, t)).hasSize(96);
        assertThat(kafka.readAll(t.dlt)).isEmpty();
        assertThat(registry.get(EtlMetrics.RECORDS_DROPPED)
                        .tags(EtlMetrics.TAG_STAGE, "rest", EtlMetrics.TAG_REASON, RecordException.OVERSIZED)
                        .counter()
                        .count())
                .isEqualTo(4.0);
        assertThat(kafka.committedOffsets(t.group)).containsEntry(new TopicPartition(t.input, 0), 100L);
    }

    @Test
    @Timeout(90)
    void aRecordTheBrokerRefusesAsTooLargeIsDeadLetteredAndTheRestOfItsBatchWritten(KafkaTestCluster kafka)
            throws Exception {
        Topics t = Topics.create(kafka, "dlq-broker", Map.of(), Map.of());
        PipelineConfig config = t.yaml(kafka).parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RunningPipeline running = DeadLetterOrders.pipeline(config).start(config, registry);
        List<TestRecord> input = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            input.add(DeadLetterOrders.record(i, i % 20 == 9 ? Kind.HUGE : Kind.GOOD));
        }
        try {
            kafka.produce(t.input, input.subList(0, 1));
            await().atMost(Duration.ofSeconds(30))
                    .until(() ->
                            kafka.committedOffsets(t.group).getOrDefault(new TopicPartition(t.input, 0), 0L) == 1L);
            // the sink read the topic's limit at start-up; lowering it now leaves the broker as the only guard
            ConfigResource rest = new ConfigResource(ConfigResource.Type.TOPIC, t.rest);
            try (Admin admin = kafka.newAdmin()) {
                admin.incrementalAlterConfigs(Map.of(
                                rest,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("max.message.bytes", "1500"), AlterConfigOp.OpType.SET))))
                        .all()
                        .get();
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> "1500"
                                .equals(admin.describeConfigs(List.of(rest))
                                        .all()
                                        .get()
                                        .get(rest)
                                        .get("max.message.bytes")
                                        .value()));
            }
            kafka.produce(t.input, input.subList(1, input.size()));
            await().atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> Delivery.caughtUp(kafka, t.group, t.input)
                            || running.result().isDone());
        } finally {
            running.stopAndWait(Duration.ofSeconds(30));
        }

        PipelineResult result = running.result().join();
        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<TestRecord> letters = kafka.readAll(t.dlt);
        assertThat(letters).hasSize(5).allSatisfy(l -> {
            assertThat(l.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("produce:rest");
            assertThat(l.headerAsString(DeadLetter.ERROR_HEADER))
                    .startsWith("org.apache.kafka.common.errors.RecordTooLargeException");
        });
        assertIsTheInput(bySource(letters).get(t.input + "-0@9"), input.get(9));
        assertThat(outputIds(kafka, t)).hasSize(95).doesNotHaveDuplicates();
        assertThat(kafka.committedOffsets(t.group)).containsEntry(new TopicPartition(t.input, 0), 100L);
        assertThat(registry.get(EtlMetrics.RECORDS_DEAD_LETTERED)
                        .tags(EtlMetrics.TAG_STAGE, "rest", EtlMetrics.TAG_REASON, RecordException.PRODUCE)
                        .counter()
                        .count())
                .isEqualTo(5.0);
    }

    @Test
    @Timeout(60)
    void aMissingDeadLetterTopicFailsTheStartNamingTheSection(KafkaTestCluster kafka) {
        String uid = Delivery.unique("dlq-missing");
        Topics t = new Topics(uid, "in-" + uid, "eu-" + uid, "rest-" + uid, "dlt-" + uid, "group-" + uid);
        kafka.createTopic(t.input, 1);
        kafka.createTopic(t.eu, 1);
        kafka.createTopic(t.rest, 1);
        kafka.produce(t.input, List.of(DeadLetterOrders.record(0, Kind.MALFORMED)));
        PipelineConfig config = t.yaml(kafka).parse();

        PipelineResult result = Delivery.resultOf(DeadLetterOrders.pipeline(config), config, Duration.ofSeconds(45));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("dead_letter.kafka")
                .hasMessageContaining(t.dlt);
        assertThat(kafka.committedOffsets(t.group)).doesNotContainKey(new TopicPartition(t.input, 0));
    }
}

package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.PipelineState;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.error.RecordException;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exactly once, a message the brokers refuse on its own account (here: larger than the output topic's
 * {@code max.message.bytes}, lowered while the pipeline runs) aborts its transaction, but not for ever: after
 * {@code pipeline.refused_message_attempts} aborted transactions its sink's {@code on_error} applies, inside the
 * next transaction. Everything else is delivered exactly once and the offsets move on.
 */
@EmbeddedKafka(shared = true)
class ExactlyOnceRefusalIT {

    /** The output topic's limit once lowered: far above a batch of small records, below a large one. */
    private static final int LOWERED_LIMIT = 20_000;

    private static final int LARGE_BYTES = 30_000;

    /** Copies the input's bytes to the sink {@code out}. */
    private static Pipeline copy(PipelineConfig config) {
        return Pipeline.named("refusals")
                .from(KafkaSource.from(config.source("orders")).bytes())
                .to(KafkaSink.from(config.sink("out")).bytes());
    }

    /** Record {@code i}: {@code small-<i>}, or {@code LARGE_BYTES} bytes starting with {@code large-<i>}. */
    private static TestRecord record(int i, boolean large, int partitions) {
        String value = large ? ("large-" + i + "-").repeat(LARGE_BYTES / 8) : "small-" + i;
        return TestRecord.of("k-" + i, value).toPartition(i % partitions);
    }

    private static List<TestRecord> records(int from, int to, IntPredicate large, int partitions) {
        List<TestRecord> records = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            records.add(record(i, large.test(i), partitions));
        }
        return records;
    }

    private static void lowerMaxMessageBytes(KafkaTestCluster kafka, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        String limit = Integer.toString(LOWERED_LIMIT);
        try (Admin admin = kafka.newAdmin()) {
            admin.incrementalAlterConfigs(Map.of(
                            resource,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("max.message.bytes", limit), AlterConfigOp.OpType.SET))))
                    .all()
                    .get();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> limit.equals(admin.describeConfigs(List.of(resource))
                            .all()
                            .get()
                            .get(resource)
                            .get("max.message.bytes")
                            .value()));
        }
    }

    private static double counted(SimpleMeterRegistry registry, String name, String... tags) {
        var counter = registry.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    @Timeout(60)
    void refusedRecordsGoToTheDeadLetterTopicInTheNextTransactionAndTheRestIsDeliveredOnce(KafkaTestCluster kafka)
            throws Exception {
        String uid = Delivery.unique("eos-refused");
        String in = "in-" + uid;
        String out = "out-" + uid;
        String dlt = "dlt-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        kafka.createTopic(dlt, 1);
        PipelineConfig config = PipelineYaml.of(uid, kafka.bootstrapServers(), in, group)
                .sink("out", out)
                .deadLetter(dlt)
                .eachSink("on_error", "dead_letter")
                .pipeline("delivery", "exactly_once")
                .pipeline("refused_message_attempts", "2")
                .checkpoint("200ms", "10s")
                .parse();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        IntPredicate large = i -> i % 200 == 37 || i % 200 == 68; // 237, 268, 437, 468: two per partition
        List<TestRecord> before = records(0, 200, i -> false, 2);
        List<TestRecord> after = records(200, 600, large, 2);
        Set<String> largeValues = after.stream()
                .map(TestRecord::valueAsString)
                .filter(v -> v.startsWith("large-"))
                .collect(Collectors.toSet());
        long started = System.nanoTime();

        RunningPipeline running = copy(config).start(config, registry);
        try {
            kafka.produce(in, before);
            await().atMost(Duration.ofSeconds(30)).until(() -> kafka.committedTotal(group) == 200);
            // the sink read the topic's limit at start-up: lowered now, only the brokers refuse what is too large
            lowerMaxMessageBytes(kafka, out);
            kafka.produce(in, after);
            await().atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, group, in)
                            || running.result().isDone());

            assertThat(running.result()).as("the pipeline keeps running").isNotDone();
            assertThat(running.state()).isEqualTo(PipelineState.RUNNING);
        } finally {
            running.stopAndWait(Duration.ofSeconds(30));
        }
        System.out.printf(
                "refusals (dead letters): %d ms, %.0f transactions aborted%n",
                Duration.ofNanos(System.nanoTime() - started).toMillis(),
                counted(registry, EtlMetrics.TRANSACTIONS, EtlMetrics.TAG_OUTCOME, "aborted"));

        assertThat(largeValues).hasSize(4);
        List<String> delivered =
                kafka.readAll(out).stream().map(TestRecord::valueAsString).toList();
        assertThat(delivered).hasSize(596).doesNotHaveDuplicates().noneMatch(v -> v.startsWith("large-"));
        List<TestRecord> letters = kafka.readAll(dlt);
        assertThat(letters).hasSize(4).allSatisfy(letter -> {
            assertThat(letter.headerAsString(DeadLetter.STAGE_HEADER)).isEqualTo("produce:out");
            assertThat(letter.headerAsString(DeadLetter.ERROR_HEADER))
                    .startsWith("org.apache.kafka.common.errors.RecordTooLargeException");
            assertThat(letter.headerAsString(DeadLetter.ATTEMPTS_HEADER)).isEqualTo("2");
            assertThat(letter.headerAsString(DeadLetter.SOURCE_HEADER)).startsWith(in + "-");
        });
        assertThat(letters).extracting(TestRecord::valueAsString).containsExactlyInAnyOrderElementsOf(largeValues);
        TestRecord first = letters.stream()
                .filter(l -> l.valueAsString().startsWith("large-237-"))
                .findFirst()
                .orElseThrow();
        assertThat(first.keyAsString()).isEqualTo("k-237");
        assertThat(kafka.committedOffsets(group))
                .containsEntry(new TopicPartition(in, 0), 300L)
                .containsEntry(new TopicPartition(in, 1), 300L);
        double aborted = counted(registry, EtlMetrics.TRANSACTIONS, EtlMetrics.TAG_OUTCOME, "aborted");
        assertThat(aborted)
                .as("an abort counts against the one message that caused it: two for each refused record, and no"
                        + " endless replay")
                .isBetween(8.0, 16.0);
        assertThat(counted(
                        registry,
                        EtlMetrics.RECORDS_DEAD_LETTERED,
                        EtlMetrics.TAG_STAGE,
                        "out",
                        EtlMetrics.TAG_REASON,
                        RecordException.PRODUCE))
                .as("counted each time its record is processed, in an aborted transaction too")
                .isBetween(4.0, 4 * (aborted + 1));
    }

    @Test
    @Timeout(60)
    void underFailARecordRefusedInEveryAttemptFailsThePipelineNamingItAndNothingFromItIsCommitted(
            KafkaTestCluster kafka) throws Exception {
        String uid = Delivery.unique("eos-refused-fail");
        String in = "in-" + uid;
        String out = "out-" + uid;
        String group = "group-" + uid;
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        PipelineConfig config = PipelineYaml.of(uid, kafka.bootstrapServers(), in, group)
                .sink("out", out)
                .eachSink("on_error", "fail")
                .pipeline("delivery", "exactly_once")
                .checkpoint("200ms", "10s")
                .parse();
        long started = System.nanoTime();

        RunningPipeline running = copy(config).start(config, new SimpleMeterRegistry());
        PipelineResult result;
        try {
            kafka.produce(in, records(0, 50, i -> false, 1));
            await().atMost(Duration.ofSeconds(30)).until(() -> kafka.committedTotal(group) == 50);
            lowerMaxMessageBytes(kafka, out);
            kafka.produce(in, records(50, 120, i -> i == 80, 1));
            result = running.result().get(40, TimeUnit.SECONDS);
        } finally {
            running.stopAndWait(Duration.ofSeconds(30));
        }
        System.out.printf(
                "refusals (fail): %d ms%n",
                Duration.ofNanos(System.nanoTime() - started).toMillis());

        assertThat(result.status()).isEqualTo(PipelineResult.Status.FAILED);
        assertThat(result.failure())
                .isInstanceOf(RecordException.class)
                .hasMessageStartingWith("produce error at " + in + "-0@80 in 'out': topic '" + out
                        + "' refused the message: RecordTooLargeException");
        long committed = kafka.committedOffsets(group).getOrDefault(new TopicPartition(in, 0), 0L);
        assertThat(committed)
                .as("nothing at or after the refused record is committed")
                .isBetween(50L, 80L);
        List<String> delivered =
                kafka.readAll(out).stream().map(TestRecord::valueAsString).toList();
        assertThat(delivered).hasSize((int) committed).doesNotHaveDuplicates().noneMatch(v -> v.startsWith("large-"));
    }
}

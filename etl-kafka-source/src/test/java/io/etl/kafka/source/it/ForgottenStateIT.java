package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.metrics.EtlMetrics;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the brokers forget or delete while a pipeline idles or is down. The broker keeps an idle producer's state
 * ({@code producer.id.expiration.ms}) for 3 s here instead of a day, and input records can be deleted below a
 * committed offset ({@code Admin.deleteRecords}, as retention would): the pipeline must go on without a fatal
 * error in the first case, and report the records it never read in the second, never jump over them in silence.
 */
class ForgottenStateIT {

    private static final int PARTITIONS = 3;
    private static final int BATCH = 3_000;

    @AutoClose
    private static final KafkaTestCluster kafka = KafkaTestCluster.embedded(BrokerOptions.builder()
            .brokerProperty("producer.id.expiration.ms", "3000")
            .brokerProperty("producer.id.expiration.check.interval.ms", "500")
            .build());

    @Test
    @Timeout(120)
    void writesOnWithoutAFatalErrorAfterTheBrokerForgotTheIdleSinkProducer() throws Exception {
        RunTopics t = RunTopics.create(kafka, "pidexpiry", PARTITIONS);
        PipelineConfig config = yaml(t).parse();
        RunningPipeline pipeline = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        try {
            kafka.produce(t.input(), BATCH, Orders::record);
            awaitCaughtUp(t, pipeline);
            List<TopicPartition> output = partitions(t.output());
            assertThat(activeProducers(output))
                    .as("the sink's producer wrote the output")
                    .isPositive();

            // the pipeline idles until the broker has dropped its producer's state on every output partition
            long idleFrom = System.nanoTime();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(250))
                    .until(() ->
                            activeProducers(output) == 0 || pipeline.result().isDone());
            long idleMs = (System.nanoTime() - idleFrom) / 1_000_000;

            kafka.produce(t.input(), BATCH, i -> Orders.record(BATCH + i));
            awaitCaughtUp(t, pipeline);
            MeterRegistry meters = pipeline.meterRegistry();
            double fatal = batches(meters, "fatal");
            double retried = batches(meters, "retryable");
            System.out.printf(
                    "producer state expired after %d ms idle; then %.0f retryable and %.0f fatal batch(es)%n",
                    idleMs, retried, fatal);
            assertThat(pipeline.result()).as("pipeline still running").isNotDone();
            assertThat(fatal).as("fatal batches").isZero();
            assertThat(activeProducers(output)).as("writing again").isPositive();
        } finally {
            PipelineResult result = pipeline.stopAndWait(Duration.ofSeconds(30));
            assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        }
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        assertThat(Delivery.missing(out, 2 * BATCH))
                .as("orders missing from the output")
                .isEmpty();
        assertThat(Delivery.duplicates(out)).as("duplicates").isZero();
    }

    @Test
    @Timeout(120)
    void reportsRecordsDeletedPastTheCommittedOffsetWhileThePipelineWasDown() throws Exception {
        RunTopics t = RunTopics.create(kafka, "deleted", PARTITIONS);
        PipelineConfig config = yaml(t).parse();
        RunningPipeline first = Pipelines.copy(config).start(config, new SimpleMeterRegistry());
        kafka.produce(t.input(), BATCH, ForgottenStateIT::order);
        awaitCaughtUp(t, first);
        assertThat(first.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
        Map<TopicPartition, Long> committed = kafka.committedOffsets(t.group());

        // while it is down: more input, and the oldest half of it deleted, past the committed offsets
        kafka.produce(t.input(), BATCH, i -> order(BATCH + i));
        long deletedPerPartition = BATCH / PARTITIONS / 2;
        Map<TopicPartition, RecordsToDelete> delete = new HashMap<>();
        committed.forEach((tp, offset) -> delete.put(tp, RecordsToDelete.beforeOffset(offset + deletedPerPartition)));
        try (Admin admin = kafka.newAdmin()) {
            admin.deleteRecords(delete).all().get(30, TimeUnit.SECONDS);
        }

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        String logged;
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        RunningPipeline second;
        try {
            second = Pipelines.copy(config).start(config, registry);
            awaitCaughtUp(t, second);
        } finally {
            System.setErr(err);
            logged = captured.toString(StandardCharsets.UTF_8);
            err.print(logged);
        }
        assertThat(second.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);

        assertThat(registry.get(KafkaSourceMetrics.OFFSET_GAPS).counter().count())
                .as("gaps, one per partition")
                .isEqualTo(PARTITIONS);
        assertThat(registry.get(KafkaSourceMetrics.OFFSET_GAP_RECORDS).counter().count())
                .as("records never read")
                .isEqualTo(deletedPerPartition * PARTITIONS);
        for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
            long from = e.getValue();
            long to = from + deletedPerPartition;
            assertThat(logged)
                    .as("the WARN line for %s", e.getKey())
                    .contains("WARN")
                    .contains("partition " + e.getKey() + ": " + deletedPerPartition + " record(s) from offset " + from
                            + " to " + (to - 1) + " were never read")
                    .contains("committed offset " + from + "; reading on from offset " + to);
        }
        Map<String, Integer> out = Delivery.idCounts(kafka, t.output());
        List<Integer> deleted = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        IntStream.range(BATCH, 2 * BATCH).forEach(i -> {
            long offset = i / PARTITIONS;
            (offset < BATCH / PARTITIONS + deletedPerPartition ? deleted : kept).add(i);
        });
        assertThat(out.keySet())
                .as("what was read before, and what was left after the deletion")
                .hasSize(BATCH + kept.size())
                .contains(Orders.id(0), Orders.id(BATCH - 1))
                .contains(kept.stream().map(Orders::id).toArray(String[]::new))
                .doesNotContain(deleted.stream().map(Orders::id).toArray(String[]::new));
        assertThat(Delivery.duplicates(out)).as("duplicates").isZero();
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }

    /** Order {@code i}, at offset {@code i / PARTITIONS} of partition {@code i % PARTITIONS}. */
    private static TestRecord order(int i) {
        return Orders.record(i).toPartition(i % PARTITIONS);
    }

    private static PipelineYaml yaml(RunTopics t) {
        return t.yaml(kafka).pool(2, 2, 500, "5ms").checkpoint("100ms", "10s");
    }

    private static void awaitCaughtUp(RunTopics t, RunningPipeline pipeline) {
        await().atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Delivery.caughtUp(kafka, t.group(), t.input())
                        || pipeline.result().isDone());
        assertThat(pipeline.result()).as("pipeline still running").isNotDone();
    }

    private static List<TopicPartition> partitions(String topic) {
        return new ArrayList<>(kafka.endOffsets(topic).keySet());
    }

    /** Producers whose state the broker keeps for any of {@code partitions}. */
    private static int activeProducers(List<TopicPartition> partitions) throws Exception {
        try (Admin admin = kafka.newAdmin()) {
            return admin.describeProducers(partitions).all().get(30, TimeUnit.SECONDS).values().stream()
                    .mapToInt(d -> {
                        List<ProducerState> active = d.activeProducers();
                        return active.size();
                    })
                    .sum();
        }
    }

    private static double batches(MeterRegistry meters, String outcome) {
        return meters.find(EtlMetrics.SINK_BATCHES).tag(EtlMetrics.TAG_OUTCOME, outcome).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
    }
}

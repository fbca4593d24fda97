package io.etl.kafka.source.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.source.KafkaSourceMetrics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Acceptance 1: the {@code kafka_to_kafka_split} shape end to end on a real broker. */
@EmbeddedKafka(shared = true)
class SplitEndToEndIT {

    private static final int ORDERS = 20_000;
    private static final List<String> BRANCHES = List.of("eu", "us", "apac", "unrouted");

    @Test
    @Timeout(120)
    void deliversEveryKeptOrderExactlyOnceToItsRegionTopicWithItsKey(KafkaTestCluster kafka) {
        RunTopics t = RunTopics.named("split");
        PipelineConfig config = t.createWithSinks(kafka, BRANCHES, 3).parse();
        kafka.produce(t.input(), ORDERS, Orders::record);

        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RunningPipeline running = Pipelines.split(config).start(config, registry);
        PipelineResult result;
        try {
            await().atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> Delivery.caughtUp(kafka, t.group(), t.input())
                            || running.result().isDone());
            assertThat(registry.get(KafkaSourceMetrics.RECORDS_LAG_MAX).gauge().value())
                    .as("the consumer's lag, bound as etl_kafka_source_records_lag_max")
                    .isGreaterThanOrEqualTo(0.0);
            assertThat(registry.get(KafkaSourceMetrics.ASSIGNED_PARTITIONS)
                            .gauge()
                            .value())
                    .isEqualTo(3.0);
        } finally {
            result = running.stopAndWait(Duration.ofSeconds(30));
        }

        assertThat(result.status()).as("result %s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(result.exitCode()).isZero();
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < ORDERS; i++) {
            if (!Orders.isTest(i)) {
                expected.put(Orders.id(i), Orders.branch(i));
            }
        }
        Map<String, String> found = new HashMap<>();
        long duplicates = 0;
        for (String branch : BRANCHES) {
            for (TestRecord r : kafka.readAll(t.topicOf(branch))) {
                String id = Orders.idOf(r);
                assertThat(r.keyAsString()).as("key of %s", id).isEqualTo(id);
                if (found.put(id, branch) != null) {
                    duplicates++;
                }
            }
        }
        assertThat(duplicates).as("duplicates in a clean run").isZero();
        assertThat(found).hasSize(expected.size()).isEqualTo(expected);
        assertThat(kafka.committedOffsets(t.group())).isEqualTo(kafka.endOffsets(t.input()));
    }
}

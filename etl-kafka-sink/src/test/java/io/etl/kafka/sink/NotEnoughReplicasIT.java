package io.etl.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.metrics.EtlMetrics;
import io.etl.testkit.ForkedKafkaCluster;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A topic with {@code min.insync.replicas=3} on three brokers, one of them stopped: the broker answers
 * NOT_ENOUGH_REPLICAS, the batch fails retryably and is retried until the broker is back; nothing is lost
 * and nothing is committed before it is durable.
 */
class NotEnoughReplicasIT {

    @Test
    void batchIsRetriedWhileReplicasAreMissingAndSucceedsWithoutLossWhenTheBrokerReturns() {
        try (ForkedKafkaCluster kafka = KafkaTestCluster.forkedCluster(3)) {
            String topic = SinkIts.unique("isr");
            kafka.createTopic(topic, 1, 3, Map.of("min.insync.replicas", "3"));
            kafka.stop(3);

            List<String> values = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                values.add("v" + i);
            }
            ListSource<String> source = ListSource.of("in", values);
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            RunningPipeline running = SinkIts.start(
                    source,
                    KafkaSink.from(
                                    "isr",
                                    KafkaSinkConfig.custom()
                                            .brokers(kafka.bootstrapServers())
                                            .topic(topic)
                                            .build()
                                            .withDeliveryTimeout(Duration.ofSeconds(2)),
                                    null)
                            .json(),
                    registry);

            await().atMost(Duration.ofSeconds(30)).until(() -> retryableBatches(registry) >= 1);
            assertThat(running.result()).isNotDone();
            assertThat(running.committedOffsets().getOrDefault(source.partition(), 0L))
                    .isZero();

            kafka.restart(3);
            await().atMost(Duration.ofSeconds(40))
                    .until(() -> running.committedOffsets().getOrDefault(source.partition(), 0L) == 200L);
            PipelineResult result = running.stopAndWait(Duration.ofSeconds(30));

            assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
            List<String> written =
                    kafka.readAll(topic).stream().map(TestRecord::valueAsString).toList();
            assertThat(written.stream().distinct().collect(Collectors.toList()))
                    .containsExactlyElementsOf(
                            values.stream().map(v -> "\"" + v + "\"").toList());
        }
    }

    private static double retryableBatches(SimpleMeterRegistry registry) {
        Counter c = registry.find(EtlMetrics.SINK_BATCHES)
                .tag(EtlMetrics.TAG_OUTCOME, "retryable")
                .counter();
        return c == null ? 0 : c.count();
    }
}

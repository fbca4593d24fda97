package io.etl.kafka.sink;

import static io.etl.kafka.sink.SinkIts.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.SinkPoolConfig;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The sink sends on the pipeline thread and never waits in {@code send}: a producer whose buffer is far smaller than
 * what the pipeline offers refuses records again and again. Nothing is lost or written twice, and every key's
 * messages arrive in the order they were read, across two shards.
 */
@EmbeddedKafka(shared = true)
class FullProducerBufferIT {

    private static final int RECORDS = 20_000;
    private static final int KEYS = 8;

    @Test
    void aFullProducerBufferHoldsRecordsBackInOrderAndLosesNone(KafkaTestCluster kafka) {
        String topic = unique("full-buffer");
        kafka.createTopic(topic, 4);
        List<String> values = new ArrayList<>(RECORDS);
        String padding = "x".repeat(200);
        for (int i = 0; i < RECORDS; i++) {
            values.add("k" + (i % KEYS) + ":" + i + ":" + padding);
        }
        KafkaSinkConfig config = KafkaSinkConfig.custom()
                .brokers(kafka.bootstrapServers())
                .topic(topic)
                // 64 KiB of buffer for 4 MB of messages; batches small enough to fit it
                .producer(Map.of("buffer.memory", "65536", "batch.size", "8192"))
                .statisticsInterval(Duration.ofMillis(100))
                .build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ListSource<String> source = ListSource.of("in", values);

        RunningPipeline running = SinkIts.start(
                source,
                KafkaSink.from("out", config, SinkPoolConfig.custom().shards(2).build())
                        .<String>json(v -> v.substring(0, v.indexOf(':'))),
                registry);
        await().atMost(Duration.ofSeconds(120))
                .until(() -> running.result().isDone()
                        || running.committedOffsets().getOrDefault(source.partition(), -1L) == RECORDS);
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(registry.find("etl.kafka.sink.buffer.exhausted.total")
                                .functionCounter())
                        .as("the producer's buffer-exhausted-total meter")
                        .isNotNull()
                        .satisfies(c -> assertThat(c.count())
                                .as("records the full buffer refused")
                                .isPositive()));
        PipelineResult result = running.stopAndWait(Duration.ofSeconds(30));

        assertThat(result.status()).isEqualTo(PipelineResult.Status.COMPLETED);
        assertThat(source.committed()).containsEntry(source.partition(), (long) RECORDS);
        Map<String, List<Integer>> byKey = new HashMap<>();
        for (TestRecord r : kafka.readAll(topic)) {
            String v = r.valueAsString();
            String[] parts = v.substring(1, v.length() - 1).split(":");
            byKey.computeIfAbsent(r.keyAsString(), k -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        assertThat(byKey).hasSize(KEYS);
        for (Map.Entry<String, List<Integer>> e : byKey.entrySet()) {
            int key = Integer.parseInt(e.getKey().substring(1));
            List<Integer> expected = new ArrayList<>();
            for (int i = key; i < RECORDS; i += KEYS) {
                expected.add(i);
            }
            assertThat(e.getValue())
                    .as("messages of key %s, in order, once each", e.getKey())
                    .isEqualTo(expected);
        }
    }
}

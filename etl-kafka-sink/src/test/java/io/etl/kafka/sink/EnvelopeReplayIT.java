package io.etl.kafka.sink;

import static io.etl.kafka.sink.SinkIts.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.Pipeline;
import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The envelope's idempotency key recipe: replaying the same input through the same deterministic chain
 * (here a flatMap with two outputs per record, one of them a delete) writes the same keys and the same
 * bytes, so a consumer that stores keys drops every replayed message; annotations from the YAML are in
 * every envelope value.
 */
@EmbeddedKafka(shared = true)
class EnvelopeReplayIT {

    private static final int RECORDS = 50;

    private static RunningPipeline run(KafkaTestCluster kafka, String topic, ListSource<Integer> source) {
        PipelineConfig config = PipelineConfig.parse("""
                sinks:
                  products:
                    kafka:
                      brokers: "%s"
                      topic: %s
                      annotations: {origin: catalog-db, schema_version: 3}
                checkpoint: {interval: 100ms, stalled_fail_after: 5s, drain_timeout: 2s}
                """.formatted(kafka.bootstrapServers(), topic), n -> null);
        return Pipeline.named(unique("envelope"))
                .from(source)
                .flatMap(
                        "to-changes",
                        (Integer i) -> List.of(
                                Change.upsert("p-" + i, Map.of("n", i)),
                                Change.<Map<String, Integer>>delete("p-" + (i + 1000))))
                .to(KafkaSink.from(config.sink("products")).<Map<String, Integer>>envelope())
                .start(config, new SimpleMeterRegistry());
    }

    private static void runToEnd(KafkaTestCluster kafka, String topic) {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            values.add(i);
        }
        ListSource<Integer> source = ListSource.of("catalog", values);
        RunningPipeline running = run(kafka, topic, source);
        await().atMost(Duration.ofSeconds(60))
                .until(() -> running.result().isDone()
                        || running.committedOffsets().getOrDefault(source.partition(), -1L) == RECORDS);
        assertThat(running.stopAndWait(Duration.ofSeconds(30)).status()).isEqualTo(PipelineResult.Status.COMPLETED);
    }

    @Test
    void replayingTheSameInputWritesTheSameIdempotencyKeysAndBytes(KafkaTestCluster kafka) {
        String topic = unique("envelope");
        kafka.createTopic(topic, 1);

        runToEnd(kafka, topic);
        runToEnd(kafka, topic); // a replay from offset 0, as after a crash before the first commit

        List<TestRecord> all = kafka.readAll(topic);
        assertThat(all).hasSize(4 * RECORDS);
        Map<String, List<TestRecord>> byKey = new HashMap<>();
        for (TestRecord r : all) {
            assertThat(r.headerAsString(KafkaSink.OPERATION_HEADER)).isIn("upsert", "delete");
            assertThat(r.headerAsString(KafkaSink.SOURCE_HEADER)).startsWith("catalog-0@");
            byKey.computeIfAbsent(r.headerAsString(KafkaSink.IDEMPOTENCY_KEY_HEADER), k -> new ArrayList<>())
                    .add(r);
        }
        assertThat(byKey).hasSize(2 * RECORDS).containsKeys("catalog:0:0:0", "catalog:0:0:1", "catalog:0:49:1");
        byKey.forEach((key, copies) -> {
            assertThat(copies).as("copies of %s", key).hasSize(2);
            assertThat(copies.get(1).keyAsString()).isEqualTo(copies.get(0).keyAsString());
            assertThat(copies.get(1).value()).isEqualTo(copies.get(0).value());
        });
        TestRecord upsert = byKey.get("catalog:0:7:0").get(0);
        assertThat(new String(upsert.value(), StandardCharsets.UTF_8))
                .contains(
                        "\"idempotencyKey\":\"catalog:0:7:0\"",
                        "\"document\":{\"n\":7}",
                        "\"annotations\":{\"origin\":\"catalog-db\",\"schema_version\":\"3\"}");
        TestRecord delete = byKey.get("catalog:0:7:1").get(0);
        assertThat(delete.value()).isNull();
        assertThat(delete.keyAsString()).isEqualTo("p-1007");
        assertThat(delete.headerAsString(KafkaSink.OPERATION_HEADER)).isEqualTo("delete");
    }
}

package io.etl.schema.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.record.RecordMeta;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.schema.it.SchemaPipelines.Topics;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Avro pipeline in a JVM of its own is killed with SIGKILL halfway through; a second copy finishes the
 * work: every payment reaches the ledger, and the committed offsets reach the end of the input.
 */
@EmbeddedKafka(shared = true)
class AvroCrashIT {

    private static final int PAYMENTS = 40_000;
    /** Records produced per chunk, and chunks per second: the input arrives at 5,000 records/s while the copies run. */
    private static final int CHUNK = 500;

    private static final long CHUNK_PAUSE_MILLIS = 100;

    @Test
    @Timeout(240)
    void aSigkilledAvroPipelineLosesNothing(KafkaTestCluster kafka, @TempDir Path dir) throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            Topics t = Topics.create(kafka, "avro-crash", 2);
            registry.register(t.input() + "-value", "AVRO", SchemaRegistryPipelineIT.V1.toString());
            registry.register(t.input() + "-value", "AVRO", SchemaRegistryPipelineIT.V2.toString());
            SchemaEncoder<GenericRecord> encoder =
                    SchemaPipelines.producerOf(Avro.encoder(), t.input(), registry.url(), false);
            List<TestRecord> input = new ArrayList<>(PAYMENTS);
            for (int i = 0; i < PAYMENTS; i++) {
                GenericRecord p = SchemaRegistryPipelineIT.payment(
                        i % 2 == 0 ? SchemaRegistryPipelineIT.V1 : SchemaRegistryPipelineIT.V2, i);
                input.add(TestRecord.of(
                        ("k" + i).getBytes(),
                        encoder.encode(p, new RecordMeta("t", 0, 0L, 0L, null, List.of()))
                                .value()));
            }
            Path yaml = writeYaml(t, kafka, registry, dir);
            Thread producer = new Thread(() -> produceAtARate(kafka, t.input(), input), "avro-crash-producer");
            producer.start();

            Process first = start(yaml, dir.resolve("first.log"));
            try {
                await().atMost(Duration.ofSeconds(90))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> kafka.committedTotal(t.group()) >= PAYMENTS / 4 || !first.isAlive());
                assertThat(first.isAlive())
                        .as(Files.readString(dir.resolve("first.log")))
                        .isTrue();
            } finally {
                first.destroyForcibly().waitFor();
            }
            long committedAtKill = kafka.committedTotal(t.group());
            assertThat(committedAtKill).isLessThan(PAYMENTS);

            assertThat(kafka.endTotal(t.input()))
                    .as("killed while input still arrives")
                    .isLessThan(PAYMENTS);
            Process second = start(yaml, dir.resolve("second.log"));
            try {
                await().atMost(Duration.ofSeconds(120))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> kafka.committedTotal(t.group()) >= PAYMENTS || !second.isAlive());
                assertThat(second.isAlive())
                        .as(Files.readString(dir.resolve("second.log")))
                        .isTrue();
            } finally {
                second.destroy();
                second.waitFor();
                producer.join();
            }

            Map<String, Integer> counts = new HashMap<>();
            for (GenericRecord entry : SchemaPipelines.decodeAll(kafka, t.output(), Avro.decoder(), registry.url())) {
                counts.merge(entry.get("payment").toString(), 1, Integer::sum);
            }
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                if (!counts.containsKey("p-" + i)) {
                    missing.add("p-" + i);
                }
            }
            System.out.printf(
                    "avro crash: killed at committed %d, %d entries for %d payments%n",
                    committedAtKill,
                    counts.values().stream().mapToInt(Integer::intValue).sum(),
                    PAYMENTS);
            assertThat(missing).as("payments missing from the ledger").isEmpty();
            assertThat(kafka.committedTotal(t.group())).isEqualTo(PAYMENTS);
        }
    }

    /** Produces {@code records} in chunks, pausing between them so the pipeline is mid-run when it is killed. */
    private static void produceAtARate(KafkaTestCluster kafka, String topic, List<TestRecord> records) {
        for (int from = 0; from < records.size(); from += CHUNK) {
            kafka.produce(topic, records.subList(from, Math.min(records.size(), from + CHUNK)));
            try {
                Thread.sleep(CHUNK_PAUSE_MILLIS); // pacing the input, not waiting for a condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Path writeYaml(Topics t, KafkaTestCluster kafka, SchemaRegistryServer registry, Path dir) {
        String yaml =
                """
                pipeline:
                  name: %1$s
                source:
                  in:
                    kafka:
                      brokers: "%2$s"
                      topics: [%3$s]
                      group_id: %4$s
                      group_instance_id: %1$s
                      session_timeout: 6s
                      statistics_interval: 0s
                      on_error: fail
                      schema_registry: {url: %5$s}
                sinks:
                  out:
                    kafka:
                      brokers: "%2$s"
                      topic: %6$s
                      statistics_interval: 0s
                      schema_registry: {url: %5$s, auto_register: true}
                checkpoint:
                  interval: 50ms
                """.formatted(t.uid(), kafka.bootstrapServers(), t.input(), t.group(), registry.url(), t.output());
        try {
            Path file = dir.resolve("pipeline.yaml");
            Files.writeString(file, yaml);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Process start(Path yaml, Path log) throws IOException {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        classpath,
                        AvroPipelineMain.class.getName(),
                        yaml.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}

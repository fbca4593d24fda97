package io.etl.schema.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.etl.core.PipelineResult;
import io.etl.core.config.PipelineConfig;
import io.etl.core.record.RecordMeta;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.schema.it.SchemaPipelines.Topics;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.TestSchemaRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;

/**
 * An Avro pipeline against the registry {@link TestSchemaRegistry#fromEnvironment} gives: the kit's server by
 * default, and Confluent's own registry image next to a Kafka container when Docker is there.
 */
class RegistryFromEnvironmentIT {

    @AfterEach
    void restore() {
        System.clearProperty("etl.test.kafka");
        System.clearProperty("etl.test.schema-registry");
    }

    @Test
    @Timeout(180)
    void theDefaultIsTheKitsOwnServer() throws Exception {
        try (KafkaTestCluster kafka = KafkaTestCluster.embedded();
                TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(kafka)) {
            assertThat(registry.kind()).isEqualTo(TestSchemaRegistry.Kind.SERVER);
            avroRoundTrip(kafka, registry);
        }
    }

    @Test
    @Timeout(600)
    void confluentsRegistryImageRunsNextToTheKafkaContainer() throws Exception {
        assumeTrue(
                DockerClientFactory.instance().isDockerAvailable(),
                "no Docker environment: the Confluent schema registry container cannot run here");
        System.setProperty("etl.test.kafka", "testcontainers");
        System.setProperty("etl.test.schema-registry", "testcontainers");
        try (KafkaTestCluster kafka = KafkaTestCluster.fromEnvironment();
                TestSchemaRegistry registry = TestSchemaRegistry.fromEnvironment(kafka)) {
            assertThat(kafka.kind()).isEqualTo(KafkaTestCluster.Kind.TESTCONTAINERS);
            assertThat(registry.kind()).isEqualTo(TestSchemaRegistry.Kind.TESTCONTAINERS);
            avroRoundTrip(kafka, registry);
        }
    }

    /** Orders registered by an encoder, through a pipeline that re-encodes them, read back through the registry. */
    private static void avroRoundTrip(KafkaTestCluster kafka, TestSchemaRegistry registry) throws Exception {
        Topics t = Topics.create(kafka, "from-env", 1);
        SchemaEncoder<GenericRecord> producer =
                SchemaPipelines.producerOf(Avro.encoder(), t.input(), registry.url(), true);
        List<TestRecord> input = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            GenericRecord payment = SchemaRegistryPipelineIT.payment(SchemaRegistryPipelineIT.V1, i);
            byte[] value = producer.encode(payment, new RecordMeta(t.input(), 0, 0L, 0L, null, List.of()))
                    .value();
            input.add(TestRecord.of(("k" + i).getBytes(), value));
        }
        kafka.produce(t.input(), input);
        PipelineConfig config = t.config(kafka, registry.url(), "fail");

        PipelineResult result = SchemaPipelines.runUntilCaughtUp(
                kafka,
                SchemaRegistryPipelineIT.avroToLedger(t, config, SchemaRegistryPipelineIT.V1)
                        .start(config, new SimpleMeterRegistry()),
                t,
                Duration.ofSeconds(120));

        assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
        List<GenericRecord> out = SchemaPipelines.decodeAll(kafka, t.output(), Avro.decoder(), registry.url());
        assertThat(out)
                .hasSize(input.size())
                .extracting(r -> r.get("payment") + ":" + r.get("cents"))
                .contains("p-0:0", "p-29:2900");
    }
}

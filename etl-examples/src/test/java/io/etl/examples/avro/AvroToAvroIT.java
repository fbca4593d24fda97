package io.etl.examples.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etl.core.PipelineResult;
import io.etl.core.RunningPipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.core.error.DeadLetter;
import io.etl.core.record.RecordMeta;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.schema.Avro;
import io.etl.schema.SchemaDecoder;
import io.etl.schema.SchemaEncoder;
import io.etl.testkit.EmbeddedKafka;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs the avro_to_avro example as shipped (its YAML, its schemas) on a broker and a registry. */
@EmbeddedKafka(shared = true)
class AvroToAvroIT {

    private static final Schema PAYMENT_V1 = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.examples.avro\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount_cents\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\"}]}");

    @Test
    @Timeout(120)
    void writesOneEntryPerPositivePaymentOfEitherVersionAndDeadLettersWhatIsNotAvro(KafkaTestCluster kafka)
            throws Exception {
        try (SchemaRegistryServer registry = SchemaRegistryServer.start()) {
            String uid = Long.toHexString(System.nanoTime());
            Map<String, String> env = Map.of(
                    "KAFKA_BROKERS", kafka.bootstrapServers(),
                    "SCHEMA_REGISTRY_URL", registry.url(),
                    "PAYMENTS_TOPIC", "payments-" + uid,
                    "LEDGER_TOPIC", "ledger-" + uid,
                    "DEAD_LETTER_TOPIC", "dlt-" + uid,
                    "GROUP_ID", "avro-" + uid);
            for (String topic : List.of("payments-", "ledger-", "dlt-")) {
                kafka.createTopic(topic + uid, 1);
            }
            registry.register("payments-" + uid + "-value", "AVRO", PAYMENT_V1.toString());
            registry.register("payments-" + uid + "-value", "AVRO", AvroToAvro.PAYMENT.toString());
            registry.register("ledger-" + uid + "-value", "AVRO", AvroToAvro.LEDGER_ENTRY.toString());
            SchemaEncoder<GenericRecord> producer = Avro.encoder();
            producer.open(context(registry, "payments-" + uid));
            List<TestRecord> input = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                GenericRecord p = new GenericData.Record(i < 20 ? PAYMENT_V1 : AvroToAvro.PAYMENT);
                p.put("id", "p-" + i);
                p.put("amount_cents", i == 5 ? -100L : 100L * i + 1);
                p.put("currency", "EUR");
                if (i >= 20) {
                    p.put("note", "invoice " + i);
                }
                input.add(TestRecord.of(
                        null,
                        producer.encode(p, new RecordMeta("t", 0, 0L, 0L, null, List.of()))
                                .value()));
            }
            input.add(TestRecord.of("bad", "{\"id\":\"p-json\"}"));
            kafka.produce("payments-" + uid, input);
            String yaml = Files.readString(Path.of("src", "main", "resources", "avro_to_avro.yaml"));
            PipelineConfig config = PipelineConfig.parse(yaml, env::get);

            RunningPipeline running = AvroToAvro.pipeline(config).start(config, new SimpleMeterRegistry());
            try {
                await().atMost(Duration.ofSeconds(60))
                        .until(() ->
                                running.state().isTerminal() || kafka.committedTotal("avro-" + uid) >= input.size());
            } finally {
                running.stopAndWait(Duration.ofSeconds(30));
            }
            PipelineResult result = running.result().join();

            assertThat(result.status()).as("%s", result).isEqualTo(PipelineResult.Status.COMPLETED);
            SchemaDecoder<GenericRecord> reader = Avro.decoder();
            reader.open(context(registry, "ledger-" + uid));
            List<String> entries = new ArrayList<>();
            for (TestRecord r : kafka.readAll("ledger-" + uid)) {
                GenericRecord e = reader.decode(r.value(), new RecordMeta("t", 0, 0L, 0L, null, List.of()));
                entries.add(e.get("payment_id") + "/" + e.get("debit_cents") + "/" + e.get("memo"));
            }
            assertThat(entries)
                    .hasSize(39)
                    .contains("p-3/301/", "p-25/2501/invoice 25")
                    .noneMatch(e -> e.startsWith("p-5/"));
            List<TestRecord> letters = kafka.readAll("dlt-" + uid);
            assertThat(letters).singleElement().satisfies(l -> {
                assertThat(l.valueAsString()).isEqualTo("{\"id\":\"p-json\"}");
                assertThat(l.headerAsString(DeadLetter.ERROR_HEADER)).contains("unknown magic byte");
            });
        }
    }

    private static FormatContext context(SchemaRegistryServer registry, String topic) {
        return new FormatContext(
                "test",
                "sinks.test.kafka",
                List.of(topic),
                SchemaRegistryConfig.custom().url(registry.url()).build(),
                new SimpleMeterRegistry(),
                null);
    }
}

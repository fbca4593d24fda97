package io.etl.examples.avro;

import io.etl.core.config.PipelineConfig;
import io.etl.core.error.ConfigException;
import io.etl.core.record.RecordMeta;
import io.etl.examples.ExampleCluster;
import io.etl.kafka.common.FormatContext;
import io.etl.kafka.common.SchemaRegistryConfig;
import io.etl.kafka.source.KafkaSourceConfig;
import io.etl.schema.Avro;
import io.etl.schema.SchemaEncoder;
import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.TestRecord;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The payments the example writes (the demonstration, and {@code --records} on a cluster): half with version 1 of
 * the schema (no note), half with version 2 (the example's reader schema, with a note); every tenth a refund (a
 * negative amount, which the pipeline filters out); every 250th not Avro at all (a JSON document, which goes to the
 * dead letters).
 */
final class SamplePayments {

    /** Version 1 of the payment schema: version 2 without the note. */
    static final Schema PAYMENT_V1 = new Schema.Parser()
            .parse("{\"type\":\"record\",\"name\":\"Payment\",\"namespace\":\"io.etl.examples.avro\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"amount_cents\",\"type\":\"long\"},"
                    + "{\"name\":\"currency\",\"type\":\"string\"}]}");

    private static final List<String> CURRENCIES = List.of("EUR", "USD", "GBP", "JPY");

    /**
     * What a run of {@code count} payments should give.
     *
     * @param ledger      entries the pipeline writes
     * @param refunds     payments it filters out
     * @param deadLetters records that are not Avro
     */
    record Expected(long ledger, long refunds, long deadLetters) {}

    private SamplePayments() {}

    static boolean notAvro(int i) {
        return i % 250 == 249;
    }

    static boolean refund(int i) {
        return i % 10 == 3;
    }

    static Expected expected(int count) {
        long dead = 0;
        long refunds = 0;
        for (int i = 0; i < count; i++) {
            if (notAvro(i)) {
                dead++;
            } else if (refund(i)) {
                refunds++;
            }
        }
        return new Expected(count - dead - refunds, refunds, dead);
    }

    /**
     * Writes {@code count} payments into the cluster and registry {@code config} names, as the service mode's
     * {@code --records} does: creates the topics the cluster lacks and registers the payment versions and the
     * ledger entry's schema where their subjects lack them (with the source section's registry settings), so
     * that the pipeline, whose sink registers nothing, can start.
     */
    static void writeTo(PipelineConfig config, int count, PrintStream err) {
        AvroTopics topics = AvroTopics.of(config);
        KafkaSourceConfig source = config.source("payments").connector(KafkaSourceConfig.class);
        if (source.schemaRegistry() == null) {
            throw ConfigException.of("source.payments.kafka.schema_registry", "is needed to write sample payments");
        }
        SchemaRegistryConfig registry = SchemaRegistryConfig.from(source.schemaRegistry())
                .autoRegister(true)
                .build();
        try (KafkaTestCluster cluster = ExampleCluster.of(config, "payments", "ledger")) {
            ExampleCluster.createMissingTopics(cluster, topics.partitions());
            SchemaEncoder<GenericRecord> ledger = Avro.encoder(AvroToAvro.LEDGER_ENTRY);
            ledger.open(context("ledger", topics.ledger(), registry)); // registers it when the subject lacks it
            write(cluster, topics.payments(), registry, count);
        }
        err.printf(Locale.ROOT, "wrote %,d payments to %s (schema versions 1 and 2)%n", count, topics.payments());
    }

    /**
     * Writes {@code count} payments to {@code topic}, keyed by payment id, framed for {@code registry} (which looks
     * up their schemas, or registers them with {@code auto_register}).
     */
    static void write(KafkaTestCluster cluster, String topic, SchemaRegistryConfig registry, int count) {
        SchemaEncoder<GenericRecord> encoder = Avro.encoder();
        encoder.open(context("payments", topic, registry));
        RecordMeta meta = RecordMeta.of(topic, 0, 0);
        List<TestRecord> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "p-" + i;
            byte[] key = id.getBytes(StandardCharsets.UTF_8);
            if (notAvro(i)) {
                batch.add(TestRecord.of(key, ("{\"id\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8)));
            } else {
                batch.add(TestRecord.of(key, encoder.encode(payment(i), meta).value()));
            }
            if (batch.size() == 1_000) {
                cluster.produce(topic, batch);
                batch.clear();
            }
        }
        cluster.produce(topic, batch);
    }

    private static FormatContext context(String name, String topic, SchemaRegistryConfig registry) {
        return new FormatContext(
                "sample " + name + " producer",
                "source.payments.kafka",
                List.of(topic),
                registry,
                new SimpleMeterRegistry(),
                null);
    }

    private static GenericRecord payment(int i) {
        boolean v2 = i % 2 == 1;
        GenericRecord p = new GenericData.Record(v2 ? AvroToAvro.PAYMENT : PAYMENT_V1);
        p.put("id", "p-" + i);
        p.put("amount_cents", refund(i) ? -100L * (i % 7 + 1) : 100L * (i % 97) + 1);
        p.put("currency", CURRENCIES.get(i % CURRENCIES.size()));
        if (v2) {
            p.put("note", "invoice " + (10_000 + i));
        }
        return p;
    }
}

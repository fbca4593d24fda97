package io.etl.examples.avro;

import io.etl.core.Pipeline;
import io.etl.core.config.PipelineConfig;
import io.etl.kafka.sink.KafkaSink;
import io.etl.kafka.source.KafkaSource;
import io.etl.schema.Avro;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Avro payments become Avro ledger entries. Payments are read through the version-2 reader schema whatever
 * version wrote them (a version-1 payment has no note: the reader's default, null, fills it in); entries are
 * written with their own schema, registered beforehand (or by the sink with {@code auto_register: true}).
 *
 * <pre>{@code
 * PipelineConfig config = PipelineConfig.load(Path.of("avro_to_avro.yaml"));
 * AvroToAvro.pipeline(config).run(config);
 * }</pre>
 */
public final class AvroToAvro {

    /** The pipeline's name, and its command's. */
    public static final String NAME = "avro_to_avro";

    /** The shipped YAML, on the class path. */
    public static final String DEFAULT_CONFIG_RESOURCE = "/avro_to_avro.yaml";

    /** The payment schema this pipeline reads with (version 2). */
    public static final Schema PAYMENT = schema("/avro/payment.avsc");

    /** The schema of the entries it writes. */
    public static final Schema LEDGER_ENTRY = schema("/avro/ledger-entry.avsc");

    private AvroToAvro() {}

    /** The pipeline, from the {@code payments} source to the {@code ledger} sink of {@code config}. */
    public static Pipeline pipeline(PipelineConfig config) {
        // spotless:off
        // tag::pipeline[]
        return Pipeline.named("avro_to_avro")
                .from(KafkaSource.from(config.source("payments")).with(Avro.decoder(PAYMENT)))  // v1 and v2 alike
                .filter("positive", payment -> (Long) payment.get("amount_cents") > 0)
                .map("to-entry", AvroToAvro::entry)
                .to(KafkaSink.from(config.sink("ledger")).with(Avro.encoder(LEDGER_ENTRY)));   // checked at start
        // end::pipeline[]
        // spotless:on
    }

    /** The shipped {@code avro_to_avro.yaml}. */
    public static String defaultYaml() {
        try (InputStream in = AvroToAvro.class.getResourceAsStream(DEFAULT_CONFIG_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + DEFAULT_CONFIG_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DEFAULT_CONFIG_RESOURCE, e);
        }
    }

    /** The ledger entry of {@code payment}: a debit in its currency, its note as the memo. */
    public static GenericRecord entry(GenericRecord payment) {
        GenericRecord entry = new GenericData.Record(LEDGER_ENTRY);
        entry.put("payment_id", payment.get("id").toString());
        entry.put("debit_cents", payment.get("amount_cents"));
        entry.put("currency", payment.get("currency").toString());
        Object note = payment.get("note");
        entry.put("memo", note == null ? "" : note.toString());
        return entry;
    }

    private static Schema schema(String resource) {
        try (InputStream in = AvroToAvro.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }
}

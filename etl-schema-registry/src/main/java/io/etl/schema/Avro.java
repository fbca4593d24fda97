package io.etl.schema;

import io.etl.schema.internal.AvroDecoder;
import io.etl.schema.internal.AvroEncoder;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro in the schema registry's wire format. The connector's {@code kafka} section needs a
 * {@code schema_registry} block.
 *
 * <pre>{@code
 * Schema reader = new Schema.Parser().parse(Path.of("payment-v2.avsc").toFile());
 * Pipeline.named("payments")
 *     .from(KafkaSource.from(config.source("payments")).with(Avro.decoder(reader)))
 *     .map("enrich", Payments::enrich)
 *     .to(KafkaSink.from(config.sink("ledger")).with(Avro.encoder()))
 *     .run(config);
 * }</pre>
 *
 * <p>Decoders read each record with the schema it was written with (its id, looked up once); with a reader
 * schema they resolve it as Avro does: fields the reader lacks are dropped, fields the writer lacks take the
 * reader's defaults, and a writer schema the reader cannot resolve is a record error. Strings decode as Avro's
 * {@code Utf8} in generic records. Encoders write each value with its own schema ({@code getSchema()}); a generic
 * record's logical-type field may hold the Java value ({@code BigDecimal}, {@code Instant}, ...) or the raw one.
 */
public final class Avro {

    private Avro() {}

    /** Generic records in the schema each was written with. */
    public static SchemaDecoder<GenericRecord> decoder() {
        return AvroDecoder.generic();
    }

    /** Generic records resolved to {@code reader}: the shape the pipeline works on, whatever version wrote them. */
    public static SchemaDecoder<GenericRecord> decoder(Schema reader) {
        return AvroDecoder.generic(Objects.requireNonNull(reader, "reader"));
    }

    /**
     * Generic records in the schema each was written with, whose logical-type fields hold Java values: a
     * {@code decimal} a {@code BigDecimal}, a {@code uuid} a {@code UUID}, a {@code date} a {@code LocalDate}, a
     * {@code time-*} a {@code LocalTime}, a {@code timestamp-*} an {@code Instant}, a {@code local-timestamp-*} a
     * {@code LocalDateTime}. {@link #decoder()} leaves them in their raw form (bytes, int, long), as Avro does.
     */
    public static SchemaDecoder<GenericRecord> decoderWithLogicalTypes() {
        return AvroDecoder.genericWithLogicalTypes(null);
    }

    /** Generic records resolved to {@code reader}, logical-type fields as Java values ({@link #decoderWithLogicalTypes()}). */
    public static SchemaDecoder<GenericRecord> decoderWithLogicalTypes(Schema reader) {
        return AvroDecoder.genericWithLogicalTypes(Objects.requireNonNull(reader, "reader"));
    }

    /**
     * Values of any schema resolved to {@code reader}, as {@code type}: a {@code String} for {@code "string"}, a
     * {@code Long} for {@code "long"}, a {@code GenericRecord} for a record. For keys of a primitive schema, as
     * string keys are: {@code Avro.decoder(reader).withKey(Avro.decoder(Schema.create(Schema.Type.STRING),
     * String.class))}. A value that does not read as {@code type} is a record error naming both.
     */
    public static <T> SchemaDecoder<T> decoder(Schema reader, Class<T> type) {
        return AvroDecoder.typed(Objects.requireNonNull(reader, "reader"), Objects.requireNonNull(type, "type"));
    }

    /** Instances of a class generated from an Avro schema, resolved to that class's schema. */
    public static <T extends SpecificRecord> SchemaDecoder<T> decoder(Class<T> type) {
        return AvroDecoder.specific(Objects.requireNonNull(type, "type"));
    }

    /**
     * Generic or specific records (any {@link GenericContainer}, so primitives wrapped in one too), each written
     * with its own schema; the id of each schema is found on its first use.
     */
    public static <T extends GenericContainer> SchemaEncoder<T> encoder() {
        return AvroEncoder.create();
    }

    /**
     * Values of {@code schema}: records, or any datum of a primitive or other schema (a {@code CharSequence} for
     * {@code "string"}, a {@code Long} for {@code "long"}, as keys often are). Its id is found (or the schema
     * registered) when the sink opens, so a schema the registry refuses stops the start instead of failing records.
     */
    public static <T> SchemaEncoder<T> encoder(Schema schema) {
        return AvroEncoder.of(Objects.requireNonNull(schema, "schema"));
    }
}

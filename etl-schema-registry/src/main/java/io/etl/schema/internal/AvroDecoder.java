package io.etl.schema.internal;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;

/**
 * Avro payloads: read with the writer's schema (parsed after the schemas it references, if any), resolved to a
 * reader schema when one is given (defaults filled, fields projected), into generic or specific records. One datum
 * reader per writer schema and one binary decoder are reused from record to record.
 *
 * @param <T> decoded type
 */
public final class AvroDecoder<T> extends FramedDecoder<T, DatumReader<T>> {

    private final Schema readerSchema;
    /** The data model records are read into: a {@link SpecificData} for generated classes. */
    private final GenericData model;
    /** The Java type values are handed over as, or null for what Avro's model reads. */
    private final Class<T> type;

    private BinaryDecoder decoder;

    private AvroDecoder(Schema readerSchema, GenericData model) {
        this(readerSchema, model, null);
    }

    private AvroDecoder(Schema readerSchema, GenericData model, Class<T> type) {
        super("Avro");
        this.readerSchema = readerSchema;
        this.model = model;
        this.type = type;
    }

    /**
     * Values of any schema resolved to {@code reader}, handed over as {@code type}: Avro's strings as
     * {@link String}, anything else as read (a {@code Long} for {@code "long"}, a generic record for a record).
     */
    public static <T> AvroDecoder<T> typed(Schema reader, Class<T> type) {
        return new AvroDecoder<>(reader, GenericData.get(), type);
    }

    /** Generic records in the writer's schema. */
    public static <T> AvroDecoder<T> generic() {
        return new AvroDecoder<>(null, GenericData.get());
    }

    /** Generic records resolved to {@code reader}. */
    public static <T> AvroDecoder<T> generic(Schema reader) {
        return new AvroDecoder<>(reader, GenericData.get());
    }

    /**
     * Generic records resolved to {@code reader} (null: in the writer's schema) whose logical-type fields hold Java
     * values ({@link AvroLogicalTypes}).
     */
    public static <T> AvroDecoder<T> genericWithLogicalTypes(Schema reader) {
        return new AvroDecoder<>(reader, AvroLogicalTypes.DATA);
    }

    /** Instances of a generated {@code SpecificRecord} class, resolved to its schema. */
    public static <T> AvroDecoder<T> specific(Class<T> type) {
        SpecificData data = SpecificData.getForClass(type);
        Schema schema = data.getSchema(type);
        AvroTrust.trust(schema);
        return new AvroDecoder<>(schema, data);
    }

    @Override
    protected DatumReader<T> reader(int id, SchemaText text) {
        requireType(id, text, SchemaText.AVRO);
        Schema writer = AvroSchemas.parse(text, client());
        if (readerSchema == null) {
            return new GenericDatumReader<>(writer, writer, model);
        }
        SchemaCompatibility.SchemaPairCompatibility pair =
                SchemaCompatibility.checkReaderWriterCompatibility(readerSchema, writer);
        if (pair.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw new IllegalArgumentException("writer schema id " + id + " (" + writer.getFullName()
                    + ") cannot be read with reader schema " + readerSchema.getFullName() + ": "
                    + pair.getResult().getIncompatibilities());
        }
        return model instanceof SpecificData specific
                ? new SpecificDatumReader<>(writer, readerSchema, specific)
                : new GenericDatumReader<>(writer, readerSchema, model);
    }

    @Override
    protected T read(DatumReader<T> reader, int id, byte[] bytes, int offset) throws Exception {
        decoder = DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, decoder);
        T value = reader.read(null, decoder);
        if (type == null || value == null) {
            return value;
        }
        if (type == String.class && value instanceof CharSequence text) {
            return type.cast(text.toString());
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("Avro value with schema id " + id + " reads as a "
                    + value.getClass().getName() + ", not a " + type.getName());
        }
        return value;
    }
}

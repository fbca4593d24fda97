package io.etl.schema.internal;

import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro values ({@code GenericRecord}, {@code SpecificRecord} or any {@link GenericContainer}) written with their
 * own schema, or any datum of one known schema (a {@code CharSequence} of {@code "string"}, ...). A generic record's logical-type fields may hold either form ({@link AvroLogicalTypes}). One datum
 * writer per schema, one output buffer and one binary encoder are reused.
 *
 * @param <T> value type
 */
public final class AvroEncoder<T> extends FramedEncoder<T, Schema, DatumWriter<T>> {

    private static final String JAVA_STRING = "avro.java.string";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Schema known;
    /** Without a lock per write, as {@code ByteArrayOutputStream} takes: Avro writes each field on its own. */
    private final ByteArrayBuilder out = new ByteArrayBuilder(256);

    private BinaryEncoder encoder;

    private AvroEncoder(Schema known) {
        super("Avro");
        this.known = known;
    }

    /** Values written with their own schemas, each looked up on first use. */
    public static <T extends GenericContainer> AvroEncoder<T> create() {
        return new AvroEncoder<>(null);
    }

    /**
     * Values of {@code schema}, any datum of it, looked up (or registered) when the sink opens, so a refusal stops
     * the start.
     */
    public static <T> AvroEncoder<T> of(Schema schema) {
        return new AvroEncoder<>(schema);
    }

    @Override
    protected Schema schemaOf(T value) {
        if (value instanceof GenericContainer container) {
            return container.getSchema();
        }
        if (known != null) {
            return known;
        }
        throw new IllegalArgumentException("an Avro value without a schema given to the encoder must carry its own"
                + " (a record, an enum or a fixed), got "
                + (value == null ? "null" : value.getClass().getName())
                + ": use Avro.encoder(Schema)");
    }

    /**
     * The schema's JSON without the {@code avro.java.string} properties that generated classes carry: they say
     * how Java represents strings, not what is written, and a registry compares schema texts.
     */
    @Override
    protected SchemaText textOf(Schema schema) {
        String text = schema.toString();
        if (text.contains(JAVA_STRING)) {
            try {
                JsonNode tree = JSON.readTree(text);
                strip(tree);
                text = new Schema.Parser().parse(tree.toString()).toString();
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the JSON of an Avro schema", e);
            }
        }
        return new SchemaText(SchemaText.AVRO, text);
    }

    /** The schema's JSON as it is, when it has the properties {@link #textOf} leaves out. */
    @Override
    protected SchemaText alternativeTextOf(Schema schema) {
        String text = schema.toString();
        return text.contains(JAVA_STRING) ? new SchemaText(SchemaText.AVRO, text) : null;
    }

    private static void strip(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove(JAVA_STRING);
        }
        node.forEach(AvroEncoder::strip);
    }

    @Override
    protected String nameOf(Schema schema) {
        return schema.getFullName();
    }

    @Override
    protected Schema knownSchema() {
        return known;
    }

    /** Whether they parse to equal schemas, the registered one with the schemas it references. */
    @Override
    protected boolean sameSchema(SchemaText registered, Schema own) {
        return SchemaText.AVRO.equals(registered.type())
                && AvroSchemas.parse(registered, client())
                        .equals(AvroSchemas.parse(textOf(own).schema()));
    }

    @Override
    protected DatumWriter<T> writerOf(Schema schema) {
        return new Writer<>(schema);
    }

    @Override
    protected byte[] write(T value, Framing<DatumWriter<T>> framing) throws Exception {
        out.reset();
        out.write(framing.prefix());
        encoder = EncoderFactory.get().directBinaryEncoder(out, encoder);
        framing.writer().write(value, encoder);
        encoder.flush();
        return out.toByteArray();
    }

    /** Writes specific records with the specific model and anything else with the generic one. */
    private static final class Writer<T> implements DatumWriter<T> {
        private final GenericDatumWriter<T> generic;
        private SpecificDatumWriter<T> specific;
        private final Schema schema;

        Writer(Schema schema) {
            this.schema = schema;
            this.generic = new GenericDatumWriter<>(schema, AvroLogicalTypes.DATA);
        }

        @Override
        public void setSchema(Schema schema) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void write(T datum, Encoder encoder) throws IOException {
            if (datum instanceof SpecificRecord) {
                if (specific == null) {
                    specific = new SpecificDatumWriter<>(schema, SpecificData.getForClass(datum.getClass()));
                }
                specific.write(datum, encoder);
            } else {
                generic.write(datum, encoder);
            }
        }
    }
}

package io.etl.schema.internal;

import io.etl.schema.Avro;
import io.etl.schema.SchemaDecoder;
import io.etl.schema.SchemaEncoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericContainer;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

/**
 * {@code --format avro} of {@code etl consume} and {@code etl produce}: values in the registry's wire format,
 * printed and read as Avro's JSON encoding (a union's value inside an object naming its branch, as
 * {@code {"string": "EUR"}}), the form Confluent's Avro console tools use. {@code consume} looks each writer
 * schema up by id; {@code produce} writes with {@code --format-option schema=FILE.avsc} or the latest version of
 * {@code <topic>-value}. As {@code --key-format} it does the same for keys ({@code key_schema=FILE},
 * {@code <topic>-key}); a key of a primitive schema (a {@code "string"}) is its JSON value.
 */
public final class AvroRecordFormat extends RegistryRecordFormat {

    private SchemaDecoder<?> decoder;
    private final Map<Schema, GenericDatumWriter<Object>> printers = new HashMap<>();
    private Schema writer;
    private GenericDatumReader<Object> reader;
    private SchemaEncoder<Object> encoder;

    public AvroRecordFormat() {
        super("avro", "Avro");
    }

    @Override
    void reset() {
        decoder = null;
        encoder = null;
    }

    @Override
    public String decode(byte[] value, Context context) throws Exception {
        ToolFormatSettings settings = settings(context);
        if (decoder == null) {
            decoder = settings.open(Avro.decoder());
        }
        Object datum = decoder.decode(value, settings.meta(value));
        Schema schema = datum instanceof GenericContainer c
                ? c.getSchema()
                : GenericData.get().induce(datum);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonEncoder json = EncoderFactory.get().jsonEncoder(schema, out);
        printers.computeIfAbsent(schema, GenericDatumWriter::new).write(datum, json);
        json.flush();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] encode(String text, Context context) throws IOException {
        ToolFormatSettings settings = settings(context);
        if (encoder == null) {
            writer = AvroSchemas.parse(settings.writerSchema(SchemaText.AVRO), settings.client());
            reader = new GenericDatumReader<>(writer);
            encoder = settings.open(Avro.<Object>encoder(writer));
        }
        Object datum = reader.read(null, DecoderFactory.get().jsonDecoder(writer, text));
        return encoder.encode(datum, settings.meta(null)).value();
    }
}

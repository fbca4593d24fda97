package io.etl.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etl.schema.JsonSchema;
import io.etl.schema.SchemaDecoder;
import io.etl.schema.SchemaEncoder;

/**
 * {@code --format json-schema} of {@code etl consume} and {@code etl produce}: JSON values in the registry's wire
 * format. {@code consume} prints each value as JSON after checking it against its writer schema; {@code produce}
 * checks each line against {@code --format-option schema=FILE.json} or the latest version of
 * {@code <topic>-value} and frames it with that schema's id. As {@code --key-format} it does the same for keys
 * ({@code key_schema=FILE}, {@code <topic>-key}).
 */
public final class JsonSchemaRecordFormat extends RegistryRecordFormat {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SchemaDecoder<JsonNode> decoder;
    private SchemaEncoder<JsonNode> encoder;

    public JsonSchemaRecordFormat() {
        super("json-schema", "JSON Schema");
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
            decoder = settings.open(JsonSchema.decoder(JsonNode.class, JSON));
        }
        return decoder.decode(value, settings.meta(value)).toString();
    }

    @Override
    public byte[] encode(String text, Context context) throws Exception {
        ToolFormatSettings settings = settings(context);
        if (encoder == null) {
            encoder = settings.open(JsonSchema.<JsonNode>encoder(
                    settings.writerSchema(SchemaText.JSON).schema(), JSON));
        }
        return encoder.encode(JSON.readTree(text), settings.meta(null)).value();
    }
}

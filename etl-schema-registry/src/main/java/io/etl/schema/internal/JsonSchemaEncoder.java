package io.etl.schema.internal;

import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import io.etl.core.error.RecordException;
import java.util.List;

/**
 * Values written as JSON under one JSON Schema, which each value must match. The schema is known in advance, so
 * its id is found (or it is registered) when the sink opens.
 *
 * @param <T> value type
 */
public final class JsonSchemaEncoder<T> extends FramedEncoder<T, String, Schema> {

    private final String schemaText;
    private final String title;
    private final ObjectMapper mapper;
    private final ByteArrayBuilder out = new ByteArrayBuilder(256);

    public JsonSchemaEncoder(String schemaText, ObjectMapper mapper) {
        super("JSON Schema");
        this.schemaText = schemaText;
        this.mapper = mapper;
        JsonNode root;
        try {
            root = mapper.readTree(schemaText);
        } catch (Exception e) {
            throw new IllegalArgumentException("the JSON Schema is not JSON: " + e.getMessage(), e);
        }
        this.title = root.path("title").asText(null);
        JsonSchemas.compile(schemaText, "the encoder's schema");
    }

    @Override
    protected String schemaOf(T value) {
        return schemaText;
    }

    @Override
    protected SchemaText textOf(String schema) {
        return new SchemaText(SchemaText.JSON, schema);
    }

    @Override
    protected String nameOf(String schema) {
        return title != null ? title : "(untitled JSON Schema)";
    }

    @Override
    protected String knownSchema() {
        return schemaText;
    }

    @Override
    protected boolean sameSchema(SchemaText registered, String own) {
        try {
            return SchemaText.JSON.equals(registered.type())
                    && mapper.readTree(registered.schema()).equals(mapper.readTree(own));
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    protected Schema writerOf(String schema) {
        return JsonSchemas.compile(schema, "the encoder's schema");
    }

    @Override
    protected byte[] write(T value, Framing<Schema> framing) throws Exception {
        JsonNode node = mapper.valueToTree(value);
        List<Error> errors = framing.writer().validate(node);
        if (!errors.isEmpty()) {
            throw RecordException.of(
                    RecordException.ENCODE,
                    "value does not match the JSON Schema " + nameOf(schemaText) + " (id " + framing.id() + "): "
                            + JsonSchemas.describe(errors),
                    null);
        }
        out.reset();
        out.write(framing.prefix());
        mapper.writeValue(out, node);
        return out.toByteArray();
    }
}

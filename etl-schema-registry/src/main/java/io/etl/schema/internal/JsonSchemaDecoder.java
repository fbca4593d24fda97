package io.etl.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import java.util.List;

/**
 * JSON payloads validated against the JSON Schema they were written with (looked up once per id), then read
 * into the target type. A writer schema may reference schemas of other subjects by name ({@code "$ref":
 * "customer.json"}), as Confluent's serializers register them: they are fetched once per version.
 *
 * @param <T> decoded type
 */
public final class JsonSchemaDecoder<T> extends FramedDecoder<T, Schema> {

    private final ObjectMapper mapper;
    private final ObjectReader tree;
    private final Class<T> type;

    public JsonSchemaDecoder(Class<T> type, ObjectMapper mapper) {
        super("JSON Schema");
        this.type = type;
        this.mapper = mapper;
        this.tree = mapper.readerFor(JsonNode.class);
    }

    @Override
    protected Schema reader(int id, SchemaText writer) {
        requireType(id, writer, SchemaText.JSON);
        return JsonSchemas.compile(writer.schema(), "schema id " + id, id, JsonSchemas.referenced(writer, client()));
    }

    @Override
    protected T read(Schema schema, int id, byte[] bytes, int offset) throws Exception {
        JsonNode node = tree.readValue(bytes, offset, bytes.length - offset);
        List<Error> errors = schema.validate(node);
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(
                    "JSON value does not match its writer schema (id " + id + "): " + JsonSchemas.describe(errors));
        }
        if (type == JsonNode.class) {
            return type.cast(node);
        }
        return mapper.treeToValue(node, type);
    }
}

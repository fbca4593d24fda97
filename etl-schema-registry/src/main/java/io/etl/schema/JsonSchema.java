package io.etl.schema;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.etl.schema.internal.JsonSchemaDecoder;
import io.etl.schema.internal.JsonSchemaEncoder;
import java.util.Objects;

/**
 * JSON validated by JSON Schema, in the schema registry's wire format.
 *
 * <pre>{@code
 * KafkaSource.from(config.source("orders")).with(JsonSchema.decoder(Order.class))
 * KafkaSink.from(config.sink("out")).with(JsonSchema.encoder(Files.readString(Path.of("order.schema.json"))))
 * }</pre>
 *
 * <p>The decoder validates every value against the schema it was written with (looked up once per id) before
 * reading it into the target type, ignoring JSON properties the type lacks; a value that does not match is a
 * record error. The encoder validates every value against its schema before writing it.
 */
public final class JsonSchema {

    /** Ignores properties the target type does not have, as the plain JSON decoder does. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .findAndAddModules()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private JsonSchema() {}

    /** Values validated against their writer schema, then read into {@code type} ({@code JsonNode} for trees). */
    public static <T> SchemaDecoder<T> decoder(Class<T> type) {
        return new JsonSchemaDecoder<>(Objects.requireNonNull(type, "type"), MAPPER);
    }

    /** As {@link #decoder(Class)}, read by your own mapper. */
    public static <T> SchemaDecoder<T> decoder(Class<T> type, ObjectMapper mapper) {
        return new JsonSchemaDecoder<>(Objects.requireNonNull(type, "type"), Objects.requireNonNull(mapper, "mapper"));
    }

    /** Values written as JSON under {@code schema} (a JSON Schema document), which each must match. */
    public static <T> SchemaEncoder<T> encoder(String schema) {
        return new JsonSchemaEncoder<>(Objects.requireNonNull(schema, "schema"), MAPPER);
    }

    /** As {@link #encoder(String)}, written by your own mapper. */
    public static <T> SchemaEncoder<T> encoder(String schema, ObjectMapper mapper) {
        return new JsonSchemaEncoder<>(
                Objects.requireNonNull(schema, "schema"), Objects.requireNonNull(mapper, "mapper"));
    }
}

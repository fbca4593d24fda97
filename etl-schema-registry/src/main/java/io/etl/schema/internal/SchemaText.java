package io.etl.schema.internal;

import java.util.Objects;

/**
 * A schema as the registry stores it: its type and its text.
 *
 * @param type   {@code AVRO}, {@code PROTOBUF} or {@code JSON}, as the registry names them
 * @param schema the schema's text (Avro JSON, a {@code .proto} file, a JSON Schema document)
 */
public record SchemaText(String type, String schema) {

    public static final String AVRO = "AVRO";
    public static final String PROTOBUF = "PROTOBUF";
    public static final String JSON = "JSON";

    public SchemaText {
        type = type == null || type.isEmpty() ? AVRO : type;
        Objects.requireNonNull(schema, "schema");
    }
}

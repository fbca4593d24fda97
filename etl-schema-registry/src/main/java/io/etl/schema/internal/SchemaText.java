package io.etl.schema.internal;

import java.util.List;
import java.util.Objects;

/**
 * A schema as the registry stores it: its type, its text and the registered schemas it references. Two schemas
 * with the same text but different references are different schemas, as the registry counts them.
 *
 * @param type       {@code AVRO}, {@code PROTOBUF} or {@code JSON}, as the registry names them
 * @param schema     the schema's text (Avro JSON, a {@code .proto} file, a JSON Schema document)
 * @param references the schemas it names without defining them (none for a self-contained schema)
 */
public record SchemaText(String type, String schema, List<SchemaReference> references) {

    public static final String AVRO = "AVRO";
    public static final String PROTOBUF = "PROTOBUF";
    public static final String JSON = "JSON";

    public SchemaText {
        type = type == null || type.isEmpty() ? AVRO : type;
        Objects.requireNonNull(schema, "schema");
        references = references == null ? List.of() : List.copyOf(references);
    }

    /** A schema without references. */
    public SchemaText(String type, String schema) {
        this(type, schema, List.of());
    }
}

package io.etl.testkit.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.etl.testkit.schema.SchemaRegistryServer.Reference;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;

/**
 * A schema as {@link SchemaRegistryServer} keeps it: its type, its text in a normal form and its references, which
 * are part of what it is (the same text with other references is another schema).
 *
 * @param type       {@code AVRO}, {@code PROTOBUF} or {@code JSON}
 * @param schema     the text, normalized
 * @param references the registered schemas it uses
 */
record StoredSchema(String type, String schema, List<Reference> references) {

    private static final ObjectMapper JSON = new ObjectMapper();

    StoredSchema {
        references = List.copyOf(references);
    }

    /**
     * {@code text} in a normal form, so formatting does not make two schemas of one: an Avro schema as Avro prints
     * it, the types its references define left as names, a JSON schema as compact JSON, a Protobuf schema as it is.
     *
     * @param dependencies the schemas {@code references} name, each after the ones it references itself
     * @throws IllegalArgumentException (or Avro's parse errors) when the text is not a schema of {@code type}
     */
    @SuppressWarnings("deprecation") // the one Avro method that prints referenced types by name, as Confluent does
    static StoredSchema normalized(
            String type, String text, List<Reference> references, List<StoredSchema> dependencies) {
        switch (type) {
            case "AVRO" -> {
                Schema.Parser parser = parser(dependencies);
                List<Schema> referenced = List.copyOf(parser.getTypes().values());
                Schema schema = parser.parse(text);
                return new StoredSchema(
                        type,
                        references.isEmpty() ? schema.toString() : schema.toString(referenced, false),
                        references);
            }
            case "JSON" -> {
                try {
                    return new StoredSchema(type, JSON.readTree(text).toString(), references);
                } catch (IOException e) {
                    throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
                }
            }
            case "PROTOBUF" -> {
                return new StoredSchema(type, text, references);
            }
            default -> throw new IllegalArgumentException("unknown schema type " + type);
        }
    }

    /** This Avro schema, parsed after {@code dependencies} (the schemas its references name, deepest first). */
    Schema avro(List<StoredSchema> dependencies) {
        return parser(dependencies).parse(schema);
    }

    /** A parser that knows the types the Avro schemas {@code dependencies} define. */
    private static Schema.Parser parser(List<StoredSchema> dependencies) {
        Schema.Parser parser = new Schema.Parser();
        for (StoredSchema dependency : dependencies) {
            if (!dependency.type().equals("AVRO")) {
                throw new IllegalArgumentException(
                        "an Avro schema cannot reference a " + dependency.type() + " schema");
            }
            parser.parse(dependency.schema());
        }
        return parser;
    }

    /** Puts {@code schema}, {@code schemaType} (unless Avro) and {@code references} (if any) into an answer. */
    ObjectNode putInto(ObjectNode node) {
        node.put("schema", schema);
        if (!type.equals("AVRO")) {
            node.put("schemaType", type);
        }
        if (!references.isEmpty()) {
            ArrayNode array = node.putArray("references");
            for (Reference r : references) {
                array.addObject()
                        .put("name", r.name())
                        .put("subject", r.subject())
                        .put("version", r.version());
            }
        }
        return node;
    }

    /** The {@code references} of a request body; none when it has none. */
    static List<Reference> referencesOf(JsonNode request) {
        JsonNode array = request.path("references");
        if (array.isMissingNode() || array.isNull()) {
            return List.of();
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException("references is not an array: " + array);
        }
        List<Reference> references = new ArrayList<>();
        for (JsonNode r : array) {
            if (!r.path("name").isTextual()
                    || !r.path("subject").isTextual()
                    || !r.path("version").canConvertToInt()) {
                throw new IllegalArgumentException("a reference needs a name, a subject and a version: " + r);
            }
            references.add(new Reference(
                    r.get("name").asText(),
                    r.get("subject").asText(),
                    r.get("version").asInt()));
        }
        return List.copyOf(references);
    }
}

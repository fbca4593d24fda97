package io.etl.schema.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * Avro schema texts from the registry, parsed once per JVM. A text with references is parsed with one
 * {@link Schema.Parser} after the schemas it references (deepest first), so it can name the types they define.
 */
final class AvroSchemas {

    private static final int MAX_PARSED = 10_000;

    /**
     * A schema text and the texts its references resolved to: the same key is the same schema, whichever registry
     * it came from.
     */
    private record Key(SchemaText schema, List<SchemaText> dependencies) {}

    private static final Map<Key, Schema> PARSED = new ConcurrentHashMap<>();

    private AvroSchemas() {}

    /** The Avro schema in {@code text}, which has no references. */
    static Schema parse(String text) {
        return parse(new SchemaText(SchemaText.AVRO, text), List.of());
    }

    /**
     * The Avro schema {@code text}, parsed after the schemas it references, which {@code client} gives (asking the
     * registry once per version).
     *
     * @throws RegistryException       when the registry cannot give a referenced schema
     * @throws IllegalArgumentException when a referenced schema is not Avro or does not parse
     */
    static Schema parse(SchemaText text, RegistryClient client) {
        return parse(text, text.references().isEmpty() ? List.of() : client.referencedSchemas(text));
    }

    private static Schema parse(SchemaText text, List<SubjectVersion> dependencies) {
        Key key =
                new Key(text, dependencies.stream().map(SubjectVersion::schema).toList());
        Schema schema = PARSED.get(key);
        if (schema == null) {
            Schema.Parser parser = new Schema.Parser();
            for (SubjectVersion dependency : dependencies) {
                read(parser, dependency);
            }
            schema = parser.parse(text.schema());
            if (PARSED.size() < MAX_PARSED) {
                PARSED.put(key, schema);
            }
        }
        return schema;
    }

    private static void read(Schema.Parser parser, SubjectVersion dependency) {
        String what = "the referenced schema of subject '" + dependency.subject() + "' version " + dependency.version();
        if (!SchemaText.AVRO.equals(dependency.schema().type())) {
            throw new IllegalArgumentException(
                    what + " is a " + dependency.schema().type() + " schema, not Avro");
        }
        try {
            parser.parse(dependency.schema().schema());
        } catch (AvroRuntimeException e) {
            throw new IllegalArgumentException(what + " does not parse: " + e.getMessage(), e);
        }
    }
}

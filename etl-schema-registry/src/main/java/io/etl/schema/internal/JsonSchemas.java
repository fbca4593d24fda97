package io.etl.schema.internal;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;
import java.util.stream.Collectors;

/** Compiles JSON Schemas (draft 7 unless {@code $schema} says otherwise, as Confluent's serializers assume). */
final class JsonSchemas {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);

    private JsonSchemas() {}

    static Schema compile(String text, String what) {
        try {
            return REGISTRY.getSchema(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + " is not a usable JSON Schema: " + e.getMessage(), e);
        }
    }

    /** The first few errors, for a message. */
    static String describe(List<Error> errors) {
        String shown = errors.stream().limit(3).map(Error::getMessage).collect(Collectors.joining("; "));
        return errors.size() > 3 ? shown + " (and " + (errors.size() - 3) + " more)" : shown;
    }
}

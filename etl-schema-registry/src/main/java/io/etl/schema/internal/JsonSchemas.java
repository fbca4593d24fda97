package io.etl.schema.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Compiles JSON Schemas (draft 7 unless {@code $schema} says otherwise, as Confluent's serializers assume). */
final class JsonSchemas {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);

    private JsonSchemas() {}

    /**
     * Where schema id N is taken to live when it has no {@code $id} of its own: its relative {@code $ref}s resolve
     * against it. The host is reserved and nothing is ever fetched from it.
     */
    static final String BASE = "https://schema-registry.invalid/schemas/ids/";

    private static final ObjectMapper JSON = new ObjectMapper();

    static Schema compile(String text, String what) {
        try {
            return REGISTRY.getSchema(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + " is not a usable JSON Schema: " + e.getMessage(), e);
        }
    }

    /**
     * Compiles schema {@code id}, whose {@code $ref}s may name the schemas in {@code referenced} (by reference name,
     * as the registry's {@code references} array names them). Each is made available at its name resolved against
     * the schema's {@code $id}, or against {@link #BASE}{@code id} when it has none, which is how Confluent's
     * serializers resolve them: a {@code $ref} to {@code customer.json} finds the reference named
     * {@code customer.json}. Nothing is fetched from the network: a {@code $ref} to anything else does not compile.
     */
    static Schema compile(String text, String what, int id, Map<String, String> referenced) {
        if (referenced.isEmpty()) {
            return compile(text, what);
        }
        try {
            JsonNode root = parse(text);
            SchemaLocation base = SchemaLocation.of(baseOf(root, id));
            Map<String, String> byIri = new HashMap<>();
            referenced.forEach((name, schema) -> byIri.put(resolve(base, name), schema));
            SchemaRegistry registry =
                    SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7, b -> b.schemas(byIri));
            Schema schema = registry.getSchema(base, root);
            schema.initializeValidators(); // resolves every $ref now, not at the first value
            return schema;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(what + " is not a usable JSON Schema: " + e.getMessage(), e);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
    }

    /** The location the schema's relative references resolve against: its {@code $id}, made absolute. */
    private static String baseOf(JsonNode root, int id) {
        JsonNode own = root.path("$id");
        String fallback = BASE + id;
        return own.isTextual() ? resolve(SchemaLocation.of(fallback), own.asText()) : fallback;
    }

    /** {@code reference} resolved against {@code base}, without a fragment: the key the validator looks it up by. */
    private static String resolve(SchemaLocation base, String reference) {
        return SchemaLocation.of(SchemaLocation.resolve(base, reference))
                .getAbsoluteIri()
                .toString();
    }

    /**
     * The text of every schema {@code schema} references, directly or through another referenced schema, by the
     * name its referrer gives it; fetched through {@code client} (each version once).
     *
     * @throws IllegalArgumentException when a referenced schema is not a JSON Schema, or one name stands for two
     *                                  different schemas
     * @throws RegistryException        when the registry cannot give a referenced schema
     */
    static Map<String, String> referenced(SchemaText schema, RegistryClient client) {
        if (schema.references().isEmpty()) {
            return Map.of();
        }
        List<SubjectVersion> versions = client.referencedSchemas(schema); // every version fetched and cached
        Map<String, String> byName = new LinkedHashMap<>();
        addNamed(schema, client, byName);
        for (SubjectVersion v : versions) {
            addNamed(v.schema(), client, byName);
        }
        return byName;
    }

    private static void addNamed(SchemaText schema, RegistryClient client, Map<String, String> byName) {
        for (SchemaReference ref : schema.references()) {
            SubjectVersion v = client.referenced(ref);
            if (!SchemaText.JSON.equals(v.schema().type())) {
                throw new IllegalArgumentException(
                        "reference " + ref.describe() + " is a " + v.schema().type() + " schema, not a JSON Schema");
            }
            String earlier = byName.putIfAbsent(ref.name(), v.schema().schema());
            if (earlier != null && !earlier.equals(v.schema().schema())) {
                throw new IllegalArgumentException(
                        "reference name '" + ref.name() + "' stands for two different schemas");
            }
        }
    }

    /** The first few errors, for a message. */
    static String describe(List<Error> errors) {
        String shown = errors.stream().limit(3).map(Error::getMessage).collect(Collectors.joining("; "));
        return errors.size() > 3 ? shown + " (and " + (errors.size() - 3) + " more)" : shown;
    }
}

package io.etl.schema.internal;

import java.util.Objects;

/**
 * A schema's reference to another registered schema, as the registry's {@code references} array holds it.
 *
 * @param name    what the referring schema calls it: for Avro the referenced type's full name, for Protobuf the
 *                imported file, for JSON Schema the {@code $ref} URL
 * @param subject the subject the referenced schema is registered under
 * @param version its version under that subject
 */
public record SchemaReference(String name, String subject, int version) {

    public SchemaReference {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(subject, "subject");
    }

    /** {@code 'io.acme.Customer' (subject 'customer', version 1)}, for messages. */
    public String describe() {
        return "'" + name + "' (subject '" + subject + "', version " + version + ")";
    }
}

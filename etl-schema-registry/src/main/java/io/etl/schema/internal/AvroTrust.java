package io.etl.schema.internal;

import java.util.HashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.util.ClassSecurityValidator;
import org.apache.avro.util.ClassSecurityValidator.ClassSecurityPredicate;

/**
 * Avro refuses to instantiate classes it was not told to trust ({@link ClassSecurityValidator}). A user who asks
 * for {@code Avro.decoder(Payment.class)} trusts {@code Payment}: this adds exactly the classes its schema names
 * (the record and the records, enums and fixed types inside it) to Avro's trusted set, keeping every earlier
 * rule (the system properties {@code org.apache.avro.SERIALIZABLE_CLASSES} and {@code ..._PACKAGES} included).
 */
final class AvroTrust {

    private static final Set<String> TRUSTED = new HashSet<>();

    private AvroTrust() {}

    static synchronized void trust(Schema schema) {
        Set<String> names = new HashSet<>();
        collect(schema, names);
        names.removeAll(TRUSTED);
        if (names.isEmpty()) {
            return;
        }
        ClassSecurityValidator.Builder builder = ClassSecurityValidator.builder();
        names.forEach(builder::add);
        ClassSecurityPredicate before = ClassSecurityValidator.getGlobal();
        ClassSecurityValidator.setGlobal(ClassSecurityValidator.composite(before, builder.build()));
        TRUSTED.addAll(names);
    }

    private static void collect(Schema schema, Set<String> names) {
        switch (schema.getType()) {
            case RECORD -> {
                if (names.add(schema.getFullName())) {
                    schema.getFields().forEach(f -> collect(f.schema(), names));
                }
            }
            case ENUM, FIXED -> names.add(schema.getFullName());
            case ARRAY -> collect(schema.getElementType(), names);
            case MAP -> collect(schema.getValueType(), names);
            case UNION -> schema.getTypes().forEach(t -> collect(t, names));
            default -> {}
        }
    }
}

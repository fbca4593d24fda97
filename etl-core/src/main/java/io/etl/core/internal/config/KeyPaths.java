package io.etl.core.internal.config;

import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Builds dotted key paths as written in YAML: {@code sinks.eu.kafka.topics[2]}. */
final class KeyPaths {

    private static final PropertyNamingStrategies.NamingBase SNAKE_CASE =
            (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;

    private KeyPaths() {}

    /** {@code base} followed by {@code child}, which is a key or an index such as {@code [2]}. */
    static String join(String base, String child) {
        if (child == null || child.isEmpty()) {
            return base;
        }
        if (base == null || base.isEmpty()) {
            return child.startsWith(".") ? child.substring(1) : child;
        }
        return child.startsWith("[") || child.startsWith(".") ? base + child : base + "." + child;
    }

    static String index(String base, int index) {
        return (base == null ? "" : base) + "[" + index + "]";
    }

    /** The path of the parser's current value, below {@code base}. */
    static String of(String base, JsonStreamContext context) {
        Deque<JsonStreamContext> chain = new ArrayDeque<>();
        for (JsonStreamContext c = context; c != null; c = c.getParent()) {
            chain.push(c);
        }
        StringBuilder relative = new StringBuilder();
        for (JsonStreamContext c : chain) {
            if (c.inObject() && c.getCurrentName() != null) {
                relative.append('.').append(c.getCurrentName());
            } else if (c.inArray() && c.getEntryCount() > 0) {
                relative.append('[').append(c.getEntryCount() - 1).append(']');
            }
        }
        return join(base, relative.toString());
    }

    /** The path of a Jackson mapping failure, below {@code base}. */
    static String of(String base, List<JsonMappingException.Reference> references) {
        StringBuilder relative = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                relative.append('.').append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                relative.append('[').append(reference.getIndex()).append(']');
            }
        }
        return join(base, relative.toString());
    }

    /** {@code maxRecords} as {@code max_records}, the way the loader's naming strategy spells it. */
    static String snakeCase(String javaName) {
        return SNAKE_CASE.translate(javaName);
    }
}

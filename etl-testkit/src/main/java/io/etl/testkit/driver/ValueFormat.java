package io.etl.testkit.driver;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * How a typed test input turns bytes into its values and back, as the Kafka source reads them: {@code String} as
 * UTF-8 text, {@code byte[]} as they are, anything else as JSON (unknown properties ignored, {@code java.time}
 * types as ISO-8601 text).
 *
 * @param <T> value type
 */
final class ValueFormat<T> {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .addModule(new JavaTimeModule())
            .build();

    private final Class<T> type;

    private ValueFormat(Class<T> type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    static <T> ValueFormat<T> of(Class<T> type) {
        return new ValueFormat<>(type);
    }

    /** The value {@code bytes} hold; throws what the Kafka source's decoder would report. */
    T decode(byte[] bytes) throws IOException {
        if (bytes == null) {
            if (type == String.class || type == byte[].class) {
                return null;
            }
            throw new IllegalArgumentException("tombstone (null payload) cannot be decoded as " + type.getSimpleName());
        }
        if (type == String.class) {
            return type.cast(new String(bytes, StandardCharsets.UTF_8));
        }
        if (type == byte[].class) {
            return type.cast(bytes);
        }
        T value = JSON.readValue(bytes, type);
        if (value == null) {
            throw new IllegalArgumentException("JSON null cannot be decoded as " + type.getSimpleName());
        }
        return value;
    }

    /** The bytes a topic would hold for {@code value}; null for a null value. */
    byte[] encode(T value) {
        if (value == null) {
            return null;
        }
        if (value instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        try {
            return JSON.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + type.getSimpleName() + " as JSON", e);
        }
    }

    String typeName() {
        return type.getSimpleName();
    }
}

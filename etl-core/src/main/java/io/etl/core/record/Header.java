package io.etl.core.record;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One message header: a key and an opaque value (possibly {@code null}). Headers travel from the
 * source record to every output unless an encoder replaces them.
 *
 * @param key   header key, never null
 * @param value header value bytes, may be null
 */
public record Header(String key, byte[] value) {

    public Header {
        Objects.requireNonNull(key, "key");
    }

    /** A header whose value is the UTF-8 encoding of {@code value}. */
    public static Header of(String key, String value) {
        return new Header(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** The value decoded as UTF-8, or null. */
    public String valueAsString() {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Header h && key.equals(h.key) && Arrays.equals(value, h.value);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "Header[" + key + "=" + (value == null ? "null" : value.length + " bytes") + "]";
    }
}

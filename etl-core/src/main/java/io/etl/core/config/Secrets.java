package io.etl.core.config;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Recognises configuration keys that hold secrets, and hides their values, for connectors that log their
 * effective client properties.
 *
 * <pre>{@code
 * LOG.info("producer properties: {}", Secrets.redact(properties));
 * // {bootstrap.servers=b:9092, ssl.key.password=[redacted], sasl.jaas.config=[redacted], ...}
 * }</pre>
 *
 * <p>A key is secret when it contains (case-insensitive, {@code _} and {@code -} read as {@code .})
 * {@code password}, {@code passwd}, {@code secret}, {@code token}, {@code jaas}, {@code credential},
 * {@code private}, {@code apikey}, or when its last part is {@code key} ({@code ssl.keystore.key},
 * {@code api_key}). {@code key.serializer} is not secret.
 */
public final class Secrets {

    /** What {@link #redact} puts in place of a secret value. */
    public static final String REDACTED = "[redacted]";

    private static final List<String> WORDS =
            List.of("password", "passwd", "secret", "token", "jaas", "credential", "private", "apikey");

    private Secrets() {}

    /** Whether values of {@code key} (a key or a dotted path) must never be shown. */
    public static boolean isSecretKey(String key) {
        if (key == null) {
            return false;
        }
        String k = key.toLowerCase(Locale.ROOT).replace('_', '.').replace('-', '.');
        for (String word : WORDS) {
            if (k.contains(word)) {
                return true;
            }
        }
        return k.equals("key") || k.endsWith(".key");
    }

    /**
     * A copy of {@code properties}, in the same order, with the value of every {@linkplain #isSecretKey secret
     * key} replaced by {@link #REDACTED} (null values stay null).
     */
    public static Map<String, Object> redact(Map<String, ?> properties) {
        Map<String, Object> copy = new LinkedHashMap<>();
        properties.forEach((key, value) -> copy.put(key, value != null && isSecretKey(key) ? REDACTED : value));
        return Collections.unmodifiableMap(copy);
    }

    /**
     * An unmodifiable copy of {@code properties}, in the same order, whose {@code toString()} hides the values of
     * secret keys. Configuration records keep passthrough maps this way, so dumping a configuration (a log
     * line, an exception message, a debugger) never shows a password; reading the map gives the real values.
     */
    public static Map<String, String> protect(Map<String, String> properties) {
        return properties instanceof ProtectedMap p ? p : new ProtectedMap(properties);
    }

    /** The map behind {@link #protect}: equal to any map with the same entries, printed redacted. */
    private static final class ProtectedMap extends AbstractMap<String, String> {

        private final Map<String, String> entries;

        ProtectedMap(Map<String, String> source) {
            this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(source));
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return entries.entrySet();
        }

        @Override
        public String get(Object key) {
            return entries.get(key);
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public String toString() {
            return redact(entries).toString();
        }
    }
}

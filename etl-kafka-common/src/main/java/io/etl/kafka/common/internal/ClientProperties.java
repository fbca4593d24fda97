package io.etl.kafka.common.internal;

import io.etl.core.config.Secrets;
import java.util.Map;
import java.util.TreeMap;

/**
 * Showing kafka-clients properties safely: every value whose key names a secret (passwords,
 * {@code sasl.jaas.config}, key material, tokens, client secrets) is replaced by
 * {@value io.etl.core.config.Secrets#REDACTED}.
 *
 * <pre>{@code
 * LOG.info("sink '{}' producer: {}", name, ClientProperties.redacted(props));
 * }</pre>
 */
public final class ClientProperties {

    private ClientProperties() {}

    /** Whether the value of {@code key} must never be shown. */
    public static boolean isSecret(String key) {
        // ssl.keystore.key and ssl.keystore.certificate.chain hold PEM material; the chain is public but long
        return Secrets.isSecretKey(key)
                || key.startsWith("ssl.keystore.key")
                || key.equals("ssl.truststore.certificates")
                || key.equals("ssl.keystore.certificate.chain");
    }

    /** A sorted copy of {@code properties} with secret values replaced, ready for a log line. */
    public static Map<String, Object> redacted(Map<String, ?> properties) {
        Map<String, Object> copy = new TreeMap<>();
        properties.forEach((key, value) -> copy.put(key, value != null && isSecret(key) ? Secrets.REDACTED : value));
        return copy;
    }

    /** {@code null} for null, otherwise {@value io.etl.core.config.Secrets#REDACTED}: for {@code toString()}s. */
    public static String mask(String secret) {
        return secret == null ? null : Secrets.REDACTED;
    }
}

package io.etl.kafka.common.internal;

import io.etl.kafka.common.KafkaSecurityConfig;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The properties every client of a connector shares, its producer or consumer and its admin clients alike:
 * the brokers, the typed security section, and security properties given through the passthrough instead.
 *
 * <pre>{@code
 * Map<String, Object> connection = ClientConnection.properties(config.brokers(), config.security(),
 *         config.consumer(), "source.orders.kafka");
 * }</pre>
 */
public final class ClientConnection {

    private ClientConnection() {}

    /**
     * @param brokers     the bootstrap servers, as configured
     * @param security    the typed security section, or {@code null}
     * @param passthrough the client passthrough; only its {@code security.*}, {@code ssl.*} and {@code sasl.*}
     *                    keys are taken
     * @param path        the connector section's path, e.g. {@code sinks.eu.kafka}, for security problems
     */
    public static Map<String, Object> properties(
            String brokers, KafkaSecurityConfig security, Map<String, String> passthrough, String path) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, brokers);
        if (security != null) {
            props.putAll(SecurityProperties.clientProperties(security, path + ".security"));
        }
        passthrough.forEach((key, value) -> {
            if (key.startsWith("security.") || key.startsWith("ssl.") || key.startsWith("sasl.")) {
                props.put(key, value);
            }
        });
        return props;
    }
}

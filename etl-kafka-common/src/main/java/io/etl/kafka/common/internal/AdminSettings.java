package io.etl.kafka.common.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The properties of every admin client the Kafka connectors and the readiness inspection create: the connection's
 * properties an admin client knows (bootstrap servers and security), both request timeouts set to the caller's
 * bound, and a client id naming the caller.
 *
 * <pre>{@code
 * try (Admin admin = Admin.create(AdminSettings.properties(connection, timeout, "etl-check-" + path))) { ... }
 * }</pre>
 */
public final class AdminSettings {

    private AdminSettings() {}

    /**
     * @param connection any client's properties (see {@link ClientConnection}); those an admin client does not
     *                   know are left out
     * @param timeout    {@code default.api.timeout.ms} and {@code request.timeout.ms}
     * @param clientId   {@code client.id}
     */
    public static Properties properties(Map<String, ?> connection, Duration timeout, String clientId) {
        Properties props = new Properties();
        for (String key : AdminClientConfig.configNames()) {
            Object value = connection.get(key);
            if (value != null) {
                props.put(key, value);
            }
        }
        int ms = millis(timeout);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        return props;
    }

    /**
     * What decides which cluster admin clients with these properties reach, and as whom: every property but the
     * client id and the timeouts, as text, in key order. Two clients with equal identities may share a connection.
     */
    public static Map<String, String> clusterIdentity(Map<?, ?> adminProperties) {
        Map<String, String> identity = new TreeMap<>();
        adminProperties.forEach((k, v) -> identity.put(k.toString(), String.valueOf(v)));
        identity.remove(AdminClientConfig.CLIENT_ID_CONFIG);
        identity.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
        identity.remove(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG);
        return identity;
    }

    /** {@code timeout} in whole milliseconds as an admin client option takes it: at least 1, at most int's range. */
    public static int millis(Duration timeout) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    }

    /** The milliseconds left until {@code deadline} ({@link System#nanoTime()}), as {@link #millis} bounds them. */
    public static int millisUntil(long deadline) {
        return millis(Duration.ofNanos(deadline - System.nanoTime()));
    }
}

package io.etl.kafka.common.internal;

import io.etl.kafka.common.KafkaSecurityConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.config.SaslConfigs;

/**
 * One way a pipeline uses a Kafka cluster, as the readiness inspection sees it: a connector section reading a
 * topic in a consumer group, or writing a topic with a message size guard. Neutral input: built from any
 * connector's configuration, with no I/O.
 *
 * <pre>{@code
 * ClusterUse.write("sinks.eu.kafka", connection, "orders-eu", 1_000_000)
 * ClusterUse.read("source.orders.kafka", connection, "orders", "kafka_to_kafka_split")
 * }</pre>
 *
 * @param path             the connector section's key path, e.g. {@code sinks.eu.kafka}; every finding starts
 *                         with it
 * @param clientProperties {@code bootstrap.servers} and the security settings (any client's properties: the
 *                         inspection keeps those an admin client knows)
 * @param topic            the topic read or written; {@code null} for a {@link Role#READ} that subscribes by
 *                         pattern (only the cluster and the group are checked)
 * @param role             read or write
 * @param groupId          the consumer group of a {@link Role#READ}, or {@code null}
 * @param maxMessageBytes  the largest message a {@link Role#WRITE} sends (its size guard), or 0
 * @param createdAtStart   whether the connector creates {@code topic} when it starts, so a missing topic is
 *                         expected
 * @param principal        the principal to name in findings, e.g. {@code User:etl}; derived from a SCRAM/PLAIN
 *                         JAAS {@code username} when {@code null}
 * @param refusedTimeout   how long every broker address may refuse connections before the cluster is reported
 *                         unreachable, as the connector's start gives them ({@code refused_timeout}); {@code null}
 *                         for {@link ConnectivityCheck#DEFAULT_REFUSED_TIMEOUT}
 */
public record ClusterUse(
        String path,
        Map<String, Object> clientProperties,
        String topic,
        Role role,
        String groupId,
        long maxMessageBytes,
        boolean createdAtStart,
        String principal,
        Duration refusedTimeout) {

    /** What the connector does with the topic. */
    public enum Role {
        /** A consumer group member: needs READ on the topic and the group. */
        READ,
        /** An idempotent producer: needs WRITE on the topic (and IDEMPOTENT_WRITE, implied by any WRITE). */
        WRITE
    }

    /** Validates and copies. */
    public ClusterUse {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(role, "role");
        if (topic == null && role == Role.WRITE) {
            throw new IllegalArgumentException(path + ": a write use needs a topic");
        }
        clientProperties = Map.copyOf(Objects.requireNonNull(clientProperties, "clientProperties"));
        if (principal == null) {
            principal = ClientPrincipal.ofJaas(clientProperties.get(SaslConfigs.SASL_JAAS_CONFIG));
        }
        if (refusedTimeout == null) {
            refusedTimeout = ConnectivityCheck.DEFAULT_REFUSED_TIMEOUT;
        }
    }

    /** A consumer of {@code topic} in group {@code groupId}. */
    public static ClusterUse read(String path, Map<String, ?> clientProperties, String topic, String groupId) {
        return new ClusterUse(path, Map.copyOf(clientProperties), topic, Role.READ, groupId, 0, false, null, null);
    }

    /** A producer to {@code topic} whose messages are at most {@code maxMessageBytes}. */
    public static ClusterUse write(String path, Map<String, ?> clientProperties, String topic, long maxMessageBytes) {
        return new ClusterUse(
                path, Map.copyOf(clientProperties), topic, Role.WRITE, null, maxMessageBytes, false, null, null);
    }

    /** A copy whose topic the connector creates at start-up when it is missing. */
    public ClusterUse createdAtStart(boolean value) {
        return new ClusterUse(
                path, clientProperties, topic, role, groupId, maxMessageBytes, value, principal, refusedTimeout);
    }

    /** A copy naming {@code value} as the principal. */
    public ClusterUse withPrincipal(String value) {
        return new ClusterUse(
                path, clientProperties, topic, role, groupId, maxMessageBytes, createdAtStart, value, refusedTimeout);
    }

    /** A copy whose brokers may refuse connections for {@code value} before they are reported unreachable. */
    public ClusterUse withRefusedTimeout(Duration value) {
        return new ClusterUse(
                path, clientProperties, topic, role, groupId, maxMessageBytes, createdAtStart, principal, value);
    }

    /** A copy naming the principal {@code security} authenticates as; this use as it is when that is unknown. */
    public ClusterUse withPrincipalOf(KafkaSecurityConfig security) {
        return security == null
                ? this
                : security.principal().map(this::withPrincipal).orElse(this);
    }

    /** {@code principal User:x}, or {@code the client} when unknown. */
    String who() {
        return principal == null ? "the client" : "principal " + principal;
    }

    @Override
    public String toString() {
        // client properties may hold secrets
        return "ClusterUse[" + path + " " + role + " " + topic + "]";
    }
}

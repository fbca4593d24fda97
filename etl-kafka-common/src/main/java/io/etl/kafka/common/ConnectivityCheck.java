package io.etl.kafka.common;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded startup check: can the client reach and authenticate to the brokers, and (for a sink) does
 * its topic exist? Without it a misconfigured client fails late and vaguely: a PLAINTEXT client against a
 * TLS listener just times out, a consumer logs "disconnected" forever. Every failure becomes a
 * {@link ConfigException} naming the brokers and the cause.
 *
 * <pre>{@code
 * ConnectivityCheck.of(clientProperties, "sinks.eu.kafka")
 *     .timeout(Duration.ofSeconds(30))
 *     .topic("orders-eu")
 *     .principal("User:etl")
 *     .run();
 * }</pre>
 */
public final class ConnectivityCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectivityCheck.class);

    /** Default bound of the whole check. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** Bound of the listener probe a client without TLS makes first. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final Map<String, ?> clientProperties;
    private final String path;
    private Duration timeout = DEFAULT_TIMEOUT;
    private String topic;
    private String principal;

    private ConnectivityCheck(Map<String, ?> clientProperties, String path) {
        this.clientProperties = Objects.requireNonNull(clientProperties, "clientProperties");
        this.path = Objects.requireNonNull(path, "path");
    }

    /**
     * A check with the given client properties (any client's: only those an admin client knows are used).
     *
     * @param clientProperties must hold {@code bootstrap.servers}
     * @param path             the connector section's path, e.g. {@code sinks.eu.kafka}
     */
    public static ConnectivityCheck of(Map<String, ?> clientProperties, String path) {
        return new ConnectivityCheck(clientProperties, path);
    }

    /** Bounds the whole check (default 30 s). */
    public ConnectivityCheck timeout(Duration value) {
        this.timeout = Objects.requireNonNull(value, "timeout");
        return this;
    }

    /** Also checks that {@code name} exists and can be described. */
    public ConnectivityCheck topic(String name) {
        this.topic = name;
        return this;
    }

    /** The principal to name in authentication and authorization errors, e.g. {@code User:etl}. */
    public ConnectivityCheck principal(String value) {
        this.principal = value;
        return this;
    }

    /**
     * Runs the check.
     *
     * @throws ConfigException naming the brokers and the cause when the brokers cannot be reached, refuse
     *                         the credentials, or the topic is missing or not visible
     */
    public void run() {
        String brokers = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        Object protocol = clientProperties.get(AdminClientConfig.SECURITY_PROTOCOL_CONFIG);
        String protocolName = protocol == null ? "PLAINTEXT" : protocol.toString();
        long started = System.nanoTime();
        ListenerProbe.Result probe = plaintextProbe(brokers, protocolName);
        try (Admin admin = Admin.create(adminProperties())) {
            try {
                Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions()
                                .timeoutMs(millis(timeout)))
                        .nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                LOG.debug("{}: reached {} broker(s) at {}", path, nodes.size(), brokers);
                if (topic != null) {
                    long left = Math.max(1, timeout.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
                    Map<String, TopicDescription> topics = admin.describeTopics(List.of(topic),
                                    new DescribeTopicsOptions().timeoutMs(millis(Duration.ofMillis(left))))
                            .allTopicNames().get(left, TimeUnit.MILLISECONDS);
                    LOG.debug("{}: topic '{}' has {} partition(s)", path, topic, topics.get(topic).partitions().size());
                }
            } catch (ExecutionException e) {
                throw translate(e.getCause() == null ? e : e.getCause(), brokers, protocolName, probe);
            } catch (java.util.concurrent.TimeoutException e) {
                throw unreachable(brokers, protocolName, probe, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw ConfigException.of(path + ".brokers", "interrupted while checking brokers " + brokers, e);
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            // raised by Admin.create for a client configuration kafka-clients refuses
            throw ConfigException.of(path, "cannot create a Kafka client: " + describe(e), e);
        }
    }

    /**
     * For a client without TLS, asks the listener first: a TLS listener would make the admin client die of
     * OutOfMemoryError before it reports anything (KAFKA-4090).
     */
    private ListenerProbe.Result plaintextProbe(String brokers, String protocolName) {
        if (!protocolName.equalsIgnoreCase("PLAINTEXT") && !protocolName.equalsIgnoreCase("SASL_PLAINTEXT")) {
            return null;
        }
        ListenerProbe.Result probe = ListenerProbe.probe(brokers, timeout.compareTo(PROBE_TIMEOUT) < 0 ? timeout
                : PROBE_TIMEOUT);
        if (probe.answer() == ListenerProbe.Answer.TLS) {
            throw ConfigException.of(path + ".security", "the listener at " + probe.address() + " (of brokers "
                    + brokers + ") looks like TLS (SSL or SASL_SSL) but security.protocol is " + protocolName
                    + "; set security.protocol and the tls settings to match the listener");
        }
        return probe;
    }

    private ConfigException translate(Throwable cause, String brokers, String protocolName,
                                      ListenerProbe.Result probe) {
        String who = principal == null ? "" : " as " + principal;
        if (cause instanceof SaslAuthenticationException) {
            return ConfigException.of(path + ".security", "authentication to brokers " + brokers + who
                    + " failed: " + cause.getMessage(), cause);
        }
        if (cause instanceof SslAuthenticationException) {
            return ConfigException.of(path + ".security", "TLS handshake with brokers " + brokers
                    + " failed (check the trust and client certificate settings): " + rootMessage(cause), cause);
        }
        if (cause instanceof AuthenticationException) {
            return ConfigException.of(path + ".security", "authentication to brokers " + brokers + who + " failed: "
                    + cause.getMessage(), cause);
        }
        if (cause instanceof UnknownTopicOrPartitionException) {
            return ConfigException.of(path + ".topic", "topic '" + topic + "' does not exist on brokers " + brokers
                    + " (create it first, or list it under topics to have it created at startup)", cause);
        }
        if (cause instanceof AuthorizationException) {
            return ConfigException.of(path + (topic != null ? ".topic" : ".security"),
                    (principal == null ? "the client" : "principal " + principal) + " is not authorized"
                            + (topic != null ? " to describe topic '" + topic + "'" : "") + " on brokers " + brokers
                            + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
            return unreachable(brokers, protocolName, probe, cause);
        }
        return ConfigException.of(path + ".brokers", "checking brokers " + brokers + " failed: " + describe(cause), cause);
    }

    private ConfigException unreachable(String brokers, String protocolName, ListenerProbe.Result probe,
                                        Throwable cause) {
        String hint = probe != null && probe.answer() == ListenerProbe.Answer.KAFKA
                && protocolName.equalsIgnoreCase("PLAINTEXT")
                ? "; " + probe.address() + " answers plaintext Kafka requests, so the listener probably expects"
                + " SASL (security.protocol SASL_PLAINTEXT or SASL_SSL with a sasl section)"
                : probe != null && probe.answer() == ListenerProbe.Answer.SILENT
                ? "; " + probe.address() + " accepts connections but does not answer plaintext Kafka requests:"
                + " the listener probably expects TLS or SASL"
                : probe != null && probe.answer() == ListenerProbe.Answer.UNREACHABLE
                ? "; none of them accepted a connection when the check began"
                : "";
        return ConfigException.of(path + ".brokers", "could not reach brokers " + brokers + " within "
                + Durations.format(timeout) + "; check that they are up and that security.protocol ("
                + protocolName + ") matches the listener" + hint, cause);
    }

    private Properties adminProperties() {
        Properties props = new Properties();
        Map<String, ?> source = clientProperties;
        for (String key : AdminClientConfig.configNames()) {
            Object value = source.get(key);
            if (value != null) {
                props.put(key, value);
            }
        }
        int ms = millis(timeout);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        props.putIfAbsent(AdminClientConfig.CLIENT_ID_CONFIG, "etl-check-" + path);
        return props;
    }

    private static int millis(Duration d) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, d.toMillis()));
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == t ? String.valueOf(t.getMessage()) : t.getMessage() + " (" + root.getMessage() + ")";
    }

    private static String describe(Throwable t) {
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }
}

package io.etl.kafka.common.internal;

import io.etl.core.config.Durations;
import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Turns what an admin client reports about a connection (unreachable brokers, refused credentials, a failed
 * TLS handshake, a missing or hidden topic) into a {@link ConfigException} naming the key path, the brokers
 * and the likely cause. One wording for the start-up check and the readiness inspection, which also share the
 * step before any client is made ({@link #awaitListener(Duration)}: the hosts resolve, a broker listens).
 *
 * @param path      the connector section's path, e.g. {@code sinks.eu.kafka}
 * @param brokers   the bootstrap servers, as configured
 * @param protocol  the security protocol in use ({@code PLAINTEXT} when unset)
 * @param principal the principal to name, e.g. {@code User:etl}, or {@code null}
 * @param timeout   the bound the caller waited
 * @param probe     what a plaintext probe of the listener found before the client connected, or {@code null}
 */
public record ConnectionFailures(
        String path, String brokers, String protocol, String principal, Duration timeout, ListenerProbe.Result probe) {

    /** The failures of a client with these properties (bootstrap and security are read from them). */
    public static ConnectionFailures of(
            Map<String, ?> clientProperties, String path, String principal, Duration timeout) {
        Object protocol = clientProperties.get(AdminClientConfig.SECURITY_PROTOCOL_CONFIG);
        return new ConnectionFailures(
                path,
                String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG)),
                protocol == null ? "PLAINTEXT" : protocol.toString(),
                principal,
                timeout,
                null);
    }

    /**
     * What the start-up check and the readiness inspection do before they make a client: the hosts of the brokers
     * resolve, then one address accepts a TCP connection, waited for quietly.
     *
     * @param refusedTimeout how long every address may refuse connections, within {@link #timeout()}
     * @throws ConfigException at {@code brokers} when no host resolves (each named with the cause), when every
     *     address refused for {@code refusedTimeout}, or when none accepted within the timeout
     */
    public void awaitListener(Duration refusedTimeout) {
        BootstrapAddresses.requireResolvable(brokers, path + ".brokers");
        switch (ListenerProbe.awaitAccepting(brokers, timeout, refusedTimeout)) {
            case ACCEPTING -> {
                // a broker listens: the client takes it from here
            }
            case REFUSED -> throw refused(refusedTimeout.compareTo(timeout) < 0 ? refusedTimeout : timeout);
            case UNREACHABLE ->
                throw withProbe(new ListenerProbe.Result(ListenerProbe.Answer.UNREACHABLE, null))
                        .unreachable(null);
        }
    }

    /** The same failures, with what a probe of the listener found to sharpen the "unreachable" message. */
    public ConnectionFailures withProbe(ListenerProbe.Result result) {
        return new ConnectionFailures(path, brokers, protocol, principal, timeout, result);
    }

    /**
     * The problem behind {@code cause}.
     *
     * @param topic the topic being described when it failed, or {@code null} for the cluster itself
     */
    public ConfigException translate(Throwable cause, String topic) {
        String who = principal == null ? "" : " as " + principal;
        if (cause instanceof SslAuthenticationException) {
            return ConfigException.of(
                    path + ".security",
                    "TLS handshake with brokers " + brokers
                            + " failed (check the trust and client certificate settings): "
                            + KafkaErrors.rootMessage(cause),
                    cause);
        }
        if (cause instanceof AuthenticationException) {
            // SASL, or any other rejection of the credentials that is not a TLS handshake
            return ConfigException.of(
                    path + ".security",
                    "authentication to brokers " + brokers + who + " failed: " + cause.getMessage(),
                    cause);
        }
        if (cause instanceof UnknownTopicOrPartitionException) {
            return ConfigException.of(
                    path + ".topic",
                    "topic '" + topic + "' does not exist on brokers " + brokers
                            + " (create it first, or list it under topics to have it created at startup)",
                    cause);
        }
        if (cause instanceof AuthorizationException) {
            return ConfigException.of(
                    path + (topic != null ? ".topic" : ".security"),
                    (principal == null ? "the client" : "principal " + principal) + " is not authorized"
                            + (topic != null ? " to describe topic '" + topic + "'" : "") + " on brokers " + brokers
                            + ": " + cause.getMessage(),
                    cause);
        }
        if (cause instanceof TimeoutException) {
            return unreachable(cause);
        }
        return ConfigException.of(
                path + ".brokers", "checking brokers " + brokers + " failed: " + KafkaErrors.describe(cause), cause);
    }

    /** The brokers did not answer within {@link #timeout()}. */
    public ConfigException unreachable(Throwable cause) {
        if (probe != null && probe.answer() == ListenerProbe.Answer.UNREACHABLE) {
            return ConfigException.of(
                    path + ".brokers",
                    "could not reach brokers " + brokers + " within " + Durations.format(timeout)
                            + ": none of them accepted a TCP connection; check the addresses and that the brokers"
                            + " are up",
                    cause);
        }
        return ConfigException.of(
                path + ".brokers",
                "could not reach brokers " + brokers + " within "
                        + Durations.format(timeout) + "; check that they are up and that security.protocol (" + protocol
                        + ") matches the listener" + probeHint(),
                cause);
    }

    private String probeHint() {
        if (probe == null) {
            return "";
        }
        return switch (probe.answer()) {
            case KAFKA ->
                protocol.equalsIgnoreCase("PLAINTEXT")
                        ? "; " + probe.address() + " answers plaintext Kafka requests, so the listener probably expects"
                                + " SASL (security.protocol SASL_PLAINTEXT or SASL_SSL with a sasl section)"
                        : "";
            case SILENT ->
                "; " + probe.address() + " accepts connections but does not answer plaintext Kafka"
                        + " requests: the listener probably expects TLS or SASL";
            case UNREACHABLE -> "";
            case TLS -> "";
        };
    }

    /**
     * Every address of the brokers refused TCP connections for {@code bound}: nothing listens there (a wrong port or
     * host), or the brokers are down.
     */
    public ConfigException refused(Duration bound) {
        return ConfigException.of(
                path + ".brokers",
                "could not reach brokers " + brokers + ": every address refused TCP connections for "
                        + Durations.format(bound) + " (connection refused); check the host and port, and that the"
                        + " brokers are up");
    }

    /** kafka-clients refused to create a client from the properties; the message ends with the root cause. */
    public ConfigException clientRefused(RuntimeException e) {
        return ConfigException.of(
                path,
                "cannot create a Kafka client: " + e.getClass().getSimpleName() + ": " + KafkaErrors.rootMessage(e),
                e);
    }

    /** Waiting was interrupted. */
    public ConfigException interrupted(InterruptedException e) {
        return ConfigException.of(path + ".brokers", "interrupted while checking brokers " + brokers, e);
    }
}

package io.etl.kafka.common.internal;

import io.etl.core.error.ConfigException;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded startup check: can the client reach and authenticate to the brokers, and (for a sink) does
 * its topic exist? Without it a misconfigured client fails late and vaguely: a PLAINTEXT client against a
 * TLS listener just times out, a consumer logs "disconnected" forever. Every failure becomes a
 * {@link ConfigException} naming the brokers and the cause. Brokers that do not accept connections yet are
 * waited for quietly, by plain TCP connection attempts, before any Kafka client is created.
 *
 * <pre>{@code
 * ConnectivityCheck.of(clientProperties, "sinks.eu.kafka")
 *     .timeout(Duration.ofSeconds(30))
 *     .topic("orders-eu")
 *     .principal("User:etl")
 *     .sharedWithin(context.runId())     // one probe of these brokers for the whole pipeline run
 *     .readMaxMessageBytes()             // and the topic's max.message.bytes, on the same connection
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
    private String runId;
    private boolean readMaxMessageBytes;

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
     * Shares the admin client and the cluster check with every other check of run {@code runId} that reaches
     * the same brokers with the same security settings: concurrent checks wait for one in-flight probe, later
     * ones reuse its result and its connected client. Failures read as without it.
     *
     * @param runId the pipeline run, e.g. {@code SinkContext.runId()}; {@code null} checks alone
     */
    public ConnectivityCheck sharedWithin(String runId) {
        this.runId = runId;
        return this;
    }

    /**
     * Also reads the topic's effective {@code max.message.bytes} (its own setting, else the broker default)
     * with the client that checked it, into {@link Outcome#topicMaxMessageBytes()}. A limit that cannot be read
     * (for example without {@code DESCRIBE_CONFIGS}) is left empty and never fails the check.
     */
    public ConnectivityCheck readMaxMessageBytes() {
        this.readMaxMessageBytes = true;
        return this;
    }

    /**
     * What a passed check learned on the way.
     *
     * @param topicMaxMessageBytes the topic's {@code max.message.bytes} when {@link #readMaxMessageBytes()}
     *                             asked for it and it could be read
     */
    public record Outcome(OptionalLong topicMaxMessageBytes) {}

    /**
     * Runs the check.
     *
     * @return what the check learned
     * @throws ConfigException naming the brokers and the cause when the brokers cannot be reached, refuse
     *                         the credentials, or the topic is missing or not visible
     */
    public Outcome run() {
        ConnectionFailures failures = ConnectionFailures.of(clientProperties, path, principal, timeout);
        long started = System.nanoTime();
        if (!ListenerProbe.awaitAccepting(failures.brokers(), timeout)) {
            throw failures.withProbe(new ListenerProbe.Result(ListenerProbe.Answer.UNREACHABLE, null))
                    .unreachable(null);
        }
        failures = failures.withProbe(plaintextProbe(failures.brokers(), failures.protocol(), started));
        if (runId != null) {
            SharedClusterProbe shared;
            try {
                shared = SharedClusterProbe.lease(runId, adminProperties());
            } catch (KafkaException e) {
                throw failures.clientRefused(e);
            }
            try {
                return ask(shared.admin(), shared::nodes, failures, started);
            } finally {
                shared.release();
            }
        }
        Admin admin;
        try {
            admin = Admin.create(adminProperties());
        } catch (KafkaException e) {
            // raised by Admin.create for a client configuration kafka-clients refuses
            throw failures.clientRefused(e);
        }
        try {
            return ask(
                    admin,
                    t -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(AdminSettings.millis(t)))
                            .nodes()
                            .get(t.toMillis(), TimeUnit.MILLISECONDS),
                    failures,
                    started);
        } finally {
            // the answer is known: calls still pending (a silent listener) are abandoned, not awaited
            admin.close(Duration.ZERO);
        }
    }

    /** How the brokers are listed: by a client of this check's own, or through a probe shared within the run. */
    @FunctionalInterface
    private interface ClusterNodes {
        Collection<Node> within(Duration timeout) throws ExecutionException, InterruptedException, TimeoutException;
    }

    /** Lists the brokers, then describes the topic, turning every failure into one worded for the key path. */
    private Outcome ask(Admin admin, ClusterNodes nodes, ConnectionFailures failures, long started) {
        try {
            // what is left of the bound after waiting for a listener
            Collection<Node> reached = nodes.within(Duration.ofMillis(millisLeft(started)));
            LOG.debug("{}: reached {} broker(s) at {}", path, reached.size(), failures.brokers());
            if (topic == null) {
                return new Outcome(OptionalLong.empty());
            }
            TopicProbe probe = TopicProbe.of(admin, started + timeout.toNanos());
            TopicProbe.Topic described = probe.describe(topic);
            if (described.timedOut()) {
                throw failures.unreachable(described.failure());
            }
            if (!described.exists()) {
                throw failures.translate(described.failure(), topic);
            }
            LOG.debug("{}: topic '{}' has {} partition(s)", path, topic, described.partitions());
            return new Outcome(readMaxMessageBytes ? maxMessageBytes(probe) : OptionalLong.empty());
        } catch (ExecutionException e) {
            throw failures.translate(e.getCause() == null ? e : e.getCause(), topic);
        } catch (TimeoutException e) {
            throw failures.unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.interrupted(e);
        }
    }

    /**
     * For a client without TLS, asks the listener first: a TLS listener would make the admin client die of
     * OutOfMemoryError before it reports anything (KAFKA-4090).
     */
    private ListenerProbe.Result plaintextProbe(String brokers, String protocolName, long started) {
        if (!protocolName.equalsIgnoreCase("PLAINTEXT") && !protocolName.equalsIgnoreCase("SASL_PLAINTEXT")) {
            return null;
        }
        ListenerProbe.Result probe = ListenerProbe.probe(
                brokers, Duration.ofMillis(Math.min(PROBE_TIMEOUT.toMillis(), millisLeft(started))));
        if (probe.answer() == ListenerProbe.Answer.TLS) {
            throw ConfigException.of(
                    path + ".security",
                    "the listener at " + probe.address() + " (of brokers "
                            + brokers + ") looks like TLS (SSL or SASL_SSL) but security.protocol is " + protocolName
                            + "; set security.protocol and the tls settings to match the listener");
        }
        return probe;
    }

    /** The topic's effective {@code max.message.bytes}, or empty when it cannot be read in the time left. */
    private OptionalLong maxMessageBytes(TopicProbe probe) {
        TopicProbe.MessageLimit limit;
        try {
            limit = probe.maxMessageBytes(topic);
        } catch (RuntimeException e) {
            limit = new TopicProbe.MessageLimit(topic, OptionalLong.empty(), null, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OptionalLong.empty();
        }
        if (limit.failure() != null) {
            LOG.info(
                    "{}: cannot read max.message.bytes of topic '{}' ({}: {})",
                    path,
                    topic,
                    limit.failure().getClass().getSimpleName(),
                    limit.failure().getMessage());
        } else if (limit.bytes().isPresent()) {
            LOG.debug(
                    "{}: topic '{}' max.message.bytes = {} ({})",
                    path,
                    topic,
                    limit.bytes().getAsLong(),
                    limit.source());
        }
        return limit.bytes();
    }

    /** What is left of this check's timeout since {@code started} ({@link System#nanoTime()}), at least 1 ms. */
    private long millisLeft(long started) {
        return Math.max(1, timeout.toMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private Properties adminProperties() {
        return AdminSettings.properties(clientProperties, timeout, "etl-check-" + path);
    }
}

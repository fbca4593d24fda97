package io.etl.kafka.source.internal;

import io.etl.kafka.source.KafkaSourceConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.SaslConfigs;

/** Builds a source's consumer, around the start-up check when the source runs one. */
final class ConsumerOpening {

    /** SASL mechanisms whose login stays inside the process. */
    private static final Set<String> LOCAL_LOGINS = Set.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    private final Function<Map<String, Object>, Consumer<byte[], byte[]>> factory;
    private final KafkaSourceConfig config;
    private final String path;
    private final ConsumerErrorClassifier errors;

    ConsumerOpening(
            Function<Map<String, Object>, Consumer<byte[], byte[]>> factory,
            KafkaSourceConfig config,
            String path,
            ConsumerErrorClassifier errors) {
        this.factory = factory;
        this.config = config;
        this.path = path;
        this.errors = errors;
    }

    /**
     * The consumer for {@code props}.
     *
     * @param runId            the run, whose sinks may already hold a probe of the cluster to share
     * @param startupCheck     whether to check the brokers and topics first
     * @param consumerProtocol whether the consumer uses {@code group.protocol=consumer}
     */
    Consumer<byte[], byte[]> open(
            Map<String, Object> props, String runId, boolean startupCheck, boolean consumerProtocol) {
        return startupCheck ? checked(props, runId, !consumerProtocol && buildsOffline(props)) : build(props);
    }

    /**
     * Runs the startup check and returns the consumer. A classic-protocol consumer touches no broker before its
     * first poll, so it is built first, while the check's probe (usually leased by the run's sinks already)
     * connects: its class loading and configuration overlap with the probe. A check that fails still reports
     * first (the built consumer is closed), as does a check that passes before a refused client configuration.
     * The consumer protocol's client connects as soon as it exists, and a SASL login other than PLAIN or SCRAM
     * (Kerberos, OAuth, a JAAS configuration of the user's) may call a KDC or a token endpoint while it is built:
     * those are built only after the check, so a failing check never waits for them.
     */
    private Consumer<byte[], byte[]> checked(Map<String, Object> props, String runId, boolean buildFirst) {
        KafkaException refused = null;
        Consumer<byte[], byte[]> built = null;
        if (buildFirst) {
            try {
                built = factory.apply(props);
            } catch (KafkaException e) {
                refused = e;
            }
        }
        try {
            StartupCheck.run(config, ConsumerSettings.connection(config, path), path, runId);
        } catch (RuntimeException | Error e) {
            if (built != null) {
                built.close(CloseOptions.timeout(Duration.ZERO));
            }
            throw e;
        }
        if (refused != null) {
            throw errors.clientRefused(path, refused);
        }
        return built != null ? built : build(props);
    }

    /** Whether building a classic consumer with {@code props} stays inside this process (no login that calls out). */
    static boolean buildsOffline(Map<String, Object> props) {
        Object protocol = props.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG);
        if (protocol == null || !protocol.toString().toUpperCase(Locale.ROOT).startsWith("SASL")) {
            return true;
        }
        Object mechanism = props.getOrDefault(SaslConfigs.SASL_MECHANISM, SaslConfigs.DEFAULT_SASL_MECHANISM);
        return LOCAL_LOGINS.contains(mechanism.toString().toUpperCase(Locale.ROOT));
    }

    private Consumer<byte[], byte[]> build(Map<String, Object> props) {
        try {
            return factory.apply(props);
        } catch (KafkaException e) {
            throw errors.clientRefused(path, e);
        }
    }
}

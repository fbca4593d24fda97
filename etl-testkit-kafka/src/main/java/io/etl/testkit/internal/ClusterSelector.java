package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the cluster for {@link KafkaTestCluster#fromEnvironment()}: {@code -Detl.test.kafka.brokers}
 * or {@code KAFKA_BROKERS} → external; else {@code -Detl.test.kafka=embedded|forked|testcontainers}.
 */
public final class ClusterSelector {

    /** System property naming an external cluster's bootstrap address. */
    public static final String BROKERS_PROPERTY = "etl.test.kafka.brokers";
    /** Environment variable naming an external cluster's bootstrap address. */
    public static final String BROKERS_ENV = "KAFKA_BROKERS";
    /** System property choosing the kind of broker the kit starts. */
    public static final String MODE_PROPERTY = "etl.test.kafka";

    private static final Logger LOG = LoggerFactory.getLogger(ClusterSelector.class);

    private ClusterSelector() {}

    /**
     * @param options options for a broker the kit starts
     * @return the cluster the environment asks for
     */
    public static KafkaTestCluster fromEnvironment(BrokerOptions options) {
        KafkaLogging.configure();
        Optional<String> external = externalBootstrap();
        if (external.isPresent()) {
            if (options.security() != null || !options.brokerProperties().isEmpty()) {
                LOG.warn(
                        "Using the external Kafka cluster {} named by {}/{}; the requested broker options {} are ignored",
                        external.get(),
                        BROKERS_ENV,
                        BROKERS_PROPERTY,
                        options);
            } else {
                LOG.info("Using the external Kafka cluster {}", external.get());
            }
            return new ExternalKafkaCluster(external.get(), Map.of());
        }
        String mode = System.getProperty(MODE_PROPERTY, "embedded").trim().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "":
            case "embedded":
                return EmbeddedKafkaCluster.start(options);
            case "forked":
                return ForkedKafkaClusterImpl.startSingle(options);
            case "testcontainers":
                Optional<String> unavailable = TestcontainersSupport.whyUnavailable(options);
                if (unavailable.isEmpty()) {
                    return TestcontainersSupport.start(options);
                }
                LOG.warn(
                        "-D{}=testcontainers was asked for, but {}; starting the embedded broker instead",
                        MODE_PROPERTY,
                        unavailable.get());
                return EmbeddedKafkaCluster.start(options);
            default:
                throw new IllegalArgumentException(
                        "-D" + MODE_PROPERTY + "=" + mode + " is not one of embedded, forked, testcontainers");
        }
    }

    /** @return the external bootstrap address from the system property or the environment, if any */
    public static Optional<String> externalBootstrap() {
        String value = System.getProperty(BROKERS_PROPERTY);
        if (value == null || value.isBlank()) {
            value = System.getenv(BROKERS_ENV);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}

package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import io.etl.testkit.KafkaTestCluster;
import java.util.Optional;

/**
 * Guards the optional Testcontainers dependency: nothing here touches a Testcontainers class unless
 * it is on the classpath, so the kit works without it.
 */
final class TestcontainersSupport {

    private static final String KAFKA_CONTAINER = "org.testcontainers.kafka.KafkaContainer";

    private TestcontainersSupport() {}

    /** @return why Testcontainers cannot be used here, or empty when it can */
    static Optional<String> whyUnavailable(BrokerOptions options) {
        if (options.security() != null) {
            return Optional.of("the kit secures only the brokers it runs itself (embedded, forked)");
        }
        try {
            Class.forName(KAFKA_CONTAINER, false, TestcontainersSupport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of("org.testcontainers:testcontainers-kafka is not on the classpath");
        }
        try {
            if (!TestcontainersKafkaCluster.dockerAvailable()) {
                return Optional.of(
                        "no Docker environment was found (DockerClientFactory.isDockerAvailable() is false)");
            }
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("Testcontainers could not look for Docker: " + e);
        }
        return Optional.empty();
    }

    static KafkaTestCluster start(BrokerOptions options) {
        return TestcontainersKafkaCluster.start(options);
    }
}

package io.etl.testkit.schema.internal;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.schema.TestSchemaRegistry;
import java.util.Optional;

/**
 * Guards the optional Testcontainers dependency: nothing here touches a Testcontainers class unless it is on the
 * classpath, so the kit works without it.
 */
final class TestcontainersRegistrySupport {

    private static final String GENERIC_CONTAINER = "org.testcontainers.containers.GenericContainer";

    private TestcontainersRegistrySupport() {}

    /** @return why the registry cannot run in a container here, or empty when it can */
    static Optional<String> whyUnavailable(KafkaTestCluster kafka) {
        try {
            Class.forName(GENERIC_CONTAINER, false, TestcontainersRegistrySupport.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.of("org.testcontainers:testcontainers is not on the classpath");
        }
        try {
            if (!ConfluentRegistryContainer.dockerAvailable()) {
                return Optional.of(
                        "no Docker environment was found (DockerClientFactory.isDockerAvailable() is false)");
            }
        } catch (RuntimeException | LinkageError e) {
            return Optional.of("Testcontainers could not look for Docker: " + e);
        }
        if (kafka == null || kafka.containerNetworkBootstrapServers().isEmpty()) {
            return Optional.of("the registry container keeps its schemas in Kafka and can reach only a broker in a"
                    + " container (-Detl.test.kafka=testcontainers), not " + kafka);
        }
        return Optional.empty();
    }

    static TestSchemaRegistry start(String kafkaNetworkBootstrap) {
        return ConfluentRegistryContainer.start(kafkaNetworkBootstrap);
    }
}

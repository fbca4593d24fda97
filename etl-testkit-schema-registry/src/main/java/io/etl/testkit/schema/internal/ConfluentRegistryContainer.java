package io.etl.testkit.schema.internal;

import io.etl.testkit.schema.TestSchemaRegistry;
import java.time.Duration;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * Confluent's schema registry in a container ({@code confluentinc/cp-schema-registry}; {@code
 * -Detl.test.schema-registry.image} picks another tag), on Testcontainers' shared network, keeping its schemas in
 * the Kafka container there. Loaded only through {@link TestcontainersRegistrySupport}.
 */
final class ConfluentRegistryContainer implements TestSchemaRegistry {

    /** System property naming the image. */
    static final String IMAGE_PROPERTY = "etl.test.schema-registry.image";
    /** The image used unless the property names another. */
    static final String DEFAULT_IMAGE = "confluentinc/cp-schema-registry:7.9.0";

    private static final int PORT = 8081;

    private final GenericContainer<?> container;

    private ConfluentRegistryContainer(GenericContainer<?> container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static ConfluentRegistryContainer start(String kafkaNetworkBootstrap) {
        String image = System.getProperty(IMAGE_PROPERTY, DEFAULT_IMAGE);
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetwork(Network.SHARED)
                .withExposedPorts(PORT)
                .withEnv("SCHEMA_REGISTRY_HOST_NAME", "schema-registry")
                .withEnv("SCHEMA_REGISTRY_LISTENERS", "http://0.0.0.0:" + PORT)
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_BOOTSTRAP_SERVERS", "PLAINTEXT://" + kafkaNetworkBootstrap)
                .withEnv("SCHEMA_REGISTRY_KAFKASTORE_TOPIC_REPLICATION_FACTOR", "1")
                .waitingFor(Wait.forHttp("/subjects").forStatusCode(200).withStartupTimeout(Duration.ofMinutes(3)));
        container.start();
        return new ConfluentRegistryContainer(container);
    }

    @Override
    public Kind kind() {
        return Kind.TESTCONTAINERS;
    }

    @Override
    public String url() {
        return "http://" + container.getHost() + ":" + container.getMappedPort(PORT);
    }

    @Override
    public void close() {
        container.stop();
    }

    @Override
    public String toString() {
        return "Confluent schema registry container at " + url();
    }
}

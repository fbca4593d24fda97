package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Network;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka broker in a container ({@code apache/kafka}, by default the kafka-clients version;
 * {@code -Detl.test.kafka.image} picks another), on Testcontainers' shared network with a listener of its
 * own for other containers (a schema registry, say). Loaded only through {@link TestcontainersSupport}.
 */
final class TestcontainersKafkaCluster extends AbstractKafkaTestCluster {

    /** System property naming the image. */
    static final String IMAGE_PROPERTY = "etl.test.kafka.image";

    /** The port of the listener other containers on the shared network use. */
    static final int NETWORK_PORT = 19092;

    private final KafkaContainer container;
    private final String networkBootstrap;

    private TestcontainersKafkaCluster(KafkaContainer container, String networkBootstrap) {
        this.container = container;
        this.networkBootstrap = networkBootstrap;
    }

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static TestcontainersKafkaCluster start(BrokerOptions options) {
        String image = System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion());
        // a name of its own, so that several clusters can share the network
        String alias = "kafka-" + UUID.randomUUID().toString().substring(0, 8);
        String networkBootstrap = alias + ":" + NETWORK_PORT;
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(image))
                .withNetwork(Network.SHARED)
                .withNetworkAliases(alias)
                .withListener(networkBootstrap);
        options.brokerProperties()
                .forEach((k, v) ->
                        container.withEnv("KAFKA_" + k.toUpperCase(Locale.ROOT).replace('.', '_'), v));
        container.start();
        TestcontainersKafkaCluster cluster = new TestcontainersKafkaCluster(container, networkBootstrap);
        cluster.awaitBrokers(1, options.startupTimeout());
        return cluster;
    }

    @Override
    public Kind kind() {
        return Kind.TESTCONTAINERS;
    }

    @Override
    public String bootstrapServers() {
        return container.getBootstrapServers();
    }

    @Override
    public Optional<String> containerNetworkBootstrapServers() {
        return Optional.of(networkBootstrap);
    }

    @Override
    protected void doClose() {
        container.stop();
    }

    @Override
    public String toString() {
        return "Testcontainers Kafka at " + bootstrapServers();
    }
}

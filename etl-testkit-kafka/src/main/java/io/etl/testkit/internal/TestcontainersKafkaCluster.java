package io.etl.testkit.internal;

import io.etl.testkit.BrokerOptions;
import java.util.Locale;
import org.apache.kafka.common.utils.internals.AppInfoParser;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Kafka broker in a container ({@code apache/kafka}, by default the kafka-clients version;
 * {@code -Detl.test.kafka.image} picks another). Loaded only through {@link TestcontainersSupport}.
 */
final class TestcontainersKafkaCluster extends AbstractKafkaTestCluster {

    /** System property naming the image. */
    static final String IMAGE_PROPERTY = "etl.test.kafka.image";

    private final KafkaContainer container;

    private TestcontainersKafkaCluster(KafkaContainer container) {
        this.container = container;
    }

    static boolean dockerAvailable() {
        return DockerClientFactory.instance().isDockerAvailable();
    }

    static TestcontainersKafkaCluster start(BrokerOptions options) {
        String image = System.getProperty(IMAGE_PROPERTY, "apache/kafka:" + AppInfoParser.getVersion());
        KafkaContainer container = new KafkaContainer(DockerImageName.parse(image));
        options.brokerProperties()
                .forEach((k, v) ->
                        container.withEnv("KAFKA_" + k.toUpperCase(Locale.ROOT).replace('.', '_'), v));
        container.start();
        TestcontainersKafkaCluster cluster = new TestcontainersKafkaCluster(container);
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
    protected void doClose() {
        container.stop();
    }

    @Override
    public String toString() {
        return "Testcontainers Kafka at " + bootstrapServers();
    }
}

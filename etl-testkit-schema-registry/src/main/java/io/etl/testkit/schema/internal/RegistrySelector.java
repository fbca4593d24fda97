package io.etl.testkit.schema.internal;

import io.etl.testkit.KafkaTestCluster;
import io.etl.testkit.schema.SchemaRegistryServer;
import io.etl.testkit.schema.TestSchemaRegistry;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the registry for {@link TestSchemaRegistry#fromEnvironment}: {@code -Detl.test.schema-registry.url} or
 * {@code SCHEMA_REGISTRY_URL} → external; else {@code -Detl.test.schema-registry=server|testcontainers}, following
 * {@code -Detl.test.kafka} when unset.
 */
public final class RegistrySelector {

    /** System property naming a running registry. */
    public static final String URL_PROPERTY = "etl.test.schema-registry.url";
    /** Environment variable naming a running registry. */
    public static final String URL_ENV = "SCHEMA_REGISTRY_URL";
    /** System property choosing the kind of registry the kit starts. */
    public static final String MODE_PROPERTY = "etl.test.schema-registry";
    /** The broker's switch, which the registry follows when its own is unset. */
    static final String KAFKA_MODE_PROPERTY = "etl.test.kafka";

    private static final Logger LOG = LoggerFactory.getLogger(RegistrySelector.class);

    private RegistrySelector() {}

    /**
     * @param kafka the test's cluster
     * @return the registry the environment asks for
     */
    public static TestSchemaRegistry fromEnvironment(KafkaTestCluster kafka) {
        Optional<String> external = externalUrl();
        if (external.isPresent()) {
            LOG.info("Using the external schema registry {}", external.get());
            return new ExternalSchemaRegistry(external.get());
        }
        String mode = mode();
        switch (mode) {
            case "server":
                return SchemaRegistryServer.start();
            case "testcontainers":
                Optional<String> unavailable = TestcontainersRegistrySupport.whyUnavailable(kafka);
                if (unavailable.isEmpty()) {
                    return TestcontainersRegistrySupport.start(
                            kafka.containerNetworkBootstrapServers().orElseThrow());
                }
                LOG.warn(
                        "A schema registry in a container (-D{}=testcontainers) was asked for, but {}; starting the"
                                + " kit's registry server instead",
                        MODE_PROPERTY,
                        unavailable.get());
                return SchemaRegistryServer.start();
            default:
                throw new IllegalArgumentException(
                        "-D" + MODE_PROPERTY + "=" + mode + " is not one of server, testcontainers");
        }
    }

    /** The registry's own switch, or {@code testcontainers} when only the broker's asks for containers. */
    private static String mode() {
        String own = System.getProperty(MODE_PROPERTY);
        if (own != null && !own.isBlank()) {
            return own.trim().toLowerCase(Locale.ROOT);
        }
        String kafka = System.getProperty(KAFKA_MODE_PROPERTY, "");
        return kafka.trim().equalsIgnoreCase("testcontainers") ? "testcontainers" : "server";
    }

    /** @return the external registry's URL from the system property or the environment, if any */
    static Optional<String> externalUrl() {
        String value = System.getProperty(URL_PROPERTY);
        if (value == null || value.isBlank()) {
            value = System.getenv(URL_ENV);
        }
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** A registry someone else runs: nothing to start or stop. */
    private record ExternalSchemaRegistry(String url) implements TestSchemaRegistry {
        @Override
        public Kind kind() {
            return Kind.EXTERNAL;
        }

        @Override
        public void close() {}
    }
}
